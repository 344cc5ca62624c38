/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * allocbench_condition.h - AB_IOC_CONDITION's part of the contract between
 * allocbench.ko and the CLI: the memory states a run can be measured in
 * (struct ab_condition). Included by linux/allocbench.h, whose layout,
 * extensibility and error rules hold here.
 *
 * A condition is built by one AB_IOC_CONDITION call (AB_COND_BUILD) and
 * held by the open file that built it until AB_COND_UNDO on that file or
 * until the file is closed (so also when the CLI is killed): the module
 * then frees every page and vmap area it took. One condition exists at a
 * time on the machine (-EBUSY for a second). The pages it holds are
 * offered to reclaim through a shrinker ("allocbench-condition"): direct
 * reclaim (not kswapd) takes them back, counted in @reclaimed_pages, so
 * that an allocation which would otherwise invoke the OOM killer finds
 * memory to reclaim instead.
 */
#ifndef _UAPI_LINUX_ALLOCBENCH_CONDITION_H
#define _UAPI_LINUX_ALLOCBENCH_CONDITION_H

#include <linux/types.h>

/* ab_condition.op */
#define AB_COND_BUILD 1 /* build the condition of @kinds on @node */
#define AB_COND_UNDO 2	/* give back everything this file's condition holds */
/* fill the outputs from the condition this file holds (nothing changes) */
#define AB_COND_STATE 3

/* ab_condition.kinds: any non-empty combination */
/*
 * Fragmented: every free block of the node above @frag_order taken (the
 * highest orders first, without reclaim or compaction: only what is free
 * right now), split into pages, and every other aligned block of
 * 2^@frag_order pages given back. The held half alternates unmovable
 * (GFP_KERNEL) and movable (GFP_HIGHUSER_MOVABLE) allocations so that
 * both kinds of pageblock hold pinned pages; compaction cannot migrate
 * them (they are on no LRU) and fails after scanning. Repeated until no
 * block above @frag_order is left in the zones the module may allocate
 * from without dipping under their min watermarks.
 */
#define AB_COND_FRAGMENTED (1U << 0)
/*
 * Pressure: free pages of the node's first zone (the one its GFP_KERNEL
 * allocations try first) taken down to halfway between its min and low
 * watermarks (@target_free), after fragmented if both are asked for.
 * Allocations there fail the low watermark of the fast path, wake kswapd
 * and, below min, enter direct reclaim.
 */
#define AB_COND_PRESSURE (1U << 1)
/*
 * vmap space broken up as lib/test_vmalloc.c full_fit_alloc_test() does:
 * AB_COND_VMAP_AREAS one-page vmalloc() areas, every other one freed.
 */
#define AB_COND_VMAP_FRAGMENTED (1U << 2)
#define AB_COND_KINDS_ALL \
	(AB_COND_FRAGMENTED | AB_COND_PRESSURE | AB_COND_VMAP_FRAGMENTED)

/* one-page vmalloc areas made by AB_COND_VMAP_FRAGMENTED (half are kept) */
#define AB_COND_VMAP_AREAS 16384U
/* largest ab_condition.frag_order */
#define AB_COND_MAX_FRAG_ORDER 8U

/* ab_condition.stopped: why a build ended short of its target */
#define AB_COND_DONE 0	   /* the target was reached */
#define AB_COND_NO_MEMORY 1 /* the allocator refused (watermarks) first */

/**
 * struct ab_condition - argument of AB_IOC_CONDITION: input, then output
 * @size:        sizeof(struct ab_condition) as the caller knows it
 * @op:          AB_COND_BUILD, AB_COND_UNDO or AB_COND_STATE
 * @kinds:       AB_COND_BUILD: AB_COND_* kinds, at least one; zero for the
 *               other ops
 * @node:        AB_COND_BUILD with fragmented or pressure: an online node
 *               with memory; else -1
 * @frag_order:  AB_COND_FRAGMENTED: no free block above this order is left
 *               (0..AB_COND_MAX_FRAG_ORDER); zero otherwise
 * @reserved0:   zero
 * @reserved:    zero
 *
 * Output (AB_COND_BUILD and AB_COND_STATE; UNDO writes the figures it
 * gave back: @held_pages and @vmap_areas as they were, @undo_ns):
 * @build_ns:    wall time the build took, ns (ktime_get_ns())
 * @undo_ns:     AB_COND_UNDO: wall time the undo took, ns; else zero
 * @held_pages:  pages the condition holds now
 * @movable_pages: of them, allocated movable (GFP_HIGHUSER_MOVABLE)
 * @reclaimed_pages: pages direct reclaim took back through the shrinker
 *               since the build
 * @target_free: AB_COND_PRESSURE: free pages aimed at in @zone, counted
 *               as @zone_free counts them; else 0
 * @vmap_areas:  one-page vmalloc areas held
 * @zone_free:   the free pages of @zone an unmovable allocation can take
 *               at the end of the build: NR_FREE_PAGES less
 *               NR_FREE_CMA_PAGES (a CMA area's free pages serve movable
 *               allocations alone, and the watermark checks of the others
 *               leave them out, mm/page_alloc.c __zone_watermark_ok())
 * @zone_min:    min watermark of @zone, pages (min_wmark_pages())
 * @zone_low:    low watermark of @zone, pages
 * @zone_high:   high watermark of @zone, pages
 * @zone:        the zone's name (zone->name, e.g. "DMA32", "Normal"),
 *               NUL-terminated; empty without a node
 * @max_free_order: at the end of the build, the highest order with a free
 *               block in @zone's free lists, or -1 when it has none
 * @stopped:     AB_COND_DONE or why the build stopped short (AB_COND_*)
 * @oom_pages:   of @reclaimed_pages, those given back to the OOM
 *               notifier (out_of_memory() asks its notifiers first and
 *               kills nothing when they freed pages): every held page,
 *               each time reclaim left an allocation short (zero from a
 *               module that predates it: the field was out_reserved)
 *
 * Errors: -EINVAL for an unknown @op, @kinds, @node or @frag_order, or a
 * nonzero reserved field; -EBUSY when a condition exists (this file's or
 * another's); -ENOENT for UNDO or STATE without one; -EINTR when a signal
 * arrived during the build (everything taken is given back first);
 * -ENOMEM when not even the first page could be taken; -EPERM without
 * CAP_SYS_ADMIN.
 */
struct ab_condition {
	__u32 size;
	__u32 op;
	__u32 kinds;
	__s32 node;
	__u32 frag_order;
	__u32 reserved0;
	__u64 reserved[2];

	__u64 build_ns;
	__u64 undo_ns;
	__u64 held_pages;
	__u64 movable_pages;
	__u64 reclaimed_pages;
	__u64 target_free;
	__u64 vmap_areas;
	__u64 zone_free;
	__u64 zone_min;
	__u64 zone_low;
	__u64 zone_high;
	char zone[16];
	__s32 max_free_order;
	__u32 stopped;
	__u64 oom_pages;
};

#define AB_CONDITION_SIZE_VER0 160

#endif /* _UAPI_LINUX_ALLOCBENCH_CONDITION_H */
