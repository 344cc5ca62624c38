// SPDX-License-Identifier: GPL-2.0
/*
 * run.c - AB_IOC_RUN: every field of struct ab_run validated (the ABI's
 * rules of common/ab_run.h, then the kernel's own facts), the run's bytes
 * reserved against the budget and AB_ATOMIC_MAX_BYTES over all runs in
 * progress, the harness's arrays and the strategy set up, the trials run
 * in the calling thread (driver.c), and the results copied back.
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/kernel.h>
#include <linux/atomic.h>
#include <linux/mm.h>
#include <linux/mmzone.h>
#include <linux/nodemask.h>
#include <linux/topology.h>
#include <linux/cpumask.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/uaccess.h>
#include "ab_internal.h"
#include "ab_run.h"
#include "ab_lookup.h"
#include "ab_nodes.h"

/* Bytes reserved by runs in progress, against ab_max_bytes(). */
static atomic64_t ab_reserved = ATOMIC64_INIT(0);
/*
 * The part of it reserved by runs that may not reclaim (ab_run_no_reclaim(),
 * common/ab_run.h), against AB_ATOMIC_MAX_BYTES over all runs at once: each
 * run is bounded by it alone, and several at once would otherwise hold a
 * multiple of it from the atomic reserves.
 */
static atomic64_t ab_atomic_reserved = ATOMIC64_INIT(0);

static const gfp_t ab_gfp_masks[AB_GFP_NR] = {
	[AB_GFP_KERNEL] = GFP_KERNEL,
	[AB_GFP_ATOMIC] = GFP_ATOMIC,
	[AB_GFP_NOWAIT] = GFP_NOWAIT,
	[AB_GFP_KERNEL_ZERO] = GFP_KERNEL | __GFP_ZERO,
	[AB_GFP_NORETRY] = GFP_KERNEL | __GFP_NORETRY,
	[AB_GFP_RETRY_MAYFAIL] = GFP_KERNEL | __GFP_RETRY_MAYFAIL,
	[AB_GFP_THP] = GFP_TRANSHUGE & ~__GFP_HIGHMEM,
	[AB_GFP_NORECLAIM] = GFP_KERNEL & ~__GFP_RECLAIM,
	[AB_GFP_KERNEL_ACCOUNT] = GFP_KERNEL_ACCOUNT,
};

/*
 * Checks every input field of @r and fills @ctx. The rules of the ABI are
 * common/ab_run.h's ab_run_check(), which the CLI and the user backend
 * apply too; here are the kernel's own facts on top: the free CPU online,
 * the node with memory. Returns the bytes the run holds, counted as the
 * allocators really use them (the budget_bytes of ab_run_footprint(), the
 * rule of common/ab_footprint.h, which ab_run_check() bounds by the
 * budget), or
 * -errno: -EINVAL, -E2BIG (*@limit: the AB_LIMIT_* above which it is),
 * or -EOPNOTSUPP for an otherwise valid run with preemption or IRQs off
 * around allocations on PREEMPT_RT, where spinlocks are sleeping locks:
 * the allocators (and kfree()) may then sleep inside the section ("BUG:
 * scheduling while atomic"); the scheduler then resets the preemption
 * count, so the section's end leaves it at -1 and the task returns to user
 * space atomic, where its next page fault cannot be handled (SIGSEGV).
 */
static s64 ab_validate_run(const struct ab_run *r, struct ab_ctx *ctx,
			   u32 *limit)
{
	const struct ab_strategy *s;
	struct ab_strategy_info si;
	struct ab_info info = {};
	struct ab_footprint fp;
	struct ab_refusal no;
	u64 obj_bytes;
	int err;

	if (r->strategy >= ab_nr_strategies)
		return -EINVAL;
	s = &ab_strategies[r->strategy];
	ab_strategy_info(r->strategy, &si);
	ab_limits(&info);
	/*
	 * The ABI's rules, the budget and the objects that can never be
	 * allocated among them, from this module's own table and limits: the
	 * same function the CLI applies, never its word for it. It computes
	 * what the run holds at once, its objects and the harness's arrays,
	 * once, into @fp, which sets the run up below.
	 */
	err = ab_run_check_req(r, &info, &si, &fp, &no);
	*limit = no.limit;
	if (err)
		return err;
	if ((r->flags & AB_RUN_REMOTE_FREE) &&
	    (r->free_cpu >= nr_cpu_ids || !cpu_online(r->free_cpu)))
		return -EINVAL;
	if (r->node != NUMA_NO_NODE && !node_state(r->node, N_MEMORY))
		return -EINVAL;

	obj_bytes = s->params & (AB_PARAM_SIZE | AB_PARAM_ORDER) ?
		    fp.obj_bytes : 0;

	ctx->strategy = s;
	ctx->run = r;
	ctx->held = fp.held_bytes;
	ctx->loop.nr = fp.objs_held;
	ctx->size = s->one_object ? obj_bytes * r->batch : obj_bytes;
	ctx->page_order = r->order;
	ctx->node = r->node;
	ctx->gfp = ab_gfp_masks[r->gfp] | __GFP_NOWARN;
	ctx->self = ctx;
	ctx->nomerge = r->flags & (AB_RUN_NOMERGE | AB_RUN_SHEAVES);
	ctx->sheaves = r->flags & AB_RUN_SHEAVES;
	ctx->sheaf_capacity = r->sheaf_capacity;
	ctx->write = r->flags & AB_RUN_WRITE;
	ctx->loop.mark_disturbed = r->flags & AB_RUN_MARK_DISTURBED;
	ctx->loop.vpmu = r->flags & AB_RUN_VPMU;
	ctx->loop.single = r->timing == AB_TIMING_SINGLE;
	ctx->loop.pair = r->free_pattern == AB_FREE_PAIR;
	ctx->loop.per_trial = s->flags & AB_STRATEGY_PER_TRIAL;
	ctx->lookup_method = r->lookup_method;
	ctx->table = ab_class_table(r->lookup_table);
	return fp.budget_bytes;
}

