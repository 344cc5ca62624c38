// SPDX-License-Identifier: GPL-2.0-only
/*
 * report_json.c - a finished job as one JSON document (see runner.h and
 * schema/allocbench-result.schema.json).
 */
#include <math.h>
#include <string.h>
#include <time.h>

#include "ab_run.h"
#include "isolate.h"
#include "memcg.h"
#include "jsonout.h"
#include "report.h"
#include "textout.h"

static const char *merged_name(uint32_t m)
{
	switch (m) {
	case AB_MERGED_NO:
		return "no";
	case AB_MERGED_YES:
		return "yes";
	case AB_MERGED_UNKNOWN:
		return "unknown";
	case AB_MERGED_LATER:
		return "later";
	default:
		return "n/a";
	}
}

/*
 * What disturbed the run's timed phases (struct ab_run): null where the
 * backend does not count it (a module older than the counts).
 */
static void ab_json_disturbed(json_object *o, const struct ab_job *job,
			      const struct ab_run *run)
{
	int known = !!(job->session.bi.info.run_flags & AB_RUN_MARK_DISTURBED);

	json_object_object_add(
		o, "switches",
		known ? json_object_new_int64((int64_t)run->switches) : NULL);
	json_object_object_add(o, "migrations",
			       known ? json_object_new_int64(run->migrations)
				     : NULL);
	json_object_object_add(o, "disturbed_trials",
			       known ? json_object_new_int64(run->disturbed)
				     : NULL);
	json_object_object_add(
		o, "free_elsewhere",
		known && (run->flags & AB_RUN_REMOTE_FREE)
			? json_object_new_int64(run->free_elsewhere)
			: NULL);
}

/*
 * --explain: the row's paths, [{path, event, net_per_op}] (counted in the
 * counting pass); null without --explain.
 */
static json_object *json_explain(const struct ab_job *job,
				 const struct ab_row *r)
{
	unsigned int fam = ab_family_of(r->si->flags, r->si->params);
	const struct ab_counters *c = &job->session.counters;
	json_object *a, *p;
	char ev[160];
	int k;

	if (!job->explain)
		return NULL;
	a = json_object_new_array();
	for (k = 0; k < job->explain_paths.n; k++) {
		if (!(job->explain_paths.path[k].families & fam))
			continue;
		if (ab_counters_named(c, job->explain_paths.path[k].event) < 0)
			continue;
		ab_explain_event_text(&job->explain_paths.path[k], ev,
				      sizeof(ev));
		p = json_object_new_object();
		json_object_object_add(
			p, "path",
			json_object_new_string(
				job->explain_paths.path[k].label));
		json_object_object_add(p, "event", json_object_new_string(ev));
		json_object_object_add(
			p, "net_per_op",
			ab_json_num(ab_explain_net(&job->explain_paths.path[k],
						   c, r->ev_net)));
		json_object_array_add(a, p);
	}
	return a;
}

/*
 * What the kernel states one object takes (r->objmem, lib/objmem.h):
 * bytes_per_object and how, then the cache's geometry (slab), the order
 * (pages), or the vmalloc area's parts; null members where not stated.
 */
