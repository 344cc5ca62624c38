// SPDX-License-Identifier: GPL-2.0-only
/*
 * vmab.c - kernels compared on boots: see vmab.h (the differential
 * profile is vmprofile.c's, the fast paths vmpaths.c's, the checks of
 * saved documents vmcheck.c's).
 */
#define _GNU_SOURCE
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "jsonin.h"
#include "jsonout.h"
#include "resultrow.h"
#include "stats.h"
#include "vmab.h"
#include "vmpaths.h"
#include "vmprofile.h"

const char *ab_vm_status_name(int s)
{
	static const char *const names[] = {
		[AB_VM_OK] = "ok",
		[AB_VM_FAILED] = "command failed",
		[AB_VM_KERNEL] = "kernel problem",
		[AB_VM_NOSTATUS] = "no status",
		[AB_VM_BADOUTPUT] = "bad output",
		[AB_VM_NOTRUN] = "not run",
		[AB_VM_INTERRUPTED] = "interrupted",
	};

	if (s < 0 || s > AB_VM_INTERRUPTED)
		return "?";
	return names[s];
}

int ab_vm_kernel_of(int i, int nk)
{
	int r = i / nk, k = i % nk;

	return r % 2 ? nk - 1 - k : k;
}

/* ---- rows across boots ---- */

/*
 * @o's detectable_pct, threshold_detectable and rounds_needed at level
 * @alpha, from the pooled log spread @sd of @na and @nb boots.
 */
static void set_detectable(json_object *o, double sd, size_t na, size_t nb,
			   double threshold_pct, double alpha, size_t pairs)
{
	double det = pairs ? ab_vm_detectable_paired(sd, pairs, alpha)
			   : ab_vm_detectable(sd, na, nb, alpha);
	size_t need =
		pairs ? ab_vm_rounds_needed_paired(sd, threshold_pct, alpha)
		      : ab_vm_rounds_needed(sd, threshold_pct, alpha);

	json_object_object_add(o, "detectable_pct",
			       ab_json_num(100 * expm1(det)));
	json_object_object_add(
		o, "threshold_detectable",
		threshold_pct > 0 && !isnan(det)
			? json_object_new_boolean(det <=
						  log1p(threshold_pct / 100))
			: NULL);
	json_object_object_add(o, "rounds_needed",
			       threshold_pct > 0 && need
				       ? json_object_new_int64((int64_t)need)
				       : NULL);
}

/* The good boots of kernel @k that hold row @key: their rows. */
static size_t rows_of(const struct ab_vm_boot *boots, size_t n, int k,
		      const char *key, size_t occ, json_object **out,
		      int *seeds)
{
	size_t i, m = 0;

	for (i = 0; i < n; i++) {
		json_object *r;

		if (boots[i].kernel != k || boots[i].status != AB_VM_OK)
			continue;
		r = ab_result_find(boots[i].result, key, occ);
		if (r) {
			seeds[m] = boots[i].seed;
			out[m++] = r;
		}
	}
	return m;
}

/*
 * Boots seeded alike (vm --deterministic) are compared as pairs: @ra and
 * @rb are reordered so that ra[i] and rb[i] had one seed, those without a
 * partner left out. Returns the pairs, 0 when a boot has no seed (then
 * nothing is changed).
 */
static size_t pair_up(json_object **ra, const int *sa, size_t *na,
		      json_object **rb, const int *sb, size_t *nb)
{
	json_object **pa = calloc(*na + 1, sizeof(*pa)),
		    **pb = calloc(*na + 1, sizeof(*pb));
	size_t i, j, m = 0;

	for (i = 0; i < *na; i++)
		if (!sa[i])
			goto none;
	for (j = 0; j < *nb; j++)
		if (!sb[j])
			goto none;
	if (!pa || !pb)
		goto none;
	for (i = 0; i < *na; i++)
		for (j = 0; j < *nb; j++)
			if (sa[i] == sb[j]) {
				pa[m] = ra[i];
				pb[m++] = rb[j];
				break;
			}
	memcpy(ra, pa, m * sizeof(*pa));
	memcpy(rb, pb, m * sizeof(*pb));
	*na = *nb = m;
	free(pa);
	free(pb);
	return m;
none:
	free(pa);
	free(pb);
	return 0;
}

