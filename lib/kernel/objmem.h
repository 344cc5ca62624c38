/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * objmem.h - the memory one object takes, as the kernel states it: a slab
 * object its share of its cache's slab (SLUB's sysfs, /sys/kernel/slab),
 * a page-allocator block PAGE_SIZE << order, a vmalloc area its pages,
 * page array and bookkeeping (common/ab_footprint.h, the budget's rule).
 * The same in every boot and at every batch, unlike the node counters
 * around the alloc phase (ab_run.mem_*), which count the new memory the
 * phase took: none when the objects fit in slabs the kernel already held.
 */
#ifndef AB_OBJMEM_H
#define AB_OBJMEM_H

#include <stddef.h>
#include <stdint.h>
#include <linux/allocbench.h>

#include "ab_run.h"

/**
 * struct ab_slab_geom - a cache's geometry, as its sysfs directory says
 * @cache:         the directory read: the cache's own, or for a name that
 *                 is a link (a mergeable cache, an alias) the one it
 *                 points to (":0004096" for a merged cache)
 * @object_size:   bytes an object asks for (object_size)
 * @slab_size:     bytes an object takes in the slab, metadata included
 *                 (slab_size: SLUB's s->size)
 * @objs_per_slab: objects one slab holds (objs_per_slab)
 * @order:         a slab is PAGE_SIZE << @order bytes (order)
 * @sheaf_capacity: objects a per-CPU sheaf of the cache holds
 *                 (sheaf_capacity, SLUB since 6.18: mm/slub.c's
 *                 s->sheaf_capacity); 0 for a cache without sheaves, -1
 *                 for a kernel without the file (before sheaves)
 */
struct ab_slab_geom {
	char cache[64];
	uint64_t object_size;
	uint64_t slab_size;
	unsigned int objs_per_slab;
	unsigned int order;
	int sheaf_capacity;
};

/*
 * ab_kmalloc_cache - the cache kmalloc(@size, GFP_KERNEL) takes its
 * object from, found as the kernel finds it: the KMALLOC_NORMAL caches
 * ("kmalloc-" then the size, "kmalloc-96", "kmalloc-4k"; not the -cg-,
 * -rcl-, -rnd- or dma- copies, which GFP_KERNEL does not select and
 * which have the same geometry) with the smallest object_size at least
 * @size (kmalloc_slab(), mm/slab_common.c: size_index[] up to 192 bytes,
 * the next power of two above). Its name in @name (@len bytes) and its
 * geometry in @g. Return: 0; -ENOENT when @size is above every such
 * cache (kmalloc then takes whole pages from the page allocator,
 * kmalloc_large()) or @root holds none.
 */
int ab_kmalloc_cache(const char *root, uint64_t size, char *name, size_t len,
		     struct ab_slab_geom *g);

/* How an object's memory is stated (struct ab_obj_mem.kind). */
enum ab_obj_kind {
	AB_OBJ_UNKNOWN = 0, /* not stated (see ab_obj_mem.why) */
	AB_OBJ_SLAB,	    /* a share of a slab: slab bytes / objs_per_slab */
	AB_OBJ_PAGES,	    /* a block of PAGE_SIZE << order */
	AB_OBJ_VMALLOC,	    /* pages, page array and bookkeeping */
	AB_OBJ_PERCPU,	    /* the aligned object in every CPU's unit */
	AB_OBJ_FRAG,	    /* a share of a page_frag_cache's 32 KiB page */
};

/**
 * struct ab_obj_mem - what one object takes, as the kernel states it
 * @kind:    enum ab_obj_kind
 * @bytes:   bytes per object: slab bytes / objs_per_slab, the page
 *           block, or the vmalloc area's pages + array + bookkeeping
 * @name:    AB_OBJ_SLAB: the cache's name (kmalloc-4k, allocbench-64-3)
 * @slab:    AB_OBJ_SLAB: its geometry
 * @order:   AB_OBJ_PAGES: the block's order
 * @pages, @array, @meta: AB_OBJ_VMALLOC: bytes of its pages, of the
 *           array of their pointers and of the vm_struct and vmap_area
 *           (AB_VMALLOC_META_BYTES, an upper bound)
 * @unit:    AB_OBJ_PERCPU: bytes in one CPU's unit (aligned); AB_OBJ_FRAG:
 *           fragments a 32 KiB page holds
 * @cpus:    AB_OBJ_PERCPU: the possible CPUs (ab_info.possible_cpus)
 * @via:     "kmalloc" when a kvmalloc figure is kmalloc's (its vmalloc
 *           fallback is not counted), else ""
 * @why:     AB_OBJ_UNKNOWN: why nothing is stated
 */
struct ab_obj_mem {
	int kind;
	double bytes;
	char name[64];
	struct ab_slab_geom slab;
	unsigned int order;
	uint64_t pages, array, meta;
	uint64_t unit;
	unsigned int cpus;
	const char *via;
	char why[160];
};

/*
 * ab_obj_mem_state - what one allocation of @run (a finished run, its
 * cache_name set by the module) by strategy @si takes on the kernel
 * @info describes, with SLUB's sysfs at @root, into @m. For a strategy
 * with a kmem_cache of its own the cache must still be there (the run
 * kept it, AB_RUN_KEEP_CACHE, or it was merged: its name is a link). For
 * the module's strategies only (the user backend's are not the kernel's
 * allocators); the baseline gets AB_OBJ_UNKNOWN. @fp is the request's
 * footprint (ab_run_footprint(), computed with the request).
 */
void ab_obj_mem_state(const char *root, const struct ab_run *run,
		      const struct ab_strategy_info *si,
		      const struct ab_info *info, const struct ab_footprint *fp,
		      struct ab_obj_mem *m);

/* ab_obj_kind_name - "slab", "pages", "vmalloc" or "unknown" (JSON). */
const char *ab_obj_kind_name(int kind);

/*
 * ab_obj_mem_how - @m's source in words into @buf, e.g. "kmalloc-4k: an
 * order-3 slab (32768 B) holds 8 objects of slab_size 4096".
 */
void ab_obj_mem_how(const struct ab_obj_mem *m, char *buf, size_t len);

/*
 * ab_obj_elsewhere - the checked objects of @run on no node its list
 * (ab_run.obj_node) names, nor spread over several
 */
uint64_t ab_obj_elsewhere(const struct ab_run *run);

/*
 * ab_obj_nodes - the nodes @run's checked objects were on (ab_run.obj_node,
 * most first, page_to_nid() of their pages): "0,2", with @counts
 * "node 0: 150, node 2: 50" and those spread over several nodes or on nodes
 * not named; an answer without the list (an older module) names its
 * target_node. 1 when more than one node (or a spread object) is in it.
 */
int ab_obj_nodes(const struct ab_run *run, int counts, char *buf, size_t len);

#endif
