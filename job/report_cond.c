// SPDX-License-Identifier: GPL-2.0-only
/*
 * report_cond.c - what a row met and how often it succeeded: the memory
 * condition (--condition) as the module built it and the kernel's own
 * files showed it before, built, after the trials and after the undo;
 * the background load; the success rate of the trials that met the
 * condition with its Wilson interval (the trial, restored to the condition
 * before it, is the unit; its allocations are not independent); and, in single
 * timing, the tail of the successful allocations' latency (see report.h).
 */
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>

#include "compare.h"
#include "condition.h"
#include "report.h"
#include "textout.h"

static const char *const when_names[AB_AT_NR] = { "before", "built",
						  "after trials",
						  "after undo" };
static const char *const when_keys[AB_AT_NR] = { "before", "built",
						 "after_trials", "after_undo" };

/* the extfrag index is stated for the row's order (0 for the others) */
static unsigned int row_order(const struct ab_row *r)
{
	return (r->si->params & AB_PARAM_ORDER) ? r->run.order : 0;
}

static void print_settings(const struct ab_mm_settings *s)
{
	printf("  settings: transparent_hugepage/defrag %s, vm.compaction_proactiveness ",
	       s->thp_defrag[0] ? s->thp_defrag : "n/a");
	if (s->compaction_proactiveness >= 0)
		printf("%lld", s->compaction_proactiveness);
	else
		printf("n/a");
	printf(", vm.watermark_scale_factor ");
	if (s->watermark_scale_factor >= 0)
		printf("%lld\n", s->watermark_scale_factor);
	else
		printf("n/a\n");
}

