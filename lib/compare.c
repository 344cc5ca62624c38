// SPDX-License-Identifier: GPL-2.0-only
/* compare.c - significance and explanation (see compare.h). */
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compare.h"

struct tagged {
	double v;
	int from_a;
};

static int cmp_tagged(const void *x, const void *y)
{
	double a = ((const struct tagged *)x)->v;
	double b = ((const struct tagged *)y)->v;

	return (a > b) - (a < b);
}

void ab_mann_whitney(const double *a, size_t na, const double *b, size_t nb,
		     struct ab_mwu *out)
{
	size_t n = na + nb, i, j;
	struct tagged *t;
	double ra = 0, ties = 0, mean, var, d;

	out->u = out->z = out->p = NAN;
	if (!na || !nb)
		return;
	t = malloc(n * sizeof(*t));
	if (!t)
		return;
	for (i = 0; i < na; i++)
		t[i] = (struct tagged){ a[i], 1 };
	for (i = 0; i < nb; i++)
		t[na + i] = (struct tagged){ b[i], 0 };
	qsort(t, n, sizeof(*t), cmp_tagged);
	/* average ranks (1-based) over each run of ties */
	for (i = 0; i < n; i = j) {
		double rank, k;

		for (j = i + 1; j < n && t[j].v == t[i].v; j++)
			;
		rank = (double)(i + 1 + j) / 2;
		k = (double)(j - i);
		ties += k * k * k - k;
		for (size_t m = i; m < j; m++)
			if (t[m].from_a)
				ra += rank;
	}
	free(t);
	out->u = ra - (double)na * ((double)na + 1) / 2;
	mean = (double)na * (double)nb / 2;
	var = (double)na * (double)nb / 12 *
	      (((double)n + 1) - ties / ((double)n * ((double)n - 1)));
	if (!(var > 0))
		return;
	d = out->u - mean;
	d = d > 0.5 ? d - 0.5 : d < -0.5 ? d + 0.5 : 0;
	out->z = d / sqrt(var);
	out->p = erfc(fabs(out->z) / sqrt(2));
}

/* Appends one line made of @fmt and three numbers. */
static size_t line(char *buf, size_t len, size_t used, int *n, const char *fmt,
		   double x, double y, double z)
{
	int w;

	if (used >= len)
		return used;
	w = snprintf(buf + used, len - used, fmt, x, y, z);
	if (w < 0)
		return used;
	(*n)++;
	return used + (size_t)w;
}

int ab_explain(const struct ab_explain_in *in, char *buf, size_t len)
{
	static const struct {
		size_t off;
		const char *what;
	} misses[] = {
		{ offsetof(struct ab_explain_in, branch_misses),
		  "%+.2f branch-misses/op (%.2f -> %.2f): mispredicted branches\n" },
		{ offsetof(struct ab_explain_in, cache_misses),
		  "%+.2f cache-misses/op (%.2f -> %.2f): trips to memory\n" },
		{ offsetof(struct ab_explain_in, dtlb_misses),
		  "%+.2f dTLB-load-misses/op (%.2f -> %.2f): page walks\n" },
	};
	const double *c = in->cycles, *ins = in->instructions;
	double ipc[2] = { NAN, NAN }, dins, dipc;
	size_t used = 0, k;
	int n = 0;

	buf[0] = '\0';
	if (!isnan(c[0]) && !isnan(c[1]) && c[0] > 0 && c[1] > 0 &&
	    !isnan(ins[0]) && !isnan(ins[1])) {
		ipc[0] = ins[0] / c[0];
		ipc[1] = ins[1] / c[1];
	}
	if (!isnan(ins[0]) && !isnan(ins[1])) {
		dins = ins[1] - ins[0];
		dipc = isnan(ipc[0]) || ipc[0] == 0
			       ? NAN
			       : (ipc[1] - ipc[0]) / ipc[0];
		if (fabs(dins) >= 1 && fabs(dins) >= 0.05 * fabs(ins[0])) {
			if (isnan(dipc))
				used = line(
					buf, len, used, &n,
					"%+.0f instructions/op (%.0f -> %.0f)\n",
					dins, ins[0], ins[1]);
			else if (fabs(dipc) < 0.05)
				used = line(
					buf, len, used, &n,
					dins > 0
						? "%+.0f instructions/op, IPC unchanged (%.2f -> %.2f): a longer path\n"
						: "%+.0f instructions/op, IPC unchanged (%.2f -> %.2f): a shorter path\n",
					dins, ipc[0], ipc[1]);
			else
				used = line(
					buf, len, used, &n,
					"%+.0f instructions/op and IPC %.2f -> %.2f\n",
					dins, ipc[0], ipc[1]);
		} else if (!isnan(dipc) && fabs(dipc) >= 0.05) {
			used = line(
				buf, len, used, &n,
				dipc < 0
					? "about the same instructions/op (%+.0f) but IPC %.2f -> %.2f: more stalls, not more work\n"
					: "about the same instructions/op (%+.0f) but IPC %.2f -> %.2f: fewer stalls\n",
				dins, ipc[0], ipc[1]);
		}
	}
	for (k = 0; k < sizeof(misses) / sizeof(misses[0]); k++) {
		const double *m =
			(const double *)((const char *)in + misses[k].off);

		if (!isnan(m[0]) && !isnan(m[1]) && fabs(m[1] - m[0]) >= 0.1)
			used = line(buf, len, used, &n, misses[k].what,
				    m[1] - m[0], m[0], m[1]);
	}
	return n;
}
