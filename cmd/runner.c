// SPDX-License-Identifier: GPL-2.0-only
/*
 * runner.c - run strategies through a backend and print per-operation
 * figures (see runner.h). Shared by `allocbench run` and `reproduce`.
 *
 * One trial allocates --batch objects (the alloc phase) then frees them in
 * the chosen order (the free phase). Batch timing reads the clock around
 * each phase, single timing around each operation. Per op: ns = cycles *
 * 10^6 / tsc_khz. Net values subtract the overhead (measure.h); --raw
 * shows the figures as measured.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <math.h>
#include <numa.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <pthread.h>
#include <sys/random.h>
#include <time.h>
#include <unistd.h>

#include "isolate.h"
#include "jsonout.h"
#include "ab_run.h"
#include "parse.h"
#include "runner.h"
#include "textout.h"

#define HIST_BUCKETS 40
#define AB_NOTE_LEN  512

#define interrupted ab_stop_requested

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
}

struct ab_job *ab_job_new(void)
{
	struct ab_job *job = calloc(1, sizeof(*job));

	if (!job)
		return NULL;
	ab_run_opts_init(&job->o);
	job->free_cpu = -1;
	job->cpu = -1;
	job->counters.leader = -1;
	return job;
}

int ab_job_add(struct ab_job *job, const char *list)
{
	char *names[AB_MAX_ROWS], avail[1024] = "", err[AB_ERRLEN];
	char *copy = strdup(list);
	int i, n, ret = AB_EXIT_OK;
	unsigned int j;

	if (!copy)
		return AB_EXIT_RUN;
	n = ab_split_list(copy, names, AB_MAX_ROWS - job->nrows);
	if (n < 0) {
		ab_err("--alloc=%s: %s (a comma-separated list of strategy names: `allocbench list`)",
		       list, n == -E2BIG ? "too many names" : "empty name");
		free(copy);
		return AB_EXIT_USAGE;
	}
	for (i = 0; i < n && !ret; i++) {
		struct ab_row *r = &job->rows[job->nrows];

		memset(r, 0, sizeof(*r));
		r->si = ab_strategy_find(&job->bi, names[i]);
		if (!r->si) {
			for (j = 0; j < job->bi.info.nr_strategies; j++)
				snprintf(avail + strlen(avail),
					 sizeof(avail) - strlen(avail), "%s%s",
					 j ? ", " : "",
					 job->bi.strategies[j].name);
			ab_err("--alloc=%s: unknown strategy (available: %s)",
			       names[i], avail);
			ret = AB_EXIT_USAGE;
		} else if (ab_run_prepare(&job->o, &job->bi.info, r->si,
					  &r->run, err, sizeof(err))) {
			ab_err("%s", err);
			ret = AB_EXIT_USAGE;
		} else {
			snprintf(r->label, sizeof(r->label), "%s", r->si->name);
			r->cpu = -1;
			r->group = job->nrows;
			job->nrows++;
		}
	}
	for (i = 0, n = 0; !ret && i < job->nrows; i++)
		n += !!(job->rows[i].si->params & AB_PARAM_ALIGN);
	if (!ret && job->o.align && !n) {
		ab_err("--align: none of these strategies takes an alignment; posix_memalign (--backend=user) does");
		ret = AB_EXIT_USAGE;
	}
	free(copy);
	return ret;
}

int ab_pin(int cpu)
{
	cpu_set_t one;

	CPU_ZERO(&one);
	CPU_SET(cpu, &one);
	if (sched_setaffinity(0, sizeof(one), &one)) {
		ab_err("cannot pin to CPU %d: %s", cpu, strerror(errno));
		return AB_EXIT_RUN;
	}
	return AB_EXIT_OK;
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
	job->o.node = nodes[0];
	return AB_EXIT_OK;
}

int ab_job_place(struct ab_job *job, const char *cpu_arg)
{
	struct sched_param sp;
	char err[AB_ERRLEN];
	int i, c, ret;

	if (cpu_arg) {
		job->ncpus = ab_parse_cpus("cpu", cpu_arg, job->cpus,
					   AB_MAX_ROWS, err, sizeof(err));
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
	job->cpu = job->cpus[0];
	/* before pinning: entering a cpuset resets the affinity */
	if (job->isolate) {
		/* Ctrl-C while it is made: the run ends through its removal */
		ab_catch_signals();
		ret = ab_isolate_start(job->cpus, job->ncpus, err, sizeof(err));
		if (ret) {
			ab_err("%s", err);
			return ret == -ENODEV ? AB_EXIT_BACKEND : AB_EXIT_RUN;
		}
		if (ab_stop_requested) {
			ab_err("interrupted in the %s %s, before any run",
			       ab_isolate_what(), ab_isolate_path());
			return AB_EXIT_INTR;
		}
	}
	if (job->free_cpu >= 0) {
		for (i = 0; i < job->nrows; i++) {
			job->rows[i].run.flags |= AB_RUN_REMOTE_FREE;
			job->rows[i].run.free_cpu = (__u32)job->free_cpu;
		}
	}
	ret = ab_pin(job->cpu);
	if (ret)
		return ret;
	if (job->fifo) {
		sp.sched_priority = AB_FIFO_PRIORITY;
		if (sched_setscheduler(0, SCHED_FIFO, &sp)) {
			ab_err("--fifo: cannot switch to SCHED_FIFO %d: %s (needs root or CAP_SYS_NICE)",
			       AB_FIFO_PRIORITY, strerror(errno));
			/* a facility this process may not use: as man says */
			return AB_EXIT_BACKEND;
		}
	}
	return AB_EXIT_OK;
}

/*
 * Runs r->run to its end. Any signal makes the module stop between trials
 * and return -EINTR with what it did so far; for SIGINT and SIGTERM that is
 * the end, but other signals (SIGSTOP and SIGCONT of job control, a
 * debugger attaching, SIGWINCH) only pause it: the run goes on with the
 * trials left, their samples after the ones done. (A resumed shuffle
 * starts its per-trial orders again from the first.) Returns 0 or -errno.
 */
