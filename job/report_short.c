// SPDX-License-Identifier: GPL-2.0-only
/*
 * report_short.c - run's default text (see report.h): a header of at most
 * four lines, one table of medians with their 95% CI and p99, B/object and
 * node hits, then the notes about this run alone. The full report is
 * report.c's, behind -v and --wide.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "ab_run.h"
#include "memcg.h"
#include "parse.h"
#include "report.h"
#include "textout.h"

/* more rows with disturbed trials than this: one note for them all */
#define AB_SHORT_DISTURBED 4

/* ab_job_busy_lines() counting its warnings alone */
static void no_line(const char *text, int warning, const void *ctx)
{
}

/* A figure in at most @w columns: one decimal below 10000, none above. */
static void print_fig(double v, int w)
{
	if (isnan(v))
		printf("%*s", w, "n/a");
	else if (fabs(v) < 10000)
		printf("%*.1f", w, v);
	else
		printf("%*.0f", w, v);
}

/*
 * The short header of any command on a session (report.h): the tool and
 * kernel; the CPU and whether it is virtualized; @params, the run's
 * parameters; the caveats, a word or two each, the environment's and then
 * @more's (the full header: -v, and always in the JSON).
 */
void ab_print_header_short(const struct ab_session *session, const char *title,
			   const char *params, const char *more)
{
	const struct ab_env *env = &session->env;
	unsigned int khz = session->bi.info.tsc_khz;
	char cav[512];
	int n;

	/* the module named by its version where it is not the tool's */
	if ((session->be->flags & AB_BACKEND_MODULE) &&
	    strcmp(session->bi.info.version, AB_TOOL_VERSION))
		printf("allocbench %s %s, %s.ko %s; ", AB_TOOL_VERSION, title,
		       AB_DEVICE_NAME, session->bi.info.version);
	else if (session->be->flags & AB_BACKEND_MODULE)
		printf("allocbench %s %s, %s.ko; ", AB_TOOL_VERSION, title,
		       AB_DEVICE_NAME);
	else
		printf("allocbench %s %s, %s backend; ", AB_TOOL_VERSION, title,
		       session->be->name);
	printf("kernel %s", env->release);
	if (env->flavour[0])
		printf(" (%s %s)",
		       env->distribution[0] ? env->distribution : "",
		       env->flavour);
	printf(", preempt %s\n", env->preempt_model);
	printf("cpu: %.60s, TSC %u.%03u MHz, %s%s%s%s%s%s\n", env->cpu_model,
	       khz / 1000, khz % 1000,
	       env->hypervisor > 0    ? "virtualized"
	       : env->hypervisor == 0 ? "bare metal"
				      : "virtualization unknown",
	       env->vm_accel[0] ? " (qemu " : "", env->vm_accel,
	       env->vm_accel[0] ? ")" : "",
	       env->vm_vpmu[0] ? ", virtual PMU " : "", env->vm_vpmu);
	printf("%s\n", params);
	n = ab_env_caveats(env, cav, sizeof(cav));
	if (more && *more)
		n += snprintf(cav + strlen(cav), sizeof(cav) - strlen(cav),
			      "%s%s", n ? ", " : "", more) > 0;
	if (n)
		printf("caveats: %s (-v says why)\n", cav);
	printf("\n");
}

/*
 * run's short header: the session's, with the run's parameters and its
 * own caveats (its context, the other CPUs' busy time).
 */
void ab_job_print_header_short(const struct ab_job *job)
{
	const struct ab_run_opts *o = &job->run_opts;
	char params[512], more[96] = "", none[128];
	const char *gfp, *warn = ab_context_warning(o->context);
	size_t at;

	if (job->concurrent && job->ncpus > 1) {
		char cpus[64];

		ab_format_list(job->cpus, job->ncpus, cpus, sizeof(cpus));
		at = (size_t)snprintf(params, sizeof(params), "CPUs %s at once",
				      cpus);
	} else if (job->nrows && job->rows[0].cpu >= 0) {
		at = (size_t)snprintf(params, sizeof(params),
				      "CPU: each row's own");
	} else {
		at = (size_t)snprintf(params, sizeof(params),
				      "CPU %d (node %d)", job->session.cpu,
				      job->cpu_node);
	}
	gfp = ab_job_gfp(job, none, sizeof(none));
	if (at < sizeof(params))
		snprintf(
			params + at, sizeof(params) - at,
			", %u %s x %u trials, %u warm-up, %s, %s timing, free %s%s%s, %s",
			o->batch, ab_noun(o->batch, "object", "objects"),
			o->trials, o->warmup,
			!(job->session.be->flags & AB_BACKEND_MODULE)
				? "userspace"
			: gfp ? gfp
			      : "no GFP flags",
			ab_timing_name(o->timing),
			ab_free_name(o->free_pattern),
			o->context != AB_CTX_NORMAL ? ", " : "",
			o->context != AB_CTX_NORMAL
				? ab_context_name(o->context)
				: "",
			job->raw ? "raw" : "net of none");
	/* the job's own warnings: its context, the other CPUs' busy time */
	if (warn)
		snprintf(more, sizeof(more), "%s", ab_context_name(o->context));
	if (ab_job_busy_lines(job, 1, no_line, NULL))
		snprintf(more + strlen(more), sizeof(more) - strlen(more),
			 "%s%s", more[0] ? ", " : "", "other CPUs busy");
	/* the cgroup's path is -v's (the full header) and the JSON's */
	if (ab_memcg_mode())
		snprintf(more + strlen(more), sizeof(more) - strlen(more),
			 "%smemcg %s", more[0] ? ", " : "",
			 ab_memcg_mode() == AB_MEMCG_NEW ? "made for the run"
							 : "of this process");
	ab_print_header_short(&job->session, job->title, params, more);
}

