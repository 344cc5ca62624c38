// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_vmab.c - kernels compared boot by boot (lib/vmab.c): the boot
 * order, Welch's test on a known answer, the detectable change and the
 * rounds it needs, and whole comparisons of synthetic boots: a clear
 * difference, none, boots left out, too few boots, lookup rows, counters
 * (their success rates under a --condition: test_vmab_success.c).
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "jsonout.h"
#include "vmab.h"
#include "vmab_fixture.h"

static void test_order(void **state)
{
	/* A B, B A, A B; with three: A B C, C B A */
	static const int two[] = { 0, 1, 1, 0, 0, 1 };
	static const int three[] = { 0, 1, 2, 2, 1, 0, 0, 1, 2 };
	int i;

	for (i = 0; i < 6; i++)
		assert_int_equal(ab_vm_kernel_of(i, 2), two[i]);
	for (i = 0; i < 9; i++)
		assert_int_equal(ab_vm_kernel_of(i, 3), three[i]);
}

static void test_welch_known(void **state)
{
	/*
	 * logs 0, 1, 2 against 2, 3, 4: diff 2, sd 1 each, se sqrt(2/3) =
	 * 0.8165, t = 2.4495, df = (2/3)^2 / (2 (1/3)^2 / 2) = 4; two-sided
	 * p = 0.07048 (the t density integrated numerically);
	 * t(0.975, 4) = 2.776445: interval 2 -+ 2.2670
	 */
	double a[] = { 1, M_E, M_E * M_E }, b[] = { M_E * M_E, exp(3), exp(4) };
	struct ab_welch w;

	ab_welch(a, 3, b, 3, &w);
	assert_true(fabs(w.diff - 2) < 1e-12);
	assert_true(fabs(w.se - sqrt(2.0 / 3)) < 1e-12);
	assert_true(fabs(w.df - 4) < 1e-9);
	assert_true(fabs(w.p - 0.07048) < 1e-4);
	assert_true(fabs(w.ci_lo - (2 - 2.776445 * sqrt(2.0 / 3))) < 1e-5);
	assert_true(fabs(w.ci_hi - (2 + 2.776445 * sqrt(2.0 / 3))) < 1e-5);
}

static void test_welch_relations(void **state)
{
	double a[] = { 100, 101, 99, 100.5, 99.5 },
	       b[] = { 80, 81, 79, 80.5, 79.5 }, bad[] = { 100, 0 };
	struct ab_welch w;

	/* a clear difference: the interval excludes 0, p < 0.05 */
	ab_welch(a, 5, b, 5, &w);
	assert_true(w.p < 0.05);
	assert_true(w.ci_hi < 0);
	assert_true(w.ci_lo < w.diff && w.diff < w.ci_hi);
	/* the same sample: no difference at all */
	ab_welch(a, 5, a, 5, &w);
	assert_true(w.diff == 0);
	assert_true(w.p > 0.99);
	assert_true(w.ci_lo < 0 && w.ci_hi > 0);
	/* one boot, a zero or a NAN: no test */
	ab_welch(a, 1, b, 5, &w);
	assert_true(isnan(w.p));
	ab_welch(bad, 2, b, 5, &w);
	assert_true(isnan(w.p) && isnan(w.diff));
}