static int run_resumable(struct ab_job *job, struct ab_row *r, uint32_t slots,
			 char *why, size_t len)
{
	struct ab_run *run = &r->run, part = *run;
	int err, first = 1;

	for (;;) {
		err = job->be->run(&part, why, len);
		if (first) {
			*run = part;
		} else {
			run->trials_done += part.trials_done;
			run->objects += part.objects;
			run->failed += part.failed;
			run->node_hits += part.node_hits;
			run->node_checked += part.node_checked;
			run->cpu_end = part.cpu_end;
		}
		first = 0;
		if (err != -EINTR || interrupted ||
		    part.trials_done >= part.trials)
			return err == -EINTR && !interrupted ? 0 : err;
		part.trials -= part.trials_done;
		part.warmup = 0;
		part.samples_ptr +=
			part.trials_done * slots * sizeof(struct ab_sample);
		part.samples_len -= part.trials_done * slots;
	}
}

static double now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

/*
 * Event counts per op of @r: the counters ran around the whole run, warm-up
 * trials included, so the objects of those count too (estimated from the
 * measured trials' mean). Batch timing subtracts the baseline's per-op
 * counts, measured the same way.
 */
static void count_per_op(struct ab_job *job, struct ab_row *r)
{
	const struct ab_run *run = &r->run;
	double ops = 0;
	int i;

	if (run->trials_done)
		ops = (double)run->objects *
		      (double)(run->trials_done + run->warmup) /
		      (double)run->trials_done;
	for (i = 0; i < job->counters.n; i++) {
		r->ev_raw[i] = ops > 0 ? job->counters.ev[i].value / ops : NAN;
		r->ev_net[i] = r->ev_raw[i];
		if (!job->raw && run->timing == AB_TIMING_BATCH &&
		    job->baseline && job->baseline->ran && job->baseline != r)
			r->ev_net[i] -= job->baseline->ev_raw[i];
	}
}

/* Runs one row; 0, or an exit status after printing why it failed. */
static int run_row(struct ab_job *job, struct ab_row *r)
{
	uint32_t per = ab_run_samples_per_trial(&r->run, r->si->flags);
	size_t len = (size_t)r->run.trials * per;
	struct ab_sample *smp = calloc(len, sizeof(*smp));
	char why[AB_ERRLEN];
	int p, err, ret = AB_EXIT_OK;
	double t0;

	if (r->cpu >= 0 && ab_pin(r->cpu))
		return AB_EXIT_RUN;
	/* a row run again (the baseline in a --concurrent group) */
	r->ran = 0;
	free(r->smp);
	r->smp = NULL;
	for (p = 0; p < 2; p++) {
		free(r->ns[p]);
		r->ns[p] = calloc(len ? len : 1, sizeof(double));
		r->nr_ns[p] = 0;
	}
	if (!smp || !r->ns[0] || !r->ns[1]) {
		ab_err("%s: cannot hold %zu samples: out of memory",
		       r->si->name, len);
		free(smp);
		return AB_EXIT_RUN;
	}
	r->run.samples_ptr = (__u64)(uintptr_t)smp;
	r->run.samples_len = len;
	r->smp = smp;
	if (job->counters.n) {
		/* the counters must not see the untimed node check */
		r->run.flags |= AB_RUN_NO_NODE_CHECK;
		ab_counters_start(&job->counters);
	}
	if (ab_out.verbose)
		fprintf(stderr,
			"request: %s: obj_size %llu order %u batch %u trials %u warmup %u node %d cpu %d gfp %s timing %s free %s context %s flags %#x\n",
			r->label, (unsigned long long)r->run.obj_size,
			r->run.order, r->run.batch, r->run.trials,
			r->run.warmup, r->run.node,
			r->cpu >= 0 ? r->cpu : job->cpu,
			ab_gfp_name(r->run.gfp), ab_timing_name(r->run.timing),
			ab_free_name(r->run.free_pattern),
			ab_context_name(r->run.context), r->run.flags);
	t0 = now_ns();
	err = run_resumable(job, r, per, why, sizeof(why));
	r->wall_ns = now_ns() - t0;
	if (job->counters.n) {
		ab_counters_stop(&job->counters);
		count_per_op(job, r);
	}
	if (err) {
		ab_err("%s: %s", r->si->name, why);
		/* only an interrupted run has trials to show */
		if (err != -EINTR)
			return AB_EXIT_RUN;
		ret = AB_EXIT_INTR;
	}
	r->ran = 1;
	len = (size_t)r->run.trials_done * per;
	for (p = 0; p < 2; p++) {
		/* batch-timed pairs have no free phase of their own */
		size_t have = p && r->run.free_pattern == AB_FREE_PAIR &&
					      r->run.timing == AB_TIMING_BATCH
				      ? 0
				      : len;

		ab_phase_summary(smp, have, (enum ab_phase)p, 0, r->run.tsc_khz,
				 r->ns[p], &r->raw[p]);
		if (job->raw)
			r->subtract[p] = 0;
		else if (r->run.timing == AB_TIMING_SINGLE)
			r->subtract[p] = (double)r->run.clock_cycles;
		else if (job->baseline && job->baseline->ran &&
			 job->baseline != r)
			r->subtract[p] = job->baseline->raw[p].cycles.median;
		ab_phase_summary(smp, have, (enum ab_phase)p, r->subtract[p],
				 r->run.tsc_khz, r->ns[p], &r->net[p]);
		r->nr_ns[p] = r->net[p].ns.n;
	}
	r->nr_smp = len;
	return ret;
}

/* One line on stderr: which run of how many, when it is a terminal. */
static void progress(const struct ab_job *job, int i, int next)
{
	static double first;

	if (!job->progress)
		return;
	/* only for jobs that take more than a second */
	if (!first)
		first = now_ns();
	if (now_ns() - first < 1e9)
		return;
	ab_progress("[%d/%d] %.40s", next, job->nrows, job->rows[i].label);
}