static json_object *num_array(const double *v, size_t n)
{
	json_object *a = json_object_new_array();
	size_t i;

	for (i = 0; i < n; i++)
		json_object_array_add(a, ab_json_num(v[i]));
	return a;
}

/*
 * Each event counted in A's first row: mean per op over each kernel's
 * boots, B - A, and, as for ns/op, B / A on the geometric means with its
 * 95% interval (Welch on the boots' logs) and the change the boots could
 * detect (the same power, at AB_VM_ALPHA); no verdict: the counts go with
 * the difference, they are not tested. Exact counts that are the same in
 * every boot leave no spread to estimate: detectable_pct is then null and
 * "identical" true.
 */
static json_object *counter_deltas(json_object **ra, size_t na,
				   json_object **rb, size_t nb, int paired)
{
	json_object *arr = na ? ab_json_array(ra[0], "counters") : NULL,
		    *out = json_object_new_array();
	double *va = calloc(na + 1, sizeof(*va)),
	       *vb = calloc(nb + 1, sizeof(*vb));
	size_t i, j;

	for (i = 0; va && vb && arr && i < json_object_array_length(arr); i++) {
		const char *e = json_object_get_string(ab_json_get(
			json_object_array_get_idx(arr, i), "event"));
		double sa = 0, sb = 0, sd, v;
		size_t ca = 0, cb = 0;
		struct ab_welch w;
		json_object *c, *ci;

		if (!e)
			continue;
		for (j = 0; j < na; j++) {
			double u = paired ? ab_json_counter(rb[j], e) : 0;

			/* a pair counts when both of its boots do */
			if (!isnan(v = ab_json_counter(ra[j], e)) && !isnan(u))
				sa += v, va[ca++] = v;
			if (paired && !isnan(v) && !isnan(u))
				sb += u, vb[cb++] = u;
		}
		for (j = 0; !paired && j < nb; j++)
			if (!isnan(v = ab_json_counter(rb[j], e)))
				sb += v, vb[cb++] = v;
		if (!ca || !cb)
			continue;
		if (paired)
			ab_paired(va, vb, ca, 1, &w);
		else
			ab_welch(va, ca, vb, cb, &w);
		sd = ab_welch_pooled_sd(&w);
		c = json_object_new_object();
		json_object_object_add(c, "event", json_object_new_string(e));
		json_object_object_add(c, "a", ab_json_num(sa / ca));
		json_object_object_add(c, "b", ab_json_num(sb / cb));
		json_object_object_add(c, "delta",
				       ab_json_num(sb / cb - sa / ca));
		json_object_object_add(c, "boots_a", num_array(va, ca));
		json_object_object_add(c, "boots_b", num_array(vb, cb));
		json_object_object_add(c, "ratio", ab_json_num(exp(w.diff)));
		ci = json_object_new_array();
		json_object_array_add(
			ci, ab_json_num(sd == 0 ? exp(w.diff) : exp(w.ci_lo)));
		json_object_array_add(
			ci, ab_json_num(sd == 0 ? exp(w.diff) : exp(w.ci_hi)));
		json_object_object_add(c, "ci95", ci);
		json_object_object_add(
			c, "detectable_pct",
			ab_json_num(
				100 *
				expm1(paired ? ab_vm_detectable_paired(
						       sd, ca, AB_VM_ALPHA)
					     : ab_vm_detectable(sd, ca, cb,
								AB_VM_ALPHA))));
		json_object_object_add(c, "identical",
				       json_object_new_boolean(sd == 0));
		/* B - A in the count's own unit, Welch's interval on the
		 * boots' values (no logs): what a patch added per op */
		if (paired)
			ab_paired(va, vb, ca, 0, &w);
		else
			ab_welch_raw(va, ca, vb, cb, &w);
		ci = json_object_new_array();
		json_object_array_add(ci,
				      ab_json_num(sd == 0 ? w.diff : w.ci_lo));
		json_object_array_add(ci,
				      ab_json_num(sd == 0 ? w.diff : w.ci_hi));
		json_object_object_add(c, "delta_ci95", ci);
		json_object_object_add(
			c, "pairs",
			paired ? json_object_new_int64((int64_t)ca) : NULL);
		json_object_array_add(out, c);
	}
	free(va);
	free(vb);
	return out;
}

