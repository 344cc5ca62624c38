/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ab_run.h - rules of struct ab_run that allocbench.ko, the user backend
 * and the CLI must apply alike, compiled into each of them.
 */
#ifndef AB_RUN_H
#define AB_RUN_H

#ifdef __KERNEL__
#include <linux/types.h>
#else
#include "ab_compat.h"
#endif
#include <linux/allocbench.h>

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

#endif
