// SPDX-License-Identifier: GPL-2.0
/*
 * allocbench_main.c - /dev/allocbench: the ioctl front end of allocbench.ko
 *
 * AB_IOC_INFO reports the ABI version, the limits and the strategy table.
 * AB_IOC_RUN validates every field of struct ab_run, then runs the strategy
 * in the calling thread: warm-up trials, then measured trials, each an alloc
 * phase and a free phase timed with get_cycles(). Between the phases the node
 * of every object is checked (untimed). Every object allocated in a trial is
 * freed in the same trial, on every path; ab_outstanding counts the objects
 * held between the two phases and is 0 whenever no run is active.
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/module.h>
#include <linux/miscdevice.h>
#include <linux/fs.h>
#include <linux/uaccess.h>
#include <linux/slab.h>
#include <linux/mm.h>
#include <linux/sched.h>
#include <linux/sched/signal.h>
#include <linux/nodemask.h>
#include <linux/topology.h>
#include <linux/atomic.h>
#include <linux/log2.h>
#include <linux/preempt.h>
#include <linux/irqflags.h>
#include <linux/workqueue.h>
#include <linux/cpumask.h>
#include <linux/vmalloc.h>
#include <linux/vmstat.h>
#include <linux/mmzone.h>
#include <linux/capability.h>
#ifdef CONFIG_X86
#include <asm/tsc.h>
#endif
#include "ab_internal.h"
#include "ab_free_order.h"
#include "ab_run.h"
#include "ab_lookup.h"

static unsigned int max_outstanding_mb;

/* max_outstanding_mb accepts 0 (the default) up to the size of RAM. */
static int ab_set_max_mb(const char *val, const struct kernel_param *kp)
{
	unsigned int mb;
	int err = kstrtouint(val, 0, &mb);

	if (err)
		return err;
	if ((u64)mb << 20 > (u64)totalram_pages() << PAGE_SHIFT)
		return -EINVAL;
	*(unsigned int *)kp->arg = mb;
	return 0;
}

static const struct kernel_param_ops ab_max_mb_ops = {
	.set = ab_set_max_mb,
	.get = param_get_uint,
};

module_param_cb(max_outstanding_mb, &ab_max_mb_ops, &max_outstanding_mb,
		0644);
MODULE_PARM_DESC(max_outstanding_mb,
		 "Largest memory held at once over all runs, in MiB, at most RAM (0: a quarter of RAM)");

/* Objects allocated by runs in progress and not yet freed. */
static atomic_long_t ab_outstanding = ATOMIC_LONG_INIT(0);
/* Bytes reserved by runs in progress, against ab_max_bytes(). */
static atomic64_t ab_reserved = ATOMIC64_INIT(0);
/*
 * The part of it reserved by runs that may not reclaim (ab_run_no_reclaim(),
 * common/ab_run.h), against AB_ATOMIC_MAX_BYTES over all runs at once: each
 * run is bounded by it alone, and several at once would otherwise hold a
 * multiple of it from the atomic reserves.
 */
static atomic64_t ab_atomic_reserved = ATOMIC64_INIT(0);

/*
 * The remote frees (AB_RUN_REMOTE_FREE) run on this workqueue, created at
 * load, rather than on a shared system one: flushing our own work items never
 * waits behind others', and destroy_workqueue() at unload checks that none is
 * left. Per-CPU (not WQ_UNBOUND), as queue_work_on() must run the free on
 * the CPU asked for; WQ_HIGHPRI, as the free phase ran before on
 * system_highpri_wq (kernel/workqueue.c: the CPU's nice -20 worker pool),
 * so a normal-priority task on that CPU does not delay or preempt the
 * timed free more than it did. No WQ_MEM_RECLAIM: the caller waits for
 * each item, and a free needs no rescuer to make progress.
 */
static struct workqueue_struct *ab_free_wq;

static u64 ab_max_bytes(void)
{
	if (max_outstanding_mb)
		return (u64)max_outstanding_mb << 20;
	return ((u64)totalram_pages() << PAGE_SHIFT) / 4;
}

