/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * runlimits.h - the module's limits over several runs at once, checked by
 * the CLI before anything runs, and the sentence for a refusal that names
 * one limit (ab_run.limit, AB_LIMIT_* in the uapi header).
 *
 * The module bounds each run alone (common/ab_run.h, ab_run_check(): the
 * CLI applies it to every request, ab_run_prepare()) and two sums over
 * all runs in progress at once (kmod/run.c, ab_ioctl_run()): the budget
 * ab_info.max_bytes, each run counted by its footprint's budget_bytes
 * (ab_run_footprint()), and AB_ATOMIC_MAX_BYTES, each run that may not
 * reclaim (ab_run_no_reclaim()) counted by its held_bytes. A run with remote
 * frees (AB_RUN_REMOTE_FREE) holds the same: its objects are its own until
 * its free phase, on the other CPU, is done, and the module reserves them
 * once for the run.
 */
#ifndef AB_RUNLIMITS_H
#define AB_RUNLIMITS_H

#include <stddef.h>
#include <stdint.h>

#include <linux/allocbench.h>
#include "ab_run.h"

/*
 * ab_limits_owner - who sets the limits of struct ab_info that refusals
 * name: @module 1 for the module (its parameters and constants, the
 * default), 0 for a backend that runs in this process (the user backend:
 * backends/user_limits.c: ab_user_limits(), its budget a quarter of memory).
 * ab_limits_whose() is "the module's" or "the user backend's";
 * ab_budget_source() where the budget comes from.
 */
void ab_limits_owner(int module);
/* ab_limits_module - 1 when the module sets them (ab_limits_owner()) */
int ab_limits_module(void);
const char *ab_limits_whose(void);
const char *ab_budget_source(void);

/*
 * ab_run_check_together - @copies runs of @run (strategy @si) at once, one
 * per CPU of `--concurrent`, against the sums the module enforces over
 * all runs in progress (above: the budget, then the atomic limit).
 * Returns 0, or -EINVAL with one line in @err (AB_ERRLEN bytes) naming the
 * limit, what the runs would hold together and the limit. @copies of 0 or
 * 1 is a run alone: 0 (ab_run_prepare() checks it). Sums saturate.
 */
int ab_run_check_together(const struct ab_run *run, const struct ab_info *info,
			  const struct ab_strategy_info *si,
			  const struct ab_footprint *fp, unsigned int copies,
			  char *err, size_t len);

/*
 * ab_limit_refused - the CLI's one line for request @run (strategy @si,
 * footprint @fp) that the shared check refused with @no before it was
 * sent (ab_run_check_limits(), ab_run_check_memory()): for a memory
 * limit the option, what it would hold and the limit; for any other
 * rule the check's phrase. Into @err (AB_ERRLEN bytes); returns -EINVAL.
 */
int ab_limit_refused(const struct ab_refusal *no, const struct ab_run *run,
		     const struct ab_strategy_info *si,
		     const struct ab_footprint *fp, char *err, size_t len);

/*
 * ab_limit_name - the few words naming AB_LIMIT_* @limit ("the atomic
 * limit (AB_ATOMIC_MAX_BYTES)"), "?" for a value outside the uapi's.
 */
const char *ab_limit_name(uint32_t limit);

/*
 * ab_limit_refusal - the sentence for a run the module refused with @err
 * (-E2BIG or -EBUSY) and run->limit (AB_LIMIT_*, as ab_run_answer_check()
 * left it), into @why: the limit, what this run would hold or ask for
 * (its footprint @fp, computed once with its request; NULL: unknown) and
 * the limit's figure from @info and @si (the module's last AB_IOC_INFO;
 * @si NULL: unknown), both from ab_limit_figures(). With AB_LIMIT_NONE (a
 * module older than ab_run.limit) it says which limits it may have been. An
 * -EBUSY says what the other runs in progress held under the limit
 * (run->limit_others) when the module told it. Returns @err.
 */
int ab_limit_refusal(const struct ab_run *run, const struct ab_info *info,
		     const struct ab_strategy_info *si,
		     const struct ab_footprint *fp, int err, char *why,
		     size_t len);

#endif
