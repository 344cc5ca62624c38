// SPDX-License-Identifier: GPL-2.0-only
/*
 * ioctl_limits.c - the module's limits: the budget parameter
 * (max_outstanding_mb, capped at RAM), the phase cap, EBUSY naming the
 * limit others hold, the atomic and IRQ-off caps, the budget counted as
 * the allocators use memory by the one rule the CLI applies too
 * (common/ab_run.h), and kvmalloc runs that could never allocate.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cmocka.h>
#include "ab_run.h"
#include "ab_testlib.h"
#include "ioctl_suite.h"

/* The budget may be raised up to the size of RAM, not above. */
void test_param_capped_at_ram(void **state)
{
	char v[32];

	snprintf(v, sizeof(v), "%llu", (unsigned long long)ram_mb() + 1);
	assert_int_equal(set_param(v), EINVAL);
	assert_int_equal(set_param("4294967295"), EINVAL);
	assert_int_equal(set_param("junk"), EINVAL);
	snprintf(v, sizeof(v), "%llu", (unsigned long long)ram_mb());
	assert_int_equal(set_param(v), 0);
	assert_int_equal(set_param("0"), 0);
}

/*
 * Issue 16, part 5a: no phase allocates more than AB_PHASE_MAX_BYTES, whatever
 * the budget (a phase is not rescheduled: 512 MiB zeroed is well under the
 * soft-lockup and RCU-stall timeouts). The guest's default budget (a
 * quarter of RAM) is below it, so the budget is raised for the test: a
 * request inside the budget but above the cap is refused (E2BIG) with
 * nothing allocated, and no strategy reports a largest object above it.
 */
void test_phase_cap(void **state)
{
	struct ab_strategy_info si[64];
	struct ab_info i;
	uint64_t want_mb = (AB_PHASE_MAX_BYTES >> 20) + 128;
	struct ab_run r;
	char v[32];
	unsigned int k;

	if (ram_mb() < want_mb + 64) {
		print_message(
			"# test_phase_cap: %llu MiB of RAM, too little to raise the budget above AB_PHASE_MAX_BYTES\n",
			(unsigned long long)ram_mb());
		return;
	}
	snprintf(v, sizeof(v), "%llu", (unsigned long long)want_mb);
	assert_int_equal(set_param(v), 0);
	assert_int_equal(ab_info_load(fd, &i, si, 64), 0);
	assert_true(i.max_bytes > AB_PHASE_MAX_BYTES);
	for (k = 0; k < i.nr_strategies && k < 64; k++)
		assert_true(si[k].max_size <= AB_PHASE_MAX_BYTES);
	/* 16 KiB kmallocs: 512 MiB + 16 KiB in one phase (within max_batch) */
	r = req("kmalloc");
	r.obj_size = 16384;
	r.batch = (uint32_t)(AB_PHASE_MAX_BYTES / 16384) + 1;
	r.trials = 1;
	assert_true(r.batch <= i.max_batch);
	assert_true((uint64_t)r.batch * 16384 <= i.max_bytes);
	assert_int_equal(xioctl(AB_IOC_RUN, &r), E2BIG);
	assert_int_equal(r.limit, AB_LIMIT_PHASE);
	r = req("vmalloc_batch");
	r.obj_size = AB_PHASE_MAX_BYTES;
	r.batch = 1;
	assert_int_equal(xioctl(AB_IOC_RUN, &r), E2BIG);
	/* above its largest object, which the phase cap bounds */
	assert_int_equal(r.limit, AB_LIMIT_OBJECT);
	assert_int_equal(set_param("0"), 0);
	assert_int_equal(outstanding(), 0);
}

/*
 * Runs @c in a forked child until a signal ends it, asking again while
 * another run's admission refuses it (EBUSY): the child exits 0 when the
 * run ended in EINTR. Returns the child's pid.
 */
