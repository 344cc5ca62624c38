/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * compare.h - is B faster than A, and why: a significance test on the
 * per-trial samples and a short explanation from counter deltas.
 */
#ifndef AB_COMPARE_H
#define AB_COMPARE_H

#include <stddef.h>

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
 * struct ab_explain_in - per-op counts of A and B ([0] and [1]); NAN for
 * an event that was not counted
 */
struct ab_explain_in {
	double cycles[2];
	double instructions[2];
	double branch_misses[2];
	double cache_misses[2];
	double dtlb_misses[2];
};

/*
 * ab_explain - the lines that account for B's cycle difference from A,
 * each ending in '\n', into @buf: instructions and IPC ("+310
 * instructions/op, IPC unchanged: a longer path"), then each miss counter
 * that moved. Returns the number of lines.
 */
int ab_explain(const struct ab_explain_in *in, char *buf, size_t len);

#endif
