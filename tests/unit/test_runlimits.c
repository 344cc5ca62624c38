// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_runlimits.c - the limits of requests run together
 * (lib/runlimits.c: the sums over the CPUs of --concurrent) and the one
 * limit ab_run_check() names for each refusal (common/ab_run.h).
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

/*
 * Issue 21: `run --alloc=kmalloc --size=4096 --gfp=atomic --batch=16000
 * --cpu=0,1 --concurrent` holds 62.5 MiB per CPU, under the 64 MiB atomic
 * limit alone and above it together: the sums the module enforces over
 * all runs in progress are checked before anything runs, each naming the
 * limit with both figures.
 */
/* ab_run_check_together() with the request's footprint, as the runner has it */
static int together(const struct ab_run *r, const struct ab_info *in,
		    const struct ab_strategy_info *si, unsigned int copies,
		    char *e, size_t len)
{
	struct ab_footprint fp;

	ab_run_footprint(r, in, si, &fp);
	return ab_run_check_together(r, in, si, &fp, copies, e, len);
}

static void test_concurrent_sums(void **state)
{
	static const struct ab_strategy_info small_si = {
		.id = 3,
		.params = AB_PARAM_SIZE | AB_PARAM_GFP,
		.flags = AB_STRATEGY_MEM_KMALLOC,
		.max_size = 4 << 20,
		.name = "kmalloc",
	};
	struct ab_run_opts o;
	struct ab_run r;

	ab_run_opts_init(&o);
	o.trials = 5;
	o.batch = 16000;
	assert_int_equal(ab_opt_size("4096", &o, err, sizeof(err)), 0);
	assert_int_equal(ab_opt_gfp("atomic", &o, err, sizeof(err)), 0);
	/* alone: 16000 x 4096 = 65536000 bytes, under 67108864 */
	assert_int_equal(
		ab_run_prepare(&o, &info, &kmalloc_si, &r, err, sizeof(err)),
		0);
	assert_int_equal(together(&r, &info, &kmalloc_si, 1, err, sizeof(err)),
			 0);
	/* two CPUs: 131072000 bytes together, above the atomic limit */
	err[0] = '\0';
	assert_int_equal(together(&r, &info, &kmalloc_si, 2, err, sizeof(err)),
			 -EINVAL);
	assert_non_null(strstr(
		err,
		"kmalloc on 2 CPUs would hold 131072000 bytes at once with GFP_ATOMIC"));
	assert_non_null(strstr(err, "atomic limit of 67108864 bytes"));
	assert_non_null(strstr(err, "(AB_ATOMIC_MAX_BYTES)"));
	assert_null(strchr(err, '\n'));
	/* remote frees hold the same: each run's objects until its free */
	r.flags |= AB_RUN_REMOTE_FREE;
	r.free_cpu = 1;
	assert_int_equal(together(&r, &info, &kmalloc_si, 2, err, sizeof(err)),
			 -EINVAL);
	assert_non_null(strstr(err, "atomic limit"));
	/* the edge: 2 x 8192 x 4096 is the limit itself, one more is above */
	o.batch = 8192;
	assert_int_equal(
		ab_run_prepare(&o, &info, &kmalloc_si, &r, err, sizeof(err)),
		0);
	assert_int_equal(together(&r, &info, &kmalloc_si, 2, err, sizeof(err)),
			 0);
	o.batch = 8193;
	assert_int_equal(
		ab_run_prepare(&o, &info, &kmalloc_si, &r, err, sizeof(err)),
		0);
	assert_int_equal(together(&r, &info, &kmalloc_si, 2, err, sizeof(err)),
			 -EINVAL);
	/* GFP_KERNEL may reclaim: no atomic limit, the budget only */
	o.batch = 16000;
	assert_int_equal(ab_opt_gfp("kernel", &o, err, sizeof(err)), 0);
	assert_int_equal(
		ab_run_prepare(&o, &info, &kmalloc_si, &r, err, sizeof(err)),
		0);
	assert_int_equal(together(&r, &info, &kmalloc_si, 2, err, sizeof(err)),
			 0);
	/* the budget, 256 MiB here: 3 x (100 MiB and arrays) are above it */
	o.batch = 100;
	assert_int_equal(ab_opt_size("1M", &o, err, sizeof(err)), 0);
	assert_int_equal(
		ab_run_prepare(&o, &info, &kmalloc_si, &r, err, sizeof(err)),
		0);
	assert_int_equal(together(&r, &info, &kmalloc_si, 2, err, sizeof(err)),
			 0);
	assert_int_equal(together(&r, &info, &kmalloc_si, 3, err, sizeof(err)),
			 -EINVAL);
	assert_non_null(strstr(
		err,
		"kmalloc on 3 CPUs would hold 314577408 bytes at once (3 x 104859136"));
	assert_non_null(strstr(
		err,
		"the module's budget of 268435456 bytes (module parameter max_outstanding_mb)"));
	/* the user backend's limits are its own (before: "the module's") */
	ab_limits_owner(0);
	assert_int_equal(together(&r, &info, &kmalloc_si, 3, err, sizeof(err)),
			 -EINVAL);
	assert_non_null(strstr(
		err,
		"the user backend's budget of 268435456 bytes (a quarter of this machine's memory)"));
	ab_limits_owner(1);
	/*
	 * the budget counts the harness's arrays as the module does
	 * (ab_run_budget_bytes()): 2^20 kmalloc(8) hold 8 MiB of objects
	 * and 12 MiB of arrays; 13 of them, 104 MiB of objects, are above
	 * 256 MiB with their arrays
	 */
	o.batch = 1 << 20;
	assert_int_equal(ab_opt_size("8", &o, err, sizeof(err)), 0);
	assert_int_equal(
		ab_run_prepare(&o, &info, &small_si, &r, err, sizeof(err)), 0);
	assert_true(ab_run_held_bytes(&r, &info, &small_si) * 13 <=
		    info.max_bytes);
	assert_int_equal(together(&r, &info, &small_si, 13, err, sizeof(err)),
			 -EINVAL);
	assert_non_null(strstr(err, "budget of 268435456"));
	assert_int_equal(together(&r, &info, &small_si, 12, err, sizeof(err)),
			 0);
}

