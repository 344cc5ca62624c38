// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_compare.c - the Mann-Whitney U test on samples with known answers,
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

static struct ab_explain_in nothing(void)
{
	struct ab_explain_in in;
	int i;

	for (i = 0; i < 2; i++)
		in.cycles[i] = in.instructions[i] = in.branch_misses[i] =
			in.cache_misses[i] = in.dtlb_misses[i] = NAN;
	return in;
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
		"+3.00 cache-misses/op (0.50 -> 3.50): trips to memory\n"));
	assert_null(strstr(buf, "branch"));
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
		cmocka_unit_test(test_explain_longer_path),
		cmocka_unit_test(test_explain_stalls_and_misses),
		cmocka_unit_test(test_encoding),
		cmocka_unit_test(test_scaling),
		cmocka_unit_test(test_error_sentences),
	};

	return cmocka_run_group_tests_name("compare", tests, NULL, NULL);
}
