// SPDX-License-Identifier: GPL-2.0-only
/* stats.c - summary statistics of samples (see stats.h for definitions). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "stats.h"

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

void ab_stats_compute(double *v, size_t n, struct ab_stats *st)
{
	double sum = 0, sq = 0, dn = (double)n, half;
	size_t i;

	st->n = n;
	if (!n) {
		st->min = st->median = st->mean = st->max = NAN;
		st->p90 = st->p99 = st->stddev = st->cv = NAN;
		st->ci_lo = st->ci_hi = NAN;
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
	half = 0.980 * sqrt(dn);
	st->ci_lo = rank_value(v, n, floor(0.5 * dn - half));
	st->ci_hi = rank_value(v, n, ceil(0.5 * dn + 1 + half));
	if (isnan(st->ci_lo) || isnan(st->ci_hi))
		st->ci_lo = st->ci_hi = NAN;
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
