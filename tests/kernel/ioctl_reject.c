// SPDX-License-Identifier: GPL-2.0-only
/*
 * ioctl_reject.c - each validation path of AB_IOC_INFO and AB_IOC_RUN:
 * two tables of one field set to a bad value each, with the errno it must
 * get and the limit a refusal names (each a test of its own, named by the
 * field, which reject_tests() adds to the list), then the refusals that
 * take more than one field.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>
#include "ioctl_suite.h"

/*
 * A rejection: set the field at @off (@len bytes) of an otherwise valid
 * request to a value, expect errno @err. The value is @value, plus a limit
 * from AB_IOC_INFO when @base says so.
 */
enum base { FIXED, NR_NODE_IDS, MAX_BATCH, MAX_TRIALS, KMALLOC_MAX };

struct reject {
	const char *what;
	int err;
	size_t off, len;
	enum base base;
	int64_t value;
};

#define INFO_FIELD(f) \
	offsetof(struct ab_info, f), sizeof(((struct ab_info *)0)->f)
#define RUN_FIELD(f) offsetof(struct ab_run, f), sizeof(((struct ab_run *)0)->f)

static void apply(void *arg, const struct reject *rj)
{
	int64_t v = rj->value;
	uint64_t u;
	uint32_t w;

	switch (rj->base) {
	case NR_NODE_IDS:
		v += info.nr_node_ids;
		break;
	case MAX_BATCH:
		v += (int64_t)info.max_batch;
		break;
	case MAX_TRIALS:
		v += (int64_t)info.max_trials;
		break;
	case KMALLOC_MAX:
		v += (int64_t)find("kmalloc")->max_size;
		break;
	case FIXED:
		break;
	}
	u = (uint64_t)v;
	w = (uint32_t)v;
	memcpy((char *)arg + rj->off, rj->len == 8 ? (void *)&u : (void *)&w,
	       rj->len);
}

static const struct reject info_rejects[] = {
	{ "info: size below version 0", EINVAL, INFO_FIELD(size), FIXED,
	  AB_INFO_SIZE_VER0 - 8 },
	{ "info: size above PAGE_SIZE", E2BIG, INFO_FIELD(size), FIXED,
	  1 << 20 },
	{ "info: reserved0 set", EINVAL, INFO_FIELD(reserved0), FIXED, 1 },
	{ "info: reserved[3] set", EINVAL, INFO_FIELD(reserved[3]), FIXED, 1 },
	{ "info: strategies_len without pointer", EINVAL,
	  INFO_FIELD(strategies_len), FIXED, 4 },
};

static void test_info_reject(void **state)
{
	const struct reject *rj = *state;
	struct ab_info i = { .size = sizeof(i) };

	apply(&i, rj);
	assert_int_equal(xioctl(AB_IOC_INFO, &i), rj->err);
}

/* ---- RUN rejections ---- */

