/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * job.h - a job: the rows (one request per strategy, CPU or round) a
 * command builds from its options, and building it (job.c, runargs.c);
 * runner.h runs it, report.h prints it.
 */
#ifndef AB_JOB_H
#define AB_JOB_H

#include <stdint.h>

#include "allocbench.h"
#include "counters.h"
#include "cpubusy.h"
#include "env.h"
#include "jsonout.h"
#include "measure.h"
#include "objmem.h"
#include "placement.h"
#include "runopts.h"
#include "explain.h"
#include "session.h"
#include "memcg.h"
#include "vpmu.h"
#include "ab_run.h"

/*
 * AB_MAX_LIST - the most names one --alloc list and the most CPUs one
 * --cpu list may hold (so also the rows of one --concurrent group, and
 * the kernel notes of a job: one per strategy). Rows have no fixed bound:
 * ab_job_row_new() grows them, and a job is bounded by the memory its
 * samples need (checked before anything runs) and shown its time left.
 */
#define AB_MAX_LIST 64
/* the name report.c and report_json.c give the room for kernel notes */
#define AB_MAX_ROWS AB_MAX_LIST
/* log2 buckets of the per-op histograms: < 1 ns up to 2^38 ns and above */
#define AB_HIST_BUCKETS 40
/* room for one note of ab_job_kernel_notes() */
#define AB_NOTE_LEN 512

/**
 * struct ab_row - one strategy's run and its figures
 * @si:       the strategy
 * @run:      the request, and the module's answer once run
 * @fp:       the request's memory (ab_run_footprint(), computed once when
 *            the request is made: ab_run_prepare_fp()), which the report
 *            reads
 * @ran:      the run completed (or was interrupted with partial output)
 * @net:      figures after overhead subtraction (raw with --raw)
 * @raw:      figures as measured
 * @subtract: cycles subtracted per op (single timing: per timed call):
 *            [0] alloc, [1] free
 * @ns:       per-op net ns of each phase, sorted (for histograms)
 * @nr_ns:    how many values @ns holds per phase
 * @smp:      the samples the module wrote, @nr_smp of them
 * @ev_raw:   per op (one allocation and its free), each event counted
 *            around the run: warm-up trials included, so divided by all
 *            the objects of the run
 * @ev_net:   @ev_raw minus the baseline's (batch timing), else @ev_raw
 * @label:    the name in tables: the strategy, with "@cpuN" in concurrent
 *            runs
 * @cpu:      the CPU to run on, -1 for the job's
 * @group:    rows of one group run at the same time (--concurrent)
 * @wall_ns:  wall time of the row's run
 * @busy:     the other CPUs' busy time during its timed pass (lib/cpubusy.h;
 *            other than the row's CPU, the group's and --free-cpu)
 * @objmem:   what one object takes, as the kernel states it (slab
 *            geometry, order), read right after the run (lib/objmem.h)
 * @prof:     --profile: the functions that took the instructions of the
 *            counting pass, per op (lib/vpmu.h)
 * @paths:    --paths: the path lengths of one op and how many ran each,
 *            from a pass of its own (lib/vpmu.h, struct ab_vpmu_paths)
 * @mc:       the memory cgroup's figures (lib/memcg.h) before the row's
 *            timed pass and after its last pass (the counting pass's too);
 *            @mc_read when both were read (a --memcg run)
 */
struct ab_row {
	const struct ab_strategy_info *si;
	struct ab_run run;
	struct ab_footprint fp;
	int ran;
	struct ab_phase_stats net[2];
	struct ab_phase_stats raw[2];
	double subtract[2];
	double *ns[2];
	size_t nr_ns[2];
	struct ab_sample *smp;
	size_t nr_smp;
	double ev_raw[AB_MAX_EVENTS];
	double ev_net[AB_MAX_EVENTS];
	char label[64];
	int cpu;
	int group;
	double wall_ns;
	struct ab_cpubusy busy;
	struct ab_obj_mem objmem;
	struct ab_vpmu_prof prof;
	struct ab_vpmu_paths paths;
	struct ab_memcg_stat mc[2];
	int mc_read;
	/* --condition, --background: what the row met (condition.h), or NULL */
	struct ab_cond_result *cond;
};