static void json_stated(json_object *o, const struct ab_obj_mem *m)
{
	char how[256];
	int slab = m->kind == AB_OBJ_SLAB, vm = m->kind == AB_OBJ_VMALLOC;

	ab_obj_mem_how(m, how, sizeof(how));
	json_object_object_add(o, "bytes_per_object",
			       m->kind ? ab_json_num(m->bytes) : NULL);
	json_object_object_add(
		o, "source", json_object_new_string(ab_obj_kind_name(m->kind)));
	json_object_object_add(o, "how", json_object_new_string(how));
	json_object_object_add(o, "via_kmalloc",
			       json_object_new_boolean(m->via && m->via[0]));
	json_object_object_add(o, "cache",
			       slab ? json_object_new_string(m->name) : NULL);
	json_object_object_add(o, "cache_dir",
			       slab ? json_object_new_string(m->slab.cache)
				    : NULL);
	json_object_object_add(
		o, "object_size",
		slab ? json_object_new_int64((int64_t)m->slab.object_size)
		     : NULL);
	json_object_object_add(
		o, "slab_size",
		slab ? json_object_new_int64((int64_t)m->slab.slab_size)
		     : NULL);
	json_object_object_add(
		o, "objs_per_slab",
		slab ? json_object_new_int64(m->slab.objs_per_slab) : NULL);
	/* absent from the kernel (before 6.18): null; 0: no sheaves */
	json_object_object_add(
		o, "sheaf_capacity",
		slab && m->slab.sheaf_capacity >= 0
			? json_object_new_int(m->slab.sheaf_capacity)
			: NULL);
	json_object_object_add(o, "order",
			       slab ? json_object_new_int(m->slab.order)
			       : m->kind == AB_OBJ_PAGES
				       ? json_object_new_int(m->order)
				       : NULL);
	json_object_object_add(o, "vmalloc_pages_bytes",
			       vm ? json_object_new_int64((int64_t)m->pages)
				  : NULL);
	json_object_object_add(o, "vmalloc_array_bytes",
			       vm ? json_object_new_int64((int64_t)m->array)
				  : NULL);
	json_object_object_add(o, "vmalloc_meta_bytes",
			       vm ? json_object_new_int64((int64_t)m->meta)
				  : NULL);
}

/*
 * The memory one object takes: what the kernel states (json_stated())
 * and the node's counters around the alloc phases of the check trials
 * (struct ab_run, mem_*): null where they were not read (the user
 * backend, an older module, --free=pair, none).
 */
static json_object *json_memory(const struct ab_job *job,
				const struct ab_row *r)
{
	const struct ab_run *run = &r->run;
	double n = (double)run->mem_objects;
	/* a module that writes mem_free_min and _max says it has KEEP_CACHE */
	int spread = run->mem_trials &&
		     (job->session.bi.info.run_flags & AB_RUN_KEEP_CACHE);
	json_object *o;

	if (!run->mem_objects)
		return NULL;
	o = json_object_new_object();
	json_object_object_add(
		o, "requested_bytes",
		json_object_new_int64((int64_t)r->fp.alloc_bytes));
	json_object_object_add(
		o, "objects", json_object_new_int64((int64_t)run->mem_objects));
	json_object_object_add(o, "check_trials",
			       json_object_new_int64(run->mem_trials));
	json_object_object_add(o, "node",
			       json_object_new_int(run->target_node));
	json_object_object_add(o, "free_bytes",
			       json_object_new_int64(run->mem_free_bytes));
	json_object_object_add(o, "slab_bytes",
			       json_object_new_int64(run->mem_slab_bytes));
	json_object_object_add(o, "pagetable_bytes",
			       json_object_new_int64(run->mem_pagetable_bytes));
	json_stated(o, &r->objmem);
	json_object_object_add(o, "node_bytes_per_object",
			       ab_json_num((double)run->mem_free_bytes / n));
	json_object_object_add(o, "node_bytes_per_object_min",
			       spread ? ab_json_num((double)run->mem_free_min *
						    run->mem_trials / n)
				      : NULL);
	json_object_object_add(o, "node_bytes_per_object_max",
			       spread ? ab_json_num((double)run->mem_free_max *
						    run->mem_trials / n)
				      : NULL);
	json_object_object_add(
		o, "node_shared_with_other_cpus",
		json_object_new_boolean(job->concurrent && job->ncpus > 1));
	json_object_object_add(o, "slab_bytes_per_object",
			       ab_json_num((double)run->mem_slab_bytes / n));
	json_object_object_add(
		o, "pagetable_bytes_per_object",
		ab_json_num((double)run->mem_pagetable_bytes / n));
	return o;
}

/*
 * The other CPUs during the row's timed pass (struct ab_cpubusy): null
 * where /proc/stat could not be read.
 */