static void test_detectable(void **state)
{
	double d2 = ab_vm_detectable(0.02, 2, 2, AB_VM_ALPHA),
	       d5 = ab_vm_detectable(0.02, 5, 5, AB_VM_ALPHA),
	       d20 = ab_vm_detectable(0.02, 20, 20, AB_VM_ALPHA);
	size_t n;

	/* more boots, a smaller detectable change; none below 2 */
	assert_true(d2 > d5 && d5 > d20 && d20 > 0);
	assert_true(isnan(ab_vm_detectable(0.02, 1, 5, AB_VM_ALPHA)));
	assert_true(isnan(ab_vm_detectable(NAN, 5, 5, AB_VM_ALPHA)));
	/* proportional to the spread */
	assert_true(fabs(ab_vm_detectable(0.04, 5, 5, AB_VM_ALPHA) - 2 * d5) <
		    1e-12);
	/* the rounds needed: the first n that reaches the threshold */
	n = ab_vm_rounds_needed(0.02, 3, AB_VM_ALPHA);
	assert_true(n >= 2);
	assert_true(ab_vm_detectable(0.02, n, n, AB_VM_ALPHA) <= log1p(0.03));
	if (n > 2)
		assert_true(ab_vm_detectable(0.02, n - 1, n - 1, AB_VM_ALPHA) >
			    log1p(0.03));
	/* a larger spread needs more; an impossible one, 0 */
	assert_true(ab_vm_rounds_needed(0.04, 3, AB_VM_ALPHA) > n);
	assert_int_equal(ab_vm_rounds_needed(10, 0.1, AB_VM_ALPHA), 0);
	assert_int_equal(ab_vm_rounds_needed(NAN, 5, AB_VM_ALPHA), 0);
	/* a report of 8 tests: Holm's first level, 5% / 8, needs a larger
	 * change and more rounds (before: every row at 5%) */
	assert_true(ab_vm_detectable(0.02, 5, 5, AB_VM_ALPHA / 8) > d5);
	assert_true(ab_vm_rounds_needed(0.02, 3, AB_VM_ALPHA / 8) > n);
}

static json_object *row(json_object *cmps, int c, const char *label,
			const char *phase)
{
	json_object *rows =
		ab_json_array(json_object_array_get_idx(cmps, c), "rows");
	size_t i;

	for (i = 0; rows && i < json_object_array_length(rows); i++) {
		json_object *r = json_object_array_get_idx(rows, i);

		if (!strcmp(json_object_get_string(ab_json_get(r, "label")),
			    label) &&
		    !strcmp(json_object_get_string(ab_json_get(r, "phase")),
			    phase))
			return r;
	}
	return NULL;
}

static void test_compare_boots(void **state)
{
	/* A: alloc ~1000, B: ~800; free and lookup the same in both; boot
	 * 4 of B failed (its absurd result must not count) */
	static const double alloc[] = { 1000, 810, 805, 1004, 998, 790 };
	static const double freed[] = { 300, 302, 298, 299, 301, 300 };
	static const double look[] = { 5.0, 5.1, 4.9, 5.0, 5.05, 4.95 };
	const char *names[] = { "6.1", "6.1:init_on_alloc=0" };
	struct ab_vm_boot b[7];
	json_object *cmps, *r;
	int i;

	memset(b, 0, sizeof(b));
	for (i = 0; i < 6; i++) {
		b[i].kernel = ab_vm_kernel_of(i, 2);
		b[i].round = i / 2 + 1;
		b[i].status = AB_VM_OK;
		/* without --cpu each boot starts wherever it starts: the
		 * rows are the same experiment all the same */
		b[i].result = result(alloc[i], freed[i], look[i],
				     b[i].kernel ? 0 : 1, i % 2);
	}
	b[6].kernel = 1;
	b[6].round = 4;
	b[6].status = AB_VM_KERNEL;
	cmps = ab_vm_compare(b, 7, 2, names, 5);
	assert_int_equal(json_object_array_length(cmps), 1);
	r = row(cmps, 0, "kmalloc 4096 B", "alloc");
	assert_non_null(r);
	assert_string_equal(verdict(r), "faster");
	assert_int_equal(json_object_array_length(ab_json_array(r, "boots_b")),
			 3);
	assert_true(ab_json_double(ab_json_get(r, "ratio")) < 0.85);
	assert_true(ab_json_double(ab_json_get(r, "p")) < 0.05);
	/* alloc, free and lookup are one family of 3: p_adjusted >= p */
	assert_true(ab_json_double(ab_json_get(r, "p_adjusted")) >=
		    ab_json_double(ab_json_get(r, "p")));
	assert_true(ab_json_double(ab_json_get(r, "p_adjusted")) < 0.05);
	assert_true(json_object_get_boolean(
		ab_json_get(r, "threshold_detectable")));
	/* the counter that goes with it: page allocations 1 -> 0 */
	assert_true(ab_json_double(ab_json_get(
			    json_object_array_get_idx(
				    ab_json_array(r, "counters"), 0),
			    "delta")) == -1);
	r = row(cmps, 0, "kmalloc 4096 B", "free");
	assert_string_equal(verdict(r), "no significant difference");
	assert_true(ab_json_double(ab_json_get(r, "detectable_pct")) > 0);
	r = row(cmps, 0, "lookup fls (kmalloc, sizes 32)", "lookup");
	assert_non_null(r);
	assert_string_equal(verdict(r), "no significant difference");
	json_object_put(cmps);

	/* only one good boot of B: nothing concluded */
	b[1].status = AB_VM_NOSTATUS;
	b[2].status = AB_VM_FAILED;
	cmps = ab_vm_compare(b, 7, 2, names, 0);
	r = row(cmps, 0, "kmalloc 4096 B", "alloc");
	assert_string_equal(verdict(r), "cannot conclude");
	assert_null(ab_json_get(r, "threshold_detectable"));
	json_object_put(cmps);
	free_boots(b, 7);
}

