// SPDX-License-Identifier: GPL-2.0-only
/*
 * runner_check.c - the job runner's checks before anything runs
 * (runner.h): the events, the condition, the sheaves, --explain, the
 * baseline, the samples' memory and --concurrent's limits together;
 * --dry-run, which makes them and runs nothing.
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/random.h>

#include "ab_run.h"
#include "kfile.h"
#include "runlimits.h"
#include "condition.h"
#include "runner.h"
#include "textout.h"

/* Bytes the CLI holds per sample: the sample, and its ns in each phase. */
#define SAMPLE_BYTES (sizeof(struct ab_sample) + 2 * sizeof(double))

/* MemAvailable of /proc/meminfo in bytes; 0 when it cannot be read. */
static uint64_t mem_available(void)
{
	uint64_t v;

	return ab_kfile_field(&v, "MemAvailable", "/proc/meminfo") ? 0 : v;
}

/*
 * The samples every run of @job will hold in this process at once (rows,
 * one per CPU with --concurrent, and the baseline; with --json also their
 * text, about 24 bytes a number per phase), checked against MemAvailable
 * before anything runs: past it the CLI would be OOM-killed mid-run.
 * AB_EXIT_USAGE after the reason, or AB_EXIT_OK.
 */
static int check_memory(const struct ab_job *job)
{
	uint64_t samples = 0, need, avail = mem_available();
	int i, copies = job->concurrent && job->ncpus > 1 ? job->ncpus : 1;

	for (i = 0; i < job->nrows; i++)
		samples += (uint64_t)job->rows[i].run.trials *
			   ab_run_samples_per_trial(&job->rows[i].run,
						    job->rows[i].si->flags) *
			   (uint64_t)copies;
	if (job->baseline == &job->own_baseline)
		samples +=
			(uint64_t)job->own_baseline.run.trials *
			ab_run_samples_per_trial(&job->own_baseline.run,
						 job->own_baseline.si->flags);
	need = samples * (SAMPLE_BYTES +
			  ((ab_out.formats & AB_FORMAT_JSON) ? 2 * 24 : 0));
	if (!avail || need <= avail)
		return AB_EXIT_OK;
	ab_err("--trials=%u: the runs' %llu samples need %.1f MiB in this process, more than the %.1f MiB available here (MemAvailable); fewer trials, or a smaller --batch with --timing=single",
	       job->run_opts.trials, (unsigned long long)samples,
	       (double)need / (1 << 20), (double)avail / (1 << 20));
	return AB_EXIT_USAGE;
}

/*
 * --concurrent: every CPU's run of a strategy holds its batch at the same
 * time, so the limits the module enforces over all runs in progress (the
 * budget, the atomic limit: lib/runlimits.h) are checked on their sum,
 * before anything runs; each run alone passed ab_run_prepare().
 */
static int check_together(const struct ab_job *job)
{
	char err[AB_ERRLEN];
	int i;

	if (!job->concurrent || job->ncpus < 2)
		return AB_EXIT_OK;
	for (i = 0; i < job->nrows; i++)
		if (ab_run_check_together(
			    &job->rows[i].run, &job->session.bi.info,
			    job->rows[i].si, &job->rows[i].fp,
			    (unsigned int)job->ncpus, err, sizeof(err))) {
			ab_err("%s", err);
			return AB_EXIT_USAGE;
		}
	return AB_EXIT_OK;
}

/*
 * --explain: the internal paths of the rows' families this kernel can
 * count (lib/explain.c), appended to --events ("default": its software
 * set, which needs no PMU). Returns an exit status.
 */
static int explain_setup(struct ab_job *job)
{
	unsigned int fam = 0;
	const char *extra = job->events;
	int i;

	if (!(job->session.be->flags & AB_BACKEND_MODULE)) {
		ab_err("--explain: it counts the kernel allocators' own paths; the %s backend runs none (use --backend=kmod)",
		       job->session.be->name);
		return AB_EXIT_USAGE;
	}
	for (i = 0; i < job->nrows; i++)
		fam |= ab_family_of(job->rows[i].si->flags,
				    job->rows[i].si->params);
	/* in a memory cgroup: its paths too, for every row */
	if (ab_memcg_mode())
		fam |= AB_FAMILY_MEMCG;
	ab_explain_select(&job->explain_paths, fam, ab_counter_exists);
	/* the frees run in a work item on --free-cpu: not this thread's */
	if (job->free_cpu >= 0)
		ab_explain_frees_elsewhere(&job->explain_paths);
	if (extra && !strcmp(extra, "default"))
		extra = AB_DEFAULT_SW_EVENTS;
	if (ab_explain_events(&job->explain_paths, extra, job->explain_events,
			      sizeof(job->explain_events))) {
		ab_err("--explain: with --events=%s the list of events is too long",
		       job->events);
		return AB_EXIT_USAGE;
	}
	job->events = job->explain_events[0] ? job->explain_events : NULL;
	return AB_EXIT_OK;
}