static const struct reject run_rejects[] = {
	{ "run: unknown strategy", EINVAL, RUN_FIELD(strategy), FIXED, 9999 },
	{ "run: unknown flag", EINVAL, RUN_FIELD(flags), FIXED, 1U << 31 },
	{ "run: NOMERGE on a strategy without a cache", EINVAL,
	  RUN_FIELD(flags), FIXED, AB_RUN_NOMERGE },
	{ "run: lookup_table given to a strategy without lookups", EINVAL,
	  RUN_FIELD(lookup_table), FIXED, AB_TABLE_2002 },
	{ "run: lookup_method given to a strategy without lookups", EINVAL,
	  RUN_FIELD(lookup_method), FIXED, AB_LOOKUP_WALK },
	{ "run: unknown lookup table", EINVAL, RUN_FIELD(lookup_table), FIXED,
	  AB_TABLE_NR },
	{ "run: unknown lookup method", EINVAL, RUN_FIELD(lookup_method), FIXED,
	  AB_LOOKUP_NR },
	{ "run: reserved[1] set", EINVAL, RUN_FIELD(reserved[1]), FIXED, 1 },
	{ "run: align given to a kernel strategy", EINVAL, RUN_FIELD(align),
	  FIXED, 64 },
	{ "run: sheaf_capacity without AB_RUN_SHEAVES", EINVAL,
	  RUN_FIELD(sheaf_capacity), FIXED, 1 },
	{ "run: SHEAVES on a strategy without a cache", EINVAL,
	  RUN_FIELD(flags), FIXED, AB_RUN_SHEAVES },
	/* bit 7 is AB_RUN_SHEAVES: the first unknown is 8 */
	{ "run: unknown flag bit 9", EINVAL, RUN_FIELD(flags), FIXED, 1 << 9 },
	{ "run: unknown flag bit 31", EINVAL, RUN_FIELD(flags), FIXED,
	  1U << 31 },
	{ "run: seed without the shuffle pattern", EINVAL, RUN_FIELD(seed),
	  FIXED, 42 },
	{ "run: unknown timing mode", EINVAL, RUN_FIELD(timing), FIXED,
	  AB_TIMING_NR },
	{ "run: unknown free pattern", EINVAL, RUN_FIELD(free_pattern), FIXED,
	  AB_FREE_NR },
	{ "run: unknown context", EINVAL, RUN_FIELD(context), FIXED,
	  AB_CTX_NR },
	{ "run: preemption off with GFP_KERNEL", EINVAL, RUN_FIELD(context),
	  FIXED, AB_CTX_PREEMPT_OFF },
	{ "run: IRQs off with GFP_KERNEL", EINVAL, RUN_FIELD(context), FIXED,
	  AB_CTX_IRQ_OFF },
	{ "run: unknown gfp", EINVAL, RUN_FIELD(gfp), FIXED, AB_GFP_NR },
	{ "run: node -2", EINVAL, RUN_FIELD(node), FIXED, -2 },
	{ "run: node nr_node_ids", EINVAL, RUN_FIELD(node), NR_NODE_IDS, 0 },
	{ "run: node 2^30", EINVAL, RUN_FIELD(node), FIXED, 1 << 30 },
	{ "run: node given to a strategy without one", EINVAL, RUN_FIELD(node),
	  FIXED, 0 },
	{ "run: batch 0", EINVAL, RUN_FIELD(batch), FIXED, 0 },
	{ "run: trials 0", EINVAL, RUN_FIELD(trials), FIXED, 0 },
	{ "run: batch above max_batch", E2BIG, RUN_FIELD(batch), MAX_BATCH, 1 },
	{ "run: trials above max_trials", E2BIG, RUN_FIELD(trials), MAX_TRIALS,
	  1 },
	{ "run: warmup above max_trials", E2BIG, RUN_FIELD(warmup), MAX_TRIALS,
	  1 },
	{ "run: obj_size 0", EINVAL, RUN_FIELD(obj_size), FIXED, 0 },
	{ "run: order given to a size strategy", EINVAL, RUN_FIELD(order),
	  FIXED, 1 },
	{ "run: obj_size above the strategy's max", E2BIG, RUN_FIELD(obj_size),
	  KMALLOC_MAX, 1 },
	{ "run: size below version 0", EINVAL, RUN_FIELD(size), FIXED,
	  AB_RUN_SIZE_VER0 - 8 },
	{ "run: size above PAGE_SIZE", E2BIG, RUN_FIELD(size), FIXED, 1 << 20 },
	{ "run: samples_len without pointer", EINVAL, RUN_FIELD(samples_len),
	  FIXED, 2 },
	{ "run: samples pointer without length", EINVAL, RUN_FIELD(samples_ptr),
	  FIXED, 4096 },
};

/*
 * The AB_LIMIT_* a run reject above a limit names in ab_run.limit (the
 * limit its base is), AB_LIMIT_NR for one the module must not write.
 */
static uint32_t reject_limit(const struct reject *rj)
{
	if (rj->err != E2BIG)
		return AB_LIMIT_NR;
	switch (rj->base) {
	case MAX_BATCH:
		return AB_LIMIT_BATCH;
	case MAX_TRIALS:
		return AB_LIMIT_TRIALS;
	case KMALLOC_MAX:
		return AB_LIMIT_OBJECT;
	default:
		return AB_LIMIT_NR; /* the struct's size: not the run's */
	}
}

/*
 * Each rejection is applied to a valid kmalloc request. A refusal for a
 * limit names it in ab_run.limit, the one field it writes; any other
 * leaves the struct as it was (here a value no limit has).
 */
