// SPDX-License-Identifier: GPL-2.0-only
/*
 * explain.c - the internal paths --explain counts (see explain.h). Each
 * path lists its spellings in order of preference; the first the running
 * kernel has is counted, so 6.1 and 6.12 each get the set that exists
 * (6.12 renamed the allocation entry points with _noprof, memory
 * allocation profiling; static functions may be inlined away, and then
 * no spelling exists and the path is named as not counted).
 */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "counters.h"
#include "explain.h"

#define SLAB	 AB_FAMILY_SLAB
#define PAGE	 AB_FAMILY_PAGE
#define VMALLOC	 AB_FAMILY_VMALLOC
#define KVMALLOC AB_FAMILY_KVMALLOC
#define MEMCG	 AB_FAMILY_MEMCG
#define PERCPU	 AB_FAMILY_PERCPU
#define MEMPOOL	 AB_FAMILY_MEMPOOL
#define FRAG	 AB_FAMILY_FRAG
#define CMA	 AB_FAMILY_CMA
/* every family whose allocations may take pages from the page allocator */
#define ALLOCS \
	(SLAB | PAGE | VMALLOC | KVMALLOC | PERCPU | MEMPOOL | FRAG | CMA)

struct path_def {
	const char *label;
	unsigned int families;
	const char *spellings[3];
	const char *why;
	const char *minus[3];
};

