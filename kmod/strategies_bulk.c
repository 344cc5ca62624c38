// SPDX-License-Identifier: GPL-2.0
/*
 * strategies_bulk.c - the strategies of the bulk APIs, one call for the
 * whole batch: kmem_cache_bulk (kmem_cache_alloc_bulk() and
 * kmem_cache_free_bulk() on a cache made for the run), kfree_bulk
 * (kmalloc() of each object, one kfree_bulk()) and alloc_pages_bulk
 * (order-0 pages into an array, __free_page() of each). Their entries are
 * in the table of strategies.c (AB_STRATEGY_PER_TRIAL): each phase is
 * timed whole, its own get_cycles() around the call, with the virtual
 * PMU's markers of common/ab_trial.h.
 */

#include <linux/gfp.h>
#include <linux/mm.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/timex.h>
#include "ab_internal.h"

/*
 * A bulk strategy times each phase whole (AB_STRATEGY_PER_TRIAL): in
 * batch timing into *@cycles, in single timing into the trial's one
 * sample. With ctx->loop.pair the free call follows the allocation at once,
 * in the same phase: timed with it in batch timing, apart in single.
 */
static void ab_bulk_times(struct ab_ctx *ctx, u64 *cycles, u64 start,
			  u64 mid, u64 end)
{
	if (ctx->loop.single) {
		ctx->loop.smp[0].alloc_cycles = mid - start;
		if (ctx->loop.pair)
			ctx->loop.smp[0].free_cycles = end - mid;
	} else {
		*cycles = (ctx->loop.pair ? end : mid) - start;
	}
}

/* Where a bulk free phase's cycles go. */
static u64 *ab_bulk_free_cycles(struct ab_ctx *ctx, u64 *cycles)
{
	return ctx->loop.single ? &ctx->loop.smp[0].free_cycles : cycles;
}

/* The trial's objects into ctx->scratch in its free order, untimed. */
static void ab_bulk_order(struct ab_ctx *ctx, u32 n)
{
	u32 i;

	for (i = 0; i < n; i++)
		ctx->scratch[i] = ctx->loop.objs[ctx->loop.free_order[i]];
}

int ab_bulk_setup(struct ab_ctx *ctx)
{
	ctx->scratch = kvcalloc(ctx->loop.nr, sizeof(void *), GFP_KERNEL_ACCOUNT);
	return ctx->scratch ? 0 : -ENOMEM;
}

void ab_bulk_teardown(struct ab_ctx *ctx)
{
	kvfree(ctx->scratch);
	ctx->scratch = NULL;
}

/*
 * kmem_cache_alloc_bulk() / kmem_cache_free_bulk() on a cache of the
 * object size, as prototype-kernel's slab_bulk_test times them: all of
 * the batch or nothing (0 or false on failure, having freed what it
 * took; see ab_kmem_cache_alloc_bulk).
 */
int ab_cache_bulk_setup(struct ab_ctx *ctx)
{
	int err = ab_bulk_setup(ctx);

	if (!err)
		err = ab_cache_setup(ctx);
	if (err)
		ab_bulk_teardown(ctx);
	return err;
}

void ab_cache_bulk_teardown(struct ab_ctx *ctx)
{
	ab_cache_teardown(ctx);
	ab_bulk_teardown(ctx);
}

u32 ab_cache_bulk_alloc_phase(struct ab_ctx *ctx, u64 *cycles)
{
	u64 start, mid;
	u32 i, n;

	start = get_cycles();
	ab_vpmu_at(&ctx->loop, AB_VPMU_ALLOC);
	n = ab_kmem_cache_alloc_bulk(ctx->cache, ctx->gfp, ctx->loop.nr,
				     ctx->loop.objs);
	for (i = 0; i < n; i++)
		ab_write(ctx, ctx->loop.objs[i]);
	ab_vpmu_at(&ctx->loop, AB_VPMU_ALLOC | AB_VPMU_END);
	mid = get_cycles();
	if (ctx->loop.pair && n) {
		ab_vpmu_at(&ctx->loop, AB_VPMU_FREE);
		kmem_cache_free_bulk(ctx->cache, n, ctx->loop.objs);
		ab_vpmu_at(&ctx->loop, AB_VPMU_FREE | AB_VPMU_END);
	}
	ab_bulk_times(ctx, cycles, start, mid, get_cycles());
	return n;
}

