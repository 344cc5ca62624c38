// SPDX-License-Identifier: GPL-2.0
/*
 * strategies.c - the allocation strategies of allocbench.ko, one small pair of
 * functions each, registered in ab_strategies[].
 *
 * Each strategy supplies an "alloc one" and a "free one" function. The
 * AB_PHASES() macro (ab_internal.h) wraps them in the timed loops of
 * common/ab_trial.h (which the user backend runs too), __always_inline
 * with the per-object functions known at compile time, so the measured
 * loop holds a direct (inlined) call to the allocator and no indirect
 * call per object. The "none" strategy runs the same loops with no
 * allocation and is the baseline for loop and clock overhead. The pools
 * (percpu, mempool, page_frag) have their functions in strategies_pools.c,
 * vmalloc_huge, kmem_buckets and cma in strategies_big.c, the bulk APIs
 * (kmem_cache_bulk, kfree_bulk, alloc_pages_bulk) in strategies_bulk.c,
 * their entries here.
 */

#include <linux/gfp.h>
#include <linux/mm.h>
#include <linux/percpu.h>
#include <linux/slab.h>
#include <linux/vmalloc.h>
#include <linux/sched.h>
#include <linux/atomic.h>
#include <linux/timex.h>
#include <linux/kernel.h>
#include <linux/linkage.h>
#include <asm/ibt.h>
#include "ab_internal.h"
#include "ab_lookup.h"

/* ---- node checks (run between the phases, outside the timed loops) ---- */

/*
 * The node of an object's pages, as page_to_nid() states it, or
 * NUMA_NO_NODE when they are on more than one: a slab object's slab and a
 * block of pages are each on one node, a vmalloc area's pages each on
 * their own.
 */
static int ab_lowmem_node(struct ab_ctx *ctx, void *obj)
{
	return page_to_nid(virt_to_page(obj));
}

int ab_page_node(struct ab_ctx *ctx, void *obj)
{
	return page_to_nid((struct page *)obj);
}

int ab_vmalloc_node(struct ab_ctx *ctx, void *obj)
{
	int nid = page_to_nid(vmalloc_to_page(obj));
	size_t off;

	for (off = PAGE_SIZE; off < ctx->size; off += PAGE_SIZE) {
		if (page_to_nid(vmalloc_to_page(obj + off)) != nid)
			return NUMA_NO_NODE;
		if (!(off & ((1UL << 24) - 1)))
			cond_resched();
	}
	return nid;
}

static int ab_kv_node(struct ab_ctx *ctx, void *obj)
{
	if (is_vmalloc_addr(obj))
		return ab_vmalloc_node(ctx, obj);
	return ab_lowmem_node(ctx, obj);
}

/*
 * ---- none: the baseline ----
 *
 * Each allocator strategy's loop calls out of line once per object
 * (kmalloc() with a run-time size is a call to __kmalloc(), kfree() one to
 * kfree()): the loop saves and reloads what the call clobbers, and pays
 * the call and return. The baseline's per-object functions are calls too,
 * written in assembly so the compiler can neither see through nor inline
 * them, with kmalloc's and kfree()'s call sites: two arguments loaded from
 * the context (the object it returns, this context, and the gfp mask) and
 * the object. tests/kernel/shape.sh checks it in the built module: none's
 * phases make as many calls as kmalloc's.
 *
 * Their bodies (from ab_none_text to ab_none_text_end) are the harness's
 * too: the module hands their range to the virtual PMU (vpmu.c), which
 * does not count them, so kmalloc's net count is the instructions of
 * __kmalloc() and kfree() alone. A pad before each keeps the range's
 * label off the function's first instruction, and each label is an ENDBR
 * (ASM_ENDBR: on IBT kernels objtool refuses a reference to code that
 * does not begin with one, "relocation to !ENDBR"), then ud2, never
 * executed (objtool knows it ends a function, as it does not int3).
 */