/* Each limit of ab_run_check() is named on its own (ab_run.limit). */
static void test_check_names_one_limit(void **state)
{
	struct ab_run_opts o;
	struct ab_run r, bad;
	const char *why;
	uint32_t limit;

	ab_run_opts_init(&o);
	o.trials = 5;
	o.batch = 16;
	assert_int_equal(ab_opt_gfp("atomic", &o, err, sizeof(err)), 0);
	assert_int_equal(ab_opt_size("4096", &o, err, sizeof(err)), 0);
	assert_int_equal(
		ab_run_prepare(&o, &info, &kmalloc_si, &r, err, sizeof(err)),
		0);
	limit = 99;
	assert_int_equal(
		ab_run_check_limit(&r, &info, &kmalloc_si, &why, &limit), 0);
	assert_int_equal(limit, AB_LIMIT_NONE);
	bad = r;
	bad.batch = info.max_batch + 1;
	assert_int_equal(
		ab_run_check_limit(&bad, &info, &kmalloc_si, &why, &limit),
		-E2BIG);
	assert_int_equal(limit, AB_LIMIT_BATCH);
	bad = r;
	bad.warmup = info.max_trials + 1;
	assert_int_equal(
		ab_run_check_limit(&bad, &info, &kmalloc_si, &why, &limit),
		-E2BIG);
	assert_int_equal(limit, AB_LIMIT_TRIALS);
	bad = r;
	bad.obj_size = kmalloc_si.max_size + 1;
	assert_int_equal(
		ab_run_check_limit(&bad, &info, &kmalloc_si, &why, &limit),
		-E2BIG);
	assert_int_equal(limit, AB_LIMIT_OBJECT);
	/* 2 MiB x 200 = 400 MiB, above the 256 MiB budget */
	bad = r;
	bad.gfp = AB_GFP_KERNEL;
	bad.obj_size = 2 << 20;
	bad.batch = 200;
	assert_int_equal(
		ab_run_check_limit(&bad, &info, &kmalloc_si, &why, &limit),
		-E2BIG);
	assert_int_equal(limit, AB_LIMIT_BUDGET);
	/* GFP_ATOMIC: 4 KiB x 16385 = 64 MiB + 4 KiB */
	bad = r;
	bad.batch = 16385;
	assert_int_equal(
		ab_run_check_limit(&bad, &info, &kmalloc_si, &why, &limit),
		-E2BIG);
	assert_int_equal(limit, AB_LIMIT_ATOMIC);
	/* IRQs off: 33 objects; 32 of 8 KiB, 256 KiB */
	bad = r;
	bad.context = AB_CTX_IRQ_OFF;
	bad.batch = 33;
	bad.obj_size = 64;
	assert_int_equal(
		ab_run_check_limit(&bad, &info, &kmalloc_si, &why, &limit),
		-E2BIG);
	assert_int_equal(limit, AB_LIMIT_IRQ_OFF_OBJS);
	bad.batch = 32;
	bad.obj_size = 8192;
	assert_int_equal(
		ab_run_check_limit(&bad, &info, &kmalloc_si, &why, &limit),
		-E2BIG);
	assert_int_equal(limit, AB_LIMIT_IRQ_OFF_BYTES);
	/* an EINVAL names none */
	bad = r;
	bad.reserved[0] = 1;
	assert_int_equal(
		ab_run_check_limit(&bad, &info, &kmalloc_si, &why, &limit),
		-EINVAL);
	assert_int_equal(limit, AB_LIMIT_NONE);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_concurrent_sums),
		cmocka_unit_test(test_check_names_one_limit),
	};

	return cmocka_run_group_tests_name("runlimits", tests, NULL, NULL);
}