void ab_cache_bulk_free_phase(struct ab_ctx *ctx, u32 n, u64 *cycles)
{
	u64 start;

	ab_bulk_order(ctx, n);
	start = get_cycles();
	ab_vpmu_at(&ctx->loop, AB_VPMU_FREE);
	if (n)
		kmem_cache_free_bulk(ctx->cache, n, ctx->scratch);
	ab_vpmu_at(&ctx->loop, AB_VPMU_FREE | AB_VPMU_END);
	*ab_bulk_free_cycles(ctx, cycles) = get_cycles() - start;
}

/*
 * kmalloc() of each object, then one kfree_bulk() for the batch; the
 * per-object allocation is kmalloc's (strategies.c), inlined the same way.
 */
static __always_inline void *kmalloc_loop_alloc(struct ab_loop *l)
{
	struct ab_ctx *ctx = ab_ctx_of(l);

	return kmalloc(ctx->size, ctx->gfp);
}

u32 ab_kfree_bulk_alloc_phase(struct ab_ctx *ctx, u64 *cycles)
{
	u64 alloc, start;
	u32 n;

	/* the kmalloc loop timed whole, as batch timing times it */
	n = ab_alloc_batch(&ctx->loop, &alloc, kmalloc_loop_alloc,
			   ab_write_one);
	start = get_cycles();
	if (ctx->loop.pair && n) {
		ab_vpmu_at(&ctx->loop, AB_VPMU_FREE);
		kfree_bulk(n, ctx->loop.objs);
		ab_vpmu_at(&ctx->loop, AB_VPMU_FREE | AB_VPMU_END);
	}
	ab_bulk_times(ctx, cycles, 0, alloc, alloc + get_cycles() - start);
	return n;
}

void ab_kfree_bulk_free_phase(struct ab_ctx *ctx, u32 n, u64 *cycles)
{
	u64 start;

	ab_bulk_order(ctx, n);
	start = get_cycles();
	ab_vpmu_at(&ctx->loop, AB_VPMU_FREE);
	if (n)
		kfree_bulk(n, ctx->scratch);
	ab_vpmu_at(&ctx->loop, AB_VPMU_FREE | AB_VPMU_END);
	*ab_bulk_free_cycles(ctx, cycles) = get_cycles() - start;
}

/*
 * alloc_pages_bulk_array_node() (6.1, 6.12; alloc_pages_bulk_node() from
 * 6.14, the same call renamed, see ab_alloc_pages_bulk_node): order-0
 * pages into an array, as prototype-kernel's page_bench measures it. It fills
 * only the NULL slots and may return fewer pages than asked (a failed
 * trial); there is no bulk free for an array, so the free phase is
 * __free_page() of each page in the free order, timed whole. The slots
 * are cleared again after each free, outside the timed regions.
 */
static void pages_bulk_put(struct ab_ctx *ctx, void **pages, u32 n)
{
	u32 i;

	for (i = 0; i < n; i++)
		__free_page((struct page *)pages[i]);
}

u32 ab_pages_bulk_alloc_phase(struct ab_ctx *ctx, u64 *cycles)
{
	u64 start, mid;
	u32 i, n;

	start = get_cycles();
	ab_vpmu_at(&ctx->loop, AB_VPMU_ALLOC);
	n = ab_alloc_pages_bulk_node(ctx->gfp, ctx->node, ctx->loop.nr,
				     (struct page **)ctx->loop.objs);
	for (i = 0; i < n; i++)
		ab_write(ctx, ctx->loop.objs[i]);
	ab_vpmu_at(&ctx->loop, AB_VPMU_ALLOC | AB_VPMU_END);
	mid = get_cycles();
	if (ctx->loop.pair) {
		ab_vpmu_at(&ctx->loop, AB_VPMU_FREE);
		pages_bulk_put(ctx, ctx->loop.objs, n);
		ab_vpmu_at(&ctx->loop, AB_VPMU_FREE | AB_VPMU_END);
	}
	ab_bulk_times(ctx, cycles, start, mid, get_cycles());
	if (ctx->loop.pair)
		memset(ctx->loop.objs, 0, n * sizeof(void *));
	return n;
}

void ab_pages_bulk_free_phase(struct ab_ctx *ctx, u32 n, u64 *cycles)
{
	void **objs = ctx->loop.objs;
	u32 *perm = ctx->loop.free_order;
	u64 start;
	u32 i;

	start = get_cycles();
	ab_vpmu_at(&ctx->loop, AB_VPMU_FREE);
	for (i = 0; i < n; i++)
		__free_page((struct page *)objs[perm[i]]);
	ab_vpmu_at(&ctx->loop, AB_VPMU_FREE | AB_VPMU_END);
	*ab_bulk_free_cycles(ctx, cycles) = get_cycles() - start;
	memset(objs, 0, n * sizeof(void *));
}