asm(".pushsection .text, \"ax\"\n"
	".globl ab_none_text\n"
	".type ab_none_text, @function\n"
	"ab_none_text:\n"
	ASM_ENDBR
	"\tud2\n"
	".size ab_none_text, . - ab_none_text\n"
	".type ab_none_call, @function\n"
	"ab_none_call:\n"
	"\tmov %rdi, %rax\n"
	"\t" ASM_RET
	".size ab_none_call, . - ab_none_call\n"
	"\tint3\n"
	".type ab_none_free_call, @function\n"
	"ab_none_free_call:\n"
	"\t" ASM_RET
	".size ab_none_free_call, . - ab_none_free_call\n"
	".globl ab_none_text_end\n"
	".type ab_none_text_end, @function\n"
	"ab_none_text_end:\n"
	ASM_ENDBR
	"\tud2\n"
	".size ab_none_text_end, . - ab_none_text_end\n"
	".popsection\n");

static __always_inline void *none_one(struct ab_ctx *ctx)
{
	return ab_none_call(ctx->self, ctx->gfp);
}

static __always_inline void none_free(struct ab_ctx *ctx, void *obj)
{
	ab_none_free_call(obj);
}

AB_PHASES(none, none_one, none_free)

/*
 * ---- vpmu_known: the virtual PMU's known answer ----
 *
 * none's loops and call sites, calling two functions of known assembly
 * outside the harness's range instead: with the virtual PMU the net count
 * per op is their length, which tests/kernel/vpmu.sh compares with what
 * objdump of this module says (vpmu/known-length.sh, run by
 * scripts/vm/vm-image.sh): the baseline takes out the harness and nothing
 * else. On hardware, a few instructions per op.
 */
asm(".pushsection .text, \"ax\"\n"
	"\tint3\n"
	".type ab_known_call, @function\n"
	"ab_known_call:\n"
	"\tmov %rdi, %rax\n"
	"\txor %edx, %edx\n"
	"\tadd $1, %rdx\n"
	"\tadd $1, %rdx\n"
	"\tadd $1, %rdx\n"
	"\t" ASM_RET
	".size ab_known_call, . - ab_known_call\n"
	"\tint3\n"
	".type ab_known_free_call, @function\n"
	"ab_known_free_call:\n"
	"\txor %eax, %eax\n"
	"\tadd $1, %rax\n"
	"\t" ASM_RET
	".size ab_known_free_call, . - ab_known_free_call\n"
	".popsection\n");

static __always_inline void *known_one(struct ab_ctx *ctx)
{
	return ab_known_call(ctx->self, ctx->gfp);
}

static __always_inline void known_free(struct ab_ctx *ctx, void *obj)
{
	ab_known_free_call(obj);
}

AB_PHASES(vpmu_known, known_one, known_free)

/* ---- page allocator ---- */

static __always_inline void *gfp_pages_one(struct ab_ctx *ctx)
{
	return (void *)__get_free_pages(ctx->gfp, ctx->page_order);
}

static __always_inline void gfp_pages_free(struct ab_ctx *ctx, void *obj)
{
	free_pages((unsigned long)obj, ctx->page_order);
}

AB_PHASES(get_free_pages, gfp_pages_one, gfp_pages_free)

static __always_inline void *pages_node_one(struct ab_ctx *ctx)
{
	return alloc_pages_node(ctx->node, ctx->gfp, ctx->page_order);
}

static __always_inline void pages_node_free(struct ab_ctx *ctx, void *obj)
{
	__free_pages((struct page *)obj, ctx->page_order);
}

AB_PHASES(alloc_pages_node, pages_node_one, pages_node_free)

/* alloc_pages_node() hands out struct page pointers, not addresses. */
static int pages_setup(struct ab_ctx *ctx)
{
	ctx->objs_are_pages = true;
	return 0;
}

/* ---- kmalloc ---- */

static __always_inline void *kmalloc_one(struct ab_ctx *ctx)
{
	return kmalloc(ctx->size, ctx->gfp);
}

static __always_inline void *kmalloc_node_one(struct ab_ctx *ctx)
{
	return kmalloc_node(ctx->size, ctx->gfp, ctx->node);
}

static __always_inline void kfree_one(struct ab_ctx *ctx, void *obj)
{
	kfree(obj);
}

AB_PHASES(kmalloc, kmalloc_one, kfree_one)
AB_PHASES(kmalloc_node, kmalloc_node_one, kfree_one)

/* ---- kmalloc's own caches, the class found by a chosen lookup ---- */