/* A comparison whose rows have p @p[0..n) and ratio 0.9. */
static json_object *cmp_of(const double *p, size_t n)
{
	json_object *c = json_object_new_object(),
		    *rows = json_object_new_array();
	size_t i;

	for (i = 0; i < n; i++) {
		json_object *r = json_object_new_object();

		json_object_object_add(
			r, "p",
			isnan(p[i]) ? NULL : json_object_new_double(p[i]));
		json_object_object_add(r, "ratio", json_object_new_double(0.9));
		json_object_object_add(
			r, "verdict",
			json_object_new_string(isnan(p[i]) ? "cannot conclude"
							   : "unset"));
		json_object_array_add(rows, r);
	}
	json_object_object_add(c, "rows", rows);
	return c;
}

/*
 * Holm over the whole report (issue 21, part 5): p = 0.01 and 0.04 in one
 * comparison, 0.03 and an untestable row in another (a second kernel
 * against A) are one family of 3 tests: adjusted 0.03, 0.06, 0.06 (worked
 * in test_stats.c). 0.04 alone would have said "faster" at 5%; adjusted,
 * only the 0.01 row does. Before the correction every p < 0.05 said
 * faster or slower.
 */
static void test_adjust_family(void **state)
{
	const double p1[] = { 0.01, 0.04 }, p2[] = { 0.03, NAN };
	json_object *cmps = json_object_new_array(), *r, *corr;

	(void)state;
	json_object_array_add(cmps, cmp_of(p1, 2));
	json_object_array_add(cmps, cmp_of(p2, 2));
	assert_int_equal(ab_vm_adjust(cmps), 3);
	r = json_object_array_get_idx(
		ab_json_array(json_object_array_get_idx(cmps, 0), "rows"), 0);
	assert_float_equal(ab_json_double(ab_json_get(r, "p_adjusted")), 0.03,
			   1e-12);
	assert_string_equal(verdict(r), "faster");
	r = json_object_array_get_idx(
		ab_json_array(json_object_array_get_idx(cmps, 0), "rows"), 1);
	assert_float_equal(ab_json_double(ab_json_get(r, "p_adjusted")), 0.06,
			   1e-12);
	assert_float_equal(ab_json_double(ab_json_get(r, "p")), 0.04, 0);
	assert_string_equal(verdict(r), "no significant difference");
	r = json_object_array_get_idx(
		ab_json_array(json_object_array_get_idx(cmps, 1), "rows"), 0);
	assert_float_equal(ab_json_double(ab_json_get(r, "p_adjusted")), 0.06,
			   1e-12);
	assert_string_equal(verdict(r), "no significant difference");
	r = json_object_array_get_idx(
		ab_json_array(json_object_array_get_idx(cmps, 1), "rows"), 1);
	assert_null(ab_json_get(r, "p_adjusted"));
	assert_string_equal(verdict(r), "cannot conclude");
	corr = ab_json_get(json_object_array_get_idx(cmps, 1), "correction");
	assert_string_equal(json_object_get_string(ab_json_get(corr, "method")),
			    "holm");
	assert_int_equal(json_object_get_int(ab_json_get(corr, "tests")), 3);
	json_object_put(cmps);
}

/*
 * Two boots a side whose figures are the same in each boot of a kernel
 * (exact counts, --deterministic's replicas): no spread for Welch's t, so
 * no test and no correction, and the rows say "identical" (the report's
 * note then says so, not that a kernel lacked good boots); B / A is exact.
 */