/* One row and phase, B (kernel @k) against A. */
static json_object *row_phase(json_object **ra, size_t na, json_object **rb,
			      size_t nb, const char *label, const char *phase,
			      double threshold_pct, int first, int paired)
{
	json_object *o = json_object_new_object(), *ci, *cs, *pd = NULL;
	double *a = calloc(na + 1, sizeof(*a)), *b = calloc(nb + 1, sizeof(*b));
	double sd;
	const char *verdict = "cannot conclude";
	struct ab_welch w;
	size_t i;

	for (i = 0; a && i < na; i++)
		a[i] = ab_result_row_median(ra[i], phase);
	for (i = 0; b && i < nb; i++)
		b[i] = ab_result_row_median(rb[i], phase);
	if (a && b && paired)
		ab_paired(a, b, na, 1, &w);
	else if (a && b)
		ab_welch(a, na, b, nb, &w);
	else
		ab_welch(NULL, 0, NULL, 0, &w);
	/* the verdict is set again from the adjusted p (ab_vm_adjust()) */
	if (!isnan(w.p))
		verdict = w.p >= AB_VM_ALPHA ? "no significant difference"
			  : w.diff < 0	     ? "faster"
					     : "slower";
	sd = ab_welch_pooled_sd(&w);
	/* two boots or more a side (pairs) and no spread at all (exact
	 * counts, or --deterministic's replicas): nothing for the t test to
	 * weigh, and B / A is exact */
	if (isnan(w.p) && sd == 0)
		verdict = "identical";
	json_object_object_add(o, "label", json_object_new_string(label));
	json_object_object_add(o, "phase", json_object_new_string(phase));
	json_object_object_add(o, "a_ns", ab_json_num(exp(w.mean_a)));
	json_object_object_add(o, "b_ns", ab_json_num(exp(w.mean_b)));
	json_object_object_add(o, "boots_a", a ? num_array(a, na) : NULL);
	json_object_object_add(o, "boots_b", b ? num_array(b, nb) : NULL);
	json_object_object_add(o, "ratio", ab_json_num(exp(w.diff)));
	ci = json_object_new_array();
	json_object_array_add(ci, ab_json_num(exp(w.ci_lo)));
	json_object_array_add(ci, ab_json_num(exp(w.ci_hi)));
	json_object_object_add(o, "ci95", ci);
	/* each row's own 95%: Holm adjusts p, not the interval */
	json_object_object_add(o, "ci_adjusted", json_object_new_boolean(0));
	json_object_object_add(o, "p", ab_json_num(w.p));
	json_object_object_add(o, "p_adjusted", ab_json_num(w.p));
	json_object_object_add(o, "df", ab_json_num(w.df));
	json_object_object_add(o, "verdict", json_object_new_string(verdict));
	json_object_object_add(o, "log_sd", ab_json_num(sd));
	/* vm --deterministic: boots paired by seed, the paired t test */
	json_object_object_add(
		o, "pairs", paired ? json_object_new_int64((int64_t)na) : NULL);
	json_object_object_add(o, "threshold_pct",
			       threshold_pct > 0 ? ab_json_num(threshold_pct)
						 : NULL);
	/* detectable_pct, threshold_detectable and rounds_needed come once
	 * the report's tests are counted (ab_vm_adjust()) */
	cs = counter_deltas(ra, na, rb, nb, paired);
	json_object_object_add(o, "counters", cs);
	/* --profile: each function's share of the instructions' B - A, on
	 * the row's first phase (a profile covers the op: both phases) */
	for (i = 0; first && cs && i < json_object_array_length(cs); i++) {
		json_object *c = json_object_array_get_idx(cs, i);

		if (!strcmp(json_object_get_string(ab_json_get(c, "event")),
			    "instructions")) {
			pd = ab_vm_profile_diff(
				ra, na, rb, nb,
				ab_json_double(ab_json_get(c, "delta")));
			break;
		}
	}
	if (pd)
		json_object_object_add(o, "profile_diff", pd);
	/* --paths: the fast path's B - A, this phase's own */
	pd = ab_vm_paths_diff(ra, na, rb, nb, phase, paired);
	if (pd)
		json_object_object_add(o, "paths", pd);
	free(a);
	free(b);
	return o;
}

