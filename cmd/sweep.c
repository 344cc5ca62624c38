// SPDX-License-Identifier: GPL-2.0-only
/*
 * sweep.c - `allocbench sweep`: sizes x strategies x CPU nodes x memory
 * nodes. For each size and strategy, a matrix: the CPU's node down, the
 * memory's node across, each cell the median net alloc/free ns per op, the
 * share of objects found on the asked node, and the NUMA distance
 * (numa_distance(), the firmware's SLIT: 10 is local).
 *
 * Each CPU node runs on its first CPU this process may use. Strategies
 * that take no node allocate wherever the kernel puts them: one column,
 * "local", with hits counted against the CPU's node.
 */
#include <math.h>
#include <numa.h>
#include <popt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ab_run.h"
#include "options.h"
#include "parse.h"
#include "report.h"
#include "runner.h"
#include "sizes.h"
#include "textout.h"

/*
 * Most sizes of one --sizes spec: a parse bound, not the sweep's: what a
 * sweep may do is bounded by the memory its samples need (check_memory())
 * and shown as time (the progress line's estimate).
 */
#define MAX_SIZES 65536

struct sweep {
	uint64_t sizes[MAX_SIZES];
	int nsizes;
	int cpu_nodes[AB_MAX_PLACES], ncpu_nodes;
	int mem_nodes[AB_MAX_PLACES], nmem_nodes;
};

/* The row of (size, strategy, CPU node, memory node), or NULL. */
static const struct ab_row *cell(const struct ab_job *job, uint64_t size,
				 const struct ab_strategy_info *si,
				 int cpu_node, int mem)
{
	int i;

	for (i = 0; i < job->nrows; i++) {
		const struct ab_row *r = &job->rows[i];
		uint64_t sz = ab_run_obj_bytes(&r->run,
					       job->session.bi.info.page_size);

		if (r->si == si && r->run.node == mem && sz == size && r->ran &&
		    (numa_available() < 0 ? 0 : numa_node_of_cpu(r->cpu)) ==
			    cpu_node)
			return r;
	}
	return NULL;
}

static void print_cell(const struct ab_row *r, int cpu_node, int mem_node,
		       int last)
{
	/* the last column unpadded: no trailing space */
	int pad = last ? 0 : 26;
	char txt[64], hit[16] = "n/a", a[40], f[16], f2[16];

	if (!r) {
		printf(" %-*s", pad, "-");
		return;
	}
	if (r->run.node_checked)
		snprintf(hit, sizeof(hit), "%.0f%%",
			 100.0 * (double)r->run.node_hits /
				 (double)r->run.node_checked);
	/* a median that is not there (every allocation failed): n/a */
	if (!r->run.objects)
		snprintf(a, sizeof(a), "n/a (none allocated)");
	else
		snprintf(a, sizeof(a), "%s/%s %s",
			 ab_num_text(r->net[0].ns.median, "%.1f", f, sizeof(f)),
			 ab_num_text(r->net[1].ns.median, "%.1f", f2,
				     sizeof(f2)),
			 hit);
	snprintf(txt, sizeof(txt), "%s [%d]", a,
		 numa_available() < 0
			 ? 10
			 : numa_distance(cpu_node, mem_node >= 0 ? mem_node
						   : r->run.target_node >= 0
							   ? r->run.target_node
							   : cpu_node));
	printf(" %-*s", pad, txt);
}

/* The cells of one line: CPU node @cn's, per memory node, and "\n". */
static void print_cells(const struct ab_job *job, const struct sweep *sw,
			uint64_t size, const struct ab_strategy_info *si,
			int cn)
{
	int m;

	if (!(si->params & AB_PARAM_NODE))
		print_cell(cell(job, size, si, cn, -1), cn, -1, 1);
	else
		for (m = 0; m < sw->nmem_nodes; m++)
			print_cell(cell(job, size, si, cn, sw->mem_nodes[m]),
				   cn, sw->mem_nodes[m],
				   m == sw->nmem_nodes - 1);
	printf("\n");
}