/*
 * Each class's cache is the kernel's own kmalloc_caches[KMALLOC_NORMAL][]
 * entry at __kmalloc_index() of its size (include/linux/slab.h, the same
 * function with the same (size, size_is_constant) signature in 6.1 and
 * 6.12; false: the size is not a compile-time constant, so an unexpected
 * size would BUG() rather than fail the build, and the table's sizes up to
 * KMALLOC_MAX_CACHE_SIZE all have an index). A class whose cache is missing
 * or whose objects are not of the class size (kmem_cache_size(), the
 * cache's object_size: a kernel whose KMALLOC_MIN_SIZE leaves out the 96
 * and 192 byte caches) is left out: a lookup that finds it fails the
 * allocation, and a run of that class is refused (-EINVAL).
 */
static int kclass_setup(struct ab_ctx *ctx)
{
	const struct ab_class_table *t = ctx->table;
	struct kmem_cache *c;
	int i;

	for (i = 0; i < t->nr; i++) {
		if (t->sizes[i] > KMALLOC_MAX_CACHE_SIZE)
			continue;
		c = kmalloc_caches[KMALLOC_NORMAL]
				  [__kmalloc_index(t->sizes[i], false)];
		if (c && kmem_cache_size(c) == t->sizes[i])
			ctx->kcaches[i] = c;
	}
	ctx->class_idx = ab_lookup_reference(t, ctx->size);
	if (ctx->class_idx < 0 || !ctx->kcaches[ctx->class_idx])
		return -EINVAL;
	return 0;
}

/*
 * The method is a run constant tested by a well-predicted switch in every
 * allocation; AB_LOOKUP_NONE (class found once in setup) pays the same test
 * and is the baseline for the lookup's share of kmalloc.
 */
static __always_inline void *kclass_one(struct ab_ctx *ctx)
{
	int idx = ctx->lookup_method ?
		  ab_lookup(ctx->lookup_method, ctx->table, ctx->size) :
		  ctx->class_idx;

	if (unlikely(idx < 0 || !ctx->kcaches[idx]))
		return NULL;
	return kmem_cache_alloc(ctx->kcaches[idx], ctx->gfp);
}

AB_PHASES(kmalloc_class, kclass_one, kfree_one)

/* ---- a private kmem_cache of the object size (cache.c) ---- */

static __always_inline void *cache_one(struct ab_ctx *ctx)
{
	return kmem_cache_alloc(ctx->cache, ctx->gfp);
}

static __always_inline void *cache_node_one(struct ab_ctx *ctx)
{
	return kmem_cache_alloc_node(ctx->cache, ctx->gfp, ctx->node);
}

static __always_inline void cache_free(struct ab_ctx *ctx, void *obj)
{
	kmem_cache_free(ctx->cache, obj);
}

AB_PHASES(kmem_cache, cache_one, cache_free)
AB_PHASES(kmem_cache_node, cache_node_one, cache_free)

/* ---- vmalloc and kvmalloc ---- */

static __always_inline void *vmalloc_node_one(struct ab_ctx *ctx)
{
	return vmalloc_node(ctx->size, ctx->node);
}

static __always_inline void *vmalloc_one(struct ab_ctx *ctx)
{
	return vmalloc(ctx->size);
}

static __always_inline void vfree_one(struct ab_ctx *ctx, void *obj)
{
	vfree(obj);
}

AB_PHASES(vmalloc_node, vmalloc_node_one, vfree_one)
AB_PHASES(vmalloc_batch, vmalloc_one, vfree_one)

static __always_inline void *kvmalloc_node_one(struct ab_ctx *ctx)
{
	return kvmalloc_node(ctx->size, ctx->gfp, ctx->node);
}

static __always_inline void kvfree_one(struct ab_ctx *ctx, void *obj)
{
	kvfree(obj);
}

AB_PHASES(kvmalloc_node, kvmalloc_node_one, kvfree_one)

/*
 * ---- freed through RCU, and the any-context pair ----
 *
 * The head kfree_rcu() and kin link an object by sits at its start
 * (AB_RCU_MIN_SIZE bytes hold it): struct kvfree_rcu_head since 7.3,
 * where kfree_rcu_nolock() came and which it alone takes, else struct
 * rcu_head. The free phase times the calls that hand the objects over;
 * the wait until they are back is the driver's (ab_drv_drain()).
 */
#ifdef kfree_rcu_nolock
struct ab_rcu_obj {
	struct kvfree_rcu_head head;
};
#else
struct ab_rcu_obj {
	struct rcu_head head;
};
#endif

