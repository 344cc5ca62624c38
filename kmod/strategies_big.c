// SPDX-License-Identifier: GPL-2.0
/*
 * strategies_big.c - three strategies whose entries are in the table of
 * strategies.c: vmalloc_huge (an area mapped with 2 MiB pages from 2 MiB
 * up), kmem_buckets (dedicated kmalloc buckets, made for the run) and cma
 * (pages of the default CMA area); and the mapping check of the vmalloc
 * strategies, the page sizes an area is mapped with as the kernel's page
 * tables state them.
 *
 * What each kernel offers, from Debian's builds (their Module.symvers and
 * config, read by kmod/Kbuild): vmalloc_huge() is exported to GPL modules
 * by 6.1, 6.12 (vmalloc_huge_noprof()) and 7.3 (vmalloc_huge_node_noprof());
 * kmem_buckets_create() (6.11+) by 6.12 and 7.3, both with
 * CONFIG_SLAB_BUCKETS=y; cma_alloc(), cma_release() and dev_get_cma_area()
 * by 7.3 alone (CONFIG_CMA is off in Debian's 6.1 and 6.12), whose default
 * area exists only when the kernel is booted with cma=SIZE
 * (CONFIG_CMA_SIZE_MBYTES=0). A strategy the kernel lacks stays in the
 * table, unavailable, its lacks() saying why.
 */

#include <linux/atomic.h>
#include <linux/gfp.h>
#include <linux/mm.h>
#include <linux/sched.h>
#include <linux/sched/signal.h>
#include <linux/slab.h>
#include <linux/vmalloc.h>
#ifdef AB_HAVE_CMA
#include <linux/cma.h>
#include <linux/dma-map-ops.h>
#endif
#include "ab_internal.h"

/* ---- the mapping check ---- */

/*
 * ab_vmalloc_map - where @obj is a vmalloc area, the leaf entries that map
 * its ctx->size bytes, counted in @pages by the size they map: x86's
 * lookup_address() walks the kernel's page tables (init_mm) and says at
 * which level each address's entry is (PG_LEVEL_4K, 2M, 1G), the next
 * address looked up being the first past that entry. Outside the timed
 * phases (the check trials); false, counting nothing, for any other
 * object, and on other architectures.
 */
bool ab_vmalloc_map(struct ab_ctx *ctx, void *obj, u64 *pages)
{
#ifdef CONFIG_X86
	unsigned long addr = (unsigned long)obj;
	unsigned long end = addr + ctx->size;
	unsigned long span;
	unsigned int level, n = 0;
	pte_t *pte;

	if (!is_vmalloc_addr(obj))
		return false;
	while (addr < end) {
		pte = lookup_address(addr, &level);
		if (!pte || !pte_present(*pte))
			break;
		switch (level) {
		case PG_LEVEL_4K:
			pages[AB_MAP_4K]++;
			span = PAGE_SIZE;
			break;
		case PG_LEVEL_2M:
			pages[AB_MAP_2M]++;
			span = PMD_SIZE;
			break;
		case PG_LEVEL_1G:
			pages[AB_MAP_1G]++;
			span = PUD_SIZE;
			break;
		default:
			return true;
		}
		addr = ALIGN_DOWN(addr, span) + span;
		if (!(++n & 4095))
			cond_resched();
	}
	return true;
#else
	return false;
#endif
}

/* ---- vmalloc_huge ---- */

/*
 * vmalloc_huge() (mm/vmalloc.c): __vmalloc_node_range() with
 * VM_ALLOW_HUGE_VMAP, which on an architecture with huge vmap
 * (CONFIG_HAVE_ARCH_HUGE_VMALLOC: x86_64) maps an area of PMD_SIZE or
 * more with PMD_SIZE pages, its size rounded up to them, unless the
 * kernel was booted with nohugevmalloc or a 2 MiB block could not be had
 * (then it falls back to 4 KiB pages). The mapping check says what it got.
 * Its GFP mask here: GFP_KERNEL | __GFP_NOWARN (the run's ctx->gfp, the
 * only choice offered: vmalloc's own page tables are GFP_KERNEL anyway).
 */
#ifdef AB_HAVE_VMALLOC_HUGE
static __always_inline void *vmalloc_huge_one(struct ab_ctx *ctx)
{
	return vmalloc_huge(ctx->size, ctx->gfp);
}

const char *ab_vmalloc_huge_lacks(void)
{
	return NULL;
}
#else
static __always_inline void *vmalloc_huge_one(struct ab_ctx *ctx)
{
	return NULL;
}

const char *ab_vmalloc_huge_lacks(void)
{
	return "vmalloc_huge() not exported";
}
#endif

static __always_inline void vfree_big(struct ab_ctx *ctx, void *obj)
{
	vfree(obj);
}

AB_PHASES_LINKED(, ab_vmalloc_huge, vmalloc_huge_one, vfree_big)

/* ---- kmem_buckets ---- */

/*
 * kmem_buckets_create() (mm/slab_common.c, 6.11+) makes a copy of each
 * kmalloc cache (SLAB_NO_MERGE, named NAME-SIZE), which
 * kmem_buckets_alloc() then serves like kmalloc() up to
 * KMALLOC_MAX_CACHE_SIZE (above it, the same pages as kmalloc_large(),
 * so the strategy stops there). The kernel has no kmem_buckets_destroy():
 * its users create theirs once and keep them. Made for one run here, they
 * are undone as kmem_buckets_create() itself undoes them when one cache
 * fails: kmem_cache_destroy() of each cache, then kfree() of the array,
 * a slab object of its own cache. Without CONFIG_SLAB_BUCKETS it returns
 * ZERO_SIZE_PTR and kmalloc serves every call: unavailable then.
 */
