// SPDX-License-Identifier: GPL-2.0-only
/*
 * runlimits.c - the module's limits over runs at once, and refusals that
 * name one limit (see runlimits.h).
 */
#include <errno.h>
#include <stdio.h>

#include "ab_run.h"
#include "runlimits.h"
#include "runnames.h"

static int limits_module = 1;

void ab_limits_owner(int module)
{
	limits_module = module;
}

int ab_limits_module(void)
{
	return limits_module;
}

const char *ab_limits_whose(void)
{
	return limits_module ? "the module's" : "the user backend's";
}

const char *ab_budget_source(void)
{
	return limits_module ? "module parameter max_outstanding_mb"
			     : "a quarter of this machine's memory";
}

int ab_run_check_together(const struct ab_run *run, const struct ab_info *info,
			  const struct ab_strategy_info *si,
			  const struct ab_footprint *fp, unsigned int copies,
			  char *err, size_t len)
{
	unsigned long long each, all;

	each = fp->budget_bytes;
	if (copies < 2)
		return 0;
	all = ab_mul_sat(each, copies);
	/* AB_ERRLEN (256) bytes: the runs, the sum, the limit, what to do */
	if (all > info->max_bytes) {
		snprintf(
			err, len,
			"--concurrent: %s on %u CPUs would hold %llu bytes at once (%u x %llu, counted as %s, and arrays), above %s budget of %llu bytes (%s); lower --batch or --size, or use fewer CPUs",
			si->name, copies, all, copies, each,
			ab_mem_rule(si->flags), ab_limits_whose(),
			(unsigned long long)info->max_bytes,
			ab_budget_source());
		return -EINVAL;
	}
	each = fp->held_bytes;
	all = ab_mul_sat(each, copies);
	if ((si->flags & AB_STRATEGY_MEM_MASK) == AB_STRATEGY_MEM_CMA &&
	    info->cma_pages &&
	    all > ab_mul_sat(info->cma_pages, info->page_size)) {
		snprintf(
			err, len,
			"--concurrent: %s on %u CPUs would hold %llu bytes at once (%u x %llu), above the %llu bytes of the kernel's CMA areas (`allocbench info`: CMA); lower --batch or --order, or use fewer CPUs",
			si->name, copies, all, copies, each,
			(unsigned long long)ab_mul_sat(info->cma_pages,
						       info->page_size));
		return -EINVAL;
	}
	if (!ab_run_no_reclaim(run, si->params))
		return 0;
	each = fp->held_bytes;
	all = ab_mul_sat(each, copies);
	if (all > AB_ATOMIC_MAX_BYTES) {
		const char *gfp =
			ab_strategy_gfp_name(si, run->gfp, ab_limits_module());

		snprintf(
			err, len,
			"--concurrent: %s on %u CPUs would hold %llu bytes at once with %s, context %s (%u x %llu), above the module's atomic limit of %llu bytes over all runs (AB_ATOMIC_MAX_BYTES); lower --batch or --size, or use fewer CPUs",
			si->name, copies, all, gfp ? gfp : "no GFP flags",
			ab_context_name(run->context), copies, each,
			AB_ATOMIC_MAX_BYTES);
		return -EINVAL;
	}
	return 0;
}

const char *ab_limit_name(uint32_t limit)
{
	static const char *const names[AB_LIMIT_NR] = {
		[AB_LIMIT_NONE] = "no limit",
		[AB_LIMIT_BATCH] = "the batch limit (max_batch)",
		[AB_LIMIT_TRIALS] = "the trial limit (max_trials)",
		[AB_LIMIT_OBJECT] = "the strategy's largest object",
		[AB_LIMIT_BUDGET] = "the memory budget (max_outstanding_mb)",
		[AB_LIMIT_PHASE] = "the phase limit (AB_PHASE_MAX_BYTES)",
		[AB_LIMIT_ATOMIC] = "the atomic limit (AB_ATOMIC_MAX_BYTES)",
		[AB_LIMIT_IRQ_OFF_OBJS] =
			"the IRQs-off object limit (AB_IRQ_OFF_MAX_OBJS)",
		[AB_LIMIT_IRQ_OFF_BYTES] =
			"the IRQs-off byte limit (AB_IRQ_OFF_MAX_BYTES)",
		[AB_LIMIT_CMA] = "the CMA areas' size (cma_pages)",
	};

	return limit < AB_LIMIT_NR ? names[limit] : "?";
}

