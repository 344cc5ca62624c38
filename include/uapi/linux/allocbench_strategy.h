/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * allocbench_strategy.h - the strategy table's part of the contract
 * between allocbench.ko and the CLI: one struct ab_strategy_info per
 * strategy (AB_IOC_INFO writes the table), the run parameters it reads
 * (AB_PARAM_*) and what it is (AB_STRATEGY_*). Included by
 * linux/allocbench.h, whose layout, extensibility and error rules hold
 * here.
 */
#ifndef _UAPI_LINUX_ALLOCBENCH_STRATEGY_H
#define _UAPI_LINUX_ALLOCBENCH_STRATEGY_H

#include <linux/types.h>

#define AB_NAME_LEN 32
#define AB_DESC_LEN 96

/* Which struct ab_run parameters a strategy reads (ab_strategy_info.params). */
#define AB_PARAM_SIZE (1U << 0)  /* obj_size, in bytes */
#define AB_PARAM_ORDER (1U << 1) /* order: 2^order pages per object */
#define AB_PARAM_NODE (1U << 2)  /* node is passed to the allocator */
#define AB_PARAM_GFP (1U << 3)   /* gfp is passed to the allocator */
#define AB_PARAM_CACHE (1U << 4) /* AB_RUN_NOMERGE applies (own kmem_cache) */
#define AB_PARAM_LOOKUP (1U << 5) /* lookup_table and lookup_method apply */
#define AB_PARAM_ALIGN (1U << 6)  /* align applies (posix_memalign) */
/* pool_min applies: a mempool's reserve of pool_min elements (the mempools) */
#define AB_PARAM_POOL (1U << 7)

/* What a strategy is (ab_strategy_info.flags), beyond its parameters. */
/*
 * Allocates nothing: the timed loops alone ("none"). Its medians are the
 * loop and clock overhead that net values subtract (the baseline).
 */
#define AB_STRATEGY_BASELINE (1U << 0)
/*
 * One call per trial does a phase's work for the whole batch
 * (vmalloc_batch: one vmalloc(batch x obj_size), one object per trial;
 * the bulk strategies: batch objects in one call, freed in one call, or
 * allocated or freed one by one and timed as one phase).
 * With AB_TIMING_SINGLE such a strategy writes one sample per trial, its
 * call timed on its own in each phase (AB_FREE_PAIR: the free right after
 * the allocation, timed apart), @nr_objs the objects of the call.
 */
#define AB_STRATEGY_PER_TRIAL (1U << 1)
/*
 * Runs only with IRQs on: its API enables them itself (kmem_cache_alloc_bulk()
 * "must be called with interrupts enabled"), so AB_CTX_IRQ_OFF is refused
 * (-EINVAL); AB_CTX_PREEMPT_OFF is not.
 */
#define AB_STRATEGY_IRQS_ON (1U << 2)
/*
 * One allocation of batch x obj_size per trial (vmalloc_batch), not batch
 * allocations of obj_size: what the run holds is that one object.
 */
#define AB_STRATEGY_ONE_OBJECT (1U << 3)
/*
 * The free phase hands each object to RCU (kfree_rcu() and kin), its head
 * at the object's start (obj_size at least AB_RCU_MIN_SIZE); after each
 * free phase the module waits, untimed, for them (ab_run.drain_cycles;
 * AB_KERNEL_KVFREE_RCU_BARRIER).
 */
#define AB_STRATEGY_RCU (1U << 4)
#define AB_RCU_MIN_SIZE 16
/*
 * The wait's bounds: kfree_rcu() batches may hold objects for seconds
 * (6.1's KFREE_DRAIN_JIFFIES is 5 s), and a barrier that does not flush
 * them (rcu_barrier()) would let trials pile up memory past the budget.
 * AB_DRAIN_SLACK: what the slabs may keep and other users take meanwhile.
 */
#define AB_DRAIN_SLACK (8ULL << 20)
#define AB_DRAIN_MAX_MS 10000
/* Allocates in any context (kmalloc_nolock()): no atomic GFP choice needed */
#define AB_STRATEGY_ANY_CONTEXT (1U << 5)
/* Not in this kernel, @desc says why: AB_IOC_RUN answers -EOPNOTSUPP */
#define AB_STRATEGY_UNAVAILABLE (1U << 6)
/*
 * Its objects are charged to the caller's memory cgroup whatever the GFP
 * choice (kmem_cache_account: a cache made with SLAB_ACCOUNT), as
 * AB_GFP_KERNEL_ACCOUNT charges those of the strategies that take one.
 * In the root cgroup, and in a kernel thread, nothing is charged.
 */
