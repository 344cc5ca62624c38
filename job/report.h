/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * report.h - printing a finished job: text (report.c), CSV
 * (report_csv.c), JSON (report_json.c), the other CPUs' busy time
 * (report_busy.c), --profile (report_prof.c), --paths (report_paths.c).
 */
#ifndef AB_REPORT_H
#define AB_REPORT_H

#include <stdio.h>

#include "job.h"

/*
 * ab_job_json - the JSON document of a finished job: envelope, module,
 * environment, parameters, the baseline and every result.
 */
json_object *ab_job_json(const struct ab_job *job);

/*
 * ab_job_print_kernel_notes - the "note:" lines the kernel makes necessary
 * for the job's strategies (kmalloc_class with RANDOM_KMALLOC_CACHES);
 * ab_job_print() and ab_job_json() ("notes") include them.
 */
void ab_job_print_kernel_notes(const struct ab_job *job);

/*
 * ab_job_print_net_notes - the "note:" lines net figures need
 * (ab_job_net_notes(): a none baseline on too few trials, a net median
 * below zero), for run's report and sweep's table.
 */
void ab_job_print_net_notes(const struct ab_job *job);

/*
 * ab_job_print_short - run's default text (report_short.c): the short
 * header, one table, the counts, the condition and the notes about this
 * run alone; ab_job_print_header_short() is its header.
 */
void ab_job_print_short(const struct ab_job *job);
void ab_job_print_header_short(const struct ab_job *job);
/*
 * ab_print_header_short - the short header of a command on @session (at most
 * four lines and an empty one): tool and kernel, CPU, @params, caveats
 * with @more (may be NULL) after the environment's.
 */
void ab_print_header_short(const struct ab_session *session, const char *title,
			   const char *params, const char *more);
/* ab_job_print_notes_short - the short report's notes alone (compare) */
void ab_job_print_notes_short(const struct ab_job *job);

/*
 * ab_job_print_wide - the full text report (report.c: -v, --wide): the
 * whole header, the table, the distributions, the counts, the memory, the
 * condition, every note and --histogram; ab_job_print_header_wide() is its
 * header.
 */
void ab_job_print_wide(const struct ab_job *job);
void ab_job_print_header_wide(const struct ab_job *job);

/*
 * ab_job_print_table, ab_job_print_distribution - the full report's table
 * of per-op figures and its distribution lines; ab_row_print_histogram -
 * --histogram: one log2 histogram of @r's per-op net ns of @phase (0 alloc,
 * 1 free); all three report_table.c's
 */
void ab_job_print_table(const struct ab_job *job);
void ab_job_print_distribution(const struct ab_job *job);
void ab_row_print_histogram(const struct ab_row *r, int phase);

/* ab_job_label_width - the label column's width: the longest label that
 * ran, at least @least */
int ab_job_label_width(const struct ab_job *job, int least);

/*
 * ab_row_sheaves_differ - the run asked for sheaves (AB_RUN_SHEAVES) and its
 * cache's geometry states another capacity: both reports note it
 */
bool ab_row_sheaves_differ(const struct ab_run *run,
			   const struct ab_obj_mem *om);

/*
 * ab_row_map_text - how the run's checked vmalloc areas were mapped
 * (ab_run.map_pages, map_areas), into @buf: "4 areas: 2 MiB pages 16
 * (4 an area), 4 KiB pages 0 (0 an area)"; false (nothing written) when none
 * was checked. Both reports note it.
 */
bool ab_row_map_text(const struct ab_run *run, char *buf, size_t len);

/* ab_row_object_label - the object column of @r: its size or order */
void ab_row_object_label(const struct ab_row *r, char *buf, size_t len);

/*
 * ab_row_timed_ns - the timed phases of @r's measured trials, summed: its
 * samples' alloc and free cycles in ns (setup, warm-up trials, node
 * checks, the condition's restores and untimed waits left out); NAN
 * without samples or a TSC rate
 */
double ab_row_timed_ns(const struct ab_row *r);

/*
 * ab_job_print_aggregates - --concurrent: per strategy, the objects all
 * CPUs allocated and freed in their measured trials over the slowest
 * CPU's timed phases (ab_row_timed_ns())
 */
