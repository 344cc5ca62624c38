/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * stats.h - summary statistics of per-trial (or per-op) samples.
 */
#ifndef AB_STATS_H
#define AB_STATS_H

#include <stddef.h>
#include <stdint.h>

/**
 * struct ab_stats - summary of n samples (same unit as the samples)
 * @n:        number of samples
 * @min, @max: extremes
 * @median:   middle value of the sorted samples; for even n the mean of the
 *            two middle values
 * @mean:     arithmetic mean
 * @p90, @p99: percentiles by the nearest-rank method: the value of rank
 *            ceil(p / 100 * n) in the sorted samples (Hyndman and Fan's
 *            definition 1, the inverse of the empirical distribution)
 * @stddev:   sample standard deviation (n - 1 in the denominator)
 * @cv:       coefficient of variation, @stddev / @mean
 * @ci_lo, @ci_hi: a 95% confidence interval of the median from order
 *            statistics, without assuming any distribution: the values of
 *            ranks floor(0.5n - 0.980 sqrt(n)) and ceil(0.5n + 1 +
 *            0.980 sqrt(n)) (J.-Y. Le Boudec, "Performance Evaluation of
 *            Computer and Communication Systems", EPFL Press 2010,
 *            Theorem 2.1 and its normal approximation of the binomial)
 *
 * A statistic that is undefined for this n is NAN (printed as n/a, written
 * as null): everything for n == 0, @stddev and @cv for n < 2, @cv when
 * the mean is 0, and the interval when its ranks fall outside 1..n
 * (n < 8).
 */
struct ab_stats {
	size_t n;
	double min;
	double median;
	double mean;
	double max;
	double p90;
	double p99;
	double stddev;
	double cv;
	double ci_lo;
	double ci_hi;
};

/* ab_stats_compute - fill @st from @v[0..n). Sorts @v in place. */
void ab_stats_compute(double *v, size_t n, struct ab_stats *st);

/*
 * ab_histogram_log2 - count @v[0..n) into log2 buckets: bucket 0 holds
 * values below 1, bucket b >= 1 holds [2^(b-1), 2^b); the last bucket
 * (@nbuckets - 1) also takes everything larger (the overflow bucket).
 * Negative values count in bucket 0. @counts is zeroed first.
 */
void ab_histogram_log2(const double *v, size_t n, uint64_t *counts,
		       size_t nbuckets);

#endif
