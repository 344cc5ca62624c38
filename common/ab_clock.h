/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ab_clock.h - the timing primitives of the timed loops that allocbench.ko
 * and the user backend share (ab_trial.h, ab_lookup_pass.h), and what one
 * reading of the clock costs, measured the same way on both sides:
 *
 *   AB_CYCLES()    the cycle counter, read ordered: the read waits for
 *                  every instruction before it, loads included, so a
 *                  stamp does not move across the harness's loads. The
 *                  module: rdtsc_ordered() (lfence or rdtscp,
 *                  arch/x86/include/asm/msr.h; get_cycles() alone is a
 *                  plain rdtsc), elsewhere mb() then get_cycles(). User
 *                  space: ab_user_cycles(), lfence then rdtsc, or
 *                  CLOCK_MONOTONIC_RAW in ns without a TSC (its rate:
 *                  backends/user_clock.c). Inline on both sides.
 *   AB_OPERAND(p)  @p, through an empty volatile asm that takes it in a
 *                  register: @p is loaded before the next AB_CYCLES()
 *   AB_HIDE(var)   hide @var from the optimizer (the module's
 *                  OPTIMIZER_HIDE_VAR()), so a value summed in a timed
 *                  loop is neither folded nor vectorized
 *
 * Its includers define nothing. A test program may define AB_CYCLES() (a
 * clock of its own, e.g. one that advances a fixed step per read) or
 * AB_HIDE() before including it; then its own is used.
 */
#ifndef AB_CLOCK_H
#define AB_CLOCK_H

#ifdef __KERNEL__
#include <linux/types.h>
#include <linux/compiler.h>
#include <linux/timex.h>
#include <asm/barrier.h>

#ifndef AB_CYCLES
#ifdef CONFIG_X86
#define AB_CYCLES() ((u64)rdtsc_ordered())
#else
/* mb(): the loads before the read complete first, as rdtsc_ordered() */
#define AB_CYCLES() ({ mb(); (u64)get_cycles(); })
#endif
#endif
#ifndef AB_HIDE
#define AB_HIDE(var) OPTIMIZER_HIDE_VAR(var)
#endif

#else /* user space */
#include <time.h>
#include "ab_compat.h"
#if defined(__x86_64__) || defined(__i386__)
#include <x86intrin.h>
#define AB_USER_TSC 1
#else
#define AB_USER_TSC 0
#endif

/* ab_user_ns - CLOCK_MONOTONIC_RAW in nanoseconds */
static inline u64 ab_user_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC_RAW, &ts);
	return (u64)ts.tv_sec * 1000000000u + (u64)ts.tv_nsec;
}

/*
 * ab_user_cycles - the user backend's cycle counter: TSC cycles (lfence
 * first: rdtsc then waits for the operations before it, Intel SDM), or
 * ab_user_ns() where there is no TSC (AB_USER_TSC 0).
 */
static inline u64 ab_user_cycles(void)
{
#if AB_USER_TSC
	_mm_lfence();
	return __rdtsc();
#else
	return ab_user_ns();
#endif
}

#ifndef AB_CYCLES
#define AB_CYCLES() ab_user_cycles()
#endif
#ifndef AB_HIDE
#define AB_HIDE(var) ({ __asm__ __volatile__("" : "+r"(var)); })
#endif
#endif

static __always_inline void *ab_operand(void *p)
{
	__asm__ __volatile__("" : "+r"(p));
	return p;
}

#define AB_OPERAND(p) ab_operand(p)

#define AB_CLOCK_PAIRS 63

/*
 * ab_clock_pair - median cycles of a pair of AB_CYCLES() reads with
 * nothing between: what timing one operation costs (ab_run.clock_cycles).
 */
static inline u64 ab_clock_pair(void)
{
	u64 d[AB_CLOCK_PAIRS], t0, tmp;
	int i, j;

	for (i = 0; i < AB_CLOCK_PAIRS; i++) {
		t0 = AB_CYCLES();
		d[i] = AB_CYCLES() - t0;
	}
	/* insertion sort: 63 values, no library on either side */
	for (i = 1; i < AB_CLOCK_PAIRS; i++)
		for (j = i; j > 0 && d[j - 1] > d[j]; j--) {
			tmp = d[j];
			d[j] = d[j - 1];
			d[j - 1] = tmp;
		}
	return d[AB_CLOCK_PAIRS / 2];
}

#endif
