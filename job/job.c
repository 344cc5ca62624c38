// SPDX-License-Identifier: GPL-2.0-only
/*
 * job.c - building a job (see runner.h): the strategies of --alloc, one
 * request each; the node, the CPUs, the cpuset and the scheduling class;
 * the signals that end it. runner.c runs it, report.c and report_json.c
 * show it.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <math.h>
#include <numa.h>
#include <limits.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "env.h"
#include "isolate.h"
#include "memcg.h"
#include "parse.h"
#include "textout.h"
#include "job.h"

static void on_signal(int sig)
{
	ab_stop_requested = sig;
}

/*
 * SIGINT/SIGTERM without SA_RESTART: the module sees a pending signal
 * between trials, frees what it holds and returns -EINTR.
 */
void ab_catch_signals(void)
{
	struct sigaction sa = { .sa_handler = on_signal };

	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	/* a closed terminal: end as cleanly (an --isolate set is removed) */
	sigaction(SIGHUP, &sa, NULL);
}

struct ab_job *ab_job_new(void)
{
	struct ab_job *job = calloc(1, sizeof(*job));

	if (!job)
		return NULL;
	ab_run_opts_init(&job->run_opts);
	ab_session_init(&job->session);
	job->free_cpu = -1;
	return job;
}

struct ab_row *ab_job_row_new(struct ab_job *job)
{
	struct ab_row *rows;
	int cap;

	if (job->nrows == job->rows_cap) {
		if (job->rows_cap > INT_MAX / 2) {
			ab_err("more than %d runs in one job", job->rows_cap);
			return NULL;
		}
		cap = job->rows_cap ? 2 * job->rows_cap : 16;
		rows = realloc(job->rows, (size_t)cap * sizeof(*rows));
		if (!rows) {
			ab_err("no memory for %d runs", cap);
			return NULL;
		}
		job->rows = rows;
		job->rows_cap = cap;
	}
	memset(&job->rows[job->nrows], 0, sizeof(job->rows[job->nrows]));
	return &job->rows[job->nrows];
}

/*
 * A row of strategy @si with the job's options, its label the name and,
 * with --sheaves, the setting ("kmem_cache sheaves=off"). An exit status.
 */
static int add_row(struct ab_job *job, const struct ab_strategy_info *si)
{
	char err[AB_ERRLEN], b[16];
	struct ab_row *r = ab_job_row_new(job);

	if (!r)
		return AB_EXIT_RUN;
	r->si = si;
	if (ab_run_prepare_fp(&job->run_opts, &job->session.bi.info, si,
			      &r->run, &r->fp, err, sizeof(err))) {
		ab_err("%s", err);
		return AB_EXIT_USAGE;
	}
	if (job->run_opts.nsheaves)
		snprintf(r->label, sizeof(r->label), "%s sheaves=%s", si->name,
			 ab_sheaves_name(job->run_opts.sheaf, b, sizeof(b)));
	else if (job->run_opts.norders > 1 && (si->params & AB_PARAM_ORDER))
		snprintf(r->label, sizeof(r->label), "%s order=%u", si->name,
			 job->run_opts.order);
	else
		snprintf(r->label, sizeof(r->label), "%s", si->name);
	if (job->run_opts.ngfps > 1 && (si->params & AB_PARAM_GFP))
		snprintf(r->label + strlen(r->label),
			 sizeof(r->label) - strlen(r->label), " gfp=%s",
			 ab_gfp_option_name(job->run_opts.gfp));
	r->cpu = -1;
	r->group = job->nrows;
	job->nrows++;
	return AB_EXIT_OK;
}

/*
 * A row per --gfp choice of a strategy that takes one (GFP_KERNEL for one
 * that takes none, whatever the list); else one row.
 */
static int add_gfps(struct ab_job *job, const struct ab_strategy_info *si)
{
	int k, n = (si->params & AB_PARAM_GFP) && job->run_opts.ngfps > 1
			   ? job->run_opts.ngfps
			   : 1;
	int ret = AB_EXIT_OK;

	for (k = 0; k < n && !ret; k++) {
		if (job->run_opts.ngfps > 1)
			job->run_opts.gfp = (si->params & AB_PARAM_GFP)
						    ? job->run_opts.gfps[k]
						    : AB_GFP_KERNEL;
		ret = add_row(job, si);
	}
	if (job->run_opts.ngfps)
		job->run_opts.gfp = job->run_opts.gfps[0];
	return ret;
}