/*
 * AB_FIFO_PRIORITY - the real-time priority of --fifo and of the 2019
 * reproduction: 1, the lowest, above every SCHED_OTHER task (ordinary work
 * does not preempt a run) and below the kernel's RT threads of higher
 * priority. The 2019 seed's kthread ran at 99 (MAX_RT_PRIO - 1); at 99 a
 * run starves what must preempt it: on PREEMPT_RT the threaded IRQ
 * handlers run at SCHED_FIFO 50 (the serial port's among them: "irq 4:
 * nobody cared ... Disabling IRQ #4"), and RT throttling
 * (sched_rt_runtime_us) throttles them together with the run. At 1 they
 * preempt it.
 *
 * The policy is SCHED_FIFO, except on PREEMPT_RT: there the ktimers, rcuc
 * and rcub threads run at SCHED_FIFO 1 too (kernel/softirq.c,
 * CONFIG_RCU_KTHREAD_PRIO), and an equal SCHED_FIFO priority never takes
 * the CPU from a running task, so a long run kept timer expiry and RCU
 * callbacks off its CPU (a `sleep 1` on that CPU took 578 s in the
 * 6.12-rt guest; "rcu_preempt self-detected stall" reports). SCHED_RR at
 * the same priority gives them the CPU when its time slice
 * (sched_rr_timeslice_ms, 100 ms) ends.
 */
#define AB_FIFO_PRIORITY     1
#define AB_FIFO_PRIORITY_STR "1"

/**
 * struct ab_job - what to run and how to show it
 * @title:     first word of the header ("run", "reproduce 2019-scatterlist")
 * @session:   the backend and what it offers, the job's CPU (the first of
 *             @cpus), the environment and the counters
 * @run_opts:  the run options shared by all rows
 * @rows:      the strategies, in the order given (ab_job_row_new())
 * @nrows:     how many
 * @rows_cap:  room allocated at @rows
 * @refused:   ab_job_run() refused the job before any run (its reason was
 *             printed; there is nothing to report)
 * @raw:       --raw: no overhead subtraction
 * @histogram: --histogram: print log2 histograms of per-op ns
 * @fifo:      --fifo: real-time priority AB_FIFO_PRIORITY
 * @cpu_node:  the node of session.cpu when the job was placed (the CPU may go
 *             offline during the run; the header names the node it had)
 * @fifo_policy: its policy, SCHED_FIFO or on PREEMPT_RT SCHED_RR (set by
 *             ab_job_place())
 * @baseline:  batch timing: the "none" row measured with the same
 *             parameters (one of @rows, or @own_baseline)
 * @own_baseline: the "none" run added when --alloc has none
 * @events:    --events: "default" or a list; NULL for no counters
 * @explain:   --explain: count the allocators' internal paths (lib/explain.h)
 * @profile:   --profile: each row's instructions per op by function
 *             (the virtual PMU's profile, lib/vpmu.h)
 * @paths:     --paths: each row's path lengths (the virtual PMU's
 *             regions of one op each, lib/vpmu.h)
 * @explain_paths: with @explain, the paths this kernel can count for the
 *             rows
 * @explain_events: @events with @explain_paths' events appended
 * @cpus:      --cpu, @ncpus of them (the first is the job's CPU)
 * @cpu_given: whether --cpu chose them (else the CPU the CLI started on:
 *             a row's CPU is then no part of its identity, metrics.h)
 * @concurrent: run each strategy on all @cpus at once
 * @node_arg:  --node as given, checked by ab_job_place()
 * @free_cpu:  --free-cpu, -1 for none
 * @progress:  print progress on stderr (a terminal, several runs)
 * @isolate:   --isolate: run in a temporary exclusive cpuset (legacy) or
 *             cpuset partition (cgroup v2) of @cpus
 * @memcg:     --memcg, enum ab_memcg_mode (AB_MEMCG_NONE when not given:
 *             ab_job_place() makes it AB_MEMCG_NEW if a row charges)
 */
struct ab_job {
	const char *title;
	struct ab_session session;
	struct ab_run_opts run_opts;
	struct ab_row *rows;
	int nrows;
	int rows_cap;
	int refused;
	int raw, histogram, fifo, fifo_policy;
	int cpu_node;
	struct ab_row *baseline;
	struct ab_row own_baseline;
	const char *events;
	int explain;
	int profile;
	int paths;
	struct ab_explain explain_paths;
	char explain_events[2048];
	int cpus[AB_MAX_LIST];
	int ncpus;
	int cpu_given;
	int concurrent;
	const char *node_arg;
	int free_cpu;
	int progress;
	int isolate;
	int memcg;
};

/*
 * ab_job_new - a zeroed job with the defaults: run options as
 * ab_run_opts_init() sets them, no --free-cpu. NULL without memory.
 */
struct ab_job *ab_job_new(void);

/*
 * ab_job_row_new - room for one more row at job->rows[job->nrows], zeroed;
 * the caller fills it and counts it (job->nrows++). Rows may move: no
 * pointer into job->rows may be held across this call (the baseline is
 * found by ab_job_run(), after every row is added). NULL without memory
 * (after an error line) or past INT_MAX rows.
 */
