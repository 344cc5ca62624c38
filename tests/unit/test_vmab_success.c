// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_vmab_success.c - kernels compared boot by boot (lib/vmab.c) on
 * their success rates under a --condition: the exact rank-sum test of
 * the boots' rates, in one Holm family with the ns rows; rates that
 * separate the kernels completely, and Welch's interval and the
 * detectable change clipped to what a difference of rates can be.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "vmab_fixture.h"

/* A boot's result under --condition: two page rows, order 3 taking
 * @ns3 ns with success @r3, order 9 none with success @r9. */
static json_object *cond_result(double ns3, double r3, double r9)
{
	char text[1024];

	snprintf(
		text, sizeof(text),
		"{\"parameters\": {\"condition\": \"fragmented\"}, \"results\": ["
		"{\"kind\": \"alloc\", \"label\": \"order 3\", \"object_bytes\": 32768,"
		" \"cpu_start\": 0, \"node\": 0, \"free_cpu\": null, \"failed\": 0,"
		" \"alloc\": {\"ns\": {\"median\": %g}},"
		" \"success\": {\"attempts\": 32, \"rate\": %g}},"
		"{\"kind\": \"alloc\", \"label\": \"order 9\", \"object_bytes\": 2097152,"
		" \"cpu_start\": 0, \"node\": 0, \"free_cpu\": null, \"failed\": 3,"
		" \"alloc\": {\"ns\": {\"median\": null}},"
		" \"success\": {\"attempts\": 8, \"rate\": %g}}]}",
		ns3, r3, r9);
	return json_tokener_parse(text);
}

static json_object *success_of(json_object *cmps, const char *label)
{
	json_object *rows =
		ab_json_array(json_object_array_get_idx(cmps, 0), "success");
	size_t i;

	for (i = 0; rows && i < json_object_array_length(rows); i++) {
		json_object *r = json_object_array_get_idx(rows, i);

		if (!strcmp(json_object_get_string(ab_json_get(r, "label")),
			    label))
			return r;
	}
	return NULL;
}

/* Boots 0..@n) in rounds of A and B, order 9's success rate @r9[i]. */
static json_object *success_boots(struct ab_vm_boot *b, int n, const double *r9)
{
	const char *names[] = { "6.1", "7.3" };
	int i;

	good_boots(b, n);
	for (i = 0; i < n; i++)
		b[i].result = cond_result(9000 + 10 * i, 1.0, r9[i]);
	return ab_vm_compare(b, (size_t)n, 2, names, 0);
}

static void test_success_ab(void **state)
{
	/* order 9 under fragmentation: A succeeds 20-30%, B 80-90% (a
	 * compaction change that helps); order 3 always succeeds. Boots
	 * 0 3 4 7 8 are A's (ABBA), 1 2 5 6 9 B's */
	static const double r9[] = { 0.2, 0.85, 0.8,  0.25, 0.3,
				     0.9, 0.85, 0.25, 0.25, 0.8 };
	const char *names[] = { "6.1", "7.3" };
	struct ab_vm_boot b[10];
	json_object *cmps, *r;

	cmps = success_boots(b, 10, r9);
	r = success_of(cmps, "order 9");
	assert_non_null(r);
	assert_string_equal(verdict(r), "higher");
	assert_true(fabs(ab_json_double(ab_json_get(r, "a_pct")) - 25) < 1e-9);
	assert_true(fabs(ab_json_double(ab_json_get(r, "diff_pp")) - 59) <
		    1e-9);
	/* the exact rank-sum test: every B above every A, 2 / C(10, 5);
	 * Holm over the 2 tests doubles it */
	assert_float_equal(ab_json_double(ab_json_get(r, "p")), 2.0 / 252,
			   1e-12);
	assert_float_equal(ab_json_double(ab_json_get(r, "p_adjusted")),
			   4.0 / 252, 1e-12);
	assert_false(json_object_get_boolean(ab_json_get(r, "ci_adjusted")));
	/* a rate of 0 is a rate: no logs (the order-9 ns rows have none) */
	assert_true(ab_json_double(ab_json_get(r, "p_adjusted")) < AB_VM_ALPHA);
	assert_true(ab_json_double(ab_json_get(r, "detectable_pp")) > 0);
	/* every boot 100% on both sides: identical, no test */
	r = success_of(cmps, "order 3");
	assert_string_equal(verdict(r), "identical");
	assert_true(isnan(ab_json_double(ab_json_get(r, "p"))));
	/* one Holm family with the ns rows: order 3's alloc, order 9's */
	assert_int_equal(json_object_get_int(ab_json_get(
				 ab_json_get(json_object_array_get_idx(cmps, 0),
					     "correction"),
				 "tests")),
			 2);
	json_object_put(cmps);
	free_boots(b, 10);
	/* quiet memory and nothing failed: no success rows */
	b[0].result = result(1000, 300, 5, 0, 0);
	b[0].status = AB_VM_OK;
	b[1].result = result(1000, 300, 5, 0, 0);
	b[1].status = AB_VM_OK;
	b[1].kernel = 1;
	cmps = ab_vm_compare(b, 2, 2, names, 0);
	assert_int_equal(
		json_object_array_length(ab_json_array(
			json_object_array_get_idx(cmps, 0), "success")),
		0);
	json_object_put(cmps);
	free_boots(b, 2);
}

