// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_cpubusy.c - the other CPUs' busy time from two /proc/stat texts:
 * the elapsed time less idle and iowait (and beside it the busy fields
 * the ticks saw: user nice system irq softirq steal, not guest), the
 * run's own CPUs left out, an offline CPU skipped, each CPU within 0-100%,
 * the warning threshold past one tick, and a malformed line refused.
 */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "cpubusy.h"

/* a 6.1 guest's /proc/stat, shortened after its cpu lines */
static const char before[] = "cpu  1000 20 3000 90000 50 10 40 0 0 0\n"
			     "cpu0 900 10 2900 40000 25 5 20 0 0 0\n"
			     "cpu1 100 10 100 50000 25 5 20 0 0 0\n"
			     "intr 123456 44 9 0 0\n"
			     "ctxt 98765\n"
			     "btime 1764600000\n"
			     "processes 321\n"
			     "procs_running 2\n";

/*
 * 2 s later at USER_HZ 100: cpu0 (the timed CPU) ran throughout; cpu1
 * idle 140 and iowait 10 ticks of 200, so busy 50 ticks, of which the
 * ticks saw 20 (user 12, nice 2, system 3, irq 1, softirq 1, steal 1;
 * guest 7 is in user): a vCPU waiting for its turn misses ticks
 */
static const char after[] = "cpu  1300 22 3110 90350 60 13 44 1 7 0\n"
			    "cpu0 1170 10 2900 40000 25 5 20 0 0 0\n"
			    "cpu1 112 12 103 50140 35 6 21 1 7 0\n"
			    "intr 123999 44 9 0 0\n";

static void parse(const char *text, struct ab_cpustat *s, int want)
{
	FILE *f = fmemopen((void *)text, strlen(text), "r");

	assert_non_null(f);
	assert_int_equal(ab_cpustat_parse(f, s), want);
	fclose(f);
}

static void test_parse(void **state)
{
	struct ab_cpustat s;

	parse(before, &s, 2);
	assert_int_equal(s.cpu[0], 0);
	assert_int_equal(s.cpu[1], 1);
	/* 900 + 10 + 2900 + 5 + 20 + 0: idle and iowait left out */
	assert_int_equal(s.busy[0], 3835);
	assert_int_equal(s.busy[1], 235);
	assert_int_equal(s.idle[0], 40025);
	assert_int_equal(s.idle[1], 50025);
}

static void test_other_cpu(void **state)
{
	struct ab_cpustat a, b;
	struct ab_cpubusy c;
	int mine[] = { 0 }, both[] = { 1, 0 };
	char note[512];

	parse(before, &a, 2);
	parse(after, &b, 2);
	ab_cpubusy_between(&a, 1e9, &b, 3e9, 100, mine, 1, &c);
	assert_int_equal(c.known, 1);
	assert_int_equal(c.cpus, 1);
	assert_int_equal(c.busiest_cpu, 1);
	/* 50 ticks of 200 */
	assert_float_equal(c.busy_pct, 25.0, 1e-9);
	assert_float_equal(c.busiest_pct, 25.0, 1e-9);
	assert_float_equal(c.ticked_pct, 10.0, 1e-9);
	assert_float_equal(c.resolution_pct, 0.5, 1e-9);
	assert_true(ab_cpubusy_warns(&c));
	ab_cpubusy_note(&c, note, sizeof(note));
	assert_string_equal(
		note,
		"other CPUs busy 25.0% of the timed pass (cpu1 25.0%; summed over 1 other CPU, in % of one CPU over 2000 ms; one /proc/stat tick is 0.5%)");

	/* timed on both: no other CPU, no warning */
	ab_cpubusy_between(&a, 1e9, &b, 3e9, 100, both, 2, &c);
	assert_int_equal(c.cpus, 0);
	assert_int_equal(c.busiest_cpu, -1);
	assert_false(ab_cpubusy_warns(&c));
	ab_cpubusy_note(&c, note, sizeof(note));
	assert_string_equal(
		note,
		"no CPU but the run's own during the timed pass (2000 ms)");
}

