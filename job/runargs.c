// SPDX-License-Identifier: GPL-2.0-only
/*
 * runargs.c - the options of `allocbench run`, which `compare` takes too
 * (after its own): the popt table, parsing, and turning the values into a
 * job (runner.h: ab_run_parse(), ab_run_setup()).
 */
#include <popt.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "memcg.h"
#include "options.h"
#include "job.h"
#include "vpmu.h"

/* run's own options; the shared ones are in options.h */
struct run_args {
	char *alloc, *size, *order, *cpu, *node, *free_cpu, *memcg;
	int fifo, raw, histogram, concurrent, isolate;
};

static struct run_args run_args;

/*
 * run's options, and compare's, in --help's groups: what each trial does,
 * where it runs, how it is timed, what is counted, the memory state it
 * meets, and the output. The groups' tables hold the shared ones of
 * options.h.
 */
static struct poptOption strategy_group[] = {
	{ "alloc", 'a', POPT_ARG_STRING, &run_args.alloc, 0,
	  "strategies to run, comma-separated (default: the backend's; see `allocbench list`)",
	  "LIST" },
	{ "size", 's', POPT_ARG_STRING, &run_args.size, 0,
	  "bytes per object, K/M/G = powers of 1024 (default: one page)",
	  "SIZE" },
	{ "order", 0, POPT_ARG_STRING, &run_args.order, 0,
	  "page order for the page allocator strategies (default: smallest holding --size)",
	  "N" },
	{ NULL, 0, POPT_ARG_INCLUDE_TABLE, ab_trial_table, 0, NULL, NULL },
	{ NULL, 0, POPT_ARG_INCLUDE_TABLE, ab_backend_table, 0, NULL, NULL },
	POPT_TABLEEND
};

static struct poptOption placement_group[] = {
	{ "cpu", 'c', POPT_ARG_STRING, &run_args.cpu, 0,
	  "CPU to pin to, numactl syntax; a list with --concurrent (default: the CPU the command starts on)",
	  "LIST" },
	{ "concurrent", 0, POPT_ARG_NONE, &run_args.concurrent, 0,
	  "run each strategy on all --cpu CPUs at once, released together",
	  NULL },
	{ "node", 'n', POPT_ARG_STRING, &run_args.node, 0,
	  "NUMA node to allocate on, for the *_node strategies (numactl syntax)",
	  "N" },
	{ "free-cpu", 0, POPT_ARG_STRING, &run_args.free_cpu, 0,
	  "free every object on this CPU (a work item there): remote frees",
	  "N" },
	{ "isolate", 0, POPT_ARG_NONE, &run_args.isolate, 0,
	  "run in a temporary exclusive cpuset of the --cpu CPUs (legacy cpuset file system at /dev/cpuset, else a cgroup v2 cpuset partition)",
	  NULL },
	{ "fifo", 0, POPT_ARG_NONE, &run_args.fifo, 0,
	  "run at real-time priority 1, SCHED_FIFO (SCHED_RR on PREEMPT_RT): above ordinary tasks, below kernel RT and IRQ threads, which priority 99 would starve",
	  NULL },
	{ "memcg", 0, POPT_ARG_STRING, &run_args.memcg, 0,
	  "the memory cgroup that charged allocations (--gfp=kernel_account, kmem_cache_account) are charged to: new (a cgroup v2 made for the run and removed after it; the default when a row charges) or self (the cgroup this process is in, not the root)",
	  "WHERE" },
	POPT_TABLEEND
};

static struct poptOption raw_table[] = {
	{ "raw", 0, POPT_ARG_NONE, &run_args.raw, 0,
	  "show raw values: no loop or clock overhead subtracted", NULL },
	POPT_TABLEEND
};

/* an included table's options print after the table's own: --raw last */
static struct poptOption timing_group[] = {
	{ NULL, 0, POPT_ARG_INCLUDE_TABLE, ab_timing_table, 0, NULL, NULL },
	{ NULL, 0, POPT_ARG_INCLUDE_TABLE, raw_table, 0, NULL, NULL },
	POPT_TABLEEND
};

/* compare's counters; run's add --profile */
static struct poptOption counters_group[] = {
	{ NULL, 0, POPT_ARG_INCLUDE_TABLE, ab_events_table, 0, NULL, NULL },
	{ NULL, 0, POPT_ARG_INCLUDE_TABLE, ab_explain_table, 0, NULL, NULL },
	POPT_TABLEEND
};