/* --concurrent: each strategy becomes one row per CPU, run together. */
static int expand_concurrent(struct ab_job *job)
{
	struct ab_row *orig;
	int i, c, n = job->nrows;

	/* all CPUs hold their batches at once: check the budget for all */
	for (i = 0; i < n; i++) {
		const struct ab_run *r = &job->rows[i].run;
		uint64_t obj = ab_run_obj_bytes(r, job->bi.info.page_size);

		if ((job->rows[i].si->params &
		     (AB_PARAM_SIZE | AB_PARAM_ORDER)) &&
		    obj * r->batch > job->bi.info.max_bytes / job->ncpus) {
			ab_err("--concurrent: %s on %d CPUs holds %d x %u x %llu bytes at once, above the %llu bytes allowed (max_outstanding_mb); lower --batch or --size",
			       job->rows[i].si->name, job->ncpus, job->ncpus,
			       r->batch, (unsigned long long)obj,
			       (unsigned long long)job->bi.info.max_bytes);
			return AB_EXIT_USAGE;
		}
	}
	if (n * job->ncpus > AB_MAX_ROWS) {
		ab_err("--concurrent: %d strategies on %d CPUs are more than %d runs",
		       n, job->ncpus, AB_MAX_ROWS);
		return AB_EXIT_USAGE;
	}
	orig = malloc((size_t)n * sizeof(*orig));
	if (!orig)
		return AB_EXIT_RUN;
	memcpy(orig, job->rows, (size_t)n * sizeof(*orig));
	job->nrows = 0;
	for (i = 0; i < n; i++)
		for (c = 0; c < job->ncpus; c++) {
			struct ab_row *r = &job->rows[job->nrows++];

			*r = orig[i];
			/*
			 * A row that already ran (a "none" of the list, the
			 * baseline) keeps its samples in its first copy
			 * only: no two rows may own the same buffers.
			 */
			if (c) {
				r->ran = 0;
				r->smp = NULL;
				r->ns[0] = r->ns[1] = NULL;
				r->nr_ns[0] = r->nr_ns[1] = 0;
			}
			r->cpu = job->cpus[c];
			r->group = i;
			snprintf(r->label, sizeof(r->label), "%s@cpu%d",
				 orig[i].si->name, job->cpus[c]);
		}
	/* the baseline moved with the rows: to its first copy */
	for (i = 0; i < n; i++)
		if (job->baseline == &job->rows[i]) {
			job->baseline = &job->rows[i * job->ncpus];
			break;
		}
	free(orig);
	return AB_EXIT_OK;
}

struct member {
	struct ab_job *job;
	struct ab_row *row;
	pthread_barrier_t *start;
	int ret;
};

static void *member_run(void *arg)
{
	struct member *m = arg;
	int pinned = ab_pin(m->row->cpu);

	pthread_barrier_wait(m->start);
	m->ret = pinned ? pinned : run_row(m->job, m->row);
	return NULL;
}

/*
 * Rows [from, to) at the same time, one thread each, pinned, released
 * together by a barrier so their runs overlap: contention on shared
 * allocator state shows in every row.
 */
static int run_group(struct ab_job *job, int from, int to)
{
	struct member m[AB_MAX_ROWS];
	pthread_t t[AB_MAX_ROWS];
	pthread_barrier_t start;
	int i, left, passed_on = 0, done[AB_MAX_ROWS] = { 0 };
	int ret = AB_EXIT_OK;

	pthread_barrier_init(&start, NULL, (unsigned int)(to - from));
	for (i = from; i < to; i++) {
		m[i] = (struct member){ job, &job->rows[i], &start, 0 };
		if (pthread_create(&t[i], NULL, member_run, &m[i])) {
			ab_err("cannot start a thread for %s",
			       job->rows[i].label);
			exit(AB_EXIT_RUN);
		}
	}
	/*
	 * SIGINT and SIGTERM reach this thread, not the members inside their
	 * ioctls: pass the signal on to each, so the module sees it pending
	 * there and ends those runs between trials too.
	 */
	for (left = to - from; left;) {
		for (i = from; i < to; i++) {
			if (done[i] || pthread_tryjoin_np(t[i], NULL))
				continue;
			done[i] = 1;
			left--;
			if (m[i].ret && !ret)
				ret = m[i].ret;
		}
		if (interrupted && !passed_on) {
			for (i = from; i < to; i++)
				if (!done[i])
					pthread_kill(t[i], interrupted);
			passed_on = 1;
		}
		if (left)
			usleep(10000);
	}
	pthread_barrier_destroy(&start);
	return ret;
}

int ab_job_run(struct ab_job *job)
{
	const struct ab_strategy_info *none;
	char err[AB_ERRLEN];
	int i, next, ret = AB_EXIT_OK;

	if (job->o.free_pattern == AB_FREE_SHUFFLE && !job->o.seed_set) {
		if (getrandom(&job->o.seed, sizeof(job->o.seed), 0) !=
		    sizeof(job->o.seed))
			job->o.seed = 1;
		for (i = 0; i < job->nrows; i++)
			job->rows[i].run.seed = job->o.seed;
	}
	ab_env_read(&job->env, "", job->cpu);
	if (job->events)
		ab_counters_open(&job->counters, job->events, stderr);
	ab_catch_signals();

	/* batch timing: the baseline strategy with the same parameters */
	job->baseline = NULL;
	for (i = 0; i < job->nrows; i++)
		if (job->rows[i].si->flags & AB_STRATEGY_BASELINE)
			job->baseline = &job->rows[i];
	none = ab_strategy_baseline(&job->bi);
	if (!job->baseline && !job->raw && job->o.timing == AB_TIMING_BATCH &&
	    none) {
		memset(&job->own_baseline, 0, sizeof(job->own_baseline));
		job->own_baseline.si = none;
		job->own_baseline.cpu = job->cpu;
		snprintf(job->own_baseline.label,
			 sizeof(job->own_baseline.label), "%s", none->name);
		if (!ab_run_prepare(&job->o, &job->bi.info, none,
				    &job->own_baseline.run, err, sizeof(err)))
			job->baseline = &job->own_baseline;
	}
	if (job->baseline && job->o.timing == AB_TIMING_BATCH) {
		ret = run_row(job, job->baseline);
		if (ret == AB_EXIT_INTR && job->baseline == &job->own_baseline)
			ab_err("interrupted while measuring the none baseline, before any strategy ran");
	}
	if (!ret && job->concurrent && job->ncpus > 1)
		ret = expand_concurrent(job);
	for (i = 0; i < job->nrows && !ret; i = next) {
		for (next = i + 1; next < job->nrows &&
				   job->rows[next].group == job->rows[i].group;
		     next++)
			;
		progress(job, i, next);
		if (next - i > 1)
			ret = run_group(job, i, next);
		else if (!job->rows[i].ran)
			ret = run_row(job, &job->rows[i]);
		/* a signal that came between two runs */
		if (!ret && interrupted) {
			ab_err("interrupted after %s", job->rows[i].label);
			ret = AB_EXIT_INTR;
		}
	}
	ab_progress_clear();
	ab_pin(job->cpu);
	return ret;
}

