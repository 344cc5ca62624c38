// SPDX-License-Identifier: GPL-2.0
/*
 * driver.c - the module's driver of the trial loop (common/ab_trial.h)
 * for AB_IOC_RUN: each phase in the run's loop context (enum ab_context),
 * the free phase on another CPU for AB_RUN_REMOTE_FREE, the objects held
 * between the phases counted in ab_outstanding, the node check and the
 * memory counters of the check trials, the samples copied to the caller,
 * and signals and rescheduling between trials.
 */

#include <linux/kernel.h>
#include <linux/atomic.h>
#include <linux/mm.h>
#include <linux/mmzone.h>
#include <linux/vmstat.h>
#include <linux/sched.h>
#include <linux/sched/signal.h>
#include <linux/preempt.h>
#include <linux/irqflags.h>
#include <linux/workqueue.h>
#include <linux/rcupdate.h>
#include <linux/delay.h>
#include <linux/jiffies.h>
#include <linux/uaccess.h>
#include <linux/slab.h>
#include <linux/nodemask.h>
#include "ab_internal.h"
#include "ab_nodes.h"

/* Objects allocated by runs in progress and not yet freed. */
static atomic_long_t ab_outstanding = ATOMIC_LONG_INIT(0);

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
 *
 * 6.17 added WQ_PERCPU to say per-CPU out loud, and newer kernels (7.3)
 * WARN in __alloc_workqueue() when a workqueue names neither it nor
 * WQ_UNBOUND; it is an enum, so kmod/Kbuild reads the header for it.
 */