static struct poptOption run_counters_group[] = {
	{ NULL, 0, POPT_ARG_INCLUDE_TABLE, counters_group, 0, NULL, NULL },
	{ NULL, 0, POPT_ARG_INCLUDE_TABLE, ab_profile_table, 0, NULL, NULL },
	POPT_TABLEEND
};

static struct poptOption output_group[] = {
	{ NULL, 0, POPT_ARG_INCLUDE_TABLE, ab_wide_table, 0, NULL, NULL },
	{ "histogram", 0, POPT_ARG_NONE, &run_args.histogram, 0,
	  "print a log2 histogram of per-op ns for each strategy", NULL },
	{ NULL, 0, POPT_ARG_INCLUDE_TABLE, ab_csv_table, 0, NULL, NULL },
	{ NULL, 0, POPT_ARG_INCLUDE_TABLE, ab_dry_run_table, 0, NULL, NULL },
	{ NULL, 0, POPT_ARG_INCLUDE_TABLE, ab_output_table, 0, NULL, NULL },
	POPT_TABLEEND
};

/* the groups' headings, as --help prints them and allocbench-run(1) has them */
#define GROUP(table, heading)                                            \
	{                                                                \
		NULL, 0, POPT_ARG_INCLUDE_TABLE, table, 0, heading, NULL \
	}
#define RUN_GROUPS(counters)                                                \
	GROUP(strategy_group, "Strategy (what each trial does):"),          \
		GROUP(placement_group, "Placement:"),                       \
		GROUP(timing_group, "Timing:"),                             \
		GROUP(counters, "Counters (a separate counting pass):"),    \
		GROUP(ab_cond_table, "Conditions (the memory state met):"), \
		GROUP(output_group, "Output:")

/* compare's: run's groups but --profile */
static struct poptOption run_body[] = { RUN_GROUPS(counters_group),
					POPT_TABLEEND };

static struct poptOption run_table[] = { RUN_GROUPS(run_counters_group),
					 POPT_AUTOHELP POPT_TABLEEND };

/* a command's own options first (ab_run_parse()'s @own), then run's */
static struct poptOption own_table[] = {
	{ NULL, 0, POPT_ARG_INCLUDE_TABLE, NULL, 0, NULL, NULL },
	{ NULL, 0, POPT_ARG_INCLUDE_TABLE, run_body, 0, NULL, NULL },
	POPT_AUTOHELP POPT_TABLEEND
};

/* The name of the first backend that frees on another CPU. */
static const char *remote_free_backend(void)
{
	const struct ab_backend *be;
	unsigned int i;

	for (i = 0; (be = ab_backend_nth(i)); i++)
		if (be->flags & AB_BACKEND_REMOTE_FREE)
			return be->name;
	return "?";
}

int ab_run_parse(const char *cmd, int argc, const char **argv,
		 struct ab_job *job, struct poptOption *own, const char **pos,
		 int max)
{
	job->title = cmd;
	ab_run_table_defaults(&job->run_opts);
	own_table[0].arg = own;
	return ab_popt_parse_pos(cmd, argc, argv, own ? own_table : run_table,
				 pos, max);
}

int ab_run_options_given(void)
{
	const struct run_args *a = &run_args;

	return ab_run_args_given() || ab_run_args.backend || a->alloc ||
	       a->size || a->order || a->cpu || a->node || ab_run_args.events ||
	       ab_run_args.explain || ab_run_args.profile ||
	       ab_run_args.paths || a->free_cpu || a->fifo || a->raw ||
	       a->histogram || (ab_out.formats & AB_FORMAT_CSV) ||
	       a->concurrent || a->isolate || a->memcg;
}

/* --size and --order, then the shared values; prints the first error. */
static int parse_values(struct ab_run_opts *o)
{
	const struct run_args *a = &run_args;
	char err[AB_ERRLEN];

	if ((a->size && ab_opt_size(a->size, o, err, sizeof(err))) ||
	    (a->order && ab_opt_order(a->order, o, err, sizeof(err)))) {
		ab_err("%s", err);
		return AB_EXIT_USAGE;
	}
	/* one object, one way of naming it (sweep: --orders with --sizes) */
	if (a->size && a->order) {
		ab_err("--order=%s with --size=%s: give one of them (--order: page orders, for the page strategies)",
		       a->order, a->size);
		return AB_EXIT_USAGE;
	}
	return ab_run_args_apply(o);
}