static pid_t run_in_child(struct ab_run c)
{
	pid_t pid = fork();
	int ret;

	assert_true(pid >= 0);
	if (pid)
		return pid;
	do {
		struct ab_run t = c;

		ret = ioctl(fd, AB_IOC_RUN, &t);
		if (ret && errno == EBUSY)
			usleep(1000);
	} while (ret && errno == EBUSY);
	_exit(ret && errno == EINTR ? 0 : 1);
}

/*
 * Asks for @r (one trial) until it is refused with EBUSY, for up to 10 s:
 * the child's run is then admitted and holds its share of the limits.
 * Readiness is the admission itself, not ab_info.outstanding, which is
 * above 0 only between a trial's alloc phase and its free phase (a window
 * that 1 MiB objects make short). Returns the last error, 0 if never
 * refused.
 */
static int ask_until_busy(struct ab_run *r)
{
	struct ab_run t;
	int k, err = 0;

	for (k = 0; k < 1000; k++) {
		t = *r;
		err = xioctl(AB_IOC_RUN, &t);
		if (err != 0)
			break;
		usleep(10000);
	}
	*r = t;
	return err;
}

/*
 * Issue 21: two GFP_KERNEL runs of 5 MiB each under a budget of 8 MiB, at
 * once: the second is refused with EBUSY naming the budget alone
 * (ab_run.limit), not "the budget or the atomic limit".
 */
void test_budget_busy_names_it(void **state)
{
	struct ab_run r;
	pid_t pid;
	int st, err;

	assert_int_equal(set_param("8"), 0);
	r = req("kmalloc");
	r.obj_size = 1 << 20;
	r.batch = 5;
	r.trials = (uint32_t)info.max_trials;
	pid = run_in_child(r);
	r.trials = 1;
	err = ask_until_busy(&r);
	/* the other run ended and the budget restored before any verdict */
	assert_int_equal(kill(pid, SIGINT), 0);
	assert_int_equal(waitpid(pid, &st, 0), pid);
	assert_true(WIFSIGNALED(st) || WIFEXITED(st));
	assert_int_equal(set_param("0"), 0);
	assert_int_equal(err, EBUSY);
	assert_int_equal(r.limit, AB_LIMIT_BUDGET);
	/* and what the other run held of it: its 5 MiB of objects and its
	 * arrays, within the 8 MiB it was admitted under */
	assert_in_range(r.limit_others, 5 << 20, 8 << 20);
	assert_int_equal(outstanding(), 0);
	run_ok(&r, 1);
	assert_int_equal(r.limit, AB_LIMIT_NONE);
}

/*
 * Part 5b: AB_ATOMIC_MAX_BYTES bounds a trial whenever the GFP choice may
 * not reclaim (atomic, nowait), in process context too, and the atomic
 * bytes of all runs in progress together (EBUSY for the one that would
 * pass it); GFP_KERNEL is bounded by the budget alone.
 */