static const struct path_def paths[] = {
	{ "slab slow path",
	  SLAB | KVMALLOC | MEMPOOL,
	  { "kprobe:___slab_alloc" },
	  "mm/slub.c: ___slab_alloc() calls: no free object in the per-CPU freelist, or the slab on another node; on PREEMPT_RT every slab allocation (no lockless fast path, USE_LOCKLESS_FAST_PATH()); with sheaves (every cache from 7.0) only once the sheaves could not serve it",
	  { NULL } },
	{ "slab refill",
	  SLAB | KVMALLOC | MEMPOOL,
	  { "kprobe:___slab_alloc(c->freelist==NULL)" },
	  "mm/slub.c: ___slab_alloc() entered with the per-CPU freelist empty: the per-CPU slab refilled (its remote frees, the per-CPU or node partial lists, or a new slab), on PREEMPT_RT as elsewhere",
	  { NULL } },
	/*
	 * The per-CPU sheaves (6.18 opt-in per cache, 7.0 every cache): the
	 * names are 7.3's mm/slub.c, seen in its kallsyms and counted on a
	 * kmalloc-4k run (docs/architecture.md, issue 24). There the slab
	 * paths above no longer run on allocation: ___slab_alloc() is the
	 * path of caches without sheaves.
	 */
	{ "sheaf empty",
	  SLAB | KVMALLOC | MEMPOOL,
	  { "kprobe:__pcs_replace_empty_main" },
	  "mm/slub.c (6.18+): __pcs_replace_empty_main(), an allocation found the CPU's main sheaf empty: swapped for the spare, a full sheaf from the node's barn, or refilled; about once per sheaf_capacity allocations",
	  { NULL } },
	{ "barn get",
	  SLAB | KVMALLOC | MEMPOOL,
	  { "kprobe:barn_replace_empty_sheaf" },
	  "mm/slub.c (6.18+): barn_replace_empty_sheaf(), the empty main sheaf given to the node's barn for a full one",
	  { NULL } },
	{ "sheaf refill",
	  SLAB | KVMALLOC | MEMPOOL,
	  { "kprobe:refill_objects", "kprobe:refill_sheaf" },
	  "mm/slub.c (7.x refill_objects(), 6.18 refill_sheaf()): objects taken from the node's partial slabs or new slabs into a sheaf (7.x: a bulk allocation too)",
	  { NULL } },
	{ "sheaf full",
	  SLAB | KVMALLOC | MEMPOOL,
	  { "kprobe:__pcs_replace_full_main" },
	  "mm/slub.c (6.18+): __pcs_replace_full_main(), a free found the CPU's main sheaf full: swapped for the spare or an empty sheaf from the barn, or flushed",
	  { NULL } },
	{ "barn put",
	  SLAB | KVMALLOC | MEMPOOL,
	  { "kprobe:barn_put_full_sheaf" },
	  "mm/slub.c (6.18+): barn_put_full_sheaf(), a full sheaf handed to the node's barn",
	  { NULL } },
	{ "sheaf flush",
	  SLAB | KVMALLOC | MEMPOOL,
	  { "kprobe:__sheaf_flush_main_batch", "kprobe:sheaf_flush_main" },
	  "mm/slub.c (6.18+): the main sheaf's objects freed back to their slabs, the barn holding all the full sheaves it takes",
	  { NULL } },
	{ "new slab",
	  SLAB | KVMALLOC | MEMPOOL,
	  { "kprobe:allocate_slab", "kprobe:new_slab" },
	  "mm/slub.c: allocate_slab(), a slab's pages from the page allocator",
	  { NULL } },
	{ "slow free",
	  SLAB | KVMALLOC | MEMPOOL,
	  { "kprobe:__slab_free" },
	  "mm/slub.c: __slab_free(), a free off the per-CPU fast path",
	  { NULL } },
	{ "per-CPU list refill",
	  PAGE | FRAG,
	  { "kprobe:rmqueue_bulk" },
	  "mm/page_alloc.c: rmqueue_bulk(), per-CPU pages from the buddy lists under zone->lock",
	  { NULL } },
	{ "per-CPU list drain",
	  PAGE | FRAG,
	  { "kprobe:free_pcppages_bulk" },
	  "mm/page_alloc.c: free_pcppages_bulk(), per-CPU pages back to the buddy lists",
	  { NULL } },
	{ "zone-locked pages",
	  PAGE | FRAG,
	  { "kmem:mm_page_alloc_zone_locked" },
	  "include/trace/events/kmem.h: a page taken from the buddy lists with zone->lock held",
	  { NULL } },
	{ "page alloc slow path",
	  PAGE | FRAG,
	  { "kprobe:__alloc_pages_slowpath" },
	  "mm/page_alloc.c: __alloc_pages_slowpath(), reclaim, compaction, kswapd",
	  { NULL } },
	/*
	 * The page allocator's slow path under a memory condition (issue
	 * 25): its tracepoints, each in the allocating task, so counted per
	 * op. Whether compaction succeeded and how many pages reclaim took
	 * are in /proc/vmstat (compact_success, pgsteal_direct), which the
	 * --condition report shows over the trials.
	 */
	{ "compaction tried",
	  SLAB | PAGE | KVMALLOC | MEMPOOL | FRAG,
	  { "compaction:mm_compaction_try_to_compact_pages" },
	  "mm/compaction.c: try_to_compact_pages(), direct compaction asked for by a costly or failed allocation (__alloc_pages_direct_compact())",
	  { NULL } },
	{ "compaction run",
	  SLAB | PAGE | KVMALLOC | MEMPOOL | FRAG,
	  { "compaction:mm_compaction_begin" },
	  "mm/compaction.c: compact_zone() began a pass over a zone (direct compaction here; kcompactd's run in its own thread and are not counted)",
	  { NULL } },
	{ "direct reclaim",
	  ALLOCS,
	  { "vmscan:mm_vmscan_direct_reclaim_begin" },
	  "mm/vmscan.c: try_to_free_pages(), the allocating task reclaiming pages itself (__alloc_pages_direct_reclaim())",
	  { NULL } },
	{ "kswapd woken",
	  ALLOCS,
	  { "vmscan:mm_vmscan_wakeup_kswapd" },
	  "mm/vmscan.c: wakeup_kswapd(), an allocation found a zone under its low watermark",
	  { NULL } },
	{ "migratetype fallback",
	  SLAB | PAGE | VMALLOC | KVMALLOC | PERCPU | MEMPOOL | FRAG,
	  { "kmem:mm_page_alloc_extfrag" },
	  "mm/page_alloc.c: a block stolen from another migratetype's free lists (steal_suitable_fallback() and its kin): the fragmentation events of a fragmented node",
	  { NULL } },
	{ "vmalloc fallback",
	  KVMALLOC,
	  { "kprobe:__vmalloc_node_range_noprof",
	    "kprobe:__vmalloc_node_range" },
	  "mm/util.c: kvmalloc_node() falling back to vmalloc, which calls __vmalloc_node_range() itself: its calls less those through __vmalloc_node(), the way mm/vmalloc.c's __vmalloc_area_node() vmallocs a page array above a page",
	  { "kprobe:__vmalloc_node_noprof", "kprobe:__vmalloc_node" } },
	{ "vmap areas",
	  VMALLOC | KVMALLOC,
	  { "kprobe:alloc_vmap_area" },
	  "mm/vmalloc.c: alloc_vmap_area(), a range of kernel address space",
	  { NULL } },
	{ "lazy purge",
	  VMALLOC | KVMALLOC,
	  { "kprobe:__purge_vmap_area_lazy" },
	  "mm/vmalloc.c: __purge_vmap_area_lazy(), freed areas unmapped in a batch",
	  { NULL } },
	{ "kernel TLB flush",
	  VMALLOC | KVMALLOC,
	  { "kprobe:flush_tlb_kernel_range" },
	  "arch/x86/mm/tlb.c: flush_tlb_kernel_range(), what the purge of freed vmap areas calls (the tlb:tlb_flush tracepoint fires for user address spaces and task switches only, never for a kernel range)",
	  { NULL } },
	/*
	 * How an area is mapped (vmalloc_huge, kvmalloc from 2 MiB up):
	 * __vmap_pages_range_noflush() maps 4 KiB pages with
	 * vmap_small_pages_range_noflush(), once per area, and each larger
	 * page with vmap_range_noflush(), whose PMD step is
	 * vmap_try_huge_pmd() (mm/vmalloc.c; the names of 6.1 to 7.3).
	 */
	{ "huge page maps",
	  VMALLOC | KVMALLOC,
	  { "kprobe:vmap_range_noflush" },
	  "mm/vmalloc.c: vmap_range_noflush(), one call per huge page of an area allowed them (VM_ALLOW_HUGE_VMAP): its PMD entry set by vmap_try_huge_pmd()",
	  { NULL } },
	{ "small page maps",
	  VMALLOC | KVMALLOC,
	  { "kprobe:vmap_small_pages_range_noflush" },
	  "mm/vmalloc.c: vmap_small_pages_range_noflush(), an area (or its remainder) mapped with 4 KiB pages: every vmalloc area, and a huge one whose pages fell back to 4 KiB",
	  { NULL } },
	{ "page-table page",
	  VMALLOC | KVMALLOC,
	  { "kprobe:__pte_alloc_kernel" },
	  "mm/memory.c: __pte_alloc_kernel(), a kernel page-table page for new mappings",
	  { NULL } },
	/*
	 * The per-CPU chunk allocator (mm/percpu.c, mm/percpu-vm.c), a
	 * mempool's own calls (mm/mempool.c) and a page_frag_cache's refill
	 * (mm/page_alloc.c 6.1, mm/page_frag_cache.c 6.12 on): pcpu_balance_
	 * workfn(), which populates and frees chunks ahead, runs in a kworker
	 * that the counters of the calling thread do not see.
	 */
	{ "pcpu new chunk",
	  PERCPU,
	  { "kprobe:pcpu_create_chunk" },
	  "mm/percpu-vm.c: pcpu_create_chunk(), no chunk had room: a new one's vmap areas (pcpu_get_vm_areas()) made by the allocating task (GFP_KERNEL only)",
	  { NULL } },
	{ "pcpu populate",
	  PERCPU,
	  { "kprobe:pcpu_populate_chunk" },
	  "mm/percpu-vm.c: pcpu_populate_chunk(), pages allocated and mapped for every possible CPU's unit of a region the object lands in (GFP_KERNEL only; atomic requests take populated pages alone)",
	  { NULL } },
	{ "pool allocator",
	  MEMPOOL,
	  { "kprobe:mempool_kmalloc" },
	  "mm/mempool.c: mempool_kmalloc(), mempool_alloc() trying the pool's allocator (kmalloc) first, without direct reclaim; per op below 1 where the reserve served the rest",
	  { NULL } },
	{ "pool free",
	  MEMPOOL,
	  { "kprobe:mempool_kfree" },
	  "mm/mempool.c: mempool_kfree(), mempool_free() giving an element to kfree() because the reserve was full (else it refills the reserve)",
	  { NULL } },
	{ "frag refill",
	  FRAG,
	  { "kprobe:__page_frag_cache_refill" },
	  "mm/page_frag_cache.c (6.1: mm/page_alloc.c): __page_frag_cache_refill(), the cache's page used up: a new 32 KiB page (order 3, __GFP_NORETRY), or one page when that fails",
	  { NULL } },
	/*
	 * cma_alloc() (mm/cma.c): a free range of the area's bitmap, then
	 * alloc_contig_range() (mm/page_alloc.c: isolate, migrate, take),
	 * the next range when that one is busy.
	 */
	{ "contig range",
	  CMA,
	  { "kprobe:alloc_contig_frozen_range_noprof",
	    "kprobe:alloc_contig_range_noprof", "kprobe:alloc_contig_range" },
	  "mm/page_alloc.c: alloc_contig_range() (7.x: alloc_contig_frozen_range(), which cma_alloc() calls), a range of the CMA area isolated, its movable pages migrated away and the range taken; more than one per op when a range was busy",
	  { NULL } },
	{ "busy range",
	  CMA,
	  { "cma:cma_alloc_busy_retry" },
	  "mm/cma.c: alloc_contig_range() found the range busy (-EBUSY: a page it could not isolate or migrate) and cma_alloc() tries the next one",
	  { NULL } },
	{ "migrations",
	  CMA,
	  { "migrate:mm_migrate_pages" },
	  "mm/migrate.c: migrate_pages() ended a pass, the pages in use moved out of the range (the allocation's own task: __alloc_contig_migrate_range())",
	  { NULL } },
	{ "CMA releases",
	  CMA,
	  { "cma:cma_release" },
	  "mm/cma.c: cma_release(), the pages freed and their bits cleared in the area's bitmap",
	  { NULL } },
	{ "page allocations",
	  ALLOCS,
	  { "kmem:mm_page_alloc" },
	  "include/trace/events/kmem.h: each allocation of the page allocator's one-at-a-time path; the bulk path (alloc_pages_bulk, which vmalloc uses for its pages) fires none",
	  { NULL } },
};