static void print_row_cond(const struct ab_row *r)
{
	const struct ab_cond_result *c = r->cond;
	const struct ab_condition *b = &c->built;
	const struct ab_zonestate *z[AB_AT_NR];
	char name[64], vmaps[24];
	/* the short report: lines within AB_TABLE_COLS, buddyinfo -v's */
	int w, i, full = ab_out.wide || ab_out.verbose, col;

	for (w = 0; w < AB_AT_NR; w++)
		z[w] = ab_cond_zone(c, (enum ab_cond_when)w);
	snprintf(vmaps, sizeof(vmaps), "%llu",
		 (unsigned long long)b->vmap_areas);
	printf("  %s: %s", r->label,
	       ab_condition_name(c->kinds, name, sizeof(name)));
	if (c->kinds & AB_COND_FRAGMENTED)
		printf(" (no free block above order %u)", c->frag_order);
	if (c->kinds && !full)
		printf(", built in %.1f ms: %llu pages held%s%s%s\n",
		       (double)b->build_ns / 1e6,
		       (unsigned long long)b->held_pages,
		       b->vmap_areas ? ", vmap areas " : "",
		       b->vmap_areas ? vmaps : "",
		       b->stopped == AB_COND_NO_MEMORY ? ", stopped short"
						       : "");
	else if (c->kinds)
		printf(", built in %.1f ms: %llu pages held (%llu movable), %llu vmap areas%s\n",
		       (double)b->build_ns / 1e6,
		       (unsigned long long)b->held_pages,
		       (unsigned long long)b->movable_pages,
		       (unsigned long long)b->vmap_areas,
		       b->stopped == AB_COND_NO_MEMORY
			       ? "; stopped short: the allocator refused more without reclaim"
			       : "");
	else
		printf("\n");
	if (b->zone[0]) {
		printf("    zone %s of node %d: watermarks min %llu, low %llu, high %llu pages",
		       b->zone, c->node, (unsigned long long)b->zone_min,
		       (unsigned long long)b->zone_low,
		       (unsigned long long)b->zone_high);
		if (c->kinds & AB_COND_PRESSURE)
			printf("; pressure aimed at %llu free",
			       (unsigned long long)b->target_free);
		printf("\n");
		for (w = 0; w < AB_AT_NR; w++) {
			if (!z[w])
				continue;
			if (!full) {
				printf("    %-12s free %llu pages, max free order %d, extfrag index order %u %.3f\n",
				       when_names[w],
				       (unsigned long long)z[w]->free,
				       ab_zone_max_order(z[w]), row_order(r),
				       (double)ab_extfrag_index(z[w],
								row_order(r)) /
					       1000);
				continue;
			}
			printf("    %-12s free %llu pages (zoneinfo), max free order %d, extfrag index order %u %.3f; buddyinfo",
			       when_names[w], (unsigned long long)z[w]->free,
			       ab_zone_max_order(z[w]), row_order(r),
			       (double)ab_extfrag_index(z[w], row_order(r)) /
				       1000);
			for (i = 0; i < z[w]->orders; i++)
				printf(" %llu",
				       (unsigned long long)z[w]->nr_free[i]);
			printf("\n");
		}
	}
	if (r->run.flags & AB_RUN_COND_EACH_TRIAL) {
		uint64_t met, ok;

		ab_cond_trials(r, &met, &ok);
		printf(full ? "    restored before each trial (%llu pages taken again): %llu of %u measured trials began in it"
			    : "    restored before each trial (%llu pages): %llu of %u trials began in it",
		       (unsigned long long)r->run.cond_restored_pages,
		       (unsigned long long)met, r->run.trials_done);
		if (c->kinds & AB_COND_FRAGMENTED) {
			if (r->run.cond_max_order >= 0)
				printf(full ? ", max free order at their start %d"
					    : ", max free order %d",
				       r->run.cond_max_order);
			else
				printf(", no free block at their start");
		}
		printf("%s\n",
		       met < r->run.trials_done
			       ? (full ? "; the others are left out of every figure"
				       : "; the others left out")
			       : "");
	}
	if (c->kinds) {
		char oom[96] = "";

		/* reclaim left an allocation short: the OOM notifier's */
		if (c->undo.oom_pages)
			snprintf(oom, sizeof(oom),
				 " (%llu of them when the OOM killer was next)",
				 (unsigned long long)c->undo.oom_pages);
		printf("    during the trials direct reclaim took back %llu of its pages%s; %s in %.1f ms\n",
		       (unsigned long long)c->undo.reclaimed_pages, oom,
		       c->undone ? "undone"
				 : "NOT undone (the device's close undoes it)",
		       (double)c->undo.undo_ns / 1e6);
	}
	if (c->vm[0].have && c->vm[1].have) {
		col = printf(
			"    over the timed trials (whole machine, /proc/vmstat):");
		for (i = 0; i < AB_VM_NR; i++) {
			char v[64];
			int len;

			if (!(c->vm[0].have & c->vm[1].have & (1U << i)))
				continue;
			len = snprintf(v, sizeof(v), " %s %llu",
				       ab_vmstat_names[i],
				       (unsigned long long)(c->vm[1].count[i] -
							    c->vm[0].count[i]));
			/* the short report wraps at AB_TABLE_COLS */
			if (!full && col + len > AB_TABLE_COLS) {
				printf("\n     ");
				col = 5;
			}
			col += printf("%s", v);
		}
		printf("\n");
	}
	if (c->background) {
		printf("    background: sh -c '%s'", c->background);
		int st = c->bg_status;

		/* what its wait status says: "ran through the trials" is
		 * not known of a load that had barely started */
		if (c->bg_ended_early && WIFEXITED(st))
			printf(" (ended before the trials did, exit status %d%s)",
			       WEXITSTATUS(st),
			       WEXITSTATUS(st) == 127 ? ": a command not found"
			       : WEXITSTATUS(st) == 126
				       ? ": a command not executable"
				       : "");
		else if (c->bg_ended_early)
			printf(" (ended before the trials did, by signal %d)",
			       WTERMSIG(st));
		else if (WIFSIGNALED(st))
			printf(" (running when the trials ended, then stopped by %s)",
			       WTERMSIG(st) == SIGTERM	 ? "SIGTERM"
			       : WTERMSIG(st) == SIGKILL ? "SIGKILL"
							 : "a signal");
		else
			printf(" (running when the trials ended; exit status %d once stopped)",
			       WEXITSTATUS(st));
		printf("\n");
	}
}

static void print_num8(double v)
{
	if (isnan(v))
		printf(" %8s", "n/a");
	else
		printf(" %8.1f", v);
}

/* Rows with an allocation that may fail here, or a condition: success. */
static int wants_success(const struct ab_job *job)
{
	int i;

	if (job->run_opts.condition)
		return 1;
	for (i = 0; i < job->nrows; i++)
		if (job->rows[i].ran && job->rows[i].run.failed)
			return 1;
	return 0;
}

/*
 * A CMA row under a condition: what the condition's pages are to
 * cma_alloc(), measured on 7.3 with cma=64M (docs/conditions.md).
 */
static void cma_note(const struct ab_job *job)
{
	int i;

	for (i = 0; i < job->nrows; i++)
		if (job->rows[i].ran && job->rows[i].cond &&
		    (job->rows[i].si->flags & AB_STRATEGY_MEM_MASK) ==
			    AB_STRATEGY_MEM_CMA)
			break;
	if (i == job->nrows)
		return;
	printf("note: cma: the condition's pages are held by allocbench.ko, off the LRU: its movable ones may land in the CMA area (movable allocations may use it), where cma_alloc() cannot migrate them and meets them as pinned pages (alloc_contig_range() busy), so a range they are in fails, as it would with pinned user pages, where pages in use on the LRU would be migrated; pressure takes unmovable pages only, which the area's free pages never serve, so with a CMA area the zone may stay above its target (trials that began without it are left out)\n");
}

