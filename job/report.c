// SPDX-License-Identifier: GPL-2.0-only
/*
 * report.c - a finished job as the full text (-v, --wide): the header,
 * counters, --explain, memory and notes (see report.h), the tables of
 * figures from report_table.c; CSV is report_csv.c's.
 */
#define _GNU_SOURCE
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <numa.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "ab_run.h"
#include "isolate.h"
#include "parse.h"
#include "placement.h"
#include "report.h"
#include "textout.h"

static void print_header(const struct ab_job *job);

/* ab_job_busy_lines()'s lines of one kind (@ctx: 1 warnings, 0 notes) */
static void print_busy_line(const char *text, int warning, const void *ctx)
{
	if (warning == *(const int *)ctx)
		printf("%s: %s\n", warning ? "warning" : "note", text);
}

/* What the table's values are: raw, or net of what. */
static void print_values_line(const struct ab_job *job)
{
	const struct ab_row *b = job->baseline;
	char m0[24], m1[24];
	int i;

	/* the clock cost as measured by the first row that ran */
	for (i = 0; i < job->nrows && !job->rows[i].ran; i++)
		;
	if (job->raw) {
		printf("values: raw, as measured (loop and clock overhead included)\n");
	} else if (job->run_opts.timing == AB_TIMING_SINGLE && i < job->nrows) {
		printf("values: net, minus one clock pair per op (%llu %s, measured by each run); --raw for raw\n",
		       (unsigned long long)job->rows[i].run.clock_cycles,
		       ab_noun(job->rows[i].run.clock_cycles, "cycle",
			       "cycles"));
	} else if (job->run_opts.timing == AB_TIMING_SINGLE) {
		printf("values: net, minus one clock pair per op (measured by each run); --raw for raw\n");
	} else if (b && b->ran &&
		   !strcmp(ab_alloc_phase(&b->run), "alloc+free")) {
		/* one timed loop, no free phase: nothing subtracted from it */
		printf("values: net, minus the none baseline's median per op with the same parameters (alloc+free %s cycles); --raw for raw\n",
		       ab_num_text(b->raw[0].cycles.median, "%.1f", m0,
				   sizeof(m0)));
	} else if (b && b->ran) {
		printf("values: net, minus the none baseline's median per op with the same parameters (alloc %s, free %s cycles); --raw for raw\n",
		       ab_num_text(b->raw[0].cycles.median, "%.1f", m0,
				   sizeof(m0)),
		       ab_num_text(b->raw[1].cycles.median, "%.1f", m1,
				   sizeof(m1)));
	} else {
		printf("values: raw (the none baseline could not be measured)\n");
	}
}

/*
 * The node the objects of the rows without --node were on, as the module
 * counted them (ab_run.target_node: the node the most checked objects were
 * on, page_to_nid()); -1 when no such row checked one, -2 when the rows
 * name different nodes.
 */
static int local_mem_node(const struct ab_job *job)
{
	int i, mem = -1;

	for (i = 0; i < job->nrows; i++) {
		const struct ab_run *run = &job->rows[i].run;

		if (!job->rows[i].ran || run->node >= 0 || !run->node_checked ||
		    run->target_node < 0)
			continue;
		if (mem >= 0 && mem != run->target_node)
			return -2;
		mem = run->target_node;
	}
	return mem;
}

