/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ab_run.h - rules of struct ab_run that allocbench.ko, the user backend
 * and the CLI must apply alike, compiled into each of them: the small
 * ones inline here, the footprint and the check in ab_run.c (a refusal
 * as struct ab_refusal, which each side words in its own place).
 */
#ifndef AB_RUN_H
#define AB_RUN_H

#ifdef __KERNEL__
#include <linux/types.h>
#include <linux/errno.h>
#else
#include <errno.h>
#include "ab_compat.h"
#endif
#include <linux/allocbench.h>
#include "ab_footprint.h"

/*
 * ab_run_samples_per_trial - elements of ab_run.samples_ptr one measured
 * trial writes: batch with AB_TIMING_SINGLE, except for
 * AB_STRATEGY_PER_TRIAL strategies (@strategy_flags), which make one call
 * per phase and write one sample, as with AB_TIMING_BATCH.
 */
static inline u32 ab_run_samples_per_trial(const struct ab_run *r,
					   u32 strategy_flags)
{
	if (r->timing == AB_TIMING_SINGLE &&
	    !(strategy_flags & AB_STRATEGY_PER_TRIAL))
		return r->batch;
	return 1;
}

/*
 * ab_run_obj_bytes - bytes of one object of @r: obj_size, or the block of
 * 2^order pages of @page_size bytes (AB_PARAM_ORDER strategies); an order
 * of 32 or more, which no check lets through, saturates (the refusal that
 * names it computes this from the caller's value: a fuzzed order of
 * 2^32 - 1 was a shift past 64 bits, which UBSAN reported on 7.3)
 */
static inline u64 ab_run_obj_bytes(const struct ab_run *r, u32 page_size)
{
	if (r->obj_size)
		return r->obj_size;
	return r->order < 32 ? (u64)page_size << r->order : ~0ULL;
}

/*
 * ab_strategy_max_bytes - the largest object @si takes: max_size, or the
 * block of its largest order.
 */
static inline u64 ab_strategy_max_bytes(const struct ab_strategy_info *si,
					u32 page_size)
{
	return si->max_size ? si->max_size : (u64)page_size << si->max_order;
}

/* ab_run_objs_held - allocations @r holds at once: batch, or one. */
static inline u32 ab_run_objs_held(const struct ab_run *r,
				   const struct ab_strategy_info *si)
{
	return si->flags & AB_STRATEGY_ONE_OBJECT ? 1 : r->batch;
}

/**
 * struct ab_footprint - the memory one run of struct ab_run takes, computed
 * once by ab_run_footprint(); the checks, refusals, messages and JSON of the
 * module and the CLI read it, never derive it again
 * @obj_bytes:     bytes of one object (ab_run_obj_bytes()): obj_size, or
 *                 2^order pages
 * @alloc_bytes:   bytes one allocation asks for: @obj_bytes, @batch times
 *                 that for AB_STRATEGY_ONE_OBJECT strategies, the class its
 *                 table gives for AB_PARAM_LOOKUP ones (kmalloc_class
 *                 allocates that class, which in the 2002 table can be
 *                 larger than kmalloc's own); 0 for the baseline, which
 *                 allocates nothing (and then every field below is 0)
 * @objs_held:     allocations held at once: batch, or 1 for
 *                 AB_STRATEGY_ONE_OBJECT strategies
 * @each_bytes:    one allocation as its allocator counts it
 *                 (ab_obj_footprint(), common/ab_footprint.h); for a
 *                 kmem_cache its share of a slab
 * @held_bytes:    what the objects hold at once: @objs_held x
 *                 @each_bytes, or the whole slabs a kmem_cache's objects
 *                 need (ab_cache_held_bytes()); AB_PHASE_MAX_BYTES,
 *                 AB_ATOMIC_MAX_BYTES and AB_IRQ_OFF_MAX_BYTES bound it
 * @harness_bytes: the harness's own arrays for @objs_held objects
 *                 (ab_harness_bytes())
 * @budget_bytes:  @held_bytes + @harness_bytes, what the budget
 *                 ab_info.max_bytes bounds
 * @never:         why its GFP flags can never allocate the object
 *                 (ab_obj_not_applicable()), NULL when they can
 *
 * All byte counts saturate at U64_MAX.
 */
