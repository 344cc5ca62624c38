// SPDX-License-Identifier: GPL-2.0-only
/*
 * ioctl_modes.c - every timing mode and free pattern of every allocating
 * strategy, writes to the objects, loops with preemption or IRQs off (and
 * their refusal on PREEMPT_RT), the bulk strategies, the samples of single
 * timing, and frees on another CPU.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>
#include "ioctl_suite.h"

static const char *const allocating[] = {
	"get_free_pages",  "alloc_pages_node", "kmalloc",
	"kmalloc_node",	   "kmem_cache",       "kmem_cache_node",
	"vmalloc_node",	   "vmalloc_batch",    "kvmalloc_node",
	"kmem_cache_bulk", "kfree_bulk",       "alloc_pages_bulk",
};
#define NR_ALLOCATING (sizeof(allocating) / sizeof(allocating[0]))

void test_every_mode_and_pattern(void **state)
{
	uint32_t timing, pattern;
	size_t k;

	for (k = 0; k < NR_ALLOCATING; k++)
		for (timing = 0; timing < AB_TIMING_NR; timing++)
			for (pattern = 0; pattern < AB_FREE_NR; pattern++) {
				struct ab_run r = req(allocating[k]);

				r.batch = 8;
				r.trials = 3;
				r.timing = timing;
				r.free_pattern = pattern;
				if (pattern == AB_FREE_SHUFFLE)
					r.seed = 0x5eed;
				run_ok(&r, 1);
			}
}

void test_write_every_strategy(void **state)
{
	size_t k;

	for (k = 0; k < NR_ALLOCATING; k++) {
		struct ab_run r = req(allocating[k]);

		r.flags = AB_RUN_WRITE;
		if (r.obj_size)
			r.obj_size = 4096;
		run_ok(&r, 1);
		r.timing = AB_TIMING_SINGLE;
		run_ok(&r, 1);
	}
}

static const char *const atomic_ok[] = {
	"none",		"get_free_pages",   "alloc_pages_node", "kmalloc",
	"kmalloc_node", "kmem_cache",	    "kmem_cache_node",	"kvmalloc_node",
	"kfree_bulk",	"alloc_pages_bulk",
};

#define NR_ATOMIC_OK (sizeof(atomic_ok) / sizeof(atomic_ok[0]))

/*
 * Everything that takes a GFP choice runs with preemption or IRQs off
 * (not on PREEMPT_RT: test_rt_refuses_atomic_contexts).
 */
void test_atomic_contexts(void **state)
{
	uint32_t ctx, gfp;
	size_t k;

	if (kernel_is_rt()) {
		/* (cmocka's skip() prints a "not ok" TAP line) */
		print_message(
			"# PREEMPT_RT: test_rt_refuses_atomic_contexts\n");
		return;
	}
	for (ctx = AB_CTX_PREEMPT_OFF; ctx < AB_CTX_NR; ctx++)
		for (k = 0; k < NR_ATOMIC_OK; k++)
			for (gfp = AB_GFP_ATOMIC; gfp <= AB_GFP_NOWAIT; gfp++) {
				struct ab_run r = req(atomic_ok[k]);

				r.context = ctx;
				if (strcmp(atomic_ok[k], "none"))
					r.gfp = gfp;
				r.batch = 16;
				run_ok(&r, 1);
				r.timing = AB_TIMING_SINGLE;
				r.free_pattern = AB_FREE_LIFO;
				run_ok(&r, 1);
			}
}

/*
 * PREEMPT_RT: the allocators take sleeping locks, so an atomic context
 * around an allocation is refused with EOPNOTSUPP, even with GFP_ATOMIC,
 * for every strategy that allocates and in every timing; "none" still
 * runs. Elsewhere test_atomic_contexts checks that they run.
 */
void test_rt_refuses_atomic_contexts(void **state)
{
	uint32_t ctx, gfp;
	size_t k;

	if (!kernel_is_rt()) {
		assert_false(info.kernel_flags & AB_KERNEL_PREEMPT_RT);
		print_message("# not PREEMPT_RT: test_atomic_contexts\n");
		return;
	}
	assert_true(info.kernel_flags & AB_KERNEL_PREEMPT_RT);
	for (ctx = AB_CTX_PREEMPT_OFF; ctx < AB_CTX_NR; ctx++)
		for (k = 0; k < NR_ATOMIC_OK; k++)
			for (gfp = AB_GFP_ATOMIC; gfp <= AB_GFP_NOWAIT; gfp++) {
				struct ab_run r = req(atomic_ok[k]);

				r.context = ctx;
				r.batch = 16;
				if (!strcmp(atomic_ok[k], "none")) {
					run_ok(&r, 1);
					continue;
				}
				r.gfp = gfp;
				assert_int_equal(xioctl(AB_IOC_RUN, &r),
						 EOPNOTSUPP);
				r.timing = AB_TIMING_SINGLE;
				assert_int_equal(xioctl(AB_IOC_RUN, &r),
						 EOPNOTSUPP);
				/* the same run in process context is fine */
				r.context = AB_CTX_NORMAL;
				r.timing = AB_TIMING_BATCH;
				run_ok(&r, 1);
			}
	assert_int_equal(outstanding(), 0);
}

