// SPDX-License-Identifier: GPL-2.0-only
/* stats.c - summary statistics of per-trial samples (see stats.h). */
#include <math.h>
#include <stdlib.h>

#include "stats.h"

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

void ab_stats_compute(double *v, size_t n, struct ab_stats *st)
{
	double sum = 0;
	size_t i;

	st->n = n;
	if (!n) {
		st->min = st->median = st->mean = st->max = NAN;
		return;
	}
	qsort(v, n, sizeof(*v), cmp_double);
	for (i = 0; i < n; i++)
		sum += v[i];
	st->min = v[0];
	st->max = v[n - 1];
	st->mean = sum / (double)n;
	st->median = n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}
