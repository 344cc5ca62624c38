/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * stats.h - summary statistics of per-trial samples.
 */
#ifndef AB_STATS_H
#define AB_STATS_H

#include <stddef.h>

/**
 * struct ab_stats - summary of n samples (same unit as the samples)
 * @n:      number of samples
 * @min, @max: extremes
 * @median: middle value of the sorted samples; for even n the mean of the
 *          two middle values
 * @mean:   arithmetic mean
 * All values are NAN when n == 0 (printed as n/a).
 */
struct ab_stats {
	size_t n;
	double min;
	double median;
	double mean;
	double max;
};

/*
 * ab_stats_compute - fill @st from @v[0..n). Sorts @v in place.
 */
void ab_stats_compute(double *v, size_t n, struct ab_stats *st);

#endif
