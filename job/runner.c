// SPDX-License-Identifier: GPL-2.0-only
/*
 * runner.c - running a job (see runner.h): the baseline, then every row,
 * alone or in concurrent groups, through the backend; per-op figures of
 * each from its samples (lib/measure.h).
 *
 * One trial allocates --batch objects (the alloc phase) then frees them in
 * the chosen order (the free phase). Batch timing reads the clock around
 * each phase, single timing around each operation. Per op: ns = cycles *
 * 10^6 / tsc_khz. Net values subtract the overhead (ab_net_rule() in
 * measure.h); --raw shows the figures as measured.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "ab_nodes.h"
#include "ab_run.h"
#include "runlimits.h"
#include "condition.h"
#include "runner.h"
#include "slabmerge.h"
#include "textout.h"

#define interrupted ab_stop_requested

/*
 * Runs r->run to its end. Any signal makes the module stop between trials
 * and return -EINTR with what it did so far; for SIGINT and SIGTERM that is
 * the end, but other signals (SIGSTOP and SIGCONT of job control, a
 * debugger attaching, SIGWINCH) only pause it: the run goes on with the
 * trials left, their samples after the ones done. (A resumed shuffle
 * starts its per-trial orders again from the first.) With @objmem, the
 * kernel's figures of the memory one object takes (lib/objmem.c) are read
 * right after the first part: the timed pass's, never a counting pass's,
 * whose counters would count that reading's syscalls (opening and reading
 * /sys/kernel/slab files allocates slab objects in this task: on
 * PREEMPT_RT every one of them enters ___slab_alloc(), 0.84 "slab slow
 * path" per op of kmalloc 64 at batch 50 on 6.12-rt, and the row's figures
 * are thrown away with the pass's copy of the row anyway). Returns 0 or
 * -errno.
 */
static int run_resumable(struct ab_job *job, struct ab_row *r, uint32_t slots,
			 int objmem, char *why, size_t len)
{
	struct ab_run *run = &r->run, part = *run;
	int err, first = 1;

	for (;;) {
		err = job->session.be->run(&part, why, len);
		/* the limit the module named, in figures of the request */
		if ((err == -E2BIG || err == -EBUSY) &&
		    (job->session.be->flags & AB_BACKEND_MODULE))
			ab_limit_refusal(&part, &job->session.bi.info, r->si,
					 &r->fp, err, why, len);
		if (first) {
			*run = part;
			/* before the next run takes the cache it kept away */
			if (objmem && (!err || err == -EINTR) &&
			    (job->session.be->flags & AB_BACKEND_MODULE))
				ab_obj_mem_state(AB_SLAB_SYSFS, run, r->si,
						 &job->session.bi.info, &r->fp,
						 &r->objmem);
		} else {
			if (part.mem_trials &&
			    (!run->mem_trials ||
			     part.mem_free_min < run->mem_free_min))
				run->mem_free_min = part.mem_free_min;
			if (part.mem_trials &&
			    (!run->mem_trials ||
			     part.mem_free_max > run->mem_free_max))
				run->mem_free_max = part.mem_free_max;
			run->trials_done += part.trials_done;
			run->objects += part.objects;
			run->failed += part.failed;
			ab_nodes_add(run, &part);
			run->switches += part.switches;
			run->migrations += part.migrations;
			run->disturbed += part.disturbed;
			run->free_elsewhere += part.free_elsewhere;
			run->pool_from_reserve += part.pool_from_reserve;
			run->pool_reserve_unmet += part.pool_reserve_unmet;
			run->mem_objects += part.mem_objects;
			run->mem_free_bytes += part.mem_free_bytes;
			run->mem_slab_bytes += part.mem_slab_bytes;
			run->mem_pagetable_bytes += part.mem_pagetable_bytes;
			run->mem_trials += part.mem_trials;
			run->cpu_end = part.cpu_end;
		}
		first = 0;
		if (err != -EINTR || interrupted ||
		    part.trials_done >= part.trials)
			return err == -EINTR && !interrupted ? 0 : err;
		part.trials -= part.trials_done;
		part.warmup = 0;
		if (part.samples_ptr) {
			part.samples_ptr += part.trials_done * slots *
					    sizeof(struct ab_sample);
			part.samples_len -= part.trials_done * slots;
		}
	}
}

static double now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

/* Whether @r's figures have a measured baseline: not its own. */
static int has_baseline(const struct ab_job *job, const struct ab_row *r)
{
	return job->baseline && job->baseline->ran && job->baseline != r;
}

/*
 * The operations of counting pass @run, warm-up trials included (their
 * objects estimated from the measured trials' mean); NAN when none ran.
 */