/* A reading of cpu0 to cpu2, with these idle ticks and no busy ones. */
static void idle_text(char *buf, size_t len, unsigned int i0, unsigned int i1,
		      unsigned int i2, struct ab_cpustat *s)
{
	snprintf(buf, len,
		 "cpu  0 0 0 0 0 0 0 0 0 0\n"
		 "cpu0 0 0 0 %u 0 0 0 0 0 0\n"
		 "cpu1 0 0 0 %u 0 0 0 0 0 0\n"
		 "cpu2 0 0 0 %u 0 0 0 0 0 0\n",
		 i0, i1, i2);
	parse(buf, s, 3);
}

/*
 * Several other CPUs summed; the threshold (1%) past one tick per CPU;
 * each CPU's figure within 0-100% whatever the truncated readings say.
 */
static void test_sum_and_threshold(void **state)
{
	struct ab_cpustat a, b;
	struct ab_cpubusy c;
	int mine[] = { 0 };
	char t[256];

	idle_text(t, sizeof(t), 0, 1000, 1000, &a);
	/* over 200 ticks, cpu1 busy 2 and cpu2 busy 1: 1.5% - 2 x 0.5% */
	idle_text(t, sizeof(t), 0, 1198, 1199, &b);
	ab_cpubusy_between(&a, 0, &b, 2e9, 100, mine, 1, &c);
	assert_int_equal(c.cpus, 2);
	assert_int_equal(c.busiest_cpu, 1);
	assert_float_equal(c.busy_pct, 1.5, 1e-9);
	assert_float_equal(c.busiest_pct, 1.0, 1e-9);
	assert_float_equal(c.ticked_pct, 0.0, 1e-9);
	assert_false(ab_cpubusy_warns(&c));
	/* cpu1 busy 4: 2.5% - 1% is above 1% */
	idle_text(t, sizeof(t), 0, 1196, 1199, &b);
	ab_cpubusy_between(&a, 0, &b, 2e9, 100, mine, 1, &c);
	assert_float_equal(c.busy_pct, 2.5, 1e-9);
	assert_true(ab_cpubusy_warns(&c));
	/*
	 * over 3.5 ticks, cpu1's idle grew 4 (truncation) and cpu2's 0: 0%
	 * and 100%
	 */
	idle_text(t, sizeof(t), 0, 1004, 1000, &b);
	ab_cpubusy_between(&a, 0, &b, 35e6, 100, mine, 1, &c);
	assert_float_equal(c.busy_pct, 100.0, 1e-9);
	assert_int_equal(c.busiest_cpu, 2);
	assert_float_equal(c.busiest_pct, 100.0, 1e-9);
	assert_true(ab_cpubusy_warns(&c));
}

/* Passes summed (compare's rounds): weighted by their time. */
static void test_add(void **state)
{
	struct ab_cpubusy sum = { 0 }, p1 = { 0 }, p2 = { 0 }, none = { 0 };
	char note[512];

	p1 = (struct ab_cpubusy){ 1, 1e9, 100, 1, 10.0, 1, 10.0, 4.0, 1.0, 1 };
	p2 =
		(struct ab_cpubusy){ 1, 3e9, 100, 1,	   2.0,
				     1, 2.0, 0.0, 1.0 / 3, 1 };
	ab_cpubusy_add(&sum, &p1);
	ab_cpubusy_add(&sum, &none);
	ab_cpubusy_add(&sum, &p2);
	assert_int_equal(sum.passes, 2);
	assert_float_equal(sum.elapsed_ns, 4e9, 1e-3);
	/* (10 x 1 + 2 x 3) / 4 */
	assert_float_equal(sum.busy_pct, 4.0, 1e-9);
	assert_float_equal(sum.busiest_pct, 4.0, 1e-9);
	assert_float_equal(sum.ticked_pct, 1.0, 1e-9);
	/* two ticks over 4 s */
	assert_float_equal(sum.resolution_pct, 0.5, 1e-9);
	assert_int_equal(sum.busiest_cpu, 1);
	/* another busiest CPU: none named */
	p2.busiest_cpu = 2;
	ab_cpubusy_add(&sum, &p2);
	assert_int_equal(sum.busiest_cpu, -1);
	ab_cpubusy_note(&sum, note, sizeof(note));
	assert_non_null(strstr(
		note,
		"of its 3 timed passes (the busiest CPU not the same in each; summed over 1 other CPU,"));
}