/*
 * Issue 39.2: 100% in every boot of A, 0% in every boot of B read "cannot
 * conclude" (Welch's standard error 0). The exact rank-sum test calls it:
 * p = 2 / C(10, 5), Holm over 2 tests 4 / 252, "lower"; Welch's interval
 * has no width to give (n/a). A spread wide enough to put Welch's
 * interval and detectable change past 100 points is clipped to what a
 * difference of rates can be, and says so.
 */
static void test_success_separated(void **state)
{
	static const double sep[] = { 1, 0, 0, 1, 1, 0, 0, 1, 1, 0 };
	/* A 0 100 0 100 0 (boots 0 3 4 7 8), B 100 0 100 0 100 */
	static const double wide[] = { 0, 1, 0, 1, 0, 0, 1, 1, 0, 1 };
	/* 2 boots each: A 0 10, B 100 80; Welch's df 1.47: [-, 165] */
	static const double two[] = { 0, 1, 0.8, 0.1 };
	struct ab_vm_boot b[10];
	json_object *cmps, *r, *ci;

	(void)state;
	cmps = success_boots(b, 10, sep);
	r = success_of(cmps, "order 9");
	assert_string_equal(verdict(r), "lower");
	assert_float_equal(ab_json_double(ab_json_get(r, "diff_pp")), -100, 0);
	assert_float_equal(ab_json_double(ab_json_get(r, "p")), 2.0 / 252,
			   1e-12);
	assert_float_equal(ab_json_double(ab_json_get(r, "p_adjusted")),
			   4.0 / 252, 1e-12);
	assert_null(json_object_array_get_idx(ab_json_array(r, "ci95"), 0));
	json_object_put(cmps);
	free_boots(b, 10);

	cmps = success_boots(b, 10, wide);
	r = success_of(cmps, "order 9");
	ci = ab_json_array(r, "ci95");
	assert_true(ab_json_double(json_object_array_get_idx(ci, 0)) >= -100);
	assert_true(ab_json_double(json_object_array_get_idx(ci, 1)) <= 100);
	/* (0.025 level, df 8: (2.75 + 0.89) x 54.8 x sqrt(0.4) = 126) */
	assert_true(
		json_object_get_boolean(ab_json_get(r, "detectable_clipped")));
	assert_float_equal(ab_json_double(ab_json_get(r, "detectable_pp")), 100,
			   0);
	json_object_put(cmps);
	free_boots(b, 10);

	cmps = success_boots(b, 4, two);
	r = success_of(cmps, "order 9");
	ci = ab_json_array(r, "ci95");
	assert_float_equal(ab_json_double(json_object_array_get_idx(ci, 1)),
			   100, 0);
	assert_true(ab_json_double(json_object_array_get_idx(ci, 0)) > -100);
	assert_true(json_object_get_boolean(ab_json_get(r, "ci_clipped")));
	/* 2 boots a side: no split is rarer than 2 / C(4, 2) = 1 / 3, so
	 * no change could be found: no detectable change to give */
	assert_float_equal(ab_json_double(ab_json_get(r, "p_min")), 1.0 / 3,
			   1e-12);
	assert_null(ab_json_get(r, "detectable_pp"));
	json_object_put(cmps);
	free_boots(b, 4);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_success_ab),
		cmocka_unit_test(test_success_separated),
	};

	return cmocka_run_group_tests_name("vmab_success", tests, NULL, NULL);
}
