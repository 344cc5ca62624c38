// SPDX-License-Identifier: GPL-2.0-only
/*
 * run.c - `allocbench run`: run strategies through a backend and print, per
 * strategy, the per-operation cost of the alloc and free phases over trials.
 *
 * One trial allocates --batch objects (the alloc phase, one get_cycles() pair
 * around the loop) then frees them (the free phase). Per trial, ns/op =
 * phase cycles / objects * 10^6 / tsc_khz; the table gives min, median, mean
 * and max of that over the measured trials. Values are raw: the loop and
 * clock overhead is in them, and the `none` strategy measures it.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <math.h>
#include <numa.h>
#include <popt.h>
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>

#include "allocbench.h"
#include "parse.h"
#include "runopts.h"
#include "stats.h"

#define MAX_STRATEGIES 64

static volatile sig_atomic_t interrupted;

static void on_signal(int sig)
{
	interrupted = sig;
}

/*
 * SIGINT/SIGTERM without SA_RESTART: the module sees a pending signal
 * between trials, frees what it holds and returns -EINTR.
 */
static void catch_signals(void)
{
	struct sigaction sa = { .sa_handler = on_signal };

	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
}

/* Writes "0-3,5" style list of the set bits of @bm to @buf. */
static void nodes_with_memory(char *buf, size_t len)
{
	int n, max = numa_max_node(), first = 1;
	size_t used = 0;

	buf[0] = '\0';
	for (n = 0; n <= max && used < len; n++) {
		if (numa_node_size64(n, NULL) <= 0)
			continue;
		used += (size_t)snprintf(buf + used, len - used, "%s%d",
					 first ? "" : ",", n);
		first = 0;
	}
}

/* --node must name an online node that has memory. */
static int check_node(int node)
{
	char list[128];

	if (node < 0)
		return AB_EXIT_OK;
	if (numa_available() < 0) {
		if (node == 0)
			return AB_EXIT_OK;
		ab_err("--node=%d: this kernel has no NUMA support; only node 0 exists",
		       node);
		return AB_EXIT_USAGE;
	}
	if (node <= numa_max_node() && numa_node_size64(node, NULL) > 0)
		return AB_EXIT_OK;
	nodes_with_memory(list, sizeof(list));
	ab_err("--node=%d: no such NUMA node with memory (nodes with memory: %s)",
	       node, list);
	return AB_EXIT_USAGE;
}

/*
 * Pins the calling thread to --cpu, or to the CPU it is on, so the run
 * cannot migrate. Returns an exit status; *cpu gets the CPU.
 */
static int pin_cpu(const char *arg, int *cpu)
{
	cpu_set_t allowed, one;
	uint64_t v;
	int c;

	if (sched_getaffinity(0, sizeof(allowed), &allowed)) {
		ab_err("sched_getaffinity: %s", strerror(errno));
		return AB_EXIT_RUN;
	}
	if (arg) {
		if (ab_parse_u64(arg, 0, CPU_SETSIZE - 1, &v)) {
			ab_err("--cpu=%s: not a CPU number (an integer from 0 to %d)",
			       arg, CPU_SETSIZE - 1);
			return AB_EXIT_USAGE;
		}
		if (!CPU_ISSET((int)v, &allowed)) {
			ab_err("--cpu=%s: CPU %d is offline or outside this process's affinity (%d CPUs allowed; see `taskset -p $$`)",
			       arg, (int)v, CPU_COUNT(&allowed));
			return AB_EXIT_USAGE;
		}
		*cpu = (int)v;
	} else {
		c = sched_getcpu();
		*cpu = c >= 0 ? c : 0;
	}
	CPU_ZERO(&one);
	CPU_SET(*cpu, &one);
	if (sched_setaffinity(0, sizeof(one), &one)) {
		ab_err("--cpu=%d: cannot pin to it: %s", *cpu, strerror(errno));
		return AB_EXIT_RUN;
	}
	return AB_EXIT_OK;
}