/*
 * Names in the caller's ab_run.limit the limit (AB_LIMIT_*) a run was
 * refused for: that field alone. A struct it cannot write (read-only, or
 * gone) keeps the refusal's own errno, as the uapi header says.
 */
static void ab_put_limit(void __user *uarg, u32 limit)
{
	struct ab_run __user *ur = uarg;

	if (put_user(limit, &ur->limit))
		pr_debug("refused run: its limit %u not written back\n", limit);
}

/* -EBUSY: what the other runs held under the limit, if @usize covers it */
static void ab_put_others(void __user *uarg, long usize, s64 others)
{
	struct ab_run __user *ur = uarg;

	if (usize >= AB_RUN_SIZE_VER4 &&
	    put_user((u64)max_t(s64, others, 0), &ur->limit_others))
		pr_debug("refused run: the others' share not written back\n");
}

/*
 * The harness's arrays of the run (counted in the budget,
 * ab_harness_bytes()): the objects of a trial, their free order and, in
 * single timing, their samples; -ENOMEM if one is missing (then
 * ab_free_arrays() frees the others). They are charged to the caller's
 * memory cgroup (__GFP_ACCOUNT). The timed objects are not, unless the
 * run asks (AB_GFP_KERNEL_ACCOUNT, or kmem_cache_account's SLAB_ACCOUNT
 * cache, AB_STRATEGY_ACCOUNT): charging adds
 * the memcg hooks to every timed allocation and free (mm/memcontrol.c,
 * obj_cgroup_charge()) that plain kmalloc() users do not pay, and
 * SLAB_ACCOUNT caches merge only with accounted ones (SLAB_MERGE_SAME,
 * mm/slab_common.c), which would change what is measured; the budget
 * bounds them.
 */
static int ab_alloc_arrays(struct ab_loop *l)
{
	l->objs = kvcalloc(l->nr, sizeof(void *), GFP_KERNEL_ACCOUNT);
	l->free_order = kvcalloc(l->nr, sizeof(u32), GFP_KERNEL_ACCOUNT);
	if (l->single)
		l->smp = kvcalloc(l->nr, sizeof(*l->smp), GFP_KERNEL_ACCOUNT);
	if (!l->objs || !l->free_order || (l->single && !l->smp))
		return -ENOMEM;
	return 0;
}

static void ab_free_arrays(struct ab_loop *l)
{
	kvfree(l->smp);
	kvfree(l->free_order);
	kvfree(l->objs);
}

/**
 * ab_ioctl_run - AB_IOC_RUN
 * @f:    the open file's state: with AB_RUN_KEEP_CACHE the run's private
 *        kmem_cache is kept in @f->kept (strategies.c, ab_cache_keep());
 *        the caches this thread's earlier runs on @f kept go first
 * @uarg: the user's struct ab_run
 *
 * Return: 0, or -errno as include/uapi/linux/allocbench.h says.
 */
