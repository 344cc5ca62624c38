// SPDX-License-Identifier: GPL-2.0-only
/*
 * vmprofile.c - the differential profile of one row of `allocbench vm
 * --profile` (see vmprofile.h): each function's instructions per op on
 * each kernel's boots, and B - A.
 */
#define _GNU_SOURCE
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "jsonout.h"
#include "vmprofile.h"

/* One function's instructions per op, summed over one kernel's boots. */
struct pfn {
	const char *name;
	double sum[2]; /* A, B */
	int boots[2];  /* boots whose profile named it */
};

static struct pfn *pfn_get(struct pfn **t, size_t *n, size_t *cap,
			   const char *name)
{
	size_t i;

	for (i = 0; i < *n; i++)
		if (!strcmp((*t)[i].name, name))
			return &(*t)[i];
	if (*n == *cap) {
		struct pfn *m;

		*cap = *cap ? 2 * *cap : 64;
		m = realloc(*t, *cap * sizeof(*m));
		if (!m)
			return NULL;
		*t = m;
	}
	memset(&(*t)[*n], 0, sizeof(**t));
	(*t)[*n].name = name;
	return &(*t)[(*n)++];
}

static double pfn_delta(const struct pfn *f, const int *nb)
{
	return f->sum[1] / nb[1] - f->sum[0] / nb[0];
}

static int pfn_cmp(const void *x, const void *y, void *nb)
{
	double a = fabs(pfn_delta(x, nb)), b = fabs(pfn_delta(y, nb));

	if (a != b)
		return (a < b) - (a > b);
	return strcmp(((const struct pfn *)x)->name,
		      ((const struct pfn *)y)->name);
}

/* A function whose delta is below this is listed in none (rounding). */
#define AB_PROF_EPS 0.005

/*
 * Which kernels' profiles name @f: "a only" or "b only" (renamed, inlined
 * or new), "both"; or "cut" when a boot of a side whose profile was cut
 * (it named its first AB_VPMU_PROF_TOP functions, the rest summed as its
 * other_per_op; @cut[side]) does not name it: that boot may have run it
 * past its cut, so its side's mean counts 0 there for instructions its
 * other line holds (a lower bound), and "only" would be a guess.
 */
static const char *pfn_found(const struct pfn *f, const int *nb, const int *cut)
{
	if ((cut[0] && f->boots[0] < nb[0]) || (cut[1] && f->boots[1] < nb[1]))
		return "cut";
	return !f->boots[0] ? "b only" : !f->boots[1] ? "a only" : "both";
}

/*
 * The differential profile of one row (perf diff's view, B - A): each
 * function's instructions per op, mean over each kernel's boots that
 * hold a profile, and B - A, largest change first; a function that only
 * one kernel's profiles name is "a only" or "b only" (renamed, inlined,
 * or new), "cut" where a cut profile may hold it unnamed (pfn_found()).
 * The listed functions' deltas, plus "unlisted_delta" (those under
 * AB_PROF_EPS each), plus "other_delta" (the functions past the profiles'
 * cuts), plus "residue" add up to the row's B - A of instructions per op
 * (@delta, from the boots' raw per_op counts, as the profiles are raw:
 * the harness's phase functions in both): the residue is what the counts
 * hold and the profiles do not, 0 when each boot's profile came whole
 * (no address dropped, every boot with a count profiled). NULL when
 * either kernel has no boot with a profile.
 */
json_object *ab_vm_profile_diff(json_object **ra, size_t na, json_object **rb,
				size_t nb, double delta)
{
	json_object **sides[2] = { ra, rb }, *o, *fns;
	size_t nside[2] = { na, nb }, n = 0, cap = 0, i, j;
	double other[2] = { 0, 0 }, total[2] = { 0, 0 }, listed = 0, small = 0,
	       od;
	int boots[2] = { 0, 0 }, cut[2] = { 0, 0 }, s;
	struct pfn *t = NULL, *f;

	for (s = 0; s < 2; s++)
		for (i = 0; i < nside[s]; i++) {
			json_object *p = ab_json_get(sides[s][i], "profile"),
				    *a = ab_json_array(p, "functions");

			if (!p || !a)
				continue;
			boots[s]++;
			od = ab_json_double(ab_json_get(p, "other_per_op"));
			other[s] += od;
			if (od > 0)
				cut[s] = 1;
			total[s] += ab_json_double(
				ab_json_get(p, "instructions_per_op"));
			for (j = 0; j < json_object_array_length(a); j++) {
				json_object *e =
					json_object_array_get_idx(a, j);
				const char *name = json_object_get_string(
					ab_json_get(e, "function"));

				if (!name || !(f = pfn_get(&t, &n, &cap, name)))
					continue;
				f->sum[s] += ab_json_double(
					ab_json_get(e, "instructions_per_op"));
				f->boots[s]++;
			}
		}
	if (!boots[0] || !boots[1]) {
		free(t);
		return NULL;
	}
	if (t)
		qsort_r(t, n, sizeof(*t), pfn_cmp, boots);
	o = json_object_new_object();
	fns = json_object_new_array();
	for (i = 0; i < n; i++) {
		json_object *e;
		double d = pfn_delta(&t[i], boots);

		if (fabs(d) < AB_PROF_EPS) {
			small += d;
			continue;
		}
		listed += d;
		e = json_object_new_object();
		json_object_object_add(e, "function",
				       json_object_new_string(t[i].name));
		json_object_object_add(e, "a",
				       ab_json_num(t[i].sum[0] / boots[0]));
		json_object_object_add(e, "b",
				       ab_json_num(t[i].sum[1] / boots[1]));
		json_object_object_add(e, "delta", ab_json_num(d));
		json_object_object_add(
			e, "found",
			json_object_new_string(pfn_found(&t[i], boots, cut)));
		json_object_array_add(fns, e);
	}
	od = other[1] / boots[1] - other[0] / boots[0];
	json_object_object_add(o, "boots_a", json_object_new_int(boots[0]));
	json_object_object_add(o, "boots_b", json_object_new_int(boots[1]));
	json_object_object_add(o, "a", ab_json_num(total[0] / boots[0]));
	json_object_object_add(o, "b", ab_json_num(total[1] / boots[1]));
	json_object_object_add(o, "delta", ab_json_num(delta));
	json_object_object_add(o, "functions", fns);
	json_object_object_add(o, "unlisted_delta", ab_json_num(small));
	json_object_object_add(o, "other_delta", ab_json_num(od));
	json_object_object_add(
		o, "residue",
		ab_json_num(isnan(delta) ? NAN : delta - listed - small - od));
	free(t);
	return o;
}