static void test_offline_and_unknown(void **state)
{
	static const char one[] = "cpu  1 0 0 0 0 0 0 0 0 0\n"
				  "cpu0 900 10 2900 40000 25 5 20 0 0 0\n";
	static const char short_line[] = "cpu  1 0 0 0\ncpu0 1 2 3 4\n";
	struct ab_cpustat a, b;
	struct ab_cpubusy c;
	int mine[] = { 0 };
	char note[64];

	/* cpu1 went offline before the second reading: not counted */
	parse(before, &a, 2);
	parse(one, &b, 1);
	ab_cpubusy_between(&a, 0, &b, 1e9, 100, mine, 1, &c);
	assert_int_equal(c.known, 1);
	assert_int_equal(c.cpus, 0);
	/* fewer than 8 fields up to steal */
	parse(short_line, &b, -1);
	ab_cpubusy_between(&a, 0, &b, 1e9, 100, mine, 1, &c);
	assert_int_equal(c.known, 0);
	assert_false(ab_cpubusy_warns(&c));
	assert_string_equal(ab_cpubusy_note(&c, note, sizeof(note)), "");
	/* no time passed */
	ab_cpubusy_between(&a, 1e9, &a, 1e9, 100, mine, 1, &c);
	assert_int_equal(c.known, 0);
}

/*
 * Issue 39.3: a pass shorter than one tick printed "other CPUs busy 100.0%
 * ... over 0 ms; one /proc/stat tick is 14821.2%". At USER_HZ 100 a tick
 * is 10 ms: over 0.0675 ms it is 100 / (0.0000675 x 100) = 14815% of the
 * pass, over 5 ms 200%: no figure (n/a); over 10 ms exactly 100%: one.
 */
static void test_below_resolution(void **state)
{
	struct ab_cpustat a, b;
	struct ab_cpubusy c;
	int mine[] = { 0 };
	char t[256], note[512];

	(void)state;
	idle_text(t, sizeof(t), 0, 1000, 1000, &a);
	/* cpu1's idle did not grow, cpu2's did by one (truncation) */
	idle_text(t, sizeof(t), 0, 1000, 1001, &b);
	ab_cpubusy_between(&a, 0, &b, 67500, 100, mine, 1, &c);
	assert_float_equal(c.resolution_pct, 14814.8, 0.1);
	assert_false(ab_cpubusy_resolved(&c));
	assert_false(ab_cpubusy_warns(&c));
	ab_cpubusy_note(&c, note, sizeof(note));
	assert_non_null(
		strstr(note, "other CPUs busy n/a during the timed pass"));
	assert_non_null(
		strstr(note, "shorter than one /proc/stat tick of 10 ms"));
	/* no percentage printed for it */
	assert_null(strstr(note, "%"));
	ab_cpubusy_between(&a, 0, &b, 5e6, 100, mine, 1, &c);
	assert_false(ab_cpubusy_resolved(&c));
	ab_cpubusy_between(&a, 0, &b, 10e6, 100, mine, 1, &c);
	assert_float_equal(c.resolution_pct, 100, 1e-9);
	assert_true(ab_cpubusy_resolved(&c));
	ab_cpubusy_note(&c, note, sizeof(note));
	assert_non_null(strstr(note, "one /proc/stat tick is 100.0%"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse),
		cmocka_unit_test(test_other_cpu),
		cmocka_unit_test(test_sum_and_threshold),
		cmocka_unit_test(test_add),
		cmocka_unit_test(test_offline_and_unknown),
		cmocka_unit_test(test_below_resolution),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