/** struct row - one strategy's results, ready to print */
struct row {
	const struct ab_strategy_info *si;
	struct ab_run run;
	struct ab_stats alloc_ns, free_ns, alloc_cyc, free_cyc;
};

/*
 * Per-op statistics of one phase (@free: the free phase) over the trials
 * that allocated anything, in cycles and in ns. @buf has room for them.
 */
static void phase_stats(const struct ab_run *run, const struct ab_sample *smp,
			int free, double *buf, struct ab_stats *cyc,
			struct ab_stats *ns)
{
	double to_ns = run->tsc_khz ? 1e6 / run->tsc_khz : NAN;
	size_t i, n = 0;

	for (i = 0; i < run->trials_done; i++)
		if (smp[i].nr_objs)
			buf[n++] = (double)(free ? smp[i].free_cycles
						 : smp[i].alloc_cycles) /
				   smp[i].nr_objs;
	ab_stats_compute(buf, n, cyc);
	for (i = 0; i < n; i++)
		buf[i] *= to_ns;
	ab_stats_compute(buf, n, ns);
}

static void summarize(struct row *r, const struct ab_sample *smp, double *buf)
{
	phase_stats(&r->run, smp, 0, buf, &r->alloc_cyc, &r->alloc_ns);
	phase_stats(&r->run, smp, 1, buf, &r->free_cyc, &r->free_ns);
}

static void print_num(double v)
{
	if (isnan(v))
		printf(" %8s", "n/a");
	else
		printf(" %8.1f", v);
}

static void object_label(const struct row *r, const struct ab_info *info,
			 char *buf, size_t len)
{
	char sz[32];

	if (r->si->params & AB_PARAM_ORDER) {
		snprintf(buf, len, "order %u", r->run.order);
	} else if (r->si->params & AB_PARAM_SIZE) {
		ab_format_size(r->run.obj_size, sz, sizeof(sz));
		if (!strcmp(r->si->name, "vmalloc_batch"))
			snprintf(buf, len, "%ux%s", r->run.batch, sz);
		else
			snprintf(buf, len, "%s", sz);
	} else {
		snprintf(buf, len, "-");
	}
	(void)info;
}

static void print_header(const struct ab_backend_info *bi,
			 const struct ab_run_opts *o, int cpu, int has_none)
{
	struct utsname u;

	uname(&u);
	printf("allocbench %s, %s.ko %s (ABI %u), Linux %s\n", AB_TOOL_VERSION,
	       AB_DEVICE_NAME, bi->info.version, bi->info.abi_version,
	       u.release);
	printf("CPU %d (node %d), TSC ", cpu,
	       numa_available() < 0 ? 0 : numa_node_of_cpu(cpu));
	if (bi->info.tsc_khz)
		printf("%u.%03u MHz: ns = cycles * 10^6 / tsc_khz (%u)\n",
		       bi->info.tsc_khz / 1000, bi->info.tsc_khz % 1000,
		       bi->info.tsc_khz);
	else
		printf("frequency unknown: ns columns are n/a\n");
	printf("%u objects per trial, %u trials after %u warm-up, %s\n",
	       o->batch, o->trials, o->warmup, ab_gfp_name(o->gfp));
	printf("per-op values over trials, raw: loop and clock overhead included (%s)\n\n",
	       has_none ? "the none row measures it"
			: "add none to --alloc to measure it");
	printf("%-29s %-35s   %-35s   %s\n", "", "alloc ns/op", "free ns/op",
	       "median cycles/op");
	printf("%-18s %-10s %8s %8s %8s %8s   %8s %8s %8s %8s   %8s %8s %7s %5s %6s\n",
	       "strategy", "object", "min", "median", "mean", "max", "min",
	       "median", "mean", "max", "alloc", "free", "failed", "node",
	       "hit%");
}