void ab_job_outputs(struct ab_job *job)
{
	const struct ab_run_args *a = &ab_run_args;

	job->events = a->events ? (*a->events ? a->events : "default") : NULL;
	job->explain = a->explain;
	job->profile = a->profile;
	job->paths = a->paths;
	/* a profile divides instructions: count them too */
	if (job->profile && !job->events)
		job->events = "instructions";
	job->progress = !ab_out.quiet && !(ab_out.formats & AB_FORMAT_CSV) &&
			isatty(STDERR_FILENO);
}

int ab_run_setup(struct ab_job *job)
{
	const struct run_args *a = &run_args;
	int ret;

	ret = parse_values(&job->run_opts);
	job->node_arg = a->node;
	if (!ret)
		ret = ab_job_node(job);
	if (!ret)
		ret = ab_backend_open(ab_run_args.backend, &job->session.be,
				      &job->session.bi);
	if (!ret)
		ret = ab_job_add(job, a->alloc ? a->alloc
					       : job->session.be->default_run);
	job->raw = a->raw;
	job->histogram = a->histogram;
	job->fifo = a->fifo;
	ab_job_outputs(job);
	job->concurrent = a->concurrent;
	job->isolate = a->isolate;
	if (!ret && a->memcg) {
		char err[AB_ERRLEN];

		if (ab_memcg_parse(a->memcg, &job->memcg, err, sizeof(err))) {
			ab_err("%s", err);
			ret = AB_EXIT_USAGE;
		} else if (job->memcg == AB_MEMCG_NEW && job->isolate) {
			ab_err("--memcg=new: --isolate already moves the run into a cgroup of its own; use --memcg=self to charge that one (the memory controller enabled in the cgroup v2 root's cgroup.subtree_control)");
			ret = AB_EXIT_USAGE;
		}
	}
	if (!ret && a->free_cpu) {
		char err[AB_ERRLEN];
		int cpus[2];

		if (ab_parse_cpus("free-cpu", a->free_cpu, cpus, 1, err,
				  sizeof(err)) != 1) {
			ab_err("%s", err);
			ret = AB_EXIT_USAGE;
		} else if (job->run_opts.free_pattern == AB_FREE_PAIR) {
			ab_err("--free-cpu: --free=pair frees each object on the allocating CPU");
			ret = AB_EXIT_USAGE;
		}
		job->free_cpu = cpus[0];
	}
	if (!ret && job->free_cpu >= 0 &&
	    !(job->session.be->flags & AB_BACKEND_REMOTE_FREE)) {
		ab_err("--free-cpu: the %s backend frees on the allocating CPU; remote frees need --backend=%s",
		       job->session.be->name, remote_free_backend());
		ret = AB_EXIT_USAGE;
	}
	if (!ret && job->profile && ab_vpmu_present() != 2) {
		ab_err("--profile: needs the virtual PMU with its model (%s); boot with allocbench vm --vpmu=model or make vm-run VPMU=model",
		       ab_vpmu_present() ? "this guest runs it without"
					 : "not running here");
		ret = AB_EXIT_USAGE;
	}
	if (!ret && job->paths && !ab_vpmu_present()) {
		ab_err("--paths: needs the virtual PMU (not running here); boot with allocbench vm --vpmu or make vm-run VPMU=1");
		ret = AB_EXIT_USAGE;
	}
	if (!ret && job->paths &&
	    !(job->session.bi.info.run_flags & AB_RUN_VPMU)) {
		ab_err("--paths: the %s backend marks no regions for the virtual PMU",
		       job->session.be->name);
		ret = AB_EXIT_USAGE;
	}
	if (!ret && job->paths && job->run_opts.batch > AB_VPMU_PATHS_OPS) {
		ab_err("--paths: --batch=%u is above the %u allocations a paths pass holds (the plugin's ring keeps that many ops' lines)",
		       job->run_opts.batch, AB_VPMU_PATHS_OPS);
		ret = AB_EXIT_USAGE;
	}
	if (!ret && job->concurrent && job->paths) {
		ab_err("--paths: the regions counted are the calling thread's, not the concurrent runs'; drop --paths or --concurrent");
		ret = AB_EXIT_USAGE;
	}
	if (!ret && job->concurrent && (job->events || job->explain)) {
		ab_err("--%s: counters count the calling thread, not the concurrent runs; drop --%s or --concurrent",
		       job->events ? "events" : "explain",
		       job->events ? "events" : "explain");
		ret = AB_EXIT_USAGE;
	}
	if (!ret)
		ret = ab_job_place(job, a->cpu);
	return ret;
}
