// SPDX-License-Identifier: GPL-2.0-only
/*
 * ioctl_suite.c - what the raw-ioctl suite's tests share: the device and
 * the module's AB_IOC_INFO (read once by setup_all()), a strategy by
 * name, the smallest valid request, run_ok() and the invariants every
 * run keeps, the kernel's PREEMPT_RT, pinning, and the budget parameter.
 */
#define _GNU_SOURCE
#include <sched.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>
#include <cmocka.h>
#include "ab_testlib.h"
#include "ioctl_suite.h"

int fd = -1;
struct ab_info info;
struct ab_strategy_info strat[64];

int xioctl(unsigned long cmd, void *arg)
{
	return ab_ioctl(fd, cmd, arg);
}

const struct ab_strategy_info *find(const char *name)
{
	const struct ab_strategy_info *s =
		ab_strategy_named(strat, info.nr_strategies, name);

	if (!s)
		fail_msg("strategy %s missing", name);
	return s;
}

uint64_t outstanding(void)
{
	uint64_t n = 0;

	assert_int_equal(ab_outstanding(fd, &n), 0);
	return n;
}

int setup_all(void **state)
{
	fd = ab_open();
	if (fd < 0)
		return -1;
	return ab_info_load(fd, &info, strat, 64) ? -1 : 0;
}

struct ab_run req(const char *name)
{
	struct ab_run r;

	ab_run_init(&r, find(name));
	return r;
}

/* Whether uname -v holds the word @word (the kernel's own build flags). */
static int uname_says(const char *word)
{
	struct utsname u;
	size_t n = strlen(word);
	const char *p;

	if (uname(&u))
		return 0;
	for (p = u.version; (p = strstr(p, word)); p += n)
		if ((p == u.version || p[-1] == ' ') && (p[n] == ' ' || !p[n]))
			return 1;
	return 0;
}

int kernel_is_rt(void)
{
	return uname_says("PREEMPT_RT");
}

/* Objects one trial of @r allocates. */
static uint32_t per_trial(const struct ab_run *r)
{
	return strcmp(strat[r->strategy].name, "vmalloc_batch") ? r->batch : 1;
}

/*
 * Samples one trial of @r writes: one per object in single timing, but one
 * for strategies timed per trial (AB_STRATEGY_PER_TRIAL).
 */
static uint32_t samples_per_trial(const struct ab_run *r)
{
	if (r->timing != AB_TIMING_SINGLE ||
	    (strat[r->strategy].flags & AB_STRATEGY_PER_TRIAL))
		return 1;
	return per_trial(r);
}

/*
 * Runs @r with samples; checks the invariants every run must keep: all
 * trials done, nothing failed, the samples account for every object, the
 * phases took cycles (with @want_cycles; the free phase of the pair
 * pattern in batch timing is empty), the clock cost was measured, and the
 * module holds nothing afterwards.
 */
void run_ok(struct ab_run *r, int want_cycles)
{
	/* one sample per object: single timing, not a per-trial strategy */
	int single = r->timing == AB_TIMING_SINGLE &&
		     !(strat[r->strategy].flags & AB_STRATEGY_PER_TRIAL);
	int pair = r->free_pattern == AB_FREE_PAIR;
	uint32_t per = per_trial(r);
	size_t len = (size_t)r->trials * samples_per_trial(r);
	struct ab_sample *s = calloc(len, sizeof(*s));
	size_t i;
	int err;

	assert_non_null(s);
	r->samples_ptr = (uintptr_t)s;
	r->samples_len = len;
	err = xioctl(AB_IOC_RUN, r);
	if (err)
		fail_msg("%s, size %llu, order %u, batch %u: %s",
			 strat[r->strategy].name,
			 (unsigned long long)r->obj_size, r->order, r->batch,
			 strerror(err));
	assert_int_equal(r->trials_done, r->trials);
	assert_int_equal(r->failed, 0);
	assert_int_equal(r->objects, (uint64_t)per * r->trials);
	assert_true(r->clock_cycles > 0);
	if (pair)
		assert_int_equal(r->node_checked, 0);
	for (i = 0; i < len; i++) {
		assert_int_equal(s[i].nr_objs, single ? 1 : per);
		assert_int_equal(s[i].flags, 0);
		if (want_cycles) {
			assert_true(s[i].alloc_cycles > 0);
			if (pair && r->timing == AB_TIMING_BATCH)
				assert_int_equal(s[i].free_cycles, 0);
			else
				assert_true(s[i].free_cycles > 0);
		}
	}
	assert_int_equal(outstanding(), 0);
	free(s);
}

void pin(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	assert_int_equal(sched_setaffinity(0, sizeof(set), &set), 0);
}

int set_param(const char *value)
{
	int err = ab_budget_write(value);

	assert_true(err >= 0);
	return err;
}

uint64_t ram_mb(void)
{
	long pages = sysconf(_SC_PHYS_PAGES), psz = sysconf(_SC_PAGESIZE);

	return (uint64_t)pages * (uint64_t)psz >> 20;
}