static void test_identical_boots(void **state)
{
	const char *names[] = { "A", "B" };
	struct ab_vm_boot b[4];
	json_object *cmps, *r;
	int i;

	(void)state;
	memset(b, 0, sizeof(b));
	for (i = 0; i < 4; i++) {
		b[i].kernel = i >= 2;
		b[i].status = AB_VM_OK;
		b[i].result = result(i >= 2 ? 150 : 100, 50, 5, 1, 0);
	}
	cmps = ab_vm_compare(b, 4, 2, names, 0);
	r = row(cmps, 0, "kmalloc 4096 B", "alloc");
	assert_string_equal(verdict(r), "identical");
	assert_float_equal(ab_json_double(ab_json_get(r, "ratio")), 1.5, 1e-12);
	r = row(cmps, 0, "kmalloc 4096 B", "free");
	assert_string_equal(verdict(r), "identical");
	assert_null(
		ab_json_get(json_object_array_get_idx(cmps, 0), "correction"));
	json_object_put(cmps);
	free_boots(b, 4);
}

/*
 * compare's saved runs go through ab_vm_compare() as boots of two
 * "kernels": one run per side gives the ratio of the two medians and no p
 * (compare then says "cannot conclude: one run per side"); three per side
 * with B's alloc medians 3 times A's, run for run (large by
 * construction), give ratio 3 and "slower" on the adjusted p, and equal
 * free medians p = p_adjusted = 1.
 */
static void test_runs_as_units(void **state)
{
	static const double f[] = { 0.98, 1.0, 1.02 };
	const char *names[] = { "old", "new" };
	struct ab_vm_boot b[6];
	json_object *cmps, *r;
	int i;

	(void)state;
	memset(b, 0, sizeof(b));
	for (i = 0; i < 6; i++) {
		b[i].kernel = i >= 3;
		b[i].status = AB_VM_OK;
		b[i].result = result(100 * f[i % 3] * (i >= 3 ? 3 : 1),
				     50 * f[i % 3], 5, 1, 0);
	}
	/* A's first run against B's first: boots 0 and 3 */
	{
		struct ab_vm_boot one[2] = { b[0], b[3] };

		cmps = ab_vm_compare(one, 2, 2, names, 0);
		r = row(cmps, 0, "kmalloc 4096 B", "alloc");
		assert_true(isnan(ab_json_double(ab_json_get(r, "p"))));
		assert_null(ab_json_get(r, "p_adjusted"));
		assert_float_equal(ab_json_double(ab_json_get(r, "ratio")), 3,
				   1e-12);
		assert_string_equal(verdict(r), "cannot conclude");
		json_object_put(cmps);
	}
	cmps = ab_vm_compare(b, 6, 2, names, 0);
	r = row(cmps, 0, "kmalloc 4096 B", "alloc");
	assert_float_equal(ab_json_double(ab_json_get(r, "ratio")), 3, 1e-9);
	assert_true(ab_json_double(ab_json_get(r, "p_adjusted")) < 0.05);
	assert_string_equal(verdict(r), "slower");
	r = row(cmps, 0, "kmalloc 4096 B", "free");
	assert_float_equal(ab_json_double(ab_json_get(r, "p")), 1, 1e-12);
	assert_float_equal(ab_json_double(ab_json_get(r, "p_adjusted")), 1,
			   1e-12);
	assert_string_equal(verdict(r), "no significant difference");
	json_object_put(cmps);
	free_boots(b, 6);
}