/*
 * The short table: per row the median ns/op of each phase with its 95%
 * CI and p99, B/object and the node's hit %; min, mean, max, cycles and
 * the distribution are -v's (and always the JSON's and the CSV's).
 */
static void print_table_short(const struct ab_job *job)
{
	int pair = job->run_opts.free_pattern == AB_FREE_PAIR &&
		   job->run_opts.timing == AB_TIMING_BATCH;
	int i, p, w = ab_job_label_width(job, 8), ow = 6;
	char obj[48], node[16];

	for (i = 0; i < job->nrows; i++) {
		if (!job->rows[i].ran)
			continue;
		ab_row_object_label(&job->rows[i], obj, sizeof(obj));
		if ((int)strlen(obj) > ow)
			ow = (int)strlen(obj);
	}
	printf("%-*s %-*s  %-36s %s\n", w, "", ow, "",
	       pair ? "alloc+free ns/op" : "alloc ns/op", "free ns/op");
	printf("%-*s %-*s  %8s %-18s %8s %8s %-18s %8s %8s %4s %5s\n", w,
	       "strategy", ow, "object", "median", " [95% CI]", "p99", "median",
	       " [95% CI]", "p99", "B/object", "node", "hit%");
	for (i = 0; i < job->nrows; i++) {
		const struct ab_row *r = &job->rows[i];

		if (!r->ran)
			continue;
		ab_row_object_label(r, obj, sizeof(obj));
		printf("%-*s %-*s ", w, r->label, ow, obj);
		for (p = 0; p < 2; p++) {
			const struct ab_stats *st = &r->net[p].ns;

			printf(" ");
			print_fig(st->median, 8);
			if (isnan(st->ci_lo)) {
				printf(" %-18s", " [n/a]");
			} else {
				printf("  [");
				print_fig(st->ci_lo, 7);
				printf(",");
				print_fig(st->ci_hi, 7);
				printf("]");
			}
			printf(" ");
			print_fig(st->p99, 8);
		}
		if (r->objmem.kind)
			printf(" %8.0f", r->objmem.bytes);
		else
			printf(" %8s", "-");
		if (r->run.target_node < 0)
			snprintf(node, sizeof(node), "-");
		else
			snprintf(node, sizeof(node), "%d%s", r->run.target_node,
				 r->run.node < 0 ? "L" : "");
		printf(" %4s", node);
		if (r->run.node_checked)
			printf(" %5.1f\n", 100.0 * (double)r->run.node_hits /
						   (double)r->run.node_checked);
		else
			printf(" %5s\n", "n/a");
	}
}

/*
 * The short notes: one line each, about this run alone (a disturbed
 * trial, a merged cache, a failure); what is true of every run is in
 * allocbench-run(1), NOTES.
 */