static json_object *json_other_cpus(const struct ab_row *r)
{
	const struct ab_cpubusy *b = &r->busy;
	int res = ab_cpubusy_resolved(b);
	json_object *o;

	if (!b->known)
		return NULL;
	o = json_object_new_object();
	json_object_object_add(o, "elapsed_ns", ab_json_num(b->elapsed_ns));
	json_object_object_add(o, "passes", json_object_new_int(b->passes));
	json_object_object_add(o, "ticks_per_s", ab_json_num(b->ticks_per_s));
	json_object_object_add(o, "cpus", json_object_new_int(b->cpus));
	/* shorter than a tick: no figure (ab_cpubusy_resolved()) */
	json_object_object_add(o, "busy_pct",
			       ab_json_num(res ? b->busy_pct : NAN));
	json_object_object_add(
		o, "busiest_cpu",
		b->cpus && res ? json_object_new_int(b->busiest_cpu) : NULL);
	json_object_object_add(o, "busiest_pct",
			       b->cpus && res ? ab_json_num(b->busiest_pct)
					      : NULL);
	json_object_object_add(o, "ticked_pct",
			       ab_json_num(res ? b->ticked_pct : NAN));
	json_object_object_add(o, "resolution_pct",
			       ab_json_num(b->resolution_pct));
	json_object_object_add(o, "warning_pct",
			       ab_json_num(AB_CPUBUSY_WARN_PCT));
	json_object_object_add(o, "warns",
			       json_object_new_boolean(ab_cpubusy_warns(b)));
	return o;
}

/*
 * ab_job_busy_lines()'s warnings into the document's warnings (its notes
 * are each result's other_cpus)
 */
static void busy_json_line(const char *text, int warning, const void *ctx)
{
	if (warning)
		json_object_array_add((json_object *)ctx,
				      json_object_new_string(text));
}

