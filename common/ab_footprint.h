/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ab_footprint.h - the memory one object really takes, by the allocator
 * behind its strategy (AB_STRATEGY_MEM_* of ab_strategy_info.flags), and
 * which objects an allocator can never hand out. One rule, compiled into
 * allocbench.ko, which enforces it against the budget ab_info.max_bytes
 * (module parameter max_outstanding_mb), and into the CLI, which refuses a
 * request that breaks it before asking (common/ab_run.h applies it).
 *
 * The rules, from Linux 6.1 and 6.12 (x86_64, 4 KiB pages, SLUB):
 *
 *   EXACT     the object's bytes: blocks of 2^order pages (the page
 *             allocator, which the get_free_pages and alloc_pages
 *             strategies call for exactly such blocks).
 *   KMALLOC   kmalloc_size_roundup() (mm/slab_common.c): the size class
 *             of kmalloc_info[] (8 .. 8192 with 96 and 192, the
 *             ab_table_kmalloc of common/ab_lookup.h) up to
 *             KMALLOC_MAX_CACHE_SIZE (two pages), above it PAGE_SIZE <<
 *             get_order(size), the page allocator's block. The module
 *             checks this against kmalloc_size_roundup() when it loads.
 *   CACHE     a kmem_cache of the object size: whole slabs. The object
 *             is rounded up to the word (mm/slub.c calculate_sizes()), and
 *             a slab is backed whole, whatever part of it the run's
 *             objects fill: counted as slabs of AB_SLAB_MAX_ORDER (or of
 *             the object's own block when larger), each holding as many
 *             objects as fit (ab_cache_held_bytes()). An upper estimate:
 *             calculate_order() may pick a smaller order (order 0 for
 *             small objects on few CPUs), and objects may land in slabs
 *             the cache already had.
 *   VMALLOC   __vmalloc_area_node() (mm/vmalloc.c): whole pages; the
 *             array of their struct page pointers (8 bytes each),
 *             kmalloc'ed up to a page and vmalloc'ed (whole pages) above;
 *             and AB_VMALLOC_META_BYTES for the vm_struct (kmalloc'ed) and
 *             the vmap_area (a slab object). The guard page that
 *             __get_vm_area_node() adds after each area (unless
 *             VM_NO_GUARD) is address space only: no page backs it, so it
 *             is not counted; nor are the page tables, which the kernel
 *             keeps once made and shares between areas.
 *   KVMALLOC  kvmalloc_node() (mm/util.c): kmalloc first; up to a page
 *             nothing else. Above a page, if kmalloc fails and the GFP
 *             flags allow blocking (6.1: they hold GFP_KERNEL, "vmalloc
 *             uses GFP_KERNEL for some internal allocations"; 6.12:
 *             gfpflags_allow_blocking()), vmalloc with VM_ALLOW_HUGE_VMAP,
 *             which maps an area of PMD_SIZE (2 MiB) or more with whole
 *             2 MiB pages (__vmalloc_node_range()): counted as the larger
 *             of the two. Without the vmalloc fallback an object above
 *             KMALLOC_MAX_SIZE can never be allocated
 *             (ab_obj_not_applicable()).
 *   PERCPU    pcpu_alloc() (mm/percpu.c): the object, rounded up to its
 *             alignment (at least PCPU_MIN_ALLOC_SIZE, 4 bytes), in the
 *             unit of every possible CPU of a chunk, whose pages are
 *             populated for each of them (pcpu_populate_chunk()):
 *             ab_obj_footprint() gives one unit's bytes and
 *             ab_run_footprint() multiplies them by ab_info.possible_cpus.
 *             The chunk's allocation bitmaps and the pages the chunk
 *             allocator populates ahead are not counted.
 *   MEMPOOL   mempool_create_kmalloc_pool() (mm/mempool.c): each element
 *             a kmalloc size class, and the reserve of pool_min of them
 *             made at mempool_create() with its array of pointers
 *             (kmalloc'ed); an upper estimate: an element taken from the
 *             reserve is counted twice.
 *   FRAG      page_frag_alloc() (mm/page_alloc.c, 6.12:
 *             mm/page_frag_cache.c): fragments carved from the end of a
 *             page of PAGE_FRAG_CACHE_MAX_SIZE (32 KiB, order 3; order 0
 *             when that fails), no fragment across two, each page held
 *             until its last fragment is freed and the cache moved on:
 *             whole pages for the objects, plus the page the cache holds
 *             from one trial to the next (ab_frag_held_bytes()).
 *   VMALLOC_HUGE  vmalloc_huge(): VM_ALLOW_HUGE_VMAP as kvmalloc's
 *             fallback above, from PMD_SIZE up whole 2 MiB pages (the area
 *             rounded up to them), else VMALLOC's rule.
 *   BUCKETS   kmem_buckets_alloc() (mm/slab_common.c, 6.11+): the kmalloc
 *             size class of the object (KMALLOC's rule; the strategy stops
 *             at KMALLOC_MAX_CACHE_SIZE), in caches of their own made for
 *             the run: whole slabs as CACHE counts them, of the class size.
 *   CMA       cma_alloc() of 2^order pages: exactly the object's bytes
 *             (the pages of the CMA area, which the budget counts as any
 *             other memory).
 */
#ifndef AB_FOOTPRINT_H
#define AB_FOOTPRINT_H

#ifdef __KERNEL__
#include <linux/types.h>
#include <linux/stddef.h>
#else
#include "ab_compat.h"
#endif
#include <linux/allocbench.h>
#include "ab_lookup.h"

/*
 * Bytes of a vm_struct (kmalloc'ed: 72 or fewer in 6.1 and 6.12, the
 * 96-byte class) and a vmap_area (64 bytes, a slab object), rounded up;
 * the module checks that each is at most half of it (BUILD_BUG_ON).
 */
#define AB_VMALLOC_META_BYTES 256
/* Bytes of a struct page pointer in the kernel (x86_64). */
#define AB_PAGE_PTR_BYTES 8
/*
 * PMD_SIZE, the page of a VM_ALLOW_HUGE_VMAP area: what a page of 8-byte
 * page-table entries maps (x86_64: 512 x 4 KiB = 2 MiB; the module checks
 * it against PMD_SIZE).
 */
static inline u64 ab_huge_vmap_bytes(u32 page_size)
{
	return (u64)page_size * (page_size / 8);
}

/*
 * The largest slab order SLUB picks unless told otherwise at boot:
 * slub_max_order defaults to PAGE_ALLOC_COSTLY_ORDER, 3 (mm/slub.c,
 * include/linux/mmzone.h), in 6.1 and 6.12.
 */
#define AB_SLAB_MAX_ORDER 3

/*
 * PAGE_FRAG_CACHE_MAX_SIZE with 4 KiB pages (include/linux/mm_types.h,
 * 7.x mm_types_task.h: 32768 rounded up to a page); the module checks it.
 */
#define AB_FRAG_PAGE_BYTES 32768ULL
/* PCPU_MIN_UNIT_SIZE (include/linux/percpu.h): pcpu_alloc()'s largest object */
#define AB_PCPU_MAX_SIZE 32768ULL
/* The alignment a per-CPU object gets when ab_run.align is 0. */
#define AB_PCPU_ALIGN 8

/* @a + @b, or U64_MAX when that does not fit in 64 bits. */
static inline u64 ab_add_sat(u64 a, u64 b)
{
	return a > ~0ULL - b ? ~0ULL : a + b;
}

/* @a x @b, or U64_MAX when that does not fit in 64 bits. */
static inline u64 ab_mul_sat(u64 a, u64 b)
{
	return b && a > ~0ULL / b ? ~0ULL : a * b;
}

/* @size rounded up to a multiple of @unit (a power of two), saturated. */
static inline u64 ab_round_up(u64 size, u64 unit)
{
	u64 r = ab_add_sat(size, unit - 1);

	return r == ~0ULL ? r : r & ~(unit - 1);
}

/* PAGE_SIZE << get_order(@size): the page allocator's block for @size. */
static inline u64 ab_order_bytes(u64 size, u32 page_size)
{
	u64 b = page_size;

	while (b < size) {
		if (b > ~0ULL / 2)
			return ~0ULL;
		b <<= 1;
	}
	return b;
}

/* kmalloc_size_roundup(@size): its size class, or its block of pages. */
static inline u64 ab_kmalloc_bytes(u64 size, u32 page_size)
{
	const struct ab_class_table *t = &ab_table_kmalloc;
	int idx;

	if (size <= 2ULL * page_size && size <= t->max) {
		idx = ab_lookup_reference(t, (u32)size);
		if (idx >= 0)
			return t->sizes[idx];
	}
	return ab_order_bytes(size, page_size);
}

/*
 * ab_cache_slab - bytes of the slab counted for kmem_cache objects of
 * @obj bytes (word-rounded): 2^AB_SLAB_MAX_ORDER pages, or the page
 * allocator's block of one object when that is larger.
 */
static inline u64 ab_cache_slab(u64 obj, u32 page_size)
{
	u64 slab = (u64)page_size << AB_SLAB_MAX_ORDER;

	return obj > slab ? ab_order_bytes(obj, page_size) : slab;
}

/*
 * ab_cache_held_bytes - what @n objects of @size bytes of a kmem_cache
 * hold: the whole slabs they need (see CACHE above). E.g. 3000-byte objects,
 * 10 to a 32 KiB slab: one object holds 32 KiB, ten 32 KiB, eleven 64 KiB.
 */
static inline u64 ab_cache_held_bytes(u64 size, u64 n, u32 page_size)
{
	u64 obj = ab_round_up(size, AB_PAGE_PTR_BYTES);
	u64 slab, per;

	if (obj == ~0ULL)
		return obj;
	slab = ab_cache_slab(obj, page_size);
	if (slab == ~0ULL)
		return slab;
	per = slab / obj;
	return ab_mul_sat(n / per + (n % per != 0), slab);
}

/*
 * ab_frag_held_bytes - what @n fragments of @size bytes (at most a page)
 * hold: whole AB_FRAG_PAGE_BYTES pages, each holding as many as fit, and
 * one more for the page a trial may start in, part used by the last one.
 */
static inline u64 ab_frag_held_bytes(u64 size, u64 n)
{
	u64 per = size && size <= AB_FRAG_PAGE_BYTES ?
		  AB_FRAG_PAGE_BYTES / size : 1;

	return ab_mul_sat(n / per + (n % per != 0) + 1, AB_FRAG_PAGE_BYTES);
}

/*
 * A vmalloc area of @size bytes: its pages (whole pages of @huge bytes
 * from @huge bytes up when @huge is nonzero), the array of page pointers
 * and the bookkeeping.
 */
static inline u64 ab_vmalloc_bytes(u64 size, u32 page_size, u64 huge)
{
	u64 pages = ab_round_up(size, page_size);
	u64 arr = (pages / page_size) * AB_PAGE_PTR_BYTES;

	if (huge && size >= huge)
		pages = ab_round_up(size, huge);
	arr = arr <= page_size ? ab_kmalloc_bytes(arr, page_size) :
				 ab_round_up(arr, page_size);
	return ab_add_sat(ab_add_sat(pages, arr), AB_VMALLOC_META_BYTES);
}

/*
 * ab_gfp_may_block - the GFP choice @gfp (enum ab_gfp) may sleep to
 * reclaim memory (gfpflags_allow_blocking(): __GFP_DIRECT_RECLAIM): all
 * but GFP_ATOMIC, GFP_NOWAIT and the no-reclaim choice.
 */
static inline bool ab_gfp_may_block(u32 gfp)
{
	return gfp != AB_GFP_ATOMIC && gfp != AB_GFP_NOWAIT &&
	       gfp != AB_GFP_NORECLAIM;
}

/*
 * ab_obj_footprint - bytes one allocation of @size bytes takes from the
 * allocator of a strategy with @flags (its AB_STRATEGY_MEM_* kind), with
 * GFP choice @gfp (enum ab_gfp), on a kernel with pages of @page_size
 * bytes and kmalloc's largest object @kmalloc_max (ab_info.
 * kmalloc_max_size; 0 if unknown). An upper estimate where the kernel
 * has a choice (kvmalloc: the larger of its two paths). Saturates at
 * U64_MAX.
 */
static inline u64 ab_obj_footprint(u32 flags, u64 size, u32 gfp,
				   u32 page_size, u64 kmalloc_max)
{
	u64 km, vm;

	switch (flags & AB_STRATEGY_MEM_MASK) {
	case AB_STRATEGY_MEM_KMALLOC:
		return ab_kmalloc_bytes(size, page_size);
	case AB_STRATEGY_MEM_CACHE:
		/* an object's share of its slab, rounded up */
		km = ab_round_up(size, AB_PAGE_PTR_BYTES);
		vm = km == ~0ULL ? km : ab_cache_slab(km, page_size);
		if (vm == ~0ULL)
			return vm;
		return (vm + vm / km - 1) / (vm / km);
	case AB_STRATEGY_MEM_VMALLOC:
		return ab_vmalloc_bytes(size, page_size, 0);
	case AB_STRATEGY_MEM_PERCPU:
		/* one CPU's unit: ab_run_footprint() counts every CPU */
		return ab_round_up(size, AB_PCPU_ALIGN);
	case AB_STRATEGY_MEM_MEMPOOL:
		return ab_kmalloc_bytes(size, page_size);
	case AB_STRATEGY_MEM_FRAG:
		/* an object's share of its page, rounded up */
		if (!size || size > AB_FRAG_PAGE_BYTES)
			return AB_FRAG_PAGE_BYTES;
		vm = AB_FRAG_PAGE_BYTES / size;
		return (AB_FRAG_PAGE_BYTES + vm - 1) / vm;
	case AB_STRATEGY_MEM_VMALLOC_HUGE:
		return ab_vmalloc_bytes(size, page_size,
					ab_huge_vmap_bytes(page_size));
	case AB_STRATEGY_MEM_BUCKETS:
		return ab_obj_footprint(AB_STRATEGY_MEM_CACHE,
					ab_kmalloc_bytes(size, page_size), gfp,
					page_size, kmalloc_max);
	case AB_STRATEGY_MEM_KVMALLOC:
		km = ab_kmalloc_bytes(size, page_size);
		if (size <= page_size || !ab_gfp_may_block(gfp))
			return km;
		if (kmalloc_max && size > kmalloc_max)
			km = 0;
		vm = ab_vmalloc_bytes(size, page_size,
				      ab_huge_vmap_bytes(page_size));
		return km > vm ? km : vm;
	default:
		return size;
	}
}

/*
 * ab_harness_bytes - the harness's own arrays for a run holding @n objects
 * (allocbench.ko's ab_ioctl_run() and strategies.c, kvcalloc() with
 * GFP_KERNEL_ACCOUNT, so charged to the caller's memory cgroup too): the
 * objects' pointers (8 bytes each) and free order (4), with @single timing
 * a struct ab_sample each (24), and for @per_trial (bulk) strategies a
 * second pointer array (an upper estimate: not all of them have one). Each
 * counted as kvmalloc counts it (GFP_KERNEL).
 */
static inline u64 ab_harness_bytes(u64 n, bool single, bool per_trial,
				   u32 page_size)
{
	u64 sum = 0;

	sum = ab_add_sat(sum, ab_obj_footprint(AB_STRATEGY_MEM_KVMALLOC,
					       ab_mul_sat(n, 8), AB_GFP_KERNEL,
					       page_size, 0));
	sum = ab_add_sat(sum, ab_obj_footprint(AB_STRATEGY_MEM_KVMALLOC,
					       ab_mul_sat(n, 4), AB_GFP_KERNEL,
					       page_size, 0));
	if (single)
		sum = ab_add_sat(sum,
				 ab_obj_footprint(AB_STRATEGY_MEM_KVMALLOC,
						  ab_mul_sat(n, 24),
						  AB_GFP_KERNEL, page_size, 0));
	if (per_trial)
		sum = ab_add_sat(sum,
				 ab_obj_footprint(AB_STRATEGY_MEM_KVMALLOC,
						  ab_mul_sat(n, 8),
						  AB_GFP_KERNEL, page_size, 0));
	return sum;
}

/*
 * ab_obj_not_applicable - why an allocation of @size bytes by a strategy
 * with @flags and GFP choice @gfp can never succeed, whatever memory is
 * free, or NULL. Today: a kvmalloc whose GFP flags may not block, so it
 * has no vmalloc fallback, above kmalloc's largest object @kmalloc_max
 * (when known). Sizes above a strategy's own largest (max_size,
 * max_order) are refused before, as out of range.
 */
static inline const char *ab_obj_not_applicable(u32 flags, u64 size, u32 gfp,
						u64 kmalloc_max)
{
	if ((flags & AB_STRATEGY_MEM_MASK) == AB_STRATEGY_MEM_KVMALLOC &&
	    !ab_gfp_may_block(gfp) && kmalloc_max && size > kmalloc_max)
		return "no vmalloc fallback without GFP_KERNEL (mm/util.c), above the largest kmalloc (KMALLOC_MAX_SIZE)";
	return NULL;
}

/*
 * ab_obj_largest - the largest object of a strategy with @flags and
 * largest object @max_bytes that GFP choice @gfp can ever allocate: with
 * no vmalloc fallback a kvmalloc takes at most @kmalloc_max.
 */
static inline u64 ab_obj_largest(u32 flags, u64 max_bytes, u32 gfp,
				 u64 kmalloc_max)
{
	if (ab_obj_not_applicable(flags, max_bytes, gfp, kmalloc_max))
		return kmalloc_max;
	return max_bytes;
}

/* ab_mem_rule - how a strategy with @flags is counted, in a few words. */
static inline const char *ab_mem_rule(u32 flags)
{
	switch (flags & AB_STRATEGY_MEM_MASK) {
	case AB_STRATEGY_MEM_KMALLOC:
		return "kmalloc size class or pages";
	case AB_STRATEGY_MEM_CACHE:
		return "its share of 32 KiB slabs";
	case AB_STRATEGY_MEM_VMALLOC:
		return "whole pages, page array, bookkeeping";
	case AB_STRATEGY_MEM_KVMALLOC:
		return "kmalloc class or vmalloc pages, the larger";
	case AB_STRATEGY_MEM_PERCPU:
		return "aligned, times the possible CPUs";
	case AB_STRATEGY_MEM_MEMPOOL:
		return "kmalloc size class, plus the reserve's";
	case AB_STRATEGY_MEM_FRAG:
		return "its share of 32 KiB pages, plus one";
	case AB_STRATEGY_MEM_VMALLOC_HUGE:
		return "whole 2 MiB pages from 2 MiB up, page array, bookkeeping";
	case AB_STRATEGY_MEM_BUCKETS:
		return "its kmalloc class's share of 32 KiB slabs";
	default:
		return "its own bytes";
	}
}

#endif
