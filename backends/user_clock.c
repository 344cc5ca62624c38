// SPDX-License-Identifier: GPL-2.0-only
/*
 * user_clock.c - the user backend's clock: the cycle counter its timed
 * loops read (rdtsc), and its rate, calibrated against CLOCK_MONOTONIC_RAW
 * over 50 ms (the kernel's tsc_khz is not visible to user space); on CPUs
 * without a TSC the clock is CLOCK_MONOTONIC_RAW itself, in ns, reported
 * as 1000000 kHz.
 */
#include <stdint.h>
#include <time.h>
#if defined(__x86_64__) || defined(__i386__)
#include <x86intrin.h>
#define AB_HAVE_TSC 1
#else
#define AB_HAVE_TSC 0
#endif

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
