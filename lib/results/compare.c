// SPDX-License-Identifier: GPL-2.0-only
/*
 * compare.c - significance and explanation (see compare.h): the rank
 * tests on samples and paired rounds, Welch's t on the logs of units'
 * medians with the change it could detect and the rounds that would take
 * (for boots and saved runs), and the counters' account of a difference.
 */
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <gsl/gsl_cdf.h>
#include <gsl/gsl_errno.h>

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

/*
 * @a's and @b's values tagged with their side and sorted (ties keep no
 * order), for the rank tests below; NULL when out of memory (free() it).
 */
static struct tagged *tag_sorted(const double *a, size_t na, const double *b,
				 size_t nb)
{
	struct tagged *t = malloc((na + nb) * sizeof(*t));
	size_t i;

	if (!t)
		return NULL;
	for (i = 0; i < na; i++)
		t[i] = (struct tagged){ a[i], 1 };
	for (i = 0; i < nb; i++)
		t[na + i] = (struct tagged){ b[i], 0 };
	qsort(t, na + nb, sizeof(*t), cmp_tagged);
	return t;
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
	t = tag_sorted(a, na, b, nb);
	if (!t)
		return;
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

/*
 * The number of ways to choose @k of @q[0..n) with each sum s of the
 * chosen (0..*@top, the largest such sum): into a malloc'ed array of
 * *@top + 1 counts; NULL without memory. One item at a time, f[j][s]
 * the ways to choose j of the items so far with sum s (the rank-sum
 * distribution's recurrence, Hollander, Wolfe and Chicken, section 4.1).
 */
static double *choose_dist(const size_t *q, size_t n, size_t k, size_t *top)
{
	size_t s, i, j, reach = 0, total = 0, w;
	double *f, *out;

	for (i = 0; i < n; i++)
		total += q[i];
	w = total + 1;
	f = calloc((k + 1) * w, sizeof(*f));
	out = calloc(w, sizeof(*out));
	if (!f || !out) {
		free(f);
		free(out);
		return NULL;
	}
	f[0] = 1;
	for (i = 0; i < n; i++) {
		reach += q[i];
		/* downwards, so f[j - 1] is still the old row */
		for (j = i + 1 < k ? i + 1 : k; j >= 1; j--)
			for (s = reach; s >= q[i]; s--) /* q[i] >= 2 */
				f[j * w + s] += f[(j - 1) * w + s - q[i]];
	}
	memcpy(out, f + k * w, w * sizeof(*out));
	free(f);
	*top = total;
	return out;
}

void ab_rank_sum_exact(const double *a, size_t na, const double *b, size_t nb,
		       struct ab_ranksum *out)
{
	size_t n = na + nb, i, j, k, top, w2 = 0;
	struct tagged *t;
	size_t *q;
	double *dist = NULL, all = 0, lower = 0, upper = 0, first = NAN,
	       last = NAN;

	out->w = out->p = out->p_min = NAN;
	if (!na || !nb || n > AB_RANKSUM_MAX)
		return;
	for (i = 0; i < na; i++)
		if (isnan(a[i]))
			return;
	for (i = 0; i < nb; i++)
		if (isnan(b[i]))
			return;
	t = tag_sorted(a, na, b, nb);
	q = malloc(n * sizeof(*q));
	if (!t || !q)
		goto out;
	/* doubled midranks, integers: ranks i + 1 .. j share (i + 1 + j) / 2 */
	for (i = 0; i < n; i = j) {
		for (j = i + 1; j < n && t[j].v == t[i].v; j++)
			;
		for (k = i; k < j; k++) {
			q[k] = i + 1 + j;
			if (!t[k].from_a)
				w2 += q[k];
		}
	}
	out->w = (double)w2 / 2;
	dist = choose_dist(q, n, nb, &top);
	if (!dist)
		goto out;
	for (i = 0; i <= top; i++) {
		all += dist[i];
		if (i <= w2)
			lower += dist[i];
		if (i >= w2)
			upper += dist[i];
		if (dist[i] > 0) {
			if (isnan(first))
				first = dist[i];
			last = dist[i];
		}
	}
	out->p = fmin(1, 2 * fmin(lower, upper) / all);
	/* the extreme sums are the least likely tails: B lowest or highest */
	out->p_min = fmin(1, 2 * fmin(first, last) / all);
out:
	free(dist);
	free(q);
	free(t);
}

/*
 * The null distribution of S = the sum of @q[0..m) over the positive
 * signs, every sign + or - with probability 1/2 independently: P(S = s)
 * into a malloc'ed array of sum(@q) + 1 values (*@top = sum(@q)). NULL
 * without memory.
 */
static double *sign_dist(const size_t *q, size_t m, size_t *top)
{
	size_t total = 0, reach = 0, i, s;
	double *dist;

	for (i = 0; i < m; i++)
		total += q[i];
	dist = calloc(total + 1, sizeof(*dist));
	if (!dist)
		return NULL;
	dist[0] = 1;
	/* add one term at a time; downwards, so dist[s - q] is still old */
	for (i = 0; i < m; i++) {
		reach += q[i];
		for (s = reach;; s--) {
			dist[s] = 0.5 *
				  (dist[s] + (s >= q[i] ? dist[s - q[i]] : 0));
			if (!s)
				break;
		}
	}
	*top = total;
	return dist;
}

/* The null distribution of W+ for the untied ranks 1..@n (see above). */
static double *untied_dist(size_t n, size_t *top)
{
	size_t *q = malloc((n ? n : 1) * sizeof(*q)), i;
	double *dist;

	if (!q)
		return NULL;
	for (i = 0; i < n; i++)
		q[i] = i + 1;
	dist = sign_dist(q, n, top);
	free(q);
	return dist;
}

double ab_signed_rank_cdf(size_t n, double w)
{
	size_t top, s;
	double *dist, sum = 0;

	if (n > AB_WSR_MAX)
		return NAN;
	dist = untied_dist(n, &top);
	if (!dist)
		return NAN;
	for (s = 0; s <= top && (double)s <= w; s++)
		sum += dist[s];
	free(dist);
	return sum;
}

struct signed_abs {
	double a;
	int positive;
};

static int cmp_abs(const void *x, const void *y)
{
	double a = ((const struct signed_abs *)x)->a;
	double b = ((const struct signed_abs *)y)->a;

	return (a > b) - (a < b);
}

static int cmp_double(const void *x, const void *y)
{
	double a = *(const double *)x, b = *(const double *)y;

	return (a > b) - (a < b);
}

/* W+ and its exact two-sided p over the nonzero @d (out->used of them). */
static void signed_rank_test(const double *d, size_t n, struct ab_wsr *out)
{
	struct signed_abs *t = malloc(n * sizeof(*t));
	size_t *q = malloc(n * sizeof(*q));
	size_t m = 0, i, j, k, top, w2 = 0;
	double *dist = NULL, lower = 0, upper = 0;

	if (!t || !q)
		goto out;
	for (i = 0; i < n; i++)
		if (d[i] != 0)
			t[m++] = (struct signed_abs){ fabs(d[i]), d[i] > 0 };
	out->used = m;
	if (!m)
		goto out;
	qsort(t, m, sizeof(*t), cmp_abs);
	/* doubled midranks, integers: ranks i + 1 .. j share (i + 1 + j) / 2 */
	for (i = 0; i < m; i = j) {
		for (j = i + 1; j < m && t[j].a == t[i].a; j++)
			;
		for (k = i; k < j; k++) {
			q[k] = i + 1 + j;
			if (t[k].positive)
				w2 += q[k];
		}
	}
	out->w_plus = (double)w2 / 2;
	dist = sign_dist(q, m, &top);
	if (!dist)
		goto out;
	for (i = 0; i <= top; i++) {
		if (i <= w2)
			lower += dist[i];
		if (i >= w2)
			upper += dist[i];
	}
	out->p = fmin(1, 2 * fmin(lower, upper));
out:
	free(dist);
	free(q);
	free(t);
}

/* The Hodges-Lehmann estimate and Tukey's interval from all @n of @d. */
static void signed_rank_interval(const double *d, size_t n, struct ab_wsr *out)
{
	size_t walsh = n * (n + 1) / 2, i, j, k = 0, top;
	double *w = malloc(walsh * sizeof(*w)), *dist = NULL, below = 0;

	if (!w)
		return;
	for (i = 0, k = 0; i < n; i++)
		for (j = i; j < n; j++)
			w[k++] = (d[i] + d[j]) / 2;
	qsort(w, walsh, sizeof(*w), cmp_double);
	out->estimate = walsh % 2 ? w[walsh / 2]
				  : (w[walsh / 2 - 1] + w[walsh / 2]) / 2;
	dist = untied_dist(n, &top);
	/*
	 * The largest k with 1 - 2 P(W+ <= k - 1) >= AB_CI_LEVEL: below is
	 * P(W+ <= k - 1) for the k tried.
	 */
	for (k = 0; dist && k < top && 1 - 2 * (below + dist[k]) >= AB_CI_LEVEL;
	     k++)
		below += dist[k];
	if (dist && k >= 1) {
		out->ci_lo = w[k - 1];
		out->ci_hi = w[walsh - k];
		out->ci_level = 1 - 2 * below;
	}
	free(dist);
	free(w);
}

void ab_signed_rank(const double *d, size_t n, struct ab_wsr *out)
{
	size_t i;

	*out = (struct ab_wsr){ n, 0, NAN, NAN, NAN, NAN, NAN, NAN };
	if (!n || n > AB_WSR_MAX)
		return;
	for (i = 0; i < n; i++)
		if (isnan(d[i]))
			return;
	signed_rank_test(d, n, out);
	signed_rank_interval(d, n, out);
}

/* ---- Welch's t on logs: units (boots, saved runs) as the samples ---- */

/* t quantile of probability @p with @df degrees of freedom (GSL). */
static double t_quantile(double p, double df)
{
	gsl_set_error_handler_off();
	return gsl_cdf_tdist_Pinv(p, df);
}

/*
 * The mean and standard deviation (n - 1) of @v, of their natural logs
 * with @logs.
 */
static void moments(const double *v, size_t n, int logs, double *mean,
		    double *sd)
{
	double s = 0, ss = 0, x;
	size_t i;

	for (i = 0; i < n; i++)
		s += logs ? log(v[i]) : v[i];
	*mean = n ? s / n : NAN;
	for (i = 0; i < n; i++) {
		x = (logs ? log(v[i]) : v[i]) - *mean;
		ss += x * x;
	}
	*sd = n > 1 ? sqrt(ss / (n - 1)) : NAN;
	/*
	 * Equal values have no spread: exactly 0, not the ~1e-16 that the
	 * rounding of s / n leaves, which made boots or saved runs that
	 * repeat one figure read as "faster" at p < 0.001 (issue 21 review)
	 */
	for (i = 1; i < n && v[i] == v[0]; i++)
		;
	if (n > 1 && i == n)
		*sd = 0;
}

/* Whether every value is finite, and above 0 with @positive. */
static int all_valid(const double *v, size_t n, int positive)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (!isfinite(v[i]) || (positive && !(v[i] > 0)))
			return 0;
	return 1;
}