/*
 * The AB_STRATEGY_MEM_* kind of @s (how common/ab_footprint.h counts its
 * objects against the budget) and AB_STRATEGY_ONE_OBJECT, for
 * ab_strategy_info.flags.
 */
static u32 ab_mem_flags(const struct ab_strategy *s)
{
	static const u32 kind[] = {
		[AB_MEM_EXACT] = AB_STRATEGY_MEM_EXACT,
		[AB_MEM_KMALLOC] = AB_STRATEGY_MEM_KMALLOC,
		[AB_MEM_CACHE] = AB_STRATEGY_MEM_CACHE,
		[AB_MEM_VMALLOC] = AB_STRATEGY_MEM_VMALLOC,
		[AB_MEM_KVMALLOC] = AB_STRATEGY_MEM_KVMALLOC,
	};

	return kind[s->mem] | (s->one_object ? AB_STRATEGY_ONE_OBJECT : 0);
}

/*
 * Largest bytes per object for @s: its own cap, and no larger than what
 * fits the budget (with the harness's arrays for it) and
 * AB_PHASE_MAX_BYTES once counted as common/ab_footprint.h counts it (with
 * GFP_KERNEL, which counts a kvmalloc's vmalloc fallback too). The
 * footprint grows with the size, so a binary search finds it.
 */
static u64 ab_strategy_max_size(const struct ab_strategy *s)
{
	u32 flags = ab_mem_flags(s);
	u64 max = min_t(u64, ab_max_bytes(), AB_PHASE_MAX_BYTES);
	u64 lo = 0, hi, mid, harness;

	if (!(s->params & AB_PARAM_SIZE))
		return 0;
	/* one object's arrays, single timing (the most of them) */
	harness = ab_harness_bytes(1, true, s->flags & AB_STRATEGY_PER_TRIAL,
				   PAGE_SIZE);
	hi = min_t(u64, s->max_size, max);
	while (lo < hi) {
		mid = hi - (hi - lo) / 2;
		if (ab_add_sat(ab_obj_footprint(flags, mid, AB_GFP_KERNEL,
						PAGE_SIZE, KMALLOC_MAX_SIZE),
			       harness) <= max)
			lo = mid;
		else
			hi = mid - 1;
	}
	return lo;
}

/*
 * The footprint rule of common/ab_footprint.h against the kernel it runs
 * in: kmalloc_size_roundup() of every size up to KMALLOC_MAX_CACHE_SIZE
 * and of each page order's edges up to KMALLOC_MAX_SIZE (SLUB and SLAB;
 * SLOB rounds otherwise and is left unchecked). Returns 0, or the first
 * size where they differ.
 */
static u64 ab_footprint_selfcheck(void)
{
	u64 size, fp;
	unsigned int order;

	/* the constants ab_footprint.h takes from x86_64 */
	BUILD_BUG_ON(sizeof(struct page *) != AB_PAGE_PTR_BYTES);
	BUILD_BUG_ON(sizeof(struct vm_struct) > AB_VMALLOC_META_BYTES / 2 ||
		     sizeof(struct vmap_area) > AB_VMALLOC_META_BYTES / 2);
#ifdef PMD_SIZE
	if (ab_huge_vmap_bytes(PAGE_SIZE) != PMD_SIZE)
		return PMD_SIZE;
#endif
	if (IS_ENABLED(CONFIG_SLOB))
		return 0;
	for (size = 1; size <= KMALLOC_MAX_CACHE_SIZE; size++)
		if (ab_kmalloc_bytes(size, PAGE_SIZE) !=
		    kmalloc_size_roundup(size))
			return size;
	for (order = 0; order <= AB_MAX_PAGE_ORDER; order++) {
		size = (u64)PAGE_SIZE << order;
		fp = ab_kmalloc_bytes(size + 1, PAGE_SIZE);
		if (ab_kmalloc_bytes(size, PAGE_SIZE) !=
		    kmalloc_size_roundup(size))
			return size;
		if (size + 1 <= KMALLOC_MAX_SIZE &&
		    fp != kmalloc_size_roundup(size + 1))
			return size + 1;
	}
	return 0;
}

u32 ab_tsc_khz(void)
{
#ifdef CONFIG_X86
	return tsc_khz;
#else
	return 0;
#endif
}