static void print_header(const struct ab_job *job)
{
	char cpus[256], none[128], gfps[192];
	const char *gfp;
	int i;
	const struct ab_run_opts *o = &job->run_opts;
	const char *warn = ab_context_warning(o->context);
	unsigned int khz = job->session.bi.info.tsc_khz;
	const int warnings = 1;

	if (job->session.be->flags & AB_BACKEND_MODULE)
		printf("allocbench %s %s, %s.ko %s (ABI %u)\n", AB_TOOL_VERSION,
		       job->title, AB_DEVICE_NAME, job->session.bi.info.version,
		       job->session.bi.info.abi_version);
	else
		printf("allocbench %s %s, %s backend (this process)\n",
		       AB_TOOL_VERSION, job->title, job->session.be->name);
	ab_env_print(stdout, &job->session.env, khz);
	if (warn)
		printf("warning: %s\n", warn);
	ab_job_busy_lines(job, 0, print_busy_line, &warnings);
	if (job->concurrent && job->ncpus > 1) {
		ab_format_list(job->cpus, job->ncpus, cpus, sizeof(cpus));
		printf("CPUs %s at once", cpus);
	} else if (job->nrows && job->rows[0].cpu >= 0) {
		printf("CPU: each row's own (the first of its node)");
	} else {
		/* taken when the job was placed: the CPU may be offline now */
		int node = job->cpu_node;
		int mem = local_mem_node(job);
		const char *nomem =
			ab_node_has_memory(node) ? "" : "no memory; ";

		printf("CPU %d (node %d", job->session.cpu, node);
		if (mem >= 0 && mem != node)
			printf(", %sits objects were on node %d", nomem, mem);
		else if (mem == -2)
			printf(", %sthe rows' objects were on different nodes (the node column)",
			       nomem);
		else if (*nomem)
			printf(", no memory");
		printf(")");
	}
	if (job->fifo)
		printf(", %s %d", ab_fifo_policy_name(job), AB_FIFO_PRIORITY);
	printf("%s%s%s%s; ns = cycles * 10^6 / tsc_khz (%u)\n",
	       ab_isolate_path()[0] ? ", in the " : "", ab_isolate_what(),
	       ab_isolate_path()[0] ? " " : "", ab_isolate_path(), khz);
	/* GFP flags where they apply (ab_strategy_gfp_name()) */
	gfp = ab_job_gfp(job, none, sizeof(none));
	if (!(job->session.be->flags & AB_BACKEND_MODULE))
		snprintf(gfps, sizeof(gfps), "no GFP flags (userspace)");
	else if (!gfp)
		snprintf(gfps, sizeof(gfps), "no GFP flags (%s takes none)",
			 none);
	else if (none[0])
		snprintf(gfps, sizeof(gfps), "%s (%s: no GFP flags)", gfp,
			 none);
	else
		snprintf(gfps, sizeof(gfps), "%s", gfp);
	printf("%u %s per trial, %u %s after %u warm-up, %s, %s timing, free %s",
	       o->batch, ab_noun(o->batch, "object", "objects"), o->trials,
	       ab_noun(o->trials, "trial", "trials"), o->warmup, gfps,
	       ab_timing_name(o->timing), ab_free_name(o->free_pattern));
	if (o->free_pattern == AB_FREE_SHUFFLE)
		printf(" (seed %llu)", (unsigned long long)o->seed);
	printf(", context %s%s\n", ab_context_name(o->context),
	       o->write ? ", objects written after allocation" : "");
	if (ab_memcg_mode())
		printf("memory cgroup: %s (%s); the rows marked charged are charged to it, the others are not\n",
		       ab_memcg_path(),
		       ab_memcg_mode() == AB_MEMCG_NEW
			       ? "made for this run, removed after it"
			       : "this process's own");
	print_values_line(job);
	for (i = 0; i < job->nrows && !job->rows[i].ran; i++)
		;
	if (i < job->nrows)
		printf("clock: one pair of ordered cycle-counter reads costs %llu %s\n",
		       (unsigned long long)job->rows[i].run.clock_cycles,
		       ab_noun(job->rows[i].run.clock_cycles, "cycle",
			       "cycles"));
	printf("\n");
}

/* -v or --wide: the full report's notes, else the short one's */
static int wide(void)
{
	return ab_out.wide || ab_out.verbose;
}

/*
 * One note: whole in the full report, at most AB_NOTE_COLS columns in
 * the short one (ab_print_note(): cut at a clause, "(-v)").
 */
static void say_note(const char *fmt, ...)
	__attribute__((format(printf, 1, 2)));