static void test_check(void **state)
{
	const char *names[] = { "A", "B" };
	struct ab_vm_boot b[4];
	json_object *doc = json_object_new_object(), *cmps, *r;
	char err[256];
	int i;

	memset(b, 0, sizeof(b));
	for (i = 0; i < 4; i++) {
		b[i].kernel = ab_vm_kernel_of(i, 2);
		b[i].status = AB_VM_OK;
		b[i].result = result(100 + i, 50, 5, 1, 0);
	}
	cmps = ab_vm_compare(b, 4, 2, names, 0);
	json_object_object_add(doc, "schema",
			       json_object_new_string("allocbench-vm"));
	json_object_object_add(doc, "schema_version", json_object_new_int(1));
	json_object_object_add(doc, "comparisons", cmps);
	assert_int_equal(ab_vm_check(doc, err, sizeof(err)), 0);
	r = json_object_array_get_idx(
		ab_json_array(json_object_array_get_idx(cmps, 0), "rows"), 0);
	json_object_object_add(r, "ratio", json_object_new_string("fast"));
	assert_int_not_equal(ab_vm_check(doc, err, sizeof(err)), 0);
	assert_non_null(strstr(err, "rows[0].ratio"));
	/* a ratio is positive: a hand-edited -1 is refused, not drawn */
	json_object_object_add(r, "ratio", json_object_new_double(-1));
	assert_int_not_equal(ab_vm_check(doc, err, sizeof(err)), 0);
	assert_non_null(strstr(err, "rows[0].ratio: out of range"));
	json_object_put(doc);
	free_boots(b, 4);
}

/*
 * boots (or saved runs) that repeat one figure per side have no spread:
 * no p, no interval, no detectable change, whatever the ratio (a saved
 * run named three times per side read "faster" at p < 0.001)
 */
static void test_welch_no_spread(void **state)
{
	const double a[] = { 2204.1, 2204.1, 2204.1 };
	const double b[] = { 2191.0, 2191.0, 2191.0 };
	struct ab_welch w;

	ab_welch(a, 3, b, 3, &w);
	assert_true(w.sd_a == 0 && w.sd_b == 0);
	assert_true(isnan(w.p));
	assert_true(isnan(w.ci_lo) && isnan(w.ci_hi));
	assert_true(fabs(exp(w.diff) - 2191.0 / 2204.1) < 1e-12);
	assert_true(isnan(ab_vm_detectable(0, 3, 3, AB_VM_ALPHA)));
}

/*
 * A row's counters across the boots: B / A on the geometric means, its
 * interval and the change the boots could detect; exact counts that are
 * the same in every boot say so ("identical") and have no detectable
 * change to give.
 */
static void test_counter_ab(void **state)
{
	static const double alloc[] = { 1000, 990, 1010, 1005, 995, 1002 };
	const char *names[] = { "6.1", "6.12" };
	/* per kernel in boot order A B B A A B: spread, then identical */
	static const double spread[] = { 100, 110, 111, 101, 99, 109 };
	static const double same[] = { 294, 224, 224, 294, 294, 224 };
	const double *sets[] = { spread, same };
	struct ab_vm_boot b[6];
	json_object *cmps, *c;
	int i, k;

	for (k = 0; k < 2; k++) {
		memset(b, 0, sizeof(b));
		for (i = 0; i < 6; i++) {
			b[i].kernel = ab_vm_kernel_of(i, 2);
			b[i].round = i / 2 + 1;
			b[i].status = AB_VM_OK;
			b[i].result = result(alloc[i], 300, 5.0, sets[k][i], 0);
		}
		cmps = ab_vm_compare(b, 6, 2, names, 0);
		c = json_object_array_get_idx(
			ab_json_array(row(cmps, 0, "kmalloc 4096 B", "alloc"),
				      "counters"),
			0);
		assert_non_null(c);
		assert_int_equal(
			json_object_array_length(ab_json_array(c, "boots_b")),
			3);
		if (!k) {
			double r = ab_json_double(ab_json_get(c, "ratio"));
			json_object *ci = ab_json_get(c, "ci95");

			assert_true(r > 1.09 && r < 1.11);
			assert_true(ab_json_double(json_object_array_get_idx(
					    ci, 0)) < r);
			assert_true(ab_json_double(json_object_array_get_idx(
					    ci, 1)) > r);
			assert_true(ab_json_double(ab_json_get(
					    c, "detectable_pct")) > 0);
			assert_false(json_object_get_boolean(
				ab_json_get(c, "identical")));
		} else {
			assert_true(
				fabs(ab_json_double(ab_json_get(c, "ratio")) -
				     224.0 / 294.0) < 1e-9);
			assert_true(json_object_get_boolean(
				ab_json_get(c, "identical")));
			assert_null(ab_json_get(c, "detectable_pct"));
		}
		json_object_put(cmps);
		free_boots(b, 6);
	}
}