/*
 * Memory cgroup accounting (issue 43), counted only in a job that runs in
 * a memory cgroup (AB_FAMILY_MEMCG), for every row of the families named,
 * so that a row that charges nothing reads 0.00 beside one that does. The
 * names are in /proc/kallsyms of 6.1 and 7.3 (the slab hooks out of line
 * in mm/memcontrol.c since 6.10); where one is inlined the path is named
 * as not counted.
 */
static const struct path_def memcg_paths[] = {
	{ "memcg slab charge",
	  SLAB | KVMALLOC,
	  { "kprobe:__memcg_slab_post_alloc_hook", "kprobe:obj_cgroup_charge" },
	  "mm/memcontrol.c: a charged slab allocation (__GFP_ACCOUNT or a SLAB_ACCOUNT cache) charging the object's bytes to its obj_cgroup: __memcg_slab_post_alloc_hook() (6.10+), obj_cgroup_charge() from memcg_slab_pre_alloc_hook() before",
	  { NULL } },
	{ "memcg slab uncharge",
	  SLAB | KVMALLOC,
	  { "kprobe:__memcg_slab_free_hook", "kprobe:obj_cgroup_uncharge" },
	  "mm/memcontrol.c: the free of a charged slab object giving its bytes back to the per-CPU obj_cgroup stock: __memcg_slab_free_hook() (6.10+), obj_cgroup_uncharge() before",
	  { NULL } },
	{ "memcg page charge",
	  SLAB | PAGE | KVMALLOC,
	  { "kprobe:__memcg_kmem_charge_page" },
	  "mm/memcontrol.c: __memcg_kmem_charge_page(), a charged block of pages (the page allocator with __GFP_ACCOUNT, kmalloc above the largest slab class)",
	  { NULL } },
	{ "objcg stock refill",
	  SLAB | KVMALLOC,
	  { "kprobe:__refill_obj_stock", "kprobe:refill_obj_stock" },
	  "mm/memcontrol.c: bytes put into the CPU's obj_cgroup stock: every uncharge of a slab object, and the rest of the page a charge took when the stock lacked the bytes (once the stock holds more than a page, whole pages go back to the memcg)",
	  { NULL } },
	{ "memcg try charge",
	  SLAB | PAGE | KVMALLOC,
	  { "kprobe:try_charge_memcg" },
	  "mm/memcontrol.c: try_charge_memcg(), pages charged to the memcg: a slab charge that the CPU's obj_cgroup stock could not serve (about once per page of objects), or a charged block of pages; served from the CPU's page stock when it holds enough",
	  { NULL } },
	{ "memcg stock refill",
	  SLAB | PAGE | KVMALLOC,
	  { "kprobe:refill_stock" },
	  "mm/memcontrol.c: refill_stock(), pages put into the CPU's memcg page stock: the rest of a MEMCG_CHARGE_BATCH charge, or pages uncharged",
	  { NULL } },
	{ "page counter charge",
	  SLAB | PAGE | KVMALLOC,
	  { "kprobe:page_counter_try_charge" },
	  "mm/page_counter.c: page_counter_try_charge(), the CPU's page stock empty: a batch (MEMCG_CHARGE_BATCH, 64 pages, or more) charged to the memcg and its ancestors, the atomic counters every CPU shares",
	  { NULL } },
};

