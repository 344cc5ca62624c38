// SPDX-License-Identifier: GPL-2.0-only
/*
 * report_text.c - ab_job_print() and ab_job_print_header() (see job.h):
 * the finished job as JSON (report_json.c), CSV (report_csv.c), the full
 * text with -v or --wide (report.c) or the short default (report_short.c).
 */
#include <stdio.h>
#include "report.h"
#include "textout.h"

/* -v or --wide: the full report; else the short one */
static int wide(void)
{
	return ab_out.wide || ab_out.verbose;
}

void ab_job_print_header(const struct ab_job *job)
{
	if (wide())
		ab_job_print_header_wide(job);
	else
		ab_job_print_header_short(job);
}

void ab_job_print(const struct ab_job *job)
{
	int i;

	if (job->refused)
		return;
	if (ab_out.json) {
		ab_json_print(ab_job_json(job), stdout);
		return;
	}
	if (job->csv) {
		ab_job_print_csv(job);
		return;
	}
	for (i = 0; i < job->nrows && !job->rows[i].ran; i++)
		;
	if (i == job->nrows) {
		printf("nothing to show: no strategy finished a run\n");
		return;
	}
	if (wide())
		ab_job_print_wide(job);
	else
		ab_job_print_short(job);
}
