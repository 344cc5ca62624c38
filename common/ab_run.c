// SPDX-License-Identifier: GPL-2.0
/*
 * ab_run.c - the rules of struct ab_run (ab_run.h) that allocbench.ko, the
 * user backend and the CLI apply alike: the footprint of a request and its
 * check, compiled into each of them (the module through kmod/common.c).
 */
#ifdef __KERNEL__
#include <linux/types.h>
#include <linux/errno.h>
#else
#include <errno.h>
#include "ab_compat.h"
#endif
#include <linux/allocbench.h>
#include "ab_run.h"

void ab_run_footprint(const struct ab_run *r, const struct ab_info *info,
		      const struct ab_strategy_info *si, struct ab_footprint *fp)
{
	const struct ab_class_table *t;
	u32 page = info->page_size;
	u32 kind;
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
	kind = si->flags & AB_STRATEGY_MEM_MASK;
	/* a per-CPU object: aligned, in every possible CPU's unit */
	if (kind == AB_STRATEGY_MEM_PERCPU && r->align > AB_PCPU_ALIGN)
		size = ab_round_up(size, r->align);
	fp->each_bytes = ab_obj_footprint(si->flags, size, r->gfp, page,
					  info->kmalloc_max_size);
	if (kind == AB_STRATEGY_MEM_PERCPU)
		fp->each_bytes = ab_mul_sat(fp->each_bytes,
					    info->possible_cpus ?
					    info->possible_cpus : 1);
	if (kind == AB_STRATEGY_MEM_CACHE)
		fp->held_bytes = ab_cache_held_bytes(size, fp->objs_held, page);
	else if (kind == AB_STRATEGY_MEM_FRAG)
		fp->held_bytes = ab_frag_held_bytes(size, fp->objs_held);
	else if (kind == AB_STRATEGY_MEM_BUCKETS)
		fp->held_bytes = ab_cache_held_bytes(ab_kmalloc_bytes(size, page),
						     fp->objs_held, page);
	else
		fp->held_bytes = ab_mul_sat(fp->each_bytes, fp->objs_held);
	/* a mempool's reserve and its array of pointers */
	if (kind == AB_STRATEGY_MEM_MEMPOOL) {
		size = ab_mul_sat(fp->each_bytes, r->pool_min);
		size = ab_add_sat(size, ab_kmalloc_bytes((u64)r->pool_min *
							 AB_PAGE_PTR_BYTES,
							 page));
		fp->held_bytes = ab_add_sat(fp->held_bytes, size);
	}
	fp->harness_bytes = ab_harness_bytes(fp->objs_held,
					     r->timing == AB_TIMING_SINGLE,
					     si->flags & AB_STRATEGY_PER_TRIAL,
					     page);
	fp->budget_bytes = ab_add_sat(fp->held_bytes, fp->harness_bytes);
}

void ab_limit_figures(u32 limit, const struct ab_run *r,
		      const struct ab_info *info,
		      const struct ab_strategy_info *si,
		      const struct ab_footprint *fp, struct ab_refusal *no)
{
	static const struct ab_footprint none;

	if (!fp)
		fp = &none;
	no->limit = limit;
	no->wanted = 0;
	no->allowed = 0;
	no->unit = "bytes";
	switch (limit) {
	case AB_LIMIT_BATCH:
		no->wanted = r->batch;
		no->allowed = info->max_batch;
		no->unit = "objects per trial";
		break;
	case AB_LIMIT_TRIALS:
		no->wanted = r->trials > r->warmup ? r->trials : r->warmup;
		no->allowed = info->max_trials;
		no->unit = "trials";
		break;
	case AB_LIMIT_OBJECT:
		no->wanted = fp->obj_bytes ? fp->obj_bytes :
			     ab_run_obj_bytes(r, info->page_size);
		no->allowed = si ? ab_strategy_max_bytes(si, info->page_size) :
			      0;
		no->unit = "bytes per object";
		break;
	case AB_LIMIT_BUDGET:
		no->wanted = fp->budget_bytes;
		no->allowed = info->max_bytes;
		break;
	case AB_LIMIT_PHASE:
		no->wanted = fp->held_bytes;
		no->allowed = AB_PHASE_MAX_BYTES;
		break;
	case AB_LIMIT_ATOMIC:
		no->wanted = fp->held_bytes;
		no->allowed = AB_ATOMIC_MAX_BYTES;
		break;
	case AB_LIMIT_IRQ_OFF_OBJS:
		no->wanted = fp->objs_held ? fp->objs_held : r->batch;
		no->allowed = AB_IRQ_OFF_MAX_OBJS;
		no->unit = "objects in a phase";
		break;
	case AB_LIMIT_IRQ_OFF_BYTES:
		no->wanted = fp->held_bytes;
		no->allowed = AB_IRQ_OFF_MAX_BYTES;
		break;
	case AB_LIMIT_CMA:
		no->wanted = fp->held_bytes;
		no->allowed = ab_mul_sat(info->cma_pages, info->page_size);
		break;
	}
}

