/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * explain.h - --explain: the allocators' own internal paths to count for
 * each kind of strategy (kprobes and tracepoints, lib/counters.c), checked
 * against the running kernel, and the per-op figures that explain where a
 * strategy's time goes.
 */
#ifndef AB_EXPLAIN_H
#define AB_EXPLAIN_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <linux/allocbench.h>

/* What a strategy calls, for choosing the paths that explain it. */
enum ab_family {
	AB_FAMILY_NONE = 0,	/* the baseline; user-space allocators */
	AB_FAMILY_SLAB = 1,	/* kmalloc and kmem_cache strategies */
	AB_FAMILY_PAGE = 2,	/* the page allocator */
	AB_FAMILY_VMALLOC = 4,	/* vmalloc */
	AB_FAMILY_KVMALLOC = 8, /* kvmalloc: slab, then vmalloc */
	/*
	 * not a strategy's: the job runs in a memory cgroup (--memcg), and
	 * the memcg paths are counted for every row of the families above
	 */
	AB_FAMILY_MEMCG = 16,
	AB_FAMILY_PERCPU = 32,	/* the per-CPU chunk allocator */
	AB_FAMILY_MEMPOOL = 64, /* a mempool over kmalloc */
	AB_FAMILY_FRAG = 128,	/* a page_frag_cache over the page allocator */
	AB_FAMILY_CMA = 256,	/* a CMA area: cma_alloc() */
};

/* every path of explain.c's two tables at once (a static assert there) */
#define AB_EXPLAIN_MAX 48

/**
 * struct ab_explain_path - one internal path and how it is counted
 * @label:    what it is, as printed ("slab slow path")
 * @families: enum ab_family bits of the strategies it explains
 * @event:    the event counted, the first of the path's spellings this
 *            kernel has (kprobe:FUNC in /proc/kallsyms, SUBSYS:EVENT in
 *            tracefs); "" when none
 * @minus:    "" or an event whose count is taken from @event's: the
 *            path is @event's calls less @minus's (both per op)
 * @why:      where the path is in the kernel
 * @frees:    a path of the free phase (run by the task that frees)
 * @elsewhere: @frees, and the frees ran on another CPU (--free-cpu): the
 *            counters, this thread's, never saw them (ab_explain_net()
 *            gives NAN)
 */
struct ab_explain_path {
	const char *label;
	unsigned int families;
	char event[64];
	char minus[64];
	const char *why;
	int frees;
	int elsewhere;
};

/**
 * struct ab_explain - the paths of one job
 * @path:   every path this kernel can count for the job's families
 * @n:      how many
 * @missing: labels of the paths this kernel has no spelling of (text for
 *          a note, "" when none)
 */
struct ab_explain {
	struct ab_explain_path path[AB_EXPLAIN_MAX];
	int n;
	char missing[512];
};

/*
 * ab_family_of - the family of a strategy from its ab_strategy_info
 * (@flags: AB_STRATEGY_MEM_* and AB_STRATEGY_BASELINE; @params:
 * AB_PARAM_ORDER) as the module reports it.
 */
unsigned int ab_family_of(uint32_t flags, uint32_t params);

/*
 * ab_explain_select - the paths for the families in @families, each with
 * the first spelling @has() says exists (@has(name) is 1 when the running
 * kernel can count event @name). Fills @ex; returns how many paths.
 */
int ab_explain_select(struct ab_explain *ex, unsigned int families,
		      int (*has)(const char *event));

/*
 * ab_explain_frees_elsewhere - the frees of the job run on another CPU
 * (--free-cpu): mark @ex's free-phase paths as counted elsewhere, so that
 * ab_explain_net() has no figure for them (not 0: a count of frees the
 * counters never saw). Returns how many were marked.
 */
int ab_explain_frees_elsewhere(struct ab_explain *ex);

struct ab_counters;

/*
 * ab_explain_net - path @p's count per op from a row's per-event figures
 * @ev_net (indexed as @c's events): its event's, less its @minus event's
 * when it has one; NAN when an event it needs did not open or count, or
 * for a free path whose frees ran elsewhere (@p->elsewhere).
 */
double ab_explain_net(const struct ab_explain_path *p,
		      const struct ab_counters *c, const double *ev_net);

/*
 * ab_explain_event_text - what @p counts as one string ("EVENT", or
 * "EVENT - MINUS") into @buf, for tables and JSON.
 */
void ab_explain_event_text(const struct ab_explain_path *p, char *buf,
			   size_t len);

/*
 * ab_explain_notes - the notes that go with one row's figures, on @f:
 * @val[k] is path k of @ex per op for the row (ab_explain_net(), NAN when
 * not counted), @fam its families, @obj_size its object in bytes and
 * @page the page size. A note only where a figure needs one: 'page
 * allocations' below the allocations the row made (kmem:mm_page_alloc
 * misses the bulk path, which vmalloc uses for order-0 pages and
 * alloc_pages_bulk is), more than one vmap area per op where the page
 * array is vmalloc'd too, no lazy purge counted on this thread (a kworker
 * purges). Returns how many notes.
 */
int ab_explain_notes(const struct ab_explain *ex, const char *label,
		     unsigned int fam, uint64_t obj_size, uint64_t page,
		     const double *val, FILE *f);

/*
 * ab_explain_events - @ex's events, comma-separated, after @extra (the
 * user's own --events list, or NULL) into @buf. Returns 0, or -1 when
 * it does not fit in @len.
 */
int ab_explain_events(const struct ab_explain *ex, const char *extra, char *buf,
		      size_t len);

/*
 * ab_events_twice - the first event the comma-separated --events @list
 * names twice (spelled the same, a second time) into @dup: 1; 0 when
 * each is named once. The CLI refuses such a list (exit status 2); an
 * event --explain counts and --events names too is counted once.
 */
int ab_events_twice(const char *list, char *dup, size_t len);

#endif
