// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_runnames.c - the enumerated options of `allocbench run`
 * (lib/runnames.c): each spelling, the option's word or the kernel's, to
 * its value in the request, and an unknown one named with what is
 * allowed.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "ab_run.h"
#include "runlimits.h"
#include "runopts.h"
#include "runopts_fixture.h"

static void test_gfp_names(void **state)
{
	struct ab_run_opts o;

	ab_run_opts_init(&o);
	assert_int_equal(ab_opt_gfp("atomic", &o, err, sizeof(err)), 0);
	assert_int_equal(o.gfp, AB_GFP_ATOMIC);
	assert_int_equal(ab_opt_gfp("GFP_NOWAIT", &o, err, sizeof(err)), 0);
	assert_int_equal(o.gfp, AB_GFP_NOWAIT);
	assert_int_equal(ab_opt_gfp("kernel_zero", &o, err, sizeof(err)), 0);
	assert_int_equal(o.gfp, AB_GFP_KERNEL_ZERO);
	assert_string_equal(ab_gfp_name(AB_GFP_KERNEL), "GFP_KERNEL");
	assert_string_equal(ab_gfp_name(99), "?");
}

static void test_modes_and_patterns(void **state)
{
	struct ab_run_opts o;
	struct ab_run r;

	ab_run_opts_init(&o);
	assert_int_equal(ab_opt_timing("single", &o, err, sizeof(err)), 0);
	assert_int_equal(ab_opt_free("shuffle", &o, err, sizeof(err)), 0);
	assert_int_equal(ab_opt_seed("7", &o, err, sizeof(err)), 0);
	o.write = 1;
	assert_int_equal(
		ab_run_prepare(&o, &info, &kmalloc_si, &r, err, sizeof(err)),
		0);
	assert_int_equal(r.timing, AB_TIMING_SINGLE);
	assert_int_equal(r.free_pattern, AB_FREE_SHUFFLE);
	assert_int_equal(r.seed, 7);
	assert_int_equal(r.flags, AB_RUN_WRITE);

	assert_int_equal(ab_opt_free("lifo", &o, err, sizeof(err)), 0);
	assert_int_equal(
		ab_run_prepare(&o, &info, &kmalloc_si, &r, err, sizeof(err)),
		-EINVAL);
	assert_non_null(strstr(err, "--seed: only --free=shuffle"));

	assert_int_equal(ab_opt_free("random", &o, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(
		err,
		"--free=random: unknown free pattern (allowed: fifo, lifo, shuffle, pair)"));
	assert_int_equal(ab_opt_timing("often", &o, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(
		err,
		"--timing=often: unknown timing mode (allowed: batch, single)"));
	assert_int_equal(ab_opt_context("softirq", &o, err, sizeof(err)),
			 -EINVAL);
	assert_non_null(strstr(
		err,
		"--context=softirq: unknown loop context (allowed: normal, preempt-off, irq-off)"));
	assert_int_equal(ab_opt_seed("-5", &o, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "--seed=-5"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_gfp_names),
		cmocka_unit_test(test_modes_and_patterns),
	};

	return cmocka_run_group_tests_name("runnames", tests, NULL, NULL);
}