/*
 * The default text's one table (allocbench-sweep(1), NOTES): a line per
 * size, strategy and CPU node, a column per memory node (a strategy that
 * takes no node in the first); the full text (-v, --wide) a table each.
 */
static void print_sweep_short(const struct ab_job *job, const struct sweep *sw,
			      const struct ab_strategy_info **strats, int ns)
{
	char size[32];
	int s, k, c, m, w = 8;

	for (k = 0; k < ns; k++)
		if ((int)strlen(strats[k]->name) > w)
			w = (int)strlen(strats[k]->name);
	printf("%-7s %-*s %-8s", "size", w, "strategy", "cpu");
	for (m = 0; m < sw->nmem_nodes; m++)
		printf(" mem node %-*d", m < sw->nmem_nodes - 1 ? 17 : 0,
		       sw->mem_nodes[m]);
	printf("\n");
	for (s = 0; s < sw->nsizes; s++) {
		ab_format_size(sw->sizes[s], size, sizeof(size));
		for (k = 0; k < ns; k++) {
			for (c = 0; c < sw->ncpu_nodes; c++) {
				int cn = sw->cpu_nodes[c];

				printf("%-7s %-*s node %-3d", size, w,
				       strats[k]->name, cn);
				print_cells(job, sw, sw->sizes[s], strats[k],
					    cn);
			}
		}
	}
	printf("\nnote: cells: median net alloc/free ns per op, node hit %%, [NUMA distance]%s\n",
	       ns && sw->nmem_nodes > 1 ? "; local: first column" : "");
}

static void print_sweep(const struct ab_job *job, const struct sweep *sw,
			const struct ab_strategy_info **strats, int ns)
{
	char size[32];
	int s, k, c, m, local;

	if (!ab_out.wide && !ab_out.verbose) {
		print_sweep_short(job, sw, strats, ns);
		return;
	}
	printf("cells: median net alloc/free ns per op, node hit %%, [NUMA distance]; rows: the CPU's node, columns: the memory's node\n");
	for (s = 0; s < sw->nsizes; s++) {
		ab_format_size(sw->sizes[s], size, sizeof(size));
		for (k = 0; k < ns; k++) {
			local = !(strats[k]->params & AB_PARAM_NODE);
			printf("\nsize %s, %s\n%-10s", size, strats[k]->name,
			       "cpu\\mem");
			if (local)
				printf(" %s", "local (takes no node)");
			else
				for (m = 0; m < sw->nmem_nodes; m++)
					printf(" node %-*d",
					       m < sw->nmem_nodes - 1 ? 21 : 0,
					       sw->mem_nodes[m]);
			printf("\n");
			for (c = 0; c < sw->ncpu_nodes; c++) {
				int cn = sw->cpu_nodes[c];

				printf("node %-5d", cn);
				print_cells(job, sw, sw->sizes[s], strats[k],
					    cn);
			}
		}
	}
}

/*
 * The largest object @si allocates with the job's GFP choice: its own
 * largest, or less where that choice can never allocate more (a kvmalloc
 * without a vmalloc fallback: common/ab_footprint.h).
 */
static uint64_t largest(const struct ab_job *job,
			const struct ab_strategy_info *si)
{
	const struct ab_info *info = &job->session.bi.info;

	return ab_obj_largest(si->flags,
			      ab_strategy_max_bytes(si, info->page_size),
			      job->run_opts.gfp, info->kmalloc_max_size);
}

/*
 * Adds one row; sets *@skipped for a size above the strategy's largest
 * (the cell stays empty); AB_EXIT_USAGE after the reason when it cannot
 * run.
 */