/*
 * Reads a struct that starts with its own __u32 size, with
 * copy_struct_from_user() semantics (see the uapi header). Returns the
 * caller's size, or -errno.
 */
long ab_copy_in(void *karg, size_t ksize, size_t ver0, void __user *uarg)
{
	u32 usize;
	int err;

	if (get_user(usize, (u32 __user *)uarg))
		return -EFAULT;
	if (usize < ver0)
		return -EINVAL;
	if (usize > PAGE_SIZE)
		return -E2BIG;
	err = copy_struct_from_user(karg, ksize, uarg, usize);
	if (err)
		return err;
	return usize;
}

/* Writes back the part of @karg both sides know; *size says how much. */
int ab_copy_out(void __user *uarg, void *karg, size_t ksize, u32 usize)
{
	u32 n = min_t(u32, usize, ksize);

	*(u32 *)karg = n;
	return copy_to_user(uarg, karg, n) ? -EFAULT : 0;
}

/*
 * Facts about the running kernel (ab_info.kernel_flags): the config the
 * module was built against is the one of the kernel it is loaded into.
 */
static u64 ab_kernel_flags(void)
{
	u64 flags = 0;

	if (IS_ENABLED(CONFIG_PREEMPT_RT))
		flags |= AB_KERNEL_PREEMPT_RT;
	if (IS_ENABLED(CONFIG_PREEMPT_DYNAMIC))
		flags |= AB_KERNEL_PREEMPT_DYNAMIC;
	/* since 6.6; 6.1 has no such option, so the flag stays clear there */
	if (IS_ENABLED(CONFIG_RANDOM_KMALLOC_CACHES))
		flags |= AB_KERNEL_RANDOM_KMALLOC_CACHES;
	/* since 6.11 */
	if (IS_ENABLED(CONFIG_SLAB_BUCKETS))
		flags |= AB_KERNEL_SLAB_BUCKETS;
	return flags;
}

/* What AB_IOC_INFO says of strategy @s (its largest object in the budget). */
static void ab_strategy_info(unsigned int id, struct ab_strategy_info *si)
{
	const struct ab_strategy *s = &ab_strategies[id];

	memset(si, 0, sizeof(*si));
	si->id = id;
	si->params = s->params;
	si->flags = s->flags | ab_mem_flags(s);
	si->max_size = ab_strategy_max_size(s);
	si->max_order = s->max_order;
	strscpy(si->name, s->name, sizeof(si->name));
	strscpy(si->desc, s->desc, sizeof(si->desc));
}

/* The limits AB_IOC_INFO reports, which ab_run_check() applies. */
static void ab_limits(struct ab_info *info)
{
	info->max_batch = AB_MAX_BATCH;
	info->max_trials = AB_MAX_TRIALS;
	info->max_bytes = ab_max_bytes();
	info->page_size = PAGE_SIZE;
	info->nr_node_ids = nr_node_ids;
	info->kernel_flags = ab_kernel_flags();
	info->kmalloc_max_size = KMALLOC_MAX_SIZE;
	info->run_flags = AB_RUN_FLAGS_ALL;
}

static long ab_ioctl_info(void __user *uarg)
{
	struct ab_strategy_info __user *uinfo;
	struct ab_strategy_info si;
	struct ab_info info;
	unsigned int i, n;
	long usize;

	usize = ab_copy_in(&info, sizeof(info), AB_INFO_SIZE_VER0, uarg);
	if (usize < 0)
		return usize;
	if (info.reserved0 || info.reserved3 ||
	    memchr_inv(info.reserved, 0, sizeof(info.reserved)))
		return -EINVAL;
	if (!info.strategies_ptr && info.strategies_len)
		return -EINVAL;

	uinfo = u64_to_user_ptr(info.strategies_ptr);
	n = min_t(u32, info.strategies_len, ab_nr_strategies);
	for (i = 0; i < n; i++) {
		ab_strategy_info(i, &si);
		if (copy_to_user(&uinfo[i], &si, sizeof(si)))
			return -EFAULT;
	}

	info.abi_version = AB_ABI_VERSION;
	info.nr_strategies = ab_nr_strategies;
	ab_limits(&info);
	info.outstanding = atomic_long_read(&ab_outstanding);
	info.tsc_khz = ab_tsc_khz();
	strscpy(info.version, AB_MODULE_VERSION, sizeof(info.version));
	return ab_copy_out(uarg, &info, sizeof(info), usize);
}

