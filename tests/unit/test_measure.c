// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_measure.c - per-op figures from samples: division by the objects of
 * each trial, trials without objects skipped, subtraction, the ns
 * conversion, and net <= raw; the net-value rule (what is subtracted in
 * each timing mode, when the baseline applies) and which samples hold a
 * phase.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "measure.h"

static const struct ab_sample smp[] = {
	/* 1000 cycles for 10 objects: 100 per op; free 50 per op */
	{ .alloc_cycles = 1000, .free_cycles = 500, .nr_objs = 10 },
	/* failed at once: no objects, skipped */
	{ .alloc_cycles = 7,
	  .free_cycles = 0,
	  .nr_objs = 0,
	  .flags = AB_SAMPLE_FAILED },
	/*
	 * 3 objects, then a failed call timed with them: the alloc phase is
	 * left out; its free phase (30 per op) counts
	 */
	{ .alloc_cycles = 9000,
	  .free_cycles = 90,
	  .nr_objs = 3,
	  .flags = AB_SAMPLE_FAILED },
	/* 600 for 3: 200 per op; free 30 */
	{ .alloc_cycles = 600, .free_cycles = 90, .nr_objs = 3 },
};

static void test_per_op(void **state)
{
	double v[4];

	assert_int_equal(ab_per_op_cycles(smp, 4, AB_PHASE_ALLOC, 0, v), 2);
	assert_float_equal(v[0], 100, 0);
	assert_float_equal(v[1], 200, 0);
	assert_int_equal(ab_per_op_cycles(smp, 4, AB_PHASE_FREE, 5, v), 3);
	assert_float_equal(v[0], 45, 0);
	assert_float_equal(v[1], 25, 0);
	assert_float_equal(v[2], 25, 0);
}

/*
 * Issue 13, item 8: one trial of 3 allocations, 2 succeeding (100 and 120
 * cycles) and the third failing after 5000 cycles, timed both ways. Single
 * timing dropped the failed call; batch timing divided all 5220 cycles by
 * the 2 objects (2610 per op). The rule for both: an alloc sample holding
 * a failed call is left out, so no figure includes the failed call.
 */
static void test_failed_call_same_rule_both_timings(void **state)
{
	const struct ab_sample single[] = {
		{ .alloc_cycles = 100, .free_cycles = 40, .nr_objs = 1 },
		{ .alloc_cycles = 120, .free_cycles = 40, .nr_objs = 1 },
		{ .alloc_cycles = 5000,
		  .nr_objs = 0,
		  .flags = AB_SAMPLE_FAILED },
	};
	const struct ab_sample batch[] = {
		{ .alloc_cycles = 5220,
		  .free_cycles = 80,
		  .nr_objs = 2,
		  .flags = AB_SAMPLE_FAILED },
	};
	double v[3];
	size_t k, i;

	k = ab_per_op_cycles(single, 3, AB_PHASE_ALLOC, 0, v);
	assert_int_equal(k, 2);
	for (i = 0; i < k; i++)
		assert_true(v[i] < 5000);
	assert_int_equal(ab_per_op_cycles(batch, 1, AB_PHASE_ALLOC, 0, v), 0);
	/* the frees of the objects that were allocated count in both */
	assert_int_equal(ab_per_op_cycles(single, 3, AB_PHASE_FREE, 0, v), 2);
	assert_int_equal(ab_per_op_cycles(batch, 1, AB_PHASE_FREE, 0, v), 1);
	assert_float_equal(v[0], 40, 0);
}

/*
 * --drop-disturbed: a sample of a phase that saw a context switch or a
 * CPU change is left out of that phase only, and only when asked.
 */
static void test_drop_disturbed(void **state)
{
	const struct ab_sample s[] = {
		{ .alloc_cycles = 100, .free_cycles = 50, .nr_objs = 1 },
		{ .alloc_cycles = 90000,
		  .free_cycles = 60,
		  .nr_objs = 1,
		  .flags = AB_SAMPLE_ALLOC_DISTURBED },
		{ .alloc_cycles = 120,
		  .free_cycles = 70000,
		  .nr_objs = 1,
		  .flags = AB_SAMPLE_FREE_DISTURBED },
	};
	struct ab_net keep = { 0, 0, 0 }, drop = { 0, 0, 1 };
	struct ab_phase_stats st;
	double buf[3];

	ab_phase_summary_net(s, 3, AB_PHASE_ALLOC, &keep, 0, buf, &st);
	assert_int_equal(st.cycles.n, 3);
	ab_phase_summary_net(s, 3, AB_PHASE_ALLOC, &drop, 0, buf, &st);
	assert_int_equal(st.cycles.n, 2);
	assert_float_equal(st.cycles.max, 120, 0);
	ab_phase_summary_net(s, 3, AB_PHASE_FREE, &drop, 0, buf, &st);
	assert_int_equal(st.cycles.n, 2);
	assert_float_equal(st.cycles.max, 60, 0);
}