/* Welch's test on @a and @b, their logs with @logs (see ab_welch()). */
static void welch(const double *a, size_t na, const double *b, size_t nb,
		  int logs, struct ab_welch *w)
{
	double va, vb, q;

	memset(w, 0, sizeof(*w));
	w->na = na;
	w->nb = nb;
	w->mean_a = w->mean_b = w->sd_a = w->sd_b = NAN;
	w->diff = w->se = w->df = w->p = w->ci_lo = w->ci_hi = NAN;
	if (!all_valid(a, na, logs) || !all_valid(b, nb, logs))
		return;
	moments(a, na, logs, &w->mean_a, &w->sd_a);
	moments(b, nb, logs, &w->mean_b, &w->sd_b);
	w->diff = w->mean_b - w->mean_a;
	if (na < 2 || nb < 2)
		return;
	va = w->sd_a * w->sd_a / na;
	vb = w->sd_b * w->sd_b / nb;
	w->se = sqrt(va + vb);
	if (!(w->se > 0))
		return;
	w->df = (va + vb) * (va + vb) /
		(va * va / (na - 1) + vb * vb / (nb - 1));
	gsl_set_error_handler_off();
	w->p = 2 * gsl_cdf_tdist_Q(fabs(w->diff) / w->se, w->df);
	if (w->p > 1)
		w->p = 1;
	q = t_quantile(1 - AB_VM_ALPHA / 2, w->df);
	w->ci_lo = w->diff - q * w->se;
	w->ci_hi = w->diff + q * w->se;
}

