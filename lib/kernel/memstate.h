/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * memstate.h - the page allocator's state of one node as the kernel
 * states it: free blocks per zone and order (/proc/buddyinfo), free pages
 * and watermarks per zone (/proc/zoneinfo), the reclaim and compaction
 * counters of /proc/vmstat, and the settings that steer them
 * (transparent_hugepage/defrag, vm.compaction_proactiveness,
 * vm.watermark_scale_factor). Every read goes through lib/kfile.c, from
 * @root ("" for this machine, a directory laid out the same in tests).
 */
#ifndef AB_MEMSTATE_H
#define AB_MEMSTATE_H

#include <stdint.h>

/* orders /proc/buddyinfo lists on x86_64 (NR_PAGE_ORDERS: 0..10) */
#define AB_MEM_ORDERS 11
#define AB_MEM_ZONES  6

/** struct ab_zonestate - one zone of a node */
struct ab_zonestate {
	char name[16];
	/* free blocks per order, /proc/buddyinfo; @orders columns read */
	uint64_t nr_free[AB_MEM_ORDERS];
	int orders;
	/* /proc/zoneinfo, pages: "pages free", min, low, high (0 if absent) */
	uint64_t free, min, low, high;
	/*
	 * /proc/zoneinfo, pages on the zone's per-CPU lists: the sum of its
	 * pagesets' "count:" (free pages that "pages free" leaves out; since
	 * 6.7 a CPU's list may grow to 1/8 of the zone after a burst of
	 * frees, mm/page_alloc.c zone_highsize())
	 */
	uint64_t pcp;
	/* /proc/zoneinfo nr_free_cma: of @free, pages of a CMA area, which
	 * serve movable allocations alone */
	uint64_t free_cma;
};

/** struct ab_memstate - the zones of node @node, in the kernel's order */
struct ab_memstate {
	int node;
	int nzones;
	struct ab_zonestate zone[AB_MEM_ZONES];
};

/*
 * ab_memstate_read - node @node's zones into @m. Returns 0, or a negative
 * errno: kfile.h's (-ENOENT without /proc/buddyinfo), -ENODATA when the
 * node has no line there.
 */
int ab_memstate_read(struct ab_memstate *m, int node, const char *root);

/* The zone called @name in @m, or NULL. */
const struct ab_zonestate *ab_memstate_zone(const struct ab_memstate *m,
					    const char *name);

/* The highest order with a free block in @z, or -1 when none is free. */
int ab_zone_max_order(const struct ab_zonestate *z);

/*
 * ab_extfrag_index - the kernel's fragmentation index of @z for @order,
 * in thousandths, as mm/vmstat.c __fragmentation_index() computes it
 * from the same free_area counts (and debugfs extfrag/extfrag_index
 * prints divided by 1000): -1000 when a block of @order or larger is
 * free (the index has no meaning then), 0 when nothing is free, else
 * 1000 - (1000 + free_pages * 1000 / 2^order) / free_blocks, towards 1000
 * as failure is due to fragmentation, towards 0 as it is due to lack of
 * memory.
 */
long ab_extfrag_index(const struct ab_zonestate *z, unsigned int order);

/* /proc/vmstat counters of reclaim and compaction (ab_vmstat_names[]) */
enum ab_vmstat_id {
	AB_VM_COMPACT_STALL,
	AB_VM_COMPACT_SUCCESS,
	AB_VM_COMPACT_FAIL,
	AB_VM_ALLOCSTALL,
	AB_VM_PGSCAN_DIRECT,
	AB_VM_PGSTEAL_DIRECT,
	AB_VM_PGSTEAL_KSWAPD,
	AB_VM_NR
};

/** struct ab_vmstat - the counters at one moment; @have bit i: counter i read
 */
struct ab_vmstat {
	uint64_t count[AB_VM_NR];
	unsigned int have;
};

/* the /proc/vmstat name of each counter (allocstall: every allocstall_ZONE) */
extern const char *const ab_vmstat_names[AB_VM_NR];

/* ab_vmstat_read - the counters into @s; 0 or a negative errno */
int ab_vmstat_read(struct ab_vmstat *s, const char *root);

/** struct ab_mm_settings - the settings reclaim and compaction follow */
struct ab_mm_settings {
	char thp_defrag[32]; /* the bracketed word of .../defrag, or "" */
	long long compaction_proactiveness; /* -1 where absent */
	long long watermark_scale_factor;   /* -1 where absent */
};

void ab_mm_settings_read(struct ab_mm_settings *s, const char *root);

#endif
