// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_vpmu.c - lib/vpmu.c on a counts file written here as the plugin
 * (vpmu/abvpmu.c) writes it ($AB_VPMU_FILE): the line reader, the events
 * it maps, and virtual events through the counters (lib/counters.c) as a
 * run uses them: only regions closed after the reset count, a region that
 * holds a handler the plugin could not take out (irets > 0) is left out
 * and the count scaled from the others, an interval of such regions only
 * is not counted, only the
 * pinned CPU's regions count, the model's events need model=on. Skipped
 * where a hardware PMU opens (the kernel's events are taken first there).
 * And --paths' lengths: each region of one op a length, counted.
 */
#define _GNU_SOURCE
#include <math.h>
#include <sched.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <cmocka.h>

#include "counters.h"
#include "hwpmu.h"
#include "vpmu.h"

static char path[64];

static void append(const char *text)
{
	FILE *f = fopen(path, "a");

	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

static int setup(void **state)
{
	int fd;

	snprintf(path, sizeof(path), "/tmp/test_vpmu.XXXXXX");
	fd = mkstemp(path);
	assert_true(fd >= 0);
	close(fd);
	setenv("AB_VPMU_FILE", path, 1);
	return 0;
}

static int teardown(void **state)
{
	unlink(path);
	return 0;
}

static void test_parse(void **state)
{
	struct ab_vpmu_region r;

	assert_int_equal(ab_vpmu_parse("R 1 2 10 3 4 5 0 6 7 8 9 3\n", &r), 0);
	assert_int_equal(r.vcpu, 1);
	assert_int_equal(r.phase, 2);
	assert_int_equal(r.count[AB_VPMU_INSTRUCTIONS], 10);
	assert_int_equal(r.count[AB_VPMU_STORES], 5);
	assert_int_equal(r.count[AB_VPMU_LLC_LOAD_MISSES], 9);
	assert_int_equal(r.count[AB_VPMU_INTERRUPTS], 3);
	assert_int_equal(ab_vpmu_parse("R 1 2 10 3 4 5 0 6 7 8 9", &r), -1);
	assert_int_equal(ab_vpmu_parse("R 1 2 10 3 4 5 0 6 7 8 9 0 x", &r), -1);
	/* the format before the interrupts field (# abvpmu 1) */
	assert_int_equal(ab_vpmu_parse("R 1 2 10 3 4 5 0 6 7 8 9\n", &r), -1);
	assert_int_equal(ab_vpmu_parse("# abvpmu 2 vcpus=2 model=off", &r), -1);
	assert_int_equal(ab_vpmu_parse("", &r), -1);
}

static void test_present(void **state)
{
	FILE *f = fopen(path, "w");

	fclose(f);
	assert_int_equal(ab_vpmu_present(), 0);
	append("# abvpmu 2 vcpus=2 model=off\n");
	assert_int_equal(ab_vpmu_present(), 1);
	f = fopen(path, "w");
	fputs("# abvpmu 2 vcpus=2 model=on\n", f);
	fclose(f);
	assert_int_equal(ab_vpmu_present(), 2);
}

static void pin(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	sched_setaffinity(0, sizeof(set), &set);
}

static void test_events(void **state)
{
	struct ab_counters c;
	FILE *f = fopen(path, "w");
	FILE *quiet = fopen("/dev/null", "w");
	int n;

	if (hardware_pmu())
		skip();
	pin(0);
	fputs("# abvpmu 2 vcpus=2 model=off\nR 0 1 999 9 9 9 0 0 0 0 0 0\n", f);
	fclose(f);
	n = ab_counters_open(&c, "instructions,loads,stores,branch-misses",
			     quiet);
	/* branch-misses is the model's: not with model=off */
	assert_int_equal(n, 3);
	assert_int_equal(ab_counters_virtual(&c), 3);
	assert_string_equal(ab_counter_source(&c.ev[0]), "virtual-exact");
	assert_non_null(strstr(c.ev[0].fstr, "virtual PMU"));

	/* what was there before the start does not count */
	ab_counters_start(&c);
	append("R 0 1 100 10 20 30 0 0 0 0 0 0\n"
	       "R 0 2 50 5 10 15 0 0 0 0 0 0\n"
	       "R 1 1 7777 1 1 1 0 0 0 0 0 0\n"	   /* another vCPU */
	       "R 0 1 5000 10 10 10 2 0 0 0 0 0\n" /* interrupted */
	       "garbage\n");
	ab_counters_stop(&c);
	/*
	 * phase by phase: phase 1 kept 100 of 2 regions (200), phase 2 50 of
	 * 1 (50); scaling both together by 3/2 read 225, the short phase 2
	 * standing for phase 1's left-out region
	 */
	assert_true(fabs(c.ev[0].value - 250.0) < 1e-9);
	assert_int_equal(c.ev[0].enabled, 3);
	assert_int_equal(c.ev[0].running, 2);
	assert_true(fabs(c.ev[1].value - 50.0) < 1e-9);
	assert_true(fabs(c.ev[2].value - 75.0) < 1e-9);

	/* a phase none of whose regions was kept: not counted */
	ab_counters_start(&c);
	append("R 0 1 100 10 20 30 0 0 0 0 0 0\n"
	       "R 0 2 5000 10 10 10 1 0 0 0 0 0\n");
	ab_counters_stop(&c);
	assert_true(isnan(c.ev[0].value));
	assert_int_equal(c.ev[0].running, 0);

	/* an interval whose regions were all interrupted: not counted */
	ab_counters_start(&c);
	append("R 0 1 5000 10 10 10 1 0 0 0 0 0\n");
	ab_counters_stop(&c);
	assert_true(isnan(c.ev[0].value));

	/* an unfinished line waits for its end */
	ab_counters_start(&c);
	append("R 0 1 40 1 1 1 0 0 0 0 0");
	ab_counters_stop(&c);
	assert_true(isnan(c.ev[0].value));
	ab_counters_start(&c);
	ab_counters_close(&c);
	fclose(quiet);
}

static void test_model(void **state)
{
	struct ab_counters c;
	FILE *f = fopen(path, "w");
	FILE *quiet = fopen("/dev/null", "w");

	if (hardware_pmu())
		skip();
	pin(0);
	fputs("# abvpmu 2 vcpus=2 model=on\n", f);
	fclose(f);
	assert_int_equal(
		ab_counters_open(
			&c,
			"branch-misses,L1-dcache-load-misses,L1-icache-load-misses,LLC-load-misses",
			quiet),
		4);
	assert_string_equal(ab_counter_source(&c.ev[0]), "virtual-model");
	ab_counters_start(&c);
	append("R 0 1 100 10 20 30 0 6 7 8 9 0\n");
	ab_counters_stop(&c);
	assert_true(c.ev[0].value == 6 && c.ev[1].value == 7 &&
		    c.ev[2].value == 8 && c.ev[3].value == 9);
	ab_counters_close(&c);
	fclose(quiet);
}

/* the lengths: the most ops first, of equal ops the shorter; the rest summed */
static void test_path_lengths(void **state)
{
	uint64_t v[] = { 30, 29, 30, 30, 1004, 29, 7, 30 };
	uint64_t many[AB_VPMU_PATHS + 3];
	struct ab_vpmu_path_phase ph;
	unsigned int i;

	assert_int_equal(ab_vpmu_path_lengths(v, 0, &ph), -1);
	assert_int_equal(ab_vpmu_path_lengths(v, 8, &ph), 0);
	assert_int_equal(ph.ops, 8);
	assert_int_equal(ph.distinct, 4);
	assert_int_equal(ph.n, 4);
	assert_int_equal(ph.len[0].insns, 30);
	assert_int_equal(ph.len[0].ops, 4);
	assert_int_equal(ph.len[1].insns, 29);
	assert_int_equal(ph.len[1].ops, 2);
	/* one op each: the shorter first */
	assert_int_equal(ph.len[2].insns, 7);
	assert_int_equal(ph.len[3].insns, 1004);
	assert_int_equal(ph.other_ops, 0);
	/* past AB_VPMU_PATHS lengths: ops and instructions summed */
	for (i = 0; i < AB_VPMU_PATHS + 3; i++)
		many[i] = 100 + i;
	assert_int_equal(ab_vpmu_path_lengths(many, AB_VPMU_PATHS + 3, &ph), 0);
	assert_int_equal(ph.n, AB_VPMU_PATHS);
	assert_int_equal(ph.distinct, AB_VPMU_PATHS + 3);
	assert_int_equal(ph.other_ops, 3);
	assert_int_equal(ph.other_insns,
			 3 * 100 + 3 * AB_VPMU_PATHS + 0 + 1 + 2);
}

/*
 * --paths' pass: only regions after the begin, of the pinned vCPU, one
 * length each per phase; a region holding a handler left out, counted
 */
static void test_paths(void **state)
{
	struct ab_vpmu_paths p;
	FILE *f = fopen(path, "w");

	pin(0);
	fputs("# abvpmu 2 vcpus=2 model=off\nR 0 1 999 9 9 9 0 0 0 0 0 0\n", f);
	fclose(f);
	assert_int_equal(ab_vpmu_paths_begin(&p), 0);
	append("R 0 1 100 10 20 30 0 0 0 0 0 0\n"
	       "R 0 2 50 5 10 15 0 0 0 0 0 0\n"
	       "R 0 1 100 10 20 30 0 0 0 0 0 1\n"  /* an interrupt out */
	       "R 1 1 7777 1 1 1 0 0 0 0 0 0\n"	   /* another vCPU */
	       "R 0 1 5000 10 10 10 2 0 0 0 0 0\n" /* a handler inside */
	       "R 0 3 80 1 1 1 0 0 0 0 0 0\n"	   /* a pair phase */
	       "R 0 1 130 10 20 30 0 0 0 0 0 0\n"
	       "garbage\n");
	assert_int_equal(ab_vpmu_paths_end(&p), 0);
	assert_true(p.valid);
	assert_int_equal(p.ph[0].ops, 3);
	assert_int_equal(p.ph[0].left_out, 1);
	assert_int_equal(p.ph[0].len[0].insns, 100);
	assert_int_equal(p.ph[0].len[0].ops, 2);
	assert_int_equal(p.ph[0].len[1].insns, 130);
	assert_int_equal(p.ph[1].ops, 1);
	assert_int_equal(p.ph[1].len[0].insns, 50);
	/* the warm-up's regions, the first of each phase: not counted */
	assert_int_equal(ab_vpmu_paths_begin(&p), 0);
	p.skip = 1;
	append("R 0 1 9000 1 1 1 0 0 0 0 0 0\n"
	       "R 0 2 8000 1 1 1 0 0 0 0 0 0\n"
	       "R 0 1 100 1 1 1 0 0 0 0 0 0\n"
	       "R 0 2 50 1 1 1 0 0 0 0 0 0\n");
	assert_int_equal(ab_vpmu_paths_end(&p), 0);
	assert_int_equal(p.ph[0].ops, 1);
	assert_int_equal(p.ph[0].len[0].insns, 100);
	assert_int_equal(p.ph[1].ops, 1);
	assert_int_equal(p.ph[1].len[0].insns, 50);
	/* nothing after the begin: valid, no ops */
	assert_int_equal(ab_vpmu_paths_begin(&p), 0);
	assert_int_equal(ab_vpmu_paths_end(&p), 0);
	assert_int_equal(p.ph[0].ops + p.ph[1].ops, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse),
		cmocka_unit_test(test_present),
		cmocka_unit_test(test_events),
		cmocka_unit_test(test_model),
		cmocka_unit_test(test_path_lengths),
		cmocka_unit_test(test_paths),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