void ab_job_free(struct ab_job *job)
{
	int i, p;

	for (i = 0; i < job->nrows; i++) {
		for (p = 0; p < 2; p++)
			free(job->rows[i].ns[p]);
		free(job->rows[i].smp);
	}
	for (p = 0; p < 2; p++)
		free(job->own_baseline.ns[p]);
	free(job->own_baseline.smp);
	ab_counters_close(&job->counters);
	ab_isolate_end();
}

/* ---- printing ---- */

static void print_num(double v)
{
	if (isnan(v))
		printf(" %8s", "n/a");
	else
		printf(" %8.1f", v);
}

static void object_label(const struct ab_row *r, char *buf, size_t len)
{
	char sz[32];

	if (r->si->params & AB_PARAM_ORDER) {
		snprintf(buf, len, "order %u", r->run.order);
	} else if (r->si->params & AB_PARAM_SIZE) {
		ab_format_size(r->run.obj_size, sz, sizeof(sz));
		if (r->si->flags & AB_STRATEGY_PER_TRIAL)
			snprintf(buf, len, "%ux%s", r->run.batch, sz);
		else
			snprintf(buf, len, "%s", sz);
	} else {
		snprintf(buf, len, "-");
	}
}

/* What the table's values are: raw, or net of what. */
static void print_values_line(const struct ab_job *job)
{
	const struct ab_row *b = job->baseline;
	int i;

	/* the clock cost as measured by the first row that ran */
	for (i = 0; i < job->nrows && !job->rows[i].ran; i++)
		;
	if (job->raw) {
		printf("values: raw, as measured (loop and clock overhead included)\n");
	} else if (job->o.timing == AB_TIMING_SINGLE && i < job->nrows) {
		printf("values: net, minus one get_cycles() pair per op (%llu cycles, measured by each run); --raw for raw\n",
		       (unsigned long long)job->rows[i].run.clock_cycles);
	} else if (job->o.timing == AB_TIMING_SINGLE) {
		printf("values: net, minus one get_cycles() pair per op (measured by each run); --raw for raw\n");
	} else if (b && b->ran) {
		printf("values: net, minus the none baseline's median per op with the same parameters (alloc %.1f, free %.1f cycles); --raw for raw\n",
		       b->raw[0].cycles.median, b->raw[1].cycles.median);
	} else {
		printf("values: raw (the none baseline could not be measured)\n");
	}
}

static void print_header(const struct ab_job *job)
{
	char cpus[256];
	int i;
	const struct ab_run_opts *o = &job->o;
	const char *warn = ab_context_warning(o->context);
	unsigned int khz = job->bi.info.tsc_khz;

	if (job->be->flags & AB_BACKEND_MODULE)
		printf("allocbench %s %s, %s.ko %s (ABI %u)\n", AB_TOOL_VERSION,
		       job->title, AB_DEVICE_NAME, job->bi.info.version,
		       job->bi.info.abi_version);
	else
		printf("allocbench %s %s, %s backend (this process)\n",
		       AB_TOOL_VERSION, job->title, job->be->name);
	ab_env_print(stdout, &job->env, khz);
	if (warn)
		printf("warning: %s\n", warn);
	if (job->concurrent && job->ncpus > 1) {
		ab_format_list(job->cpus, job->ncpus, cpus, sizeof(cpus));
		printf("CPUs %s at once", cpus);
	} else if (job->nrows && job->rows[0].cpu >= 0) {
		printf("CPU: each row's own (the first of its node)");
	} else {
		printf("CPU %d (node %d)", job->cpu,
		       numa_available() < 0 ? 0 : numa_node_of_cpu(job->cpu));
	}
	printf("%s%s%s%s%s; ns = cycles * 10^6 / tsc_khz (%u)\n",
	       job->fifo ? ", SCHED_FIFO " AB_FIFO_PRIORITY_STR : "",
	       ab_isolate_path()[0] ? ", in the " : "", ab_isolate_what(),
	       ab_isolate_path()[0] ? " " : "", ab_isolate_path(), khz);
	printf("%u objects per trial, %u trials after %u warm-up, %s, %s timing, free %s",
	       o->batch, o->trials, o->warmup,
	       job->be->flags & AB_BACKEND_MODULE ? ab_gfp_name(o->gfp)
						  : "no GFP flags (userspace)",
	       ab_timing_name(o->timing), ab_free_name(o->free_pattern));
	if (o->free_pattern == AB_FREE_SHUFFLE)
		printf(" (seed %llu)", (unsigned long long)o->seed);
	printf(", context %s%s\n", ab_context_name(o->context),
	       o->write ? ", objects written after allocation" : "");
	print_values_line(job);
	for (i = 0; i < job->nrows && !job->rows[i].ran; i++)
		;
	if (i < job->nrows)
		printf("clock: one get_cycles() pair costs %llu cycles\n",
		       (unsigned long long)job->rows[i].run.clock_cycles);
	printf("\n");
}

/* Width of the label column: 18, or the longest label that ran. */
static int label_width(const struct ab_job *job)
{
	int i, w = 18, n;

	for (i = 0; i < job->nrows; i++) {
		n = (int)strlen(job->rows[i].label);
		if (job->rows[i].ran && n > w)
			w = n;
	}
	return w;
}