/* Records why the check refused a request; returns @err. */
static int ab_refuse(struct ab_refusal *no, const char *text, int err)
{
	no->why = text;
	return err;
}

/*
 * Records why, which limit (AB_LIMIT_*) and its figures, a request above
 * that limit is refused; returns -E2BIG.
 */
static int ab_refuse_limit(struct ab_refusal *no, u32 which, const char *text,
			   const struct ab_run *r, const struct ab_info *info,
			   const struct ab_strategy_info *si,
			   const struct ab_footprint *fp)
{
	ab_limit_figures(which, r, info, si, fp, no);
	return ab_refuse(no, text, -E2BIG);
}

/* A strategy that allocates, run where it must not sleep. */
static bool ab_run_atomic_ok(const struct ab_run *r, u32 params)
{
	if (!(params & (AB_PARAM_SIZE | AB_PARAM_ORDER)))
		return true; /* the baseline */
	return (params & AB_PARAM_GFP) &&
	       (r->gfp == AB_GFP_ATOMIC || r->gfp == AB_GFP_NOWAIT);
}

bool ab_run_no_reclaim(const struct ab_run *r, u32 params)
{
	if (!(params & (AB_PARAM_SIZE | AB_PARAM_ORDER)))
		return false; /* the baseline */
	return r->context != AB_CTX_NORMAL || !ab_gfp_may_block(r->gfp);
}

int ab_run_check_fields(const struct ab_run *r, const struct ab_info *info,
			const struct ab_strategy_info *si,
			struct ab_refusal *no)
{
	u32 p = si->params;

