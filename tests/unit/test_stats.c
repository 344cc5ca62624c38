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

static void test_one_to_hundred(void **state)
{
	/*
	 * 1..100: mean = median = 50.5; p90 = rank ceil(90) = 90, p99 = 99;
	 * sample sd = sqrt(n (n + 1) / 12) = sqrt(841.6667) = 29.0114920;
	 * cv = 29.0114920 / 50.5 = 0.5744850; CI ranks floor(50 - 9.8) = 40
	 * and ceil(51 + 9.8) = 61, i.e. the values 40 and 61.
	 */
	double v[100];
	struct ab_stats st;
	int i;

	for (i = 0; i < 100; i++)
		v[i] = 100 - i;
	ab_stats_compute(v, 100, &st);
	assert_float_equal(st.mean, 50.5, 1e-12);
	assert_float_equal(st.median, 50.5, 0);
	assert_float_equal(st.p90, 90, 0);
	assert_float_equal(st.p99, 99, 0);
	assert_float_equal(st.stddev, 29.0114920, 1e-6);
	assert_float_equal(st.cv, 0.5744850, 1e-6);
	assert_float_equal(st.ci_lo, 40, 0);
	assert_float_equal(st.ci_hi, 61, 0);
}

static void test_textbook_spread(void **state)
{
	/*
	 * 2 4 4 4 5 5 7 9: mean 40/8 = 5; squared deviations sum to 32, so the
	 * sample sd is sqrt(32 / 7) = 2.1380899; median (4 + 5) / 2 = 4.5;
	 * p90 and p99 are rank 8, 9; CI ranks floor(4 - 2.77) = 1 and
	 * ceil(5 + 2.77) = 8: the whole range, 2 and 9.
	 */
	double v[] = { 9, 2, 4, 5, 4, 7, 4, 5 };
	struct ab_stats st;

	ab_stats_compute(v, 8, &st);
	assert_float_equal(st.mean, 5, 0);
	assert_float_equal(st.stddev, 2.1380899, 1e-6);
	assert_float_equal(st.median, 4.5, 0);
	assert_float_equal(st.p90, 9, 0);
	assert_float_equal(st.p99, 9, 0);
	assert_float_equal(st.ci_lo, 2, 0);
	assert_float_equal(st.ci_hi, 9, 0);
}

/*
 * The exact interval of the median, worked by hand: [x(1), x(n)] covers the
 * median unless all n samples fall on one side, 1 - 2 / 2^n: n = 5 93.75%
 * (below 95%: no interval), n = 6 1 - 2/64 = 96.875%, n = 7 1 - 2/128 =
 * 98.4375%; n = 8 still [x(1), x(8)] (j = 2 would cover 1 - 2 * 9/256 =
 * 92.97%); n = 100 [x(40), x(61)] at 1 - 2 P(B <= 39) = 96.48% (Le Boudec's
 * Table A.1 gives the same ranks).
 */
static void test_median_ci_exact(void **state)
{
	static const struct {
		size_t n, lo, hi;
		double cov;
	} cases[] = {
		{ 6, 1, 6, 0.96875 },	  { 7, 1, 7, 0.984375 },
		{ 8, 1, 8, 0.9921875 },	  { 9, 2, 8, 0.9609375 },
		{ 100, 40, 61, 0.96480 },
	};
	double v[] = { 1, 2, 3, 4, 5, 6, 7 }, cov;
	struct ab_stats st;
	size_t i, lo, hi;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		ab_median_ci_ranks(cases[i].n, &lo, &hi, &cov);
		assert_int_equal(lo, cases[i].lo);
		assert_int_equal(hi, cases[i].hi);
		assert_float_equal(cov, cases[i].cov, 1e-5);
	}
	ab_stats_compute(v, 6, &st);
	assert_float_equal(st.ci_lo, 1, 0);
	assert_float_equal(st.ci_hi, 6, 0);
	assert_float_equal(st.ci_level, 0.96875, 1e-12);
	ab_median_ci_ranks(5, &lo, &hi, &cov);
	assert_int_equal(lo, 0);
	assert_true(isnan(cov));
	/* large n, up to the module's most trials: the level holds */
	for (i = 1000; i <= 16777216; i *= 8) {
		ab_median_ci_ranks(i, &lo, &hi, &cov);
		assert_true(cov >= 0.95 && lo < hi && lo + hi == i + 1);
	}
}

static void test_undefined_is_nan(void **state)
{
	/* n = 5: even [min, max] covers the median with 93.75% only */
	double v[] = { 1, 2, 3, 4, 5 }, one[] = { 3 }, zero[] = { 0, 0 };
	struct ab_stats st;

	ab_stats_compute(v, 5, &st);
	assert_true(isnan(st.ci_lo) && isnan(st.ci_hi) && isnan(st.ci_level));
	assert_false(isnan(st.stddev));
	ab_stats_compute(one, 1, &st);
	assert_true(isnan(st.stddev) && isnan(st.cv));
	ab_stats_compute(zero, 2, &st);
	assert_float_equal(st.stddev, 0, 0);
	assert_true(isnan(st.cv));
}