static void print_table(const struct ab_job *job)
{
	const char *alloc = job->o.free_pattern == AB_FREE_PAIR &&
					    job->o.timing == AB_TIMING_BATCH
				    ? "alloc+free ns/op"
				    : "alloc ns/op";
	char obj[48], node[16];
	int i, w = label_width(job);

	printf("%-*s %-35s   %-35s   %s\n", w + 11, "", alloc, "free ns/op",
	       "median cycles/op");
	printf("%-*s %-10s %8s %8s %8s %8s   %8s %8s %8s %8s   %8s %8s %7s %5s %6s\n",
	       w, "strategy", "object", "min", "median", "mean", "max", "min",
	       "median", "mean", "max", "alloc", "free", "failed", "node",
	       "hit%");
	for (i = 0; i < job->nrows; i++) {
		const struct ab_row *r = &job->rows[i];
		const struct ab_phase_stats *a = &r->net[0], *f = &r->net[1];

		if (!r->ran)
			continue;
		object_label(r, obj, sizeof(obj));
		printf("%-*s %-10s", w, r->label, obj);
		print_num(a->ns.min);
		print_num(a->ns.median);
		print_num(a->ns.mean);
		print_num(a->ns.max);
		printf("  ");
		print_num(f->ns.min);
		print_num(f->ns.median);
		print_num(f->ns.mean);
		print_num(f->ns.max);
		printf("  ");
		print_num(a->cycles.median);
		print_num(f->cycles.median);
		snprintf(node, sizeof(node), "%d%s", r->run.target_node,
			 r->run.node < 0 ? "L" : "");
		printf(" %7llu %5s", (unsigned long long)r->run.failed, node);
		if (r->run.node_checked)
			printf(" %6.1f\n", 100.0 * (double)r->run.node_hits /
						   (double)r->run.node_checked);
		else
			printf(" %6s\n", "n/a");
	}
}

static void print_dist_line(int w, const char *name, const char *phase,
			    const struct ab_stats *s)
{
	printf("%-*s %-5s %8zu", w, name, phase, s->n);
	print_num(s->median);
	if (isnan(s->ci_lo))
		printf("  %-22s", "[n/a]");
	else
		printf("  [%8.1f, %8.1f]  ", s->ci_lo, s->ci_hi);
	print_num(s->p90);
	print_num(s->p99);
	print_num(s->stddev);
	if (isnan(s->cv))
		printf(" %7s\n", "n/a");
	else
		printf(" %6.1f%%\n", 100 * s->cv);
}

/*
 * Names the interval of the median and its exact coverage for each sample
 * count in the table (lib/stats.h): at least 95%, more for small counts.
 */
static void print_ci_note(const struct ab_job *job)
{
	size_t seen[4];
	int i, k, ns = 0;
	char note[160];

	for (i = 0; i < job->nrows && ns < 4; i++) {
		size_t n = job->rows[i].net[0].ns.n;

		if (!job->rows[i].ran)
			continue;
		for (k = 0; k < ns && seen[k] != n; k++)
			;
		if (k < ns)
			continue;
		seen[ns++] = n;
		ab_ci_note(n, note, sizeof(note));
		printf("%s\n", note);
	}
}

static void print_distribution(const struct ab_job *job)
{
	int i, w = label_width(job);

	printf("\n%-*s %-5s %8s %8s  %-22s %8s %8s %8s %7s\n", w,
	       "distribution", "phase", "samples", "median",
	       "[95% CI of median]", "p90", "p99", "stddev", "cv");
	for (i = 0; i < job->nrows; i++) {
		const struct ab_row *r = &job->rows[i];

		if (!r->ran)
			continue;
		print_dist_line(w, r->label, "alloc", &r->net[0].ns);
		print_dist_line(w, "", "free", &r->net[1].ns);
	}
	print_ci_note(job);
}

/* Counters per op: one column per event, IPC when both are there. */
static void print_counters(const struct ab_job *job)
{
	const struct ab_counters *c = &job->counters;
	int i, e, cyc = -1, ins = -1, mux = 0, w = label_width(job);

	if (!c->n)
		return;
	for (e = 0; e < c->n; e++) {
		if (!strcmp(c->ev[e].name, "cycles"))
			cyc = e;
		if (!strcmp(c->ev[e].name, "instructions"))
			ins = e;
	}
	printf("\ncounters per op (one allocation and its free, %s)\n",
	       job->o.timing == AB_TIMING_BATCH && !job->raw
		       ? "net of the none baseline"
		       : "raw");
	printf("%-*s", w, "strategy");
	for (e = 0; e < c->n; e++)
		printf(" %16.16s", c->ev[e].name);
	if (cyc >= 0 && ins >= 0)
		printf(" %6s", "IPC");
	printf("\n");
	for (i = 0; i < job->nrows; i++) {
		const struct ab_row *r = &job->rows[i];

		if (!r->ran)
			continue;
		printf("%-*s", w, r->label);
		for (e = 0; e < c->n; e++) {
			if (isnan(r->ev_net[e]))
				printf(" %16s", "n/a");
			else
				printf(" %16.2f", r->ev_net[e]);
		}
		if (cyc >= 0 && ins >= 0)
			printf(" %6.2f", r->ev_raw[ins] / r->ev_raw[cyc]);
		printf("\n");
	}
	for (e = 0; e < c->n; e++)
		if (c->ev[e].running < c->ev[e].enabled) {
			printf("note: counter %s ran %.0f%% of the time (multiplexed) and is scaled by enabled/running\n",
			       c->ev[e].name,
			       100.0 * (double)c->ev[e].running /
				       (double)c->ev[e].enabled);
			mux = 1;
		}
	printf("note: counters count the whole run (warm-up trials and the harness included); node hits are not checked while counting\n");
	(void)mux;
}

/*
 * --concurrent: per strategy, the objects all CPUs allocated and freed
 * divided by the slowest CPU's wall time.
 */
static void print_aggregates(const struct ab_job *job)
{
	int i, j;

	for (i = 0; i < job->nrows; i = j) {
		double objs = 0, wall = 0;
		int ran = 0;

		for (j = i;
		     j < job->nrows && job->rows[j].group == job->rows[i].group;
		     j++) {
			ran += job->rows[j].ran;
			objs += (double)job->rows[j].run.objects *
				(job->rows[j].run.trials_done +
				 job->rows[j].run.warmup) /
				(job->rows[j].run.trials_done
					 ? job->rows[j].run.trials_done
					 : 1);
			if (job->rows[j].wall_ns > wall)
				wall = job->rows[j].wall_ns;
		}
		if (j - i > 1 && ran == j - i && wall > 0)
			printf("aggregate: %s on %d CPUs at once: %.0f objects allocated and freed in %.1f ms (slowest CPU): %.3f M/s\n",
			       job->rows[i].si->name, j - i, objs, wall / 1e6,
			       objs / wall * 1e3);
	}
}