void test_atomic_gfp_capped(void **state)
{
	uint32_t mib = (uint32_t)(AB_ATOMIC_MAX_BYTES >> 20);
	uint32_t gfp, half = mib / 2 + 8;
	struct ab_run r;
	pid_t pid;
	int st, err;

	if ((uint64_t)(mib + 1) << 20 > info.max_bytes) {
		print_message(
			"# test_atomic_gfp_capped: budget below AB_ATOMIC_MAX_BYTES\n");
		return;
	}
	for (gfp = AB_GFP_ATOMIC; gfp <= AB_GFP_NOWAIT; gfp++) {
		r = req("kmalloc");
		r.gfp = gfp;
		r.obj_size = 1 << 20;
		r.batch = mib + 1;
		assert_int_equal(xioctl(AB_IOC_RUN, &r), E2BIG);
		assert_int_equal(r.limit, AB_LIMIT_ATOMIC);
		r = req("alloc_pages_node");
		r.gfp = gfp;
		r.order = 8; /* 1 MiB blocks */
		r.batch = mib + 1;
		assert_int_equal(xioctl(AB_IOC_RUN, &r), E2BIG);
		assert_int_equal(r.limit, AB_LIMIT_ATOMIC);
	}
	r = req("kmalloc");
	r.obj_size = 1 << 20;
	r.batch = mib + 1;
	r.trials = 1;
	run_ok(&r, 1); /* GFP_KERNEL: the budget alone */
	if ((uint64_t)2 * half << 20 > info.max_bytes || kernel_is_rt()) {
		print_message(
			"# test_atomic_gfp_capped: no room for two atomic runs\n");
		return;
	}
	/* two atomic runs of more than half the limit each: not at once */
	r = req("kmalloc");
	r.gfp = AB_GFP_ATOMIC;
	r.obj_size = 1 << 20;
	r.batch = half;
	r.trials = (uint32_t)info.max_trials;
	pid = run_in_child(r);
	r.trials = 1;
	err = ask_until_busy(&r);
	/* the one limit it is above: the atomic one, not the budget */
	if (err != EBUSY || r.limit != AB_LIMIT_ATOMIC ||
	    r.limit_others != (uint64_t)half << 20)
		kill(pid, SIGKILL); /* no run left behind a failure */
	assert_int_equal(err, EBUSY);
	assert_int_equal(r.limit, AB_LIMIT_ATOMIC);
	/* the other run's atomic objects, exactly: half MiB of 1 MiB */
	assert_int_equal(r.limit_others, (uint64_t)half << 20);
	r.gfp = AB_GFP_KERNEL;
	r.trials = 1;
	run_ok(&r, 1); /* not atomic: the budget has room */
	assert_int_equal(kill(pid, SIGINT), 0);
	assert_int_equal(waitpid(pid, &st, 0), pid);
	assert_true(WIFSIGNALED(st) || WIFEXITED(st));
	assert_int_equal(outstanding(), 0);
	/* and once it is gone, the same atomic run goes */
	r.gfp = AB_GFP_ATOMIC;
	run_ok(&r, 1);
}

/*
 * Part 5c: with IRQs off a phase takes at most AB_IRQ_OFF_MAX_OBJS objects
 * and AB_IRQ_OFF_MAX_BYTES bytes; at the limits it runs. The longest alloc
 * phase at the limit is printed as a figure (not asserted: no timed
 * assertions).
 */
void test_irq_off_bounded(void **state)
{
	struct ab_sample smp[64];
	uint64_t most = 0;
	struct ab_run r;
	int k, over = 0;

	if (kernel_is_rt()) {
		print_message(
			"# PREEMPT_RT: no IRQ-off runs (test_rt_refuses_atomic_contexts)\n");
		return;
	}
	r = req("kmalloc");
	r.gfp = AB_GFP_ATOMIC;
	r.context = AB_CTX_IRQ_OFF;
	r.batch = AB_IRQ_OFF_MAX_OBJS + 1;
	assert_int_equal(xioctl(AB_IOC_RUN, &r), E2BIG);
	r.obj_size = 8192;
	r.batch = (uint32_t)(AB_IRQ_OFF_MAX_BYTES / 8192) + 1;
	assert_int_equal(xioctl(AB_IOC_RUN, &r), E2BIG);
	r = req("get_free_pages");
	r.gfp = AB_GFP_NOWAIT;
	r.context = AB_CTX_IRQ_OFF;
	r.order = 8; /* 1 MiB */
	r.batch = 1;
	assert_int_equal(xioctl(AB_IOC_RUN, &r), E2BIG);
	/* preemption off is bounded by AB_ATOMIC_MAX_BYTES only */
	r.context = AB_CTX_PREEMPT_OFF;
	run_ok(&r, 1);
	/* at the limits it runs: 128 x 4096 bytes = 512 KiB */
	r = req("kmalloc");
	r.gfp = AB_GFP_ATOMIC;
	r.context = AB_CTX_IRQ_OFF;
	r.obj_size = AB_IRQ_OFF_MAX_BYTES / AB_IRQ_OFF_MAX_OBJS;
	r.batch = AB_IRQ_OFF_MAX_OBJS;
	r.trials = 64;
	r.flags = AB_RUN_WRITE;
	r.samples_ptr = (uintptr_t)smp;
	r.samples_len = 64;
	assert_int_equal(xioctl(AB_IOC_RUN, &r), 0);
	for (k = 0; k < 64; k++) {
		if (smp[k].alloc_cycles > most)
			most = smp[k].alloc_cycles;
		if (smp[k].alloc_cycles > 1000ULL * r.tsc_khz / 10)
			over++; /* above 100 us */
	}
	if (r.tsc_khz)
		print_message(
			"# figure: IRQs off, %u kmalloc(%llu, GFP_ATOMIC) + write: of 64 alloc phases %d above 100 us, the longest %.1f us\n",
			r.batch, (unsigned long long)r.obj_size, over,
			(double)most * 1000.0 / r.tsc_khz);
	assert_int_equal(outstanding(), 0);
}