/* A row per --order of a strategy that takes one; else one row. */
static int add_orders(struct ab_job *job, const struct ab_strategy_info *si)
{
	int k, n = (si->params & AB_PARAM_ORDER) && job->run_opts.norders > 1
			   ? job->run_opts.norders
			   : 1;
	int ret = AB_EXIT_OK;

	for (k = 0; k < n && !ret; k++) {
		if (job->run_opts.norders)
			job->run_opts.order = job->run_opts.orders[k];
		ret = add_gfps(job, si);
	}
	return ret;
}

int ab_job_add(struct ab_job *job, const char *list)
{
	char *names[AB_MAX_LIST], avail[1024] = "";
	char *copy = strdup(list);
	int i, k, n, ret = AB_EXIT_OK;
	unsigned int j;

	if (!copy)
		return AB_EXIT_RUN;
	n = ab_split_list(copy, names, AB_MAX_LIST);
	if (n < 0) {
		ab_err("--alloc=%s: %s (a comma-separated list of at most %d strategy names: `allocbench list`)",
		       list, n == -E2BIG ? "too many names" : "empty name",
		       AB_MAX_LIST);
		free(copy);
		return AB_EXIT_USAGE;
	}
	for (i = 0; i < n && !ret; i++) {
		const struct ab_strategy_info *si =
			ab_strategy_find(&job->session.bi, names[i]);

		if (!si) {
			for (j = 0; j < job->session.bi.info.nr_strategies; j++)
				snprintf(avail + strlen(avail),
					 sizeof(avail) - strlen(avail), "%s%s",
					 j ? ", " : "",
					 job->session.bi.strategies[j].name);
			ab_err("--alloc=%s: unknown strategy (available: %s)",
			       names[i], avail);
			ret = AB_EXIT_USAGE;
			break;
		}
		/* one row per --sheaves setting, in the order given */
		for (k = 0; k < (job->run_opts.nsheaves ? job->run_opts.nsheaves
							: 1) &&
			    !ret;
		     k++) {
			job->run_opts.sheaf = job->run_opts.nsheaves
						      ? job->run_opts.sheaves[k]
						      : AB_SHEAVES_DEFAULT;
			ret = add_orders(job, si);
		}
	}
	job->run_opts.sheaf = AB_SHEAVES_DEFAULT;
	if (job->run_opts.norders)
		job->run_opts.order = job->run_opts.orders[0];
	for (i = 0, n = 0; !ret && i < job->nrows; i++)
		n += !!(job->rows[i].si->params & AB_PARAM_ALIGN);
	if (!ret && job->run_opts.align && !n) {
		ab_err("--align: none of these strategies takes an alignment; percpu and posix_memalign (--backend=user) do");
		ret = AB_EXIT_USAGE;
	}
	for (i = 0, n = 0; !ret && i < job->nrows; i++)
		n += !!(job->rows[i].si->params & AB_PARAM_POOL);
	if (!ret && job->run_opts.pool_min && !n) {
		ab_err("--pool-min=%u: none of these strategies has a mempool; mempool and mempool_reserve do",
		       job->run_opts.pool_min);
		ret = AB_EXIT_USAGE;
	}
	free(copy);
	return ret;
}

int ab_job_node(struct ab_job *job)
{
	char err[AB_ERRLEN];
	int nodes[AB_MAX_PLACES], n;

	if (!job->node_arg)
		return AB_EXIT_OK;
	n = ab_parse_nodes("node", job->node_arg, nodes, AB_MAX_PLACES, 0, err,
			   sizeof(err));
	if (n < 0) {
		ab_err("%s", err);
		return AB_EXIT_USAGE;
	}
	if (n > 1) {
		ab_err("--node=%s: a run allocates on one node; `allocbench sweep --mem-nodes=%s` compares several",
		       job->node_arg, job->node_arg);
		return AB_EXIT_USAGE;
	}
	job->run_opts.node = nodes[0];
	return AB_EXIT_OK;
}