/* The paths above that the freeing task runs: the free phase's. */
static const char *const free_paths[] = {
	"sheaf full",	      "barn put",
	"sheaf flush",	      "slow free",
	"per-CPU list drain", "lazy purge",
	"kernel TLB flush",   "memcg slab uncharge",
	"pool free",	      "CMA releases",
};

static int frees_path(const char *label)
{
	size_t i;

	for (i = 0; i < sizeof(free_paths) / sizeof(free_paths[0]); i++)
		if (!strcmp(free_paths[i], label))
			return 1;
	return 0;
}

unsigned int ab_family_of(uint32_t flags, uint32_t params)
{
	if (flags & AB_STRATEGY_BASELINE)
		return AB_FAMILY_NONE;
	switch (flags & AB_STRATEGY_MEM_MASK) {
	case AB_STRATEGY_MEM_KMALLOC:
	case AB_STRATEGY_MEM_CACHE:
	case AB_STRATEGY_MEM_BUCKETS:
		return AB_FAMILY_SLAB;
	case AB_STRATEGY_MEM_VMALLOC:
	case AB_STRATEGY_MEM_VMALLOC_HUGE:
		return AB_FAMILY_VMALLOC;
	case AB_STRATEGY_MEM_CMA:
		return AB_FAMILY_CMA;
	case AB_STRATEGY_MEM_KVMALLOC:
		return AB_FAMILY_KVMALLOC;
	case AB_STRATEGY_MEM_PERCPU:
		return AB_FAMILY_PERCPU;
	case AB_STRATEGY_MEM_MEMPOOL:
		return AB_FAMILY_MEMPOOL;
	case AB_STRATEGY_MEM_FRAG:
		return AB_FAMILY_FRAG;
	default:
		return params & AB_PARAM_ORDER ? AB_FAMILY_PAGE
					       : AB_FAMILY_NONE;
	}
}

