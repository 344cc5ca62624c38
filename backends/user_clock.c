// SPDX-License-Identifier: GPL-2.0-only
/*
 * user_clock.c - the rate of the user backend's clock (common/ab_clock.h's
 * ab_user_cycles(), AB_CYCLES() in user space), calibrated against
 * CLOCK_MONOTONIC_RAW over 50 ms: the kernel's tsc_khz is not visible to
 * user space. On CPUs without a TSC the clock is CLOCK_MONOTONIC_RAW
 * itself, in ns, reported as 1000000 kHz.
 */
#include <stdint.h>

#include "ab_clock.h"
#include "user.h"

/* TSC kHz, measured once: cycles over 50 ms of CLOCK_MONOTONIC_RAW. */
uint32_t ab_user_tsc_khz(void)
{
	static uint32_t khz;
	uint64_t t0, c0, t1, c1;

	if (khz || !AB_USER_TSC)
		return khz ? khz : 1000000;
	t0 = ab_user_ns();
	c0 = ab_user_cycles();
	do
		t1 = ab_user_ns();
	while (t1 - t0 < 50000000);
	c1 = ab_user_cycles();
	khz = (uint32_t)((c1 - c0) * 1000000 / (t1 - t0));
	return khz;
}