#define AB_STRATEGY_ACCOUNT (1U << 12)
/*
 * How the strategy's allocator uses memory, a field of the flags
 * (AB_STRATEGY_MEM_MASK): the rule by which an object is counted against
 * the budget ab_info.max_bytes, the module and the CLI alike
 * (common/ab_footprint.h, where the rules and their kernel sources are).
 * Zero, as a module that predates the field and the user backend report
 * it: the object's own bytes.
 */
#define AB_STRATEGY_MEM_SHIFT 8
#define AB_STRATEGY_MEM_MASK (0xfU << AB_STRATEGY_MEM_SHIFT)
/* the object's bytes: blocks of 2^order pages */
#define AB_STRATEGY_MEM_EXACT (0U << AB_STRATEGY_MEM_SHIFT)
/* a kmalloc size class, or whole pages of a power-of-two order above them */
#define AB_STRATEGY_MEM_KMALLOC (1U << AB_STRATEGY_MEM_SHIFT)
/* an object of a kmem_cache of the object size */
#define AB_STRATEGY_MEM_CACHE (2U << AB_STRATEGY_MEM_SHIFT)
/* whole pages, the array of their pointers and vmalloc's bookkeeping */
#define AB_STRATEGY_MEM_VMALLOC (3U << AB_STRATEGY_MEM_SHIFT)
/* kmalloc; above a page vmalloc if that fails and the GFP flags may block */
#define AB_STRATEGY_MEM_KVMALLOC (4U << AB_STRATEGY_MEM_SHIFT)
/* per-CPU memory: the object (aligned) in every possible CPU's unit */
#define AB_STRATEGY_MEM_PERCPU (5U << AB_STRATEGY_MEM_SHIFT)
/* a kmalloc size class, and a mempool's reserve of pool_min of them */
#define AB_STRATEGY_MEM_MEMPOOL (6U << AB_STRATEGY_MEM_SHIFT)
/* fragments of 32 KiB pages of a page_frag_cache, one more page held */
#define AB_STRATEGY_MEM_FRAG (7U << AB_STRATEGY_MEM_SHIFT)
/*
 * vmalloc with huge mappings allowed (vmalloc_huge()): from PMD_SIZE up
 * the area is whole 2 MiB pages, and their array and bookkeeping
 */
#define AB_STRATEGY_MEM_VMALLOC_HUGE (8U << AB_STRATEGY_MEM_SHIFT)
/*
 * dedicated kmalloc buckets (kmem_buckets_create()): the kmalloc size
 * class, in whole slabs of caches made for the run
 */
#define AB_STRATEGY_MEM_BUCKETS (9U << AB_STRATEGY_MEM_SHIFT)
/* pages of a CMA area (cma_alloc()): exactly the object's bytes */
#define AB_STRATEGY_MEM_CMA (10U << AB_STRATEGY_MEM_SHIFT)
#define AB_STRATEGY_FLAGS_ALL                                        \
	(AB_STRATEGY_BASELINE | AB_STRATEGY_PER_TRIAL | AB_STRATEGY_IRQS_ON | \
	 AB_STRATEGY_ONE_OBJECT | AB_STRATEGY_RCU | AB_STRATEGY_ANY_CONTEXT | \
	 AB_STRATEGY_UNAVAILABLE | AB_STRATEGY_MEM_MASK | AB_STRATEGY_ACCOUNT)

/**
 * struct ab_strategy_info - one allocation strategy offered by the module
 * @id:       value to put in ab_run.strategy
 * @params:   AB_PARAM_* bits: which run parameters this strategy reads
 * @max_size: largest obj_size accepted, in bytes (AB_PARAM_SIZE), else 0
 * @max_order: largest order accepted (AB_PARAM_ORDER), else 0
 * @flags:    AB_STRATEGY_* bits (before they existed this field was
 *            reserved and written as zero)
 * @name:     NUL-terminated short name, e.g. "kmalloc_node"
 * @desc:     NUL-terminated one-line description naming the kernel API
 */
struct ab_strategy_info {
	__u32 id;
	__u32 params;
	__u64 max_size;
	__u32 max_order;
	__u32 flags;
	char name[AB_NAME_LEN];
	char desc[AB_DESC_LEN];
};

#endif /* _UAPI_LINUX_ALLOCBENCH_STRATEGY_H */
