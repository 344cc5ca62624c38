// SPDX-License-Identifier: GPL-2.0-only
/* stats.c - summary statistics of samples (see stats.h for definitions). */
#define _GNU_SOURCE /* M_LN2 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "stats.h"
#include "textout.h"

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* Value of 1-based rank @rank in sorted @v, NAN outside 1..n. */
static double rank_value(const double *v, size_t n, double rank)
{
	if (rank < 1 || rank > (double)n)
		return NAN;
	return v[(size_t)rank - 1];
}

/*
 * P(B <= m) for B ~ Binomial(n, 1/2): the terms summed downwards from m
 * with pmf(i - 1) = pmf(i) * i / (n - i + 1), starting from pmf(m) in
 * logarithms (no overflow for any n), until they stop mattering.
 */
static double binom_half_cdf(size_t n, size_t m)
{
	double dn = (double)n, t, sum = 0;
	size_t i;

	t = exp(lgamma(dn + 1) - lgamma((double)m + 1) -
		lgamma(dn - (double)m + 1) - dn * M_LN2);
	for (i = m;; i--) {
		sum += t;
		if (!i || t < sum * 1e-17)
			break;
		t *= (double)i / (dn - (double)i + 1);
	}
	return sum;
}

/* Coverage of [x(j), x(n - j + 1)] as an interval of the median. */
static double median_ci_coverage(size_t n, size_t j)
{
	return 1 - 2 * binom_half_cdf(n, j - 1);
}

void ab_median_ci_ranks(size_t n, size_t *lo, size_t *hi, double *coverage)
{
	size_t a = 1, b = (n + 1) / 2, mid;

	if (!n || median_ci_coverage(n, 1) < AB_CI_LEVEL) {
		*lo = *hi = 0;
		*coverage = NAN;
		return;
	}
	/* the largest j whose coverage is still at least the level */
	while (a < b) {
		mid = a + (b - a + 1) / 2;
		if (median_ci_coverage(n, mid) >= AB_CI_LEVEL)
			a = mid;
		else
			b = mid - 1;
	}
	*lo = a;
	*hi = n - a + 1;
	*coverage = median_ci_coverage(n, a);
}

void ab_stats_compute(double *v, size_t n, struct ab_stats *st)
{
	double sum = 0, sq = 0, dn = (double)n;
	size_t i, lo, hi;

	st->n = n;
	if (!n) {
		st->min = st->median = st->mean = st->max = NAN;
		st->p90 = st->p99 = st->p999 = st->stddev = st->cv = NAN;
		st->ci_lo = st->ci_hi = st->ci_level = NAN;
		return;
	}
	qsort(v, n, sizeof(*v), cmp_double);
	for (i = 0; i < n; i++)
		sum += v[i];
	st->mean = sum / dn;
	for (i = 0; i < n; i++)
		sq += (v[i] - st->mean) * (v[i] - st->mean);
	st->stddev = n > 1 ? sqrt(sq / (dn - 1)) : NAN;
	st->cv = st->mean != 0 ? st->stddev / st->mean : NAN;
	st->min = v[0];
	st->max = v[n - 1];
	st->median = n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
	st->p90 = rank_value(v, n, ceil(0.90 * dn));
	st->p99 = rank_value(v, n, ceil(0.99 * dn));
	st->p999 = rank_value(v, n, ceil(0.999 * dn));
	ab_median_ci_ranks(n, &lo, &hi, &st->ci_level);
	st->ci_lo = rank_value(v, n, (double)lo);
	st->ci_hi = rank_value(v, n, (double)hi);
}

void ab_histogram_log2(const double *v, size_t n, uint64_t *counts,
		       size_t nbuckets)
{
	size_t i, b;
	int e;

	memset(counts, 0, nbuckets * sizeof(*counts));
	for (i = 0; i < n; i++) {
		if (!(v[i] >= 1)) {
			b = 0;
		} else {
			/* v = m * 2^e with m in [0.5, 1): v in [2^(e-1), 2^e)
			 */
			frexp(v[i], &e);
			b = (size_t)e;
		}
		counts[b < nbuckets ? b : nbuckets - 1]++;
	}
}

void ab_ci_note(size_t n, char *buf, size_t len)
{
	size_t lo, hi;
	double cov;

	ab_median_ci_ranks(n, &lo, &hi, &cov);
	if (isnan(cov))
		snprintf(
			buf, len,
			"CI of the median, %zu %s: none reaches %.0f%% (needs 6 or more)",
			n, ab_noun(n, "sample", "samples"), 100 * AB_CI_LEVEL);
	else
		snprintf(
			buf, len,
			"CI of the median, %zu samples: ranks %zu and %zu of the sorted samples, exact coverage %.1f%%",
			n, lo, hi, 100 * cov);
}

/* The p-value index sorted on: ascending p, ties in input order. */
struct holm_ix {
	double p;
	size_t i;
};

static int cmp_holm(const void *x, const void *y)
{
	const struct holm_ix *a = x, *b = y;

	if (a->p != b->p)
		return a->p < b->p ? -1 : 1;
	return (a->i > b->i) - (a->i < b->i);
}

size_t ab_holm(const double *p, size_t n, double *adj)
{
	struct holm_ix *t = malloc((n ? n : 1) * sizeof(*t));
	size_t m = 0, i;
	double run = 0;

	for (i = 0; i < n; i++)
		adj[i] = NAN;
	if (!t)
		return 0;
	for (i = 0; i < n; i++)
		if (!isnan(p[i]))
			t[m++] = (struct holm_ix){ p[i], i };
	qsort(t, m, sizeof(*t), cmp_holm);
	/* step down: the j-th smallest (from 0) is multiplied by m - j; the
	 * running maximum keeps the adjusted values in the order of p */
	for (i = 0; i < m; i++) {
		double a = fmin(1, (double)(m - i) * t[i].p);

		run = fmax(run, a);
		adj[t[i].i] = run;
	}
	free(t);
	return m;
}