/*
 * Memory is counted as the allocator uses it: a 1-byte vmalloc takes a
 * page, so 2^20 of them are far above the budget even though 2^20 bytes
 * are not; sizes whose product would overflow are refused, not wrapped.
 */
void test_budget_counts_real_footprint(void **state)
{
	struct ab_run r = req("vmalloc_node");

	r.obj_size = 1;
	r.batch = (uint32_t)info.max_batch;
	assert_int_equal(xioctl(AB_IOC_RUN, &r), E2BIG);
	r = req("vmalloc_batch");
	r.obj_size = 1ULL << 44;
	r.batch = (uint32_t)info.max_batch;
	assert_int_equal(xioctl(AB_IOC_RUN, &r), E2BIG);
	r = req("kmalloc");
	r.obj_size = (2ULL << 20) + 1; /* takes a 4 MiB block */
	r.batch = (uint32_t)(info.max_bytes / (3ULL << 20));
	assert_int_equal(xioctl(AB_IOC_RUN, &r), E2BIG);
	assert_int_equal(outstanding(), 0);
}

/*
 * Issue 13, item 10: the module and the CLI apply one rule for the budget,
 * ab_run_held_bytes() of common/ab_run.h: for each kind of allocator the
 * largest batch the rule lets in runs, one more is refused (E2BIG). The
 * issue's inputs among them (vmalloc_node of 1 byte, kmalloc of 3 MiB).
 */
void test_budget_one_rule(void **state)
{
	static const struct {
		const char *name;
		uint64_t size;
	} c[] = {
		{ "vmalloc_node", 1 },
		{ "kmalloc", 3 << 20 },
		{ "kmalloc", 97 },
		{ "vmalloc_node", 65537 },
		{ "kvmalloc_node", 5 << 20 },
		{ "kvmalloc_node", 100 },
		{ "kmem_cache", 13 },
		/* issue 16, 5d: 10 to a 32 KiB slab, counted whole */
		{ "kmem_cache", 3000 },
		{ "vmalloc_batch", 3 << 20 },
	};
	size_t k;

	for (k = 0; k < sizeof(c) / sizeof(c[0]); k++) {
		const struct ab_strategy_info *s = find(c[k].name);
		struct ab_run r = req(c[k].name);
		uint64_t each, max;

		r.obj_size = c[k].size;
		r.batch = 1;
		r.trials = 1;
		each = ab_run_held_bytes(&r, &info, s);
		assert_true(each >= c[k].size);
		/*
		 * the batch that fits, objects and the harness's arrays
		 * (ab_run_budget_bytes(), which grows with the batch)
		 */
		{
			uint64_t lo = 0, hi = info.max_batch, mid;

			while (lo < hi) {
				mid = hi - (hi - lo) / 2;
				r.batch = (uint32_t)mid;
				if (ab_run_budget_bytes(&r, &info, s) <=
				    info.max_bytes)
					lo = mid;
				else
					hi = mid - 1;
			}
			max = lo;
		}
		if (!max || max >= info.max_batch)
			continue;
		r.batch = (uint32_t)max;
		if (xioctl(AB_IOC_RUN, &r))
			fail_msg(
				"%s size %llu batch %u: refused (%s) within the budget",
				c[k].name, (unsigned long long)c[k].size,
				r.batch, strerror(errno));
		r.batch = (uint32_t)max + 1;
		assert_int_equal(xioctl(AB_IOC_RUN, &r), E2BIG);
	}
	assert_int_equal(outstanding(), 0);
}