int ab_limit_refused(const struct ab_refusal *no, const struct ab_run *run,
		     const struct ab_strategy_info *si,
		     const struct ab_footprint *fp, char *err, size_t len)
{
	unsigned long long held = fp->held_bytes;

	/* AB_ERRLEN (256) bytes: the request, the limit, why */
	switch (no->limit) {
	case AB_LIMIT_BUDGET:
		snprintf(
			err, len,
			"--batch=%u: %s would hold %llu bytes at once (%u x %llu bytes, %llu each as %s, and arrays), above the %llu-byte budget (%s); lower --batch or --size",
			run->batch, si->name, (unsigned long long)no->wanted,
			fp->objs_held, (unsigned long long)fp->alloc_bytes,
			(unsigned long long)fp->each_bytes,
			ab_mem_rule(si->flags), (unsigned long long)no->allowed,
			ab_budget_source());
		break;
	case AB_LIMIT_PHASE:
		snprintf(
			err, len,
			"--batch=%u: %s would allocate %llu bytes in one phase, above the limit of %llu (AB_PHASE_MAX_BYTES: a phase is not rescheduled); lower --batch or --size",
			run->batch, si->name, held, AB_PHASE_MAX_BYTES);
		break;
	case AB_LIMIT_ATOMIC:
		snprintf(
			err, len,
			"--batch=%u: %s would hold %llu bytes in a trial, above the limit of %llu for --gfp=%s or --context=%s (AB_ATOMIC_MAX_BYTES: no reclaim)",
			run->batch, si->name, held, AB_ATOMIC_MAX_BYTES,
			ab_gfp_option_name(run->gfp),
			ab_context_name(run->context));
		break;
	case AB_LIMIT_IRQ_OFF_OBJS:
	case AB_LIMIT_IRQ_OFF_BYTES:
		snprintf(
			err, len,
			"--batch=%u: %s would take %u objects, %llu bytes, with IRQs off in one phase, above the limit of %u objects and %llu bytes (AB_IRQ_OFF_MAX_*)",
			run->batch, si->name, fp->objs_held, held,
			AB_IRQ_OFF_MAX_OBJS, AB_IRQ_OFF_MAX_BYTES);
		break;
	case AB_LIMIT_CMA:
		snprintf(
			err, len,
			"--batch=%u: %s would hold %llu bytes at once (%u x %llu, order %u), above the %llu bytes of the kernel's CMA areas (`allocbench info`: CMA); lower --batch or --order, or boot with a larger cma=",
			run->batch, si->name, held, fp->objs_held,
			(unsigned long long)fp->alloc_bytes, run->order,
			(unsigned long long)no->allowed);
		break;
	default:
		snprintf(err, len, "%s: the request has %s (`allocbench info`)",
			 si->name, no->why);
		break;
	}
	return -EINVAL;
}

int ab_limit_refusal(const struct ab_run *run, const struct ab_info *info,
		     const struct ab_strategy_info *si,
		     const struct ab_footprint *fp, int err, char *why,
		     size_t len)
{
	struct ab_refusal no;
	const char *name = ab_limit_name(run->limit);

	ab_limit_figures(run->limit, run, info, si, fp, &no);
	if (run->limit == AB_LIMIT_NONE || run->limit >= AB_LIMIT_NR) {
		/* a module older than ab_run.limit: it does not say */
		if (err == -EBUSY)
			snprintf(
				why, len,
				"the module refused the run: the runs in progress leave no room for it under its memory budget (max_outstanding_mb) or its atomic limit of %llu bytes (AB_ATOMIC_MAX_BYTES); this module does not say which",
				AB_ATOMIC_MAX_BYTES);
		else
			snprintf(
				why, len,
				"the module refused the run: a count or size is above its limits (`allocbench info` lists them); this module does not say which");
		return err;
	}
	if (err == -EBUSY) {
		/* a module older than ab_run.limit_others does not say */
		char others[80] = "";

		if (run->limit_others)
			snprintf(others, sizeof(others),
				 ", the other runs in progress held %llu",
				 (unsigned long long)run->limit_others);
		snprintf(
			why, len,
			"the module refused the run: with the runs in progress it would be above %s: this run holds %llu %s%s, the limit over all runs at once is %llu",
			name, (unsigned long long)no.wanted, no.unit, others,
			(unsigned long long)no.allowed);
	} else {
		snprintf(
			why, len,
			"the module refused the run: above %s: %llu %s, the limit is %llu",
			name, (unsigned long long)no.wanted, no.unit,
			(unsigned long long)no.allowed);
	}
	return err;
}