static __always_inline void kfree_rcu_one(struct ab_ctx *ctx, void *obj)
{
	kfree_rcu((struct ab_rcu_obj *)obj, head);
}

static __always_inline void kvfree_rcu_one(struct ab_ctx *ctx, void *obj)
{
	kvfree_rcu((struct ab_rcu_obj *)obj, head);
}

AB_PHASES(kfree_rcu, kmalloc_one, kfree_rcu_one)
AB_PHASES(kvfree_rcu, kvmalloc_node_one, kvfree_rcu_one)

/*
 * kfree_rcu_nolock() (7.3), kmalloc_nolock() and kfree_nolock() (7.2):
 * callable in any context, NMI included (include/linux/slab.h); a kernel
 * without them keeps the entries, unavailable, their functions the plain
 * ones (never run).
 */
#ifdef kfree_rcu_nolock
static __always_inline void kfree_rcu_nolock_one(struct ab_ctx *ctx, void *obj)
{
	kfree_rcu_nolock((struct ab_rcu_obj *)obj, head);
}

#define AB_RCU_NOLOCK_FLAGS AB_STRATEGY_RCU
#define AB_RCU_NOLOCK_NOT_HERE ""
#else
#define kfree_rcu_nolock_one kfree_rcu_one
#define AB_RCU_NOLOCK_FLAGS (AB_STRATEGY_RCU | AB_STRATEGY_UNAVAILABLE)
#define AB_RCU_NOLOCK_NOT_HERE "; not here: 7.3+"
#endif

#ifdef kmalloc_nolock
static __always_inline void *kmalloc_nolock_one(struct ab_ctx *ctx)
{
	/* its GFP flags: __GFP_ACCOUNT and __GFP_ZERO only */
	return kmalloc_nolock(ctx->size, 0, ctx->node);
}

static __always_inline void kfree_nolock_one(struct ab_ctx *ctx, void *obj)
{
	kfree_nolock(obj);
}

#define AB_NOLOCK_FLAGS AB_STRATEGY_ANY_CONTEXT
#define AB_NOLOCK_NOT_HERE ""
#else
#define kmalloc_nolock_one kmalloc_node_one
#define kfree_nolock_one kfree_one
#define AB_NOLOCK_FLAGS (AB_STRATEGY_ANY_CONTEXT | AB_STRATEGY_UNAVAILABLE)
#define AB_NOLOCK_NOT_HERE "; not here: 7.2+"
#endif

AB_PHASES(kfree_rcu_nolock, kmalloc_one, kfree_rcu_nolock_one)
AB_PHASES(kmalloc_nolock, kmalloc_nolock_one, kfree_nolock_one)

/* ---- the table ---- */

#define AB_SLAB_PARAMS (AB_PARAM_SIZE | AB_PARAM_GFP)
#define AB_PAGE_PARAMS (AB_PARAM_ORDER | AB_PARAM_GFP)
/* kmem_cache objects: keep slabs at or below PAGE_ALLOC_COSTLY_ORDER. */
#define AB_CACHE_MAX_SIZE (PAGE_SIZE << PAGE_ALLOC_COSTLY_ORDER)

#define AB_TABLE_PHASES(fn)						\
	.alloc_phase = fn##_alloc_phase, .free_phase = fn##_free_phase