/*
 * The notes the kernel makes necessary for the job's strategies (see
 * ab_strategy_note()), one per strategy, into @notes; returns how many.
 */
static int kernel_notes(const struct ab_job *job, char notes[][AB_NOTE_LEN],
			int max)
{
	int i, k, have = 0;

	for (i = 0; i < job->nrows && have < max; i++) {
		for (k = 0; k < i && job->rows[k].si != job->rows[i].si; k++)
			;
		if (k == i && ab_strategy_note(&job->bi.info, job->rows[i].si,
					       notes[have], AB_NOTE_LEN))
			have++;
	}
	return have;
}

void ab_job_print_kernel_notes(const struct ab_job *job)
{
	char notes[AB_MAX_ROWS][AB_NOTE_LEN];
	int i, n = kernel_notes(job, notes, AB_MAX_ROWS);

	for (i = 0; i < n; i++)
		printf("note: %s\n", notes[i]);
}

static void print_notes(const struct ab_job *job)
{
	int i, local = 0;

	printf("\n");
	for (i = 0; i < job->nrows; i++) {
		const struct ab_run *run = &job->rows[i].run;
		const char *name = job->rows[i].si->name;

		if (!job->rows[i].ran ||
		    (i && job->rows[i].group == job->rows[i - 1].group))
			continue;
		local |= run->node < 0 && run->node_checked;
		if (job->rows + i == job->baseline && !job->raw &&
		    job->o.timing == AB_TIMING_BATCH)
			printf("note: none is the baseline: its row is raw\n");
		if (run->cache_merged == AB_MERGED_YES)
			printf("note: %s: the kernel merged the run's kmem_cache into an existing cache (slab merging); --nomerge gives it a cache of its own\n",
			       name);
		else if (run->cache_merged == AB_MERGED_NO)
			printf("note: %s: the run's kmem_cache was a cache of its own (not merged)\n",
			       name);
		else if (run->cache_merged == AB_MERGED_UNKNOWN)
			printf("note: %s: whether the kernel merged the run's kmem_cache is unknown (no /sys/kernel/slab)\n",
			       name);
		if (job->rows[i].si->flags & AB_STRATEGY_PER_TRIAL)
			printf("note: %s: one call per trial for the whole batch (%u x %llu bytes), each phase timed whole: %s\n",
			       name, run->batch,
			       (unsigned long long)run->obj_size,
			       job->rows[i].si->desc);
		if (run->failed)
			printf("note: %s: %llu allocations failed; each ended its trial (not retried)\n",
			       name, (unsigned long long)run->failed);
		if (run->trials_done < run->trials)
			printf("note: %s: interrupted after %u of %u trials\n",
			       name, run->trials_done, run->trials);
		if (run->cpu_start != run->cpu_end)
			printf("note: %s: the run migrated from CPU %u to CPU %u\n",
			       name, run->cpu_start, run->cpu_end);
	}
	if (local && job->o.node >= 0)
		printf("note: node nL: that strategy takes no node, so --node=%d does not apply to it; hits counted against the local node n\n",
		       job->o.node);
	else if (local)
		printf("note: node nL: no --node for that strategy; hits counted against the local node n\n");
	if (job->o.free_pattern == AB_FREE_PAIR)
		printf("note: --free=pair frees each object before the next is allocated: node hits are not checked\n");
	if (job->free_cpu >= 0)
		printf("note: every object was freed on CPU %d (a work item there), allocated on the CPU of its row%s\n",
		       job->free_cpu,
		       job->counters.n
			       ? "; the counters count this thread, so not those frees"
			       : "");
	for (i = 0; i < job->nrows; i++)
		if (job->rows[i].ran && job->rows[i].run.objects &&
		    !job->rows[i].run.node_checked && job->rows[i].si->params &&
		    !job->counters.n && job->o.free_pattern != AB_FREE_PAIR &&
		    !(job->be->flags & AB_BACKEND_MODULE)) {
			printf("note: hit%% n/a: userspace memory gets its pages, and so its node, on first touch; these blocks were never touched (--write touches every byte)\n");
			break;
		}
	ab_job_print_kernel_notes(job);
	print_aggregates(job);
}

/* One log2 histogram of a row's per-op net ns. */
static void print_histogram(const struct ab_row *r, int phase)
{
	uint64_t c[HIST_BUCKETS], most = 0;
	int b, lo = HIST_BUCKETS, hi = -1;

	if (!r->nr_ns[phase])
		return;
	ab_histogram_log2(r->ns[phase], r->nr_ns[phase], c, HIST_BUCKETS);
	for (b = 0; b < HIST_BUCKETS; b++) {
		if (!c[b])
			continue;
		lo = b < lo ? b : lo;
		hi = b;
		most = c[b] > most ? c[b] : most;
	}
	printf("\nhistogram: %s %s, net ns/op, %zu samples\n", r->si->name,
	       phase ? "free" : "alloc", r->nr_ns[phase]);
	for (b = lo; b <= hi; b++) {
		int bar = (int)((c[b] * 40 + most - 1) / most);

		if (b == 0)
			printf("  %23s", "< 1");
		else if (b == HIST_BUCKETS - 1)
			printf("  [%10.0f,      inf)", ldexp(1, b - 1));
		else
			printf("  [%10.0f, %10.0f)", ldexp(1, b - 1),
			       ldexp(1, b));
		printf(" %10llu %.*s\n", (unsigned long long)c[b], bar,
		       "########################################");
	}
}