static double ops_of(const struct ab_run *run)
{
	if (!run->trials_done)
		return NAN;
	return (double)run->objects * (double)(run->trials_done + run->warmup) /
	       (double)run->trials_done;
}

/*
 * Event counts per op of @r from its counting pass @run: the counters ran
 * around the whole pass, warm-up trials included, so the objects of those
 * count too (estimated from the measured trials' mean). Batch timing
 * subtracts the baseline's per-op counts, measured the same way.
 */
static void count_per_op(struct ab_job *job, struct ab_row *r,
			 const struct ab_run *run, int virt)
{
	double ops = ops_of(run);
	int i;

	for (i = 0; i < job->session.counters.n; i++) {
		if (virt >= 0 && job->session.counters.ev[i].virt != virt)
			continue;
		r->ev_raw[i] =
			ops > 0 ? job->session.counters.ev[i].value / ops : NAN;
		r->ev_net[i] = r->ev_raw[i];
		if (ab_net_uses_baseline(job->raw, run->timing,
					 has_baseline(job, r)))
			r->ev_net[i] -= job->baseline->ev_raw[i];
	}
}

/*
 * The share of the timed regions a virtual event kept in its last
 * interval (running / enabled: those no interrupt ran in), which the
 * profile, read from the kept regions only, is scaled by as the counts
 * are; 1 without a virtual event.
 */
static double kept_share(const struct ab_counters *c)
{
	int i;

	for (i = 0; i < c->n; i++)
		if (c->ev[i].virt && c->ev[i].enabled)
			return (double)c->ev[i].running /
			       (double)c->ev[i].enabled;
	return 1;
}

/*
 * The counting pass (issue 14, part 3): probes and counters cost cycles
 * each time they fire, so the timed pass runs with none armed and the
 * counts come from a second pass of the same trials (same parameters,
 * seed, free order, CPU and node) with the counters around it and no
 * samples kept, node checks off (the counters would see them). Returns
 * what run_resumable() does; the counts are per op of this pass.
 */
/*
 * One counting pass of @c with the events of kind @virt armed (1: the
 * virtual PMU's, 0: the kernel's, -1: all), the others left closed; the
 * counts per op of those events into @r.
 */
static int counting_one(struct ab_job *job, struct ab_row *r, struct ab_row *c,
			int virt, uint32_t per, char *why, size_t len)
{
	struct ab_counters *cs = &job->session.counters;
	int err, tries;

	c->run.samples_ptr = 0;
	c->run.samples_len = 0;
	c->run.flags |= AB_RUN_NO_NODE_CHECK;
	/* armed for this pass only: a kprobe is live while its fd is open */
	ab_counters_resume_some(cs, virt);
	/* virtual events count the module's marked regions (lib/vpmu.h) */
	if (virt && ab_counters_virtual(cs) &&
	    (job->session.bi.info.run_flags & AB_RUN_VPMU))
		c->run.flags |= AB_RUN_VPMU;
	/* --profile: the plugin's table cleared first, read after */
	if (job->profile && virt)
		ab_vpmu_profile(&r->prof);
	/*
	 * hardware events that never ran in the pass (time_running 0: no
	 * free counter; software ones keep their count, ab_counters_stop()):
	 * the pass again, twice at most; the virtual PMU's profile would add
	 * up, so not with it
	 */
	for (tries = 0;; tries++) {
		ab_counters_start(cs);
		err = run_resumable(job, c, per, 0, why, len);
		ab_counters_stop(cs);
		if (err || virt == 1 || tries == 2 ||
		    !ab_counters_unrun_last(cs))
			break;
		ab_counters_forget_last(cs);
	}
	if (job->profile && virt && !ab_vpmu_profile(&r->prof))
		ab_vpmu_prof_scale(&r->prof, ops_of(&c->run) * kept_share(cs));
	count_per_op(job, r, &c->run, virt);
	ab_counters_suspend(cs);
	return err;
}

static int counting_pass(struct ab_job *job, struct ab_row *r, uint32_t per,
			 char *why, size_t len)
{
	struct ab_counters *cs = &job->session.counters;
	int virt = ab_counters_virtual(cs), err;
	struct ab_row c = *r;

	if (!virt || virt == cs->n)
		return counting_one(job, r, &c, virt ? 1 : -1, per, why, len);
	/*
	 * Kernel events beside virtual ones: a kprobe's or a tracepoint's
	 * handler runs inside the marked regions, where the plugin would
	 * count it (kmalloc 64 on 6.1: 294 instructions per op alone, 655
	 * beside kmem:kmalloc), so each kind gets a pass of its own.
	 */
	err = counting_one(job, r, &c, 0, per, why, len);
	if (!err) {
		c = *r;
		err = counting_one(job, r, &c, 1, per, why, len);
	}
	return err;
}