void test_atomic_context_rejects(void **state)
{
	struct ab_run r;

	/* vmalloc may sleep: no GFP choice, no atomic context */
	r = req("vmalloc_node");
	r.context = AB_CTX_IRQ_OFF;
	assert_int_equal(xioctl(AB_IOC_RUN, &r), EINVAL);
	/* GFP_KERNEL|__GFP_ZERO may sleep too */
	r = req("kmalloc");
	r.context = AB_CTX_PREEMPT_OFF;
	r.gfp = AB_GFP_KERNEL_ZERO;
	assert_int_equal(xioctl(AB_IOC_RUN, &r), EINVAL);
	/* more than AB_ATOMIC_MAX_BYTES in one trial with IRQs off */
	r = req("kmalloc");
	r.context = AB_CTX_IRQ_OFF;
	r.gfp = AB_GFP_ATOMIC;
	r.obj_size = 1 << 20;
	r.batch = (uint32_t)(AB_ATOMIC_MAX_BYTES >> 20) + 1;
	if ((uint64_t)r.batch << 20 <= info.max_bytes)
		assert_int_equal(xioctl(AB_IOC_RUN, &r), E2BIG);
	/* single timing needs a sample per object */
	r = req("kmalloc");
	r.timing = AB_TIMING_SINGLE;
	{
		struct ab_sample few[3];

		r.samples_ptr = (uintptr_t)few;
		r.samples_len = 3; /* 2 trials x 2 objects = 4 */
		assert_int_equal(xioctl(AB_IOC_RUN, &r), EINVAL);
	}
	assert_int_equal(outstanding(), 0);
}

/* Single timing: the samples of a failed trial say which slot failed. */
/*
 * The bulk strategies: one sample per trial in single timing too, holding
 * the call's objects; order-0 pages only; kmem_cache_alloc_bulk() never
 * with IRQs off (it enables them), with preemption off it runs.
 */
void test_bulk(void **state)
{
	static const char *const bulk[] = { "kmem_cache_bulk", "kfree_bulk",
					    "alloc_pages_bulk" };
	struct ab_sample s[4];
	struct ab_run r;
	size_t k;

	for (k = 0; k < 3; k++) {
		r = req(bulk[k]);
		r.batch = 32;
		r.trials = 4;
		r.timing = AB_TIMING_SINGLE;
		r.samples_ptr = (uintptr_t)s;
		r.samples_len = 4; /* one sample per trial */
		assert_int_equal(xioctl(AB_IOC_RUN, &r), 0);
		assert_int_equal(r.objects, 4 * 32);
		assert_int_equal(s[3].nr_objs, 32);
		assert_true(s[3].alloc_cycles > 0 && s[3].free_cycles > 0);
		assert_int_equal(r.node_checked, CHECK_TRIALS(4) * 32);
	}
	r = req("alloc_pages_bulk");
	r.order = 1;
	assert_int_equal(xioctl(AB_IOC_RUN, &r), E2BIG);
	r = req("kmem_cache_bulk");
	r.gfp = AB_GFP_ATOMIC;
	r.context = AB_CTX_IRQ_OFF;
	assert_int_equal(xioctl(AB_IOC_RUN, &r), EINVAL);
	r.context = AB_CTX_PREEMPT_OFF;
	assert_int_equal(xioctl(AB_IOC_RUN, &r),
			 kernel_is_rt() ? EOPNOTSUPP : 0);
	assert_int_equal(outstanding(), 0);
}

void test_single_timing_layout(void **state)
{
	struct ab_run r = req("vmalloc_batch");
	struct ab_sample s[3];

	r.timing = AB_TIMING_SINGLE;
	r.trials = 3;
	r.samples_ptr = (uintptr_t)s;
	r.samples_len = 3; /* one allocation per trial */
	assert_int_equal(xioctl(AB_IOC_RUN, &r), 0);
	assert_int_equal(r.objects, 3);
	assert_int_equal(s[2].nr_objs, 1);
}

/* ---- remote frees ---- */

void test_remote_free(void **state)
{
	uint32_t other = sysconf(_SC_NPROCESSORS_ONLN) > 1 ? 1 : 0;
	struct ab_run r;
	size_t k;

	for (k = 0; k < NR_ALLOCATING; k++) {
		r = req(allocating[k]);
		r.flags = AB_RUN_REMOTE_FREE;
		r.free_cpu = other;
		r.batch = 16;
		run_ok(&r, 1);
		r.timing = AB_TIMING_SINGLE;
		r.free_pattern = AB_FREE_SHUFFLE;
		run_ok(&r, 1);
	}
	r = req("kmalloc");
	r.free_cpu = other ? other : 1;
	assert_int_equal(xioctl(AB_IOC_RUN, &r), EINVAL); /* no flag */
	r = req("kmalloc");
	r.flags = AB_RUN_REMOTE_FREE;
	r.free_cpu = 1U << 20;
	assert_int_equal(xioctl(AB_IOC_RUN, &r), EINVAL); /* no such CPU */
	r = req("kmalloc");
	r.flags = AB_RUN_REMOTE_FREE;
	r.free_pattern = AB_FREE_PAIR;
	assert_int_equal(xioctl(AB_IOC_RUN, &r), EINVAL); /* pairs free here */
	assert_int_equal(outstanding(), 0);
}