void ab_welch(const double *a, size_t na, const double *b, size_t nb,
	      struct ab_welch *w)
{
	welch(a, na, b, nb, 1, w);
}

void ab_welch_raw(const double *a, size_t na, const double *b, size_t nb,
		  struct ab_welch *w)
{
	welch(a, na, b, nb, 0, w);
}

void ab_paired(const double *a, const double *b, size_t n, int logs,
	       struct ab_welch *w)
{
	double *d = calloc(n + 1, sizeof(*d)), sd_a, q;
	size_t i;

	welch(a, n, b, n, logs, w);
	if (!d || isnan(w->diff)) {
		free(d);
		return;
	}
	for (i = 0; i < n; i++)
		d[i] = logs ? log(b[i]) - log(a[i]) : b[i] - a[i];
	moments(d, n, 0, &w->diff, &sd_a);
	/* the spread of the pairs' differences: sd_a = sd_b = it, so that
	 * ab_welch_pooled_sd() gives it */
	w->sd_a = w->sd_b = sd_a;
	w->se = w->df = w->p = w->ci_lo = w->ci_hi = NAN;
	free(d);
	if (n < 2)
		return;
	w->df = (double)n - 1;
	w->se = sd_a / sqrt((double)n);
	if (!(w->se > 0)) {
		w->se = 0;
		return;
	}
	gsl_set_error_handler_off();
	w->p = 2 * gsl_cdf_tdist_Q(fabs(w->diff) / w->se, w->df);
	if (w->p > 1)
		w->p = 1;
	q = t_quantile(1 - AB_VM_ALPHA / 2, w->df);
	w->ci_lo = w->diff - q * w->se;
	w->ci_hi = w->diff + q * w->se;
}