/*
 * Whether row @r's success rate is worth a test: a boot of either kernel
 * could fail it (ab_result_can_fail(): a memory condition, or a failure).
 */
static int success_counts(json_object *doc, json_object **ra, size_t na,
			  json_object **rb, size_t nb)
{
	json_object *par = ab_json_get(doc, "parameters");
	size_t i;

	for (i = 0; i < na + nb; i++)
		if (ab_result_can_fail(par, i < na ? ra[i] : rb[i - na]))
			return 1;
	return 0;
}

/* The difference of two rates in points can be no further out than this. */
#define AB_PP_MAX 100.0

/*
 * One row's success rate, B (kernel @k) against A: each boot's rate in
 * %, the boot as unit. The test is the exact rank-sum test on the boots'
 * rates (ab_rank_sum_exact(): no spread needed within a side, so every
 * boot of A at 100% and every boot of B at 0% is a verdict, where Welch's
 * t had no standard error); B - A is the difference of the means in
 * percentage points with Welch's 95% interval on the rates as they are
 * (a rate can be 0: no logs), clipped to [-100, 100] points, the most a
 * difference of rates can be ("ci_clipped" says when it was), and not
 * adjusted for the report's tests ("ci_adjusted": false). Rows whose
 * boots all had the same rate on both sides are "identical" (no test).
 * The verdict and detectable_pp come with the report's tests
 * (ab_vm_adjust()).
 */
static json_object *success_row(json_object **ra, size_t na, json_object **rb,
				size_t nb, const char *label)
{
	json_object *o = json_object_new_object(), *ci;
	double *a = calloc(na + 1, sizeof(*a)), *b = calloc(nb + 1, sizeof(*b));
	const char *verdict = "cannot conclude";
	double lo, hi, centre = (double)nb * ((double)(na + nb) + 1) / 2;
	struct ab_ranksum rs = { NAN, NAN, NAN };
	size_t i;
	struct ab_welch w;

	for (i = 0; a && i < na; i++)
		a[i] = 100 * ab_json_double(ab_json_get(
				     ab_json_get(ra[i], "success"), "rate"));
	for (i = 0; b && i < nb; i++)
		b[i] = 100 * ab_json_double(ab_json_get(
				     ab_json_get(rb[i], "success"), "rate"));
	if (a && b)
		ab_welch_raw(a, na, b, nb, &w);
	else
		ab_welch_raw(NULL, 0, NULL, 0, &w);
	if (na > 1 && nb > 1 && w.sd_a == 0 && w.sd_b == 0 && w.diff == 0)
		verdict = "identical";
	else if (na > 1 && nb > 1 && a && b)
		ab_rank_sum_exact(a, na, b, nb, &rs);
	/* the direction is the test's: B's rank sum above or below its
	 * mean under the null, nb (n + 1) / 2 */
	if (!isnan(rs.p))
		verdict = rs.p >= AB_VM_ALPHA ? "no significant difference"
			  : rs.w > centre     ? "higher"
					      : "lower";
	/* (fmin and fmax drop a NAN: keep it) */
	lo = isnan(w.ci_lo) ? NAN : fmax(w.ci_lo, -AB_PP_MAX);
	hi = isnan(w.ci_hi) ? NAN : fmin(w.ci_hi, AB_PP_MAX);
	json_object_object_add(o, "label", json_object_new_string(label));
	json_object_object_add(o, "a_pct", ab_json_num(w.mean_a));
	json_object_object_add(o, "b_pct", ab_json_num(w.mean_b));
	json_object_object_add(o, "boots_a", a ? num_array(a, na) : NULL);
	json_object_object_add(o, "boots_b", b ? num_array(b, nb) : NULL);
	json_object_object_add(o, "diff_pp", ab_json_num(w.diff));
	ci = json_object_new_array();
	json_object_array_add(ci, ab_json_num(lo));
	json_object_array_add(ci, ab_json_num(hi));
	json_object_object_add(o, "ci95", ci);
	json_object_object_add(
		o, "ci_clipped",
		json_object_new_boolean(lo > w.ci_lo || hi < w.ci_hi));
	json_object_object_add(o, "ci_adjusted", json_object_new_boolean(0));
	json_object_object_add(o, "test",
			       json_object_new_string("rank-sum exact"));
	json_object_object_add(o, "w", ab_json_num(rs.w));
	json_object_object_add(o, "w_null_mean",
			       ab_json_num(isnan(rs.w) ? NAN : centre));
	json_object_object_add(o, "p", ab_json_num(rs.p));
	json_object_object_add(o, "p_min", ab_json_num(rs.p_min));
	json_object_object_add(o, "p_adjusted", ab_json_num(rs.p));
	json_object_object_add(o, "df", ab_json_num(w.df));
	json_object_object_add(o, "verdict", json_object_new_string(verdict));
	json_object_object_add(o, "sd_pp", ab_json_num(ab_welch_pooled_sd(&w)));
	free(a);
	free(b);
	return o;
}