/*
 * --paths (issue 40, "decomposition into paths"): @r's trials again, in
 * single timing with the virtual PMU's markers, so that every region is
 * one allocation or one free, and no counter armed (a kprobe's handler
 * would run inside them); each region's instructions are one op's path
 * length (lib/vpmu.h, struct ab_vpmu_paths). Up to AB_VPMU_PATHS_OPS of its
 * allocations. The strategies timed per trial (one region a phase) have
 * no per-op regions, and the baseline added for the net figures is shown
 * nowhere: none for them. Returns what run_resumable() does.
 */
static int paths_pass(struct ab_job *job, struct ab_row *r, char *why,
		      size_t len)
{
	struct ab_row c = *r;
	uint32_t most = AB_VPMU_PATHS_OPS / (r->run.batch ? r->run.batch : 1);
	int err;

	memset(&r->paths, 0, sizeof(r->paths));
	if ((r->si->flags & AB_STRATEGY_PER_TRIAL) || r == &job->own_baseline)
		return 0;
	if (!most)
		most = 1;
	c.run.samples_ptr = 0;
	c.run.samples_len = 0;
	c.run.timing = AB_TIMING_SINGLE;
	c.run.flags |= AB_RUN_NO_NODE_CHECK | AB_RUN_VPMU;
	if (c.run.trials + c.run.warmup > most) {
		if (c.run.warmup > most / 2)
			c.run.warmup = most / 2;
		/* at least 1: the warm-up is at most half of @most */
		if (c.run.trials > most - c.run.warmup)
			c.run.trials = most - c.run.warmup;
	}
	if (ab_vpmu_paths_begin(&r->paths))
		return 0;
	/* the warm-up trials' ops are not counted, as in the timed pass */
	r->paths.skip = (uint64_t)c.run.warmup * c.run.batch;
	err = run_resumable(job, &c,
			    ab_run_samples_per_trial(&c.run, r->si->flags), 0,
			    why, len);
	if (!err)
		ab_vpmu_paths_end(&r->paths);
	r->paths.intr = err == -EINTR;
	return err;
}

/*
 * The other CPUs' busy time from @a to @b (lib/cpubusy.h): every CPU but
 * the row's own, the other CPUs of its --concurrent group, and the
 * --free-cpu CPU, whose work is the run's.
 */
static void busy_between(const struct ab_job *job, struct ab_row *r,
			 const struct ab_cpustat *a, double ta,
			 const struct ab_cpustat *b, double tb)
{
	int mine[AB_MAX_LIST + 2], n = 0, i;
	long hz = sysconf(_SC_CLK_TCK);

	mine[n++] = r->cpu >= 0 ? r->cpu : job->session.cpu;
	if (job->concurrent)
		for (i = 0; i < job->ncpus && i < AB_MAX_LIST; i++)
			mine[n++] = job->cpus[i];
	if (job->free_cpu >= 0)
		mine[n++] = job->free_cpu;
	ab_cpubusy_between(a, ta, b, tb, hz > 0 ? (double)hz : 0, mine, n,
			   &r->busy);
}

