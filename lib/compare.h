/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * compare.h - is B faster than A, and why: a significance test on the
 * per-trial samples and a short explanation from counter deltas.
 */
#ifndef AB_COMPARE_H
#define AB_COMPARE_H

#include <stddef.h>

#include "stats.h"

/**
 * struct ab_mwu - Mann-Whitney U test (Wilcoxon rank-sum), two-sided
 * @u:  U of the first sample: pairs (a, b) with a > b, ties counting 1/2
 * @z:  (U - na nb / 2 -+ 1/2) / sd, the normal approximation with
 *      continuity correction and the variance corrected for ties:
 *      sd^2 = na nb / 12 ((n + 1) - sum(t^3 - t) / (n (n - 1)))
 *      (Lehmann, "Nonparametrics: Statistical Methods Based on Ranks",
 *      1975, ch. 1); good from about 10 samples each
 * @p:  two-sided p-value, erfc(|z| / sqrt(2)); NAN when undefined (an
 *      empty sample, or every value tied)
 */
struct ab_mwu {
	double u;
	double z;
	double p;
};

/* ab_mann_whitney - test @a[0..na) against @b[0..nb) (not modified). */
void ab_mann_whitney(const double *a, size_t na, const double *b, size_t nb,
		     struct ab_mwu *out);

/**
 * struct ab_wsr - Wilcoxon signed-rank test of paired differences, exact and
 * two-sided, with the Hodges-Lehmann estimate and Tukey's interval
 * @n:        differences given
 * @used:     the nonzero ones: the test ranks their absolute values (zeros
 *            are dropped, as in Wilcoxon, "Individual comparisons by
 *            ranking methods", Biometrics Bulletin 1(6), 1945); ties get
 *            the mean of their ranks (midranks)
 * @w_plus:   the statistic W+: the sum of the ranks of the positive
 *            differences
 * @p:        exact two-sided p-value, min(1, 2 min(P(W+ <= w), P(W+ >= w)))
 *            over the 2^@used equally likely sign assignments of these
 *            ranks (midranks included, so exact with ties too): the null
 *            hypothesis is that each difference is as likely positive as
 *            negative, independently; NAN when @used is 0
 * @estimate: Hodges-Lehmann estimate of the centre: the median of the
 *            n (n + 1) / 2 Walsh averages (d_i + d_j) / 2, i <= j, of all
 *            @n differences
 * @ci_lo, @ci_hi: Tukey's interval for that centre: the Walsh averages of
 *            ranks k and M + 1 - k (M = n (n + 1) / 2), k the largest whose
 *            coverage 1 - 2 P(W+ <= k - 1) (W+ of n untied ranks) is at
 *            least AB_CI_LEVEL (Hollander, Wolfe and Chicken, "Nonparametric
 *            Statistical Methods", 3rd ed., Wiley 2014, sections 3.1-3.3);
 *            NAN for n < 6, where even [min, max] covers less
 * @ci_level: that exact coverage (0.969 for n = 6), NAN with no interval
 */
struct ab_wsr {
	size_t n;
	size_t used;
	double w_plus;
	double p;
	double estimate;
	double ci_lo;
	double ci_hi;
	double ci_level;
};

/* the most differences ab_signed_rank() takes: its exact null
 * distribution costs O(n^3) time and O(n^2) memory */
#define AB_WSR_MAX 1000

/*
 * ab_signed_rank - test @d[0..n) (not modified), e.g. one log ratio per
 * round, against a centre of 0. Everything NAN (and @used 0) for n == 0,
 * n > AB_WSR_MAX, a NAN among @d, or no memory.
 */
void ab_signed_rank(const double *d, size_t n, struct ab_wsr *out);

/*
 * ab_signed_rank_cdf - P(W+ <= w) for W+ of the untied ranks 1..n under
 * the null hypothesis (each sign + or - with probability 1/2): the count
 * of subsets of {1..n} summing to at most w, over 2^n. NAN when n >
 * AB_WSR_MAX or without memory.
 */
double ab_signed_rank_cdf(size_t n, double w);

/**
 * struct ab_explain_in - per-op counts of A and B ([0] and [1]); NAN for
 * an event that was not counted; @amd: counted on an AMD CPU, whose
 * generic cache-misses event counts L2 misses; @tsc_cycles: the timed
 * pass's median TSC cycles per op (alloc + free), NAN if unknown, shown
 * beside the hardware cycles counter
 */
struct ab_explain_in {
	double cycles[2];
	double instructions[2];
	double branch_misses[2];
	double cache_misses[2];
	double dtlb_misses[2];
	double tsc_cycles[2];
	int amd;
};

/*
 * ab_explain - the lines that account for B's cycle difference from A,
 * each ending in '\n', into @buf: instructions and IPC ("+310
 * instructions/op, IPC unchanged: a longer path"), then each miss counter
 * that moved. Returns the number of lines.
 */
int ab_explain(const struct ab_explain_in *in, char *buf, size_t len);

#endif
