/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * runner.h - running a job (runner.c): the baseline, each row alone or in
 * concurrent groups, the counters and the figures; the checks before
 * anything runs and --dry-run (runner_check.c), the progress line
 * (runner_progress.c).
 */
#ifndef AB_RUNNER_H
#define AB_RUNNER_H

#include "job.h"

/*
 * ab_job_run - run the baseline (batch timing) and every row, then compute
 * their figures. SIGINT and SIGTERM end the current run between trials;
 * what finished is kept. Returns AB_EXIT_OK, AB_EXIT_RUN or AB_EXIT_INTR.
 */
int ab_job_run(struct ab_job *job);

/*
 * ab_job_check - every check before anything runs (the events, the
 * condition, the sheaves, --explain, the baseline, memory and the limits
 * together; runner_check.c), which ab_job_run() and ab_job_dry_run()
 * make first: an exit status, job->refused set on a refusal.
 */
int ab_job_check(struct ab_job *job);

/*
 * ab_job_dry_run - --dry-run: every check ab_job_run() makes before it runs
 * anything (ab_job_setup() and the command's own came before), then one
 * line saying what would run (stdout; stderr when -o names a file, which
 * is left as it was), and nothing run. An exit status: AB_EXIT_OK, or the
 * refusal's after its message.
 */
int ab_job_dry_run(struct ab_job *job);

/*
 * ab_job_progress - one line on stderr, when it is a terminal: which run
 * of how many (@next of the job's rows, @i the row it starts) and, once a
 * run has ended, the time left at the pace so far (the runs done took
 * that long each on average; rows are bounded by memory and time, not by
 * a count, so a long job says how long).
 */
void ab_job_progress(const struct ab_job *job, int i, int next);

#endif
