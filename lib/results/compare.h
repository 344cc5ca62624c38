/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * compare.h - is B faster than A, and why: a significance test on the
 * per-trial samples and a short explanation from counter deltas.
 */
#ifndef AB_COMPARE_H
#define AB_COMPARE_H

#include <stddef.h>
#include <stdint.h>

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

/*
 * ab_mann_whitney - test @a[0..na) against @b[0..nb) (not modified), by
 * the normal approximation. Exported for test_compare.c alone: the
 * verdicts use the exact test (ab_rank_sum_exact()); this is its
 * large-sample cross-check there.
 */
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

/**
 * struct ab_ranksum - Wilcoxon rank-sum (Mann-Whitney) test, exact and
 * two-sided, for two small samples of units (boots), ties included
 * @w:     the statistic: the sum of B's midranks in the pooled sample
 * @p:     exact two-sided p-value, min(1, 2 min(P(W <= w), P(W >= w))),
 *         over the C(na + nb, nb) equally likely ways the pooled values
 *         (with their ties, so exact with ties too) could have been split
 *         into na of A and nb of B: the permutation null hypothesis that
 *         the two kernels' units are exchangeable (Hollander, Wolfe and
 *         Chicken, "Nonparametric Statistical Methods", 3rd ed., Wiley
 *         2014, section 4.1, the conditional null distribution with ties);
 *         unlike Welch's t it needs no spread within a side, so 100% in
 *         every boot of A against 0% in every boot of B is p = 2 /
 *         C(na + nb, nb). NAN for an empty side, a NAN value, na + nb >
 *         AB_RANKSUM_MAX or no memory
 * @p_min: the smallest two-sided p these values' ties allow (B above
 *         every A, or below), 2 / C(n, nb) without ties: a level below it
 *         cannot be reached however large the difference; NAN with @p
 */
struct ab_ranksum {
	double w;
	double p;
	double p_min;
};

/* the most values (na + nb) ab_rank_sum_exact() takes: its null
 * distribution costs O(n nb n^2) time and O(nb n^2) memory */
#define AB_RANKSUM_MAX 200

/* ab_rank_sum_exact - test @b[0..nb) against @a[0..na) (not modified). */
void ab_rank_sum_exact(const double *a, size_t na, const double *b, size_t nb,
		       struct ab_ranksum *out);

/*
 * ab_signed_rank_cdf - P(W+ <= w) for W+ of the untied ranks 1..n under
 * the null hypothesis (each sign + or - with probability 1/2): the count
 * of subsets of {1..n} summing to at most w, over 2^n. NAN when n >
 * AB_WSR_MAX or without memory. Exported for test_compare.c alone: the
 * exact distribution ab_signed_rank() rests on, checked there against
 * values worked by hand.
 */
double ab_signed_rank_cdf(size_t n, double w);

/*
 * Welch's t on logs, with the unit of the experiment as the sample: a boot
 * of a kernel (`allocbench vm`, lib/vmab.h) or a saved run (compare
 * A1.json ... -- B1.json ...), each one number, its median ns/op.
 */

/* Most rounds (boots of each kernel) one command runs, or asks for. */
#define AB_VM_MAX_ROUNDS 100
/* The significance level of every test and the power the detectable
 * change is computed for. */
#define AB_VM_ALPHA 0.05
#define AB_VM_POWER 0.8

/**
 * struct ab_welch - Welch's two-sample t test on the natural logs of two
 * samples (B against A), two-sided, as ministat(1) does on its inputs
 * @na, @nb:     sizes (each at least 2 for the test)
 * @mean_a, @mean_b: means of the logs (exp of each: the geometric means)
 * @sd_a, @sd_b: standard deviations of the logs (n - 1)
 * @diff:        @mean_b - @mean_a: ln(B / A)
 * @se:          sqrt(sd_a^2 / na + sd_b^2 / nb)
 * @df:          Welch-Satterthwaite degrees of freedom (B. L. Welch, "The
 *               generalization of Student's problem when several different
 *               population variances are involved", Biometrika 34, 1947)
 * @p:           two-sided p-value from Student's t with @df (GSL's
 *               gsl_cdf_tdist_Q); NAN when undefined (n < 2, se = 0)
 * @ci_lo, @ci_hi: 95% interval of ln(B / A): @diff -+ t(0.975, df) @se
 */
