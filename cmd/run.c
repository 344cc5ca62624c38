// SPDX-License-Identifier: GPL-2.0-only
/*
 * run.c - `allocbench run`: run strategies through a backend and print, per
 * strategy, the per-operation cost of the alloc and free phases over trials
 * (runner.c does the running and the printing).
 */
#include <popt.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "runner.h"

struct run_args {
	char *alloc;
	char *size, *order, *batch, *trials, *warmup, *cpu, *node, *gfp;
	char *timing, *free, *seed, *context, *lookup, *table, *align;
	char *backend, *events, *free_cpu;
	int nomerge, write, fifo, raw, histogram, csv, concurrent;
	int isolate;
};

/* Parses the option strings into @o; prints the error, returns a status. */
static int parse_values(const struct run_args *a, struct ab_run_opts *o)
{
	char err[AB_ERRLEN];
	int bad = 0;

	ab_run_opts_init(o);
	o->nomerge = a->nomerge;
	o->write = a->write;
	if (a->size)
		bad = bad || ab_opt_size(a->size, o, err, sizeof(err));
	if (a->order)
		bad = bad || ab_opt_order(a->order, o, err, sizeof(err));
	if (a->batch)
		bad = bad || ab_opt_count("batch", a->batch, 1, &o->batch, err,
					  sizeof(err));
	if (a->trials)
		bad = bad || ab_opt_count("trials", a->trials, 1, &o->trials,
					  err, sizeof(err));
	if (a->warmup)
		bad = bad || ab_opt_count("warmup", a->warmup, 0, &o->warmup,
					  err, sizeof(err));
	if (a->gfp)
		bad = bad || ab_opt_gfp(a->gfp, o, err, sizeof(err));
	if (a->timing)
		bad = bad || ab_opt_timing(a->timing, o, err, sizeof(err));
	if (a->free)
		bad = bad || ab_opt_free(a->free, o, err, sizeof(err));
	if (a->seed)
		bad = bad || ab_opt_seed(a->seed, o, err, sizeof(err));
	if (a->context)
		bad = bad || ab_opt_context(a->context, o, err, sizeof(err));
	if (a->lookup)
		bad = bad || ab_opt_lookup(a->lookup, o, err, sizeof(err));
	if (a->table)
		bad = bad || ab_opt_table(a->table, o, err, sizeof(err));
	if (a->align)
		bad = bad || ab_opt_align(a->align, o, err, sizeof(err));
	if (bad) {
		ab_err("%s", err);
		return AB_EXIT_USAGE;
	}
	return AB_EXIT_OK;
}

