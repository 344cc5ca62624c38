// SPDX-License-Identifier: GPL-2.0
/*
 * strategies_pools.c - the strategies whose allocator keeps memory of its
 * own between calls: per-CPU memory (the chunk allocator of mm/percpu.c),
 * a mempool's reserve (mm/mempool.c) and a page_frag_cache (networking's
 * fragments of 32 KiB pages). Their entries are in the table of
 * strategies.c; each allocator is made for the run by its setup and
 * emptied and destroyed by its teardown.
 */

#include <linux/gfp.h>
#include <linux/mempool.h>
#include <linux/mm.h>
#include <linux/percpu.h>
#include <linux/slab.h>
#include <linux/smp.h>
#include <linux/string.h>
#include <linux/vmalloc.h>
#ifdef AB_HAVE_PAGE_FRAG_CACHE_H
#include <linux/page_frag_cache.h>
#endif
#include "ab_footprint.h"
#include "ab_internal.h"

/* ---- per-CPU memory ---- */

/*
 * __alloc_percpu_gfp() (6.10 on: a macro over pcpu_alloc_noprof()) with
 * the run's GFP mask: GFP_KERNEL may create and populate chunks (under
 * pcpu_alloc_mutex); a mask without all of GFP_KERNEL is pcpu_alloc()'s
 * atomic case, served from pages already populated, never sleeping, and
 * failing when they are full (pcpu_balance_workfn() populates more later).
 * The object is a per-CPU pointer: the run's write (AB_RUN_WRITE) writes
 * the copy of the CPU it runs on.
 */
static __always_inline void *percpu_loop_alloc(struct ab_loop *l)
{
	struct ab_ctx *ctx = ab_ctx_of(l);

	return (__force void *)__alloc_percpu_gfp(ctx->size, ctx->align,
						  ctx->gfp);
}

static __always_inline void percpu_loop_free(struct ab_loop *l, void *obj)
{
	free_percpu((void __percpu __force *)obj);
}

static __always_inline void percpu_loop_write(struct ab_loop *l, void *obj)
{
	struct ab_ctx *ctx = ab_ctx_of(l);

	if (ctx->write)
		memset(raw_cpu_ptr((void __percpu __force *)obj), 0x5a,
		       ctx->size);
}

u32 ab_percpu_alloc_phase(struct ab_ctx *ctx, u64 *cycles)
{
	return ab_alloc_loop(&ctx->loop, cycles, percpu_loop_alloc,
			     percpu_loop_free, percpu_loop_write);
}

void ab_percpu_free_phase(struct ab_ctx *ctx, u32 n, u64 *cycles)
{
	ab_free_loop(&ctx->loop, n, cycles, percpu_loop_free);
}

/* ab_run.align, or the alignment of a u64 */
int ab_percpu_setup(struct ab_ctx *ctx)
{
	BUILD_BUG_ON(PCPU_MIN_UNIT_SIZE != AB_PCPU_MAX_SIZE);
	ctx->align = ctx->run->align ? ctx->run->align : AB_PCPU_ALIGN;
	return 0;
}

/*
 * The node of the first page of the checking CPU's copy: the first chunk
 * is in the linear map, the others are vmalloc'ed (mm/percpu-vm.c).
 */
int ab_percpu_node(struct ab_ctx *ctx, void *obj)
{
	void *p = per_cpu_ptr((void __percpu __force *)obj,
			      raw_smp_processor_id());

	return page_to_nid(is_vmalloc_addr(p) ? vmalloc_to_page(p) :
						virt_to_page(p));
}

/* ---- mempool: kmalloc elements and a reserve of ab_run.pool_min ---- */

int ab_pool_obj_node(struct ab_ctx *ctx, void *obj)
{
	return page_to_nid(virt_to_page(obj));
}

/*
 * mempool_alloc() (6.10 on: a macro over mempool_alloc_noprof()) tries the
 * pool's allocator (mempool_kmalloc()) first without direct reclaim or
 * I/O, and takes an element from the reserve only when that fails.
 */
static __always_inline void *mempool_one(struct ab_ctx *ctx)
{
	return mempool_alloc(ctx->pool, ctx->gfp);
}

/* the reserve alone: NULL when it is empty, the allocator never called */
#ifdef AB_HAVE_MEMPOOL_PREALLOCATED
static __always_inline void *mempool_reserve_one(struct ab_ctx *ctx)
{
	return mempool_alloc_preallocated(ctx->pool);
}
#else
#define mempool_reserve_one mempool_one
#endif