struct ab_footprint {
	u64 obj_bytes;
	u64 alloc_bytes;
	u32 objs_held;
	u64 each_bytes;
	u64 held_bytes;
	u64 harness_bytes;
	u64 budget_bytes;
	const char *never;
};

/**
 * struct ab_refusal - why the check refused a request, for its caller to
 * say in its own words (the CLI: lib/request/runlimits.c)
 * @why:     the rule broken, a phrase ("a batch above the limit
 *           (max_batch)")
 * @limit:   the AB_LIMIT_* of an -E2BIG, the first broken in the order of
 *           the uapi header; AB_LIMIT_NONE for any other answer
 * @wanted:  what the request asks of that limit, in @unit
 * @allowed: the most the limit allows, in @unit
 * @unit:    what both count: "bytes", "objects per trial", "trials",
 *           "bytes per object", "objects in a phase"
 */
struct ab_refusal {
	const char *why;
	u32 limit;
	u64 wanted;
	u64 allowed;
	const char *unit;
};

/**
 * ab_run_footprint - fill @fp, the memory of run @r of strategy @si under
 * the limits @info (page_size, kmalloc_max_size)
 * @r:    the request, its fields valid (ab_run_check_fields())
 * @info: the limits it is checked against
 * @si:   its strategy
 * @fp:   filled whole
 */
void ab_run_footprint(const struct ab_run *r, const struct ab_info *info,
		      const struct ab_strategy_info *si,
		      struct ab_footprint *fp);

/*
 * ab_run_alloc_bytes, ab_run_held_bytes and ab_run_budget_bytes - one
 * field of ab_run_footprint(), for a caller that needs that one alone (the
 * tests' figures)
 */
static inline u64 ab_run_alloc_bytes(const struct ab_run *r,
				     const struct ab_info *info,
				     const struct ab_strategy_info *si)
{
	struct ab_footprint fp;

	ab_run_footprint(r, info, si, &fp);
	return fp.alloc_bytes;
}

static inline u64 ab_run_held_bytes(const struct ab_run *r,
				    const struct ab_info *info,
				    const struct ab_strategy_info *si)
{
	struct ab_footprint fp;

	ab_run_footprint(r, info, si, &fp);
	return fp.held_bytes;
}

static inline u64 ab_run_budget_bytes(const struct ab_run *r,
				      const struct ab_info *info,
				      const struct ab_strategy_info *si)
{
	struct ab_footprint fp;

	ab_run_footprint(r, info, si, &fp);
	return fp.budget_bytes;
}

/**
 * ab_run_no_reclaim - @r allocates where it may not sleep or reclaim
 * @r:      the request
 * @params: its strategy's AB_PARAM_* bits
 *
 * A GFP choice that may not block (atomic, nowait, noreclaim), or
 * preemption or IRQs off around a strategy that allocates
 * (AB_ATOMIC_MAX_BYTES bounds what it holds).
 *
 * Return: true when it may not reclaim; false for the baseline.
 */
bool ab_run_no_reclaim(const struct ab_run *r, u32 params);

/**
 * ab_limit_figures - what @r asks of limit @limit and what the limit
 * allows, into @no's @wanted, @allowed and @unit
 * @limit: AB_LIMIT_*
 * @r:     the request
 * @info:  the limits
 * @si:    its strategy, or NULL when unknown
 * @fp:    its footprint, or NULL when unknown (the byte figures are 0)
 * @no:    its @limit set to @limit, and the figures
 */
void ab_limit_figures(u32 limit, const struct ab_run *r,
		      const struct ab_info *info,
		      const struct ab_strategy_info *si,
		      const struct ab_footprint *fp, struct ab_refusal *no);