static void say_note(const char *fmt, ...)
{
	char buf[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	if (wide())
		printf("note: %s\n", buf);
	else
		ab_print_note("note", buf);
}

/* @text's lines, its "note: " lines through note() */
static void notes_of(char *text)
{
	char *line, *save = NULL;

	for (line = strtok_r(text, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save))
		if (!strncmp(line, "note: ", 6))
			say_note("%s", line + 6);
		else
			printf("%s\n", line);
	text[0] = '\0';
}

/*
 * --explain: per strategy, its family's paths per op (net of the none
 * baseline as the counters are), "0.13 slab slow path, 0.04 new slab".
 */
static void print_explain(const struct ab_job *job)
{
	char paths[256], *text = NULL;
	size_t at, size = 0;
	/* the short report cuts explain's notes too (ab_print_note()) */
	FILE *mem = wide() ? NULL : open_memstream(&text, &size);
	const struct ab_counters *c = &job->session.counters;
	int i, k, n;
	double v;

	if (!job->explain)
		return;
	if (wide())
		printf("\nexplain: the allocators' own paths per op, from the counting pass (net of the none baseline in batch timing): this thread's calls inside the pass's AB_IOC_RUN, a private cache's creation and destruction there included\n");
	else
		printf("\nexplain: the allocators' own paths per op, from the counting pass (-v says more)\n");
	for (i = 0; i < job->nrows; i++) {
		const struct ab_row *r = &job->rows[i];
		unsigned int fam = ab_family_of(r->si->flags, r->si->params);
		int col;

		if (!r->ran || !fam)
			continue;
		col = printf("%s:", r->label);
		for (k = 0, n = 0; k < job->explain_paths.n; k++) {
			char p[96];
			int len;

			if (!(job->explain_paths.path[k].families & fam))
				continue;
			v = ab_explain_net(&job->explain_paths.path[k], c,
					   r->ev_net);
			if (isnan(v))
				continue;
			len = snprintf(p, sizeof(p), " %.2f %s", v,
				       job->explain_paths.path[k].label);
			/* the short report wraps at AB_TABLE_COLS, indented */
			if (!wide() && n && col + 1 + len > AB_TABLE_COLS) {
				printf(",\n ");
				col = 1;
			} else if (n) {
				col += printf(",");
			}
			col += printf("%s", p);
			n++;
		}
		printf("%s\n", n ? "" : " nothing counted");
	}
	if (job->explain_paths.missing[0])
		say_note(
			"explain: this kernel has no spelling of %s (a path it does not have, such as sheaves before 6.18, a static function inlined, or renamed): not counted",
			job->explain_paths.missing);
	for (k = 0, n = 0, at = 0; k < job->explain_paths.n; k++)
		if (job->explain_paths.path[k].elsewhere && at < sizeof(paths))
			at += (size_t)snprintf(
				paths + at, sizeof(paths) - at, "%s%s",
				n++ ? ", " : "",
				job->explain_paths.path[k].label);
	if (n)
		say_note(
			"explain: %s: left out (n/a): paths of the free phase, which ran on CPU %d (--free-cpu), and the counters count this thread only",
			paths, job->free_cpu);
	for (i = 0; i < job->nrows; i++) {
		const struct ab_row *r = &job->rows[i];
		double val[AB_EXPLAIN_MAX];

		if (!r->ran)
			continue;
		for (k = 0; k < job->explain_paths.n; k++)
			val[k] = ab_explain_net(&job->explain_paths.path[k], c,
						r->ev_net);
		ab_explain_notes(&job->explain_paths, r->label,
				 ab_family_of(r->si->flags, r->si->params),
				 r->run.obj_size,
				 (uint64_t)sysconf(_SC_PAGESIZE), val,
				 mem ? mem : stdout);
		if (mem && !fflush(mem))
			notes_of(text);
	}
	if (ab_kernel_flag(&job->session.bi.info, AB_KERNEL_PREEMPT_RT) == 1)
		say_note(
			"explain: on PREEMPT_RT SLUB has no lockless fast path (USE_LOCKLESS_FAST_PATH() in mm/slub.c), so every slab allocation enters ___slab_alloc: 'slab slow path' counts those calls (at least 1 per op), 'slab refill' the calls that found the per-CPU freelist empty, as on other kernels");
	if (mem)
		fclose(mem);
	free(text);
}

/*
 * Memory per object: first what the kernel states one object takes
 * (r->objmem, lib/objmem.h: its cache's slab geometry, its order, its
 * vmalloc pages), the same in every boot and at every batch; beside it
 * what the alloc phases of the check trials took from the target node's
 * counters (ab_run.mem_*), divided by the objects they held, with the
 * least and the most one trial took: new memory only, none when the
 * objects fit in slabs the kernel already held. Rows without the reads
 * (the user backend, an older module, --free=pair, none) are left out.
 */
static void print_memory(const struct ab_job *job)
{
	int i, shown = 0, together = job->concurrent && job->ncpus > 1;
	char how[256], stated[64], spread[96], nodes[64];

	for (i = 0; i < job->nrows; i++) {
		const struct ab_row *r = &job->rows[i];
		const struct ab_run *run = &r->run;
		double n = (double)run->mem_objects;
		/* a module that writes mem_free_min/_max has KEEP_CACHE too */
		double per =
			run->mem_trials && (job->session.bi.info.run_flags &
					    AB_RUN_KEEP_CACHE)
				? n / run->mem_trials
				: 0;

		if (!r->ran || !run->mem_objects)
			continue;
		if (!shown++)
			printf("\nmemory per object: what the kernel states one object takes (its cache's slab geometry in /sys/kernel/slab, its order), and the new memory the phase took from the nodes its objects were on (their counters around the alloc phase of the check trials)\n");
		ab_obj_mem_how(&r->objmem, how, sizeof(how));
		if (r->objmem.kind)
			snprintf(stated, sizeof(stated), "%.0f B/object",
				 r->objmem.bytes);
		else
			snprintf(stated, sizeof(stated), "n/a B/object");
		if (per)
			snprintf(spread, sizeof(spread),
				 "%.0f to %.0f over the check trials; ",
				 (double)run->mem_free_min / per,
				 (double)run->mem_free_max / per);
		else
			spread[0] = '\0';
		ab_obj_nodes(run, 0, nodes, sizeof(nodes));
		printf("%s %llu B: %s (%s); new memory the phase took from node%s %s%s: %.0f B/object (%sslab %.0f, page tables %.0f; %llu object%s in %u check trial%s)\n",
		       r->label, (unsigned long long)r->fp.alloc_bytes, stated,
		       how, strchr(nodes, ',') ? "s" : "", nodes,
		       together ? ", the other CPUs' runs there included" : "",
		       (double)run->mem_free_bytes / n, spread,
		       (double)run->mem_slab_bytes / n,
		       (double)run->mem_pagetable_bytes / n,
		       (unsigned long long)run->mem_objects,
		       run->mem_objects == 1 ? "" : "s", run->mem_trials,
		       run->mem_trials == 1 ? "" : "s");
	}
	if (shown)
		printf("note: memory: B/object is the object's share of its slab (slab bytes / objs_per_slab), its block of pages (PAGE_SIZE << order) or its vmalloc area (pages, page array, bookkeeping), as the kernel states them; the new memory the phase took is the node's free pages (with the per-CPU page lists) it took, slab and page tables the growth of those counters: the whole node's, so other activity on the machine in those phases is in them, and objects placed in slabs or per-CPU lists the kernel already held take no new pages (it depends on what the kernel held and on the batch)%s\n",
		       together
			       ? "; in a --concurrent run each CPU's counters hold the other CPUs' runs on the same node, which allocate at the same time"
			       : "");
}

/* Counters per op: one column per event, IPC when both are there. */
static void print_counters(const struct ab_job *job)
{
	const struct ab_counters *c = &job->session.counters;
	int i, e, cyc, ins, ipc, w = ab_job_label_width(job, 18), neg = 0, net;
	int tw;
	int cw[AB_MAX_EVENTS];
	char note[1024], what[128];

	if (!c->n)
		return;
	ipc = ab_counters_ipc(c, &cyc, &ins);
	net = job->run_opts.timing == AB_TIMING_BATCH && !job->raw;
	/* with --free-cpu the frees ran in a work item this thread's
	 * counters do not count: the figures are the allocation's */
	if (job->free_cpu >= 0)
		snprintf(
			what, sizeof(what),
			"one allocation: its free ran on CPU %d, which this thread's counters leave out",
			job->free_cpu);
	else
		snprintf(what, sizeof(what), "one allocation and its free");
	printf("\ncounters per op (%s; %s%s)\n", what,
	       net ? "net of the none baseline" : "raw",
	       net && job->baseline && job->baseline != &job->own_baseline &&
			       job->baseline->ran
		       ? ", but the none row's own: raw"
		       : "");
	/* each column as wide as its event's name, at least 10 */
	for (e = 0, tw = w + 7; e < c->n; e++) {
		cw[e] = (int)strlen(c->ev[e].name);
		if (cw[e] < 10)
			cw[e] = 10;
		tw += cw[e] + 1;
	}
	/* the short report's tables fit AB_TABLE_COLS: a wider one is -v's
	 * (--explain's lines below give its paths' counts per op) */
	if (!wide() && tw > AB_TABLE_COLS) {
		printf("(%d events, a table wider than %d columns: -v prints it)\n",
		       c->n, AB_TABLE_COLS);
		return;
	}
	printf("%-*s", w, "strategy");
	for (e = 0; e < c->n; e++)
		printf(" %*s", cw[e], c->ev[e].name);
	if (ipc > 0)
		printf(" %6s", "IPC");
	printf("\n");
	for (i = 0; i < job->nrows; i++) {
		const struct ab_row *r = &job->rows[i];

		if (!r->ran)
			continue;
		printf("%-*s", w, r->label);
		for (e = 0; e < c->n; e++) {
			if (isnan(r->ev_net[e]))
				printf(" %*s", cw[e], "n/a");
			else
				printf(" %*.2f", cw[e], r->ev_net[e]);
			/* below the baseline by more than the print shows */
			neg |= r->ev_net[e] <= -0.005;
		}
		if (ipc > 0)
			ab_print_cell(r->ev_raw[ins] / r->ev_raw[cyc], " %*.2f",
				      6);
		printf("\n");
	}
	for (e = 0; e < c->n; e++)
		if (ab_counters_note(c, e, note, sizeof(note)))
			say_note("%s", note);
	if (ipc < 0)
		say_note(
			"no IPC: cycles and instructions did not count in one group with the same modifiers, so their intervals or modes differ");
	if (c->resplit)
		say_note(
			"the hardware counter group never got the PMU in a run (time_running 0), so its events were split to count each on its own from the next run on (the kernel then rotates them through the counters it has, scaled by enabled / running)");
	if (neg)
		say_note(
			"a negative net count: the strategy counted fewer than the none baseline per op, which is the counts' noise or work the baseline's loop does that the strategy's does not; it is no negative cost (--raw shows the counts as measured)");
	/* true of every run: the short report leaves it to its NOTES */
	if (wide())
		say_note(
			"counters come from a separate counting pass of the same trials (same parameters, seed, CPU and node; warm-up trials and the harness included), run after the timed pass; the timed figures above ran with no counter or probe armed");
	if (ab_counters_virtual(c))
		say_note(
			"events on the virtual PMU (QEMU TCG plugin) count the guest's instructions, branches, loads and stores exactly as TCG executes them, in the timed regions only (the module's markers just inside the clock reads: no ioctl) and not the harness's code in them (none's per-object bodies, the user backend's executable), so a net count is the allocator's own; a rep-prefixed string instruction counts once, as hardware retires it, its accesses each; cache and branch-miss events there are a stated model, not a machine's (docs/vpmu.md)");
}

/* AB_STRATEGY_RCU row @r: the note on the waits after its free phases. */
static void rcu_note(const struct ab_job *job, const struct ab_row *r,
		     const char *name)
{
	const struct ab_run *run = &r->run;
	char late[96] = "";
	double mean, max;

	if (!ab_row_drain_ns(r, &mean, &max))
		return;
	if (run->drain_late)
		snprintf(
			late, sizeof(late),
			"; in %u %s the pages were not back when it gave up (%d s)",
			run->drain_late,
			ab_noun(run->drain_late, "trial", "trials"),
			AB_DRAIN_MAX_MS / 1000);
	printf("note: %s: the free phase times handing the objects to RCU; after each the module waited, untimed, for %s, then for the free pages to come back (to within 8 MiB, the trial's bytes or 1/64 of RAM): %.1f us a trial on average, %.1f us at most, over %u trials of %u objects%s\n",
	       name,
	       job->session.bi.info.kernel_flags & AB_KERNEL_KVFREE_RCU_BARRIER
		       ? "kvfree_rcu_barrier() (every CPU's kfree_rcu batches flushed, a grace period, the frees)"
		       : "rcu_barrier() (a grace period and the callbacks queued before it; this kernel exports no kvfree_rcu_barrier())",
	       mean / 1e3, max / 1e3, run->trials_done, run->batch, late);
}

void ab_row_pool_text(const struct ab_row *r, char *t, size_t len)
{
	const struct ab_run *run = &r->run;
	uint64_t objs = run->objects, from = run->pool_from_reserve;
	size_t i;

	if (run->free_pattern == AB_FREE_PAIR) {
		snprintf(
			t, len,
			"%s: the elements taken from the reserve of %u are not counted with --free=pair (each free refills it at once)",
			r->label, run->pool_min);
		return;
	}
	if (run->cond_unmet) {
		/* a module before ab_run version 10 does not split them */
		if (run->size < AB_RUN_SIZE_VER10 || !r->smp) {
			snprintf(
				t, len,
				"%s: %llu of %llu allocations taken from the reserve of %u (min_nr) in all %u trials, the %u left out for their unmet condition among them (not told apart: a module before ab_run version 10, or no samples)",
				r->label, (unsigned long long)from,
				(unsigned long long)objs, run->pool_min,
				run->trials_done, run->cond_unmet);
			return;
		}
		from -= run->pool_reserve_unmet;
		for (objs = 0, i = 0; i < r->nr_smp; i++)
			if (!(r->smp[i].flags & AB_SAMPLE_COND_UNMET))
				objs += r->smp[i].nr_objs;
	}
	snprintf(
		t, len,
		"%s: %llu of %llu allocations taken from the reserve of %u (min_nr), read as pool_min less curr_nr after each alloc phase%s",
		r->label, (unsigned long long)from, (unsigned long long)objs,
		run->pool_min,
		run->cond_unmet ? ", in the trials that met the condition"
				: "");
}

double ab_row_timed_ns(const struct ab_row *r)
{
	uint64_t cycles = 0;
	size_t i;

	if (!r->smp || !r->nr_smp || !r->run.tsc_khz)
		return NAN;
	for (i = 0; i < r->nr_smp; i++)
		cycles += r->smp[i].alloc_cycles + r->smp[i].free_cycles;
	return (double)cycles * 1e6 / r->run.tsc_khz;
}

bool ab_row_map_text(const struct ab_run *run, char *buf, size_t len)
{
	static const char *const sizes[AB_MAP_NR] = { "4 KiB", "2 MiB",
						      "1 GiB" };
	bool first = true;
	char per[32];
	size_t used;
	int i, n;

	if (!run->map_areas || !len)
		return false;
	n = snprintf(buf, len, "%llu %s:", (unsigned long long)run->map_areas,
		     ab_noun(run->map_areas, "area", "areas"));
	used = n < 0 ? 0 : (size_t)n;
	/* from the largest page down; 1 GiB only if any */
	for (i = AB_MAP_NR - 1; i >= 0; i--) {
		if (i == AB_MAP_1G && !run->map_pages[i])
			continue;
		n = snprintf(buf + (used < len ? used : len - 1),
			     used < len ? len - used : 1,
			     "%s %s pages %llu (%s an area)", first ? "" : ",",
			     sizes[i], (unsigned long long)run->map_pages[i],
			     ab_sig_text((double)run->map_pages[i] /
						 (double)run->map_areas,
					 per, sizeof(per)));
		used += n < 0 ? 0 : (size_t)n;
		first = false;
	}
	return true;
}

bool ab_row_sheaves_differ(const struct ab_run *run,
			   const struct ab_obj_mem *om)
{
	return (run->flags & AB_RUN_SHEAVES) && om->kind == AB_OBJ_SLAB &&
	       om->slab.sheaf_capacity >= 0 &&
	       (uint32_t)om->slab.sheaf_capacity != run->sheaf_capacity;
}

/*
 * --concurrent: per strategy, the objects all CPUs allocated and freed in
 * their measured trials divided by the slowest CPU's timed phases: a row's
 * wall time also held its setup (kmem_buckets' caches made: 370 ms under
 * TCG, more than the trials), warm-up, node checks and untimed waits.
 */
void ab_job_print_aggregates(const struct ab_job *job)
{
	int i, j;

	for (i = 0; i < job->nrows; i = j) {
		double objs = 0, timed = 0, t;
		int ran = 0;

		for (j = i;
		     j < job->nrows && job->rows[j].group == job->rows[i].group;
		     j++) {
			ran += job->rows[j].ran;
			objs += (double)job->rows[j].run.objects;
			t = ab_row_timed_ns(&job->rows[j]);
			timed = isnan(t) || isnan(timed) ? NAN : fmax(timed, t);
		}
		if (j - i > 1 && ran == j - i && timed > 0)
			printf("aggregate: %.*s on %d CPUs at once: %.0f objects allocated and freed in the measured trials, %.3f ms of timed phases on the slowest CPU (setup, warm-up and untimed waits left out): %.3f M/s\n",
			       (int)strcspn(job->rows[i].label, "@"),
			       job->rows[i].label, j - i, objs, timed / 1e6,
			       objs / timed * 1e3);
	}
}

void ab_job_print_kernel_notes(const struct ab_job *job)
{
	char notes[AB_MAX_ROWS][AB_NOTE_LEN];
	int i, n = ab_job_kernel_notes(job, notes, AB_MAX_ROWS);

	for (i = 0; i < n; i++)
		printf("note: %s\n", notes[i]);
}

void ab_job_print_net_notes(const struct ab_job *job)
{
	char notes[AB_MAX_ROWS + 1][AB_NOTE_LEN];
	int i, n = ab_job_net_notes(job, notes, AB_MAX_ROWS + 1);

	for (i = 0; i < n; i++)
		printf("note: %s\n", notes[i]);
}

static void print_notes(const struct ab_job *job)
{
	int i, local = 0;
	const int notes = 0;
	char list[192];

	printf("\n");
	for (i = 0; i < job->nrows; i++) {
		const struct ab_run *run = &job->rows[i].run;
		const struct ab_obj_mem *om = &job->rows[i].objmem;
		const char *name = job->rows[i].label;

		if (!job->rows[i].ran ||
		    (i && job->rows[i].group == job->rows[i - 1].group))
			continue;
		local |= run->node < 0 && run->node_checked;
		if (job->rows + i == job->baseline && !job->raw &&
		    job->run_opts.timing == AB_TIMING_BATCH)
			printf("note: none is the baseline: its row is raw\n");
		if (run->cache_merged == AB_MERGED_YES)
			printf("note: %s: the kernel merged the run's kmem_cache into an existing cache (slab merging); --nomerge gives it a cache of its own\n",
			       name);
		else if (run->cache_merged == AB_MERGED_NO)
			printf("note: %s: the run's kmem_cache was a cache of its own (not merged)\n",
			       name);
		else if (run->cache_merged == AB_MERGED_UNKNOWN)
			printf("note: %s: whether the kernel merged the run's kmem_cache is unknown (no /sys/kernel/slab to read it from)\n",
			       name);
		else if (run->cache_merged == AB_MERGED_LATER)
			printf("note: %s: the run's kmem_cache was a cache of its own when created, but another cache was merged into it during the run, so its slabs were shared for part of it; --nomerge gives it a cache no other merges into\n",
			       name);
		if (ab_row_sheaves_differ(run, om))
			printf("note: %s: asked for sheaves of %u (0: none), the kernel gave the cache sheaves of %d (7.x takes the larger of its own capacity and the one asked, mm/slub.c calculate_sheaf_capacity(); a cache under slub_debug gets none)\n",
			       name, run->sheaf_capacity,
			       om->slab.sheaf_capacity);
		rcu_note(job, &job->rows[i], name);
		if (job->rows[i].si->params & AB_PARAM_POOL) {
			char pool[AB_NOTE_LEN];

			ab_row_pool_text(&job->rows[i], pool, sizeof(pool));
			printf("note: %s\n", pool);
		}
		if (ab_row_map_text(run, list, sizeof(list)))
			printf("note: %s: its vmalloc areas as the kernel's page tables map them (x86 lookup_address(): the level of each address's leaf entry, in the untimed check trials): %s\n",
			       name, list);
		if (run->disturbed)
			printf("note: %s: %u of %u %s disturbed (a context switch or a CPU change inside a timed phase: %llu %s, %u CPU %s); %s\n",
			       name, run->disturbed, run->trials_done,
			       ab_noun(run->disturbed, "trials was",
				       "trials were"),
			       (unsigned long long)run->switches,
			       ab_noun(run->switches, "switch", "switches"),
			       run->migrations,
			       ab_noun(run->migrations, "change", "changes"),
			       job->run_opts.drop_disturbed
				       ? "their phases are left out (--drop-disturbed)"
				       : "--drop-disturbed leaves their phases out");
		if (run->free_elsewhere)
			printf("note: %s: %u free %s on another CPU than --free-cpu=%u (it went offline meanwhile)\n",
			       name, run->free_elsewhere,
			       ab_noun(run->free_elsewhere, "phase ran",
				       "phases ran"),
			       run->free_cpu);
		if (job->rows[i].si->flags & AB_STRATEGY_PER_TRIAL)
			printf("note: %s: one call per trial for the whole batch (%u x %llu bytes), each phase timed whole: %s\n",
			       name, run->batch,
			       (unsigned long long)ab_run_obj_bytes(
				       run, job->session.bi.info.page_size),
			       job->rows[i].si->desc);
		if (run->failed)
			printf("note: %s: %llu %s; each ended its trial (not retried), and the alloc time it was timed in is left out of the figures\n",
			       name, (unsigned long long)run->failed,
			       ab_noun(run->failed, "allocation failed",
				       "allocations failed"));
		if (run->trials_done < run->trials)
			printf("note: %s: interrupted after %u of %u %s\n",
			       name, run->trials_done, run->trials,
			       ab_noun(run->trials, "trial", "trials"));
		if (run->cpu_start != run->cpu_end)
			printf("note: %s: the run migrated from CPU %u to CPU %u\n",
			       name, run->cpu_start, run->cpu_end);
		if (run->node_checked &&
		    ab_obj_nodes(run, 1, list, sizeof(list)))
			printf("note: %s: its %llu checked objects were on more than one node (page_to_nid() of their pages): %s; hit%% is the share on node %d\n",
			       name, (unsigned long long)run->node_checked,
			       list, run->target_node);
	}
	if (local && job->run_opts.node >= 0)
		printf("note: node nL: that strategy takes no node, so --node=%d does not apply to it; n is the node the most checked objects were on (page_to_nid() of their pages), and hits are counted against it\n",
		       job->run_opts.node);
	else if (local)
		printf("note: node nL: no --node for that strategy; n is the node the most checked objects were on (page_to_nid() of their pages), and hits are counted against it\n");
	if (job->run_opts.free_pattern == AB_FREE_PAIR)
		printf("note: --free=pair frees each object before the next is allocated: node hits are not checked\n");
	if (job->free_cpu >= 0) {
		uint64_t off = 0;

		for (i = 0; i < job->nrows; i++)
			off += job->rows[i].ran
				       ? job->rows[i].run.free_elsewhere
				       : 0;
		/* what happened, not what was asked (free_elsewhere) */
		printf("note: %s freed in a work item queued on CPU %d, allocated on the CPU of its row%s%s\n",
		       off ? "objects were" : "every object was", job->free_cpu,
		       off ? " (it went offline: the free phases counted above ran elsewhere)"
			   : "",
		       job->session.counters.n
			       ? "; the counters count this thread, so not those frees"
			       : "");
	}
	for (i = 0; i < job->nrows; i++)
		if (job->rows[i].ran && job->rows[i].run.objects &&
		    !job->rows[i].run.node_checked && job->rows[i].si->params &&
		    !job->session.counters.n &&
		    job->run_opts.free_pattern != AB_FREE_PAIR &&
		    !(job->session.be->flags & AB_BACKEND_MODULE)) {
			printf("note: hit%% n/a: userspace memory gets its pages, and so its node, on first touch; these blocks were never touched (--write touches every byte)\n");
			break;
		}
	ab_job_print_net_notes(job);
	ab_job_print_kernel_notes(job);
	ab_job_busy_lines(job, 0, print_busy_line, &notes);
	ab_job_print_aggregates(job);
}

void ab_job_print_counts(const struct ab_job *job)
{
	print_counters(job);
	ab_job_print_profile(job);
	ab_job_print_paths(job);
	print_explain(job);
}

void ab_job_print_header_wide(const struct ab_job *job)
{
	print_header(job);
}

void ab_job_print_wide(const struct ab_job *job)
{
	int i;

	print_header(job);
	ab_job_print_table(job);
	ab_job_print_distribution(job);
	ab_job_print_counts(job);
	print_memory(job);
	ab_job_print_condition(job);
	print_notes(job);
	if (job->histogram)
		for (i = 0; i < job->nrows; i++) {
			ab_row_print_histogram(&job->rows[i], 0);
			ab_row_print_histogram(&job->rows[i], 1);
		}
}
