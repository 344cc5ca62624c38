// SPDX-License-Identifier: GPL-2.0-only
/*
 * report_busy.c - the notes and warnings on what the other CPUs did while
 * a job's passes were timed (lib/cpubusy.h), and the warning that the
 * embedded kernel's vCPUs are serialized (see runner.h), for report.c,
 * report_json.c and sweep.c.
 */
#include <stdio.h>
#include <string.h>

#include "report.h"

/* Why the other CPUs' busy time matters here, for the warning. */
static const char *busy_why(const struct ab_job *job)
{
	if (ab_env_vcpus_serialized(&job->session.env))
		return "this guest's vCPUs take turns on one host thread (allocbench.vm=tcg-single) and the TSC runs on while one waits, so what they ran lengthened the timed phases (while the figure is small, by about as much)";
	return "their work shares caches, memory bandwidth, an SMT core or (virtualized) the host's CPUs with the timed CPU, so the figures may be inflated; an idle machine gives figures of the allocator alone";
}

/*
 * What a figure surely holds, its resolution taken off (one tick per CPU):
 * the busiest pass by it is named, not a short pass's single tick.
 */
static double lower(const struct ab_cpubusy *b)
{
	return b->busy_pct - b->cpus * b->resolution_pct;
}

int ab_job_busy_lines(const struct ab_job *job, int summary,
		      void (*line)(const char *text, int warning,
				   const void *ctx),
		      const void *ctx)
{
	const struct ab_row *top = NULL;
	char text[1024], note[512];
	int i, known = 0, warn = 0, warnings = 0;

	/* the none baseline run for the job (-1) first: its time is subtracted
	 */
	for (i = -1; i < job->nrows; i++) {
		const struct ab_row *r =
			i < 0 ? &job->own_baseline : &job->rows[i];

		if (i < 0 && job->baseline != &job->own_baseline)
			continue;
		if (!r->ran || !r->busy.known)
			continue;
		known++;
		warn += ab_cpubusy_warns(&r->busy);
		/* a pass shorter than a tick has no figure to be the top */
		if (ab_cpubusy_resolved(&r->busy) &&
		    (!top || lower(&r->busy) > lower(&top->busy)))
			top = r;
		if (!summary) {
			snprintf(text, sizeof(text), "%s: %s", r->label,
				 ab_cpubusy_note(&r->busy, note, sizeof(note)));
			line(text, 0, ctx);
		}
	}
	if (summary && top) {
		snprintf(
			text, sizeof(text),
			"%d timed passes, %d with other CPUs busy above %.0f%% of one CPU (beyond a tick); the most surely busy in %s's: %s",
			known, warn, AB_CPUBUSY_WARN_PCT, top->label,
			ab_cpubusy_note(&top->busy, note, sizeof(note)));
		line(text, 0, ctx);
	} else if (summary && known) {
		snprintf(
			text, sizeof(text),
			"%d timed passes, each shorter than one /proc/stat tick: no figure of the other CPUs' busy time",
			known);
		line(text, 0, ctx);
	}
	if (warn) {
		snprintf(
			text, sizeof(text),
			"other CPUs were busy above %.0f%% of one CPU, beyond a /proc/stat tick, in %d of %d timed passes (up to %.1f%%, in %s's, cpu%d %.1f%%): %s",
			AB_CPUBUSY_WARN_PCT, warn, known, top->busy.busy_pct,
			top->label, top->busy.busiest_cpu,
			top->busy.busiest_pct, busy_why(job));
		line(text, 1, ctx);
		warnings++;
	}
	if (ab_env_vcpus_serialized(&job->session.env) && job->concurrent &&
	    job->ncpus > 1) {
		line("the vCPUs of this embedded kernel are serialized (qemu -accel tcg,thread=single, allocbench.vm=tcg-single): they take turns on one host thread, so the CPUs of this --concurrent run never ran at the same time; its aggregate throughput and contention figures are not concurrency",
		     1, ctx);
		warnings++;
	}
	if (ab_env_vcpus_serialized(&job->session.env) && job->free_cpu >= 0) {
		snprintf(
			text, sizeof(text),
			"the vCPUs of this embedded kernel are serialized (qemu -accel tcg,thread=single, allocbench.vm=tcg-single): they take turns on one host thread, so the frees on CPU %d never ran beside the allocating CPU; the remote-free figures show no concurrency",
			job->free_cpu);
		line(text, 1, ctx);
		warnings++;
	}
	return warnings;
}
