// SPDX-License-Identifier: GPL-2.0-only
/*
 * runlimits.c - the module's limits over runs at once, and refusals that
 * name one limit (see runlimits.h).
 */
#include <errno.h>
#include <stdio.h>

#include "ab_run.h"
#include "runlimits.h"
#include "runopts.h"

int ab_run_check_together(const struct ab_run *run, const struct ab_info *info,
			  const struct ab_strategy_info *si,
			  unsigned int copies, char *err, size_t len)
{
	struct ab_footprint fp;
	unsigned long long each, all;

	ab_run_footprint(run, info, si, &fp);
	each = fp.budget_bytes;
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
	if (!ab_run_no_reclaim(run, si->params))
		return 0;
	each = fp.held_bytes;
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
	};

	return limit < AB_LIMIT_NR ? names[limit] : "?";
}

int ab_limit_refusal(const struct ab_run *run, const struct ab_info *info,
		     const struct ab_strategy_info *si, int err, char *why,
		     size_t len)
{
	struct ab_footprint fp = { 0 };
	const char *name = ab_limit_name(run->limit);
	unsigned long long want = 0, most = 0;
	const char *what = "bytes";

	if (si)
		ab_run_footprint(run, info, si, &fp);
	switch (run->limit) {
	case AB_LIMIT_BATCH:
		want = run->batch;
		most = info->max_batch;
		what = "objects per trial";
		break;
	case AB_LIMIT_TRIALS:
		want = run->trials > run->warmup ? run->trials : run->warmup;
		most = info->max_trials;
		what = "trials";
		break;
	case AB_LIMIT_OBJECT:
		want = si ? fp.obj_bytes
			  : ab_run_obj_bytes(run, info->page_size);
		most = si ? ab_strategy_max_bytes(si, info->page_size) : 0;
		what = "bytes per object";
		break;
	case AB_LIMIT_BUDGET:
		want = fp.budget_bytes;
		most = info->max_bytes;
		break;
	case AB_LIMIT_PHASE:
		want = fp.held_bytes;
		most = AB_PHASE_MAX_BYTES;
		break;
	case AB_LIMIT_ATOMIC:
		want = fp.held_bytes;
		most = AB_ATOMIC_MAX_BYTES;
		break;
	case AB_LIMIT_IRQ_OFF_OBJS:
		want = si ? fp.objs_held : run->batch;
		most = AB_IRQ_OFF_MAX_OBJS;
		what = "objects in a phase";
		break;
	case AB_LIMIT_IRQ_OFF_BYTES:
		want = fp.held_bytes;
		most = AB_IRQ_OFF_MAX_BYTES;
		break;
	default:
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
			name, want, what, others, most);
	} else {
		snprintf(
			why, len,
			"the module refused the run: above %s: %llu %s, the limit is %llu",
			name, want, what, most);
	}
	return err;
}