static const gfp_t ab_gfp_masks[AB_GFP_NR] = {
	[AB_GFP_KERNEL] = GFP_KERNEL,
	[AB_GFP_ATOMIC] = GFP_ATOMIC,
	[AB_GFP_NOWAIT] = GFP_NOWAIT,
	[AB_GFP_KERNEL_ZERO] = GFP_KERNEL | __GFP_ZERO,
};

/*
 * Checks every input field of @r and fills @ctx. The rules of the ABI are
 * common/ab_run.h's ab_run_check(), which the CLI and the user backend
 * apply too; here are the kernel's own facts on top: the free CPU online,
 * the node with memory. Returns the bytes the run holds, counted as the
 * allocators really use them (ab_run_held_bytes(), the rule of
 * common/ab_footprint.h, which ab_run_check() bounds by the budget), or
 * -errno: -EINVAL, -E2BIG (*@limit: the AB_LIMIT_* above which it is),
 * or -EOPNOTSUPP for an otherwise valid run with
 * preemption or IRQs off around allocations on PREEMPT_RT, where
 * spinlocks are sleeping locks: the allocators (and kfree()) may then
 * sleep inside the section ("BUG: scheduling while atomic"); the
 * scheduler then resets the preemption count, so the section's end leaves
 * it at -1 and the task returns to user space atomic, where its next page
 * fault cannot be handled (SIGSEGV).
 */
/*
 * ab_mem_node - the node @cpu's allocations without a node come from: the
 * node of the first zone in the fallback zonelist of @cpu's node. That is
 * @cpu's own node when it has memory, and otherwise the nearest one that
 * has (x86 keeps memoryless nodes without HAVE_MEMORYLESS_NODES, so
 * numa_mem_id() would name the empty node itself; mm/page_alloc.c builds
 * the zonelists by distance, build_zonelists()).
 */
static int ab_mem_node(int cpu)
{
	int nid = cpu_to_node(cpu);
	struct zone *z = node_zonelist(nid, GFP_KERNEL)->_zonerefs[0].zone;

	return z ? zone_to_nid(z) : nid;
}

static s64 ab_validate_run(const struct ab_run *r, struct ab_ctx *ctx,
			   u32 *limit)
{
	const struct ab_strategy *s;
	struct ab_strategy_info si;
	struct ab_info info = {};
	u64 obj_bytes, per_trial, bytes;
	const char *why;
	int err;

	if (r->strategy >= ab_nr_strategies)
		return -EINVAL;
	s = &ab_strategies[r->strategy];
	ab_strategy_info(r->strategy, &si);
	ab_limits(&info);
	/*
	 * The ABI's rules, the budget and the objects that can never be
	 * allocated among them, from this module's own table and limits: the
	 * same function the CLI applies, never its word for it.
	 */
	err = ab_run_check_limit(r, &info, &si, &why, limit);
	if (err)
		return err;
	if ((r->flags & AB_RUN_REMOTE_FREE) &&
	    (r->free_cpu >= nr_cpu_ids || !cpu_online(r->free_cpu)))
		return -EINVAL;
	if (r->node != NUMA_NO_NODE && !node_state(r->node, N_MEMORY))
		return -EINVAL;

	obj_bytes = s->params & (AB_PARAM_SIZE | AB_PARAM_ORDER) ?
		    ab_run_obj_bytes(r, PAGE_SIZE) : 0;
	per_trial = ab_run_objs_held(r, &si);
	/*
	 * what the run holds at once, its objects and the harness's arrays:
	 * ab_run_check() kept it in the budget
	 */
	bytes = ab_run_budget_bytes(r, &info, &si);

	ctx->s = s;
	ctx->run = r;
	ctx->held = ab_run_held_bytes(r, &info, &si);
	ctx->nr = per_trial;
	ctx->size = s->one_object ? obj_bytes * r->batch : obj_bytes;
	ctx->page_order = r->order;
	ctx->node = r->node;
	ctx->gfp = ab_gfp_masks[r->gfp] | __GFP_NOWARN;
	ctx->nomerge = r->flags & AB_RUN_NOMERGE;
	ctx->write = r->flags & AB_RUN_WRITE;
	ctx->mark_disturbed = r->flags & AB_RUN_MARK_DISTURBED;
	ctx->single = r->timing == AB_TIMING_SINGLE;
	ctx->pair = r->free_pattern == AB_FREE_PAIR;
	ctx->per_trial = s->flags & AB_STRATEGY_PER_TRIAL;
	ctx->lookup_method = r->lookup_method;
	ctx->table = ab_class_table(r->lookup_table);
	return bytes;
}

