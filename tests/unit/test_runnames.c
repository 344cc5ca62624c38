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
#include "memcg.h"
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

/* --gfp=LIST: a row per choice, the first the request's; bad lists named */
static void test_gfp_list(void **state)
{
	struct ab_run_opts o;

	ab_run_opts_init(&o);
	assert_int_equal(
		ab_opt_gfp("kernel,kernel_account", &o, err, sizeof(err)), 0);
	assert_int_equal(o.ngfps, 2);
	assert_int_equal(o.gfps[0], AB_GFP_KERNEL);
	assert_int_equal(o.gfps[1], AB_GFP_KERNEL_ACCOUNT);
	assert_int_equal(o.gfp, AB_GFP_KERNEL);
	assert_string_equal(ab_gfp_name(AB_GFP_KERNEL_ACCOUNT),
			    "GFP_KERNEL_ACCOUNT");
	assert_int_equal(ab_opt_gfp("GFP_KERNEL_ACCOUNT", &o, err, sizeof(err)),
			 0);
	assert_int_equal(o.ngfps, 1);
	assert_int_equal(o.gfp, AB_GFP_KERNEL_ACCOUNT);
	assert_int_equal(ab_opt_gfp("kernel,kernel", &o, err, sizeof(err)),
			 -EINVAL);
	assert_non_null(
		strstr(err, "--gfp=kernel,kernel: a choice given twice"));
	assert_int_equal(ab_opt_gfp("kernel,,atomic", &o, err, sizeof(err)),
			 -EINVAL);
	assert_int_equal(ab_opt_gfp("kernel,sometimes", &o, err, sizeof(err)),
			 -EINVAL);
	assert_non_null(strstr(err, "--gfp=sometimes: unknown GFP choice"));
	assert_non_null(strstr(err, "kernel_account"));
	assert_int_equal(ab_opt_gfp("kernel,atomic,nowait,thp,noretry", &o, err,
				    sizeof(err)),
			 -EINVAL);
	assert_non_null(strstr(err, "too many choices"));
}

/* --memcg: its two words, and an unknown one with both named */
static void test_memcg_names(void **state)
{
	int mode = AB_MEMCG_NONE;

	assert_int_equal(ab_memcg_parse("new", &mode, err, sizeof(err)), 0);
	assert_int_equal(mode, AB_MEMCG_NEW);
	assert_int_equal(ab_memcg_parse("self", &mode, err, sizeof(err)), 0);
	assert_int_equal(mode, AB_MEMCG_SELF);
	assert_string_equal(ab_memcg_mode_name(AB_MEMCG_NEW), "new");
	assert_int_equal(ab_memcg_parse("root", &mode, err, sizeof(err)),
			 -EINVAL);
	assert_int_equal(mode, AB_MEMCG_SELF);
	assert_non_null(strstr(err, "--memcg=root: unknown"));
	assert_non_null(strstr(err, "allowed: new"));
	assert_non_null(strstr(err, "; self"));
	/* no cgroup in use: nothing to read */
	assert_string_equal(ab_memcg_path(), "");
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
		cmocka_unit_test(test_gfp_list),
		cmocka_unit_test(test_memcg_names),
		cmocka_unit_test(test_modes_and_patterns),
	};

	return cmocka_run_group_tests_name("runnames", tests, NULL, NULL);
}