/* Runs one row; 0, or an exit status after printing why it failed. */
static int run_row(struct ab_job *job, struct ab_row *r)
{
	uint32_t per = ab_run_samples_per_trial(&r->run, r->si->flags);
	size_t len = (size_t)r->run.trials * per;
	struct ab_sample *smp = calloc(len, sizeof(*smp));
	char why[AB_ERRLEN];
	int p, i, err, ret = AB_EXIT_OK;
	double t0, b0, b1;
	struct ab_cpustat st0, st1;

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
	if (ab_out.verbose)
		fprintf(stderr,
			"request: %s: obj_size %llu order %u batch %u trials %u warmup %u node %d cpu %d gfp %s timing %s free %s context %s flags %#x\n",
			r->label, (unsigned long long)r->run.obj_size,
			r->run.order, r->run.batch, r->run.trials,
			r->run.warmup, r->run.node,
			r->cpu >= 0 ? r->cpu : job->session.cpu,
			ab_row_gfp(job, r) ? ab_row_gfp(job, r) : "none",
			ab_timing_name(r->run.timing),
			ab_free_name(r->run.free_pattern),
			ab_context_name(r->run.context), r->run.flags);
	/* the disturbed phases' samples marked, where the backend can */
	if (job->session.bi.info.run_flags & AB_RUN_MARK_DISTURBED)
		r->run.flags |= AB_RUN_MARK_DISTURBED;
	/* a cache of its own stays until its geometry is read (objmem.h) */
	if ((job->session.bi.info.run_flags & AB_RUN_KEEP_CACHE) &&
	    (r->si->params & AB_PARAM_CACHE))
		r->run.flags |= AB_RUN_KEEP_CACHE;
	/* no count until a counting pass gives one (an interrupted timed
	 * pass has none: n/a, not 0) */
	for (i = 0; i < AB_MAX_EVENTS; i++)
		r->ev_raw[i] = r->ev_net[i] = NAN;
	/* the condition and the load: the strategies' rows, not the loop's */
	if ((job->run_opts.condition || job->run_opts.background) &&
	    !(r->si->flags & AB_STRATEGY_BASELINE)) {
		err = ab_cond_begin(job, r, why, sizeof(why));
		if (err) {
			ab_err("%s: %s", r->si->name, why);
			return err == -EINTR ? AB_EXIT_INTR : AB_EXIT_RUN;
		}
	}
	r->mc_read = !ab_memcg_read(&r->mc[0]);
	ab_cpustat_read(&st0, &b0);
	t0 = now_ns();
	err = run_resumable(job, r, per, 1, why, sizeof(why));
	r->wall_ns = now_ns() - t0;
	ab_cpustat_read(&st1, &b1);
	busy_between(job, r, &st0, b0, &st1, b1);
	ab_cond_timed(r);
	if (job->session.counters.n && !err)
		err = counting_pass(job, r, per, why, sizeof(why));
	if (job->paths && !err)
		err = paths_pass(job, r, why, sizeof(why));
	ab_cond_end(job, r);
	r->mc_read = r->mc_read && !ab_memcg_read(&r->mc[1]);
	if (err) {
		ab_err("%s: %s", r->si->name, why);
		/* only an interrupted run has trials to show */
		if (err != -EINTR)
			return AB_EXIT_RUN;
		ret = AB_EXIT_INTR;
		/* an interrupted baseline of its own is shown nowhere: its
		 * samples (a million under a long --trials, seconds of sorting
		 * under TCG) are not summarized */
		if (r == &job->own_baseline)
			return ret;
	}
	r->ran = 1;
	len = (size_t)r->run.trials_done * per;
	for (p = 0; p < 2; p++) {
		size_t have =
			ab_phase_samples(r->run.timing, r->run.free_pattern,
					 (enum ab_phase)p, len);
		const double *base =
			has_baseline(job, r)
				? &job->baseline->raw[p].cycles.median
				: NULL;
		struct ab_net net = ab_net_rule(job->raw, r->run.timing,
						r->run.clock_cycles, base);
		const struct ab_net raw = { 0, 0,
					    job->run_opts.drop_disturbed };

		net.drop = job->run_opts.drop_disturbed;
		ab_phase_summary_net(smp, have, (enum ab_phase)p, &raw,
				     r->run.tsc_khz, r->ns[p], &r->raw[p]);
		/* one figure for the record: per op of a one-object sample */
		r->subtract[p] = net.per_op + net.per_sample;
		ab_phase_summary_net(smp, have, (enum ab_phase)p, &net,
				     r->run.tsc_khz, r->ns[p], &r->net[p]);
		r->nr_ns[p] = r->net[p].ns.n;
	}
	r->nr_smp = len;
	return ret;
}

/* --concurrent: each strategy becomes one row per CPU, run together. */
static int expand_concurrent(struct ab_job *job)
{
	struct ab_row *rows;
	int i, c, n = job->nrows;

	/* no fixed bound: as many rows as the memory for them */
	rows = (size_t)n * (size_t)job->ncpus > INT_MAX
		       ? NULL
		       : calloc((size_t)n * (size_t)job->ncpus, sizeof(*rows));
	if (!rows) {
		ab_err("--concurrent: no memory for %d strategies on %d CPUs",
		       n, job->ncpus);
		return AB_EXIT_RUN;
	}
	for (i = 0; i < n; i++)
		for (c = 0; c < job->ncpus; c++) {
			struct ab_row *r = &rows[i * job->ncpus + c];

			*r = job->rows[i];
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
			/* the row's own label: "kmem_cache sheaves=off@cpu1" */
			snprintf(r->label, sizeof(r->label), "%.52s@cpu%d",
				 job->rows[i].label, job->cpus[c]);
		}
	/* the baseline moves with the rows: to its first copy */
	for (i = 0; i < n; i++)
		if (job->baseline == &job->rows[i]) {
			job->baseline = &rows[i * job->ncpus];
			break;
		}
	free(job->rows);
	job->rows = rows;
	job->nrows = n * job->ncpus;
	job->rows_cap = job->nrows;
	return AB_EXIT_OK;
}