void ab_job_print_condition(const struct ab_job *job)
{
	int i, single = job->run_opts.timing == AB_TIMING_SINGLE;
	const struct ab_mm_settings *s = NULL;

	for (i = 0; i < job->nrows; i++)
		if (job->rows[i].ran && job->rows[i].cond) {
			if (!s) {
				printf("\nmemory condition, built before each row's trials and undone after them:\n");
				s = &job->rows[i].cond->settings;
			}
			print_row_cond(&job->rows[i]);
		}
	if (s)
		print_settings(s);
	if (!wants_success(job))
		return;
	if (ab_out.wide || ab_out.verbose)
		printf("\nsuccess per trial (every allocation of the trial succeeded: a failure ends it; depends on --batch, and on what earlier runs left in the kernel: compare rates over boots, allocbench vm), trials that met the condition%s:\n",
		       single ? "; latency of the successful calls, ns (single timing)"
			      : "; latency percentiles need --timing=single");
	else /* the short report: its caveats in allocbench-run(1) */
		printf("\nsuccess per trial, of the trials that met the condition%s:\n",
		       single ? "; latency of the successful calls, ns"
			      : " (latency: --timing=single)");
	printf("  %-24s %9s %8s %17s", "strategy", "trials", "success",
	       "[95% Wilson]");
	if (single)
		printf(" %8s %8s %8s %8s %8s", "p50", "p90", "p99", "p99.9",
		       "max");
	printf("\n");
	for (i = 0; i < job->nrows; i++) {
		const struct ab_row *r = &job->rows[i];
		uint64_t n, ok;
		double lo, hi;

		if (!r->ran || (r->si->flags & AB_STRATEGY_BASELINE))
			continue;
		ab_cond_trials(r, &n, &ok);
		ab_wilson(ok, n, 0.95, &lo, &hi);
		printf("  %-24s %9llu", r->label, (unsigned long long)n);
		if (n)
			printf(" %7.1f%% [%6.1f%%, %6.1f%%]",
			       100.0 * (double)ok / (double)n, 100 * lo,
			       100 * hi);
		else /* no trial met the condition: no rate */
			printf(" %8s %17s", "n/a", "[n/a]");
		if (single) {
			const struct ab_stats *a = &r->net[0].ns;

			print_num8(a->median);
			print_num8(a->p90);
			print_num8(a->p99);
			print_num8(a->p999);
			print_num8(a->max);
		}
		printf("\n");
	}
	cma_note(job);
}

static json_object *json_zone(const struct ab_zonestate *z, unsigned int order)
{
	json_object *o = json_object_new_object(), *a;
	int i;

	json_object_object_add(o, "free_pages",
			       json_object_new_int64((int64_t)z->free));
	json_object_object_add(o, "pcp_pages",
			       json_object_new_int64((int64_t)z->pcp));
	json_object_object_add(o, "free_cma_pages",
			       json_object_new_int64((int64_t)z->free_cma));
	json_object_object_add(o, "max_free_order",
			       json_object_new_int(ab_zone_max_order(z)));
	json_object_object_add(
		o, "extfrag_index",
		json_object_new_double((double)ab_extfrag_index(z, order) /
				       1000));
	a = json_object_new_array();
	for (i = 0; i < z->orders; i++)
		json_object_array_add(
			a, json_object_new_int64((int64_t)z->nr_free[i]));
	json_object_object_add(o, "buddyinfo", a);
	return o;
}

/* AB_RUN_COND_EACH_TRIAL: the trials that met the restored condition */
static json_object *each_trial_json(const struct ab_row *r)
{
	json_object *o = json_object_new_object();
	uint64_t met, ok;

	ab_cond_trials(r, &met, &ok);
	json_object_object_add(o, "trials_met",
			       json_object_new_int64((int64_t)met));
	json_object_object_add(
		o, "trials_unmet",
		json_object_new_int64((int64_t)r->run.cond_unmet));
	json_object_object_add(
		o, "start_max_free_order",
		(r->cond->kinds & AB_COND_FRAGMENTED) &&
				r->run.cond_max_order >= 0
			? json_object_new_int(r->run.cond_max_order)
			: NULL);
	json_object_object_add(
		o, "restored_pages",
		json_object_new_int64((int64_t)r->run.cond_restored_pages));
	return o;
}