/* run and sweep --csv: one record per row, RFC 4180 (lib/textout.h). */
static void print_csv(const struct ab_job *job)
{
	static const char *const phases[] = { "alloc", "free" };
	static const char *const stats[] = { "n",   "min",   "median", "mean",
					     "p90", "p99",   "max",    "stddev",
					     "cv",  "ci_lo", "ci_hi" };
	struct ab_csv_row row = { stdout, 0 };
	int i, p, s;

	printf("strategy,object_bytes,order,batch,trials,warmup,timing,free,seed,context,gfp,write,node,target_node,cpu,objects,failed,node_hits,node_checked,cache_merged,clock_cycles,tsc_khz,values");
	for (p = 0; p < 2; p++) {
		for (s = 0; s < 11; s++)
			printf(",%s_%s_ns", phases[p], stats[s]);
		printf(",%s_median_cycles,%s_raw_median_ns,%s_subtracted_cycles",
		       phases[p], phases[p], phases[p]);
	}
	printf("\n");
	for (i = 0; i < job->nrows; i++) {
		const struct ab_row *r = &job->rows[i];
		const struct ab_run *run = &r->run;

		if (!r->ran)
			continue;
		const unsigned long long u[] = {
			run->obj_size,	   run->order,	      run->batch,
			run->trials,	   run->warmup,	      run->seed,
			run->objects,	   run->failed,	      run->node_hits,
			run->node_checked, run->cache_merged, run->clock_cycles,
			run->tsc_khz
		};

		ab_csv_str(&row, r->si->name);
		for (s = 0; s < 5; s++)
			ab_csv_printf(&row, "%llu", u[s]);
		ab_csv_str(&row, ab_timing_name(run->timing));
		ab_csv_str(&row, ab_free_name(run->free_pattern));
		ab_csv_printf(&row, "%llu", u[5]);
		ab_csv_str(&row, ab_context_name(run->context));
		ab_csv_str(&row, ab_gfp_name(run->gfp));
		ab_csv_printf(&row, "%d", !!(run->flags & AB_RUN_WRITE));
		ab_csv_printf(&row, "%d", run->node);
		ab_csv_printf(&row, "%d", run->target_node);
		ab_csv_printf(&row, "%u", run->cpu_start);
		for (s = 6; s < 13; s++)
			ab_csv_printf(&row, "%llu", u[s]);
		ab_csv_str(&row,
			   r->subtract[0] || r->subtract[1] ? "net" : "raw");
		for (p = 0; p < 2; p++) {
			const struct ab_stats *st = &r->net[p].ns;
			const double v[] = { st->min,
					     st->median,
					     st->mean,
					     st->p90,
					     st->p99,
					     st->max,
					     st->stddev,
					     st->cv,
					     st->ci_lo,
					     st->ci_hi,
					     r->net[p].cycles.median,
					     r->raw[p].ns.median,
					     r->subtract[p] };

			ab_csv_printf(&row, "%zu", st->n);
			for (s = 0; s < (int)(sizeof(v) / sizeof(v[0])); s++)
				ab_csv_num(&row, "%.3f", v[s]);
		}
		ab_csv_end(&row);
	}
}

static const char *merged_name(uint32_t m)
{
	switch (m) {
	case AB_MERGED_NO:
		return "no";
	case AB_MERGED_YES:
		return "yes";
	case AB_MERGED_UNKNOWN:
		return "unknown";
	default:
		return "n/a";
	}
}

/* The non-empty log2 buckets of a phase's per-op ns: [{lo, hi, count}]. */
static json_object *json_histogram(const struct ab_row *r, int p)
{
	json_object *a = json_object_new_array(), *b;
	uint64_t c[HIST_BUCKETS];
	int k;

	ab_histogram_log2(r->ns[p], r->nr_ns[p], c, HIST_BUCKETS);
	for (k = 0; k < HIST_BUCKETS; k++) {
		if (!c[k])
			continue;
		b = json_object_new_object();
		json_object_object_add(
			b, "lo_ns",
			json_object_new_double(k ? ldexp(1, k - 1) : 0));
		json_object_object_add(
			b, "hi_ns",
			k == HIST_BUCKETS - 1
				? NULL
				: json_object_new_double(ldexp(1, k)));
		json_object_object_add(b, "count",
				       json_object_new_int64((int64_t)c[k]));
		json_object_array_add(a, b);
	}
	return a;
}

static json_object *json_phase(const struct ab_row *r, int p)
{
	json_object *o = json_object_new_object(), *v;
	size_t i;

	json_object_object_add(o, "ns", ab_json_stats(&r->net[p].ns));
	json_object_object_add(o, "cycles", ab_json_stats(&r->net[p].cycles));
	json_object_object_add(o, "raw_ns", ab_json_stats(&r->raw[p].ns));
	json_object_object_add(o, "subtracted_cycles",
			       ab_json_num(r->subtract[p]));
	json_object_object_add(o, "histogram", json_histogram(r, p));
	v = json_object_new_array();
	for (i = 0; i < r->nr_ns[p]; i++)
		json_object_array_add(v, ab_json_num(r->ns[p][i]));
	json_object_object_add(o, "per_op_ns_sorted", v);
	return o;
}

