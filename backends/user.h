/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * user.h - what the user backend's parts share: user.c (the backend and
 * the size-class lookups), user_alloc.c (the userspace allocators and
 * their timed loops), and below both user_clock.c (the clock's rate; the
 * counter itself, ab_user_cycles(), is inline in common/ab_clock.h) and
 * user_limits.c (the limits).
 */
#ifndef AB_USER_H
#define AB_USER_H

#include <stddef.h>
#include <stdint.h>
#include <linux/allocbench.h>

/*
 * ab_user_tsc_khz - the rate of ab_user_cycles() in kHz, calibrated once
 * against CLOCK_MONOTONIC_RAW (1000000 without a TSC: nanoseconds).
 */
uint32_t ab_user_tsc_khz(void);

/* Largest trials and warm-up trials of a run or a lookup. */
#define AB_USER_MAX_TRIALS (1U << 24)

/*
 * ab_user_limits - this backend's limits into @info, as AB_IOC_INFO
 * reports the module's (ab_run_check() applies them).
 */
void ab_user_limits(struct ab_info *info);

/*
 * ab_user_strategies - the allocators usable in this process, as
 * struct ab_strategy_info (ids index them), loading the optional ones with
 * dlopen on first use. *@n gets how many.
 */
const struct ab_strategy_info *ab_user_strategies(unsigned int *n);

/*
 * ab_user_unavailable - one line per optional allocator that is not
 * installed, naming its Debian package, into @buf. Returns how many.
 */
int ab_user_unavailable(char *buf, size_t len);

/* ab_user_run - one run in this process, as AB_IOC_RUN does it. */
int ab_user_run(struct ab_run *r, char *why, size_t len);

#endif