static int add_row(struct ab_job *job, const struct ab_strategy_info *si,
		   uint64_t size, int cpu, int mem, int *skipped)
{
	struct ab_row *r;
	char err[AB_ERRLEN], sz[32];

	if ((si->params & (AB_PARAM_SIZE | AB_PARAM_ORDER)) &&
	    size > largest(job, si)) {
		*skipped = 1;
		return AB_EXIT_OK;
	}
	/* no bound on the count: the samples' memory is checked before */
	r = ab_job_row_new(job);
	if (!r)
		return AB_EXIT_RUN;
	job->run_opts.size = size;
	job->run_opts.size_set = 1;
	snprintf(job->run_opts.size_arg, sizeof(job->run_opts.size_arg), "%llu",
		 (unsigned long long)size);
	job->run_opts.node = mem;
	if (ab_run_prepare_fp(&job->run_opts, &job->session.bi.info, si,
			      &r->run, &r->fp, err, sizeof(err))) {
		ab_err("%s", err);
		return AB_EXIT_USAGE;
	}
	r->si = si;
	r->cpu = cpu;
	r->group = job->nrows;
	ab_format_size(size, sz, sizeof(sz));
	if (mem < 0)
		snprintf(r->label, sizeof(r->label), "%.24s %.12s n%d",
			 si->name, sz,
			 numa_available() < 0 ? 0 : numa_node_of_cpu(cpu));
	else
		snprintf(r->label, sizeof(r->label), "%.24s %.12s n%d>n%d",
			 si->name, sz,
			 numa_available() < 0 ? 0 : numa_node_of_cpu(cpu), mem);
	job->nrows++;
	return AB_EXIT_OK;
}

struct sweep_args {
	char *alloc, *sizes, *orders, *cpu_nodes, *mem_nodes;
};

/* --orders=SPEC (0-10, 0,3,9) into @o; AB_EXIT_USAGE after the reason. */
static int parse_orders(const struct sweep_args *a, struct ab_run_opts *o)
{
	char err[AB_ERRLEN];

	if (a->sizes) {
		ab_err("sweep: --orders=%s with --sizes=%s: give one of them (--orders: page orders, for the page strategies)",
		       a->orders, a->sizes);
		return AB_EXIT_USAGE;
	}
	ab_run_opts_init(o);
	if (ab_opt_order(a->orders, o, err, sizeof(err))) {
		/* the one reader of orders, whose message names --order */
		ab_err("sweep: --orders%s", strchr(err, '='));
		return AB_EXIT_USAGE;
	}
	return AB_EXIT_OK;
}

/*
 * The sizes of orders @o for page strategies alone; AB_EXIT_USAGE after
 * the reason for another strategy or an order beyond 64 bits.
 */
static int order_sizes(const struct ab_job *job, const struct sweep_args *a,
		       const struct ab_run_opts *o,
		       const struct ab_strategy_info **strats, int ns,
		       struct sweep *sw)
{
	uint64_t page = job->session.bi.info.page_size;
	int i, k;

	for (k = 0; k < ns; k++)
		if (!(strats[k]->params & AB_PARAM_ORDER)) {
			ab_err("sweep: --orders=%s: %s takes no page order (`allocbench list`: the strategies with orders); --sizes for it",
			       a->orders, strats[k]->name);
			return AB_EXIT_USAGE;
		}
	for (i = 0; i < o->norders; i++) {
		if ((page << o->orders[i]) >> o->orders[i] != page) {
			ab_err("sweep: --orders=%s: order %u is beyond any page strategy's largest object",
			       a->orders, o->orders[i]);
			return AB_EXIT_USAGE;
		}
		sw->sizes[i] = page << o->orders[i];
	}
	sw->nsizes = o->norders;
	return AB_EXIT_OK;
}

/* the summary note on the other CPUs (the header has the warnings) */
static void busy_note(const char *text, int warning, const void *ctx)
{
	if (!warning)
		printf("note: %s\n", text);
}