double ab_vm_detectable_paired(double sd, size_t n, double alpha)
{
	double df = (double)n - 1;

	if (n < 2 || !(sd > 0))
		return NAN;
	return (t_quantile(1 - alpha / 2, df) + t_quantile(AB_VM_POWER, df)) *
	       sd / sqrt((double)n);
}

double ab_welch_pooled_sd(const struct ab_welch *w)
{
	size_t na = w->na, nb = w->nb;

	if (na < 2 || nb < 2 || isnan(w->sd_a) || isnan(w->sd_b))
		return NAN;
	return sqrt(
		((na - 1) * w->sd_a * w->sd_a + (nb - 1) * w->sd_b * w->sd_b) /
		(na + nb - 2));
}

double ab_vm_detectable(double sd, size_t na, size_t nb, double alpha)
{
	double df = (double)na + nb - 2;

	if (na < 2 || nb < 2 || !(sd > 0))
		return NAN; /* no spread seen: no estimate of what it could see
			     */
	return (t_quantile(1 - alpha / 2, df) + t_quantile(AB_VM_POWER, df)) *
	       sd * sqrt(1.0 / na + 1.0 / nb);
}

size_t ab_vm_rounds_needed(double sd, double pct, double alpha)
{
	size_t n;

	if (isnan(sd) || !(pct > 0))
		return 0;
	for (n = 2; n <= AB_VM_MAX_ROUNDS; n++)
		if (ab_vm_detectable(sd, n, n, alpha) <= log1p(pct / 100))
			return n;
	return 0;
}

size_t ab_vm_rounds_needed_paired(double sd, double pct, double alpha)
{
	size_t n;

	if (isnan(sd) || !(pct > 0))
		return 0;
	for (n = 2; n <= AB_VM_MAX_ROUNDS; n++)
		if (ab_vm_detectable_paired(sd, n, alpha) <= log1p(pct / 100))
			return n;
	return 0;
}

/* ---- the counters' account ---- */

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
		  "%+.2f cache-misses/op (%.2f -> %.2f): last-level misses, trips to memory\n" },
		{ offsetof(struct ab_explain_in, dtlb_misses),
		  "%+.2f dTLB-load-misses/op (%.2f -> %.2f): page walks\n" },
	};
	const double *c = in->cycles, *ins = in->instructions;
	double ipc[2] = { NAN, NAN }, dins, dipc;
	size_t used = 0, k;
	int n = 0;

	buf[0] = '\0';
	/*
	 * the core's cycles beside the TSC's: they differ when the core
	 * clock is not the TSC rate (turbo, frequency scaling)
	 */
	if (!isnan(c[0]) && !isnan(c[1]) && !isnan(in->tsc_cycles[0]) &&
	    !isnan(in->tsc_cycles[1])) {
		int w = snprintf(
			buf, len,
			"%.0f -> %.0f cycles/op counted by the PMU, beside %.0f -> %.0f TSC cycles/op timed\n",
			c[0], c[1], in->tsc_cycles[0], in->tsc_cycles[1]);

		if (w > 0) {
			used = (size_t)w < len ? (size_t)w : len;
			n++;
		}
	}
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

		const char *what = misses[k].what;

		/*
		 * The generic cache-misses event is the last level's on
		 * Intel, but L2's on AMD Zen (arch/x86/events/amd/core.c maps
		 * PERF_COUNT_HW_CACHE_MISSES to an L2 miss event): label it
		 * as the vendor counts it.
		 */
		if (in->amd && misses[k].off == offsetof(struct ab_explain_in,
							 cache_misses))
			what = "%+.2f cache-misses/op (%.2f -> %.2f): L2 misses (AMD Zen's cache-misses), not all of them trips to memory\n";
		if (!isnan(m[0]) && !isnan(m[1]) && fabs(m[1] - m[0]) >= 0.1)
			used = line(buf, len, used, &n, what, m[1] - m[0], m[0],
				    m[1]);
	}
	return n;
}

void ab_wilson(uint64_t k, uint64_t n, double level, double *lo, double *hi)
{
	double z, p, dn = (double)n, den, mid, half;

	if (!n) {
		*lo = *hi = NAN;
		return;
	}
	z = gsl_cdf_ugaussian_Pinv(1 - (1 - level) / 2);
	p = (double)k / dn;
	den = 1 + z * z / dn;
	mid = (p + z * z / (2 * dn)) / den;
	half = z * sqrt(p * (1 - p) / dn + z * z / (4 * dn * dn)) / den;
	*lo = mid - half < 0 ? 0 : mid - half;
	*hi = mid + half > 1 ? 1 : mid + half;
}