json_object *ab_row_condition_json(const struct ab_row *r)
{
	const struct ab_cond_result *c = r->cond;
	const struct ab_condition *b;
	json_object *o, *st, *vm;
	char name[64];
	int w, i;

	if (!c)
		return NULL;
	b = &c->built;
	o = json_object_new_object();
	json_object_object_add(o, "name",
			       json_object_new_string(ab_condition_name(
				       c->kinds, name, sizeof(name))));
	json_object_object_add(o, "frag_order",
			       c->kinds & AB_COND_FRAGMENTED
				       ? json_object_new_int((int)c->frag_order)
				       : NULL);
	json_object_object_add(o, "node", json_object_new_int(c->node));
	json_object_object_add(
		o, "zone", b->zone[0] ? json_object_new_string(b->zone) : NULL);
	json_object_object_add(o, "build_ns",
			       json_object_new_int64((int64_t)b->build_ns));
	json_object_object_add(o, "undo_ns",
			       json_object_new_int64((int64_t)c->undo.undo_ns));
	json_object_object_add(o, "undone",
			       json_object_new_boolean(c->undone || !c->kinds));
	json_object_object_add(o, "held_pages",
			       json_object_new_int64((int64_t)b->held_pages));
	json_object_object_add(
		o, "movable_pages",
		json_object_new_int64((int64_t)b->movable_pages));
	json_object_object_add(o, "vmap_areas",
			       json_object_new_int64((int64_t)b->vmap_areas));
	json_object_object_add(
		o, "reclaimed_pages",
		json_object_new_int64((int64_t)c->undo.reclaimed_pages));
	json_object_object_add(
		o, "oom_pages",
		json_object_new_int64((int64_t)c->undo.oom_pages));
	json_object_object_add(
		o, "stopped_short",
		json_object_new_boolean(b->stopped != AB_COND_DONE));
	json_object_object_add(
		o, "target_free_pages",
		c->kinds & AB_COND_PRESSURE
			? json_object_new_int64((int64_t)b->target_free)
			: NULL);
	json_object_object_add(o, "wmark_min",
			       json_object_new_int64((int64_t)b->zone_min));
	json_object_object_add(o, "wmark_low",
			       json_object_new_int64((int64_t)b->zone_low));
	json_object_object_add(o, "wmark_high",
			       json_object_new_int64((int64_t)b->zone_high));
	st = json_object_new_object();
	for (w = 0; w < AB_AT_NR; w++) {
		const struct ab_zonestate *z =
			ab_cond_zone(c, (enum ab_cond_when)w);

		json_object_object_add(st, when_keys[w],
				       z ? json_zone(z, row_order(r)) : NULL);
	}
	json_object_object_add(o, "state", st);
	json_object_object_add(o, "each_trial",
			       (r->run.flags & AB_RUN_COND_EACH_TRIAL)
				       ? each_trial_json(r)
				       : NULL);
	vm = json_object_new_object();
	for (i = 0; i < AB_VM_NR; i++)
		if (c->vm[0].have & c->vm[1].have & (1U << i))
			json_object_object_add(
				vm, ab_vmstat_names[i],
				json_object_new_int64(
					(int64_t)(c->vm[1].count[i] -
						  c->vm[0].count[i])));
	json_object_object_add(o, "vmstat_delta", vm);
	json_object_object_add(
		o, "background",
		c->background ? json_object_new_string(c->background) : NULL);
	json_object_object_add(
		o, "thp_defrag",
		c->settings.thp_defrag[0]
			? json_object_new_string(c->settings.thp_defrag)
			: NULL);
	json_object_object_add(
		o, "compaction_proactiveness",
		c->settings.compaction_proactiveness >= 0
			? json_object_new_int64(
				  c->settings.compaction_proactiveness)
			: NULL);
	json_object_object_add(
		o, "watermark_scale_factor",
		c->settings.watermark_scale_factor >= 0
			? json_object_new_int64(
				  c->settings.watermark_scale_factor)
			: NULL);
	return o;
}

json_object *ab_row_success_json(const struct ab_row *r)
{
	json_object *o = json_object_new_object(), *ci;
	uint64_t n, ok;
	double lo, hi;

	ab_cond_trials(r, &n, &ok);
	ab_wilson(ok, n, 0.95, &lo, &hi);
	json_object_object_add(o, "unit", json_object_new_string("trial"));
	json_object_object_add(o, "attempts",
			       json_object_new_int64((int64_t)n));
	json_object_object_add(o, "calls",
			       json_object_new_int64((int64_t)(r->run.objects +
							       r->run.failed)));
	json_object_object_add(
		o, "rate",
		n ? json_object_new_double((double)ok / (double)n) : NULL);
	ci = json_object_new_array();
	json_object_array_add(ci, ab_json_num(lo));
	json_object_array_add(ci, ab_json_num(hi));
	json_object_object_add(o, "wilson95", ci);
	return o;
}