/* The context switches of the task running a phase, voluntary or not. */
static u64 ab_switches(void)
{
	return current->nvcsw + current->nivcsw;
}

/*
 * Runs one phase of the run in its loop context (enum ab_context), noting
 * (ab_phase_note()) the switches and CPU change of the task that ran it,
 * read just outside the timed loop: the caller's, or with remote frees the
 * worker's.
 */
static u32 ab_in_context(struct ab_ctx *ctx, bool alloc, u32 n, u64 *cycles)
{
	u32 context = ctx->run->context;
	unsigned long flags = 0;
	u64 sw = ab_switches();
	int cpu = raw_smp_processor_id();

	if (context == AB_CTX_PREEMPT_OFF)
		preempt_disable();
	else if (context == AB_CTX_IRQ_OFF)
		local_irq_save(flags);
	if (alloc)
		n = ctx->s->alloc_phase(ctx, cycles);
	else
		ctx->s->free_phase(ctx, n, cycles);
	if (context == AB_CTX_PREEMPT_OFF)
		preempt_enable();
	else if (context == AB_CTX_IRQ_OFF)
		local_irq_restore(flags);
	ab_phase_note(ctx, sw, ab_switches(), cpu, raw_smp_processor_id(),
		      alloc ? AB_SAMPLE_ALLOC_DISTURBED :
			      AB_SAMPLE_FREE_DISTURBED);
	return n;
}

/**
 * struct ab_remote_free - the free phase of a trial, run on another CPU
 * @work:   queued with queue_work_on() on ab_run.free_cpu
 * @ctx:    the run
 * @n:      objects to free
 * @cycles: the phase's cycles, measured there
 */
struct ab_remote_free {
	struct work_struct work;
	struct ab_ctx *ctx;
	u32 n;
	u64 cycles;
};

static void ab_remote_free_fn(struct work_struct *work)
{
	struct ab_remote_free *rf = container_of(work, struct ab_remote_free,
						 work);

	/* a CPU that went offline: the work ran elsewhere; say so */
	rf->ctx->elsewhere += raw_smp_processor_id() != rf->ctx->run->free_cpu;
	ab_in_context(rf->ctx, false, rf->n, &rf->cycles);
}

/*
 * Frees the trial's objects on ab_run.free_cpu and waits, uninterruptibly:
 * the work is bounded (one trial's frees) and every object must be freed
 * before the run may return, whatever signal arrives meanwhile.
 */
static void ab_free_remote(struct ab_ctx *ctx, u32 n, u64 *cycles)
{
	struct ab_remote_free rf = { .ctx = ctx, .n = n };

	INIT_WORK_ONSTACK(&rf.work, ab_remote_free_fn);
	queue_work_on(ctx->run->free_cpu, ab_free_wq, &rf.work);
	flush_work(&rf.work);
	destroy_work_on_stack(&rf.work);
	*cycles = rf.cycles;
}

/*
 * The module's driver of the trial loop (common/ab_trial.h): the phases in
 * the run's context, the objects held counted in ab_outstanding, the node
 * check, remote frees, samples copied to the caller, signals and
 * rescheduling between trials.
 */
static u32 ab_drv_alloc(struct ab_ctx *ctx, u64 *cycles)
{
	u32 n = ab_in_context(ctx, true, 0, cycles);

	if (!ctx->pair)
		atomic_long_add(n, &ab_outstanding);
	return n;
}