int ab_job_place(struct ab_job *job, const char *cpu_arg)
{
	struct sched_param sp;
	char err[AB_ERRLEN];
	int i, c, ret;

	/* a killed run's set still holds its CPUs: gone before the check */
	if (job->isolate)
		ab_isolate_clean_stale();
	job->cpu_given = cpu_arg != NULL;
	if (cpu_arg) {
		job->ncpus = ab_parse_cpus("cpu", cpu_arg, job->cpus,
					   AB_MAX_LIST, err, sizeof(err));
		if (job->ncpus < 0) {
			ab_err("%s", err);
			return AB_EXIT_USAGE;
		}
		if (job->ncpus > 1 && !job->concurrent) {
			ab_err("--cpu=%s: a run uses one CPU; add --concurrent to run on all of them at once, or use `allocbench sweep --cpu-nodes=...`",
			       cpu_arg);
			return AB_EXIT_USAGE;
		}
	} else {
		c = sched_getcpu();
		job->cpus[0] = c >= 0 ? c : 0;
		job->ncpus = 1;
	}
	job->session.cpu = job->cpus[0];
	/* before pinning: entering a cpuset resets the affinity */
	if (job->isolate) {
		/* Ctrl-C while it is made: the run ends through its removal */
		ab_catch_signals();
		ret = ab_isolate_start(job->cpus, job->ncpus, err, sizeof(err));
		if (ret) {
			ab_err("%s", err);
			return ret == -ENODEV ? AB_EXIT_BACKEND
			       : ret == -EDOM ? AB_EXIT_USAGE
					      : AB_EXIT_RUN;
		}
		if (ab_stop_requested) {
			ab_err("interrupted in the %s %s, before any run",
			       ab_isolate_what(), ab_isolate_path());
			return AB_EXIT_INTR;
		}
	}
	for (i = 0; !job->memcg && i < job->nrows; i++)
		if (ab_row_charges(job, &job->rows[i]))
			job->memcg = AB_MEMCG_NEW;
	if (job->memcg && !ab_out.dry_run) {
		ab_catch_signals();
		ret = ab_memcg_start(job->memcg, err, sizeof(err));
		if (ret) {
			ab_err("%s", err);
			return ret == -EPERM	? AB_EXIT_USAGE
			       : ret == -ENODEV ? AB_EXIT_BACKEND
						: AB_EXIT_RUN;
		}
		if (ab_stop_requested) {
			ab_err("interrupted in the memory cgroup %s, before any run",
			       ab_memcg_path());
			return AB_EXIT_INTR;
		}
	}
	if (job->free_cpu >= 0) {
		for (i = 0; i < job->nrows; i++) {
			job->rows[i].run.flags |= AB_RUN_REMOTE_FREE;
			job->rows[i].run.free_cpu = (__u32)job->free_cpu;
		}
	}
	ret = ab_pin(job->session.cpu);
	if (ret)
		return ret;
	job->cpu_node =
		numa_available() < 0 ? 0 : numa_node_of_cpu(job->session.cpu);
	if (job->cpu_node < 0)
		job->cpu_node = 0;
	if (job->fifo) {
		/* runner.h: SCHED_RR on PREEMPT_RT, for ktimers and rcuc */
		job->fifo_policy = ab_env_preempt_rt() ? SCHED_RR : SCHED_FIFO;
		sp.sched_priority = AB_FIFO_PRIORITY;
		if (sched_setscheduler(0, job->fifo_policy, &sp)) {
			ab_err("--fifo: cannot switch to %s %d: %s (needs root or CAP_SYS_NICE)",
			       ab_fifo_policy_name(job), AB_FIFO_PRIORITY,
			       strerror(errno));
			/* a facility this process may not use: as man says */
			return AB_EXIT_BACKEND;
		}
	}
	return AB_EXIT_OK;
}

const char *ab_fifo_policy_name(const struct ab_job *job)
{
	return job->fifo_policy == SCHED_RR ? "SCHED_RR" : "SCHED_FIFO";
}

void ab_job_free(struct ab_job *job)
{
	int i, p;

	for (i = 0; i < job->nrows; i++) {
		for (p = 0; p < 2; p++)
			free(job->rows[i].ns[p]);
		free(job->rows[i].smp);
		free(job->rows[i].cond);
	}
	for (p = 0; p < 2; p++)
		free(job->own_baseline.ns[p]);
	free(job->own_baseline.smp);
	free(job->rows);
	job->rows = NULL;
	job->nrows = job->rows_cap = 0;
	ab_session_close(&job->session);
	ab_memcg_end();
	ab_isolate_end();
}