/* A boot's result with a profile: kmalloc 64, instructions @ins per op,
 * its profile's functions @f1, @f2, @f3 (0: not named) and @other (the
 * functions past its cut). */
static json_object *prof_result(double ins, double f1, double f2, double f3,
				double other)
{
	char text[2048], fns[512];
	int n = 0;

	n += snprintf(
		fns + n, sizeof(fns) - n,
		"{\"function\": \"__kmem_cache_alloc_node\", \"instructions_per_op\": %g}",
		f1);
	if (f2)
		n += snprintf(
			fns + n, sizeof(fns) - n,
			", {\"function\": \"__memset\", \"instructions_per_op\": %g}",
			f2);
	if (f3)
		snprintf(
			fns + n, sizeof(fns) - n,
			", {\"function\": \"kmalloc_trace\", \"instructions_per_op\": %g}",
			f3);
	snprintf(
		text, sizeof(text),
		"{\"results\": ["
		"{\"kind\": \"alloc\", \"label\": \"kmalloc\", \"object_bytes\": 64,"
		" \"cpu_start\": 0, \"node\": -1, \"free_cpu\": null,"
		" \"alloc\": {\"ns\": {\"median\": 100}}, \"free\": {\"ns\": {\"median\": 50}},"
		" \"counters\": [{\"event\": \"instructions\", \"per_op\": %g}],"
		" \"profile\": {\"instructions_per_op\": %g, \"functions\": [%s],"
		" \"other_per_op\": %g, \"dropped_addresses\": 0}}]}",
		ins, f1 + f2 + f3 + other, fns, other);
	return json_tokener_parse(text);
}

/*
 * The differential profile (vm --profile): per function B - A, largest
 * first, a function one kernel alone names said so (A's profiles whole,
 * nothing past a cut), and the lines (the functions, those too small to
 * list, the unnamed rest, the residue: what the counts hold and the
 * profiles do not) add up to the row's B - A exactly.
 */
static void test_profile_diff(void **state)
{
	const char *names[] = { "6.1", "6.12" };
	struct ab_vm_boot b[6];
	json_object *cmps, *pd, *fns, *e;
	double sum, delta;
	size_t i;

	memset(b, 0, sizeof(b));
	for (i = 0; i < 6; i++) {
		int k = ab_vm_kernel_of((int)i, 2);
		double x = i == 1 ? 0.003 : 0;

		b[i].kernel = k;
		b[i].round = (int)i / 2 + 1;
		b[i].status = AB_VM_OK;
		/* A: 100 + 50 (memset), whole, counted 20 short of it; B:
		 * memset 40 (+ 0.001 in one boot), kmalloc_trace 30 (B
		 * only), 5 past its cut, counted 22 short */
		b[i].result = k ? prof_result(100 + 40 + 30 + 5 - 22 + x, 100,
					      40 + x, 30, 5)
				: prof_result(100 + 50 - 20, 100, 50, 0, 0);
	}
	cmps = ab_vm_compare(b, 6, 2, names, 0);
	pd = ab_json_get(row(cmps, 0, "kmalloc 64 B", "alloc"), "profile_diff");
	assert_non_null(pd);
	delta = ab_json_double(ab_json_get(pd, "delta"));
	assert_true(fabs(delta - (153.001 - 130)) < 1e-9);
	fns = ab_json_array(pd, "functions");
	assert_int_equal(json_object_array_length(fns), 2);
	/* the largest change first: the function B alone has */
	e = json_object_array_get_idx(fns, 0);
	assert_string_equal(json_object_get_string(ab_json_get(e, "function")),
			    "kmalloc_trace");
	assert_string_equal(json_object_get_string(ab_json_get(e, "found")),
			    "b only");
	assert_true(fabs(ab_json_double(ab_json_get(e, "delta")) - 30) < 1e-9);
	e = json_object_array_get_idx(fns, 1);
	assert_string_equal(json_object_get_string(ab_json_get(e, "function")),
			    "__memset");
	assert_string_equal(json_object_get_string(ab_json_get(e, "found")),
			    "both");
	assert_true(fabs(ab_json_double(ab_json_get(e, "delta")) + 9.999) <
		    1e-9);
	assert_true(fabs(ab_json_double(ab_json_get(pd, "other_delta")) - 5) <
		    1e-9);
	/* the residue: what the counts hold and the profiles do not */
	assert_true(fabs(ab_json_double(ab_json_get(pd, "residue")) + 2) <
		    1e-9);
	/* the sum: every line of the profile adds up to the row's B - A */
	sum = ab_json_double(ab_json_get(pd, "unlisted_delta")) +
	      ab_json_double(ab_json_get(pd, "other_delta")) +
	      ab_json_double(ab_json_get(pd, "residue"));
	for (i = 0; i < json_object_array_length(fns); i++)
		sum += ab_json_double(ab_json_get(
			json_object_array_get_idx(fns, i), "delta"));
	assert_true(fabs(sum - delta) < 1e-9);
	/* only the first phase of a row holds it */
	assert_null(ab_json_get(row(cmps, 0, "kmalloc 64 B", "free"),
				"profile_diff"));
	json_object_put(cmps);
	free_boots(b, 6);
}