#if defined(AB_HAVE_KMEM_BUCKETS) && IS_ENABLED(CONFIG_SLAB_BUCKETS)
static atomic_t ab_buckets_seq = ATOMIC_INIT(0);

int ab_buckets_setup(struct ab_ctx *ctx)
{
	char name[AB_CACHE_NAME_LEN];

	snprintf(name, sizeof(name), "allocbench-bk%d",
		 atomic_inc_return(&ab_buckets_seq));
	ctx->buckets = kmem_buckets_create(name, 0, 0, 0, NULL);
	return ctx->buckets ? 0 : -ENOMEM;
}

void ab_buckets_teardown(struct ab_ctx *ctx)
{
	kmem_buckets *b = ctx->buckets;
	unsigned int i;

	if (!b)
		return;
	for (i = 0; i < ARRAY_SIZE(*b); i++)
		kmem_cache_destroy((*b)[i]);
	kfree(b);
	ctx->buckets = NULL;
}

static __always_inline void *buckets_one(struct ab_ctx *ctx)
{
	return kmem_buckets_alloc((kmem_buckets *)ctx->buckets, ctx->size,
				  ctx->gfp);
}

const char *ab_buckets_lacks(void)
{
	return NULL;
}
#else
int ab_buckets_setup(struct ab_ctx *ctx)
{
	return -EOPNOTSUPP;
}

void ab_buckets_teardown(struct ab_ctx *ctx)
{
}

static __always_inline void *buckets_one(struct ab_ctx *ctx)
{
	return NULL;
}

const char *ab_buckets_lacks(void)
{
#ifdef AB_HAVE_KMEM_BUCKETS
	return "CONFIG_SLAB_BUCKETS off";
#else
	return "6.11+";
#endif
}
#endif

static __always_inline void kfree_big(struct ab_ctx *ctx, void *obj)
{
	kfree(obj);
}

AB_PHASES_LINKED(, ab_buckets, buckets_one, kfree_big)

/* ---- cma ---- */

/*
 * cma_alloc() (mm/cma.c) of 2^order pages aligned to 2^order from the
 * default CMA area, dev_get_cma_area(NULL) (kernel/dma/contiguous.c:
 * dma_contiguous_default_area, reserved at boot by cma=SIZE or
 * CONFIG_CMA_SIZE_MBYTES): a free range in the area's bitmap, then
 * alloc_contig_range() migrates whatever movable pages the range holds
 * and takes it, trying the next range when that fails; cma_release()
 * gives the pages back. It sleeps (a mutex, migration), so it takes no
 * GFP choice and runs in process context only; no_warn: a failure is
 * counted, not logged.
 */
#ifdef AB_HAVE_CMA
int ab_cma_setup(struct ab_ctx *ctx)
{
	ctx->objs_are_pages = true;
	ctx->cma = dev_get_cma_area(NULL);
	return ctx->cma ? 0 : -EOPNOTSUPP;
}

/*
 * A pending signal ends the alloc phase before the next block, as
 * ab_drv_yield() ends it between two chunks (ab_loop.stopped: the run
 * ends with -EINTR, the trial unrecorded): one cma_alloc() takes the
 * area's mutex, migrates what the range holds and zeroes the block, and
 * only a fatal signal stops it, so that a batch of them, checked only
 * between trials, held a signalled run for 9 to 76 s in the 7.3 guest
 * (the fuzzer's runs of 13 blocks of order 9, beside others waiting for
 * that mutex, once the suite before it had left movable pages in the
 * area). The check is a load in the timed loop, beside a call of
 * microseconds at least.
 */
static __always_inline void *cma_one(struct ab_ctx *ctx)
{
	if (unlikely(signal_pending(current))) {
		ctx->loop.stopped = true;
		return NULL;
	}
	return cma_alloc(ctx->cma, 1UL << ctx->page_order, ctx->page_order,
			 true);
}

static __always_inline void cma_free(struct ab_ctx *ctx, void *obj)
{
	cma_release(ctx->cma, obj, 1UL << ctx->page_order);
}

const char *ab_cma_lacks(void)
{
	return dev_get_cma_area(NULL) ? NULL :
	       "no CMA area, boot with cma=SIZE";
}

/*
 * ab_cma_pages - the pages of the kernel's CMA areas (ab_info.cma_pages):
 * zone->cma_pages over every online node's zones, since cma_get_size()
 * and totalcma_pages are not exported to modules
 */
unsigned long ab_cma_pages(void)
{
	unsigned long n = 0;
	int nid, i;

	for_each_online_node(nid)
		for (i = 0; i < MAX_NR_ZONES; i++)
			n += NODE_DATA(nid)->node_zones[i].cma_pages;
	return n;
}
#else
int ab_cma_setup(struct ab_ctx *ctx)
{
	return -EOPNOTSUPP;
}

static __always_inline void *cma_one(struct ab_ctx *ctx)
{
	return NULL;
}

static __always_inline void cma_free(struct ab_ctx *ctx, void *obj)
{
}

const char *ab_cma_lacks(void)
{
	return IS_ENABLED(CONFIG_CMA) ? "cma_alloc() not exported" :
					"CONFIG_CMA off";
}

unsigned long ab_cma_pages(void)
{
	return 0;
}
#endif

AB_PHASES_LINKED(, ab_cma, cma_one, cma_free)