int ab_run_setup(const char *cmd, int argc, const char **argv,
		 struct ab_job *job)
{
	struct run_args a = { 0 };
	struct poptOption opts[] = {
		{ "alloc", 'a', POPT_ARG_STRING, &a.alloc, 0,
		  "strategies to run, comma-separated (default: kmalloc; see `allocbench list`)",
		  "LIST" },
		{ "size", 's', POPT_ARG_STRING, &a.size, 0,
		  "bytes per object, K/M/G = powers of 1024 (default: one page)",
		  "SIZE" },
		{ "order", 0, POPT_ARG_STRING, &a.order, 0,
		  "page order for the page allocator strategies (default: smallest holding --size)",
		  "N" },
		{ "batch", 'b', POPT_ARG_STRING, &a.batch, 0,
		  "objects allocated per trial (default: 100)", "N" },
		{ "trials", 't', POPT_ARG_STRING, &a.trials, 0,
		  "measured trials (default: 1000)", "N" },
		{ "warmup", 'w', POPT_ARG_STRING, &a.warmup, 0,
		  "trials run first and not recorded (default: 0)", "N" },
		{ "cpu", 'c', POPT_ARG_STRING, &a.cpu, 0,
		  "CPU to pin to, numactl syntax; a list with --concurrent (default: the CPU the command starts on)",
		  "LIST" },
		{ "concurrent", 0, POPT_ARG_NONE, &a.concurrent, 0,
		  "run each strategy on all --cpu CPUs at once, released together",
		  NULL },
		{ "node", 'n', POPT_ARG_STRING, &a.node, 0,
		  "NUMA node to allocate on, for the *_node strategies (numactl syntax)",
		  "N" },
		{ "free-cpu", 0, POPT_ARG_STRING, &a.free_cpu, 0,
		  "free every object on this CPU (a work item there): remote frees",
		  "N" },
		{ "gfp", 'g', POPT_ARG_STRING, &a.gfp, 0,
		  "kernel, atomic, nowait or kernel_zero (default: kernel)",
		  "NAME" },
		{ "timing", 'T', POPT_ARG_STRING, &a.timing, 0,
		  "batch: one clock pair per phase (default); single: one per operation",
		  "MODE" },
		{ "free", 'f', POPT_ARG_STRING, &a.free, 0,
		  "free order: fifo (default), lifo, shuffle, or pair (free each right after its allocation)",
		  "PATTERN" },
		{ "seed", 0, POPT_ARG_STRING, &a.seed, 0,
		  "seed of --free=shuffle (default: random, printed)", "N" },
		{ "context", 0, POPT_ARG_STRING, &a.context, 0,
		  "normal (default), preempt-off or irq-off around each timed phase",
		  "CTX" },
		{ "lookup", 0, POPT_ARG_STRING, &a.lookup, 0,
		  "kmalloc_class: how each allocation finds its class: walk, fls, bsr, switch, kernel (default) or none (found once before timing)",
		  "METHOD" },
		{ "table", 0, POPT_ARG_STRING, &a.table, 0,
		  "kmalloc_class: class table, kmalloc (today's, default) or 2002",
		  "NAME" },
		{ "align", 0, POPT_ARG_STRING, &a.align, 0,
		  "posix_memalign (user backend): alignment in bytes (default: 64)",
		  "BYTES" },
		{ "write", 0, POPT_ARG_NONE, &a.write, 0,
		  "write each object right after allocating it (timed with the allocation)",
		  NULL },
		{ "nomerge", 0, POPT_ARG_NONE, &a.nomerge, 0,
		  "give kmem_cache strategies a cache the kernel will not merge",
		  NULL },
		{ "fifo", 0, POPT_ARG_NONE, &a.fifo, 0,
		  "run as SCHED_FIFO priority 1: above ordinary tasks, below kernel RT and IRQ threads (the 2019 seed's 99 starves them)",
		  NULL },
		{ "raw", 0, POPT_ARG_NONE, &a.raw, 0,
		  "show raw values: no loop or clock overhead subtracted",
		  NULL },
		{ "histogram", 0, POPT_ARG_NONE, &a.histogram, 0,
		  "print a log2 histogram of per-op ns for each strategy",
		  NULL },
		{ "csv", 0, POPT_ARG_NONE, &a.csv, 0,
		  "one comma-separated line per strategy instead of tables",
		  NULL },
		{ "isolate", 0, POPT_ARG_NONE, &a.isolate, 0,
		  "run in a temporary exclusive cpuset of the --cpu CPUs (legacy cpuset file system at /dev/cpuset, else a cgroup v2 cpuset partition)",
		  NULL },
		{ "events", 'e', POPT_ARG_STRING | POPT_ARGFLAG_OPTIONAL,
		  &a.events, 0,
		  "count events per op (libpfm4 names, comma-separated; alone: a default set)",
		  "LIST" },
		{ "backend", 0, POPT_ARG_STRING, &a.backend, 0,
		  "where to run: kmod (the module, default) or user (this process's allocators)",
		  "NAME" },
		{ NULL, 0, POPT_ARG_INCLUDE_TABLE, ab_output_table, 0,
		  "Output:", NULL },
		POPT_AUTOHELP POPT_TABLEEND
	};
	int ret;

	job->title = cmd;
	ret = ab_popt_parse(cmd, argc, argv, opts);
	if (!ret)
		ret = parse_values(&a, &job->o);
	job->node_arg = a.node;
	if (!ret)
		ret = ab_job_node(job);
	if (!ret)
		ret = ab_backend_open(a.backend, &job->be, &job->bi);
	if (!ret)
		ret = ab_job_add(job, a.alloc ? a.alloc
				      : strcmp(job->be->name, "kmod")
					      ? "malloc"
					      : "kmalloc");
	job->raw = a.raw;
	job->histogram = a.histogram;
	job->csv = a.csv;
	job->fifo = a.fifo;
	job->events = a.events ? (*a.events ? a.events : "default") : NULL;
	job->concurrent = a.concurrent;
	job->isolate = a.isolate;
	job->progress = !ab_out.quiet && !a.csv && isatty(STDERR_FILENO);
	if (!ret && a.free_cpu) {
		char err[AB_ERRLEN];
		int cpus[2];

		if (ab_parse_cpus("free-cpu", a.free_cpu, cpus, 1, err,
				  sizeof(err)) != 1) {
			ab_err("%s", err);
			ret = AB_EXIT_USAGE;
		} else if (job->o.free_pattern == AB_FREE_PAIR) {
			ab_err("--free-cpu: --free=pair frees each object on the allocating CPU");
			ret = AB_EXIT_USAGE;
		}
		job->free_cpu = cpus[0];
	}
	if (!ret && job->free_cpu >= 0 && strcmp(job->be->name, "kmod")) {
		ab_err("--free-cpu: the %s backend frees on the allocating CPU; remote frees need --backend=kmod",
		       job->be->name);
		ret = AB_EXIT_USAGE;
	}
	if (!ret && job->concurrent && job->events) {
		ab_err("--events: counters count the calling thread, not the concurrent runs; drop --events or --concurrent");
		ret = AB_EXIT_USAGE;
	}
	if (!ret)
		ret = ab_job_place(job, a.cpu);
	return ret;
}

int cmd_run(int argc, const char **argv)
{
	struct ab_job *job = ab_job_new();
	int ret;

	if (!job)
		return AB_EXIT_RUN;
	ret = ab_run_setup("run", argc, argv, job);
	if (!ret) {
		ret = ab_job_run(job);
		ab_job_print(job);
	}
	ab_job_free(job);
	free(job);
	return ret;
}
