// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_stats.c - summary statistics on datasets whose answers were worked
 * out by hand (derivations beside each case).
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "stats.h"

static void test_odd_count(void **state)
{
	/* sorted 1 2 3: median the middle one, 2; mean 6/3 = 2 */
	double v[] = { 3, 1, 2 };
	struct ab_stats st;

	ab_stats_compute(v, 3, &st);
	assert_int_equal(st.n, 3);
	assert_float_equal(st.min, 1, 0);
	assert_float_equal(st.median, 2, 0);
	assert_float_equal(st.mean, 2, 0);
	assert_float_equal(st.max, 3, 0);
}

static void test_even_count(void **state)
{
	/* sorted 1 2 4 9: median (2 + 4) / 2 = 3; mean 16/4 = 4 */
	double v[] = { 9, 2, 4, 1 };
	struct ab_stats st;

	ab_stats_compute(v, 4, &st);
	assert_float_equal(st.median, 3, 0);
	assert_float_equal(st.mean, 4, 0);
	assert_float_equal(st.min, 1, 0);
	assert_float_equal(st.max, 9, 0);
}

static void test_outlier_moves_mean_not_median(void **state)
{
	/* 1 1 1 1e9: median (1 + 1) / 2 = 1; mean (3 + 1e9) / 4 = 250000000.75
	 */
	double v[] = { 1, 1e9, 1, 1 };
	struct ab_stats st;

	ab_stats_compute(v, 4, &st);
	assert_float_equal(st.median, 1, 0);
	assert_float_equal(st.mean, 250000000.75, 1e-6);
}

static void test_single_and_empty(void **state)
{
	double v[] = { 5.5 };
	struct ab_stats st;

	ab_stats_compute(v, 1, &st);
	assert_float_equal(st.min, 5.5, 0);
	assert_float_equal(st.median, 5.5, 0);
	assert_float_equal(st.mean, 5.5, 0);
	assert_float_equal(st.max, 5.5, 0);

	ab_stats_compute(v, 0, &st);
	assert_int_equal(st.n, 0);
	assert_true(isnan(st.min) && isnan(st.median) && isnan(st.mean) &&
		    isnan(st.max));
}

static void test_invariants(void **state)
{
	/* a deterministic pseudo-random set: min <= median <= max, min <= mean
	 * <= max */
	double v[101];
	struct ab_stats st;
	uint32_t x = 12345;
	int i;

	for (i = 0; i < 101; i++) {
		x = x * 1103515245u + 12345u;
		v[i] = (double)(x >> 8) / 1000.0;
	}
	ab_stats_compute(v, 101, &st);
	assert_true(st.min <= st.median && st.median <= st.max);
	assert_true(st.min <= st.mean && st.mean <= st.max);
	for (i = 1; i < 101; i++)
		assert_true(v[i - 1] <= v[i]);
	assert_float_equal(st.median, v[50], 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_odd_count),
		cmocka_unit_test(test_even_count),
		cmocka_unit_test(test_outlier_moves_mean_not_median),
		cmocka_unit_test(test_single_and_empty),
		cmocka_unit_test(test_invariants),
	};

	return cmocka_run_group_tests_name("stats", tests, NULL, NULL);
}