#ifdef AB_HAVE_WQ_PERCPU
#define AB_WQ_PERCPU WQ_PERCPU
#else
#define AB_WQ_PERCPU 0
#endif
static struct workqueue_struct *ab_free_wq;

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
		n = ctx->strategy->alloc_phase(ctx, cycles);
	else
		ctx->strategy->free_phase(ctx, n, cycles);
	if (context == AB_CTX_PREEMPT_OFF)
		preempt_enable();
	else if (context == AB_CTX_IRQ_OFF)
		local_irq_restore(flags);
	ab_phase_note(&ctx->loop, sw, ab_switches(), cpu,
		      raw_smp_processor_id(),
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
	struct ab_ctx *ctx = rf->ctx;

	/* a CPU that went offline: the work ran elsewhere; say so */
	ctx->loop.elsewhere += raw_smp_processor_id() != ctx->run->free_cpu;
	ab_in_context(ctx, false, rf->n, &rf->cycles);
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
 * The ops of struct ab_trial_ops (common/ab_trial.h), each given the run's
 * struct ab_loop, in its struct ab_ctx: the phases in the run's context,
 * the objects held counted in ab_outstanding, the node check, remote
 * frees, samples copied to the caller, signals and rescheduling between
 * trials.
 */
static u32 ab_drv_alloc(struct ab_loop *l, u64 *cycles)
{
	struct ab_ctx *ctx = ab_ctx_of(l);
	u32 n;

	/*
	 * what the waits after the free phases wait for (ab_drv_drain()):
	 * the free pages before the run's first trial, not each trial's,
	 * which would already lack what the trials before it left pending
	 */
	if ((ctx->strategy->flags & AB_STRATEGY_RCU) && !ctx->free_before)
		ctx->free_before = global_zone_page_state(NR_FREE_PAGES);
	n = ab_in_context(ctx, true, 0, cycles);

	if (!l->pair)
		atomic_long_add(n, &ab_outstanding);
	return n;
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

/**
 * struct ab_node_mem - one node's memory counters in a check trial
 * @pages: free, slab and page-table pages: [0] before the alloc phase, [1]
 *        after it (ab_mem_read())
 * @here: the trial's objects were on this node (some of them)
 */
struct ab_node_mem {
	s64 pages[2][3];
	bool here;
};

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
 * Check trials (common/ab_trial.h): the memory counters of every node with
 * memory before the alloc phase and after it, the objects held: where the
 * objects come from is known only after the phase (ab_drv_check()).
 */
static void ab_drv_mem(struct ab_loop *l, struct ab_run *r, u32 n, bool held)
{
	struct ab_ctx *ctx = ab_ctx_of(l);
	int nid;

	for_each_node_state(nid, N_MEMORY) {
		ab_mem_read(nid, ctx->node_mem[nid].pages[held]);
		ctx->node_mem[nid].here = false;
	}
}

/*
 * After the node check of a check trial: the differences of the counters of
 * the nodes its objects were on, summed into ab_run.mem_* in bytes, the
 * least and the most free memory one trial took into mem_free_min and
 * mem_free_max. Not when no object was on one node (none held, or all
 * spread over several: nothing then says which nodes to read).
 */
static void ab_drv_mem_sum(struct ab_ctx *ctx, struct ab_run *r, u32 n)
{
	s64 took = 0, slab = 0, pt = 0;
	struct ab_node_mem *m;
	bool any = false;
	int nid;

	for_each_node_state(nid, N_MEMORY) {
		m = &ctx->node_mem[nid];
		if (!m->here)
			continue;
		any = true;
		took += (m->pages[0][0] - m->pages[1][0]) * (s64)PAGE_SIZE;
		slab += (m->pages[1][1] - m->pages[0][1]) * (s64)PAGE_SIZE;
		pt += (m->pages[1][2] - m->pages[0][2]) * (s64)PAGE_SIZE;
	}
	if (!any)
		return;
	if (!r->mem_trials || took < r->mem_free_min)
		r->mem_free_min = took;
	if (!r->mem_trials || took > r->mem_free_max)
		r->mem_free_max = took;
	r->mem_free_bytes += took;
	r->mem_slab_bytes += slab;
	r->mem_pagetable_bytes += pt;
	r->mem_objects += n;
	r->mem_trials++;
}

/*
 * The node check: each object's node (the strategy's obj_node(), from
 * page_to_nid()) counted in ctx->node_objs, or in obj_spread when its
 * pages are on more than one; the mapping of each that is a vmalloc area
 * (obj_map(), ab_run.map_pages); the nodes this trial's objects were on are
 * marked for the memory counters, which are then summed over them
 * (ab_drv_mem_sum()).
 */
static void ab_drv_check(struct ab_loop *l, struct ab_run *r, u32 n)
{
	struct ab_ctx *ctx = ab_ctx_of(l);
	int nid;
	u32 i;

	for (i = 0; i < n; i++) {
		nid = ctx->strategy->obj_node(ctx, l->objs[i]);
		if (nid < 0 || nid >= nr_node_ids) {
			r->obj_spread++;
			continue;
		}
		ctx->node_objs[nid]++;
		ctx->node_mem[nid].here = true;
	}
	/* how vmalloc areas are mapped: the kernel's page tables */
	for (i = 0; ctx->strategy->obj_map && i < n; i++)
		if (ctx->strategy->obj_map(ctx, l->objs[i], r->map_pages))
			r->map_areas++;
	r->node_checked += n;
	ab_drv_mem_sum(ctx, r, n);
}

static void ab_drv_free(struct ab_loop *l, u32 n, u64 *cycles)
{
	struct ab_ctx *ctx = ab_ctx_of(l);

	if (ctx->run->flags & AB_RUN_REMOTE_FREE)
		ab_free_remote(ctx, n, cycles);
	else
		ab_in_context(ctx, false, n, cycles);
	atomic_long_sub(n, &ab_outstanding);
}

static int ab_drv_put(struct ab_loop *l, const struct ab_run *r, u64 index,
		      const struct ab_sample *smp, u32 count)
{
	struct ab_sample __user *usamples = u64_to_user_ptr(r->samples_ptr);

	if (!r->samples_ptr)
		return 0;
	return copy_to_user(&usamples[index], smp, count * sizeof(*smp)) ?
	       -EFAULT : 0;
}

/*
 * AB_STRATEGY_RCU: the wait, in cycles, for what the trial's frees handed
 * to RCU. kvfree_rcu_barrier() (6.12, mm/slab_common.c) flushes every
 * CPU's kfree_rcu() batches and waits for their grace periods and frees;
 * where the kernel does not export it (6.1; 7.3), rcu_barrier(): a grace
 * period and the callbacks queued before it, while kfree_rcu()'s batches
 * may wait longer (AB_KERNEL_KVFREE_RCU_BARRIER says which).
 */
static u64 ab_drv_drain(struct ab_loop *l, bool *late)
{
	struct ab_ctx *ctx = ab_ctx_of(l);
	/* slack: a trial's bytes, AB_DRAIN_SLACK, or 1/64 of RAM if more */
	u64 slack = max3(ctx->held, (u64)AB_DRAIN_SLACK,
			 (u64)(totalram_pages() / 64) << PAGE_SHIFT);
	long want = ctx->free_before - (long)(slack >> PAGE_SHIFT);
	unsigned long end;
	u64 start = AB_CYCLES();

#ifdef AB_HAVE_KVFREE_RCU_BARRIER
	kvfree_rcu_barrier();
#else
	rcu_barrier();
#endif
	/*
	 * then the pages themselves: kfree_rcu()'s batches and its freeing
	 * work may still hold them (seconds on 6.1, whose rcu_barrier()
	 * does not wait for them)
	 */
	end = jiffies + msecs_to_jiffies(AB_DRAIN_MAX_MS);
	while ((long)global_zone_page_state(NR_FREE_PAGES) < want) {
		if (signal_pending(current) || time_after(jiffies, end)) {
			/*
			 * not back: what is free now is the reference from
			 * here (other users may hold what is missing), so a
			 * lasting change costs one wait, not one per trial
			 */
			*late = true;
			ctx->free_before = global_zone_page_state(NR_FREE_PAGES);
			break;
		}
		usleep_range(1000, 2000);
	}
	return AB_CYCLES() - start;
}

/*
 * AB_RUN_COND_EACH_TRIAL: the file's condition restored before the trial;
 * the highest free order a measured trial that met it began with is kept.
 */
static int ab_drv_before(struct ab_loop *l, bool measured)
{
	struct ab_ctx *ctx = ab_ctx_of(l);
	int order, ret;

	ret = ab_cond_restore(ctx->file, &order, &ctx->cond_pages);
	if (ret == 0 && measured && order > ctx->cond_max_order)
		ctx->cond_max_order = order;
	return ret;
}

/* A pending signal ends the run between trials: -EINTR. */
static int ab_drv_next(struct ab_loop *l)
{
	if (signal_pending(current))
		return -EINTR;
	cond_resched();
	return 0;
}

/*
 * Between two chunks of AB_YIELD_EVERY objects of a phase (ab_loop.yield):
 * the CPU given up if another task is waiting, with preemption enabled
 * for it in AB_CTX_PREEMPT_OFF (the phase then counts as disturbed if a
 * switch came), never with IRQs off (AB_IRQ_OFF_MAX_OBJS is below a
 * chunk). True when a signal is pending: the alloc phase ends there.
 */
static bool ab_drv_yield(struct ab_loop *l)
{
	u32 context = ab_ctx_of(l)->run->context;

	BUILD_BUG_ON(AB_IRQ_OFF_MAX_OBJS >= AB_YIELD_EVERY);

	if (context == AB_CTX_IRQ_OFF)
		return false;
	if (context == AB_CTX_PREEMPT_OFF)
		preempt_enable();
	cond_resched();
	if (context == AB_CTX_PREEMPT_OFF)
		preempt_disable();
	return signal_pending(current);
}

/*
 * The run's trials (common/ab_trial.h), then where its checked objects were
 * (common/ab_nodes.h): ab_run's obj_node list, and without a node asked for
 * its target_node and node_hits, as page_to_nid() of the objects states
 * them.
 */
int ab_drv_run(struct ab_ctx *ctx, struct ab_run *r)
{
	struct ab_trial_ops ops = {
		.alloc = ab_drv_alloc,
		.free = ab_drv_free,
		.put = ab_drv_put,
		.next = ab_drv_next,
	};

	if (ctx->strategy->flags & AB_STRATEGY_RCU)
		ops.drain = ab_drv_drain;
	if (r->flags & AB_RUN_COND_EACH_TRIAL)
		ops.before = ab_drv_before;
	int ret;

	/* the node check's counts, where there is one (common/ab_trial.h) */
	if (ctx->strategy->obj_node && !ctx->loop.pair &&
	    !(r->flags & AB_RUN_NO_NODE_CHECK)) {
		ctx->node_objs = kcalloc(nr_node_ids, sizeof(*ctx->node_objs),
					 GFP_KERNEL);
		ctx->node_mem = kcalloc(nr_node_ids, sizeof(*ctx->node_mem),
					GFP_KERNEL);
		if (!ctx->node_objs || !ctx->node_mem) {
			ret = -ENOMEM;
			goto out;
		}
		ops.check = ab_drv_check;
		ops.mem = ab_drv_mem;
	}
	if (ctx->loop.vpmu)
		ab_vpmu_send_gates();
	ctx->loop.yield = ab_drv_yield;
	ret = ab_run_trials(&ops, &ctx->loop, r);
	if (ctx->node_objs)
		ab_nodes_from(r, ctx->node_objs, nr_node_ids);
out:
	kfree(ctx->node_objs);
	kfree(ctx->node_mem);
	ctx->node_objs = NULL;
	ctx->node_mem = NULL;
	return ret;
}

long ab_drv_outstanding(void)
{
	return atomic_long_read(&ab_outstanding);
}

int ab_drv_init(void)
{
	ab_free_wq = alloc_workqueue("allocbench_free",
				     WQ_HIGHPRI | AB_WQ_PERCPU, 0);
	return ab_free_wq ? 0 : -ENOMEM;
}

void ab_drv_exit(void)
{
	/* no run is in progress once the device is gone: nothing queued */
	destroy_workqueue(ab_free_wq);
	WARN_ON(atomic_long_read(&ab_outstanding));
}