static void ab_drv_check(struct ab_ctx *ctx, struct ab_run *r, u32 n)
{
	u32 i;

	for (i = 0; i < n; i++)
		r->node_hits += ctx->s->on_node(ctx, ctx->objs[i],
						r->target_node);
	r->node_checked += n;
}

/*
 * The memory counters of node @nid, in pages, into @v: free pages (the
 * zones' NR_FREE_PAGES with the per-CPU diffs not yet folded in, as
 * zone_page_state_snapshot() in include/linux/vmstat.h reads them, plus
 * the pages on the zones' per-CPU lists: struct per_cpu_pages.count,
 * include/linux/mmzone.h), slab pages and page-table pages (node
 * counters, likewise with their per-CPU diffs, vm_node_stat_diff). The
 * slab counters are kept in pages though named in bytes (mm/vmstat.c,
 * __mod_node_page_state() shifts the delta). No lock is taken: a
 * snapshot, exact when nothing else allocates meanwhile.
 */
static s64 ab_node_pages(struct pglist_data *pgdat, enum node_stat_item item)
{
	s64 x = atomic_long_read(&pgdat->vm_stat[item]);
	int cpu;

	for_each_online_cpu(cpu)
		x += per_cpu_ptr(pgdat->per_cpu_nodestats,
				 cpu)->vm_node_stat_diff[item];
	return x;
}

static void ab_mem_read(int nid, s64 v[3])
{
	struct pglist_data *pgdat = NODE_DATA(nid);
	struct zone *zone;
	int cpu, z;

	v[0] = 0;
	for (z = 0; z < MAX_NR_ZONES; z++) {
		zone = &pgdat->node_zones[z];
		if (!populated_zone(zone))
			continue;
		v[0] += zone_page_state_snapshot(zone, NR_FREE_PAGES);
		for_each_online_cpu(cpu)
			v[0] += READ_ONCE(per_cpu_ptr(zone->per_cpu_pageset,
						      cpu)->count);
	}
	v[1] = ab_node_pages(pgdat, NR_SLAB_RECLAIMABLE_B) +
	       ab_node_pages(pgdat, NR_SLAB_UNRECLAIMABLE_B);
	v[2] = ab_node_pages(pgdat, NR_PAGETABLE);
}

/*
 * Check trials (common/ab_trial.h): the memory counters of the target
 * node before the alloc phase and after it, the objects held; the
 * differences summed into ab_run.mem_* in bytes, the least and the most
 * free memory one trial took into mem_free_min and mem_free_max.
 */
static void ab_drv_mem(struct ab_ctx *ctx, struct ab_run *r, u32 n, bool held)
{
	s64 v[3], took;

	ab_mem_read(r->target_node, held ? v : ctx->mem_before);
	if (!held)
		return;
	took = (ctx->mem_before[0] - v[0]) * (s64)PAGE_SIZE;
	if (!r->mem_trials || took < r->mem_free_min)
		r->mem_free_min = took;
	if (!r->mem_trials || took > r->mem_free_max)
		r->mem_free_max = took;
	r->mem_free_bytes += took;
	r->mem_slab_bytes += (v[1] - ctx->mem_before[1]) * (s64)PAGE_SIZE;
	r->mem_pagetable_bytes += (v[2] - ctx->mem_before[2]) * (s64)PAGE_SIZE;
	r->mem_objects += n;
	r->mem_trials++;
}

static void ab_drv_free(struct ab_ctx *ctx, u32 n, u64 *cycles)
{
	if (ctx->run->flags & AB_RUN_REMOTE_FREE)
		ab_free_remote(ctx, n, cycles);
	else
		ab_in_context(ctx, false, n, cycles);
	atomic_long_sub(n, &ab_outstanding);
}

static int ab_drv_put(struct ab_ctx *ctx, const struct ab_run *r, u64 index,
		      const struct ab_sample *smp, u32 count)
{
	struct ab_sample __user *usamples = u64_to_user_ptr(r->samples_ptr);

	if (!r->samples_ptr)
		return 0;
	return copy_to_user(&usamples[index], smp, count * sizeof(*smp)) ?
	       -EFAULT : 0;
}

