// SPDX-License-Identifier: GPL-2.0-only
/*
 * report_text.c - ab_job_print() and ab_job_print_header() (see job.h):
 * the finished job in the format ab_out.formats chooses, from one table:
 * JSON (report_json.c), CSV (report_csv.c), or text: the full text with -v
 * or --wide (report.c) or the short default (report_short.c).
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

/* The text report: -v or --wide the full one, else the short one. */
static void print_text(const struct ab_job *job)
{
	int i;

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

static void print_json(const struct ab_job *job)
{
	ab_json_print(ab_job_json(job), stdout);
}

/*
 * The report's formats, the first one of ab_out.formats taking it (JSON
 * over CSV), text without either.
 */
static const struct {
	int format; /* enum ab_format, 0 for text */
	void (*print)(const struct ab_job *job);
} formats[] = {
	{ AB_FORMAT_JSON, print_json },
	{ AB_FORMAT_CSV, ab_job_print_csv },
	{ 0, print_text },
};

void ab_job_print(const struct ab_job *job)
{
	size_t i;

	if (job->refused)
		return;
	for (i = 0; formats[i].format && !(ab_out.formats & formats[i].format);
	     i++)
		;
	formats[i].print(job);
}
