// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_compare.c - the Mann-Whitney U test and the Wilcoxon signed-rank
 * test (exact p-values, Hodges-Lehmann estimate, Tukey's interval) on
 * samples with known answers,
 * the explanation text on synthetic counter sets, and the counter helpers
 * (encoding of known event names through libpfm4, multiplex scaling, the
 * sentences for perf_event_open() errors).
 */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "compare.h"
#include "counters.h"

static void test_mwu_separated(void **state)
{
	/*
	 * a = 1..5, b = 6..10: rank sum of a = 15, U = 15 - 5 * 6 / 2 = 0;
	 * mean 12.5, var 5 * 5 / 12 * 11 = 22.9167, sd 4.7871;
	 * z = (0 - 12.5 + 0.5) / 4.7871 = -2.5067; p = erfc(2.5067 /
	 * sqrt 2) = 0.01219.
	 */
	double a[] = { 1, 2, 3, 4, 5 }, b[] = { 6, 7, 8, 9, 10 };
	struct ab_mwu t;

	ab_mann_whitney(a, 5, b, 5, &t);
	assert_float_equal(t.u, 0, 0);
	assert_float_equal(t.z, -2.5067, 1e-4);
	assert_float_equal(t.p, 0.01219, 1e-5);
	ab_mann_whitney(b, 5, a, 5, &t);
	assert_float_equal(t.u, 25, 0);
	assert_float_equal(t.z, 2.5067, 1e-4);
}

static void test_mwu_ties_and_same(void **state)
{
	/*
	 * a = 1 2 2 3, b = 2 3 4 5: ranks 1, (2+3+4)/3 = 3 for the 2s,
	 * (5+6)/2 = 5.5 for the 3s, 7, 8. Rank sum of a = 1 + 3 + 3 + 5.5 =
	 * 12.5, U = 12.5 - 10 = 2.5. Ties: groups of 3 and 2: sum(t^3 - t) =
	 * 24 + 6 = 30; var = 16 / 12 * (9 - 30 / 56) = 11.2857; z = (2.5 - 8
	 * + 0.5) / 3.3594 = -1.4883; p = 0.1367.
	 */
	double a[] = { 1, 2, 2, 3 }, b[] = { 2, 3, 4, 5 };
	double same[] = { 7, 7, 7 };
	struct ab_mwu t;

	ab_mann_whitney(a, 4, b, 4, &t);
	assert_float_equal(t.u, 2.5, 1e-12);
	assert_float_equal(t.z, -1.4883, 1e-4);
	assert_float_equal(t.p, 0.1367, 1e-4);
	/* identical samples: no difference at all */
	ab_mann_whitney(a, 4, a, 4, &t);
	assert_float_equal(t.p, 1, 1e-12);
	/* every value tied: undefined */
	ab_mann_whitney(same, 3, same, 3, &t);
	assert_true(isnan(t.p));
	ab_mann_whitney(a, 0, b, 4, &t);
	assert_true(isnan(t.p));
}

/*
 * The exact rank-sum test (issue 39.2): p counted by hand over the
 * C(na + nb, nb) equally likely splits of the pooled values.
 */
static void test_rank_sum_exact(void **state)
{
	/*
	 * Every boot of A 100%, every boot of B 0% (complete separation, no
	 * spread within a side: Welch's se is 0, its p undefined). 4 and 4:
	 * the 0s share ranks 1..4 (midrank 2.5), W = 4 x 2.5 = 10, and only
	 * the one split that gives B all four 0s is that low: p = 2 / C(8,
	 * 4) = 2 / 70; 5 and 5: 2 / C(10, 5) = 2 / 252; 3 and 3: 2 / 20,
	 * which no 5% test can reach (p_min says so).
	 */
	double hi[] = { 100, 100, 100, 100, 100 }, lo[] = { 0, 0, 0, 0, 0 };
	/*
	 * A = 1 2 4, B = 3 5 6, untied: W = 3 + 5 + 6 = 14; of the 20
	 * 3-subsets of 1..6 only {3, 5, 6} and {4, 5, 6} sum to 14 or more:
	 * p = 2 x 2 / 20 = 0.2; the extremes {1, 2, 3} and {4, 5, 6}: p_min
	 * = 2 / 20
	 */
	double a[] = { 1, 2, 4 }, b[] = { 3, 5, 6 };
	/*
	 * A = 0 50, B = 50 100, tied: midranks 1, 2.5, 2.5, 4; W = 6.5. The
	 * 6 splits give B 3.5 (twice: 1 with either 2.5), 5 (1 + 4, 2.5 +
	 * 2.5) and 6.5 (twice): P(W >= 6.5) = 2 / 6, p = 4 / 6; the extremes
	 * 3.5 and 6.5 are 2 / 6 each: p_min = 4 / 6
	 */
	double ta[] = { 0, 50 }, tb[] = { 50, 100 };
	double same[] = { 7, 7 };
	struct ab_ranksum r;

	(void)state;
	ab_rank_sum_exact(hi, 4, lo, 4, &r);
	assert_float_equal(r.w, 10, 1e-12);
	assert_float_equal(r.p, 2.0 / 70, 1e-12);
	assert_float_equal(r.p_min, 2.0 / 70, 1e-12);
	ab_rank_sum_exact(lo, 4, hi, 4, &r);
	assert_float_equal(r.w, 26, 1e-12);
	assert_float_equal(r.p, 2.0 / 70, 1e-12);
	ab_rank_sum_exact(hi, 5, lo, 5, &r);
	assert_float_equal(r.p, 2.0 / 252, 1e-12);
	ab_rank_sum_exact(hi, 3, lo, 3, &r);
	assert_float_equal(r.p, 0.1, 1e-12);
	assert_float_equal(r.p_min, 0.1, 1e-12);
	ab_rank_sum_exact(a, 3, b, 3, &r);
	assert_float_equal(r.w, 14, 1e-12);
	assert_float_equal(r.p, 0.2, 1e-12);
	assert_float_equal(r.p_min, 0.1, 1e-12);
	ab_rank_sum_exact(ta, 2, tb, 2, &r);
	assert_float_equal(r.w, 6.5, 1e-12);
	assert_float_equal(r.p, 4.0 / 6, 1e-12);
	assert_float_equal(r.p_min, 4.0 / 6, 1e-12);
	/* every value tied: every split alike, no evidence */
	ab_rank_sum_exact(same, 2, same, 2, &r);
	assert_float_equal(r.p, 1, 1e-12);
	/* unequal sides: 1 against 2 separated, 2 / C(3, 1) = 2 / 3 */
	ab_rank_sum_exact(hi, 1, lo, 2, &r);
	assert_float_equal(r.p, 2.0 / 3, 1e-12);
	ab_rank_sum_exact(hi, 0, lo, 2, &r);
	assert_true(isnan(r.p) && isnan(r.p_min));
}

/*
 * The signed-rank test's exact p-values, counted by hand over the 2^n
 * equally likely sign assignments.
 */
static void test_wsr_exact_p(void **state)
{
	/* every one of 6 positive: W+ = 21, only 1 of 64 that high: 2 / 64 */
	double up[] = { 1, 2, 3, 4, 5, 6 };
	/*
	 * rank 2 negative: W+ = 19; W+ >= 19 iff W- <= 2: W- of {}, {1} or
	 * {2}: 3 / 64, p = 6 / 64
	 */
	double one_down[] = { 1, -2, 3, 4, 5, 6 };
	/* a zero is dropped: the six others as above */
	double with_zero[] = { 0, 1, 2, 3, 4, 5, 6 };
	struct ab_wsr t;

	ab_signed_rank(up, 6, &t);
	assert_int_equal(t.used, 6);
	assert_float_equal(t.w_plus, 21, 0);
	assert_float_equal(t.p, 2.0 / 64, 1e-15);
	ab_signed_rank(one_down, 6, &t);
	assert_float_equal(t.w_plus, 19, 0);
	assert_float_equal(t.p, 6.0 / 64, 1e-15);
	ab_signed_rank(with_zero, 7, &t);
	assert_int_equal(t.n, 7);
	assert_int_equal(t.used, 6);
	assert_float_equal(t.p, 2.0 / 64, 1e-15);
	/* the mirror image: the same p */
	for (size_t i = 0; i < 6; i++)
		up[i] = -up[i];
	ab_signed_rank(up, 6, &t);
	assert_float_equal(t.w_plus, 0, 0);
	assert_float_equal(t.p, 2.0 / 64, 1e-15);
}

static void test_wsr_ties(void **state)
{
	/*
	 * |d| = 1, 1, 2, 2: midranks 1.5, 1.5, 3.5, 3.5; positive: 1, 2, 2,
	 * W+ = 1.5 + 3.5 + 3.5 = 8.5 of 10. Over the 16 assignments W+ =
	 * 1.5 a + 3.5 b, C(2, a) C(2, b) ways: W+ >= 8.5 for (a, b) = (1, 2),
	 * 2 ways, and (2, 2), 1 way: 3 / 16; p = 6 / 16.
	 */
	double d[] = { 1, -1, 2, 2 };
	double same[] = { 0, 0, 0 };
	struct ab_wsr t;

	ab_signed_rank(d, 4, &t);
	assert_float_equal(t.w_plus, 8.5, 0);
	assert_float_equal(t.p, 6.0 / 16, 1e-15);
	/* no nonzero difference: nothing to test */
	ab_signed_rank(same, 3, &t);
	assert_int_equal(t.used, 0);
	assert_true(isnan(t.p));
	ab_signed_rank(d, 0, &t);
	assert_true(isnan(t.p) && isnan(t.estimate));
}

static void test_wsr_estimate_interval(void **state)
{
	/* Walsh averages of 1, 2, 3: 1, 1.5, 2, 2, 2.5, 3: median 2 */
	double three[] = { 3, 1, 2 };
	/*
	 * 1..6: 21 Walsh averages, symmetric about 3.5; k = 1 (coverage 1 -
	 * 2 / 64 = 0.969; k = 2 would give 1 - 4 / 64 = 0.9375): [1, 6]
	 */
	double six[] = { 6, 5, 4, 3, 2, 1 };
	/*
	 * n = 10: P(W+ <= 8) = 25 / 1024 (the subsets of 1..10 summing to
	 * at most 8), P(W+ <= 9) = 33 / 1024: k = 9, coverage 1 - 50 / 1024
	 */
	double ten[10];
	struct ab_wsr t;
	size_t i;

	ab_signed_rank(three, 3, &t);
	assert_float_equal(t.estimate, 2, 0);
	assert_true(isnan(t.ci_lo) && isnan(t.ci_hi) && isnan(t.ci_level));
	ab_signed_rank(six, 6, &t);
	assert_float_equal(t.estimate, 3.5, 0);
	assert_float_equal(t.ci_lo, 1, 0);
	assert_float_equal(t.ci_hi, 6, 0);
	assert_float_equal(t.ci_level, 62.0 / 64, 1e-15);
	assert_float_equal(ab_signed_rank_cdf(10, 8), 25.0 / 1024, 1e-15);
	assert_float_equal(ab_signed_rank_cdf(10, 9), 33.0 / 1024, 1e-15);
	assert_float_equal(ab_signed_rank_cdf(10, 55), 1, 1e-15);
	assert_float_equal(ab_signed_rank_cdf(10, -1), 0, 0);
	for (i = 0; i < 10; i++)
		ten[i] = (double)(i % 2 ? i + 1 : -(double)i - 1) / 7;
	ab_signed_rank(ten, 10, &t);
	assert_float_equal(t.ci_level, 1 - 50.0 / 1024, 1e-15);
	/* the interval is that of the sorted Walsh averages 9 and 55 - 8 */
	assert_true(t.ci_lo <= t.estimate && t.estimate <= t.ci_hi);
	assert_true(t.p >= 0 && t.p <= 1);
	/* untied, no zero: 0 is inside the interval exactly when p > 50 / 1024
	 */
	assert_true((t.ci_lo <= 0 && 0 <= t.ci_hi) == (t.p > 50.0 / 1024));
}

static struct ab_explain_in nothing(void)
{
	struct ab_explain_in in;
	int i;

	for (i = 0; i < 2; i++)
		in.cycles[i] = in.instructions[i] = in.branch_misses[i] =
			in.cache_misses[i] = in.dtlb_misses[i] =
				in.tsc_cycles[i] = NAN;
	in.amd = 0;
	return in;
}

/* The PMU's cycles beside the TSC's, when both are known. */
/*
 * The pooled log spread the detectable change takes (lib/compare.c): with
 * equal sizes the root of the mean variance; undefined below two each
 */
static void test_welch_pooled_sd(void **state)
{
	const double a[] = { 100, 110, 121 }, b[] = { 200, 180, 220, 210 };
	struct ab_welch w;
	double want;

	ab_welch(a, 3, b, 3, &w);
	want = sqrt((w.sd_a * w.sd_a + w.sd_b * w.sd_b) / 2);
	assert_true(fabs(ab_welch_pooled_sd(&w) - want) < 1e-15);
	ab_welch(a, 3, b, 4, &w);
	want = sqrt((2 * w.sd_a * w.sd_a + 3 * w.sd_b * w.sd_b) / 5);
	assert_true(fabs(ab_welch_pooled_sd(&w) - want) < 1e-15);
	assert_true(ab_vm_detectable(ab_welch_pooled_sd(&w), 3, 4,
				     AB_VM_ALPHA) > 0);
	ab_welch(a, 1, b, 4, &w);
	assert_true(isnan(ab_welch_pooled_sd(&w)));
}

static void test_explain_tsc_beside(void **state)
{
	struct ab_explain_in in = nothing();
	char buf[512];

	in.cycles[0] = 1000;
	in.cycles[1] = 1310;
	in.tsc_cycles[0] = 800;
	in.tsc_cycles[1] = 1050;
	assert_int_equal(ab_explain(&in, buf, sizeof(buf)), 1);
	assert_string_equal(
		buf,
		"1000 -> 1310 cycles/op counted by the PMU, beside 800 -> 1050 TSC cycles/op timed\n");
}

static void test_explain_longer_path(void **state)
{
	struct ab_explain_in in = nothing();
	char buf[512];

	/* 1000 -> 1310 instructions at IPC 1.0 -> 1.0: a longer path */
	in.cycles[0] = 1000;
	in.cycles[1] = 1310;
	in.instructions[0] = 1000;
	in.instructions[1] = 1310;
	assert_int_equal(ab_explain(&in, buf, sizeof(buf)), 1);
	assert_string_equal(
		buf,
		"+310 instructions/op, IPC unchanged (1.00 -> 1.00): a longer path\n");
}

static void test_explain_stalls_and_misses(void **state)
{
	struct ab_explain_in in = nothing();
	char buf[512];

	/* same work, IPC 2.0 -> 1.0, and 3 more cache misses per op */
	in.cycles[0] = 500;
	in.cycles[1] = 1000;
	in.instructions[0] = 1000;
	in.instructions[1] = 1010;
	in.cache_misses[0] = 0.5;
	in.cache_misses[1] = 3.5;
	in.branch_misses[0] = 1;
	in.branch_misses[1] = 1.05; /* below 0.1: not worth a line */
	assert_int_equal(ab_explain(&in, buf, sizeof(buf)), 2);
	assert_non_null(strstr(
		buf,
		"about the same instructions/op (+10) but IPC 2.00 -> 1.01: more stalls, not more work\n"));
	assert_non_null(strstr(
		buf,
		"+3.00 cache-misses/op (0.50 -> 3.50): last-level misses, trips to memory\n"));
	assert_null(strstr(buf, "branch"));
	/* on AMD Zen the generic cache-misses event counts L2 misses */
	in.amd = 1;
	assert_int_equal(ab_explain(&in, buf, sizeof(buf)), 2);
	assert_non_null(strstr(
		buf,
		"+3.00 cache-misses/op (0.50 -> 3.50): L2 misses (AMD Zen's cache-misses)"));
	in.amd = 0;
	/* nothing counted: nothing to say */
	in = nothing();
	assert_int_equal(ab_explain(&in, buf, sizeof(buf)), 0);
}

static void test_encoding(void **state)
{
	struct ab_event e;

	assert_int_equal(ab_counter_encode(&e, "cycles", stderr), 0);
	assert_int_equal(e.attr.type, PERF_TYPE_HARDWARE);
	assert_int_equal(e.attr.config, PERF_COUNT_HW_CPU_CYCLES);
	assert_int_equal(e.attr.exclude_kernel, 0);
	assert_int_equal(ab_counter_encode(&e, "cycles:u", stderr), 0);
	assert_int_equal(e.attr.exclude_kernel, 1);
	assert_int_equal(ab_counter_encode(&e, "task-clock", stderr), 0);
	assert_int_equal(e.attr.type, PERF_TYPE_SOFTWARE);
	assert_int_equal(e.attr.config, PERF_COUNT_SW_TASK_CLOCK);
	assert_int_equal(ab_counter_encode(&e, "perf::INSTRUCTIONS", stderr),
			 0);
	assert_int_equal(e.attr.config, PERF_COUNT_HW_INSTRUCTIONS);
	assert_int_equal(ab_counter_encode(&e, "dTLB-load-misses", stderr), 0);
	assert_int_equal(e.attr.type, PERF_TYPE_HW_CACHE);
	assert_int_equal(ab_counter_encode(&e, "no-such-event", stderr), -1);
}

static void test_scaling(void **state)
{
	/* ran 1/4 of the time: the estimate is 4x the raw count */
	assert_float_equal(ab_counter_scale(1000, 400, 100), 4000, 0);
	assert_float_equal(ab_counter_scale(1000, 400, 400), 1000, 0);
	assert_true(isnan(ab_counter_scale(0, 400, 0)));
}

static void test_error_sentences(void **state)
{
	char buf[320];

	ab_counters_explain_open_error("cycles", ENOENT, 2, buf, sizeof(buf));
	assert_non_null(strstr(buf, "hardware counters are unavailable here"));
	ab_counters_explain_open_error("cycles", EACCES, 3, buf, sizeof(buf));
	assert_non_null(strstr(buf, "kernel.perf_event_paranoid is 3"));
	assert_non_null(strstr(buf, "perf_event_paranoid <= 1"));
	assert_non_null(strstr(buf, "CAP_PERFMON"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_mwu_separated),
		cmocka_unit_test(test_mwu_ties_and_same),
		cmocka_unit_test(test_rank_sum_exact),
		cmocka_unit_test(test_wsr_exact_p),
		cmocka_unit_test(test_wsr_ties),
		cmocka_unit_test(test_wsr_estimate_interval),
		cmocka_unit_test(test_welch_pooled_sd),
		cmocka_unit_test(test_explain_longer_path),
		cmocka_unit_test(test_explain_tsc_beside),
		cmocka_unit_test(test_explain_stalls_and_misses),
		cmocka_unit_test(test_encoding),
		cmocka_unit_test(test_scaling),
		cmocka_unit_test(test_error_sentences),
	};

	return cmocka_run_group_tests_name("compare", tests, NULL, NULL);
}
