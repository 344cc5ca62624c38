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
			  unsigned int copies, char *err, size_t len);

/*
 * ab_limit_name - the few words naming AB_LIMIT_* @limit ("the atomic
 * limit (AB_ATOMIC_MAX_BYTES)"), "?" for a value outside the uapi's.
 */
const char *ab_limit_name(uint32_t limit);

/*
 * ab_limit_refusal - the sentence for a run the module refused with @err
 * (-E2BIG or -EBUSY) and run->limit (AB_LIMIT_*, as ab_run_answer_check()
 * left it), into @why: the limit, what this run would hold or ask for,
 * and the limit's figure from @info and @si (the module's last
 * AB_IOC_INFO). With AB_LIMIT_NONE (a module older than ab_run.limit) it
 * says which limits it may have been. An -EBUSY says what the other runs
 * in progress held under the limit (run->limit_others) when the module
 * told it. Returns @err.
 */
int ab_limit_refusal(const struct ab_run *run, const struct ab_info *info,
		     const struct ab_strategy_info *si, int err, char *why,
		     size_t len);

#endif