/*
 * Issue 13, item 11: a kvmalloc_node whose GFP flags may not block has no
 * vmalloc fallback, so above KMALLOC_MAX_SIZE it can never allocate: such
 * a run is refused (EINVAL), the largest kmalloc itself is not, nor the
 * same size with GFP_KERNEL.
 */
void test_never_allocates_refused(void **state)
{
	struct ab_run r = req("kvmalloc_node");
	uint32_t gfp;

	for (gfp = AB_GFP_ATOMIC; gfp <= AB_GFP_NOWAIT; gfp++) {
		r = req("kvmalloc_node");
		r.gfp = gfp;
		r.batch = 1;
		r.obj_size = info.kmalloc_max_size + 1;
		assert_int_equal(xioctl(AB_IOC_RUN, &r), EINVAL);
		r.obj_size = 5 << 20; /* the input */
		if (r.obj_size > info.kmalloc_max_size)
			assert_int_equal(xioctl(AB_IOC_RUN, &r), EINVAL);
		r.obj_size = info.kmalloc_max_size;
		if (ab_run_held_bytes(&r, &info, find("kvmalloc_node")) <=
		    info.max_bytes)
			assert_int_equal(xioctl(AB_IOC_RUN, &r), 0);
	}
	r = req("kvmalloc_node");
	r.batch = 1;
	r.obj_size = info.kmalloc_max_size + 1;
	assert_int_equal(xioctl(AB_IOC_RUN, &r), 0);
	assert_int_equal(outstanding(), 0);
}

/*
 * Issue 43: ab_info.cma_pages is the kernel's CMA pages as /proc/meminfo's
 * CmaTotal counts them (0 without CONFIG_CMA or an area), and a cma run
 * whose objects held at once are above it is refused (E2BIG, limit
 * AB_LIMIT_CMA) with nothing allocated; it ran and every allocation
 * failed before. One that fits is not refused.
 */
void test_cma_area_cap(void **state)
{
	const struct ab_strategy_info *s;
	long kb = ab_meminfo_kb("CmaTotal");
	uint64_t blocks;
	struct ab_run r;
	uint32_t order;

	assert_int_equal(info.cma_pages * info.page_size / 1024,
			 kb > 0 ? (uint64_t)kb : 0);
	s = ab_strategy_named(strat, info.nr_strategies, "cma");
	if (!s || (s->flags & AB_STRATEGY_UNAVAILABLE)) {
		print_message("# test_cma_area_cap: no cma strategy here\n");
		return;
	}
	assert_true(info.cma_pages > 0);
	/* the smallest order whose blocks one batch can hold past the area */
	for (order = 0; order < s->max_order &&
			(info.cma_pages >> order) + 1 > info.max_batch;
	     order++)
		;
	blocks = (info.cma_pages >> order) + 1;
	r = req("cma");
	r.order = order;
	r.batch = (uint32_t)blocks;
	r.trials = 1;
	assert_true(r.batch <= info.max_batch);
	assert_true((blocks << order) * info.page_size <= info.max_bytes);
	assert_int_equal(xioctl(AB_IOC_RUN, &r), E2BIG);
	assert_int_equal(r.limit, AB_LIMIT_CMA);
	assert_int_equal(r.trials_done, 0);
	/* one page: not refused */
	r = req("cma");
	r.order = 0;
	r.batch = 1;
	r.trials = 1;
	assert_int_equal(xioctl(AB_IOC_RUN, &r), 0);
	assert_int_equal(r.limit, AB_LIMIT_NONE);
	assert_int_equal(outstanding(), 0);
}
