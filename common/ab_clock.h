/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ab_clock.h - what one reading of the cycle counter costs, measured the
 * same way by allocbench.ko and the user backend. The includer defines
 * AB_CYCLES() (see ab_trial.h).
 */
#ifndef AB_CLOCK_H
#define AB_CLOCK_H

#ifdef __KERNEL__
#include <linux/types.h>
#else
#include "ab_compat.h"
#endif

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