int ab_row_charges(const struct ab_job *job, const struct ab_row *r)
{
	if (!(job->session.be->flags & AB_BACKEND_MODULE) || !r->si)
		return 0;
	return (r->si->flags & AB_STRATEGY_ACCOUNT) ||
	       ((r->si->params & AB_PARAM_GFP) &&
		r->run.gfp == AB_GFP_KERNEL_ACCOUNT);
}

const char *ab_row_gfp(const struct ab_job *job, const struct ab_row *r)
{
	return ab_strategy_gfp_name(
		r->si, r->run.gfp,
		!!(job->session.be->flags & AB_BACKEND_MODULE));
}

const char *ab_job_gfp(const struct ab_job *job, char *none, size_t len)
{
	const char *gfp = NULL, *g;
	size_t at = 0;
	int i, k;

	none[0] = '\0';
	for (i = 0; i < job->nrows; i++) {
		const struct ab_row *r = &job->rows[i];

		g = ab_row_gfp(job, r);
		if (g) {
			/* --gfp=LIST: each row's own, in its label */
			gfp = !gfp || !strcmp(gfp, g) ? g : "GFP flags per row";
			continue;
		}
		for (k = 0; k < i && job->rows[k].si != r->si; k++)
			;
		if (k < i ||
		    !(r->si->params & (AB_PARAM_SIZE | AB_PARAM_ORDER)) ||
		    at + 1 >= len)
			continue;
		at += (size_t)snprintf(none + at, at < len ? len - at : 0,
				       "%s%s", at ? ", " : "", r->si->name);
	}
	return gfp;
}

/*
 * The notes the kernel makes necessary for the job's strategies (see
 * ab_strategy_note()), one per strategy, into @notes; returns how many.
 */
int ab_job_kernel_notes(const struct ab_job *job, char notes[][AB_NOTE_LEN],
			int max)
{
	int i, k, have = 0;

	for (i = 0; i < job->nrows && have < max; i++) {
		for (k = 0; k < i && job->rows[k].si != job->rows[i].si; k++)
			;
		if (k == i &&
		    ab_strategy_note(&job->session.bi.info, job->rows[i].si,
				     notes[have], AB_NOTE_LEN))
			have++;
	}
	return have;
}

const char *ab_alloc_phase(const struct ab_run *run)
{
	return run->free_pattern == AB_FREE_PAIR &&
			       run->timing == AB_TIMING_BATCH
		       ? "alloc+free"
		       : "alloc";
}

int ab_job_net_notes(const struct ab_job *job, char notes[][AB_NOTE_LEN],
		     int max)
{
	const struct ab_row *b = job->baseline;
	size_t n = b ? b->raw[0].cycles.n : 0, lo, hi;
	double cov = NAN;
	int i, p, have = 0;

	if (job->raw)
		return 0;
	/* the baseline's median is subtracted: as steady as its trials */
	if (b && b->ran && ab_net_uses_baseline(0, job->run_opts.timing, 1)) {
		ab_median_ci_ranks(n, &lo, &hi, &cov);
		if (isnan(cov) && have < max)
			snprintf(
				notes[have++], AB_NOTE_LEN,
				"the none baseline's median, which the net figures subtract, rests on %zu %s: too few for a %.0f%% interval of it (6 or more), so the net figures carry its noise; more --trials steady it, --raw shows what was measured",
				n, ab_noun(n, "trial", "trials"),
				100 * AB_CI_LEVEL);
	}
	for (i = 0; i < job->nrows && have < max; i++) {
		const struct ab_row *r = &job->rows[i];
		char what[96] = "";
		size_t used = 0;

		if (!r->ran || r == b)
			continue;
		for (p = 0; p < 2; p++)
			if (r->net[p].ns.median < 0 && used < sizeof(what))
				used += (size_t)snprintf(
					what + used, sizeof(what) - used,
					"%s%s %.1f (raw %.1f)",
					used ? ", " : "",
					p ? "free" : ab_alloc_phase(&r->run),
					r->net[p].ns.median,
					r->raw[p].ns.median);
		if (used)
			snprintf(
				notes[have++], AB_NOTE_LEN,
				"%s: net median below zero, %s ns/op: its raw figure is below what the net figures subtract from it, which is noise, not a negative cost (--raw shows the figures as measured)",
				r->label, what);
	}
	return have;
}