/*
 * A boot's result whose profile names the functions @fns (a JSON list of
 * {function, instructions_per_op}) summing to @named, the rest, past the
 * profile's cut (AB_VPMU_PROF_TOP), @other; its count is the profile's
 * total, raw, as a boot's per_op is.
 */
static json_object *cut_result(const char *fns, double named, double other)
{
	char text[2048];

	snprintf(
		text, sizeof(text),
		AB_TEST_KMALLOC_4K
		" \"counters\": [{\"event\": \"instructions\", \"per_op\": %.17g}],"
		" \"profile\": {\"instructions_per_op\": %.17g, \"functions\": [%s],"
		" \"other_per_op\": %.17g, \"dropped_addresses\": 0}}]}",
		named + other, named + other, fns, other);
	return json_tokener_parse(text);
}

/*
 * A profile cut (6.1 against 6.1:init_on_alloc=0, kmalloc 4096, as
 * measured): A's boots name the zeroing's functions and so cut three small
 * ones into their other line, which B's boots name. Those are in both
 * kernels: not "b only" (the function is past A's cut, its A mean a lower
 * bound), and a function one of A's cut boots misses is not "both" either;
 * the lines still add up to B - A.
 */
#define KCAN \
	"{\"function\": \"__kmem_cache_alloc_node\", \"instructions_per_op\": "
#define PCP "{\"function\": \"put_cpu_partial\", \"instructions_per_op\": 0.5}"
#define A_FNS                                                                 \
	"{\"function\": \"memset_orig\", \"instructions_per_op\": 723}," KCAN \
	"99}"
#define B_FNS           \
	KCAN "89}," PCP \
	     ",{\"function\": \"crng_make_state\", \"instructions_per_op\": 0.07}"

static void test_profile_diff_cut(void **state)
{
	const char *names[] = { "6.1", "6.1:init_on_alloc=0" };
	struct ab_vm_boot b[4];
	json_object *cmps, *pd, *fns, *e;
	double sum;
	size_t i, j;

	memset(b, 0, sizeof(b));
	for (i = 0; i < 4; i++) {
		int k = ab_vm_kernel_of((int)i, 2);

		b[i].kernel = k;
		b[i].round = (int)i / 2 + 1;
		b[i].status = AB_VM_OK;
		/* A: the zeroing named, crng_make_state (0.07) and, in one
		 * boot, put_cpu_partial (0.5) past the cut; B: every one */
		if (k)
			b[i].result = cut_result(B_FNS, 89.57, 0);
		else if (i == 0)
			b[i].result = cut_result(A_FNS, 822, 0.57);
		else
			b[i].result = cut_result(A_FNS "," PCP, 822.5, 0.07);
	}
	cmps = ab_vm_compare(b, 4, 2, names, 0);
	pd = ab_json_get(row(cmps, 0, "kmalloc 4096 B", "alloc"),
			 "profile_diff");
	assert_non_null(pd);
	fns = ab_json_array(pd, "functions");
	assert_int_equal(json_object_array_length(fns), 4);
	for (i = 0; i < json_object_array_length(fns); i++) {
		const char *f, *found;

		e = json_object_array_get_idx(fns, i);
		f = json_object_get_string(ab_json_get(e, "function"));
		found = json_object_get_string(ab_json_get(e, "found"));
		if (!strcmp(f, "memset_orig"))
			assert_string_equal(found, "a only"); /* B not cut */
		else if (!strcmp(f, "__kmem_cache_alloc_node"))
			assert_string_equal(found, "both");
		else
			/* crng_make_state: past A's cut in both A boots;
			 * put_cpu_partial: in one of them */
			assert_string_equal(found, "cut");
	}
	sum = ab_json_double(ab_json_get(pd, "unlisted_delta")) +
	      ab_json_double(ab_json_get(pd, "other_delta")) +
	      ab_json_double(ab_json_get(pd, "residue"));
	for (j = 0; j < json_object_array_length(fns); j++)
		sum += ab_json_double(ab_json_get(
			json_object_array_get_idx(fns, j), "delta"));
	assert_true(fabs(sum - ab_json_double(ab_json_get(pd, "delta"))) <
		    1e-9);
	/* the counts are raw, as the profiles: nothing left over */
	assert_true(fabs(ab_json_double(ab_json_get(pd, "residue"))) < 1e-9);
	json_object_put(cmps);
	free_boots(b, 4);
}

