/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * runner.h - running a job (runner.c): the baseline, each row alone or in
 * concurrent groups, the counters and the figures.
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

#endif