/* One --concurrent group: its threads, and how many have finished. */
struct group {
	pthread_t thread[AB_MAX_LIST];
	int n;
	int finished;  /* members whose run returned (atomic) */
	int passed_on; /* a stop signal was passed to every member (atomic) */
};

struct member {
	struct ab_job *job;
	struct ab_row *row;
	pthread_barrier_t *start;
	struct group *group;
	int ret;
};

/* A stop signal once to every member, from whichever thread saw it. */
static void pass_on(struct group *g)
{
	int k;

	if (!interrupted ||
	    __atomic_exchange_n(&g->passed_on, 1, __ATOMIC_ACQ_REL))
		return;
	for (k = 0; k < g->n; k++)
		pthread_kill(g->thread[k], interrupted);
}

static void *member_run(void *arg)
{
	struct member *m = arg;
	int pinned = ab_pin(m->row->cpu);

	pthread_barrier_wait(m->start);
	m->ret = pinned ? pinned : run_row(m->job, m->row);
	/* the member the signal reached ends first: the others next */
	pass_on(m->group);
	__atomic_add_fetch(&m->group->finished, 1, __ATOMIC_RELEASE);
	return NULL;
}

/*
 * Rows [from, to) at the same time, one thread each, pinned, released
 * together by a barrier so their runs overlap: contention on shared
 * allocator state shows in every row.
 *
 * SIGINT, SIGTERM and SIGHUP are blocked in this thread while they run,
 * so the kernel delivers them to a member, inside its ioctl: the module
 * sees the signal pending there and ends that run between trials, and
 * the member passes it on to the others. With --fifo the members hold
 * every CPU at an RT priority this thread cannot preempt, so a signal
 * that waited for it here ended nothing (6.12: a run of 10^6 trials on
 * two CPUs went on past 10 minutes after its SIGINT).
 */
static int run_group(struct ab_job *job, int from, int to)
{
	/* a group is one strategy on each CPU of --cpu: at most AB_MAX_LIST */
	struct member m[AB_MAX_LIST];
	struct group g = { .n = to - from };
	pthread_barrier_t start;
	sigset_t stop, old;
	int k, ret = AB_EXIT_OK;

	if (g.n > AB_MAX_LIST) {
		ab_err("%d runs at once: more than the %d CPUs a --cpu list holds",
		       g.n, AB_MAX_LIST);
		return AB_EXIT_RUN;
	}
	sigemptyset(&stop);
	sigaddset(&stop, SIGINT);
	sigaddset(&stop, SIGTERM);
	sigaddset(&stop, SIGHUP);
	pthread_barrier_init(&start, NULL, (unsigned int)g.n);
	for (k = 0; k < g.n; k++) {
		m[k] = (struct member){ job, &job->rows[from + k], &start, &g,
					0 };
		if (pthread_create(&g.thread[k], NULL, member_run, &m[k])) {
			ab_err("cannot start a thread for %s",
			       job->rows[from + k].label);
			exit(AB_EXIT_RUN);
		}
	}
	/* the members started with them unblocked, as this thread had them */
	pthread_sigmask(SIG_BLOCK, &stop, &old);
	/* a signal that came before the block: pass it on from here */
	while (__atomic_load_n(&g.finished, __ATOMIC_ACQUIRE) < g.n) {
		pass_on(&g);
		usleep(10000);
	}
	/* joined only when none can signal another any more */
	for (k = 0; k < g.n; k++) {
		pthread_join(g.thread[k], NULL);
		if (m[k].ret && !ret)
			ret = m[k].ret;
	}
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	pthread_barrier_destroy(&start);
	return ret;
}

int ab_job_run(struct ab_job *job)
{
	int i, next, ret = ab_job_check(job);
	cpu_set_t cpu;

	if (ret)
		return ret;
	ab_catch_signals();
	if (job->baseline && job->run_opts.timing == AB_TIMING_BATCH) {
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
		ab_job_progress(job, i, next);
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
	/*
	 * back on the job's CPU after rows pinned elsewhere; quietly, for
	 * the CPU may have gone offline meanwhile (each run's notes say
	 * where it ended)
	 */
	CPU_ZERO(&cpu);
	CPU_SET(job->session.cpu, &cpu);
	(void)sched_setaffinity(0, sizeof(cpu), &cpu);
	return ret;
}
