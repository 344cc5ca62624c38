// SPDX-License-Identifier: GPL-2.0-only
/*
 * user.c - the user backend: work done in the CLI's own process, without
 * the module or root: userspace allocators (user_alloc.c) and the same
 * size-class lookup loops the module times (common/ab_lookup_pass.h), read
 * with rdtsc.
 *
 * The TSC rate is calibrated against CLOCK_MONOTONIC_RAW over 50 ms (the
 * kernel's tsc_khz is not visible to user space); on CPUs without a TSC
 * the clock is CLOCK_MONOTONIC_RAW itself, in ns, reported as 1000000 kHz.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#if defined(__x86_64__) || defined(__i386__)
#include <x86intrin.h>
#define AB_HAVE_TSC 1
#else
#define AB_HAVE_TSC 0
#endif

#include "backend.h"
#include "user.h"

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC_RAW, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

uint64_t ab_user_cycles(void)
{
#if AB_HAVE_TSC
	/* lfence: rdtsc waits for the operations before it (Intel SDM) */
	_mm_lfence();
	return __rdtsc();
#else
	return now_ns();
#endif
}

#define AB_CYCLES()  ab_user_cycles()
#define AB_HIDE(var) __asm__ __volatile__("" : "+r"(var))
#include "ab_clock.h"
#include "ab_lookup_pass.h"

#define USER_MAX_TRIALS (1U << 24)

/* TSC kHz, measured once: cycles over 50 ms of CLOCK_MONOTONIC_RAW. */
uint32_t ab_user_tsc_khz(void)
{
	static uint32_t khz;
	uint64_t t0, c0, t1, c1;

	if (khz || !AB_HAVE_TSC)
		return khz ? khz : 1000000;
	t0 = now_ns();
	c0 = ab_user_cycles();
	do
		t1 = now_ns();
	while (t1 - t0 < 50000000);
	c1 = ab_user_cycles();
	khz = (uint32_t)((c1 - c0) * 1000000 / (t1 - t0));
	return khz;
}

static int user_probe(char *why, size_t len)
{
	return 0;
}

/*
 * The kernel's nr_node_ids: the highest possible node + 1, from the last
 * number of /sys/devices/system/node/possible ("0-1"); 1 without it.
 */
static uint32_t possible_nodes(void)
{
	FILE *f = fopen("/sys/devices/system/node/possible", "re");
	char line[256], *p;
	unsigned long last = 0;

	if (!f)
		return 1;
	if (fgets(line, sizeof(line), f)) {
		p = line + strcspn(line, "\n");
		while (p > line && p[-1] >= '0' && p[-1] <= '9')
			p--;
		last = strtoul(p, NULL, 10);
	}
	fclose(f);
	return (uint32_t)last + 1;
}

void ab_user_limits(struct ab_info *info)
{
	memset(info, 0, sizeof(*info));
	info->max_trials = USER_MAX_TRIALS;
	info->max_batch = 1U << 20;
	info->max_bytes = (uint64_t)sysconf(_SC_PHYS_PAGES) *
			  (uint64_t)sysconf(_SC_PAGESIZE) / 4;
	info->page_size = (uint32_t)sysconf(_SC_PAGESIZE);
	info->nr_node_ids = possible_nodes();
	/* every flag but remote frees (refused: see user_alloc.c) */
	info->run_flags = AB_RUN_FLAGS_ALL & ~AB_RUN_REMOTE_FREE;
}

static int user_info(struct ab_backend_info *out, char *why, size_t len)
{
	memset(out, 0, sizeof(*out));
	ab_user_limits(&out->info);
	out->info.abi_version = AB_ABI_VERSION;
	snprintf(out->info.version, sizeof(out->info.version), "%s",
		 AB_TOOL_VERSION);
	out->info.tsc_khz = ab_user_tsc_khz();
	out->strategies = (struct ab_strategy_info *)ab_user_strategies(
		&out->info.nr_strategies);
	return 0;
}

static int user_put_pass(struct ab_lookup *l, uint32_t index, uint64_t c)
{
	if (l->samples_ptr)
		((uint64_t *)(uintptr_t)l->samples_ptr)[index] = c;
	return 0;
}

static int user_next_pass(void)
{
	return ab_stop_requested ? -EINTR : 0;
}

static int user_lookup(struct ab_lookup *l, char *why, size_t len)
{
	int err = ab_lookup_check(l, USER_MAX_TRIALS);

	if (err) {
		snprintf(why, len, "invalid lookup request (%s)",
			 strerror(-err));
		return err;
	}
	l->tsc_khz = ab_user_tsc_khz();
	l->clock_cycles = ab_clock_pair();
	l->cpu = (uint32_t)sched_getcpu();
	err = ab_lookup_passes(l, (const uint32_t *)(uintptr_t)l->sizes_ptr,
			       user_put_pass, user_next_pass);
	if (err == -EINTR)
		snprintf(why, len, "interrupted after %u of %u passes",
			 l->trials_done, l->trials);
	return err;
}

const struct ab_backend ab_backend_user = {
	.name = "user",
	.desc = "the CLI's own process, no module or root needed: userspace allocators and size-class lookups",
	.default_run = "malloc",
	.default_sweep = "numa_alloc_onnode",
	.probe = user_probe,
	.info = user_info,
	.run = ab_user_run,
	.unavailable = ab_user_unavailable,
	.lookup = user_lookup,
};
