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
 * @ci_lo, @ci_hi: a confidence interval of the median from order
 *            statistics, without assuming any distribution: the sorted
 *            values of ranks j and n - j + 1 for the largest j whose exact
 *            coverage 1 - 2 P(B <= j - 1), B ~ Binomial(n, 1/2), is at
 *            least AB_CI_LEVEL (J.-Y. Le Boudec, "Performance Evaluation of
 *            Computer and Communication Systems", EPFL Press 2010,
 *            Theorem 2.1, with the binomial computed exactly rather than
 *            by its normal approximation): n = 6 gives [x(1), x(6)] at
 *            96.9%, n = 100 gives [x(40), x(61)] at 96.5%
 * @ci_level: that interval's exact coverage (0.969 for n = 6), at least
 *            AB_CI_LEVEL
 *
 * A statistic that is undefined for this n is NAN (printed as n/a, written
 * as null): everything for n == 0, @stddev and @cv for n < 2, @cv when
 * the mean is 0, and the interval and its level when even [min, max] covers
 * the median with less than AB_CI_LEVEL (n <= 5: 1 - 2 / 2^5 = 93.8%).
 */
struct ab_stats {
	size_t n;
	double min;
	double median;
	double mean;
	double max;
	double p90;
	double p99;
	double p999; /* p99.9: the value of rank ceil(0.999 n) */
	double stddev;
	double cv;
	double ci_lo;
	double ci_hi;
	double ci_level;
};

/* The confidence level every interval of the median is built for. */
#define AB_CI_LEVEL 0.95

/*
 * ab_median_ci_ranks - the 1-based ranks @lo, @hi of the exact
 * order-statistic interval of the median for @n samples (see struct
 * ab_stats) and its @coverage; 0, 0 and NAN when none reaches AB_CI_LEVEL.
 */
void ab_median_ci_ranks(size_t n, size_t *lo, size_t *hi, double *coverage);

/*
 * ab_ci_note - one sentence naming the interval of the median for @n
 * samples and its exact coverage ("... ranks 40 and 61 of the sorted
 * samples, exact coverage 96.5%"), or that none reaches the level.
 */
void ab_ci_note(size_t n, char *buf, size_t len);

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

/*
 * ab_holm - Holm's step-down adjustment of @n p-values @p[0..n) (not
 * modified) into @adj[0..n), in the same order, controlling the
 * family-wise error rate (the chance of at least one false verdict among
 * the @n tests) at any level alpha when each test rejects on adj < alpha:
 * with the m defined p-values sorted, p(1) <= ... <= p(m), adj(i) =
 * max over j <= i of min(1, (m - j + 1) p(j)) (S. Holm, "A simple
 * sequentially rejective multiple test procedure", Scand. J. Statist. 6,
 * 1979, pp. 65-70; the adjusted form: S. P. Wright, "Adjusted p-values
 * for simultaneous inference", Biometrics 48, 1992). Valid under any
 * dependence between the tests. A NAN p (a test that could not be made)
 * is left out of m and gets a NAN. Returns m, or 0 without memory (every
 * @adj then NAN).
 */
size_t ab_holm(const double *p, size_t n, double *adj);

#endif