	no->limit = AB_LIMIT_NONE;
	if (si->flags & AB_STRATEGY_UNAVAILABLE)
		return ab_refuse(no, "a strategy this kernel lacks (its description says why)",
				 -EOPNOTSUPP);
	if (r->flags & ~AB_RUN_FLAGS_ALL)
		return ab_refuse(no, "an unknown flag", -EINVAL);
	if ((r->flags & AB_RUN_NOMERGE) && !(p & AB_PARAM_CACHE))
		return ab_refuse(no, "no kmem_cache of its own to keep unmerged",
				 -EINVAL);
	if (r->reserved[0] || r->reserved[1])
		return ab_refuse(no, "a reserved field set", -EINVAL);
	if ((r->flags & AB_RUN_SHEAVES) ?
	    !(p & AB_PARAM_CACHE) || r->sheaf_capacity > AB_SHEAF_MAX :
	    r->sheaf_capacity != 0)
		return ab_refuse(no, "sheaves without a kmem_cache of its own, above AB_SHEAF_MAX, or without AB_RUN_SHEAVES",
				 -EINVAL);
	if (r->align && (!(p & AB_PARAM_ALIGN) ||
			 (r->align & (r->align - 1)) ||
			 r->align % sizeof(void *)))
		return ab_refuse(no, "an alignment it does not take (a power of two, a multiple of the pointer size)",
				 -EINVAL);
	if ((si->flags & AB_STRATEGY_MEM_MASK) == AB_STRATEGY_MEM_PERCPU &&
	    r->align > info->page_size)
		return ab_refuse(no, "a per-CPU alignment above a page (pcpu_alloc() takes none)",
				 -EINVAL);
	if (r->pool_reserved)
		return ab_refuse(no, "a reserved field set", -EINVAL);
	if ((p & AB_PARAM_POOL) ?
	    !r->pool_min || r->pool_min > info->max_batch : r->pool_min != 0)
		return ab_refuse(no, "a mempool reserve without a mempool, of no element, or above max_batch",
				 -EINVAL);
	if ((p & AB_PARAM_POOL) && r->gfp == AB_GFP_KERNEL_ZERO)
		return ab_refuse(no, "__GFP_ZERO, which mempool_alloc() does not take (it warns)",
				 -EINVAL);
	if ((p & AB_PARAM_POOL) && r->batch > r->pool_min &&
	    r->free_pattern != AB_FREE_PAIR &&
	    (!(p & AB_PARAM_GFP) || ab_gfp_may_block(r->gfp)))
		return ab_refuse(no, (p & AB_PARAM_GFP) ?
				 "more objects held than the mempool's reserve with GFP flags that may sleep (mempool_alloc() would wait for a free that only the run makes)" :
				 "a batch above the mempool's reserve, which alone serves it",
				 -EINVAL);
	if ((r->flags & AB_RUN_REMOTE_FREE) ?
	    r->free_pattern == AB_FREE_PAIR : r->free_cpu != 0)
		return ab_refuse(no, "a free CPU without remote frees, or with pairs",
				 -EINVAL);
	if (r->lookup_table >= AB_TABLE_NR || r->lookup_method >= AB_LOOKUP_NR ||
	    ((r->lookup_table || r->lookup_method) && !(p & AB_PARAM_LOOKUP)))
		return ab_refuse(no, "a size-class lookup it does not make",
				 -EINVAL);
	if (r->timing >= AB_TIMING_NR || r->free_pattern >= AB_FREE_NR ||
	    r->context >= AB_CTX_NR)
		return ab_refuse(no, "an unknown timing, free pattern or context",
				 -EINVAL);
	if (r->seed && r->free_pattern != AB_FREE_SHUFFLE)
		return ab_refuse(no, "a seed without a shuffle", -EINVAL);
	if (r->gfp >= AB_GFP_NR || (r->gfp != AB_GFP_KERNEL && !(p & AB_PARAM_GFP)))
		return ab_refuse(no, "GFP flags it does not take", -EINVAL);
	/* __GFP_COMP and movable pages are the page allocator's alone */
	if (r->gfp == AB_GFP_THP && !(p & AB_PARAM_ORDER))
		return ab_refuse(no, "the THP mask without a page order",
				 -EINVAL);
	if (r->context != AB_CTX_NORMAL && !ab_run_atomic_ok(r, p) &&
	    !(si->flags & AB_STRATEGY_ANY_CONTEXT))
		return ab_refuse(no, "preemption or IRQs off around allocations that may sleep",
				 -EINVAL);
	if (r->context == AB_CTX_IRQ_OFF && (si->flags & AB_STRATEGY_IRQS_ON))
		return ab_refuse(no, "IRQs off around an API that enables them",
				 -EINVAL);
	if (r->node != -1 && (!(p & AB_PARAM_NODE) || r->node < 0 ||
			      (u32)r->node >= info->nr_node_ids))
		return ab_refuse(no, "a node it does not take", -EINVAL);
	if (!r->batch || !r->trials)
		return ab_refuse(no, "no objects or no trials", -EINVAL);
	if (r->batch > info->max_batch)
		return ab_refuse_limit(no, AB_LIMIT_BATCH,
				       "a batch above the limit (max_batch)",
				       r, info, si, NULL);
	if (r->trials > info->max_trials || r->warmup > info->max_trials)
		return ab_refuse_limit(no, AB_LIMIT_TRIALS,
				       "a trial or warm-up count above the limit (max_trials)",
				       r, info, si, NULL);
	if (p & AB_PARAM_SIZE) {
		if (!r->obj_size || r->order)
			return ab_refuse(no, "no object size, or a page order",
					 -EINVAL);
		if (r->obj_size > si->max_size)
			return ab_refuse_limit(no, AB_LIMIT_OBJECT,
				       "an object above its largest",
				       r, info, si, NULL);
		if ((si->flags & AB_STRATEGY_RCU) &&
		    r->obj_size < AB_RCU_MIN_SIZE)
			return ab_refuse(no, "an object too small for the RCU head its free puts in it (AB_RCU_MIN_SIZE)",
					 -EINVAL);
	} else if (p & AB_PARAM_ORDER) {
		if (r->obj_size)
			return ab_refuse(no, "an object size instead of a page order",
					 -EINVAL);
		if (r->order > si->max_order)
			return ab_refuse_limit(no, AB_LIMIT_OBJECT,
				       "a page order above its largest",
				       r, info, si, NULL);
	} else if (r->obj_size || r->order) {
		return ab_refuse(no, "an object size or order for no allocation",
				 -EINVAL);
	}
	return 0;
}

