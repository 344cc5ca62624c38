// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_runopts.c - `allocbench run` option validation against a module's
 * limits, without a module: bad values are named in the message and never
 * become a request (lib/runopts.c; the spellings are test_runnames.c's,
 * the module's answers test_runanswer.c's, the sums over CPUs
 * test_runlimits.c's).
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

static void test_defaults(void **state)
{
	struct ab_run_opts o;
	struct ab_run r;

	ab_run_opts_init(&o);
	assert_int_equal(
		ab_run_prepare(&o, &info, &kmalloc_si, &r, err, sizeof(err)),
		0);
	assert_int_equal(r.size, sizeof(r));
	assert_int_equal(r.strategy, 3);
	assert_int_equal(r.obj_size, 4096);
	assert_int_equal(r.order, 0);
	assert_int_equal(r.batch, AB_DEFAULT_BATCH);
	assert_int_equal(r.trials, AB_DEFAULT_TRIALS);
	assert_int_equal(r.warmup, 0);
	assert_int_equal(r.node, -1);
	assert_int_equal(r.gfp, AB_GFP_KERNEL);
	assert_int_equal(r.flags, 0);
}

static void test_order_from_size(void **state)
{
	struct ab_run_opts o;
	struct ab_run r;

	ab_run_opts_init(&o);
	assert_int_equal(ab_opt_size("4096", &o, err, sizeof(err)), 0);
	assert_int_equal(
		ab_run_prepare(&o, &info, &pages_si, &r, err, sizeof(err)), 0);
	assert_int_equal(r.order, 0);
	assert_int_equal(r.obj_size, 0);
	assert_int_equal(ab_opt_size("4097", &o, err, sizeof(err)), 0);
	assert_int_equal(
		ab_run_prepare(&o, &info, &pages_si, &r, err, sizeof(err)), 0);
	assert_int_equal(r.order, 1);
	assert_int_equal(ab_opt_size("1M", &o, err, sizeof(err)), 0);
	assert_int_equal(
		ab_run_prepare(&o, &info, &pages_si, &r, err, sizeof(err)), 0);
	assert_int_equal(r.order, 8);
	/* --order for order strategies (the others refuse it, and the CLI
	 * refuses it with --size: test_order_and_size_messages, cli.sh) */
	ab_run_opts_init(&o);
	assert_int_equal(ab_opt_order("3", &o, err, sizeof(err)), 0);
	assert_int_equal(
		ab_run_prepare(&o, &info, &pages_si, &r, err, sizeof(err)), 0);
	assert_int_equal(r.order, 3);
}

static void test_node_only_to_node_strategies(void **state)
{
	struct ab_run_opts o;
	struct ab_run r;

	ab_run_opts_init(&o);
	o.node = 1;
	assert_int_equal(ab_run_prepare(&o, &info, &kmalloc_node_si, &r, err,
					sizeof(err)),
			 0);
	assert_int_equal(r.node, 1);
	assert_int_equal(
		ab_run_prepare(&o, &info, &kmalloc_si, &r, err, sizeof(err)),
		0);
	assert_int_equal(r.node, -1);
}

/* Each bad value gives -EINVAL and a message that names it. */
static void test_bad_values_named(void **state)
{
	struct ab_run_opts o;
	uint32_t n;

	ab_run_opts_init(&o);
	assert_int_equal(ab_opt_size("0", &o, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "--size=0:"));
	assert_int_equal(ab_opt_size("abc", &o, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "--size=abc: not a size"));
	assert_int_equal(ab_opt_count("trials", "-1", 1, &n, err, sizeof(err)),
			 -EINVAL);
	assert_non_null(strstr(err, "--trials=-1:"));
	assert_int_equal(ab_opt_count("batch", "0", 1, &n, err, sizeof(err)),
			 -EINVAL);
	assert_non_null(strstr(err, "--batch=0:"));
	assert_int_equal(ab_opt_count("warmup", "0", 0, &n, err, sizeof(err)),
			 0);
	assert_int_equal(
		ab_opt_count("trials", "4294967296", 1, &n, err, sizeof(err)),
		-EINVAL);
	assert_int_equal(ab_opt_order("x", &o, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "--order=x:"));
	/* ranges of orders (sweep --orders=0-10): expanded, in order */
	assert_int_equal(ab_opt_order("0-3,9", &o, err, sizeof(err)), 0);
	assert_int_equal(o.norders, 5);
	assert_int_equal(o.orders[3], 3);
	assert_int_equal(o.orders[4], 9);
	assert_int_equal(ab_opt_order("3-1", &o, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "--order=3-1: not a page order"));
	assert_int_equal(ab_opt_order("0-", &o, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "--order=0-: not a page order"));
	assert_int_equal(ab_opt_order("0-20", &o, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "--order=0-20: too many orders"));
	assert_int_equal(ab_opt_gfp("sometimes", &o, err, sizeof(err)),
			 -EINVAL);
	assert_non_null(strstr(err, "--gfp=sometimes:"));
	assert_non_null(strstr(err, "kernel_zero"));
}

static void test_limits_against_strategy(void **state)
{
	struct ab_run_opts o;
	struct ab_run r;

	ab_run_opts_init(&o);
	assert_int_equal(ab_opt_size("8M", &o, err, sizeof(err)), 0);
	assert_int_equal(
		ab_run_prepare(&o, &info, &kmalloc_si, &r, err, sizeof(err)),
		-EINVAL);
	assert_non_null(
		strstr(err, "--size=8M: above kmalloc's largest object, 4M"));

	ab_run_opts_init(&o);
	assert_int_equal(ab_opt_order("11", &o, err, sizeof(err)), 0);
	assert_int_equal(
		ab_run_prepare(&o, &info, &pages_si, &r, err, sizeof(err)),
		-EINVAL);
	assert_non_null(strstr(err, "--order=11"));

	ab_run_opts_init(&o);
	o.batch = (1 << 20) + 1;
	assert_int_equal(
		ab_run_prepare(&o, &info, &kmalloc_si, &r, err, sizeof(err)),
		-EINVAL);
	assert_non_null(strstr(err, "--batch=1048577"));

	ab_run_opts_init(&o);
	o.trials = (1 << 24) + 1;
	assert_int_equal(
		ab_run_prepare(&o, &info, &kmalloc_si, &r, err, sizeof(err)),
		-EINVAL);
	assert_non_null(strstr(err, "--trials="));

	/* 300 x 1 MiB is above the 256 MiB held at once */
	ab_run_opts_init(&o);
	assert_int_equal(ab_opt_size("1M", &o, err, sizeof(err)), 0);
	o.batch = 300;
	assert_int_equal(
		ab_run_prepare(&o, &info, &vmalloc_si, &r, err, sizeof(err)),
		-EINVAL);
	assert_non_null(strstr(err, "--batch=300"));
	/* 256 x 1 MiB fill it, and the harness's arrays count too */
	o.batch = 256;
	assert_int_equal(
		ab_run_prepare(&o, &info, &vmalloc_si, &r, err, sizeof(err)),
		-EINVAL);
	o.batch = 255;
	assert_int_equal(
		ab_run_prepare(&o, &info, &vmalloc_si, &r, err, sizeof(err)),
		0);
}

/*
 * Strategies as the module describes them: how their allocator uses
 * memory (AB_STRATEGY_MEM_*), on a kernel whose largest kmalloc is
 * 2^10 pages (KMALLOC_MAX_SIZE with MAX_PAGE_ORDER 10).
 */
#define KMALLOC_MAX (4096ULL << 10)
static const struct ab_info kinfo = {
	.size = AB_INFO_SIZE_VER2,
	.abi_version = AB_ABI_VERSION,
	.max_batch = 1 << 20,
	.max_trials = 1 << 24,
	.max_bytes = 240ULL << 20,
	.page_size = 4096,
	.nr_node_ids = 2,
	.kmalloc_max_size = KMALLOC_MAX,
};
static const struct ab_strategy_info m_kmalloc_si = {
	.id = 3,
	.params = AB_PARAM_SIZE | AB_PARAM_GFP,
	.flags = AB_STRATEGY_MEM_KMALLOC,
	.max_size = KMALLOC_MAX,
	.name = "kmalloc",
};
static const struct ab_strategy_info m_vmalloc_si = {
	.id = 8,
	.params = AB_PARAM_SIZE | AB_PARAM_NODE,
	.flags = AB_STRATEGY_MEM_VMALLOC,
	.max_size = 240ULL << 20,
	.name = "vmalloc_node",
};
static const struct ab_strategy_info m_vbatch_si = {
	.id = 9,
	.params = AB_PARAM_SIZE,
	.flags = AB_STRATEGY_MEM_VMALLOC | AB_STRATEGY_ONE_OBJECT |
		 AB_STRATEGY_PER_TRIAL,
	.max_size = 240ULL << 20,
	.name = "vmalloc_batch",
};
static const struct ab_strategy_info m_kvmalloc_si = {
	.id = 10,
	.params = AB_PARAM_SIZE | AB_PARAM_GFP | AB_PARAM_NODE,
	.flags = AB_STRATEGY_MEM_KVMALLOC,
	.max_size = 240ULL << 20,
	.name = "kvmalloc_node",
};
static const struct ab_strategy_info m_cache_si = {
	.id = 6,
	.params = AB_PARAM_SIZE | AB_PARAM_GFP | AB_PARAM_CACHE,
	.flags = AB_STRATEGY_MEM_CACHE,
	.max_size = 32768,
	.name = "kmem_cache",
};
static const struct ab_strategy_info m_class_si = {
	.id = 5,
	.params = AB_PARAM_SIZE | AB_PARAM_GFP | AB_PARAM_LOOKUP,
	.flags = AB_STRATEGY_MEM_KMALLOC,
	.max_size = 8192,
	.name = "kmalloc_class",
};

/* ab_run_prepare() of @si with --size=@size --batch=@batch --gfp=@gfp. */
/*
 * The largest batch of @r (objects as prepared) whose memory,
 * ab_run_budget_bytes(), fits the budget: it grows with the batch.
 */
static uint32_t largest_batch(struct ab_run *r,
			      const struct ab_strategy_info *si)
{
	struct ab_run t = *r;
	uint32_t lo = 0, hi = (uint32_t)kinfo.max_batch, mid;

	while (lo < hi) {
		mid = hi - (hi - lo) / 2;
		t.batch = mid;
		if (ab_run_budget_bytes(&t, &kinfo, si) <= kinfo.max_bytes)
			lo = mid;
		else
			hi = mid - 1;
	}
	return lo;
}

static int prep(const struct ab_strategy_info *si, const char *size,
		uint32_t batch, const char *gfp, struct ab_run *r)
{
	struct ab_run_opts o;

	ab_run_opts_init(&o);
	assert_int_equal(ab_opt_size(size, &o, err, sizeof(err)), 0);
	if (gfp)
		assert_int_equal(ab_opt_gfp(gfp, &o, err, sizeof(err)), 0);
	o.batch = batch;
	err[0] = '\0';
	return ab_run_prepare(&o, &kinfo, si, r, err, sizeof(err));
}

/*
 * Issue 13, item 10: the CLI counted batch x size against the budget, the
 * module what the allocator really uses, so the CLI passed requests the
 * module refused. One rule now (common/ab_footprint.h): the CLI refuses
 * them, naming the budget, the request and max_outstanding_mb, and the
 * same check the module makes (ab_run_check()) refuses them too.
 */
static void test_budget_counts_what_allocators_use(void **state)
{
	struct ab_run r;
	const char *why;
	uint64_t fp;

	/* vmalloc_node, 1 byte x 100000: a whole page each at least */
	assert_int_equal(prep(&m_vmalloc_si, "1", 100000, NULL, &r), -EINVAL);
	assert_non_null(strstr(err, "--batch=100000"));
	assert_non_null(strstr(err, "vmalloc_node"));
	assert_non_null(strstr(err, "max_outstanding_mb"));
	assert_non_null(strstr(err, "251658240-byte budget"));
	r.batch = 100000;
	assert_true(ab_run_held_bytes(&r, &kinfo, &m_vmalloc_si) >=
		    100000ULL * kinfo.page_size);
	assert_int_equal(ab_run_check(&r, &kinfo, &m_vmalloc_si, &why), -E2BIG);
	/* the old rule passed it: 100000 bytes are far below the budget */
	assert_true(100000ULL < kinfo.max_bytes);

	/* kmalloc, 3 MiB x 61: each takes the 4 MiB block of order 10 */
	assert_int_equal(prep(&m_kmalloc_si, "3M", 61, NULL, &r), -EINVAL);
	assert_non_null(strstr(err, "--batch=61"));
	assert_non_null(strstr(err, "max_outstanding_mb"));
	r.batch = 61;
	assert_int_equal(ab_run_held_bytes(&r, &kinfo, &m_kmalloc_si),
			 61ULL * (4ULL << 20));
	assert_int_equal(ab_run_check(&r, &kinfo, &m_kmalloc_si, &why), -E2BIG);
	assert_true(61ULL * (3ULL << 20) <= kinfo.max_bytes);
	/*
	 * 60 blocks of 4 MiB fill 240 MiB exactly, with no room for the
	 * harness's arrays (issue 16, part 5d): 59 are accepted by both
	 */
	assert_int_equal(prep(&m_kmalloc_si, "3M", 60, NULL, &r), -EINVAL);
	assert_int_equal(prep(&m_kmalloc_si, "3M", 59, NULL, &r), 0);
	assert_int_equal(ab_run_check(&r, &kinfo, &m_kmalloc_si, &why), 0);

	/* the boundary of every kind: the largest batch passes, one more not */
	{
		static const struct {
			const struct ab_strategy_info *si;
			const char *size;
		} c[] = {
			{ &m_vmalloc_si, "1" },	   { &m_vmalloc_si, "64K" },
			{ &m_vmalloc_si, "5000" }, { &m_kmalloc_si, "97" },
			{ &m_kmalloc_si, "9000" }, { &m_kvmalloc_si, "100" },
			{ &m_kvmalloc_si, "5M" },  { &m_kvmalloc_si, "3M" },
			{ &m_cache_si, "13" },	   { &m_class_si, "33" },
		};
		unsigned int i;
		uint32_t max;

		for (i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
			assert_int_equal(prep(c[i].si, c[i].size, 1, NULL, &r),
					 0);
			fp = ab_run_held_bytes(&r, &kinfo, c[i].si);
			assert_true(fp >= r.obj_size);
			/* the largest batch the budget takes, arrays and all */
			max = largest_batch(&r, c[i].si);
			if (max >= kinfo.max_batch)
				continue;
			assert_int_equal(
				prep(c[i].si, c[i].size, max, NULL, &r), 0);
			assert_int_equal(
				ab_run_check(&r, &kinfo, c[i].si, &why), 0);
			assert_int_equal(
				prep(c[i].si, c[i].size, max + 1, NULL, &r),
				-EINVAL);
			assert_non_null(strstr(err, "max_outstanding_mb"));
			r.batch = max + 1;
			assert_int_equal(
				ab_run_check(&r, &kinfo, c[i].si, &why),
				-E2BIG);
		}
	}

	/* vmalloc_batch holds one object of batch x size */
	assert_int_equal(prep(&m_vbatch_si, "4K", 100, NULL, &r), 0);
	assert_int_equal(ab_run_objs_held(&r, &m_vbatch_si), 1);
	assert_int_equal(ab_run_alloc_bytes(&r, &kinfo, &m_vbatch_si),
			 100ULL * 4096);
	assert_true(ab_run_held_bytes(&r, &kinfo, &m_vbatch_si) <
		    ab_run_held_bytes(&r, &kinfo, &m_vmalloc_si));
}

/* What each kind counts, against the kernel's facts it comes from. */
static void test_footprint_rules(void **state)
{
	const uint32_t ps = 4096;
	uint64_t s, fp;

	/* kmalloc: a class of kmalloc_info[] up to 2 pages, then pages */
	assert_int_equal(ab_kmalloc_bytes(1, ps), 8);
	assert_int_equal(ab_kmalloc_bytes(96, ps), 96);
	assert_int_equal(ab_kmalloc_bytes(97, ps), 128);
	assert_int_equal(ab_kmalloc_bytes(193, ps), 256);
	assert_int_equal(ab_kmalloc_bytes(2 * ps, ps), 2 * ps);
	assert_int_equal(ab_kmalloc_bytes(2 * ps + 1, ps), 4 * ps);
	assert_int_equal(ab_kmalloc_bytes(3 << 20, ps), 4 << 20);
	for (s = 1; s <= KMALLOC_MAX; s = s * 3 / 2 + 1) {
		fp = ab_kmalloc_bytes(s, ps);
		assert_true(fp >= s && fp < 2 * s + 8);
	}
	/* vmalloc: whole pages, plus less than a page and the bookkeeping */
	for (s = 1; s <= (64ULL << 20); s = s * 5 / 3 + 1) {
		fp = ab_obj_footprint(AB_STRATEGY_MEM_VMALLOC, s, AB_GFP_KERNEL,
				      ps, KMALLOC_MAX);
		assert_true(fp >= (s + ps - 1) / ps * ps);
		assert_true(fp <= (s + ps - 1) / ps * ps + s / 256 + ps +
					  AB_VMALLOC_META_BYTES);
	}
	/* kmem_cache: the word, as a share of whole 32 KiB slabs */
	assert_int_equal(ab_obj_footprint(AB_STRATEGY_MEM_CACHE, 13, 0, ps, 0),
			 16);
	/* 3000 bytes: 10 to a slab, 3277 each; 1 holds a slab, 11 two */
	assert_int_equal(
		ab_obj_footprint(AB_STRATEGY_MEM_CACHE, 3000, 0, ps, 0), 3277);
	assert_int_equal(ab_cache_held_bytes(3000, 1, ps), 32768);
	assert_int_equal(ab_cache_held_bytes(3000, 10, ps), 32768);
	assert_int_equal(ab_cache_held_bytes(3000, 11, ps), 65536);
	assert_int_equal(ab_cache_held_bytes(32768, 3, ps), 3 * 32768);
	/* the harness's arrays: pointers and free order, per object */
	/* (8000 bytes: kmalloc's 8 KiB or vmalloc's 2 pages and bookkeeping) */
	assert_true(ab_harness_bytes(1000, false, false, ps) >= 8192 + 4096);
	assert_true(ab_harness_bytes(1000, false, false, ps) <=
		    8192 + 4096 + 1024);
	assert_true(ab_harness_bytes(1000, true, true, ps) >
		    ab_harness_bytes(1000, false, false, ps) + 24000);
	assert_int_equal(ab_obj_footprint(AB_STRATEGY_MEM_EXACT, 13, 0, ps, 0),
			 13);
	/* kvmalloc: kmalloc only up to a page or without GFP_KERNEL */
	assert_int_equal(ab_obj_footprint(AB_STRATEGY_MEM_KVMALLOC, 100,
					  AB_GFP_KERNEL, ps, KMALLOC_MAX),
			 128);
	assert_int_equal(ab_obj_footprint(AB_STRATEGY_MEM_KVMALLOC, 3 << 20,
					  AB_GFP_ATOMIC, ps, KMALLOC_MAX),
			 4 << 20);
	/* with it, vmalloc's 2 MiB pages too: 5 MiB takes 6 */
	assert_true(ab_obj_footprint(AB_STRATEGY_MEM_KVMALLOC, 5 << 20,
				     AB_GFP_KERNEL, ps,
				     KMALLOC_MAX) >= (6ULL << 20));
	/* per-CPU: one unit's word-rounded bytes (the CPUs: the run's) */
	assert_int_equal(ab_obj_footprint(AB_STRATEGY_MEM_PERCPU, 13, 0, ps, 0),
			 16);
	/* mempool elements: kmalloc's classes */
	assert_int_equal(
		ab_obj_footprint(AB_STRATEGY_MEM_MEMPOOL, 97, 0, ps, 0), 128);
	/* page_frag: 3000 bytes, 10 to a 32 KiB page, 3277 each */
	assert_int_equal(ab_obj_footprint(AB_STRATEGY_MEM_FRAG, 3000, 0, ps, 0),
			 3277);
	/* whole pages, and the one a trial may start in */
	assert_int_equal(ab_frag_held_bytes(3000, 10), 2 * 32768);
	assert_int_equal(ab_frag_held_bytes(3000, 11), 3 * 32768);
	assert_int_equal(ab_frag_held_bytes(4096, 1), 2 * 32768);
	/*
	 * vmalloc_huge: 3 MiB is two 2 MiB pages, 768 page pointers (6 KiB,
	 * whole pages: 8 KiB) and the bookkeeping; below 2 MiB vmalloc's rule
	 */
	assert_int_equal(ab_obj_footprint(AB_STRATEGY_MEM_VMALLOC_HUGE, 3 << 20,
					  AB_GFP_KERNEL, ps, 0),
			 (4 << 20) + 8192 + AB_VMALLOC_META_BYTES);
	assert_int_equal(ab_obj_footprint(AB_STRATEGY_MEM_VMALLOC_HUGE, 1 << 20,
					  AB_GFP_KERNEL, ps, 0),
			 ab_obj_footprint(AB_STRATEGY_MEM_VMALLOC, 1 << 20,
					  AB_GFP_KERNEL, ps, 0));
	/* kmem_buckets: 100 bytes are the 128-byte class, 256 to a slab */
	assert_int_equal(ab_obj_footprint(AB_STRATEGY_MEM_BUCKETS, 100,
					  AB_GFP_KERNEL, ps, 0),
			 128);
	/* 3000 bytes: the 4 KiB class, 8 to a 32 KiB slab, 9 take two */
	assert_int_equal(ab_cache_held_bytes(ab_kmalloc_bytes(3000, ps), 9, ps),
			 64 << 10);
	/* cma: exactly its pages */
	assert_int_equal(ab_obj_footprint(AB_STRATEGY_MEM_CMA, 1 << 21,
					  AB_GFP_KERNEL, ps, 0),
			 1 << 21);
	/* nothing overflows */
	assert_int_equal(
		ab_obj_footprint(AB_STRATEGY_MEM_VMALLOC, UINT64_MAX, 0, ps, 0),
		UINT64_MAX);
	assert_int_equal(
		ab_obj_footprint(AB_STRATEGY_MEM_BUCKETS, UINT64_MAX, 0, ps, 0),
		UINT64_MAX);
	assert_int_equal(ab_kmalloc_bytes(UINT64_MAX, ps), UINT64_MAX);
}

/*
 * Issue 13, item 11: kvmalloc_node --size=5M --gfp=atomic can never
 * succeed (no vmalloc fallback without GFP_KERNEL, 5 MiB above the
 * largest kmalloc): refused up front as not applicable, with the reason;
 * the module's check refuses it too (-EINVAL).
 */
static void test_not_applicable(void **state)
{
	static const char *const nonblocking[] = { "atomic", "nowait" };
	struct ab_info old = kinfo;
	struct ab_run r;
	const char *why;
	unsigned int i;

	for (i = 0; i < 2; i++) {
		assert_int_equal(
			prep(&m_kvmalloc_si, "5M", 1, nonblocking[i], &r),
			-EINVAL);
		assert_non_null(strstr(err, "not applicable"));
		assert_non_null(strstr(err, nonblocking[i]));
		assert_non_null(strstr(err, "no vmalloc fallback"));
		assert_non_null(strstr(err, "KMALLOC_MAX_SIZE"));
		r.gfp = i ? AB_GFP_NOWAIT : AB_GFP_ATOMIC;
		r.batch = 1;
		assert_int_equal(ab_run_check(&r, &kinfo, &m_kvmalloc_si, &why),
				 -EINVAL);
		/* the largest kmalloc itself can be allocated */
		assert_int_equal(
			prep(&m_kvmalloc_si, "4M", 1, nonblocking[i], &r), 0);
		assert_int_equal(ab_obj_largest(m_kvmalloc_si.flags,
						m_kvmalloc_si.max_size, r.gfp,
						kinfo.kmalloc_max_size),
				 KMALLOC_MAX);
	}
	/* GFP_KERNEL falls back to vmalloc; kmalloc itself is not kvmalloc */
	assert_int_equal(prep(&m_kvmalloc_si, "5M", 1, "kernel", &r), 0);
	assert_int_equal(prep(&m_kvmalloc_si, "5M", 1, "kernel_zero", &r), 0);
	assert_int_equal(ab_obj_largest(m_kvmalloc_si.flags,
					m_kvmalloc_si.max_size, AB_GFP_KERNEL,
					kinfo.kmalloc_max_size),
			 m_kvmalloc_si.max_size);
	assert_int_equal(prep(&m_kmalloc_si, "4M", 1, "atomic", &r), 0);
	/* a module that does not say its kmalloc maximum is not second-guessed
	 */
	old.kmalloc_max_size = 0;
	old.size = AB_INFO_SIZE_VER1;
	assert_int_equal(ab_run_check(&(struct ab_run){ .obj_size = 5 << 20,
							.batch = 1,
							.trials = 1,
							.gfp = AB_GFP_ATOMIC,
							.node = -1 },
				      &old, &m_kvmalloc_si, &why),
			 0);
}

static void test_params_that_do_not_apply(void **state)
{
	struct ab_run_opts o;
	struct ab_run r;

	ab_run_opts_init(&o);
	assert_int_equal(ab_opt_gfp("atomic", &o, err, sizeof(err)), 0);
	assert_int_equal(
		ab_run_prepare(&o, &info, &vmalloc_si, &r, err, sizeof(err)),
		-EINVAL);
	assert_non_null(strstr(err, "vmalloc_node takes no GFP"));

	ab_run_opts_init(&o);
	o.nomerge = 1;
	assert_int_equal(
		ab_run_prepare(&o, &info, &kmalloc_si, &r, err, sizeof(err)),
		-EINVAL);
	assert_non_null(strstr(err, "--nomerge"));
	assert_int_equal(
		ab_run_prepare(&o, &info, &cache_si, &r, err, sizeof(err)), 0);
	assert_int_equal(r.flags, AB_RUN_NOMERGE);
}

/*
 * Issue 43: the per-CPU and mempool strategies' memory (the object in
 * every possible CPU's unit; a mempool's reserve and its array) and
 * their rules, refused with the option named before anything is asked.
 */
static void test_pools(void **state)
{
	static const struct ab_strategy_info pcpu_si = {
		.id = 20,
		.params = AB_PARAM_SIZE | AB_PARAM_GFP | AB_PARAM_ALIGN,
		.flags = AB_STRATEGY_MEM_PERCPU,
		.max_size = 32768,
		.name = "percpu",
	};
	static const struct ab_strategy_info pool_si = {
		.id = 21,
		.params = AB_PARAM_SIZE | AB_PARAM_GFP | AB_PARAM_POOL,
		.flags = AB_STRATEGY_MEM_MEMPOOL,
		.max_size = 4 << 20,
		.name = "mempool",
	};
	struct ab_info k = info;
	struct ab_run_opts o;
	struct ab_run r;

	k.possible_cpus = 4;
	ab_run_opts_init(&o);
	assert_int_equal(ab_opt_size("100", &o, err, sizeof(err)), 0);
	o.batch = 10;
	/* 100 bytes word-rounded, in 4 units: 416 each */
	assert_int_equal(ab_run_prepare(&o, &k, &pcpu_si, &r, err, sizeof(err)),
			 0);
	assert_int_equal(ab_run_held_bytes(&r, &k, &pcpu_si), 10 * 104 * 4);
	/* aligned to 256: 256 in each unit */
	assert_int_equal(ab_opt_align("256", &o, err, sizeof(err)), 0);
	assert_int_equal(ab_run_prepare(&o, &k, &pcpu_si, &r, err, sizeof(err)),
			 0);
	assert_int_equal(ab_run_held_bytes(&r, &k, &pcpu_si), 10 * 256 * 4);
	assert_int_equal(ab_opt_align("8K", &o, err, sizeof(err)), 0);
	assert_int_equal(ab_run_prepare(&o, &k, &pcpu_si, &r, err, sizeof(err)),
			 -EINVAL);
	assert_non_null(strstr(err, "--align=8192: above a page"));

	/* the reserve: the batch by default, counted with its array */
	ab_run_opts_init(&o);
	assert_int_equal(ab_opt_size("100", &o, err, sizeof(err)), 0);
	o.batch = 10;
	assert_int_equal(ab_run_prepare(&o, &k, &pool_si, &r, err, sizeof(err)),
			 0);
	assert_int_equal(r.pool_min, 10);
	assert_int_equal(ab_run_held_bytes(&r, &k, &pool_si),
			 10 * 128 + 10 * 128 + 96);
	o.pool_min = 4;
	assert_int_equal(ab_run_prepare(&o, &k, &pool_si, &r, err, sizeof(err)),
			 -EINVAL);
	assert_non_null(
		strstr(err, "--batch=10: above mempool's reserve of 4"));
	assert_int_equal(ab_opt_gfp("nowait", &o, err, sizeof(err)), 0);
	assert_int_equal(ab_run_prepare(&o, &k, &pool_si, &r, err, sizeof(err)),
			 0);
	assert_int_equal(ab_opt_gfp("kernel_zero", &o, err, sizeof(err)), 0);
	assert_int_equal(ab_run_prepare(&o, &k, &pool_si, &r, err, sizeof(err)),
			 -EINVAL);
	assert_non_null(strstr(err, "__GFP_ZERO"));
	/* only the mempools take a reserve */
	assert_int_equal(
		ab_run_prepare(&o, &k, &kmalloc_si, &r, err, sizeof(err)), 0);
	assert_int_equal(r.pool_min, 0);
}

/*
 * --sheaves (issue 24): the list's settings, refused where the strategy
 * has no cache of its own or the kernel cannot apply them, each a cache
 * of its own.
 */
static void test_sheaves(void **state)
{
	struct ab_info k = info;
	struct ab_run_opts o;
	struct ab_run r;
	char b[16];

	(void)state;
	ab_run_opts_init(&o);
	assert_int_equal(ab_opt_sheaves("default,off,60", &o, err, sizeof(err)),
			 0);
	assert_int_equal(o.nsheaves, 3);
	assert_int_equal(o.sheaves[0], AB_SHEAVES_DEFAULT);
	assert_int_equal(o.sheaves[1], 0);
	assert_int_equal(o.sheaves[2], 60);
	assert_string_equal(ab_sheaves_name(o.sheaves[1], b, sizeof(b)), "off");
	assert_int_equal(ab_opt_sheaves("0", &o, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "--sheaves=0: a setting that is not"));
	assert_int_equal(ab_opt_sheaves("1025", &o, err, sizeof(err)), -EINVAL);
	assert_int_equal(ab_opt_sheaves("off,", &o, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "empty"));
	assert_int_equal(
		ab_opt_sheaves("1,2,3,4,5,6,7,8,9", &o, err, sizeof(err)),
		-EINVAL);
	assert_non_null(strstr(err, "too many"));

	/* a kernel that says nothing of sheaves (size 0): refused */
	ab_run_opts_init(&o);
	o.nsheaves = 1;
	o.sheaf = 0;
	assert_int_equal(
		ab_run_prepare(&o, &info, &cache_si, &r, err, sizeof(err)),
		-EINVAL);
	assert_non_null(strstr(err, "--sheaves=off: this kernel"));
	assert_int_equal(
		ab_run_prepare(&o, &info, &kmalloc_si, &r, err, sizeof(err)),
		-EINVAL);
	assert_non_null(strstr(err, "kmalloc has no kmem_cache"));
	k.size = AB_INFO_SIZE_VER1;
	k.kernel_flags = AB_KERNEL_SHEAVES_OFF;
	assert_int_equal(
		ab_run_prepare(&o, &k, &cache_si, &r, err, sizeof(err)), 0);
	assert_int_equal(r.flags, AB_RUN_SHEAVES | AB_RUN_NOMERGE);
	assert_int_equal(r.sheaf_capacity, 0);
	o.sheaf = 8;
	assert_int_equal(
		ab_run_prepare(&o, &k, &cache_si, &r, err, sizeof(err)),
		-EINVAL);
	assert_non_null(strstr(err, "--sheaves=8: this kernel cannot"));
	k.kernel_flags = AB_KERNEL_SHEAF_CAPACITY;
	assert_int_equal(
		ab_run_prepare(&o, &k, &cache_si, &r, err, sizeof(err)), 0);
	assert_int_equal(r.sheaf_capacity, 8);
	/* the default setting of a list: unmerged, no AB_RUN_SHEAVES */
	o.sheaf = AB_SHEAVES_DEFAULT;
	assert_int_equal(
		ab_run_prepare(&o, &k, &cache_si, &r, err, sizeof(err)), 0);
	assert_int_equal(r.flags, AB_RUN_NOMERGE);
}

/*
 * kmalloc_class with RANDOM_KMALLOC_CACHES gets a note; nothing else. The
 * note follows the strategy's parameters (it finds its kmalloc class), not
 * its name.
 */
static const char *note_of(const struct ab_info *i,
			   const struct ab_strategy_info *si)
{
	static char buf[512];

	return ab_strategy_note(i, si, buf, sizeof(buf)) ? buf : NULL;
}

static void test_strategy_notes(void **state)
{
	static const struct ab_strategy_info kclass_si = {
		.id = 5,
		.params = AB_PARAM_SIZE | AB_PARAM_GFP | AB_PARAM_LOOKUP,
		.max_size = 8192,
		.name = "kmalloc_class",
	};
	struct ab_info rnd = info_with(AB_KERNEL_RANDOM_KMALLOC_CACHES);
	struct ab_info plain = info_with(AB_KERNEL_SLAB_BUCKETS);
	const char *n = note_of(&rnd, &kclass_si);

	assert_non_null(n);
	assert_non_null(strstr(n, "kmalloc_class: "));
	assert_non_null(strstr(n, "RANDOM_KMALLOC_CACHES"));
	assert_non_null(strstr(n, "kmalloc_caches[KMALLOC_NORMAL]"));
	assert_null(note_of(&rnd, &kmalloc_si));
	assert_null(note_of(&plain, &kclass_si));
	assert_null(note_of(&info, &kclass_si));
}

static void test_order_and_size_messages(void **state)
{
	struct ab_run_opts o;
	struct ab_run r;

	/* a strategy without page orders refuses --order, named as given
	 * (it was taken as 2^order pages: --order=3 ran kmalloc 32K) */
	ab_run_opts_init(&o);
	assert_int_equal(ab_opt_order("3", &o, err, sizeof(err)), 0);
	assert_int_equal(
		ab_run_prepare(&o, &info, &kmalloc_si, &r, err, sizeof(err)),
		-EINVAL);
	assert_non_null(strstr(err, "--order=3: kmalloc takes no page order"));
	ab_run_opts_init(&o);
	assert_int_equal(ab_opt_order("0,3-4", &o, err, sizeof(err)), 0);
	assert_int_equal(
		ab_run_prepare(&o, &info, &kmalloc_si, &r, err, sizeof(err)),
		-EINVAL);
	assert_non_null(strstr(err, "--order=0,3-4: kmalloc takes"));
	/* a page strategy takes it, up to its largest order */
	ab_run_opts_init(&o);
	assert_int_equal(ab_opt_order("51", &o, err, sizeof(err)), 0);
	assert_int_equal(
		ab_run_prepare(&o, &info, &pages_si, &r, err, sizeof(err)),
		-EINVAL);
	assert_non_null(strstr(err, "--order=51: above get_free_pages's"));
	/* a --size too big for the page allocator names the --size */
	ab_run_opts_init(&o);
	assert_int_equal(ab_opt_size("16G", &o, err, sizeof(err)), 0);
	assert_int_equal(
		ab_run_prepare(&o, &info, &pages_si, &r, err, sizeof(err)),
		-EINVAL);
	assert_non_null(strstr(
		err,
		"--size=16G: needs order 22, above get_free_pages's largest order, 10"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_defaults),
		cmocka_unit_test(test_order_from_size),
		cmocka_unit_test(test_node_only_to_node_strategies),
		cmocka_unit_test(test_bad_values_named),
		cmocka_unit_test(test_limits_against_strategy),
		cmocka_unit_test(test_budget_counts_what_allocators_use),
		cmocka_unit_test(test_pools),
		cmocka_unit_test(test_footprint_rules),
		cmocka_unit_test(test_not_applicable),
		cmocka_unit_test(test_params_that_do_not_apply),
		cmocka_unit_test(test_order_and_size_messages),
		cmocka_unit_test(test_strategy_notes),
		cmocka_unit_test(test_sheaves),
	};

	return cmocka_run_group_tests_name("runopts", tests, NULL, NULL);
}