static void print_notes_short(const struct ab_job *job)
{
	char notes[AB_MAX_ROWS + 1][AB_NOTE_LEN], t[AB_NOTE_LEN];
	int i, k, n, shown = 0, disturbed = 0, most = -1;

	/* many rows (a sweep's cells): one note for their disturbed trials */
	for (i = 0; i < job->nrows; i++)
		if (job->rows[i].ran && job->rows[i].run.disturbed) {
			disturbed++;
			if (most < 0 || job->rows[i].run.disturbed >
						job->rows[most].run.disturbed)
				most = i;
		}
	if (disturbed <= AB_SHORT_DISTURBED)
		disturbed = 0;

	for (i = 0; i < job->nrows; i++) {
		const struct ab_row *row = &job->rows[i];
		const struct ab_run *run = &row->run;
		const struct ab_obj_mem *om = &row->objmem;
		const char *name = row->label;
		double mean, max;
		char map[160];

		if (!row->ran || (i && row->group == job->rows[i - 1].group))
			continue;
		if (!shown++)
			printf("\n");
		if (run->cache_merged == AB_MERGED_YES) {
			snprintf(
				t, sizeof(t),
				"%s: merged into an existing cache (slab merging); --nomerge gives it its own",
				name);
			ab_print_note("note", t);
		} else if (run->cache_merged == AB_MERGED_LATER) {
			snprintf(
				t, sizeof(t),
				"%s: another cache was merged into it during the run; --nomerge prevents it",
				name);
			ab_print_note("note", t);
		}
		if (ab_row_sheaves_differ(run, om)) {
			snprintf(
				t, sizeof(t),
				"%s: asked for sheaves of %u, the kernel gave %d",
				name, run->sheaf_capacity,
				om->slab.sheaf_capacity);
			ab_print_note("note", t);
		}
		if (ab_row_drain_ns(row, &mean, &max)) {
			snprintf(
				t, sizeof(t),
				"%s: untimed RCU wait after each free phase: %.1f us a trial, at most %.1f%s",
				name, mean / 1e3, max / 1e3,
				run->drain_late ? " (some gave up)" : "");
			ab_print_note("note", t);
		}
		if (ab_row_map_text(run, map, sizeof(map))) {
			snprintf(t, sizeof(t), "%s: mapped: %s", name, map);
			ab_print_note("note", t);
		}
		if (run->disturbed && !disturbed) {
			snprintf(
				t, sizeof(t),
				"%s: %u of %u trials disturbed (%llu %s, %u CPU %s)%s",
				name, run->disturbed, run->trials_done,
				(unsigned long long)run->switches,
				ab_noun(run->switches, "switch", "switches"),
				run->migrations,
				ab_noun(run->migrations, "change", "changes"),
				job->run_opts.drop_disturbed
					? ", left out"
					: "; --drop-disturbed");
			ab_print_note("note", t);
		}
		if (row->si->params & AB_PARAM_POOL) {
			ab_row_pool_text(row, t, sizeof(t));
			ab_print_note("note", t);
		}
		if (run->free_elsewhere) {
			snprintf(
				t, sizeof(t),
				"%s: %u free phases ran off --free-cpu=%u (it went offline)",
				name, run->free_elsewhere, run->free_cpu);
			ab_print_note("note", t);
		}
		if (run->failed) {
			snprintf(
				t, sizeof(t),
				"%s: %llu %s failed, each ending its trial (left out of the figures)",
				name, (unsigned long long)run->failed,
				ab_noun(run->failed, "allocation",
					"allocations"));
			ab_print_note("note", t);
		}
		if (run->trials_done < run->trials) {
			snprintf(t, sizeof(t),
				 "%s: interrupted after %u of %u trials", name,
				 run->trials_done, run->trials);
			ab_print_note("note", t);
		}
		if (run->cpu_start != run->cpu_end) {
			snprintf(t, sizeof(t),
				 "%s: migrated from CPU %u to CPU %u", name,
				 run->cpu_start, run->cpu_end);
			ab_print_note("note", t);
		}
	}
	if (disturbed) {
		snprintf(
			t, sizeof(t),
			"%d rows saw disturbed trials, %s the most (%u of %u)%s",
			disturbed, job->rows[most].label,
			job->rows[most].run.disturbed,
			job->rows[most].run.trials_done,
			job->run_opts.drop_disturbed
				? ", left out"
				: "; --drop-disturbed, -v");
		ab_print_note("note", t);
	}
	/* the kernel's and the net figures' notes, whole behind -v */
	n = ab_job_kernel_notes(job, notes, AB_MAX_ROWS);
	for (k = 0; k < n; k++)
		ab_print_note("note", notes[k]);
	n = ab_job_net_notes(job, notes, AB_MAX_ROWS + 1);
	for (k = 0; k < n; k++)
		ab_print_note("note", notes[k]);
	ab_job_print_aggregates(job);
}

/* compare's default text: the notes of the short report alone */
void ab_job_print_notes_short(const struct ab_job *job)
{
	print_notes_short(job);
}

void ab_job_print_short(const struct ab_job *job)
{
	ab_job_print_header_short(job);
	print_table_short(job);
	ab_job_print_counts(job);
	ab_job_print_condition(job);
	print_notes_short(job);
}