static void print_row(const struct row *r, const struct ab_info *info)
{
	const struct ab_run *run = &r->run;
	char obj[48], node[16];

	object_label(r, info, obj, sizeof(obj));
	printf("%-18s %-10s", r->si->name, obj);
	print_num(r->alloc_ns.min);
	print_num(r->alloc_ns.median);
	print_num(r->alloc_ns.mean);
	print_num(r->alloc_ns.max);
	printf("  ");
	print_num(r->free_ns.min);
	print_num(r->free_ns.median);
	print_num(r->free_ns.mean);
	print_num(r->free_ns.max);
	printf("  ");
	print_num(r->alloc_cyc.median);
	print_num(r->free_cyc.median);
	snprintf(node, sizeof(node), "%d%s", run->target_node,
		 run->node < 0 ? "L" : "");
	printf(" %7llu %5s", (unsigned long long)run->failed, node);
	if (run->node_checked)
		printf(" %6.1f\n", 100.0 * (double)run->node_hits /
					   (double)run->node_checked);
	else
		printf(" %6s\n", "n/a");
}

static void print_notes(const struct row *rows, int n)
{
	int i, local = 0;

	for (i = 0; i < n; i++) {
		const struct ab_run *run = &rows[i].run;
		const char *name = rows[i].si->name;

		local |= run->node < 0 && run->node_checked;
		if (run->cache_merged == AB_MERGED_YES)
			printf("note: %s: the kernel merged the run's kmem_cache into an existing cache (slab merging); --nomerge gives it a cache of its own\n",
			       name);
		else if (run->cache_merged == AB_MERGED_NO)
			printf("note: %s: the run's kmem_cache was a cache of its own (not merged)\n",
			       name);
		else if (run->cache_merged == AB_MERGED_UNKNOWN)
			printf("note: %s: whether the kernel merged the run's kmem_cache is unknown (no /sys/kernel/slab)\n",
			       name);
		if (!strcmp(name, "vmalloc_batch"))
			printf("note: vmalloc_batch: one op is one vmalloc(%u x %llu) call per trial, as in the 2019 seed\n",
			       run->batch, (unsigned long long)run->obj_size);
		if (run->failed)
			printf("note: %s: %llu allocations failed; each ended its trial (not retried)\n",
			       name, (unsigned long long)run->failed);
		if (run->cpu_start != run->cpu_end)
			printf("note: %s: the run migrated from CPU %u to CPU %u\n",
			       name, run->cpu_start, run->cpu_end);
	}
	if (local)
		printf("note: node nL: no --node for that strategy; hits counted against the local node n\n");
}

struct run_args {
	char *alloc;
	char *size, *order, *batch, *trials, *warmup, *cpu, *node, *gfp;
	char *backend;
	int nomerge;
};

/* Parses the option strings into @o; prints the error, returns a status. */
static int parse_values(const struct run_args *a, struct ab_run_opts *o)
{
	char err[AB_ERRLEN];
	int bad = 0;

	ab_run_opts_init(o);
	o->nomerge = a->nomerge;
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
	if (a->node)
		bad = bad || ab_opt_node(a->node, o, err, sizeof(err));
	if (a->gfp)
		bad = bad || ab_opt_gfp(a->gfp, o, err, sizeof(err));
	if (bad) {
		ab_err("%s", err);
		return AB_EXIT_USAGE;
	}
	return AB_EXIT_OK;
}