/*
 * The rows of kernel @k against kernel 0, in A's first good boot's order,
 * each phase's ns/op into the returned array and, where something could
 * fail, the success rate into @success.
 */
static json_object *compare_one(const struct ab_vm_boot *boots, size_t n, int k,
				double threshold_pct, json_object *success)
{
	json_object *out = json_object_new_array(), *first = NULL, *rows;
	json_object **ra = calloc(n + 1, sizeof(*ra)),
		    **rb = calloc(n + 1, sizeof(*rb));
	int *sa = calloc(n + 1, sizeof(*sa)), *sb = calloc(n + 1, sizeof(*sb));
	size_t i, j;

	for (i = 0; i < n && !first; i++)
		if (boots[i].kernel == 0 && boots[i].status == AB_VM_OK)
			first = boots[i].result;
	rows = ab_result_rows(first);
	for (i = 0;
	     ra && rb && sa && sb && rows && i < json_object_array_length(rows);
	     i++) {
		json_object *r = json_object_array_get_idx(rows, i);
		const char *const *ph = ab_result_row_phases(r);
		char *key = ab_result_row_key(r),
		     *label = ab_result_row_name(r);
		size_t na, nb, occ = 0, np = 0;
		json_object *f;

		/* the how-many-th row of this key in A's first boot */
		for (f = key ? ab_result_find(first, key, 0) : NULL;
		     f && f != r; f = ab_result_find(first, key, ++occ))
			;
		if (key && label) {
			na = rows_of(boots, n, 0, key, occ, ra, sa);
			nb = rows_of(boots, n, k, key, occ, rb, sb);
			np = pair_up(ra, sa, &na, rb, sb, &nb);
			for (j = 0; ph[j]; j++)
				if (!isnan(ab_result_row_median(r, ph[j])))
					json_object_array_add(
						out,
						row_phase(ra, na, rb, nb, label,
							  ph[j], threshold_pct,
							  !j, np > 0));
			if (ab_json_get(r, "success") &&
			    success_counts(first, ra, na, rb, nb))
				json_object_array_add(
					success,
					success_row(ra, na, rb, nb, label));
		}
		free(key);
		free(label);
	}
	free(ra);
	free(rb);
	free(sa);
	free(sb);
	return out;
}

/* The length of array @a; 0 for NULL (json-c asserts on it). */
static size_t len_of(json_object *a)
{
	return a ? json_object_array_length(a) : 0;
}

/* The tests of comparison @c: its rows' (ns/op) then its success rates. */
static const char *const families[] = { "rows", "success" };