struct ab_welch {
	size_t na;
	size_t nb;
	double mean_a;
	double mean_b;
	double sd_a;
	double sd_b;
	double diff;
	double se;
	double df;
	double p;
	double ci_lo;
	double ci_hi;
};

/* ab_welch - test @b[0..nb) against @a[0..na): positive ns/op (a value
 * <= 0 or NAN makes everything NAN). */
void ab_welch(const double *a, size_t na, const double *b, size_t nb,
	      struct ab_welch *w);

/*
 * ab_welch_raw - the same test on the values as they are, not their logs
 * (a share such as a success rate, which can be 0): @w's means, sds,
 * @diff (B - A) and interval are then in the values' own unit. A NAN or
 * infinite value makes everything NAN.
 */
void ab_welch_raw(const double *a, size_t na, const double *b, size_t nb,
		  struct ab_welch *w);

/*
 * ab_paired - the paired t test of @n pairs (@a[i], @b[i]), on their logs
 * with @logs (vm --deterministic: the boots of two kernels with one seed
 * start from one random state): @w's means are each side's (as
 * ab_welch()), @diff the mean of the differences b - a, @sd_a and @sd_b
 * both their standard deviation, @df n - 1, @p and the interval the
 * paired test's. Fewer than 2 pairs or no spread: no p.
 */
void ab_paired(const double *a, const double *b, size_t n, int logs,
	       struct ab_welch *w);

/* ab_vm_detectable_paired - ab_vm_detectable() for @n pairs whose
 * differences spread by @sd (the paired test's, df n - 1) */
double ab_vm_detectable_paired(double sd, size_t n, double alpha);

/* ab_vm_rounds_needed_paired - ab_vm_rounds_needed() for pairs */
size_t ab_vm_rounds_needed_paired(double sd, double pct, double alpha);

/*
 * ab_welch_pooled_sd - the pooled standard deviation of @w's logs,
 * sqrt(((na - 1) sd_a^2 + (nb - 1) sd_b^2) / (na + nb - 2)): the spread
 * ab_vm_detectable() takes. NAN for na or nb < 2 or a NAN sd.
 */
double ab_welch_pooled_sd(const struct ab_welch *w);

/*
 * ab_vm_detectable - the smallest true |ln(B / A)| that a two-sided test
 * at level @alpha finds with probability AB_VM_POWER, for @na and @nb
 * boots whose logs have the pooled standard deviation @sd:
 * (t(1 - alpha / 2, df) + t(power, df)) sd sqrt(1 / na + 1 / nb), df = na +
 * nb - 2 (the normal-theory power approximation for two samples, with t
 * quantiles: D. C. Montgomery, "Design and Analysis of Experiments", 8th
 * ed., Wiley 2013, section 2.4.3). NAN for na or nb < 2 or a NAN @sd.
 */
double ab_vm_detectable(double sd, size_t na, size_t nb, double alpha);

/*
 * ab_vm_rounds_needed - the fewest rounds (boots per kernel, the same
 * for both) for which ab_vm_detectable() at @alpha is at most
 * ln(1 + @pct / 100): 2 or more; 0 if even AB_VM_MAX_ROUNDS would not do,
 * or for a NAN @sd. A report of m tests passes @alpha AB_VM_ALPHA / m,
 * the level of Holm's first step, which its smallest p must pass
 * (ab_vm_adjust()).
 */
size_t ab_vm_rounds_needed(double sd, double pct, double alpha);

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

/*
 * ab_wilson - the Wilson score interval of a proportion (E. B. Wilson,
 * "Probable inference, the law of succession, and statistical
 * inference", JASA 22:209-212, 1927): @k successes of @n trials, at
 * two-sided level @level (0.95), into [*@lo, *@hi], fractions in 0..1.
 * Unlike the normal approximation it stays inside 0..1 and is not empty
 * at k = 0 or k = n. NAN for both when @n is 0.
 */
void ab_wilson(uint64_t k, uint64_t n, double level, double *lo, double *hi);

#endif