/*
 * select_path - path @d into @ex when the kernel can count it (@has),
 * else its label into @ex->missing at @used.
 */
static void select_path(struct ab_explain *ex, const struct path_def *d,
			int (*has)(const char *event), size_t *used)
{
	struct ab_explain_path *p = &ex->path[ex->n];
	size_t s, m;

	for (s = 0; s < 3 && d->spellings[s]; s++)
		if (has(d->spellings[s]))
			break;
	for (m = 0; m < 3 && d->minus[m]; m++)
		if (has(d->minus[m]))
			break;
	if (s == 3 || !d->spellings[s] ||
	    (d->minus[0] && (m == 3 || !d->minus[m]))) {
		*used += (size_t)snprintf(ex->missing + *used,
					  *used < sizeof(ex->missing)
						  ? sizeof(ex->missing) - *used
						  : 0,
					  "%s%s (%s)", *used ? ", " : "",
					  d->label, d->spellings[0]);
		return;
	}
	p->label = d->label;
	p->families = d->families;
	p->why = d->why;
	p->frees = frees_path(p->label);
	snprintf(p->event, sizeof(p->event), "%s", d->spellings[s]);
	if (d->minus[0])
		snprintf(p->minus, sizeof(p->minus), "%s", d->minus[m]);
	ex->n++;
}

