// SPDX-License-Identifier: GPL-2.0-only
/*
 * runner_progress.c - the job runner's progress line (runner.h).
 */
#include <stdio.h>
#include <time.h>

#include "runner.h"

/* @ns as "42 s", "3 min", "2.5 h": how long, to a useful precision. */
static void format_duration(double ns, char *buf, size_t len)
{
	double s = ns / 1e9;

	if (s < 100)
		snprintf(buf, len, "%.0f s", s);
	else if (s < 100 * 60)
		snprintf(buf, len, "%.0f min", s / 60);
	else
		snprintf(buf, len, "%.1f h", s / 3600);
}

void ab_job_progress(const struct ab_job *job, int i, int next)
{
	static double first;
	struct timespec ts;
	char left[32];
	double t;

	if (!job->progress)
		return;
	/* only for jobs that take more than a second */
	clock_gettime(CLOCK_MONOTONIC, &ts);
	t = ts.tv_sec * 1e9 + ts.tv_nsec;
	if (!first)
		first = t;
	if (t - first < 1e9)
		return;
	if (!i) {
		ab_progress("[%d/%d] %.40s", next, job->nrows,
			    job->rows[i].label);
		return;
	}
	format_duration((t - first) / i * (job->nrows - i), left, sizeof(left));
	ab_progress("[%d/%d] %.40s, about %s left", next, job->nrows,
		    job->rows[i].label, left);
}