/*
 * vm --deterministic: boots of one seed are a pair. Counts that differ
 * between seeds by 10% but are the same within each pair: an A/A whose
 * paired differences are all 0 ("identical", no spread), where unpaired
 * boots would have shown the seeds' spread; a boot without its partner
 * is left out.
 */
static void test_paired_seeds(void **state)
{
	const char *names[] = { "6.1", "6.1" };
	static const double by_seed[] = { 300, 330, 310, 320 };
	struct ab_vm_boot b[8];
	json_object *cmps, *r, *c;
	int i;

	memset(b, 0, sizeof(b));
	for (i = 0; i < 8; i++) {
		b[i].kernel = ab_vm_kernel_of(i, 2);
		b[i].round = i / 2 + 1;
		b[i].seed = b[i].round;
		b[i].status = AB_VM_OK;
		b[i].result = result(1000 + by_seed[i / 2], 300, 5.0,
				     by_seed[i / 2], 0);
	}
	/* round 4's B failed: 3 pairs */
	b[6 + !ab_vm_kernel_of(6, 2)].status = AB_VM_FAILED;
	cmps = ab_vm_compare(b, 8, 2, names, 0);
	r = row(cmps, 0, "kmalloc 4096 B", "alloc");
	assert_int_equal(json_object_get_int(ab_json_get(r, "pairs")), 3);
	c = json_object_array_get_idx(ab_json_array(r, "counters"), 0);
	assert_true(json_object_get_boolean(ab_json_get(c, "identical")));
	assert_int_equal(json_object_get_int(ab_json_get(c, "pairs")), 3);
	assert_true(fabs(ab_json_double(ab_json_get(c, "delta"))) < 1e-9);
	json_object_put(cmps);
	/* unseeded, the same boots: the seeds' spread is seen */
	for (i = 0; i < 8; i++)
		b[i].seed = 0;
	cmps = ab_vm_compare(b, 8, 2, names, 0);
	r = row(cmps, 0, "kmalloc 4096 B", "alloc");
	assert_null(ab_json_get(r, "pairs"));
	c = json_object_array_get_idx(ab_json_array(r, "counters"), 0);
	assert_false(json_object_get_boolean(ab_json_get(c, "identical")));
	assert_true(ab_json_double(ab_json_get(c, "detectable_pct")) > 5);
	json_object_put(cmps);
	free_boots(b, 8);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_order),
		cmocka_unit_test(test_welch_known),
		cmocka_unit_test(test_welch_relations),
		cmocka_unit_test(test_welch_no_spread),
		cmocka_unit_test(test_detectable),
		cmocka_unit_test(test_compare_boots),
		cmocka_unit_test(test_counter_ab),
		cmocka_unit_test(test_adjust_family),
		cmocka_unit_test(test_identical_boots),
		cmocka_unit_test(test_runs_as_units),
		cmocka_unit_test(test_check),
		cmocka_unit_test(test_profile_diff),
		cmocka_unit_test(test_profile_diff_cut),
		cmocka_unit_test(test_paired_seeds),
	};

	return cmocka_run_group_tests_name("vmab", tests, NULL, NULL);
}
