/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ab_run.h - rules of struct ab_run that allocbench.ko, the user backend
 * and the CLI must apply alike, compiled into each of them.
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
 * 2^order pages of @page_size bytes (AB_PARAM_ORDER strategies).
 */
static inline u64 ab_run_obj_bytes(const struct ab_run *r, u32 page_size)
{
	return r->obj_size ? r->obj_size : (u64)page_size << r->order;
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
 * ab_run_footprint - fill @fp, the memory of run @r of strategy @si under
 * the limits @info (page_size, kmalloc_max_size)
 * @r:    the request
 * @info: the limits it is checked against
 * @si:   its strategy
 * @fp:   filled whole
 */
static inline void ab_run_footprint(const struct ab_run *r,
				    const struct ab_info *info,
				    const struct ab_strategy_info *si,
				    struct ab_footprint *fp)
{
	const struct ab_class_table *t;
	u32 page = info->page_size;
	u64 size;
	int idx;

	*fp = (struct ab_footprint){ 0 };
	fp->obj_bytes = ab_run_obj_bytes(r, page);
	fp->objs_held = ab_run_objs_held(r, si);
	if (!(si->params & (AB_PARAM_SIZE | AB_PARAM_ORDER)))
		return;
	size = fp->obj_bytes;
	if (si->flags & AB_STRATEGY_ONE_OBJECT)
		size = ab_mul_sat(size, r->batch);
	if ((si->params & AB_PARAM_LOOKUP) && size <= 0xffffffffULL &&
	    r->lookup_table < AB_TABLE_NR) {
		t = ab_class_table(r->lookup_table);
		idx = ab_lookup_reference(t, (u32)size);
		if (idx >= 0)
			size = t->sizes[idx];
	}
	fp->alloc_bytes = size;
	fp->never = ab_obj_not_applicable(si->flags, size, r->gfp,
					  info->kmalloc_max_size);
	fp->each_bytes = ab_obj_footprint(si->flags, size, r->gfp, page,
					  info->kmalloc_max_size);
	if ((si->flags & AB_STRATEGY_MEM_MASK) == AB_STRATEGY_MEM_CACHE)
		fp->held_bytes = ab_cache_held_bytes(size, fp->objs_held, page);
	else
		fp->held_bytes = ab_mul_sat(fp->each_bytes, fp->objs_held);
	fp->harness_bytes = ab_harness_bytes(fp->objs_held,
					     r->timing == AB_TIMING_SINGLE,
					     si->flags & AB_STRATEGY_PER_TRIAL,
					     page);
	fp->budget_bytes = ab_add_sat(fp->held_bytes, fp->harness_bytes);
}

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

/* Records why the check refused a request; returns @err. */
static inline int ab_refuse(const char **why, const char *text, int err)
{
	*why = text;
	return err;
}

/*
 * Records why, and which limit (AB_LIMIT_*) in *@limit when @limit is not
 * NULL, a request above that limit is refused; returns -E2BIG.
 */
static inline int ab_refuse_limit(const char **why, u32 *limit, u32 which,
				  const char *text)
{
	if (limit)
		*limit = which;
	return ab_refuse(why, text, -E2BIG);
}

/* A strategy that allocates, run where it must not sleep. */
static inline bool ab_run_atomic_ok(const struct ab_run *r, u32 params)
{
	if (!(params & (AB_PARAM_SIZE | AB_PARAM_ORDER)))
		return true; /* the baseline */
	return (params & AB_PARAM_GFP) &&
	       (r->gfp == AB_GFP_ATOMIC || r->gfp == AB_GFP_NOWAIT);
}

/*
 * ab_run_no_reclaim - @r allocates where it may not sleep or reclaim: a
 * GFP choice that may not block (atomic, nowait, noreclaim), or preemption or IRQs off around a
 * strategy that allocates (AB_ATOMIC_MAX_BYTES bounds what it holds).
 */
static inline bool ab_run_no_reclaim(const struct ab_run *r, u32 params)
{
	if (!(params & (AB_PARAM_SIZE | AB_PARAM_ORDER)))
		return false; /* the baseline */
	return r->context != AB_CTX_NORMAL || !ab_gfp_may_block(r->gfp);
}

/*
 * ab_run_check - every input field of @r against the ABI, strategy @si
 * (its parameters, flags and largest object) and the limits of @info
 * (max_batch, max_trials, max_bytes, nr_node_ids, page_size,
 * kernel_flags, kmalloc_max_size): 0, or -EINVAL for a value outside its
 * domain, a parameter the strategy does not take, an unknown flag, a
 * nonzero reserved field or an object its GFP flags can never allocate
 * (ab_obj_not_applicable()); -E2BIG for a count or size above its limit,
 * the memory held at once above max_bytes (the budget_bytes of
 * ab_run_footprint(), computed once here), or the objects' (its
 * held_bytes) above AB_PHASE_MAX_BYTES,
 * AB_ATOMIC_MAX_BYTES (ab_run_no_reclaim()) or, with IRQs off,
 * AB_IRQ_OFF_MAX_OBJS and AB_IRQ_OFF_MAX_BYTES among them; -EOPNOTSUPP
 * for preemption or IRQs off around allocations on PREEMPT_RT
 * (AB_KERNEL_PREEMPT_RT), where the allocators may sleep, and for
 * AB_RUN_SHEAVES the kernel cannot apply or a strategy it lacks
 * (AB_STRATEGY_UNAVAILABLE). *@why gets the
 * rule broken, and *@limit (when @limit is not NULL) the one AB_LIMIT_* of
 * an -E2BIG, the first broken in the order of the uapi header,
 * AB_LIMIT_NONE for any other answer. The module checks what only the
 * kernel knows (a CPU online, a node with memory) on top of this; the user
 * backend what it cannot do; the CLI calls it on every request before
 * asking.
 */
static inline int ab_run_check_limit(const struct ab_run *r,
				     const struct ab_info *info,
				     const struct ab_strategy_info *si,
				     const char **why, u32 *limit)
{
	u32 p = si->params;
	struct ab_footprint fp;

	if (limit)
		*limit = AB_LIMIT_NONE;
	if (si->flags & AB_STRATEGY_UNAVAILABLE)
		return ab_refuse(why, "a strategy this kernel lacks (its description says why)",
				 -EOPNOTSUPP);
	if (r->flags & ~AB_RUN_FLAGS_ALL)
		return ab_refuse(why, "an unknown flag", -EINVAL);
	if ((r->flags & AB_RUN_NOMERGE) && !(p & AB_PARAM_CACHE))
		return ab_refuse(why, "no kmem_cache of its own to keep unmerged",
				 -EINVAL);
	if (r->reserved[0] || r->reserved[1])
		return ab_refuse(why, "a reserved field set", -EINVAL);
	if ((r->flags & AB_RUN_SHEAVES) ?
	    !(p & AB_PARAM_CACHE) || r->sheaf_capacity > AB_SHEAF_MAX :
	    r->sheaf_capacity != 0)
		return ab_refuse(why, "sheaves without a kmem_cache of its own, above AB_SHEAF_MAX, or without AB_RUN_SHEAVES",
				 -EINVAL);
	if (r->align && (!(p & AB_PARAM_ALIGN) ||
			 (r->align & (r->align - 1)) ||
			 r->align % sizeof(void *)))
		return ab_refuse(why, "an alignment it does not take (a power of two, a multiple of the pointer size)",
				 -EINVAL);
	if ((r->flags & AB_RUN_REMOTE_FREE) ?
	    r->free_pattern == AB_FREE_PAIR : r->free_cpu != 0)
		return ab_refuse(why, "a free CPU without remote frees, or with pairs",
				 -EINVAL);
	if (r->lookup_table >= AB_TABLE_NR || r->lookup_method >= AB_LOOKUP_NR ||
	    ((r->lookup_table || r->lookup_method) && !(p & AB_PARAM_LOOKUP)))
		return ab_refuse(why, "a size-class lookup it does not make",
				 -EINVAL);
	if (r->timing >= AB_TIMING_NR || r->free_pattern >= AB_FREE_NR ||
	    r->context >= AB_CTX_NR)
		return ab_refuse(why, "an unknown timing, free pattern or context",
				 -EINVAL);
	if (r->seed && r->free_pattern != AB_FREE_SHUFFLE)
		return ab_refuse(why, "a seed without a shuffle", -EINVAL);
	if (r->gfp >= AB_GFP_NR || (r->gfp != AB_GFP_KERNEL && !(p & AB_PARAM_GFP)))
		return ab_refuse(why, "GFP flags it does not take", -EINVAL);
	/* __GFP_COMP and movable pages are the page allocator's alone */
	if (r->gfp == AB_GFP_THP && !(p & AB_PARAM_ORDER))
		return ab_refuse(why, "the THP mask without a page order",
				 -EINVAL);
	if (r->context != AB_CTX_NORMAL && !ab_run_atomic_ok(r, p) &&
	    !(si->flags & AB_STRATEGY_ANY_CONTEXT))
		return ab_refuse(why, "preemption or IRQs off around allocations that may sleep",
				 -EINVAL);
	if (r->context == AB_CTX_IRQ_OFF && (si->flags & AB_STRATEGY_IRQS_ON))
		return ab_refuse(why, "IRQs off around an API that enables them",
				 -EINVAL);
	if (r->node != -1 && (!(p & AB_PARAM_NODE) || r->node < 0 ||
			      (u32)r->node >= info->nr_node_ids))
		return ab_refuse(why, "a node it does not take", -EINVAL);
	if (!r->batch || !r->trials)
		return ab_refuse(why, "no objects or no trials", -EINVAL);
	if (r->batch > info->max_batch)
		return ab_refuse_limit(why, limit, AB_LIMIT_BATCH,
				       "a batch above the limit (max_batch)");
	if (r->trials > info->max_trials || r->warmup > info->max_trials)
		return ab_refuse_limit(why, limit, AB_LIMIT_TRIALS,
				       "a trial or warm-up count above the limit (max_trials)");
	if (p & AB_PARAM_SIZE) {
		if (!r->obj_size || r->order)
			return ab_refuse(why, "no object size, or a page order",
					 -EINVAL);
		if (r->obj_size > si->max_size)
			return ab_refuse_limit(why, limit, AB_LIMIT_OBJECT,
					       "an object above its largest");
		if ((si->flags & AB_STRATEGY_RCU) &&
		    r->obj_size < AB_RCU_MIN_SIZE)
			return ab_refuse(why, "an object too small for the RCU head its free puts in it (AB_RCU_MIN_SIZE)",
					 -EINVAL);
	} else if (p & AB_PARAM_ORDER) {
		if (r->obj_size)
			return ab_refuse(why, "an object size instead of a page order",
					 -EINVAL);
		if (r->order > si->max_order)
			return ab_refuse_limit(why, limit, AB_LIMIT_OBJECT,
					       "a page order above its largest");
	} else if (r->obj_size || r->order) {
		return ab_refuse(why, "an object size or order for no allocation",
				 -EINVAL);
	}
	ab_run_footprint(r, info, si, &fp);
	if (fp.never)
		return ab_refuse(why, "an object its GFP flags can never allocate (no vmalloc fallback without GFP_KERNEL, above the largest kmalloc)",
				 -EINVAL);
	if (fp.budget_bytes > info->max_bytes)
		return ab_refuse_limit(why, limit, AB_LIMIT_BUDGET,
				       "more bytes at once than the budget (max_outstanding_mb), counted as its allocator uses them");
	if (fp.held_bytes > AB_PHASE_MAX_BYTES)
		return ab_refuse_limit(why, limit, AB_LIMIT_PHASE,
				       "more bytes in one phase than AB_PHASE_MAX_BYTES allows");
	if (ab_run_no_reclaim(r, p) && fp.held_bytes > AB_ATOMIC_MAX_BYTES)
		return ab_refuse_limit(why, limit, AB_LIMIT_ATOMIC,
				       "more bytes per trial than atomic or nowait GFP flags, or preemption or IRQs off, allow (AB_ATOMIC_MAX_BYTES)");
	if (r->context == AB_CTX_IRQ_OFF && fp.alloc_bytes &&
	    fp.objs_held > AB_IRQ_OFF_MAX_OBJS)
		return ab_refuse_limit(why, limit, AB_LIMIT_IRQ_OFF_OBJS,
				       "more objects per phase than IRQs off allow (AB_IRQ_OFF_MAX_OBJS)");
	if (r->context == AB_CTX_IRQ_OFF && fp.alloc_bytes &&
	    fp.held_bytes > AB_IRQ_OFF_MAX_BYTES)
		return ab_refuse_limit(why, limit, AB_LIMIT_IRQ_OFF_BYTES,
				       "more bytes per phase than IRQs off allow (AB_IRQ_OFF_MAX_BYTES)");
	if (!r->samples_ptr != !r->samples_len ||
	    (r->samples_len && r->samples_len / r->trials <
	     ab_run_samples_per_trial(r, si->flags)))
		return ab_refuse(why, "room for fewer samples than the run writes",
				 -EINVAL);
	if ((info->kernel_flags & AB_KERNEL_PREEMPT_RT) && fp.alloc_bytes &&
	    r->context != AB_CTX_NORMAL)
		return ab_refuse(why, "preemption or IRQs off on PREEMPT_RT",
				 -EOPNOTSUPP);
	if ((r->flags & AB_RUN_SHEAVES) &&
	    !(info->kernel_flags & (r->sheaf_capacity ?
					    AB_KERNEL_SHEAF_CAPACITY :
					    AB_KERNEL_SHEAVES_OFF)))
		return ab_refuse(why, "sheaves this kernel cannot set on a cache (AB_KERNEL_SHEAF_CAPACITY, AB_KERNEL_SHEAVES_OFF)",
				 -EOPNOTSUPP);
	return 0;
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
