// SPDX-License-Identifier: GPL-2.0-only
/*
 * run.c - `allocbench run`: run strategies through a backend and print, per
 * strategy, the per-operation cost of the alloc and free phases over trials
 * (runner.c does the running and the printing).
 */
#include <stdlib.h>

#include "options.h"
#include "report.h"
#include "runner.h"

int cmd_run(int argc, const char **argv)
{
	struct ab_job *job = ab_job_new();
	int ret;

	if (!job)
		return AB_EXIT_RUN;
	ret = ab_run_parse("run", argc, argv, job, NULL, NULL, 0);
	ret = ret < 0 ? -ret : ab_run_setup(job);
	if (!ret && ab_out.dry_run) {
		ret = ab_job_dry_run(job);
	} else if (!ret) {
		ret = ab_job_run(job);
		ab_job_print(job);
	}
	ab_job_free(job);
	free(job);
	return ret;
}