/* a job whose rows span every family selects every path: none is dropped */
_Static_assert(sizeof(paths) / sizeof(paths[0]) +
			       sizeof(memcg_paths) / sizeof(memcg_paths[0]) <=
		       AB_EXPLAIN_MAX,
	       "AB_EXPLAIN_MAX below the paths of both tables");

int ab_explain_select(struct ab_explain *ex, unsigned int families,
		      int (*has)(const char *event))
{
	size_t i, used = 0;

	memset(ex, 0, sizeof(*ex));
	for (i = 0;
	     i < sizeof(paths) / sizeof(paths[0]) && ex->n < AB_EXPLAIN_MAX;
	     i++)
		if (paths[i].families & families)
			select_path(ex, &paths[i], has, &used);
	for (i = 0; (families & MEMCG) &&
		    i < sizeof(memcg_paths) / sizeof(memcg_paths[0]) &&
		    ex->n < AB_EXPLAIN_MAX;
	     i++)
		if (memcg_paths[i].families & families)
			select_path(ex, &memcg_paths[i], has, &used);
	return ex->n;
}

/*
 * Whether event @name is spelled with its case: kprobes (kernel symbols)
 * and tracepoints (tracefs directories, "subsys:event") are; hardware and
 * software events and libpfm4's PMU::EVENT names are not (libpfm4 matches
 * names case-insensitively; perf's generic names too), nor their
 * modifiers (":u", ":k", ...).
 */
static int case_matters(const char *name)
{
	const char *c = strrchr(name, ':');

	if (!strncmp(name, "kprobe:", 7))
		return 1;
	if (!c || strstr(name, "::"))
		return 0;
	return strspn(c + 1, "ukhGHpPS") != strlen(c + 1);
}

/* Whether the comma-separated @list names @name (as case_matters()). */
static int names(const char *list, const char *name)
{
	size_t n = strlen(name);
	const char *p = list;
	int cs = case_matters(name);

	while (p && *p) {
		if (!(cs ? strncmp(p, name, n) : strncasecmp(p, name, n)) &&
		    (p[n] == ',' || !p[n]))
			return 1;
		p = strchr(p, ',');
		p = p ? p + 1 : NULL;
	}
	return 0;
}

int ab_events_twice(const char *list, char *dup, size_t len)
{
	const char *p = list, *q;
	char name[128];
	size_t n;

	while (p && *p) {
		q = strchr(p, ',');
		n = q ? (size_t)(q - p) : strlen(p);
		if (n && n < sizeof(name)) {
			memcpy(name, p, n);
			name[n] = '\0';
			if (q && names(q + 1, name)) {
				snprintf(dup, len, "%s", name);
				return 1;
			}
		}
		p = q ? q + 1 : NULL;
	}
	return 0;
}

int ab_explain_events(const struct ab_explain *ex, const char *extra, char *buf,
		      size_t len)
{
	size_t used = 0;
	int i, n;

	buf[0] = '\0';
	if (extra && *extra) {
		n = snprintf(buf, len, "%s", extra);
		if (n < 0 || (size_t)n >= len)
			return -1;
		used = (size_t)n;
	}
	for (i = 0; i < 2 * ex->n; i++) {
		const char *ev =
			i % 2 ? ex->path[i / 2].minus : ex->path[i / 2].event;

		/* named by --events, or by an earlier path: counted once */
		if (!*ev || names(buf, ev))
			continue;
		n = snprintf(buf + used, len - used, "%s%s", used ? "," : "",
			     ev);
		if (n < 0 || (size_t)n >= len - used)
			return -1;
		used += (size_t)n;
	}
	return 0;
}