int ab_run_check_limits(const struct ab_run *r, const struct ab_info *info,
			const struct ab_strategy_info *si,
			const struct ab_footprint *fp, struct ab_refusal *no)
{
	/* (an API that enables IRQs itself is refused for that, not here) */
	bool irq_off = r->context == AB_CTX_IRQ_OFF && fp->alloc_bytes &&
		       !(si->flags & AB_STRATEGY_IRQS_ON);

	no->limit = AB_LIMIT_NONE;
	if (fp->budget_bytes > info->max_bytes)
		return ab_refuse_limit(no, AB_LIMIT_BUDGET,
				       "more bytes at once than the budget (max_outstanding_mb), counted as its allocator uses them",
				       r, info, si, fp);
	if (fp->held_bytes > AB_PHASE_MAX_BYTES)
		return ab_refuse_limit(no, AB_LIMIT_PHASE,
				       "more bytes in one phase than AB_PHASE_MAX_BYTES allows",
				       r, info, si, fp);
	if (ab_run_no_reclaim(r, si->params) && fp->held_bytes > AB_ATOMIC_MAX_BYTES)
		return ab_refuse_limit(no, AB_LIMIT_ATOMIC,
				       "more bytes per trial than atomic or nowait GFP flags, or preemption or IRQs off, allow (AB_ATOMIC_MAX_BYTES)",
				       r, info, si, fp);
	if (irq_off && fp->objs_held > AB_IRQ_OFF_MAX_OBJS)
		return ab_refuse_limit(no, AB_LIMIT_IRQ_OFF_OBJS,
				       "more objects per phase than IRQs off allow (AB_IRQ_OFF_MAX_OBJS)",
				       r, info, si, fp);
	if (irq_off && fp->held_bytes > AB_IRQ_OFF_MAX_BYTES)
		return ab_refuse_limit(no, AB_LIMIT_IRQ_OFF_BYTES,
				       "more bytes per phase than IRQs off allow (AB_IRQ_OFF_MAX_BYTES)",
				       r, info, si, fp);
	/* a module that predates cma_pages says 0: nothing known to check */
	if ((si->flags & AB_STRATEGY_MEM_MASK) == AB_STRATEGY_MEM_CMA &&
	    info->cma_pages &&
	    fp->held_bytes > ab_mul_sat(info->cma_pages, info->page_size))
		return ab_refuse_limit(no, AB_LIMIT_CMA,
				       "more bytes at once than the kernel's CMA areas hold (ab_info.cma_pages)",
				       r, info, si, fp);
	return 0;
}

int ab_run_check_memory(const struct ab_run *r, const struct ab_info *info,
			const struct ab_strategy_info *si,
			const struct ab_footprint *fp, struct ab_refusal *no)
{
	int err;

	no->limit = AB_LIMIT_NONE;
	if (fp->never)
		return ab_refuse(no, "an object its GFP flags can never allocate (no vmalloc fallback without GFP_KERNEL, above the largest kmalloc)",
				 -EINVAL);
	err = ab_run_check_limits(r, info, si, fp, no);
	if (err)
		return err;
	if (!r->samples_ptr != !r->samples_len ||
	    (r->samples_len && r->samples_len / r->trials <
	     ab_run_samples_per_trial(r, si->flags)))
		return ab_refuse(no, "room for fewer samples than the run writes",
				 -EINVAL);
	if ((info->kernel_flags & AB_KERNEL_PREEMPT_RT) && fp->alloc_bytes &&
	    r->context != AB_CTX_NORMAL)
		return ab_refuse(no, "preemption or IRQs off on PREEMPT_RT",
				 -EOPNOTSUPP);
	if ((r->flags & AB_RUN_SHEAVES) &&
	    !(info->kernel_flags & (r->sheaf_capacity ?
					    AB_KERNEL_SHEAF_CAPACITY :
					    AB_KERNEL_SHEAVES_OFF)))
		return ab_refuse(no, "sheaves this kernel cannot set on a cache (AB_KERNEL_SHEAF_CAPACITY, AB_KERNEL_SHEAVES_OFF)",
				 -EOPNOTSUPP);
	return 0;
}

int ab_run_check_req(const struct ab_run *r, const struct ab_info *info,
		     const struct ab_strategy_info *si, struct ab_footprint *fp,
		     struct ab_refusal *no)
{
	int err = ab_run_check_fields(r, info, si, no);

	if (err) {
		*fp = (struct ab_footprint){ 0 };
		return err;
	}
	ab_run_footprint(r, info, si, fp);
	return ab_run_check_memory(r, info, si, fp, no);
}