/**
 * ab_run_check_fields - every input field of @r against the ABI, strategy
 * @si and the limits of @info, up to what its footprint needs
 * @r:    the request
 * @info: the limits (max_batch, max_trials, nr_node_ids)
 * @si:   its strategy (its parameters, flags and largest object)
 * @no:   filled when refused
 *
 * Return: 0, -EINVAL for a value outside its domain, a parameter the
 * strategy does not take, an unknown flag, a nonzero reserved field, a
 * per-CPU alignment above a page, or a mempool reserve (pool_min) out of
 * its range or smaller than the objects held where mempool_alloc() would
 * wait or the reserve alone serves;
 * -E2BIG for a batch, trial count or object above its limit (@no names
 * it); -EOPNOTSUPP for a strategy this kernel lacks
 * (AB_STRATEGY_UNAVAILABLE).
 */
int ab_run_check_fields(const struct ab_run *r, const struct ab_info *info,
			const struct ab_strategy_info *si,
			struct ab_refusal *no);

/**
 * ab_run_check_limits - the memory @fp of @r against the limits on it:
 * the budget ab_info.max_bytes (@fp's budget_bytes), then on its objects
 * (@fp's held_bytes) AB_PHASE_MAX_BYTES, AB_ATOMIC_MAX_BYTES
 * (ab_run_no_reclaim()), with IRQs off, AB_IRQ_OFF_MAX_OBJS and
 * AB_IRQ_OFF_MAX_BYTES, and a cma run's against ab_info.cma_pages
 * @r:    the request
 * @info: the limits
 * @si:   its strategy
 * @fp:   its footprint (ab_run_footprint())
 * @no:   filled when refused: the first limit broken, with its figures
 *
 * Return: 0 or -E2BIG.
 */
int ab_run_check_limits(const struct ab_run *r, const struct ab_info *info,
			const struct ab_strategy_info *si,
			const struct ab_footprint *fp, struct ab_refusal *no);

/**
 * ab_run_check_memory - what follows from the footprint @fp of @r, whose
 * fields ab_run_check_fields() passed
 * @r:    the request
 * @info: the limits (max_bytes, kernel_flags, kmalloc_max_size)
 * @si:   its strategy
 * @fp:   its footprint
 * @no:   filled when refused
 *
 * An object its GFP flags can never allocate (ab_obj_not_applicable()),
 * then ab_run_check_limits(), then room for the samples, preemption or
 * IRQs off on PREEMPT_RT and sheaves the kernel cannot set.
 *
 * Return: 0, -EINVAL, -E2BIG (a limit, named in @no) or -EOPNOTSUPP.
 */
int ab_run_check_memory(const struct ab_run *r, const struct ab_info *info,
			const struct ab_strategy_info *si,
			const struct ab_footprint *fp, struct ab_refusal *no);

/**
 * ab_run_check_req - every rule of @r: ab_run_check_fields(), then its
 * footprint, computed once here into @fp, then ab_run_check_memory()
 * @r:    the request
 * @info: the limits
 * @si:   its strategy
 * @fp:   the footprint, filled once the fields passed (else zero)
 * @no:   filled when refused
 *
 * The module checks what only the kernel knows (a CPU online, a node with
 * memory) on top of this; the user backend what it cannot do; the CLI
 * applies the same functions to every request before asking.
 *
 * Return: 0, or the refusal's -EINVAL, -E2BIG or -EOPNOTSUPP.
 */
int ab_run_check_req(const struct ab_run *r, const struct ab_info *info,
		     const struct ab_strategy_info *si, struct ab_footprint *fp,
		     struct ab_refusal *no);

/*
 * ab_run_check_limit - ab_run_check_req() for a caller that wants only the
 * rule broken (*@why) and, when @limit is not NULL, the AB_LIMIT_* of an
 * -E2BIG (AB_LIMIT_NONE for any other answer)
 */
static inline int ab_run_check_limit(const struct ab_run *r,
				     const struct ab_info *info,
				     const struct ab_strategy_info *si,
				     const char **why, u32 *limit)
{
	struct ab_footprint fp;
	struct ab_refusal no;
	int err = ab_run_check_req(r, info, si, &fp, &no);

	if (err)
		*why = no.why;
	if (limit)
		*limit = no.limit;
	return err;
}

/* ab_run_check_limit() without the limit's name. */
static inline int ab_run_check(const struct ab_run *r,
			       const struct ab_info *info,
			       const struct ab_strategy_info *si,
			       const char **why)
{
	return ab_run_check_limit(r, info, si, why, NULL);
}

#endif