/* Resolves --alloc against the backend and prepares every request. */
static int prepare_rows(const struct run_args *a, const struct ab_run_opts *o,
			const struct ab_backend_info *bi, struct row *rows,
			int *nrows)
{
	char *names[MAX_STRATEGIES], list[1024] = "", err[AB_ERRLEN];
	char *alloc = strdup(a->alloc ? a->alloc : "kmalloc");
	unsigned int j;
	int i, n;

	n = ab_split_list(alloc, names, MAX_STRATEGIES);
	if (n < 0) {
		ab_err("--alloc=%s: %s (a comma-separated list of strategy names: `allocbench list`)",
		       a->alloc, n == -E2BIG ? "too many names" : "empty name");
		free(alloc);
		return AB_EXIT_USAGE;
	}
	for (i = 0; i < n; i++) {
		memset(&rows[i], 0, sizeof(rows[i]));
		rows[i].si = ab_strategy_find(bi, names[i]);
		if (!rows[i].si) {
			for (j = 0; j < bi->info.nr_strategies; j++)
				snprintf(list + strlen(list),
					 sizeof(list) - strlen(list), "%s%s",
					 j ? ", " : "", bi->strategies[j].name);
			ab_err("--alloc=%s: unknown strategy (available: %s)",
			       names[i], list);
			free(alloc);
			return AB_EXIT_USAGE;
		}
		if (ab_run_prepare(o, &bi->info, rows[i].si, &rows[i].run, err,
				   sizeof(err))) {
			ab_err("%s", err);
			free(alloc);
			return AB_EXIT_USAGE;
		}
	}
	free(alloc);
	*nrows = n;
	return AB_EXIT_OK;
}

int cmd_run(int argc, const char **argv)
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
		  "CPU to pin to (default: the CPU the command starts on)",
		  "N" },
		{ "node", 'n', POPT_ARG_STRING, &a.node, 0,
		  "NUMA node to allocate on, for the *_node strategies", "N" },
		{ "gfp", 'g', POPT_ARG_STRING, &a.gfp, 0,
		  "kernel, atomic, nowait or kernel_zero (default: kernel)",
		  "NAME" },
		{ "nomerge", 0, POPT_ARG_NONE, &a.nomerge, 0,
		  "give kmem_cache strategies a cache the kernel will not merge",
		  NULL },
		{ "backend", 0, POPT_ARG_STRING, &a.backend, 0,
		  "where to run: kmod (default)", "NAME" },
		POPT_AUTOHELP POPT_TABLEEND
	};
	char why[AB_ERRLEN];
	const struct ab_backend *be;
	struct ab_backend_info bi;
	struct ab_run_opts o;
	struct ab_sample *smp;
	struct row *rows;
	double *buf;
	int ret, i, n = 0, cpu, has_none = 0;

	ret = ab_popt_parse("run", argc, argv, opts);
	if (!ret)
		ret = parse_values(&a, &o);
	if (!ret)
		ret = ab_backend_open(a.backend, &be, &bi);
	if (ret)
		return ret;

	rows = calloc(MAX_STRATEGIES, sizeof(*rows));
	if (!rows)
		return AB_EXIT_RUN;
	ret = prepare_rows(&a, &o, &bi, rows, &n);
	if (!ret)
		ret = check_node(o.node);
	if (!ret)
		ret = pin_cpu(a.cpu, &cpu);
	if (ret) {
		free(rows);
		return ret;
	}

	smp = calloc(o.trials, sizeof(*smp));
	buf = calloc(o.trials, sizeof(*buf));
	if (!smp || !buf) {
		ab_err("cannot hold %u samples: out of memory", o.trials);
		free(rows);
		free(smp);
		free(buf);
		return AB_EXIT_RUN;
	}
	catch_signals();
	for (i = 0; i < n; i++)
		has_none |= !strcmp(rows[i].si->name, "none");
	print_header(&bi, &o, cpu, has_none);
	fflush(stdout);
	for (i = 0; i < n && !ret; i++) {
		rows[i].run.samples_ptr = (__u64)(uintptr_t)smp;
		rows[i].run.samples_len = o.trials;
		if (be->run(&rows[i].run, why, sizeof(why))) {
			ab_err("%s: %s", rows[i].si->name, why);
			ret = interrupted ? AB_EXIT_INTR : AB_EXIT_RUN;
			if (!interrupted)
				break;
		}
		summarize(&rows[i], smp, buf);
		print_row(&rows[i], &bi.info);
		fflush(stdout);
	}
	print_notes(rows, i);
	free(smp);
	free(buf);
	free(rows);
	return ret;
}
