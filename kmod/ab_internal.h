/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ab_internal.h - the module-internal interface of allocbench.ko: the
 * run's context and the strategy table (strategies.c), and what each of
 * its files offers the others. From the bottom up: uaccess.c (copies to
 * and from the caller), strategies_pools.c (the per-CPU, mempool and
 * page_frag strategies), strategies.c (the table), driver.c (the trial
 * loop's driver), info.c (the limits, AB_IOC_INFO), run.c (AB_IOC_RUN),
 * lookup.c (AB_IOC_LOOKUP), condition.c (AB_IOC_CONDITION) and
 * allocbench_main.c (the device); each calls
 * only the ones below it; strategies_big.c and strategies_bulk.c hold the
 * functions of three strategies each whose entries are in strategies.c's
 * table.
 */
#ifndef _ALLOCBENCH_INTERNAL_H
#define _ALLOCBENCH_INTERNAL_H

#include <linux/types.h>
#include <linux/gfp.h>
#include <linux/kernel.h>
#include <linux/list.h>
#include <linux/mempool.h>
#include <linux/mm.h>
#include <linux/mmzone.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/timex.h>
#include <linux/allocbench.h>
#include "ab_trial.h"

/* Largest page order the page allocator hands out (6.1: MAX_ORDER - 1). */
#ifdef MAX_PAGE_ORDER
#define AB_MAX_PAGE_ORDER MAX_PAGE_ORDER
#else
#define AB_MAX_PAGE_ORDER (MAX_ORDER - 1)
#endif

/*
 * The page allocator's bulk call into an array on one node: 6.14 renamed
 * alloc_pages_bulk_array_node() to alloc_pages_bulk_node() when the list
 * form went away (include/linux/gfp.h; a macro over the _noprof function
 * since 6.10's allocation tagging, so its name can be tested).
 */
#ifdef alloc_pages_bulk_node
#define ab_alloc_pages_bulk_node alloc_pages_bulk_node
#else
#define ab_alloc_pages_bulk_node alloc_pages_bulk_array_node
#endif

/*
 * Per-CPU sheaves of a private cache (AB_RUN_SHEAVES): asked for with
 * kmem_cache_args.sheaf_capacity since 6.18 (AB_HAVE_SHEAF_ARGS, found in
 * the kernel's own slab.h by kmod/Kbuild). Before 7.0 a cache that asks
 * for none has none. 7.x (AB_SHEAVES_FOR_ALL, kmod/Kbuild) gives every
 * cache sheaves, and a module cannot refuse them with SLAB_NO_SHEAVES
 * (7.2): it is not among the flags
 * kmem_cache_create() permits (-EINVAL and a warning, seen on 7.3.4).
 * mm/slub.c calculate_sheaf_capacity() gives none to SLAB_NOLEAKTRACE
 * caches (kmemleak's own, against recursion), a flag whose only other
 * effect is kmemleak's: used where kmemleak is not built in.
 */
#ifdef AB_SHEAVES_FOR_ALL
#define AB_SLAB_NO_SHEAVES SLAB_NOLEAKTRACE
#define AB_CAN_SHEAVES_OFF (!IS_ENABLED(CONFIG_DEBUG_KMEMLEAK))
#else
#define AB_SLAB_NO_SHEAVES 0
#define AB_CAN_SHEAVES_OFF 1
#endif

/*
 * kmem_cache_alloc_bulk() fills all of @nr slots or none: up to 6.x it
 * returns the count (@nr, or 0 on failure), in 7.x a bool (mm/slub.c).
 * Taken as a count, the bool says one object where the array holds @nr,
 * and the others leak; so both become @nr or 0 here.
 */
static inline u32 ab_kmem_cache_alloc_bulk(struct kmem_cache *s, gfp_t gfp,
					   u32 nr, void **p)
{
	return kmem_cache_alloc_bulk(s, gfp, nr, p) ? nr : 0;
}

struct kmem_cache;
struct ab_class_table;
struct ab_strategy;

/*
 * Largest ab_run.batch, the objects one phase allocates or frees without
 * rescheduling (its loop is timed whole). AB_PHASE_MAX_BYTES bounds its
 * bytes; this bounds its calls: under SLUB debugging (slub_debug=FZPU)
 * each call costs ~22 us in the TCG guest (2^20 8-byte kmem_cache objects
 * in one phase: 23 s, a soft lockup and RCU stalls, seen by the fuzzer on
 * 6.12), so 2^16 keeps a phase near 1.5 s there, far from the soft-lockup
 * detector's 20 s (kernel/watchdog.c); it also bounds the object array
 * (512 KiB).
 */
#define AB_MAX_BATCH BIT(16)
/* Largest trials and warm-up trials of AB_IOC_RUN and AB_IOC_LOOKUP. */
#define AB_MAX_TRIALS BIT(24)

/* How a strategy's memory is counted against max_outstanding_mb. */
enum ab_mem {
	AB_MEM_EXACT,	/* pages of 2^order: exactly the object bytes */
	AB_MEM_KMALLOC, /* kmalloc size classes */
	AB_MEM_CACHE,	/* a kmem_cache of the object size */
	AB_MEM_VMALLOC, /* whole pages and vmalloc bookkeeping */
	AB_MEM_KVMALLOC, /* kmalloc or vmalloc */
	AB_MEM_PERCPU,	/* per-CPU units of the chunk allocator */
	AB_MEM_MEMPOOL,	/* kmalloc size classes and a mempool's reserve */
	AB_MEM_FRAG,	/* a page_frag_cache's 32 KiB pages */
	AB_MEM_VMALLOC_HUGE, /* vmalloc, 2 MiB pages from 2 MiB up */
	AB_MEM_BUCKETS, /* kmalloc size classes, caches made for the run */
	AB_MEM_CMA	/* pages of a CMA area: the object's bytes */
};

struct cma;

/* driver.c: one node's memory counters in the check trials */
struct ab_node_mem;

/**
 * struct ab_ctx - state of one AB_IOC_RUN, shared by the phase functions
 * @loop:   what common/ab_trial.h's loops use (the trial's objects, free
 *          order and samples, the timing and what its phases saw); the
 *          per-object functions and the driver's ops are given it and
 *          reach the rest with ab_ctx_of()
 * @scratch: bulk frees: the trial's objects put in free order, untimed
 * @held:   bytes the trial's objects hold (ab_run_footprint()'s held_bytes)
 * @size:   bytes per allocation (for order strategies PAGE_SIZE << order)
 * @page_order: page order (order strategies)
 * @node:   node passed to *_node allocators (NUMA_NO_NODE for "any")
 * @gfp:    GFP mask built from enum ab_gfp, always with __GFP_NOWARN
 * @nomerge: AB_RUN_NOMERGE was asked for, or AB_RUN_SHEAVES
 * @sheaves: AB_RUN_SHEAVES: the cache gets @sheaf_capacity (0: none)
 * @sheaf_capacity: ab_run.sheaf_capacity
 * @write:  AB_RUN_WRITE: memset each object after allocating it
 * @objs_are_pages: the trial's objects are struct page pointers
 *          (alloc_pages_node)
 * @free_before: AB_STRATEGY_RCU: free pages before the first trial (or
 *          when a wait gave up), 0 before it
 * @node_objs: the node check: checked objects per node, nr_node_ids of
 *          them, for ab_run's obj_node list (driver.c, ab_drv_check())
 * @node_mem: check trials: each node's memory counters before and after
 *          the alloc phase, and whether the trial's objects were on it
 *          (driver.c, ab_drv_mem()); nr_node_ids of them
 * @cache:  the private kmem_cache of the cache strategies, else NULL
 * @cache_merged: AB_MERGED_* for ab_run.cache_merged
 * @cache_name: the name @cache was created with (ab_run.cache_name)
 * @cache_node: in the list of live runs' caches (strategies.c)
 * @cache_shared: another run's cache was merged into @cache meanwhile
 * @keep:   AB_RUN_KEEP_CACHE: where teardown puts @cache instead of
 *          destroying it (the open file's ab_file.kept), else NULL
 * @lookup_method: kmalloc_class: enum ab_lookup_method
 * @table:  kmalloc_class: the class table
 * @class_idx: kmalloc_class: the class of the object size, found once
 * @kcaches: kmalloc_class: kmalloc_caches[KMALLOC_NORMAL][] of each class
 * @align:  the percpu strategy: ab_run.align, or AB_PCPU_ALIGN
 * @pool:   the mempool strategies: the run's mempool, else NULL
 * @pool_min: the mempool strategies: ab_run.pool_min, its min_nr
 * @frag:   page_frag: the run's page_frag_cache, else NULL
 * @strategy: the strategy
 * @run:    the request
 * @file:   the open file the run came on (AB_RUN_COND_EACH_TRIAL: the
 *          condition it holds is restored before each trial)
 * @cond_max_order: AB_RUN_COND_EACH_TRIAL: the highest free order a
 *          measured trial that met the condition began with, -1 for none
 * @cond_pages: AB_RUN_COND_EACH_TRIAL: pages the restores took again
 * @self:       this context: the none baseline's object, loaded as kmalloc
 *              loads its size (so none's call site is kmalloc's)
 * @buckets: kmem_buckets: the kmem_buckets * made for the run
 *          (strategies_big.c), else NULL
 * @cma:    cma: the CMA area it allocates from, else NULL
 */
struct ab_ctx {
	struct ab_loop loop;
	void *self;
	void **scratch;
	u64 held;
	size_t size;
	unsigned int page_order;
	int node;
	gfp_t gfp;
	bool nomerge;
	bool sheaves;
	u32 sheaf_capacity;
	bool write;
	bool objs_are_pages;
	long free_before;
	u64 *node_objs;
	struct ab_node_mem *node_mem;
	struct kmem_cache *cache;
	u32 cache_merged;
	char cache_name[AB_CACHE_NAME_LEN];
	struct list_head cache_node;
	bool cache_shared;
	struct list_head *keep;
	u32 lookup_method;
	const struct ab_class_table *table;
	int class_idx;
	struct kmem_cache *kcaches[16];
	size_t align;
	mempool_t *pool;
	u32 pool_min;
	struct page_frag_cache *frag;
	const struct ab_strategy *strategy;
	const struct ab_run *run;
	struct ab_file *file;
	int cond_max_order;
	u64 cond_pages;
	void *buckets;
	struct cma *cma;
};

/* The run whose loop @l is. */
static __always_inline struct ab_ctx *ab_ctx_of(struct ab_loop *l)
{
	return container_of(l, struct ab_ctx, loop);
}

/* AB_RUN_WRITE: @obj (a struct page with ctx->objs_are_pages) written. */
static __always_inline void ab_write(struct ab_ctx *ctx, void *obj)
{
	if (ctx->write)
		memset(ctx->objs_are_pages ? page_address(obj) : obj, 0x5a,
		       ctx->size);
}

/* ab_write() as the timed loops call it (ab_write_fn of ab_trial.h) */
static __always_inline void ab_write_one(struct ab_loop *l, void *obj)
{
	ab_write(ab_ctx_of(l), obj);
}

/*
 * Defines name##_alloc_phase() and name##_free_phase() for the table, with
 * @linkage (static, or nothing for a strategy whose table entry is in
 * another file), and the per-object functions the loops take,
 * name##_loop_alloc() and name##_loop_free(): @alloc_one and @free_one
 * given the run's context from the loop's struct ab_loop (ab_ctx_of()),
 * all inlined.
 */
#define AB_PHASES_LINKED(linkage, name, alloc_one, free_one)		\
static __always_inline void *name##_loop_alloc(struct ab_loop *l)	\
{									\
	return alloc_one(ab_ctx_of(l));					\
}									\
static __always_inline void name##_loop_free(struct ab_loop *l, void *obj) \
{									\
	free_one(ab_ctx_of(l), obj);					\
}									\
linkage u32 name##_alloc_phase(struct ab_ctx *ctx, u64 *cycles)		\
{									\
	return ab_alloc_loop(&ctx->loop, cycles, name##_loop_alloc,	\
			     name##_loop_free, ab_write_one);		\
}									\
linkage void name##_free_phase(struct ab_ctx *ctx, u32 n, u64 *cycles)	\
{									\
	ab_free_loop(&ctx->loop, n, cycles, name##_loop_free);		\
}

/* The phases of a strategy whose table entry is in the same file. */
#define AB_PHASES(name, alloc_one, free_one)				\
	AB_PHASES_LINKED(static, name, alloc_one, free_one)

/**
 * struct ab_strategy - one entry of the strategy table
 * @name:       its name, reported by AB_IOC_INFO
 * @desc:       one line naming its kernel API, reported by AB_IOC_INFO
 * @params:     AB_PARAM_* bits
 * @max_size:   largest bytes per object (AB_PARAM_SIZE); further capped by
 *              the max_outstanding_mb module parameter
 * @max_order:  largest order (AB_PARAM_ORDER)
 * @flags:      AB_STRATEGY_* bits, reported by AB_IOC_INFO
 * @one_object: one allocation of batch x size per trial, not batch
 * @mem:        how its memory is counted (enum ab_mem)
 * @setup:      optional; prepares @ctx (e.g. creates a kmem_cache); 0 or
 *              -errno
 * @setup_allocates: @setup makes its allocator with the kernel's own
 *              GFP_KERNEL allocations (a kmem_cache, kmem_buckets, a pool,
 *              per-CPU chunks): a condition's pages are given back before
 *              it (ab_run())
 * @teardown:   optional; undoes @setup
 * @alloc_phase: allocates up to ctx->loop.nr objects into ctx->loop.objs,
 *              stopping at the first failure, and returns the number
 *              allocated (ab_alloc_loop() of common/ab_trial.h, or the
 *              strategy's own for one call per trial). Batch timing:
 *              stores the cycles of the whole phase in *@cycles; single
 *              timing: each object's in ctx->loop.smp (per-trial
 *              strategies: the call's in ctx->loop.smp[0]). The loops of
 *              ab_trial.h read AB_CYCLES(), the bulk strategies' own
 *              phases get_cycles(). With ctx->loop.pair each object is
 *              freed right after it is allocated.
 * @free_phase: frees ctx->loop.objs[ctx->loop.free_order[i]] for i in
 *              [0, @n), timed the same way (not called with ctx->loop.pair)
 * @obj_node:   optional; the node every page of @obj is on (page_to_nid()),
 *              or NUMA_NO_NODE when they are on more than one
 * @obj_map:    optional; where @obj is a vmalloc area, adds the leaf
 *              entries mapping it to @pages (enum ab_map_size) and
 *              returns true; false for any other object
 * @lacks:      optional; why the running kernel cannot run it (a few
 *              words), NULL when it can: AB_IOC_INFO then reports it
 *              AB_STRATEGY_UNAVAILABLE with the reason in its desc
 */
struct ab_strategy {
	const char *name;
	const char *desc;
	u32 params;
	u64 max_size;
	u32 max_order;
	u32 flags;
	bool one_object;
	enum ab_mem mem;
	int (*setup)(struct ab_ctx *ctx);
	bool setup_allocates;
	void (*teardown)(struct ab_ctx *ctx);
	u32 (*alloc_phase)(struct ab_ctx *ctx, u64 *cycles);
	void (*free_phase)(struct ab_ctx *ctx, u32 n, u64 *cycles);
	int (*obj_node)(struct ab_ctx *ctx, void *obj);
	bool (*obj_map)(struct ab_ctx *ctx, void *obj, u64 *pages);
	const char *(*lacks)(void);
};

/* uaccess.c */
/*
 * ab_copy_in - read the caller's struct at @uarg, which starts with its
 * own __u32 size, into @karg (@ksize bytes) with copy_struct_from_user()
 * semantics (see the uapi header); @ver0 is the struct's version 0 size.
 * Return: the caller's size, or -EFAULT, -EINVAL (below @ver0), -E2BIG
 * (above PAGE_SIZE, or a nonzero tail this module does not know).
 */
long ab_copy_in(void *karg, size_t ksize, size_t ver0, void __user *uarg);
/*
 * ab_copy_out - write back the part of @karg both sides know: min(@usize,
 * @ksize) bytes, which the struct's size field is set to. Return: 0 or
 * -EFAULT.
 */
int ab_copy_out(void __user *uarg, void *karg, size_t ksize, u32 usize);
/* ab_tsc_khz - the TSC's rate in kHz (x86 tsc_khz), 0 where unknown. */
u32 ab_tsc_khz(void);

/* strategies.c: the table, ab_nr_strategies entries */
extern const struct ab_strategy ab_strategies[];
extern const unsigned int ab_nr_strategies;
/* the node checks of objects that are pages, and vmalloc areas */
int ab_page_node(struct ab_ctx *ctx, void *obj);
int ab_vmalloc_node(struct ab_ctx *ctx, void *obj);

/*
 * strategies_big.c: the functions of vmalloc_huge, kmem_buckets and cma
 * for their entries in the table, and the mapping check of the vmalloc
 * strategies (lookup_address(): the leaf entry of each address)
 */
u32 ab_vmalloc_huge_alloc_phase(struct ab_ctx *ctx, u64 *cycles);
void ab_vmalloc_huge_free_phase(struct ab_ctx *ctx, u32 n, u64 *cycles);
const char *ab_vmalloc_huge_lacks(void);
u32 ab_buckets_alloc_phase(struct ab_ctx *ctx, u64 *cycles);
void ab_buckets_free_phase(struct ab_ctx *ctx, u32 n, u64 *cycles);
int ab_buckets_setup(struct ab_ctx *ctx);
void ab_buckets_teardown(struct ab_ctx *ctx);
const char *ab_buckets_lacks(void);
u32 ab_cma_alloc_phase(struct ab_ctx *ctx, u64 *cycles);
void ab_cma_free_phase(struct ab_ctx *ctx, u32 n, u64 *cycles);
int ab_cma_setup(struct ab_ctx *ctx);
const char *ab_cma_lacks(void);
unsigned long ab_cma_pages(void);
bool ab_vmalloc_map(struct ab_ctx *ctx, void *obj, u64 *pages);

/**
 * struct ab_file - the state of one open /dev/allocbench
 * @kept: the private kmem_caches its runs kept (AB_RUN_KEEP_CACHE), empty,
 *        until the next AB_IOC_RUN of the same thread on it begins or it
 *        is closed
 */
struct ab_file {
	struct list_head kept;
};

/* cache.c */
/*
 * ab_cache_setup - create the run's private kmem_cache of ctx->size bytes
 * (ctx->nomerge, ctx->sheaves) into ctx->cache, named in ctx->cache_name.
 * Return: 0 or -ENOMEM (the kernel refused it).
 */
int ab_cache_setup(struct ab_ctx *ctx);
/*
 * ab_cache_teardown - destroy ctx->cache, or keep it on ctx->keep, with
 * the last word on ctx->cache_merged (AB_MERGED_LATER).
 */
void ab_cache_teardown(struct ab_ctx *ctx);
/*
 * ab_caches_release - destroy the caches kept on @kept:
 * @all of them (the file is closed), or those the calling thread's runs
 * kept (its next run begins); under the lock that orders cache creation
 * and destruction.
 */
void ab_caches_release(struct list_head *kept, bool all);

/*
 * strategies_pools.c: the per-CPU, mempool and page_frag strategies, for
 * the table of strategies.c; each phase as struct ab_strategy says, each
 * setup 0 or -ENOMEM, each teardown freeing what its setup made.
 */
u32 ab_percpu_alloc_phase(struct ab_ctx *ctx, u64 *cycles);
void ab_percpu_free_phase(struct ab_ctx *ctx, u32 n, u64 *cycles);
int ab_percpu_setup(struct ab_ctx *ctx);
int ab_percpu_node(struct ab_ctx *ctx, void *obj);
u32 ab_mempool_alloc_phase(struct ab_ctx *ctx, u64 *cycles);
void ab_mempool_free_phase(struct ab_ctx *ctx, u32 n, u64 *cycles);
u32 ab_mempool_reserve_alloc_phase(struct ab_ctx *ctx, u64 *cycles);
void ab_mempool_reserve_free_phase(struct ab_ctx *ctx, u32 n, u64 *cycles);
int ab_mempool_setup(struct ab_ctx *ctx);
void ab_mempool_teardown(struct ab_ctx *ctx);
u32 ab_page_frag_alloc_phase(struct ab_ctx *ctx, u64 *cycles);
void ab_page_frag_free_phase(struct ab_ctx *ctx, u32 n, u64 *cycles);
int ab_page_frag_setup(struct ab_ctx *ctx);
void ab_page_frag_teardown(struct ab_ctx *ctx);
/* the node of a kmalloc'ed or page_frag object's page */
int ab_pool_obj_node(struct ab_ctx *ctx, void *obj);

/*
 * strategies_bulk.c: the bulk APIs' strategies (kmem_cache_bulk,
 * kfree_bulk, alloc_pages_bulk), for the table of strategies.c; each phase
 * as struct ab_strategy says; ab_bulk_setup() makes the scratch array of
 * the free order's objects (0 or -ENOMEM), ab_cache_bulk_setup() that and
 * the run's cache (0 or -ENOMEM), each teardown frees what its setup made.
 */
int ab_bulk_setup(struct ab_ctx *ctx);
void ab_bulk_teardown(struct ab_ctx *ctx);
int ab_cache_bulk_setup(struct ab_ctx *ctx);
void ab_cache_bulk_teardown(struct ab_ctx *ctx);
u32 ab_cache_bulk_alloc_phase(struct ab_ctx *ctx, u64 *cycles);
void ab_cache_bulk_free_phase(struct ab_ctx *ctx, u32 n, u64 *cycles);
u32 ab_kfree_bulk_alloc_phase(struct ab_ctx *ctx, u64 *cycles);
void ab_kfree_bulk_free_phase(struct ab_ctx *ctx, u32 n, u64 *cycles);
u32 ab_pages_bulk_alloc_phase(struct ab_ctx *ctx, u64 *cycles);
void ab_pages_bulk_free_phase(struct ab_ctx *ctx, u32 n, u64 *cycles);

/*
 * The strategies a kernel may lack, as its headers say (kmod/Kbuild):
 * their flags and the end of their description, the reason.
 */
#ifdef AB_HAVE_MEMPOOL_PREALLOCATED
#define AB_MEMPOOL_RESERVE_FLAGS 0
#define AB_MEMPOOL_RESERVE_NOT_HERE ""
#else
#define AB_MEMPOOL_RESERVE_FLAGS AB_STRATEGY_UNAVAILABLE
#define AB_MEMPOOL_RESERVE_NOT_HERE "; not here: not in mempool.h"
#endif
/* which page_frag function runs: 6.12 moved the work under a new name */
#ifdef AB_HAVE___PAGE_FRAG_ALLOC_ALIGN
#define AB_PAGE_FRAG_CALL "__page_frag_alloc_align()"
#else
#define AB_PAGE_FRAG_CALL "page_frag_alloc_align()"
#endif

/* vpmu.c */
/*
 * ab_vpmu_send_gates - hand the virtual PMU the IDT's interrupt gates
 * (markers; nothing but NOPs without the plugin), before a run's regions.
 */
void ab_vpmu_send_gates(void);

/*
 * strategies.c: the per-object functions written in assembly, none's (from
 * ab_none_text to ab_none_text_end: the harness's, which the virtual PMU
 * does not count) and vpmu_known's
 */
extern const char ab_none_text[], ab_none_text_end[];
void *ab_none_call(void *obj, gfp_t gfp);
void ab_none_free_call(void *obj);
void *ab_known_call(void *obj, gfp_t gfp);
void ab_known_free_call(void *obj);

/* driver.c */
/*
 * ab_drv_run - the trials of the run @r described by @ctx (ab_run_trials()
 * of common/ab_trial.h with the module's ops), the output counts of @r
 * written as they go. Return: 0, -EINTR (a signal, between trials) or
 * -EFAULT (the samples could not be copied out).
 */
int ab_drv_run(struct ab_ctx *ctx, struct ab_run *r);
/* ab_drv_outstanding - objects the runs in progress hold (ab_outstanding) */
long ab_drv_outstanding(void);
/* ab_drv_init - at load: the remote frees' workqueue; 0 or -ENOMEM */
int ab_drv_init(void);
/* ab_drv_exit - at unload, no run in progress: the workqueue destroyed */
void ab_drv_exit(void);

/* info.c */
/*
 * ab_max_bytes - the budget in bytes of all runs at once: the
 * max_outstanding_mb module parameter, or a quarter of RAM when it is 0.
 */
u64 ab_max_bytes(void);
/* ab_strategy_info - what AB_IOC_INFO says of strategy @id, into @si */
void ab_strategy_info(unsigned int id, struct ab_strategy_info *si);
/* ab_limits - the limits AB_IOC_INFO reports, which ab_run_check() applies */
void ab_limits(struct ab_info *info);
/* ab_ioctl_info - AB_IOC_INFO; 0 or -errno as the uapi header says */
long ab_ioctl_info(void __user *uarg);

/* run.c: AB_IOC_RUN; 0 or -errno as the uapi header says */
long ab_ioctl_run(struct ab_file *f, void __user *uarg);

/* lookup.c: AB_IOC_LOOKUP; 0 or -errno as the uapi header says */
long ab_ioctl_lookup(void __user *uarg);

/*
 * condition.c: AB_IOC_CONDITION for the open file @f; 0 or -errno as
 * linux/allocbench_condition.h says
 */
long ab_ioctl_condition(struct ab_file *f, void __user *uarg);
/* ab_cond_release - @f is closing: the condition it holds is undone */
void ab_cond_release(struct ab_file *f);
/*
 * ab_cond_held - whether @f holds a condition with a state to restore
 * (fragmented or pressure): AB_RUN_COND_EACH_TRIAL is -ENOENT without one.
 */
bool ab_cond_held(struct ab_file *f);
/*
 * ab_cond_restore - @f's condition restored before a trial (fragmented:
 * the free blocks above frag_order taken again; pressure: the zone's free
 * pages taken down to the target again); *@pages grows by the pages taken,
 * *@max_order is, for fragmented, the highest free order of the zone
 * afterwards (-1: none, or not fragmented).
 * Return: 0 when the state holds now, 1 when it does not, -ENOENT when @f
 * holds no condition, -EINTR on a signal (what was taken stays held).
 */
int ab_cond_restore(struct ab_file *f, int *max_order, u64 *pages);
/*
 * ab_cond_give_back_all - every page @f's condition holds given back, before
 * a run's setup makes its allocator with the kernel's own allocations (a
 * mempool's reserve of blocks above frag_order, kmem_buckets_create());
 * the restore before each trial takes them again.
 * Return: the pages given back, 0 when @f holds none.
 */
unsigned long ab_cond_give_back_all(struct ab_file *f);

#endif /* _ALLOCBENCH_INTERNAL_H */