static json_object *json_row(const struct ab_job *job, const struct ab_row *r)
{
	const struct ab_run *run = &r->run;
	json_object *o = json_object_new_object(), *ev, *e;
	int i;

	json_object_object_add(o, "kind", json_object_new_string("alloc"));
	json_object_object_add(o, "strategy",
			       json_object_new_string(r->si->name));
	json_object_object_add(o, "label", json_object_new_string(r->label));
	json_object_object_add(o, "object_bytes",
			       json_object_new_int64((int64_t)ab_run_obj_bytes(
				       run, job->bi.info.page_size)));
	json_object_object_add(o, "order",
			       (r->si->params & AB_PARAM_ORDER)
				       ? json_object_new_int((int)run->order)
				       : NULL);
	json_object_object_add(o, "batch", json_object_new_int64(run->batch));
	json_object_object_add(o, "trials", json_object_new_int64(run->trials));
	json_object_object_add(o, "trials_done",
			       json_object_new_int64(run->trials_done));
	json_object_object_add(o, "warmup", json_object_new_int64(run->warmup));
	json_object_object_add(o, "cpu_start",
			       json_object_new_int64(run->cpu_start));
	json_object_object_add(o, "cpu_end",
			       json_object_new_int64(run->cpu_end));
	json_object_object_add(o, "node", json_object_new_int(run->node));
	json_object_object_add(o, "target_node",
			       json_object_new_int(run->target_node));
	json_object_object_add(o, "free_cpu",
			       run->flags & AB_RUN_REMOTE_FREE
				       ? json_object_new_int64(run->free_cpu)
				       : NULL);
	json_object_object_add(o, "lookup",
			       r->si->params & AB_PARAM_LOOKUP
				       ? json_object_new_string(ab_lookup_name(
						 run->lookup_method))
				       : NULL);
	json_object_object_add(o, "objects",
			       json_object_new_int64((int64_t)run->objects));
	json_object_object_add(o, "failed",
			       json_object_new_int64((int64_t)run->failed));
	json_object_object_add(o, "node_hits",
			       json_object_new_int64((int64_t)run->node_hits));
	json_object_object_add(
		o, "node_checked",
		json_object_new_int64((int64_t)run->node_checked));
	json_object_object_add(
		o, "node_hit_pct",
		run->node_checked ? json_object_new_double(
					    100.0 * (double)run->node_hits /
					    (double)run->node_checked)
				  : NULL);
	json_object_object_add(
		o, "cache_merged",
		json_object_new_string(merged_name(run->cache_merged)));
	json_object_object_add(
		o, "clock_cycles",
		json_object_new_int64((int64_t)run->clock_cycles));
	json_object_object_add(o, "tsc_khz",
			       json_object_new_int64(run->tsc_khz));
	json_object_object_add(
		o, "values",
		json_object_new_string(
			r->subtract[0] || r->subtract[1] ? "net" : "raw"));
	json_object_object_add(o, "wall_ns", ab_json_num(r->wall_ns));
	json_object_object_add(o, "alloc", json_phase(r, 0));
	json_object_object_add(
		o, "free",
		r->nr_ns[1] || !(run->free_pattern == AB_FREE_PAIR &&
				 run->timing == AB_TIMING_BATCH)
			? json_phase(r, 1)
			: NULL);
	ev = json_object_new_array();
	for (i = 0; i < job->counters.n; i++) {
		const struct ab_event *c = &job->counters.ev[i];

		e = json_object_new_object();
		json_object_object_add(e, "event",
				       json_object_new_string(c->name));
		json_object_object_add(e, "encoding",
				       json_object_new_string(c->fstr));
		json_object_object_add(e, "per_op", ab_json_num(r->ev_raw[i]));
		json_object_object_add(e, "net_per_op",
				       ab_json_num(r->ev_net[i]));
		json_object_array_add(ev, e);
	}
	json_object_object_add(o, "counters", ev);
	return o;
}

json_object *ab_job_json(const struct ab_job *job)
{
	const struct ab_run_opts *o = &job->o;
	json_object *root = ab_json_envelope(job->title, (time_t)ab_out.start);
	json_object *mod = json_object_new_object(), *par, *res, *cpus, *notes;
	char kn[AB_MAX_ROWS][AB_NOTE_LEN];
	int i, n;

	json_object_object_add(root, "end", ab_json_time(time(NULL)));
	json_object_object_add(mod, "backend",
			       json_object_new_string(job->be->name));
	json_object_object_add(mod, "version",
			       json_object_new_string(job->bi.info.version));
	json_object_object_add(mod, "abi",
			       json_object_new_int64(job->bi.info.abi_version));
	json_object_object_add(root, "module", mod);
	json_object_object_add(root, "environment",
			       ab_json_env(&job->env, job->bi.info.tsc_khz));
	par = json_object_new_object();
	json_object_object_add(par, "batch", json_object_new_int64(o->batch));
	json_object_object_add(par, "trials", json_object_new_int64(o->trials));
	json_object_object_add(par, "warmup", json_object_new_int64(o->warmup));
	json_object_object_add(par, "gfp",
			       json_object_new_string(ab_gfp_name(o->gfp)));
	json_object_object_add(
		par, "timing",
		json_object_new_string(ab_timing_name(o->timing)));
	json_object_object_add(
		par, "free",
		json_object_new_string(ab_free_name(o->free_pattern)));
	json_object_object_add(par, "seed",
			       o->free_pattern == AB_FREE_SHUFFLE
				       ? json_object_new_uint64(o->seed)
				       : NULL);
	json_object_object_add(
		par, "context",
		json_object_new_string(ab_context_name(o->context)));
	json_object_object_add(par, "write", json_object_new_boolean(o->write));
	json_object_object_add(par, "fifo", json_object_new_boolean(job->fifo));
	json_object_object_add(par, "fifo_priority",
			       job->fifo ? json_object_new_int(AB_FIFO_PRIORITY)
					 : NULL);
	json_object_object_add(par, "raw", json_object_new_boolean(job->raw));
	json_object_object_add(par, "concurrent",
			       json_object_new_boolean(job->concurrent));
	json_object_object_add(
		par, "isolated_cpuset",
		ab_isolate_path()[0] ? json_object_new_string(ab_isolate_path())
				     : NULL);
	json_object_object_add(
		par, "isolation",
		ab_isolate_path()[0] ? json_object_new_string(ab_isolate_what())
				     : NULL);
	cpus = json_object_new_array();
	for (i = 0; i < job->ncpus; i++)
		json_object_array_add(cpus, json_object_new_int(job->cpus[i]));
	json_object_object_add(par, "cpus", cpus);
	json_object_object_add(root, "parameters", par);
	res = json_object_new_array();
	if (job->baseline && job->baseline->ran &&
	    job->baseline == &job->own_baseline)
		json_object_object_add(root, "baseline",
				       json_row(job, &job->own_baseline));
	for (i = 0; i < job->nrows; i++)
		if (job->rows[i].ran)
			json_object_array_add(res,
					      json_row(job, &job->rows[i]));
	json_object_object_add(root, "results", res);
	notes = json_object_new_array();
	n = kernel_notes(job, kn, AB_MAX_ROWS);
	for (i = 0; i < n; i++)
		json_object_array_add(notes, json_object_new_string(kn[i]));
	json_object_object_add(root, "notes", notes);
	return root;
}

void ab_job_print_header(const struct ab_job *job)
{
	print_header(job);
}

void ab_job_print(const struct ab_job *job)
{
	int i;

	if (ab_out.json) {
		ab_json_print(ab_job_json(job), stdout);
		return;
	}
	if (job->csv) {
		print_csv(job);
		return;
	}
	for (i = 0; i < job->nrows && !job->rows[i].ran; i++)
		;
	if (i == job->nrows) {
		printf("nothing to show: no strategy finished a run\n");
		return;
	}
	print_header(job);
	print_table(job);
	print_distribution(job);
	print_counters(job);
	print_notes(job);
	if (job->histogram)
		for (i = 0; i < job->nrows; i++) {
			print_histogram(&job->rows[i], 0);
			print_histogram(&job->rows[i], 1);
		}
}
