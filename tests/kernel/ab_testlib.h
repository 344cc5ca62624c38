/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * ab_testlib.h - what the in-guest test programs (ioctl_test's suite and
 * the fuzzer) share about /dev/allocbench: opening it, raw ioctls with
 * their errno, the module's AB_IOC_INFO, a strategy by name, the
 * smallest valid struct ab_run and ab_lookup, the budget parameter
 * max_outstanding_mb and /proc/meminfo. Plain C, for 64-bit and -m32
 * builds alike; nothing here asserts.
 */
#ifndef AB_TESTLIB_H
#define AB_TESTLIB_H

#include <stddef.h>
#include <stdint.h>
#include <linux/allocbench.h>

#define AB_DEV_PATH	"/dev/" AB_DEVICE_NAME
#define AB_BUDGET_PARAM "/sys/module/allocbench/parameters/max_outstanding_mb"

/* open(AB_DEV_PATH, O_RDWR): a descriptor, or -1 with errno set. */
int ab_open(void);

/* ioctl(@fd, @cmd, @arg): 0, or the errno it failed with. */
int ab_ioctl(int fd, unsigned long cmd, void *arg);

/*
 * AB_IOC_INFO on @fd into @info (cleared first, this build's size), the
 * strategies into @strat, @len of them at most: 0 or the errno.
 */
int ab_info_load(int fd, struct ab_info *info, struct ab_strategy_info *strat,
		 uint32_t len);

/*
 * The objects the module holds now (ab_info.outstanding, from a count-only
 * AB_IOC_INFO on @fd) into @n: 0, or the errno (then @n is untouched).
 */
int ab_outstanding(int fd, uint64_t *n);

/* The strategy called @name among @n of @strat, or NULL. */
const struct ab_strategy_info *
ab_strategy_named(const struct ab_strategy_info *strat, unsigned int n,
		  const char *name);

/*
 * @r cleared to the smallest valid run of @s: this build's size, batch 2,
 * trials 2, no node (-1), objects of 64 bytes when @s takes a size, no
 * samples.
 */
void ab_run_init(struct ab_run *r, const struct ab_strategy_info *s);

/*
 * @l cleared to a lookup of @nr_sizes sizes at @sizes (bytes each) by
 * @method in @table, @trials passes, no warm-up and no samples.
 */
void ab_lookup_init(struct ab_lookup *l, uint32_t method, uint32_t table,
		    const uint32_t *sizes, uint32_t nr_sizes, uint32_t trials);

/*
 * Writes @mb (MiB, a decimal string; "0" restores the default) to
 * AB_BUDGET_PARAM: 0 once written whole, the errno of a failed write (EIO
 * for a short one), -1 when the parameter does not open (errno set).
 */
int ab_budget_write(const char *mb);

/* AB_BUDGET_PARAM's value into @buf (@len bytes), "0" when unreadable. */
void ab_budget_read(char *buf, size_t len);

/* The field @key of /proc/meminfo (its last line of that key), in KiB, or
 * -1 without it. */
long ab_meminfo_kb(const char *key);

/* CLOCK_MONOTONIC, in seconds. */
double ab_now(void);

#endif /* AB_TESTLIB_H */