/* back to the reserve while it is short of pool_min, else kfree() */
static __always_inline void mempool_free_one(struct ab_ctx *ctx, void *obj)
{
	mempool_free(obj, ctx->pool);
}

AB_PHASES(mempool, mempool_one, mempool_free_one)
AB_PHASES(mempool_reserve, mempool_reserve_one, mempool_free_one)

/*
 * What the alloc phase took from the reserve: it began full (the last
 * free phase put back every element first), nothing frees during it, so
 * pool_min less curr_nr, read after the phase's last stamp. With pairs
 * each free refills it at once: not counted.
 */
static void ab_pool_taken(struct ab_ctx *ctx)
{
	if (!ctx->loop.pair)
		ctx->loop.reserve = ctx->pool_min - READ_ONCE(ctx->pool->curr_nr);
}

u32 ab_mempool_alloc_phase(struct ab_ctx *ctx, u64 *cycles)
{
	u32 n = mempool_alloc_phase(ctx, cycles);

	ab_pool_taken(ctx);
	return n;
}

void ab_mempool_free_phase(struct ab_ctx *ctx, u32 n, u64 *cycles)
{
	mempool_free_phase(ctx, n, cycles);
}

u32 ab_mempool_reserve_alloc_phase(struct ab_ctx *ctx, u64 *cycles)
{
	u32 n = mempool_reserve_alloc_phase(ctx, cycles);

	ab_pool_taken(ctx);
	return n;
}

void ab_mempool_reserve_free_phase(struct ab_ctx *ctx, u32 n, u64 *cycles)
{
	mempool_reserve_free_phase(ctx, n, cycles);
}

/*
 * mempool_create_kmalloc_pool(): the pool and its reserve of pool_min
 * elements, made now with GFP_KERNEL, outside the trials (counted in the
 * budget), after a condition's pages were given back (ab_run()): those
 * allocations above PAGE_ALLOC_COSTLY_ORDER do not retry, and memory held
 * fragmented below the elements' order may have no block left for them.
 */
int ab_mempool_setup(struct ab_ctx *ctx)
{
	ctx->pool_min = ctx->run->pool_min;
	ctx->pool = mempool_create_node(ctx->pool_min, mempool_kmalloc,
					mempool_kfree, (void *)ctx->size,
					GFP_KERNEL, NUMA_NO_NODE);
	return ctx->pool ? 0 : -ENOMEM;
}

/* every element is back in the reserve: mempool_destroy() kfree()s them */
void ab_mempool_teardown(struct ab_ctx *ctx)
{
	mempool_destroy(ctx->pool);
	ctx->pool = NULL;
}

/* ---- page_frag: fragments of a page_frag_cache made for the run ---- */

/*
 * page_frag_alloc() is an inline over the exported function that does the
 * work: page_frag_alloc_align() (6.1) or __page_frag_alloc_align() (6.12
 * on, mm/page_frag_cache.c), AB_PAGE_FRAG_CALL. The cache refills with a
 * 32 KiB compound page (order 3, __GFP_NORETRY), or one page when that
 * fails; a page goes back when its last fragment is freed and the cache
 * has left it.
 */
static __always_inline void *page_frag_one(struct ab_ctx *ctx)
{
	return page_frag_alloc(ctx->frag, ctx->size, ctx->gfp);
}

static __always_inline void page_frag_free_one(struct ab_ctx *ctx, void *obj)
{
	page_frag_free(obj);
}

AB_PHASES_LINKED(, ab_page_frag, page_frag_one, page_frag_free_one)

/* an empty cache is all zero (7.x page_frag_cache_init() writes 0) */
int ab_page_frag_setup(struct ab_ctx *ctx)
{
	BUILD_BUG_ON(PAGE_FRAG_CACHE_MAX_SIZE != AB_FRAG_PAGE_BYTES);
	ctx->frag = kzalloc(sizeof(*ctx->frag), GFP_KERNEL_ACCOUNT);
	return ctx->frag ? 0 : -ENOMEM;
}

/*
 * The cache's own references to its current page dropped: with every
 * fragment freed, the page goes back. 6.1 has no page_frag_cache_drain():
 * its body, as 6.12 wrote it, is the bias given back through
 * __page_frag_cache_drain().
 */
void ab_page_frag_teardown(struct ab_ctx *ctx)
{
#ifdef AB_HAVE_PAGE_FRAG_CACHE_DRAIN
	page_frag_cache_drain(ctx->frag);
#else
	if (ctx->frag->va)
		__page_frag_cache_drain(virt_to_head_page(ctx->frag->va),
					ctx->frag->pagecnt_bias);
#endif
	kfree(ctx->frag);
	ctx->frag = NULL;
}