/* Row @r of family @fam with Holm's adjusted @adj at first level @alpha. */
static void adjusted(json_object *r, int fam, double adj, int tested,
		     double alpha)
{
	double d = ab_json_double(ab_json_get(r, "ratio"));
	const char *v = json_object_get_string(ab_json_get(r, "verdict"));

	if (fam) {
		double sd = ab_json_double(ab_json_get(r, "sd_pp")),
		       pmin = ab_json_double(ab_json_get(r, "p_min")), det;

		/* a difference in points, not a ratio: no logs to undo; the
		 * exact test's direction (B's rank sum against its mean) */
		d = ab_json_double(ab_json_get(r, "w")) >
				    ab_json_double(
					    ab_json_get(r, "w_null_mean"))
			    ? 2
			    : 0;
		det = ab_vm_detectable(sd, len_of(ab_json_array(r, "boots_a")),
				       len_of(ab_json_array(r, "boots_b")),
				       alpha);
		/* no change at all is found when the test's smallest p cannot
		 * pass the level; none beyond 100 points exists */
		if (pmin >= alpha)
			det = NAN;
		json_object_object_add(
			r, "detectable_pp",
			ab_json_num(isnan(det) ? NAN : fmin(det, AB_PP_MAX)));
		json_object_object_add(
			r, "detectable_clipped",
			json_object_new_boolean(det > AB_PP_MAX));
	} else {
		/* what a change must pass to be called when its p is the
		 * report's smallest: Holm's first level (5% with no test,
		 * when no row had a spread to test) */
		set_detectable(
			r, ab_json_double(ab_json_get(r, "log_sd")),
			len_of(ab_json_array(r, "boots_a")),
			len_of(ab_json_array(r, "boots_b")),
			ab_json_double(ab_json_get(r, "threshold_pct")), alpha,
			(size_t)json_object_get_int(ab_json_get(r, "pairs")));
	}
	if (!tested)
		return;
	json_object_object_add(r, "p_adjusted", ab_json_num(adj));
	if (isnan(adj) || (v && !strcmp(v, "identical")))
		return;
	json_object_object_add(
		r, "verdict",
		json_object_new_string(adj >= AB_VM_ALPHA
					       ? "no significant difference"
				       : fam   ? (d > 1 ? "higher" : "lower")
				       : d < 1 ? "faster"
					       : "slower"));
}

size_t ab_vm_adjust(json_object *cmps)
{
	size_t n = 0, i, j, k, m;
	double *p, *adj;
	int f;

	for (i = 0; i < len_of(cmps); i++)
		for (f = 0; f < 2; f++)
			n += len_of(ab_json_array(
				json_object_array_get_idx(cmps, i),
				families[f]));
	p = calloc(n + 1, sizeof(*p));
	adj = calloc(n + 1, sizeof(*adj));
	for (i = 0, k = 0; p && i < len_of(cmps); i++)
		for (f = 0; f < 2; f++) {
			json_object *rows = ab_json_array(
				json_object_array_get_idx(cmps, i),
				families[f]);

			for (j = 0; j < len_of(rows); j++)
				p[k++] = ab_json_double(ab_json_get(
					json_object_array_get_idx(rows, j),
					"p"));
		}
	m = p && adj ? ab_holm(p, n, adj) : 0;
	for (i = 0, k = 0; i < len_of(cmps); i++) {
		json_object *c = json_object_array_get_idx(cmps, i), *corr;

		for (f = 0; f < 2; f++) {
			json_object *rows = ab_json_array(c, families[f]);

			for (j = 0; j < len_of(rows); j++, k++)
				adjusted(json_object_array_get_idx(rows, j), f,
					 adj ? adj[k] : NAN, m > 0,
					 AB_VM_ALPHA / (double)(m ? m : 1));
		}
		if (!m)
			continue;
		corr = json_object_new_object();
		json_object_object_add(corr, "method",
				       json_object_new_string("holm"));
		json_object_object_add(corr, "alpha",
				       json_object_new_double(AB_VM_ALPHA));
		json_object_object_add(corr, "tests",
				       json_object_new_int64((int64_t)m));
		json_object_object_add(c, "correction", corr);
	}
	free(p);
	free(adj);
	return m;
}

json_object *ab_vm_compare(const struct ab_vm_boot *boots, size_t n, int nk,
			   const char *const *names, double threshold_pct)
{
	json_object *out = json_object_new_array();
	int k;

	for (k = 1; out && k < nk; k++) {
		json_object *c = json_object_new_object();

		json_object_object_add(c, "a",
				       json_object_new_string(names[0]));
		json_object_object_add(c, "b",
				       json_object_new_string(names[k]));
		json_object *success = json_object_new_array();

		json_object_object_add(
			c, "rows",
			compare_one(boots, n, k, threshold_pct, success));
		json_object_object_add(c, "success", success);
		json_object_array_add(out, c);
	}
	if (out)
		ab_vm_adjust(out);
	return out;
}