static void test_histogram_buckets(void **state)
{
	/*
	 * bucket 0: < 1; b: [2^(b-1), 2^b); 1000 is in [512, 1024) = bucket
	 * 10; 1e12 is past bucket 11 and lands in the overflow bucket.
	 */
	double v[] = { 0.5, 1, 1.5, 2, 3.9, 4, 1000, 1e12, -3 };
	uint64_t c[12], sum = 0;
	size_t i;

	ab_histogram_log2(v, 9, c, 12);
	assert_int_equal(c[0], 2);
	assert_int_equal(c[1], 2);
	assert_int_equal(c[2], 2);
	assert_int_equal(c[3], 1);
	assert_int_equal(c[10], 1);
	assert_int_equal(c[11], 1);
	for (i = 0; i < 12; i++)
		sum += c[i];
	assert_int_equal(sum, 9);
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
	assert_true(st.ci_lo <= st.median && st.median <= st.ci_hi);
	assert_true(st.median <= st.p90 && st.p90 <= st.p99 &&
		    st.p99 <= st.max);
}

/*
 * Holm by hand: 0.01, 0.04, 0.03 sorted are 0.01, 0.03, 0.04; times 3, 2,
 * 1: 0.03, 0.06, 0.04; the running maximum makes the last 0.06. Back in
 * input order: 0.03, 0.06, 0.06.
 */
static void test_holm_by_hand(void **state)
{
	const double p[] = { 0.01, 0.04, 0.03 };
	double adj[3];

	(void)state;
	assert_int_equal(ab_holm(p, 3, adj), 3);
	assert_float_equal(adj[0], 0.03, 1e-12);
	assert_float_equal(adj[1], 0.06, 1e-12);
	assert_float_equal(adj[2], 0.06, 1e-12);
}

/*
 * Capped at 1: 0.2, 0.6, 0.5, 0.9 sorted 0.2, 0.5, 0.6, 0.9, times 4, 3,
 * 2, 1: 0.8, 1.5 -> 1, 1.2 -> 1, 0.9 -> max 1. A NAN is no test: m is 2
 * for 0.02, NAN, 0.04 (0.04, 0.04), and one test is its own p.
 */
static void test_holm_cap_and_nan(void **state)
{
	const double p[] = { 0.2, 0.6, 0.5, 0.9 };
	const double q[] = { 0.02, NAN, 0.04 };
	const double one = 0.037;
	double adj[4];

	(void)state;
	assert_int_equal(ab_holm(p, 4, adj), 4);
	assert_float_equal(adj[0], 0.8, 1e-12);
	assert_float_equal(adj[1], 1, 0);
	assert_float_equal(adj[2], 1, 0);
	assert_float_equal(adj[3], 1, 0);
	assert_int_equal(ab_holm(q, 3, adj), 2);
	assert_float_equal(adj[0], 0.04, 1e-12);
	assert_true(isnan(adj[1]));
	assert_float_equal(adj[2], 0.04, 1e-12);
	assert_int_equal(ab_holm(&one, 1, adj), 1);
	assert_float_equal(adj[0], 0.037, 0);
	assert_int_equal(ab_holm(NULL, 0, adj), 0);
}

/*
 * Invariants on pseudo-random p: each adjusted value is at least its p,
 * at most 1, and the adjusted values are in the order of the p-values
 * (monotone); the smallest is m p(1) (Bonferroni's), the largest p(m) at
 * least.
 */
static void test_holm_monotone(void **state)
{
	double p[50], adj[50], min = 1, amin = 2, max = 0;
	uint64_t x = 12345;
	size_t i, j;

	(void)state;
	for (i = 0; i < 50; i++) {
		x = x * 6364136223846793005ULL + 1442695040888963407ULL;
		p[i] = (double)(x >> 11) / 9007199254740992.0 / 10;
		min = fmin(min, p[i]);
		max = fmax(max, p[i]);
	}
	assert_int_equal(ab_holm(p, 50, adj), 50);
	for (i = 0; i < 50; i++) {
		assert_true(adj[i] >= p[i] && adj[i] <= 1);
		amin = fmin(amin, adj[i]);
		for (j = 0; j < 50; j++)
			if (p[i] < p[j])
				assert_true(adj[i] <= adj[j]);
	}
	assert_float_equal(amin, fmin(1, 50 * min), 1e-12);
	for (i = 0; i < 50; i++)
		if (p[i] == max)
			assert_true(adj[i] >= max);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_odd_count),
		cmocka_unit_test(test_even_count),
		cmocka_unit_test(test_outlier_moves_mean_not_median),
		cmocka_unit_test(test_single_and_empty),
		cmocka_unit_test(test_one_to_hundred),
		cmocka_unit_test(test_textbook_spread),
		cmocka_unit_test(test_median_ci_exact),
		cmocka_unit_test(test_undefined_is_nan),
		cmocka_unit_test(test_histogram_buckets),
		cmocka_unit_test(test_invariants),
		cmocka_unit_test(test_holm_by_hand),
		cmocka_unit_test(test_holm_cap_and_nan),
		cmocka_unit_test(test_holm_monotone),
	};

	return cmocka_run_group_tests_name("stats", tests, NULL, NULL);
}