/* A pending signal ends the run between trials: -EINTR. */
static int ab_drv_next(struct ab_ctx *ctx)
{
	if (signal_pending(current))
		return -EINTR;
	cond_resched();
	return 0;
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

/**
 * ab_ioctl_run - AB_IOC_RUN
 * @f:    the open file's state: with AB_RUN_KEEP_CACHE the run's private
 *        kmem_cache is kept in @f->kept (strategies.c, ab_cache_keep());
 *        the caches this thread's earlier runs on @f kept go first
 * @uarg: the user's struct ab_run
 *
 * Return: 0, or -errno as include/uapi/linux/allocbench.h says.
 */
static long ab_ioctl_run(struct ab_file *f, void __user *uarg)
{
	struct ab_trial_ops ops = {
		.alloc = ab_drv_alloc,
		.free = ab_drv_free,
		.put = ab_drv_put,
		.next = ab_drv_next,
	};
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
	memset(r.cache_name, 0, sizeof(r.cache_name));
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
	/*
	 * The harness's arrays (counted in the budget, ab_harness_bytes())
	 * are charged to the caller's memory cgroup (__GFP_ACCOUNT). The
	 * timed objects are not (no __GFP_ACCOUNT, no SLAB_ACCOUNT on the
	 * run's kmem_cache): charging adds the memcg hooks to every timed
	 * allocation and free (mm/memcontrol.c, obj_cgroup_charge()) that
	 * plain kmalloc() users do not pay, and SLAB_ACCOUNT caches merge
	 * only with accounted ones (SLAB_MERGE_SAME, mm/slab_common.c),
	 * which would change what is measured; the budget bounds them.
	 */
	ctx.objs = kvcalloc(ctx.nr, sizeof(void *), GFP_KERNEL_ACCOUNT);
	ctx.free_order = kvcalloc(ctx.nr, sizeof(u32), GFP_KERNEL_ACCOUNT);
	if (ctx.single)
		ctx.smp = kvcalloc(ctx.nr, sizeof(*ctx.smp),
				   GFP_KERNEL_ACCOUNT);
	if (!ctx.objs || !ctx.free_order || (ctx.single && !ctx.smp)) {
		ret = -ENOMEM;
		goto free_objs;
	}
	if (s->on_node) {
		ops.check = ab_drv_check;
		ops.mem = ab_drv_mem;
	}
	if (s->setup) {
		ret = s->setup(&ctx);
		if (ret)
			goto free_objs;
	}

	r.cpu_start = raw_smp_processor_id();
	r.target_node = r.node == NUMA_NO_NODE ? ab_mem_node(r.cpu_start) :
						  r.node;
	ret = ab_run_trials(&ops, &ctx, &r);
	r.cpu_end = raw_smp_processor_id();
	/* teardown has the last word on the cache (AB_MERGED_LATER) */
	if (r.flags & AB_RUN_KEEP_CACHE)
		ctx.keep = &f->kept;
	if (s->teardown)
		s->teardown(&ctx);
	r.cache_merged = ctx.cache_merged;
	memcpy(r.cache_name, ctx.cache_name, sizeof(r.cache_name));
free_objs:
	kvfree(ctx.smp);
	kvfree(ctx.free_order);
	kvfree(ctx.objs);
unreserve:
	atomic64_sub(bytes, &ab_reserved);
	atomic64_sub(atomic_bytes, &ab_atomic_reserved);
	if (ret == 0 || ret == -EINTR) {
		if (ab_copy_out(uarg, &r, sizeof(r), usize))
			ret = -EFAULT;
	}
	return ret;
}

/* Each open file's state: the caches its runs kept (AB_RUN_KEEP_CACHE). */
static int ab_open(struct inode *inode, struct file *file)
{
	struct ab_file *f = kzalloc(sizeof(*f), GFP_KERNEL);

	if (!f)
		return -ENOMEM;
	INIT_LIST_HEAD(&f->kept);
	file->private_data = f;
	return nonseekable_open(inode, file);
}

static int ab_release(struct inode *inode, struct file *file)
{
	struct ab_file *f = file->private_data;

	ab_caches_release(&f->kept, true);
	kfree(f);
	return 0;
}

static long ab_ioctl(struct file *file, unsigned int cmd, unsigned long arg)
{
	void __user *uarg = (void __user *)arg;

	if (_IOC_TYPE(cmd) != AB_IOC_MAGIC ||
	    _IOC_DIR(cmd) != (_IOC_READ | _IOC_WRITE))
		return -ENOTTY;
	switch (_IOC_NR(cmd)) {
	case _IOC_NR(AB_IOC_INFO):
		return ab_ioctl_info(uarg);
	/*
	 * These two run code in the kernel and take its memory: the 0600
	 * node is not enough, as an open descriptor can be passed on.
	 */
	case _IOC_NR(AB_IOC_RUN):
		if (!capable(CAP_SYS_ADMIN))
			return -EPERM;
		return ab_ioctl_run(file->private_data, uarg);
	case _IOC_NR(AB_IOC_LOOKUP):
		if (!capable(CAP_SYS_ADMIN))
			return -EPERM;
		return ab_ioctl_lookup(uarg);
	default:
		return -ENOTTY;
	}
}

static const struct file_operations ab_fops = {
	.owner = THIS_MODULE,
	.open = ab_open,
	.release = ab_release,
	.unlocked_ioctl = ab_ioctl,
	.compat_ioctl = compat_ptr_ioctl,
};

static struct miscdevice ab_misc = {
	.minor = MISC_DYNAMIC_MINOR,
	.name = AB_DEVICE_NAME,
	.fops = &ab_fops,
	.mode = 0600,
};

static int __init ab_init(void)
{
	u32 method, table, size;
	u64 fp_size;
	int err;

	BUILD_BUG_ON(sizeof(struct ab_info) != AB_INFO_SIZE_VER3);
	BUILD_BUG_ON(sizeof(struct ab_run) != AB_RUN_SIZE_VER4);
	BUILD_BUG_ON(offsetof(struct ab_run, mem_free_min) != AB_RUN_SIZE_VER2);
	BUILD_BUG_ON(offsetof(struct ab_run, mem_objects) != AB_RUN_SIZE_VER0);
	BUILD_BUG_ON(offsetof(struct ab_run, cache_name) != AB_RUN_SIZE_VER1);
	BUILD_BUG_ON(sizeof_field(struct ab_ctx, cache_name) !=
		     AB_CACHE_NAME_LEN);
	BUILD_BUG_ON(sizeof(struct ab_lookup) != AB_LOOKUP_SIZE_VER0);
	/* the lookups must agree with the reference, or nothing is timed */
	size = ab_lookup_selfcheck(&method, &table);
	if (size) {
		pr_err("lookup self-check failed: method %u, table %u, size %u\n",
		       method, table, size == 0xffffffffu ? 0 : size);
		return -EINVAL;
	}
	/* the budget counts kmalloc objects as this kernel rounds them */
	fp_size = ab_footprint_selfcheck();
	if (fp_size) {
		pr_err("footprint self-check failed at %llu bytes: common/ab_footprint.h does not match this kernel (kmalloc_size_roundup(), PMD_SIZE)\n",
		       fp_size);
		return -EINVAL;
	}
	BUILD_BUG_ON(sizeof(struct ab_sample) % 8);
	BUILD_BUG_ON(sizeof(struct ab_strategy_info) % 8);
	ab_free_wq = alloc_workqueue("allocbench_free", WQ_HIGHPRI, 0);
	if (!ab_free_wq)
		return -ENOMEM;
	err = misc_register(&ab_misc);
	if (err)
		destroy_workqueue(ab_free_wq);
	return err;
}

static void __exit ab_exit(void)
{
	misc_deregister(&ab_misc);
	/* no run is in progress once the device is gone: nothing queued */
	destroy_workqueue(ab_free_wq);
	WARN_ON(atomic_long_read(&ab_outstanding));
}

module_init(ab_init);
module_exit(ab_exit);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("allocbench: kernel allocator microbenchmarks over ioctl");
MODULE_VERSION(AB_MODULE_VERSION);