/*
 * Every check before anything runs (the events, the condition, the
 * sheaves, --explain, the baseline, memory and the limits together): an
 * exit status, job->refused set on a refusal.
 */
int ab_job_check(struct ab_job *job)
{
	const struct ab_strategy_info *none;
	char err[AB_ERRLEN];
	int i, ret;

	if (job->run_opts.free_pattern == AB_FREE_SHUFFLE &&
	    !job->run_opts.seed_set) {
		if (getrandom(&job->run_opts.seed, sizeof(job->run_opts.seed),
			      0) != sizeof(job->run_opts.seed))
			job->run_opts.seed = 1;
		for (i = 0; i < job->nrows; i++)
			job->rows[i].run.seed = job->run_opts.seed;
	}
	if (ab_events_once(job->events) || ab_cond_check(job)) {
		job->refused = 1;
		return AB_EXIT_USAGE;
	}
	/* charged rows run in a memory cgroup, or not at all (ab_job_place())
	 */
	for (i = 0; i < job->nrows && !ab_out.dry_run && !ab_memcg_mode();
	     i++) {
		if (!ab_row_charges(job, &job->rows[i]))
			continue;
		ab_err("%s: its objects are charged to a memory cgroup, and this run is in none (--memcg=new or self)",
		       job->rows[i].label);
		job->refused = 1;
		return AB_EXIT_USAGE;
	}
	ab_env_read(&job->session.env, "", job->session.cpu);
	for (i = 0; i < job->nrows; i++) {
		const struct ab_run *run = &job->rows[i].run;

		if (!(run->flags & AB_RUN_SHEAVES) || run->sheaf_capacity ||
		    job->session.env.slub_debug != 1 ||
		    ab_kernel_flag(&job->session.bi.info,
				   AB_KERNEL_SHEAF_CAPACITY) != 1)
			continue;
		ab_err("--sheaves=off: this boot has slub_debug (%s), under which no cache has sheaves (mm/slub.c), and 7.x's cache without them (SLAB_NOLEAKTRACE) also loses SLAB_STORE_USER, so the rows would differ in debugging, not in sheaves; boot without slub_debug",
		       job->session.env.p_slub_debug[0]
			       ? job->session.env.p_slub_debug
			       : "CONFIG_SLUB_DEBUG_ON");
		job->refused = 1;
		return AB_EXIT_USAGE;
	}
	if (job->explain) {
		ret = explain_setup(job);
		if (ret) {
			job->refused = 1;
			return ret;
		}
	}
	if (job->events) {
		ab_counters_open(&job->session.counters, job->events, stderr);
		if (job->session.be->flags & AB_BACKEND_MODULE)
			ab_counters_warn_kernel(&job->session.counters, stderr);
		/* opened to say what cannot count; armed per counting pass */
		ab_counters_suspend(&job->session.counters);
	}

	/* batch timing: the baseline strategy with the same parameters */
	job->baseline = NULL;
	for (i = 0; i < job->nrows; i++)
		if (job->rows[i].si->flags & AB_STRATEGY_BASELINE)
			job->baseline = &job->rows[i];
	none = ab_strategy_baseline(&job->session.bi);
	if (!job->baseline && !job->raw &&
	    job->run_opts.timing == AB_TIMING_BATCH && none) {
		memset(&job->own_baseline, 0, sizeof(job->own_baseline));
		job->own_baseline.si = none;
		job->own_baseline.cpu = job->session.cpu;
		snprintf(job->own_baseline.label,
			 sizeof(job->own_baseline.label), "%s", none->name);
		if (!ab_run_prepare_fp(&job->run_opts, &job->session.bi.info,
				       none, &job->own_baseline.run,
				       &job->own_baseline.fp, err, sizeof(err)))
			job->baseline = &job->own_baseline;
	}
	ret = check_memory(job);
	if (!ret)
		ret = check_together(job);
	/* refused before anything ran: the reason is the whole output */
	job->refused = ret != AB_EXIT_OK;
	return ret;
}

int ab_job_dry_run(struct ab_job *job)
{
	FILE *f = ab_output_is_stdout(ab_out.path) ? stdout : stderr;
	int i, j, n = 0, ret = ab_job_check(job);

	if (ret)
		return ret;
	fprintf(f,
		"dry run: %s passed every check (the %s backend's limits included) and would run %d %s:",
		job->title, job->session.be->name, job->nrows,
		ab_noun((unsigned)job->nrows, "row", "rows"));
	for (i = 0; i < job->nrows; i++) {
		/* a label once; six at most */
		for (j = 0;
		     j < i && strcmp(job->rows[i].label, job->rows[j].label);
		     j++)
			;
		if (j == i && n++ < 6)
			fprintf(f, "%s %s", n > 1 ? "," : "",
				job->rows[i].label);
	}
	fprintf(f, "%s; nothing ran\n", n > 6 ? ", ..." : "");
	return AB_EXIT_OK;
}