struct ab_row *ab_job_row_new(struct ab_job *job);

/*
 * ab_run_parse - parse `run`'s options for @job (runargs.c), after @own, a
 * command's own popt table (compare's --rounds; NULL: none); up to @max
 * positional arguments go to @pos. Returns how many, or -(exit status)
 * after the error.
 */
int ab_run_parse(const char *cmd, int argc, const char **argv,
		 struct ab_job *job, struct poptOption *own, const char **pos,
		 int max);

/* ab_run_options_given - nonzero when ab_run_parse() saw any option of
 * run's own (output options aside). */
int ab_run_options_given(void);

/*
 * ab_run_setup - after ab_run_parse(): check the values, open the backend,
 * prepare a request per strategy and pin the thread. Returns an exit
 * status; the job is ready for ab_job_run() on 0.
 */
int ab_run_setup(struct ab_job *job);

/*
 * ab_job_outputs - --events (alone: "default") and --explain from
 * ab_run_args into @job, and whether it shows a progress line (not with
 * --csv).
 */
void ab_job_outputs(struct ab_job *job);

/*
 * ab_job_add - resolve the comma-separated strategy names in @list and
 * prepare a request for each. Prints the error and returns AB_EXIT_USAGE
 * for an unknown name or a value a strategy does not accept.
 */
int ab_job_add(struct ab_job *job, const char *list);

/*
 * ab_job_node - check --node (job->node_arg: one node with memory this
 * process may use, numactl syntax) and put it in job->run_opts.node, before the
 * strategies are added. Returns an exit status.
 */
int ab_job_node(struct ab_job *job);

/* ab_fifo_policy_name - "SCHED_FIFO" or "SCHED_RR", for --fifo's policy. */
const char *ab_fifo_policy_name(const struct ab_job *job);

/*
 * ab_job_place - parse @cpu_arg (numactl syntax;
 * one CPU unless job->concurrent; default the CPU it is on) and pin the
 * calling thread to the first; with job->fifo also switch to
 * job->fifo_policy at AB_FIFO_PRIORITY.
 * Returns an exit status.
 */
int ab_job_place(struct ab_job *job, const char *cpu_arg);

/*
 * ab_catch_signals - SIGINT and SIGTERM set ab_stop_requested, without
 * SA_RESTART: the module sees the signal pending between trials, frees what
 * it holds and returns -EINTR.
 */
void ab_catch_signals(void);

/* ab_job_free - release what ab_job_run allocated. */
void ab_job_free(struct ab_job *job);

/*
 * ab_job_kernel_notes - the notes the kernel makes necessary for the job's
 * strategies (ab_strategy_note(): "name: why"), one per strategy, into
 * @notes (room for @max); returns how many.
 */
int ab_job_kernel_notes(const struct ab_job *job, char notes[][AB_NOTE_LEN],
			int max);

/*
 * ab_row_gfp - the GFP flags row @r allocates with, NULL where none apply
 * (ab_strategy_gfp_name(): the user backend, the baseline,
 * kmalloc_nolock()).
 */
const char *ab_row_gfp(const struct ab_job *job, const struct ab_row *r);

/*
 * ab_row_charges - whether row @r's objects are charged to the memory
 * cgroup: the module's strategies with --gfp=kernel_account, or one whose
 * objects always are (AB_STRATEGY_ACCOUNT: kmem_cache_account).
 */
int ab_row_charges(const struct ab_job *job, const struct ab_row *r);

/*
 * ab_job_gfp - the GFP flags the job's rows allocate with (one choice for
 * every row that takes one), NULL where no row takes any; @none gets the
 * names of its allocating strategies that take none, comma-separated, ""
 * when every one takes them.
 */
const char *ab_job_gfp(const struct ab_job *job, char *none, size_t len);

/*
 * ab_alloc_phase - the first phase's name for @run: "alloc+free" for
 * --free=pair in batch timing, whose one timed loop allocates and frees
 * each object (ab_sample.alloc_cycles; it has no free phase of its own),
 * else "alloc".
 */
const char *ab_alloc_phase(const struct ab_run *run);

/*
 * ab_job_net_notes - the notes net figures need (issue 39.3), into @notes
 * (room for @max); returns how many: that the none baseline's median the
 * net figures subtract rests on too few trials for a 95% interval of it
 * (fewer than 6, ab_median_ci_ranks()), and, per row, a net median below
 * zero with its raw figure beside it. None with --raw.
 */
int ab_job_net_notes(const struct ab_job *job, char notes[][AB_NOTE_LEN],
		     int max);

#endif