const struct ab_strategy ab_strategies[] = {
	{
		.name = "none",
		.desc = "no allocation: the same timed loops, for loop and clock overhead",
		.flags = AB_STRATEGY_BASELINE,
		AB_TABLE_PHASES(none),
	},
	{
		.name = "vpmu_known",
		.desc = "test: two functions of known length (the virtual PMU's known answer)",
		AB_TABLE_PHASES(vpmu_known),
	},
	{
		.name = "get_free_pages",
		.desc = "__get_free_pages(gfp, order) / free_pages()",
		.params = AB_PAGE_PARAMS,
		.max_order = AB_MAX_PAGE_ORDER,
		AB_TABLE_PHASES(get_free_pages),
		.obj_node = ab_lowmem_node,
	},
	{
		.name = "alloc_pages_node",
		.desc = "alloc_pages_node(node, gfp, order) / __free_pages()",
		.params = AB_PAGE_PARAMS | AB_PARAM_NODE,
		.max_order = AB_MAX_PAGE_ORDER,
		.setup = pages_setup,
		AB_TABLE_PHASES(alloc_pages_node),
		.obj_node = ab_page_node,
	},
	{
		.name = "kmalloc",
		.mem = AB_MEM_KMALLOC,
		.desc = "kmalloc(size, gfp) / kfree()",
		.params = AB_SLAB_PARAMS,
		.max_size = KMALLOC_MAX_SIZE,
		AB_TABLE_PHASES(kmalloc),
		.obj_node = ab_lowmem_node,
	},
	{
		.name = "kmalloc_node",
		.mem = AB_MEM_KMALLOC,
		.desc = "kmalloc_node(size, gfp, node) / kfree()",
		.params = AB_SLAB_PARAMS | AB_PARAM_NODE,
		.max_size = KMALLOC_MAX_SIZE,
		AB_TABLE_PHASES(kmalloc_node),
		.obj_node = ab_lowmem_node,
	},
	{
		.name = "kmem_buckets",
		.mem = AB_MEM_BUCKETS,
		.desc = "kmem_buckets_alloc() from buckets made for the run / kfree()",
		.params = AB_SLAB_PARAMS,
		.max_size = KMALLOC_MAX_CACHE_SIZE,
		.setup = ab_buckets_setup,
		.setup_allocates = true,
		.teardown = ab_buckets_teardown,
		AB_TABLE_PHASES(ab_buckets),
		.obj_node = ab_lowmem_node,
		.lacks = ab_buckets_lacks,
	},
	{
		.name = "kmalloc_class",
		.mem = AB_MEM_KMALLOC,
		.desc = "kmem_cache_alloc(kmalloc_caches[][class]), the class found by --lookup",
		.params = AB_SLAB_PARAMS | AB_PARAM_LOOKUP,
		.max_size = KMALLOC_MAX_CACHE_SIZE,
		.setup = kclass_setup,
		AB_TABLE_PHASES(kmalloc_class),
		.obj_node = ab_lowmem_node,
	},
	{
		.name = "kmem_cache",
		.mem = AB_MEM_CACHE,
		.desc = "kmem_cache_alloc() from a cache of the object size made for the run",
		.params = AB_SLAB_PARAMS | AB_PARAM_CACHE,
		.max_size = AB_CACHE_MAX_SIZE,
		.setup = ab_cache_setup,
		.setup_allocates = true,
		.teardown = ab_cache_teardown,
		AB_TABLE_PHASES(kmem_cache),
		.obj_node = ab_lowmem_node,
	},
	{
		.name = "kmem_cache_node",
		.mem = AB_MEM_CACHE,
		.desc = "kmem_cache_alloc_node() from a cache of the object size made for the run",
		.params = AB_SLAB_PARAMS | AB_PARAM_CACHE | AB_PARAM_NODE,
		.max_size = AB_CACHE_MAX_SIZE,
		.setup = ab_cache_setup,
		.setup_allocates = true,
		.teardown = ab_cache_teardown,
		AB_TABLE_PHASES(kmem_cache_node),
		.obj_node = ab_lowmem_node,
	},
	{
		.name = "kmem_cache_account",
		.mem = AB_MEM_CACHE,
		.desc = "kmem_cache_alloc() from a SLAB_ACCOUNT cache made for the run: charged to the memcg",
		.params = AB_SLAB_PARAMS | AB_PARAM_CACHE,
		.flags = AB_STRATEGY_ACCOUNT,
		.max_size = AB_CACHE_MAX_SIZE,
		.setup = ab_cache_setup,
		.setup_allocates = true,
		.teardown = ab_cache_teardown,
		AB_TABLE_PHASES(kmem_cache),
		.obj_node = ab_lowmem_node,
	},
	{
		.name = "vmalloc_node",
		.mem = AB_MEM_VMALLOC,
		.desc = "vmalloc_node(size, node) / vfree(), one object per call",
		/* vmalloc_node() takes no GFP mask: failures are logged */
		.params = AB_PARAM_SIZE | AB_PARAM_NODE,
		.max_size = U64_MAX,
		AB_TABLE_PHASES(vmalloc_node),
		.obj_node = ab_vmalloc_node,
		.obj_map = ab_vmalloc_map,
	},
	{
		.name = "vmalloc_batch",
		.mem = AB_MEM_VMALLOC,
		.desc = "one vmalloc(batch x size) per trial, the whole batch in one area",
		.params = AB_PARAM_SIZE,
		.max_size = U64_MAX,
		/*
		 * The 2019 scatterlist seed timed ONE vmalloc(100 * PAGE_SIZE)
		 * per trial against 100 page-sized allocations of the others.
		 */
		.one_object = true,
		.flags = AB_STRATEGY_PER_TRIAL,
		AB_TABLE_PHASES(vmalloc_batch),
		.obj_node = ab_vmalloc_node,
		.obj_map = ab_vmalloc_map,
	},
	{
		.name = "vmalloc_huge",
		.mem = AB_MEM_VMALLOC_HUGE,
		.desc = "vmalloc_huge(size, GFP_KERNEL) / vfree(): 2 MiB pages from 2 MiB up",
		.params = AB_PARAM_SIZE,
		.max_size = U64_MAX,
		AB_TABLE_PHASES(ab_vmalloc_huge),
		.obj_node = ab_vmalloc_node,
		.obj_map = ab_vmalloc_map,
		.lacks = ab_vmalloc_huge_lacks,
	},
	{
		.name = "kvmalloc_node",
		.mem = AB_MEM_KVMALLOC,
		.desc = "kvmalloc_node(size, gfp, node) / kvfree(): kmalloc, vmalloc fallback",
		.params = AB_SLAB_PARAMS | AB_PARAM_NODE,
		/* mm/util.c: kvmalloc_node() WARNs on sizes above INT_MAX */
		.max_size = INT_MAX,
		AB_TABLE_PHASES(kvmalloc_node),
		.obj_node = ab_kv_node,
		.obj_map = ab_vmalloc_map,
	},
	{
		.name = "kfree_rcu",
		.mem = AB_MEM_KMALLOC,
		.desc = "kmalloc(size, gfp) / kfree_rcu()",
		.params = AB_SLAB_PARAMS,
		.flags = AB_STRATEGY_RCU,
		.max_size = KMALLOC_MAX_SIZE,
		AB_TABLE_PHASES(kfree_rcu),
		.obj_node = ab_lowmem_node,
	},
	{
		.name = "kvfree_rcu",
		.mem = AB_MEM_KVMALLOC,
		.desc = "kvmalloc_node(size, gfp, node) / kvfree_rcu()",
		.params = AB_SLAB_PARAMS | AB_PARAM_NODE,
		.flags = AB_STRATEGY_RCU,
		.max_size = INT_MAX,
		AB_TABLE_PHASES(kvfree_rcu),
		.obj_node = ab_kv_node,
	},
	{
		.name = "kfree_rcu_nolock",
		.mem = AB_MEM_KMALLOC,
		.desc = "kmalloc(size, gfp) / kfree_rcu_nolock(), any context" AB_RCU_NOLOCK_NOT_HERE,
		.params = AB_SLAB_PARAMS,
		.flags = AB_RCU_NOLOCK_FLAGS,
		.max_size = KMALLOC_MAX_SIZE,
		AB_TABLE_PHASES(kfree_rcu_nolock),
		.obj_node = ab_lowmem_node,
	},
	{
		.name = "kmalloc_nolock",
		.mem = AB_MEM_KMALLOC,
		.desc = "kmalloc_nolock(size, 0, node) / kfree_nolock(), any context" AB_NOLOCK_NOT_HERE,
		.params = AB_PARAM_SIZE | AB_PARAM_NODE,
		.flags = AB_NOLOCK_FLAGS,
		.max_size = KMALLOC_MAX_CACHE_SIZE,
		AB_TABLE_PHASES(kmalloc_nolock),
		.obj_node = ab_lowmem_node,
	},
	/* ---- strategies_bulk.c ---- */
	{
		.name = "kmem_cache_bulk",
		.mem = AB_MEM_CACHE,
		.desc = "kmem_cache_alloc_bulk() / kmem_cache_free_bulk() of --batch objects, a cache made for the run",
		.params = AB_SLAB_PARAMS | AB_PARAM_CACHE,
		.flags = AB_STRATEGY_PER_TRIAL | AB_STRATEGY_IRQS_ON,
		.max_size = AB_CACHE_MAX_SIZE,
		.setup = ab_cache_bulk_setup,
		.setup_allocates = true,
		.teardown = ab_cache_bulk_teardown,
		AB_TABLE_PHASES(ab_cache_bulk),
		.obj_node = ab_lowmem_node,
	},
	{
		.name = "kfree_bulk",
		.mem = AB_MEM_KMALLOC,
		.desc = "kmalloc() of each object / one kfree_bulk() of --batch objects",
		.params = AB_SLAB_PARAMS,
		.flags = AB_STRATEGY_PER_TRIAL,
		.max_size = KMALLOC_MAX_SIZE,
		.setup = ab_bulk_setup,
		.setup_allocates = true,
		.teardown = ab_bulk_teardown,
		AB_TABLE_PHASES(ab_kfree_bulk),
		.obj_node = ab_lowmem_node,
	},
	{
		.name = "alloc_pages_bulk",
		.desc = "alloc_pages_bulk_array_node() (alloc_pages_bulk_node() from 6.14) of --batch order-0 pages / __free_page() each",
		.params = AB_PAGE_PARAMS | AB_PARAM_NODE,
		.flags = AB_STRATEGY_PER_TRIAL,
		.max_order = 0,
		.setup = pages_setup,
		AB_TABLE_PHASES(ab_pages_bulk),
		.obj_node = ab_page_node,
	},
	/* ---- strategies_pools.c ---- */
	{
		.name = "percpu",
		.mem = AB_MEM_PERCPU,
		.desc = "__alloc_percpu_gfp(size, align, gfp) / free_percpu()",
		.params = AB_SLAB_PARAMS | AB_PARAM_ALIGN,
		.max_size = PCPU_MIN_UNIT_SIZE,
		.setup = ab_percpu_setup,
		.setup_allocates = true,
		AB_TABLE_PHASES(ab_percpu),
		.obj_node = ab_percpu_node,
	},
	{
		.name = "mempool",
		.mem = AB_MEM_MEMPOOL,
		.desc = "mempool_alloc(pool, gfp) / mempool_free(), a kmalloc pool of --pool-min",
		.params = AB_SLAB_PARAMS | AB_PARAM_POOL,
		.max_size = KMALLOC_MAX_SIZE,
		.setup = ab_mempool_setup,
		.setup_allocates = true,
		.teardown = ab_mempool_teardown,
		AB_TABLE_PHASES(ab_mempool),
		.obj_node = ab_pool_obj_node,
	},
	{
		.name = "mempool_reserve",
		.mem = AB_MEM_MEMPOOL,
		.desc = "mempool_alloc_preallocated() / mempool_free(): the reserve alone" AB_MEMPOOL_RESERVE_NOT_HERE,
		.params = AB_PARAM_SIZE | AB_PARAM_POOL,
		.flags = AB_MEMPOOL_RESERVE_FLAGS,
		.max_size = KMALLOC_MAX_SIZE,
		.setup = ab_mempool_setup,
		.setup_allocates = true,
		.teardown = ab_mempool_teardown,
		AB_TABLE_PHASES(ab_mempool_reserve),
		.obj_node = ab_pool_obj_node,
	},
	{
		.name = "page_frag",
		.mem = AB_MEM_FRAG,
		.desc = "page_frag_alloc() (" AB_PAGE_FRAG_CALL ") / page_frag_free(), a cache of the run's",
		.params = AB_SLAB_PARAMS,
		.max_size = PAGE_SIZE,
		.setup = ab_page_frag_setup,
		.setup_allocates = true,
		.teardown = ab_page_frag_teardown,
		AB_TABLE_PHASES(ab_page_frag),
		.obj_node = ab_pool_obj_node,
	},
	/* ---- strategies_big.c ---- */
	{
		.name = "cma",
		.mem = AB_MEM_CMA,
		.desc = "cma_alloc(default area, 2^order pages) / cma_release()",
		.params = AB_PARAM_ORDER,
		.max_order = AB_MAX_PAGE_ORDER,
		.setup = ab_cma_setup,
		AB_TABLE_PHASES(ab_cma),
		.obj_node = ab_page_node,
		.lacks = ab_cma_lacks,
	},
};

const unsigned int ab_nr_strategies = ARRAY_SIZE(ab_strategies);
