// SPDX-License-Identifier: GPL-2.0-only
/*
 * explain.c - the internal paths --explain counts (see explain.h). Each
 * path lists its spellings in order of preference; the first the running
 * kernel has is counted, so 6.1 and 6.12 each get the set that exists
 * (6.12 renamed the allocation entry points with _noprof, memory
 * allocation profiling; static functions may be inlined away, and then
 * no spelling exists and the path is named as not counted).
 */
#include <stdio.h>
#include <string.h>

#include "explain.h"

#define SLAB	 AB_FAMILY_SLAB
#define PAGE	 AB_FAMILY_PAGE
#define VMALLOC	 AB_FAMILY_VMALLOC
#define KVMALLOC AB_FAMILY_KVMALLOC

static const struct {
	const char *label;
	unsigned int families;
	const char *spellings[3];
	const char *why;
} paths[] = {
	{ "slab slow path",
	  SLAB | KVMALLOC,
	  { "kprobe:___slab_alloc" },
	  "mm/slub.c: ___slab_alloc(), no free object in the per-CPU slab" },
	{ "new slab",
	  SLAB | KVMALLOC,
	  { "kprobe:allocate_slab", "kprobe:new_slab" },
	  "mm/slub.c: allocate_slab(), a slab's pages from the page allocator" },
	{ "slow free",
	  SLAB | KVMALLOC,
	  { "kprobe:__slab_free" },
	  "mm/slub.c: __slab_free(), a free off the per-CPU fast path" },
	{ "per-CPU list refill",
	  PAGE,
	  { "kprobe:rmqueue_bulk" },
	  "mm/page_alloc.c: rmqueue_bulk(), per-CPU pages from the buddy lists under zone->lock" },
	{ "per-CPU list drain",
	  PAGE,
	  { "kprobe:free_pcppages_bulk" },
	  "mm/page_alloc.c: free_pcppages_bulk(), per-CPU pages back to the buddy lists" },
	{ "zone lock",
	  PAGE,
	  { "kmem:mm_page_alloc_zone_locked" },
	  "include/trace/events/kmem.h: a page taken from the buddy lists with zone->lock held" },
	{ "page alloc slow path",
	  PAGE,
	  { "kprobe:__alloc_pages_slowpath" },
	  "mm/page_alloc.c: __alloc_pages_slowpath(), reclaim, compaction, kswapd" },
	{ "vmalloc fallback",
	  KVMALLOC,
	  { "kprobe:__vmalloc_node_range_noprof",
	    "kprobe:__vmalloc_node_range" },
	  "mm/util.c: kvmalloc_node() falling back to vmalloc" },
	{ "vmap area",
	  VMALLOC | KVMALLOC,
	  { "kprobe:alloc_vmap_area" },
	  "mm/vmalloc.c: alloc_vmap_area(), a range of kernel address space" },
	{ "lazy purge",
	  VMALLOC | KVMALLOC,
	  { "kprobe:__purge_vmap_area_lazy" },
	  "mm/vmalloc.c: __purge_vmap_area_lazy(), freed areas unmapped in a batch" },
	{ "TLB flush",
	  VMALLOC | KVMALLOC,
	  { "tlb:tlb_flush" },
	  "arch/x86/mm/tlb.c: the tlb_flush tracepoint" },
	{ "page-table page",
	  VMALLOC | KVMALLOC,
	  { "kprobe:__pte_alloc_kernel" },
	  "mm/memory.c: __pte_alloc_kernel(), a kernel page-table page for new mappings" },
	{ "page allocations",
	  SLAB | PAGE | VMALLOC | KVMALLOC,
	  { "kmem:mm_page_alloc" },
	  "include/trace/events/kmem.h: each allocation of the page allocator's one-at-a-time path; the bulk path (alloc_pages_bulk, which vmalloc uses for its pages) fires none" },
};

unsigned int ab_family_of(uint32_t flags, uint32_t params)
{
	if (flags & AB_STRATEGY_BASELINE)
		return AB_FAMILY_NONE;
	switch (flags & AB_STRATEGY_MEM_MASK) {
	case AB_STRATEGY_MEM_KMALLOC:
	case AB_STRATEGY_MEM_CACHE:
		return AB_FAMILY_SLAB;
	case AB_STRATEGY_MEM_VMALLOC:
		return AB_FAMILY_VMALLOC;
	case AB_STRATEGY_MEM_KVMALLOC:
		return AB_FAMILY_KVMALLOC;
	default:
		return params & AB_PARAM_ORDER ? AB_FAMILY_PAGE
					       : AB_FAMILY_NONE;
	}
}

int ab_explain_select(struct ab_explain *ex, unsigned int families,
		      int (*has)(const char *event))
{
	size_t i, s, used = 0;

	memset(ex, 0, sizeof(*ex));
	for (i = 0; i < sizeof(paths) / sizeof(paths[0]); i++) {
		struct ab_explain_path *p = &ex->path[ex->n];

		if (!(paths[i].families & families))
			continue;
		for (s = 0; s < 3 && paths[i].spellings[s]; s++)
			if (has(paths[i].spellings[s]))
				break;
		if (s == 3 || !paths[i].spellings[s]) {
			used += (size_t)snprintf(
				ex->missing + used,
				used < sizeof(ex->missing)
					? sizeof(ex->missing) - used
					: 0,
				"%s%s (%s)", used ? ", " : "", paths[i].label,
				paths[i].spellings[0]);
			continue;
		}
		p->label = paths[i].label;
		p->families = paths[i].families;
		p->why = paths[i].why;
		snprintf(p->event, sizeof(p->event), "%s",
			 paths[i].spellings[s]);
		ex->n++;
	}
	return ex->n;
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
	for (i = 0; i < ex->n; i++) {
		n = snprintf(buf + used, len - used, "%s%s", used ? "," : "",
			     ex->path[i].event);
		if (n < 0 || (size_t)n >= len - used)
			return -1;
		used += (size_t)n;
	}
	return 0;
}