long ab_ioctl_run(struct ab_file *f, void __user *uarg)
{
	const struct ab_strategy *s;
	struct ab_ctx ctx = {};
	struct ab_run r;
	long usize, ret;
	s64 bytes, atomic_bytes, all_bytes, all_atomic;
	bool over_budget, over_atomic;
	u32 limit = AB_LIMIT_NONE;

	ab_caches_release(&f->kept, false);
	usize = ab_copy_in(&r, sizeof(r), AB_RUN_SIZE_VER0, uarg);
	if (usize < 0)
		return usize;
	bytes = ab_validate_run(&r, &ctx, &limit);
	if (bytes < 0) {
		if (limit != AB_LIMIT_NONE)
			ab_put_limit(uarg, limit);
		return bytes;
	}
	if (r.samples_ptr &&
	    (r.samples_len > U64_MAX / sizeof(struct ab_sample) ||
	     !access_ok(u64_to_user_ptr(r.samples_ptr),
			r.samples_len * sizeof(struct ab_sample))))
		return -EFAULT;
	s = &ab_strategies[r.strategy];
	if ((r.flags & AB_RUN_COND_EACH_TRIAL) && !ab_cond_held(f))
		return -ENOENT;

	/* Outputs: whatever the caller left there is overwritten. */
	r.trials_done = 0;
	r.objects = 0;
	r.failed = 0;
	r.node_hits = 0;
	r.node_checked = 0;
	r.cache_merged = AB_MERGED_NA;
	r.switches = 0;
	r.migrations = 0;
	r.disturbed = 0;
	r.free_elsewhere = 0;
	r.limit = AB_LIMIT_NONE;
	r.mem_objects = 0;
	r.mem_free_bytes = 0;
	r.mem_slab_bytes = 0;
	r.mem_pagetable_bytes = 0;
	r.mem_trials = 0;
	r.out_reserved2 = 0;
	r.mem_free_min = 0;
	r.mem_free_max = 0;
	r.limit_others = 0;
	r.drain_cycles = 0;
	r.drain_max_cycles = 0;
	r.drain_late = 0;
	r.out_reserved5 = 0;
	r.cond_unmet = 0;
	r.cond_max_order = -1;
	r.cond_restored_pages = 0;
	r.pool_from_reserve = 0;
	r.pool_reserve_unmet = 0;
	memset(r.cache_name, 0, sizeof(r.cache_name));
	ab_nodes_clear(&r);
	memset(r.map_pages, 0, sizeof(r.map_pages));
	r.map_areas = 0;
	r.tsc_khz = ab_tsc_khz();
	r.clock_cycles = ab_clock_pair();

	/* the objects only: the arrays are GFP_KERNEL, outside the phases */
	atomic_bytes = ab_run_no_reclaim(&r, s->params) ? ctx.held : 0;
	/*
	 * both added before either is tested: unreserve takes both back;
	 * the refusal names one limit, the budget first (uapi AB_LIMIT_*)
	 */
	all_bytes = atomic64_add_return(bytes, &ab_reserved);
	all_atomic = atomic64_add_return(atomic_bytes, &ab_atomic_reserved);
	over_budget = all_bytes > ab_max_bytes();
	over_atomic = all_atomic > AB_ATOMIC_MAX_BYTES;
	if (over_budget || over_atomic) {
		ab_put_limit(uarg, over_budget ? AB_LIMIT_BUDGET :
						 AB_LIMIT_ATOMIC);
		ab_put_others(uarg, usize,
			      over_budget ? all_bytes - bytes :
					    all_atomic - atomic_bytes);
		ret = -EBUSY;
		goto unreserve;
	}
	ret = ab_alloc_arrays(&ctx.loop);
	if (ret)
		goto free_objs;
	ctx.file = f;
	/*
	 * setup_allocates: the kernel's own allocations warn when they fail
	 * (6.12-rt: kmem_buckets_create() under fragmented+pressure WARNed
	 * at mm/slab_common.c:465); the restore before each trial takes the
	 * pages given back again
	 */
	if (s->setup_allocates && (r.flags & AB_RUN_COND_EACH_TRIAL))
		ab_cond_give_back_all(f);
	if (s->setup) {
		ret = s->setup(&ctx);
		if (ret)
			goto free_objs;
	}

	ctx.cond_max_order = -1;
	r.cpu_start = raw_smp_processor_id();
	/* without a node: where the objects were, found by the check */
	r.target_node = r.node;
	ret = ab_drv_run(&ctx, &r);
	r.cpu_end = raw_smp_processor_id();
	r.cond_max_order = ctx.cond_max_order;
	r.cond_restored_pages = ctx.cond_pages;
	/* teardown has the last word on the cache (AB_MERGED_LATER) */
	if (r.flags & AB_RUN_KEEP_CACHE)
		ctx.keep = &f->kept;
	if (s->teardown)
		s->teardown(&ctx);
	r.cache_merged = ctx.cache_merged;
	memcpy(r.cache_name, ctx.cache_name, sizeof(r.cache_name));
free_objs:
	ab_free_arrays(&ctx.loop);
unreserve:
	atomic64_sub(bytes, &ab_reserved);
	atomic64_sub(atomic_bytes, &ab_atomic_reserved);
	if (ret == 0 || ret == -EINTR) {
		if (ab_copy_out(uarg, &r, sizeof(r), usize))
			ret = -EFAULT;
	}
	return ret;
}