/* The non-empty log2 buckets of a phase's per-op ns: [{lo, hi, count}]. */
static json_object *json_histogram(const struct ab_row *r, int p)
{
	json_object *a = json_object_new_array(), *b;
	uint64_t c[AB_HIST_BUCKETS];
	int k;

	ab_histogram_log2(r->ns[p], r->nr_ns[p], c, AB_HIST_BUCKETS);
	for (k = 0; k < AB_HIST_BUCKETS; k++) {
		if (!c[k])
			continue;
		b = json_object_new_object();
		json_object_object_add(
			b, "lo_ns",
			json_object_new_double(k ? ldexp(1, k - 1) : 0));
		json_object_object_add(
			b, "hi_ns",
			k == AB_HIST_BUCKETS - 1
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

/*
 * AB_STRATEGY_RCU rows: the untimed waits after the free phases until the
 * objects were back (ab_run.drain_cycles, drain_max_cycles), in ns; null
 * for the others.
 */
static json_object *rcu_drain(const struct ab_job *job, const struct ab_row *r)
{
	double mean, max;
	json_object *d;

	if (!ab_row_drain_ns(r, &mean, &max))
		return NULL;
	d = json_object_new_object();
	json_object_object_add(d, "mean_ns_per_trial",
			       json_object_new_double(mean));
	json_object_object_add(d, "max_ns", json_object_new_double(max));
	json_object_object_add(d, "late_trials",
			       json_object_new_int64(r->run.drain_late));
	json_object_object_add(
		d, "how",
		json_object_new_string(
			job->session.bi.info.kernel_flags &
					AB_KERNEL_KVFREE_RCU_BARRIER
				? "kvfree_rcu_barrier()"
				: "rcu_barrier()"));
	return d;
}

/*
 * The mempool strategies (AB_PARAM_POOL): the reserve's size (min_nr) and
 * the elements the measured alloc phases took from it, null where not
 * counted (pairs); null for the others.
 */
static json_object *json_mempool(const struct ab_row *r)
{
	const struct ab_run *run = &r->run;
	json_object *m;
	bool split;

	if (!(r->si->params & AB_PARAM_POOL))
		return NULL;
	m = json_object_new_object();
	json_object_object_add(m, "min_nr",
			       json_object_new_int64(run->pool_min));
	/* the trials left out for their unmet condition apart, if told */
	split = run->size >= AB_RUN_SIZE_VER10;
	json_object_object_add(
		m, "from_reserve",
		run->free_pattern == AB_FREE_PAIR
			? NULL
			: json_object_new_int64(
				  (int64_t)(run->pool_from_reserve -
					    (split ? run->pool_reserve_unmet
						   : 0))));
	json_object_object_add(
		m, "from_reserve_unmet",
		run->free_pattern == AB_FREE_PAIR || !split
			? NULL
			: json_object_new_int64(
				  (int64_t)run->pool_reserve_unmet));
	return m;
}

/*
 * Where the checked objects were (ab_run.obj_node, page_to_nid()): the nodes
 * named, most first, those spread over several nodes and those on nodes not
 * named; null from a module that names none.
 */
static json_object *object_nodes(const struct ab_run *run)
{
	json_object *o, *a, *e;
	int i;

	if (run->obj_node[0] < 0 && !run->obj_spread)
		return NULL;
	o = json_object_new_object();
	a = json_object_new_array();
	for (i = 0; i < AB_RUN_OBJ_NODES && run->obj_node[i] >= 0; i++) {
		e = json_object_new_object();
		json_object_object_add(e, "node",
				       json_object_new_int(run->obj_node[i]));
		json_object_object_add(
			e, "objects",
			json_object_new_int64((int64_t)run->obj_node_objs[i]));
		json_object_array_add(a, e);
	}
	json_object_object_add(o, "nodes", a);
	json_object_object_add(o, "spread",
			       json_object_new_int64((int64_t)run->obj_spread));
	json_object_object_add(
		o, "elsewhere",
		json_object_new_int64((int64_t)ab_obj_elsewhere(run)));
	return o;
}

/* a memory cgroup figure, null where the kernel has no such file */
static json_object *memcg_num(uint64_t v)
{
	return v == UINT64_MAX ? NULL : json_object_new_int64((int64_t)v);
}

/*
 * --memcg: the cgroup's figures before the row's timed pass and after its
 * last pass (runner.c), as the kernel's files gave them; null without.
 */
static json_object *json_memcg(const struct ab_row *r)
{
	static const char *const when[] = { "before", "after" };
	json_object *o, *w;
	int k;

	if (!r->mc_read)
		return NULL;
	o = json_object_new_object();
	for (k = 0; k < 2; k++) {
		w = json_object_new_object();
		json_object_object_add(w, "current_bytes",
				       memcg_num(r->mc[k].current));
		json_object_object_add(w, "slab_bytes",
				       memcg_num(r->mc[k].slab));
		json_object_object_add(w, "kernel_bytes",
				       memcg_num(r->mc[k].kernel));
		json_object_object_add(w, "peak_bytes",
				       memcg_num(r->mc[k].peak));
		json_object_object_add(o, when[k], w);
	}
	return o;
}

/*
 * How the checked vmalloc areas were mapped (ab_run.map_pages, the page
 * tables' leaf entries by size); null where no area was checked.
 */
static json_object *mapping(const struct ab_run *run)
{
	json_object *o;

	if (!run->map_areas)
		return NULL;
	o = json_object_new_object();
	json_object_object_add(o, "areas",
			       json_object_new_int64((int64_t)run->map_areas));
	json_object_object_add(
		o, "pages_4k",
		json_object_new_int64((int64_t)run->map_pages[AB_MAP_4K]));
	json_object_object_add(
		o, "pages_2m",
		json_object_new_int64((int64_t)run->map_pages[AB_MAP_2M]));
	json_object_object_add(
		o, "pages_1g",
		json_object_new_int64((int64_t)run->map_pages[AB_MAP_1G]));
	return o;
}

static json_object *json_row(const struct ab_job *job, const struct ab_row *r)
{
	const struct ab_run *run = &r->run;
	json_object *o = json_object_new_object(), *ev, *e;
	const char *gfp;
	int i;

	json_object_object_add(o, "kind", json_object_new_string("alloc"));
	json_object_object_add(o, "strategy",
			       json_object_new_string(r->si->name));
	/* the API as the backend names it: which spelling ran here */
	json_object_object_add(o, "api", json_object_new_string(r->si->desc));
	json_object_object_add(o, "label", json_object_new_string(r->label));
	json_object_object_add(o, "object_bytes",
			       json_object_new_int64((int64_t)ab_run_obj_bytes(
				       run, job->session.bi.info.page_size)));
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
	json_object_object_add(o, "rcu_drain", rcu_drain(job, r));
	json_object_object_add(o, "mempool", json_mempool(r));
	/* --sheaves: the capacity asked for, 0 for none, null for default */
	json_object_object_add(
		o, "sheaves",
		run->flags & AB_RUN_SHEAVES
			? json_object_new_int64(run->sheaf_capacity)
			: NULL);
	/* the GFP flags it allocated with, null where none apply */
	gfp = ab_row_gfp(job, r);
	json_object_object_add(o, "gfp",
			       gfp ? json_object_new_string(gfp) : NULL);
	json_object_object_add(o, "lookup",
			       r->si->params & AB_PARAM_LOOKUP
				       ? json_object_new_string(ab_lookup_name(
						 run->lookup_method))
				       : NULL);
	json_object_object_add(o, "objects",
			       json_object_new_int64((int64_t)run->objects));
	json_object_object_add(o, "failed",
			       json_object_new_int64((int64_t)run->failed));
	json_object_object_add(o, "success", ab_row_success_json(r));
	json_object_object_add(o, "condition", ab_row_condition_json(r));
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
	json_object_object_add(o, "object_nodes", object_nodes(run));
	json_object_object_add(o, "mapping", mapping(run));
	json_object_object_add(
		o, "cache_merged",
		json_object_new_string(merged_name(run->cache_merged)));
	json_object_object_add(
		o, "clock_cycles",
		json_object_new_int64((int64_t)run->clock_cycles));
	ab_json_disturbed(o, job, run);
	json_object_object_add(o, "memory", json_memory(job, r));
	json_object_object_add(o, "charged",
			       json_object_new_boolean(ab_row_charges(job, r)));
	json_object_object_add(o, "memcg", json_memcg(r));
	json_object_object_add(o, "tsc_khz",
			       json_object_new_int64(run->tsc_khz));
	json_object_object_add(
		o, "values",
		json_object_new_string(
			r->subtract[0] || r->subtract[1] ? "net" : "raw"));
	json_object_object_add(o, "wall_ns", ab_json_num(r->wall_ns));
	json_object_object_add(o, "timed_ns", ab_json_num(ab_row_timed_ns(r)));
	json_object_object_add(o, "other_cpus", json_other_cpus(r));
	json_object_object_add(o, "alloc", json_phase(r, 0));
	json_object_object_add(
		o, "free",
		r->nr_ns[1] || !(run->free_pattern == AB_FREE_PAIR &&
				 run->timing == AB_TIMING_BATCH)
			? json_phase(r, 1)
			: NULL);
	ev = json_object_new_array();
	for (i = 0; i < job->session.counters.n; i++) {
		const struct ab_event *c = &job->session.counters.ev[i];

		e = json_object_new_object();
		json_object_object_add(e, "event",
				       json_object_new_string(c->name));
		json_object_object_add(e, "encoding",
				       json_object_new_string(c->fstr));
		json_object_object_add(
			e, "source",
			json_object_new_string(ab_counter_source(c)));
		json_object_object_add(e, "per_op", ab_json_num(r->ev_raw[i]));
		json_object_object_add(e, "net_per_op",
				       ab_json_num(r->ev_net[i]));
		json_object_array_add(ev, e);
	}
	json_object_object_add(o, "counters", ev);
	json_object_object_add(o, "explain", json_explain(job, r));
	json_object_object_add(o, "profile", ab_row_profile_json(r));
	json_object_object_add(o, "paths", ab_row_paths_json(r));
	return o;
}

json_object *ab_job_json(const struct ab_job *job)
{
	const struct ab_run_opts *o = &job->run_opts;
	json_object *root = ab_json_envelope(job->title, (time_t)ab_out.start);
	json_object *par, *res, *cpus, *notes;
	char kn[AB_MAX_ROWS][AB_NOTE_LEN];
	json_object *warnings;
	char none[128];
	const char *gfp;
	int i, n;

	json_object_object_add(root, "end", ab_json_time(time(NULL)));
	json_object_object_add(root, "module",
			       ab_session_json_module(&job->session));
	json_object_object_add(
		root, "environment",
		ab_json_env(&job->session.env, job->session.bi.info.tsc_khz));
	par = json_object_new_object();
	json_object_object_add(par, "batch", json_object_new_int64(o->batch));
	json_object_object_add(par, "trials", json_object_new_int64(o->trials));
	json_object_object_add(par, "warmup", json_object_new_int64(o->warmup));
	/* null where no row takes GFP flags (ab_job_gfp()) */
	gfp = ab_job_gfp(job, none, sizeof(none));
	json_object_object_add(par, "gfp",
			       gfp ? json_object_new_string(gfp) : NULL);
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
	{
		char cond[64];

		json_object_object_add(
			par, "condition",
			json_object_new_string(ab_condition_name(
				o->condition, cond, sizeof(cond))));
	}
	json_object_object_add(
		par, "background",
		o->background ? json_object_new_string(o->background) : NULL);
	json_object_object_add(par, "fifo", json_object_new_boolean(job->fifo));
	json_object_object_add(par, "fifo_priority",
			       job->fifo ? json_object_new_int(AB_FIFO_PRIORITY)
					 : NULL);
	json_object_object_add(
		par, "fifo_policy",
		job->fifo ? json_object_new_string(ab_fifo_policy_name(job))
			  : NULL);
	json_object_object_add(par, "raw", json_object_new_boolean(job->raw));
	json_object_object_add(par, "explain",
			       json_object_new_boolean(job->explain));
	json_object_object_add(
		par, "drop_disturbed",
		json_object_new_boolean(job->run_opts.drop_disturbed));
	/* counts from a separate pass after the timed one (runner.c) */
	json_object_object_add(
		par, "counting_pass",
		json_object_new_boolean(job->session.counters.n > 0));
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
	json_object_object_add(
		par, "memcg",
		ab_memcg_mode() ? json_object_new_string(
					  ab_memcg_mode_name(ab_memcg_mode()))
				: NULL);
	json_object_object_add(par, "memcg_path",
			       ab_memcg_mode()
				       ? json_object_new_string(ab_memcg_path())
				       : NULL);
	cpus = json_object_new_array();
	for (i = 0; i < job->ncpus; i++)
		json_object_array_add(cpus, json_object_new_int(job->cpus[i]));
	json_object_object_add(par, "cpus", cpus);
	json_object_object_add(par, "cpu_given",
			       json_object_new_boolean(job->cpu_given));
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
	n = ab_job_kernel_notes(job, kn, AB_MAX_ROWS);
	for (i = 0; i < n; i++)
		json_object_array_add(notes, json_object_new_string(kn[i]));
	/* as the text's: a baseline on too few trials, a net below zero */
	n = ab_job_net_notes(job, kn, AB_MAX_ROWS);
	for (i = 0; i < n; i++)
		json_object_array_add(notes, json_object_new_string(kn[i]));
	/* runs cut short, as the text's notes say (trials_done has it too) */
	for (i = 0; i < job->nrows; i++) {
		const struct ab_row *r = &job->rows[i];
		char line[160];

		if (!r->ran || r->run.trials_done >= r->run.trials)
			continue;
		snprintf(line, sizeof(line),
			 "%s: interrupted after %u of %u %s", r->label,
			 r->run.trials_done, r->run.trials,
			 ab_noun(r->run.trials, "trial", "trials"));
		json_object_array_add(notes, json_object_new_string(line));
	}
	warnings = json_object_new_array();
	ab_job_busy_lines(job, 0, busy_json_line, warnings);
	json_object_object_add(root, "notes", notes);
	json_object_object_add(root, "warnings", warnings);
	return root;
}