static void test_run_reject(void **state)
{
	const struct reject *rj = *state;
	struct ab_run r = req("kmalloc");

	assert_int_equal(xioctl(AB_IOC_RUN, &r), 0);
	assert_int_equal(r.limit, AB_LIMIT_NONE);
	apply(&r, rj);
	r.limit = AB_LIMIT_NR;
	assert_int_equal(xioctl(AB_IOC_RUN, &r), rj->err);
	assert_int_equal(r.limit, reject_limit(rj));
	assert_int_equal(outstanding(), 0);
}

void test_run_reject_params(void **state)
{
	struct ab_run r;

	static struct ab_sample one[1];

	/* batch x size above the bytes held at once */
	r = req("kmalloc");
	r.obj_size = 1 << 20;
	r.batch = (uint32_t)(info.max_bytes >> 20) + 1;
	assert_int_equal(xioctl(AB_IOC_RUN, &r), E2BIG);
	assert_int_equal(r.limit, AB_LIMIT_BUDGET);
	/* fewer samples than trials */
	r = req("kmalloc");
	r.samples_ptr = (uintptr_t)one;
	r.samples_len = 1;
	assert_int_equal(xioctl(AB_IOC_RUN, &r), EINVAL);
	/* samples at an address the caller cannot write */
	r = req("kmalloc");
	r.samples_ptr = 16;
	r.samples_len = 2;
	assert_int_equal(xioctl(AB_IOC_RUN, &r), EFAULT);
	/* a size given to an order strategy */
	r = req("get_free_pages");
	r.obj_size = 4096;
	assert_int_equal(xioctl(AB_IOC_RUN, &r), EINVAL);
	/* an order above the page allocator's */
	r = req("get_free_pages");
	r.order = find("get_free_pages")->max_order + 1;
	assert_int_equal(xioctl(AB_IOC_RUN, &r), E2BIG);
	assert_int_equal(r.limit, AB_LIMIT_OBJECT);
	/*
	 * the largest order a caller can send: refused by its limit, the
	 * refusal's figure computed without a shift past 64 bits (UBSAN
	 * reported one on 7.3; guest.sh fails a boot whose log shows it)
	 */
	r = req("get_free_pages");
	r.order = UINT32_MAX;
	assert_int_equal(xioctl(AB_IOC_RUN, &r), E2BIG);
	assert_int_equal(r.limit, AB_LIMIT_OBJECT);
	/* a GFP choice given to a strategy that takes none */
	r = req("vmalloc_node");
	r.gfp = AB_GFP_ATOMIC;
	assert_int_equal(xioctl(AB_IOC_RUN, &r), EINVAL);
	/* none takes neither size nor order */
	r = req("none");
	r.obj_size = 8;
	assert_int_equal(xioctl(AB_IOC_RUN, &r), EINVAL);
	/* a newer caller's nonzero tail */
	{
		struct {
			struct ab_run r;
			uint64_t newer;
		} big = { .r = req("kmalloc"), .newer = 1 };

		big.r.size = sizeof(big);
		assert_int_equal(xioctl(AB_IOC_RUN, &big), E2BIG);
		big.newer = 0;
		big.r.size = sizeof(big);
		assert_int_equal(xioctl(AB_IOC_RUN, &big), 0);
		assert_int_equal(big.r.size, sizeof(struct ab_run));
	}
	assert_int_equal(outstanding(), 0);
}

/* The tests of @nr rejections of @table, run by @fn, appended to @t. */
static size_t add_rejects(struct CMUnitTest *t, size_t n, size_t max,
			  const struct reject *table, size_t nr,
			  CMUnitTestFunction fn)
{
	size_t k;

	for (k = 0; k < nr; k++) {
		if (n == max)
			return 0;
		t[n].name = table[k].what;
		t[n].test_func = fn;
		t[n].initial_state = (void *)&table[k];
		n++;
	}
	return n;
}

size_t reject_tests(struct CMUnitTest *tests, size_t n, size_t max)
{
	n = add_rejects(tests, n, max, info_rejects,
			sizeof(info_rejects) / sizeof(info_rejects[0]),
			test_info_reject);
	if (!n)
		return 0;
	return add_rejects(tests, n, max, run_rejects,
			   sizeof(run_rejects) / sizeof(run_rejects[0]),
			   test_run_reject);
}