int cmd_sweep(int argc, const char **argv)
{
	struct sweep_args a = { 0 };
	struct poptOption opts[] = {
		{ "alloc", 'a', POPT_ARG_STRING, &a.alloc, 0,
		  "strategies, comma-separated (default: the backend's that takes a node)",
		  "LIST" },
		{ "sizes", 's', POPT_ARG_STRING, &a.sizes, 0,
		  "sizes: a list (64,4K) or a range with a step (8-64K:x8, 4K-16K:+4K; default: 64-64K:x8)",
		  "SPEC" },
		{ "orders", 0, POPT_ARG_STRING, &a.orders, 0,
		  "page orders, for the page strategies, instead of --sizes: a list or ranges (0-10, 0,3,9)",
		  "SPEC" },
		/* run and lookup spell it --size: the same here */
		{ "size", 0, POPT_ARG_STRING | POPT_ARGFLAG_DOC_HIDDEN,
		  &a.sizes, 0, "same as --sizes", "SPEC" },
		{ "cpu-nodes", 0, POPT_ARG_STRING, &a.cpu_nodes, 0,
		  "nodes whose CPUs allocate (numactl syntax; default: all with CPUs)",
		  "LIST" },
		{ "mem-nodes", 0, POPT_ARG_STRING, &a.mem_nodes, 0,
		  "nodes to allocate on (default: all with memory)", "LIST" },
		{ NULL, 0, POPT_ARG_INCLUDE_TABLE, ab_run_table, 0, NULL,
		  NULL },
		{ NULL, 0, POPT_ARG_INCLUDE_TABLE, ab_events_table, 0, NULL,
		  NULL },
		{ NULL, 0, POPT_ARG_INCLUDE_TABLE, ab_explain_table, 0, NULL,
		  NULL },
		{ NULL, 0, POPT_ARG_INCLUDE_TABLE, ab_wide_table, 0, NULL,
		  NULL },
		{ NULL, 0, POPT_ARG_INCLUDE_TABLE, ab_csv_table, 0, NULL,
		  NULL },
		{ NULL, 0, POPT_ARG_INCLUDE_TABLE, ab_backend_table, 0, NULL,
		  NULL },
		{ NULL, 0, POPT_ARG_INCLUDE_TABLE, ab_dry_run_table, 0, NULL,
		  NULL },
		{ NULL, 0, POPT_ARG_INCLUDE_TABLE, ab_output_table, 0,
		  "Output:", NULL },
		POPT_AUTOHELP POPT_TABLEEND
	};
	const struct ab_strategy_info *strats[AB_MAX_LIST];
	struct ab_run_opts ord;
	struct ab_job *job = ab_job_new();
	struct sweep *sw = calloc(1, sizeof(*sw));
	char err[AB_ERRLEN] = "", *names[AB_MAX_LIST], *list = NULL;
	int ret, i, k, c, m, ns = 0, cpu, skipped[AB_MAX_LIST] = { 0 };

	if (!job || !sw)
		return AB_EXIT_RUN;
	job->run_opts.trials = 200;
	job->run_opts.warmup = 10;
	ab_run_table_defaults(&job->run_opts);
	ret = ab_popt_parse("sweep", argc, argv, opts);
	if (!ret)
		ret = ab_run_args_apply(&job->run_opts);
	if (!ret && job->run_opts.ngfps > 1) {
		ab_err("sweep: --gfp=%s: one GFP choice per sweep (its rows are sizes and nodes); run and compare take a list",
		       ab_run_args.gfp);
		ret = AB_EXIT_USAGE;
	} else if (!ret && job->run_opts.nsheaves > 1) {
		ab_err("sweep: --sheaves=%s: one setting per sweep (its rows are sizes and nodes); run and compare take a list",
		       ab_run_args.sheaves);
		ret = AB_EXIT_USAGE;
	} else if (!ret && job->run_opts.nsheaves) {
		job->run_opts.sheaf = job->run_opts.sheaves[0];
	}
	if (!ret && a.orders)
		ret = parse_orders(&a, &ord);
	else if (!ret) {
		sw->nsizes =
			ab_sizes_range(a.sizes ? a.sizes : "64-64K:x8",
				       sw->sizes, MAX_SIZES, err, sizeof(err));
		if (sw->nsizes < 0)
			ret = AB_EXIT_USAGE;
	}
	if (!ret) {
		sw->ncpu_nodes =
			a.cpu_nodes
				? ab_parse_nodes("cpu-nodes", a.cpu_nodes,
						 sw->cpu_nodes, AB_MAX_PLACES,
						 1, err, sizeof(err))
				: ab_cpu_nodes(sw->cpu_nodes, AB_MAX_PLACES);
		if (sw->ncpu_nodes < 0)
			ret = AB_EXIT_USAGE;
	}
	if (!ret) {
		sw->nmem_nodes =
			a.mem_nodes
				? ab_parse_nodes("mem-nodes", a.mem_nodes,
						 sw->mem_nodes, AB_MAX_PLACES,
						 0, err, sizeof(err))
				: ab_memory_nodes(sw->mem_nodes, AB_MAX_PLACES);
		if (sw->nmem_nodes < 0)
			ret = AB_EXIT_USAGE;
	}
	/* the option parsers have said why already; err holds the rest */
	if (ret == AB_EXIT_USAGE && err[0])
		ab_err("%s", err);
	if (!ret)
		ret = ab_backend_open(ab_run_args.backend, &job->session.be,
				      &job->session.bi);
	if (!ret) {
		list = strdup(a.alloc ? a.alloc
				      : job->session.be->default_sweep);
		ns = list ? ab_split_list(list, names, AB_MAX_LIST) : -1;
		for (k = 0; k < ns && !ret; k++) {
			strats[k] =
				ab_strategy_find(&job->session.bi, names[k]);
			if (!strats[k]) {
				ab_err("--alloc=%s: unknown strategy (`allocbench list`)",
				       names[k]);
				ret = AB_EXIT_USAGE;
			}
		}
		if (ns < 0) {
			ab_err("--alloc=%s: not a list of strategies", a.alloc);
			ret = AB_EXIT_USAGE;
		}
	}
	if (!ret && a.orders)
		ret = order_sizes(job, &a, &ord, strats, ns, sw);
	for (i = 0; !ret && i < sw->nsizes; i++)
		for (k = 0; !ret && k < ns; k++)
			for (c = 0; !ret && c < sw->ncpu_nodes; c++) {
				cpu = ab_node_first_cpu(sw->cpu_nodes[c]);
				if (!(strats[k]->params & AB_PARAM_NODE)) {
					ret = add_row(job, strats[k],
						      sw->sizes[i], cpu, -1,
						      &skipped[k]);
					continue;
				}
				for (m = 0; !ret && m < sw->nmem_nodes; m++)
					ret = add_row(job, strats[k],
						      sw->sizes[i], cpu,
						      sw->mem_nodes[m],
						      &skipped[k]);
			}
	job->title = "sweep";
	ab_job_outputs(job);
	job->run_opts.node = -1;
	if (!ret)
		ret = ab_job_place(job, NULL);
	if (!ret && ab_out.dry_run) {
		ret = ab_job_dry_run(job);
	} else if (!ret) {
		ret = ab_job_run(job);
		if (ab_out.formats || job->refused) {
			ab_job_print(job);
		} else {
			ab_job_print_header(job);
			print_sweep(job, sw, strats, ns);
			/* --events, --explain: per cell (its row's label) */
			ab_job_print_counts(job);
			for (k = 0; k < ns; k++) {
				const char *g = ab_strategy_gfp_name(
					strats[k], job->run_opts.gfp,
					!!(job->session.be->flags &
					   AB_BACKEND_MODULE));

				if (skipped[k]) {
					char t[256];

					snprintf(
						t, sizeof(t),
						"%s: sizes above its largest object%s%s (%llu bytes) are left out (-)",
						strats[k]->name,
						g ? " with " : "", g ? g : "",
						(unsigned long long)largest(
							job, strats[k]));
					ab_print_note("note", t);
				}
			}
			/* --condition: each row's memory state, and per
			 * row its success rate and tail (single timing) */
			ab_job_print_condition(job);
			if (ab_out.wide || ab_out.verbose) {
				ab_job_print_net_notes(job);
				ab_job_print_kernel_notes(job);
			} else {
				ab_job_print_notes_short(job);
			}
			if (ab_out.wide || ab_out.verbose)
				ab_job_busy_lines(job, 1, busy_note, NULL);
		}
	}
	free(list);
	ab_job_free(job);
	free(job);
	free(sw);
	return ret;
}