static void test_summary_ns_and_net_below_raw(void **state)
{
	struct ab_phase_stats raw, net;
	double buf[4];

	/* 2 GHz = 2000000 kHz: 100 cycles = 50 ns */
	ab_phase_summary(smp, 4, AB_PHASE_ALLOC, 0, 2000000, buf, &raw);
	assert_int_equal(raw.ns.n, 2);
	assert_float_equal(raw.ns.min, 50, 1e-9);
	assert_float_equal(raw.ns.max, 100, 1e-9);
	assert_float_equal(raw.cycles.median, 150, 0);
	ab_phase_summary(smp, 4, AB_PHASE_ALLOC, 20, 2000000, buf, &net);
	assert_true(net.ns.min <= raw.ns.min &&
		    net.ns.median <= raw.ns.median && net.ns.max <= raw.ns.max);
	assert_float_equal(raw.ns.median - net.ns.median, 10, 1e-9);
}

static void test_unknown_rate(void **state)
{
	struct ab_phase_stats st;
	double buf[4];

	ab_phase_summary(smp, 4, AB_PHASE_ALLOC, 0, 0, buf, &st);
	assert_float_equal(st.cycles.median, 150, 0);
	assert_true(isnan(st.ns.median));
}

/*
 * The rule: raw values subtract nothing; batch timing the baseline's
 * median per op, only when one was measured for the row; single timing one
 * clock pair per timed call, whatever the baseline.
 */
static void test_net_rule(void **state)
{
	const double base = 7.5;
	struct ab_net n;

	n = ab_net_rule(1, AB_TIMING_BATCH, 26, &base);
	assert_float_equal(n.per_op + n.per_sample, 0, 0);
	n = ab_net_rule(1, AB_TIMING_SINGLE, 26, NULL);
	assert_float_equal(n.per_op + n.per_sample, 0, 0);
	n = ab_net_rule(0, AB_TIMING_BATCH, 26, &base);
	assert_float_equal(n.per_op, 7.5, 0);
	assert_float_equal(n.per_sample, 0, 0);
	/* no baseline (none measured, or the baseline's own row): raw */
	n = ab_net_rule(0, AB_TIMING_BATCH, 26, NULL);
	assert_float_equal(n.per_op + n.per_sample, 0, 0);
	n = ab_net_rule(0, AB_TIMING_SINGLE, 26, &base);
	assert_float_equal(n.per_op, 0, 0);
	assert_float_equal(n.per_sample, 26, 0);
	assert_true(ab_net_uses_baseline(0, AB_TIMING_BATCH, 1));
	assert_false(ab_net_uses_baseline(0, AB_TIMING_BATCH, 0));
	assert_false(ab_net_uses_baseline(1, AB_TIMING_BATCH, 1));
	assert_false(ab_net_uses_baseline(0, AB_TIMING_SINGLE, 1));
}

/*
 * Single timing subtracts the clock pair once per timed call: a call that
 * allocated 4 objects (a per-trial strategy) shares it among them, a call
 * of one object pays it whole.
 */
static void test_net_per_sample(void **state)
{
	static const struct ab_sample calls[] = {
		{ .alloc_cycles = 420, .free_cycles = 220, .nr_objs = 4 },
		{ .alloc_cycles = 120, .free_cycles = 45, .nr_objs = 1 },
	};
	const struct ab_net n = ab_net_rule(0, AB_TIMING_SINGLE, 20, NULL);
	struct ab_phase_stats st;
	double buf[2];

	ab_phase_summary_net(calls, 2, AB_PHASE_ALLOC, &n, 0, buf, &st);
	assert_float_equal(st.cycles.min, 100, 0);
	assert_float_equal(st.cycles.max, 100, 0);
	ab_phase_summary_net(calls, 2, AB_PHASE_FREE, &n, 0, buf, &st);
	assert_float_equal(st.cycles.min, 25, 0);
	assert_float_equal(st.cycles.max, 50, 0);
}

/* The free phase of batch-timed pairs is timed with the allocation. */
static void test_phase_samples(void **state)
{
	assert_int_equal(ab_phase_samples(AB_TIMING_BATCH, AB_FREE_PAIR,
					  AB_PHASE_FREE, 10),
			 0);
	assert_int_equal(ab_phase_samples(AB_TIMING_BATCH, AB_FREE_PAIR,
					  AB_PHASE_ALLOC, 10),
			 10);
	assert_int_equal(ab_phase_samples(AB_TIMING_SINGLE, AB_FREE_PAIR,
					  AB_PHASE_FREE, 10),
			 10);
	assert_int_equal(ab_phase_samples(AB_TIMING_BATCH, AB_FREE_FIFO,
					  AB_PHASE_FREE, 10),
			 10);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_per_op),
		cmocka_unit_test(test_failed_call_same_rule_both_timings),
		cmocka_unit_test(test_drop_disturbed),
		cmocka_unit_test(test_summary_ns_and_net_below_raw),
		cmocka_unit_test(test_unknown_rate),
		cmocka_unit_test(test_net_rule),
		cmocka_unit_test(test_net_per_sample),
		cmocka_unit_test(test_phase_samples),
	};

	return cmocka_run_group_tests_name("measure", tests, NULL, NULL);
}