int ab_explain_frees_elsewhere(struct ab_explain *ex)
{
	int k, n = 0;

	for (k = 0; k < ex->n; k++)
		if (ex->path[k].frees)
			n += ex->path[k].elsewhere = 1;
	return n;
}

double ab_explain_net(const struct ab_explain_path *p,
		      const struct ab_counters *c, const double *ev_net)
{
	int e = ab_counters_named(c, p->event), m;

	if (e < 0 || p->elsewhere)
		return NAN;
	if (!p->minus[0])
		return ev_net[e];
	m = ab_counters_named(c, p->minus);
	return m < 0 ? NAN : ev_net[e] - ev_net[m];
}

void ab_explain_event_text(const struct ab_explain_path *p, char *buf,
			   size_t len)
{
	snprintf(buf, len, "%s%s%s", p->event, p->minus[0] ? " - " : "",
		 p->minus);
}

/* Path @label's figure in @val, NAN when @ex has no such path. */
static double figure(const struct ab_explain *ex, const double *val,
		     const char *label)
{
	int k;

	for (k = 0; k < ex->n; k++)
		if (!strcmp(ex->path[k].label, label))
			return val[k];
	return NAN;
}

int ab_explain_notes(const struct ab_explain *ex, const char *label,
		     unsigned int fam, uint64_t obj_size, uint64_t page,
		     const double *val, FILE *f)
{
	double pages = figure(ex, val, "page allocations");
	double areas = figure(ex, val, "vmap areas");
	double fb = figure(ex, val, "vmalloc fallback");
	double purge = figure(ex, val, "lazy purge");
	uint64_t np = page ? (obj_size + page - 1) / page : 0;
	double want = 0;
	int n = 0;

	/* the allocations the row made: one per op of the page allocator;
	 * vmalloc's pages, one by one (kvmalloc's when it fell back) */
	if (fam & AB_FAMILY_PAGE)
		want = 1;
	else if (fam & AB_FAMILY_VMALLOC)
		want = (double)np;
	else if ((fam & AB_FAMILY_KVMALLOC) && fb >= 0.5)
		want = fb * (double)np;
	if (!isnan(pages) && want > 0 && pages < want - 0.5) {
		fprintf(f,
			"note: explain: %s: %.2f page allocations per op for %.0f allocation%s of a page or more: kmem:mm_page_alloc fires on the page allocator's one-at-a-time path only, and the bulk path (alloc_pages_bulk, which vmalloc uses for order-0 pages) took the rest\n",
			label, pages, want, want == 1 ? "" : "s");
		n++;
	}
	if (!isnan(purge) && purge < 0.005 &&
	    (fam & (AB_FAMILY_VMALLOC | AB_FAMILY_KVMALLOC)) &&
	    (!(fam & AB_FAMILY_KVMALLOC) || fb >= 0.5)) {
		fprintf(f,
			"note: explain: %s: %.2f lazy purges per op on this thread: freed vmap areas are purged (unmapped, with a kernel TLB flush) by a kworker once lazy_max_pages() of them wait (drain_vmap_area_work, mm/vmalloc.c), and the counters count this thread only\n",
			label, purge);
		n++;
	}
	if (!isnan(areas) && areas >= 1.5 &&
	    (fam & (AB_FAMILY_VMALLOC | AB_FAMILY_KVMALLOC)) &&
	    np * sizeof(void *) > page) {
		fprintf(f,
			"note: explain: %s: %.2f vmap areas per op: the object's and its page array's (%llu pages x %zu B = %llu KiB, above a page, is vmalloc'd too: __vmalloc_area_node() in mm/vmalloc.c)\n",
			label, areas, (unsigned long long)np, sizeof(void *),
			(unsigned long long)(np * sizeof(void *) / 1024));
		n++;
	}
	return n;
}