void ab_job_print_aggregates(const struct ab_job *job);

/*
 * ab_job_print_profile - --profile: each row's instructions per op by
 * function (nothing without --profile)
 */
void ab_job_print_profile(const struct ab_job *job);

/* ab_row_profile_json - a row's profile as JSON, NULL without one */
json_object *ab_row_profile_json(const struct ab_row *r);

/*
 * ab_job_print_paths - --paths: each row's path lengths per phase, the
 * fast path first (nothing without --paths; report_paths.c)
 */
void ab_job_print_paths(const struct ab_job *job);

/*
 * ab_row_paths_json - a row's path lengths as JSON ({"alloc": {...},
 * "free": {...}}), NULL without them
 */
json_object *ab_row_paths_json(const struct ab_row *r);

/*
 * ab_job_print_counts - what the counting pass counted, per row: the
 * counters per op (--events), the profile (--profile) and the allocators'
 * paths (--explain); nothing without them. ab_job_print() includes it.
 */
void ab_job_print_counts(const struct ab_job *job);

/* ab_job_print_header - the header alone: versions, environment, setup. */
void ab_job_print_header(const struct ab_job *job);

/*
 * ab_job_busy_lines - the notes on the other CPUs' busy time (one per row
 * that ran, "LABEL: other CPUs busy ...", or one line for the whole job
 * with @summary: the largest figure and how many rows warn), and the
 * warnings the job's figures need, "warning: ..." (busy time above
 * AB_CPUBUSY_WARN_PCT; vCPUs serialized in a --concurrent or --free-cpu
 * run). Each line, without its "note: " or "warning: ", goes to @line(text,
 * is_warning, @ctx). Returns the number of warnings.
 */
int ab_job_busy_lines(const struct ab_job *job, int summary,
		      void (*line)(const char *text, int warning,
				   const void *ctx),
		      const void *ctx);

/*
 * ab_job_print_condition - the memory condition each row met and the
 * background load (report_cond.c), then the success rate per row with its
 * Wilson interval and, in single timing, p50..max of the successful
 * allocations: with --condition, or when an allocation failed.
 */
void ab_job_print_condition(const struct ab_job *job);
/* ab_row_condition_json - a row's condition as JSON, NULL without one */
json_object *ab_row_condition_json(const struct ab_row *r);
/* ab_row_success_json - {attempts, rate, wilson95} of a row's allocations */
json_object *ab_row_success_json(const struct ab_row *r);

/*
 * ab_job_print_csv - --csv (report_csv.c): a header record naming the
 * columns, then one record per row that ran: its parameters, each
 * phase's statistics in ns (net of the baseline where "values" says net),
 * the disturbance and RCU fields (empty where the backend does not count
 * them) and each counter per op.
 */
void ab_job_print_csv(const struct ab_job *job);

/* ab_job_print - header, tables (or CSV), notes, histograms. */
void ab_job_print(const struct ab_job *job);

/*
 * ab_row_pool_text - a mempool row's (AB_PARAM_POOL) note into @t: the
 * elements its measured alloc phases took from the reserve of min_nr, of
 * the trials counted (those that began without their condition left out,
 * as from every figure), or that they were not counted (pairs); each
 * report prints it its own way
 */
void ab_row_pool_text(const struct ab_row *r, char *t, size_t len);

/*
 * ab_row_drain_ns - get an AB_STRATEGY_RCU row's untimed waits after its free
 * phases (ab_run.drain_cycles, drain_max_cycles), in ns: the mean per
 * measured trial into *@mean_ns, the longest into *@max_ns. Returns 0 for
 * a row without them (another strategy, no trial done, no TSC rate).
 */
static inline int ab_row_drain_ns(const struct ab_row *r, double *mean_ns,
				  double *max_ns)
{
	const struct ab_run *run = &r->run;

	if (!(r->si->flags & AB_STRATEGY_RCU) || !run->trials_done ||
	    !run->tsc_khz)
		return 0;
	*mean_ns = (double)run->drain_cycles * 1e6 / run->tsc_khz /
		   run->trials_done;
	*max_ns = (double)run->drain_max_cycles * 1e6 / run->tsc_khz;
	return 1;
}

#endif
