/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * allocbench.h - the one contract between allocbench.ko and the allocbench CLI
 *
 * The module exposes the misc device /dev/allocbench (mode 0600). Three
 * ioctls:
 *
 *   AB_IOC_INFO    what the module offers: ABI version, limits, strategies
 *                  (struct ab_info; the strategy table's entries, struct
 *                  ab_strategy_info, in linux/allocbench_strategy.h,
 *                  included by this header).
 *   AB_IOC_RUN     run one strategy in the calling thread and return its
 *                  per-trial or per-object cycle counts (struct ab_run).
 *   AB_IOC_LOOKUP  time one kmalloc size-class lookup method over a
 *                  sequence of sizes and return each pass's cycles
 *                  (struct ab_lookup, in linux/allocbench_lookup.h, part
 *                  of this contract and included by this header).
 *
 * Layout rules (Documentation/process/botching-up-ioctls.rst): fixed-width
 * types only, every struct padded explicitly to a multiple of 64 bits, user
 * pointers carried as __u64, reserved fields must be zero.
 *
 * Extensibility: each argument struct starts with a __u32 @size that the
 * caller sets to sizeof() of the struct it was compiled with. The module
 * copies it with copy_struct_from_user() semantics: a shorter (older) struct
 * has its missing tail read as zeros; a longer (newer) struct is accepted only
 * if every byte the module does not know is zero, otherwise -E2BIG. Output
 * fields are written back for min(@size, module's size) bytes. New fields are
 * only ever appended, and zero always means "the old behaviour". The ioctl
 * number is therefore matched on type, direction and number only
 * (_IOC_TYPE/_IOC_DIR/_IOC_NR), not on the size encoded in it.
 *
 * Errors common to the three ioctls: -EFAULT (bad user pointer), -EINVAL
 * (size smaller than version 0, unknown flag, nonzero reserved field, value
 * out of its domain; for AB_IOC_RUN also a combination that can never
 * allocate, see ab_info.kmalloc_max_size), -E2BIG (size above PAGE_SIZE,
 * unknown nonzero tail, a count or size above the limit reported by
 * AB_IOC_INFO, the memory held at once above ab_info.max_bytes), -ENOTTY
 * (unknown command).
 * AB_IOC_RUN and AB_IOC_LOOKUP return -ENOMEM when the module's own arrays
 * for the request (or a run's kmem_cache) cannot be allocated, and -EINTR
 * when a signal ends them between two trials or passes; the output fields
 * are then written back for the ones completed.
 * AB_IOC_RUN also returns -EOPNOTSUPP for a request that is valid but that
 * this kernel cannot run safely (see enum ab_context), and -EBUSY for one
 * that the runs in progress leave no room for (the budget, or
 * AB_ATOMIC_MAX_BYTES over all of them); a refusal for a limit, -E2BIG
 * or -EBUSY, names it in ab_run.limit (AB_LIMIT_*); -ENOENT for
 * AB_RUN_COND_EACH_TRIAL on a file that holds no fragmented or pressure
 * condition.
 * AB_IOC_RUN and AB_IOC_LOOKUP return -EPERM to a caller without
 * CAP_SYS_ADMIN (on top of the node's mode 0600: a descriptor passed to
 * an unprivileged process does not let it run); AB_IOC_INFO only reads.
 */
#ifndef _UAPI_LINUX_ALLOCBENCH_H
#define _UAPI_LINUX_ALLOCBENCH_H

#include <linux/ioctl.h>
#include <linux/types.h>
/* AB_IOC_LOOKUP's argument and the size-class enums ab_run names too */
#include <linux/allocbench_strategy.h>
#include <linux/allocbench_lookup.h>
#include <linux/allocbench_condition.h>

#define AB_DEVICE_NAME "allocbench"

/*
 * Bumped only for incompatible changes; appending fields (see above) keeps the
 * version. The CLI refuses to talk to a module with another ABI version.
 */
#define AB_ABI_VERSION 1

/*
 * ioctl type byte, with sequence numbers 0x00-0x1f for allocbench: 0xEA is
 * not assigned in Documentation/userspace-api/ioctl/ioctl-number.rst.
 */
#define AB_IOC_MAGIC 0xEA

#define AB_VERSION_LEN 32
#define AB_CACHE_NAME_LEN 32 /* ab_run.cache_name, with its NUL */
#define AB_RUN_OBJ_NODES 4 /* ab_run.obj_node: the nodes named */

/**
 * struct ab_info - argument of AB_IOC_INFO
 * @size:            in: sizeof(struct ab_info) as the caller knows it
 * @abi_version:     out: AB_ABI_VERSION of the module
 * @strategies_len:  in: capacity of the @strategies_ptr array, in elements
 *                   (0 with a zero pointer just asks for @nr_strategies)
 * @nr_strategies:   out: how many strategies the module has; the first
 *                   min(@strategies_len, @nr_strategies) elements are written
 * @strategies_ptr:  in: user pointer to struct ab_strategy_info[]
 * @max_batch:       out: largest ab_run.batch (objects per trial)
 * @max_trials:      out: largest ab_run.trials, and of ab_run.warmup
 * @max_bytes:       out: largest memory held at once by one run, the
 *                   bytes of every object it holds counted as its
 *                   allocator uses them (AB_STRATEGY_MEM_MASK) plus the
 *                   harness's own arrays (common/ab_footprint.h,
 *                   ab_harness_bytes()), and over all runs in progress (module parameter
 *                   max_outstanding_mb; default a quarter of RAM, see
 *                   kmod/info.c)
 * @outstanding:     out: objects allocated by the module and not yet freed,
 *                   over all runs in progress; 0 whenever no run is active
 * @page_size:       out: PAGE_SIZE in bytes
 * @tsc_khz:         out: TSC frequency in kHz (x86 tsc_khz), 0 if unknown
 * @nr_node_ids:     out: the kernel's nr_node_ids
 * @reserved0:       zero
 * @version:         out: NUL-terminated module version string
 * @reserved:        zero
 *
 * Appended after version 0 (written only when @size >= AB_INFO_SIZE_VER1;
 * a module that predates them returns @size AB_INFO_SIZE_VER0 and leaves
 * them as the caller set them, zero):
 * @kernel_flags:    out: AB_KERNEL_* bits, facts about the running kernel
 *                   that change what a run may do or what it times; each is
 *                   the module's IS_ENABLED() of a config option of the
 *                   kernel it was built for and loaded into. Ignored on
 *                   input.
 *
 * Appended after version 1 (written only when @size >= AB_INFO_SIZE_VER2;
 * zero from a module that predates it):
 * @kmalloc_max_size: out: KMALLOC_MAX_SIZE, the largest kmalloc() in
 *                   bytes (PAGE_SIZE << MAX_PAGE_ORDER): also the largest
 *                   AB_STRATEGY_MEM_KVMALLOC object its GFP choice allows
 *                   when that may not block (AB_GFP_ATOMIC, AB_GFP_NOWAIT:
 *                   kvmalloc_node() then has no vmalloc fallback); larger
 *                   ones are refused (-EINVAL). Ignored on input.
 *
 * Appended after version 2 (written only when @size >= AB_INFO_SIZE_VER3;
 * zero from a module that predates it):
 * @run_flags:       out: the AB_RUN_* bits this module accepts in
 *                   ab_run.flags (a caller sets only these). Ignored on
 *                   input.
 * @possible_cpus:   out: num_possible_cpus(), the units every per-CPU
 *                   object takes memory in (AB_STRATEGY_MEM_PERCPU); zero
 *                   from a module that predates it (the field was
 *                   reserved3, zero). Ignored on input.
 *
 * Appended after version 3 (written only when @size >= AB_INFO_SIZE_VER4;
 * zero from a module that predates it):
 * @cma_pages:       out: pages the kernel's CMA areas hold, summed over
 *                   its zones (zone->cma_pages; cma_get_size() is not
 *                   exported): the default area's size when it is the
 *                   only one (booted with cma=SIZE), 0 when there is
 *                   none or the kernel has no CONFIG_CMA. A cma run
 *                   whose objects held at once are above it is refused
 *                   (-E2BIG, AB_LIMIT_CMA). Ignored on input.
 */
struct ab_info {
	__u32 size;
	__u32 abi_version;
	__u32 strategies_len;
	__u32 nr_strategies;
	__u64 strategies_ptr;
	__u64 max_batch;
	__u64 max_trials;
	__u64 max_bytes;
	__u64 outstanding;
	__u32 page_size;
	__u32 tsc_khz;
	__u32 nr_node_ids;
	__u32 reserved0;
	char version[AB_VERSION_LEN];
	__u64 reserved[4];

	__u64 kernel_flags;
	__u64 kmalloc_max_size;
	__u32 run_flags;
	__u32 possible_cpus;
	__u64 cma_pages;
};

#define AB_INFO_SIZE_VER0 136
#define AB_INFO_SIZE_VER1 144
#define AB_INFO_SIZE_VER2 152
#define AB_INFO_SIZE_VER3 160
#define AB_INFO_SIZE_VER4 168

/* ab_info.kernel_flags */
/*
 * CONFIG_PREEMPT_RT: spinlocks are sleeping locks, so the allocators may
 * sleep even with GFP_ATOMIC; AB_IOC_RUN refuses AB_CTX_PREEMPT_OFF and
 * AB_CTX_IRQ_OFF around a strategy that allocates (-EOPNOTSUPP).
 */
#define AB_KERNEL_PREEMPT_RT (1ULL << 0)
/* CONFIG_PREEMPT_DYNAMIC: the preemption mode is chosen at boot or later. */
#define AB_KERNEL_PREEMPT_DYNAMIC (1ULL << 1)
/*
 * CONFIG_RANDOM_KMALLOC_CACHES: each kmalloc size class has several copies
 * and plain kmalloc() picks one from the caller's address, whereas the
 * kmalloc_class strategy indexes kmalloc_caches[KMALLOC_NORMAL][] (the
 * first copy) itself: the two may time different caches.
 */
#define AB_KERNEL_RANDOM_KMALLOC_CACHES (1ULL << 2)
/*
 * CONFIG_SLAB_BUCKETS: kmem_buckets_create() users get kmalloc caches of
 * their own; plain kmalloc(), and so every strategy here, does not.
 */
#define AB_KERNEL_SLAB_BUCKETS (1ULL << 3)
/*
 * AB_RUN_SHEAVES as this kernel takes it: SHEAF_CAPACITY, a private cache
 * can be asked for sheaves (kmem_cache_args.sheaf_capacity, 6.18; 7.x
 * gives the larger of that and its own, mm/slub.c
 * calculate_sheaf_capacity()); SHEAVES_OFF, one can be made without
 * (before 6.18 no cache has any, 6.18 only those that ask, 7.x those
 * with SLAB_NOLEAKTRACE, which a kernel with kmemleak cannot offer).
 */
#define AB_KERNEL_SHEAF_CAPACITY (1ULL << 4)
#define AB_KERNEL_SHEAVES_OFF (1ULL << 5)
/* AB_STRATEGY_RCU waits with kvfree_rcu_barrier(); else rcu_barrier() */
#define AB_KERNEL_KVFREE_RCU_BARRIER (1ULL << 6)
/* AB_IOC_CONDITION builds memory conditions (linux/allocbench_condition.h) */
#define AB_KERNEL_CONDITIONS (1ULL << 7)
#define AB_KERNEL_FLAGS_ALL                                   \
	(AB_KERNEL_PREEMPT_RT | AB_KERNEL_PREEMPT_DYNAMIC |   \
	 AB_KERNEL_RANDOM_KMALLOC_CACHES | AB_KERNEL_SLAB_BUCKETS | \
	 AB_KERNEL_SHEAF_CAPACITY | AB_KERNEL_SHEAVES_OFF | \
	 AB_KERNEL_KVFREE_RCU_BARRIER | AB_KERNEL_CONDITIONS)

/* GFP choice (ab_run.gfp). Every choice also carries __GFP_NOWARN. */
enum ab_gfp {
	AB_GFP_KERNEL = 0,	/* GFP_KERNEL */
	AB_GFP_ATOMIC = 1,	/* GFP_ATOMIC */
	AB_GFP_NOWAIT = 2,	/* GFP_NOWAIT */
	AB_GFP_KERNEL_ZERO = 3, /* GFP_KERNEL | __GFP_ZERO */
	AB_GFP_NORETRY = 4,	/* GFP_KERNEL | __GFP_NORETRY */
	AB_GFP_RETRY_MAYFAIL = 5, /* GFP_KERNEL | __GFP_RETRY_MAYFAIL */
	/*
	 * GFP_TRANSHUGE (include/linux/gfp_types.h: movable, __GFP_COMP,
	 * __GFP_NOMEMALLOC, direct reclaim but not kswapd's) without
	 * __GFP_HIGHMEM (no highmem on x86_64; __get_free_pages() takes
	 * none); AB_PARAM_ORDER strategies only
	 */
	AB_GFP_THP = 6,
	/* GFP_KERNEL without __GFP_RECLAIM: neither direct reclaim nor kswapd */
	AB_GFP_NORECLAIM = 7,
	/*
	 * GFP_KERNEL_ACCOUNT (GFP_KERNEL | __GFP_ACCOUNT): the objects are
	 * charged to the caller's memory cgroup (obj_cgroup_charge() for
	 * slab objects, __memcg_kmem_charge_page() for pages); in the root
	 * cgroup nothing is charged
	 */
	AB_GFP_KERNEL_ACCOUNT = 8,
	AB_GFP_NR
};

/* ab_run.flags */
/* Give the kmem_cache strategies a cache the kernel will not merge. */
#define AB_RUN_NOMERGE (1U << 0)
/*
 * Write every byte of each object (memset) right after allocating it,
 * inside the timed alloc phase: alloc cycles then include the write, and
 * the free phase frees objects that were touched, as real users' are.
 */
#define AB_RUN_WRITE (1U << 1)
/*
 * Skip the node check trials (node_checked stays 0): for runs whose event
 * counters must see only the timed loops and the harness.
 */
#define AB_RUN_NO_NODE_CHECK (1U << 2)
/*
 * Free on another CPU: the free phase of every trial runs in a work item
 * queued on ab_run.free_cpu (process context there, timed there) while
 * the caller waits: objects allocated on one CPU, freed on another.
 */
#define AB_RUN_REMOTE_FREE (1U << 3)
/*
 * Mark the samples of phases that were disturbed: AB_SAMPLE_ALLOC_DISTURBED
 * and AB_SAMPLE_FREE_DISTURBED in ab_sample.flags (without it only
 * AB_SAMPLE_FAILED is ever set there, as before the bits existed). The
 * counts (ab_run.switches, migrations, disturbed) are written either way.
 */
#define AB_RUN_MARK_DISTURBED (1U << 4)
/*
 * Keep the run's private kmem_cache (strategies with AB_PARAM_CACHE),
 * empty, after the run: it is destroyed when the next AB_IOC_RUN of the
 * same thread on the same open file begins (threads sharing a file each
 * keep their own), or when the file is closed, so that the caller
 * can read the cache's geometry under /sys/kernel/slab/<ab_run.cache_name>
 * (slab_size, objs_per_slab, order), which kmem_cache_destroy() removes
 * with a cache of its own. No effect on other strategies.
 */
#define AB_RUN_KEEP_CACHE (1U << 5)
/*
 * Bracket each timed region (a phase in batch timing, each operation in
 * single timing) with the virtual PMU's marker NOPs (common/ab_vpmu.h),
 * just inside its clock reads, so that a QEMU TCG plugin (vpmu/abvpmu.c)
 * counts exactly what the region executes. Costs one NOP per marker on
 * hardware; for the counting pass, never the timed one.
 */
#define AB_RUN_VPMU (1U << 6)
/*
 * The private kmem_cache's per-CPU sheaves set by the run (AB_PARAM_CACHE
 * strategies): ab_run.sheaf_capacity 0 creates it without sheaves, N
 * (1..AB_SHEAF_MAX) asks for sheaves of N; the cache is then unmergeable,
 * as with AB_RUN_NOMERGE. -EOPNOTSUPP where the kernel cannot
 * (AB_KERNEL_SHEAF_CAPACITY, AB_KERNEL_SHEAVES_OFF).
 */
#define AB_RUN_SHEAVES (1U << 7)
#define AB_SHEAF_MAX 1024
/*
 * The memory condition this file holds (AB_IOC_CONDITION, fragmented
 * and/or pressure) restored before every trial, warm-up and check trials
 * included: fragmented takes again every free block above its frag_order
 * that the trials' frees, compaction or reclaim gave back; pressure takes
 * the zone's free pages down to its target again. Then the state is
 * checked (fragmented: no free block above frag_order in the condition's
 * zone; pressure: free pages below the low watermark), and a measured
 * trial that began without it has its samples marked
 * AB_SAMPLE_COND_UNMET and is counted in ab_run.cond_unmet. The restore
 * is outside the timed phases. -ENOENT when the file holds no condition.
 */
#define AB_RUN_COND_EACH_TRIAL (1U << 8)
#define AB_RUN_FLAGS_ALL                                          \
	(AB_RUN_NOMERGE | AB_RUN_WRITE | AB_RUN_NO_NODE_CHECK | \
	 AB_RUN_REMOTE_FREE | AB_RUN_MARK_DISTURBED | AB_RUN_KEEP_CACHE | \
	 AB_RUN_VPMU | AB_RUN_SHEAVES | AB_RUN_COND_EACH_TRIAL)

/* Timing mode (ab_run.timing) */
enum ab_timing {
	/* one cycle-counter pair around each phase of a trial (the seeds' way) */
	AB_TIMING_BATCH = 0,
	/* one cycle-counter pair around each allocation and each free */
	AB_TIMING_SINGLE = 1,
	AB_TIMING_NR
};

/* Free pattern (ab_run.free_pattern) */
enum ab_free_pattern {
	AB_FREE_FIFO = 0,    /* allocate all, free in allocation order */
	AB_FREE_LIFO = 1,    /* allocate all, free in reverse order */
	AB_FREE_SHUFFLE = 2, /* allocate all, free in an order seeded by seed */
	AB_FREE_PAIR = 3,    /* free each object right after allocating it */
	AB_FREE_NR
};

/*
 * Loop context (ab_run.context) around each timed phase. The last two need
 * a strategy that takes a GFP choice and AB_GFP_ATOMIC or AB_GFP_NOWAIT
 * (nothing may sleep), and at most AB_ATOMIC_MAX_BYTES per trial;
 * AB_CTX_IRQ_OFF also at most AB_IRQ_OFF_MAX_OBJS and AB_IRQ_OFF_MAX_BYTES
 * per phase. On a
 * PREEMPT_RT kernel (AB_KERNEL_PREEMPT_RT) they are refused with
 * -EOPNOTSUPP for every strategy that allocates: there the allocators take
 * sleeping locks whatever the GFP flags ("none" still runs).
 */
enum ab_context {
	AB_CTX_NORMAL = 0,	/* preemptible process context */
	AB_CTX_PREEMPT_OFF = 1, /* preempt_disable() around each phase */
	AB_CTX_IRQ_OFF = 2,	/* local_irq_save() around each phase */
	AB_CTX_NR
};

/*
 * Bytes one trial may hold, counted as the budget counts them
 * (common/ab_footprint.h), when nothing in it may sleep or reclaim: in
 * AB_CTX_PREEMPT_OFF and AB_CTX_IRQ_OFF, and with AB_GFP_ATOMIC or
 * AB_GFP_NOWAIT in any context. Such allocations cannot wait for reclaim,
 * and GFP_ATOMIC may dip below the min watermark into the reserves kept
 * for interrupt handlers (ALLOC_HIGH and ALLOC_HARDER, mm/page_alloc.c
 * gfp_to_alloc_flags()): a run holding a quarter of RAM that way would
 * starve the kernel's own atomic users. Above it: -E2BIG. It also bounds
 * what all such runs in progress hold together (several callers, or one
 * run per CPU at once): a run that would take them above it gets -EBUSY.
 */
#define AB_ATOMIC_MAX_BYTES (64ULL << 20)

/*
 * One phase with IRQs off (AB_CTX_IRQ_OFF) allocates or frees at most
 * AB_IRQ_OFF_MAX_OBJS objects and AB_IRQ_OFF_MAX_BYTES bytes (counted as
 * the budget counts them), so that IRQs stay off far less than a
 * millisecond. Measured under qemu TCG (Debian 6.1, init_on_alloc=1, one
 * CPU of this project's machines), per alloc phase with GFP_ATOMIC: 16
 * kmalloc(4096) median 11 us, longest of 300 141 us; 64 kmalloc(1024)
 * longest 37 us; 128 kmalloc(4096) with AB_RUN_WRITE longest of 64 1.03 ms
 * (the page allocator refilling its per-CPU lists inside the phase); 64
 * of them, longest of 64, 158 us on 6.1 but 380 us on 6.12 and 525 us from
 * a 32-bit process on 6.12, so the limits are a quarter of 128 x 4 KiB
 * (tests/kernel/ioctl_test.c prints the longest phase at the limits). Real
 * hardware is several times faster than TCG. Above either: -E2BIG.
 */
#define AB_IRQ_OFF_MAX_OBJS 32U
#define AB_IRQ_OFF_MAX_BYTES (128ULL << 10)

/*
 * Bytes one phase may allocate (what a trial holds, counted as the budget
 * counts them), whatever the budget: a phase runs without rescheduling
 * (its loop is timed whole), and zeroing memory runs at a few GB/s, so a
 * quarter of 1 TiB in one phase would take about 25 s, past the soft
 * lockup detector (2 x watchdog_thresh = 20 s, kernel/watchdog.c) and the
 * RCU stall timeout (CONFIG_RCU_CPU_STALL_TIMEOUT, 21 s in Debian's
 * kernels). 512 MiB is a fraction of a second even with init_on_alloc,
 * init_on_free and the run's own write. Above it: -E2BIG; an object above
 * it is above ab_strategy_info.max_size too.
 */
#define AB_PHASE_MAX_BYTES (512ULL << 20)

/* ab_run.cache_merged */
/*
 * The module opens no files, so it tells only what it knows itself: NO for
 * a cache created unmergeable (AB_RUN_NOMERGE), YES or LATER when another
 * run's cache was the same kmem_cache, else UNKNOWN. The caller refines
 * UNKNOWN and LATER from /sys/kernel/slab/<ab_run.cache_name> (a link to
 * the cache the name was given to, see the CLI's lib/slabmerge.c).
 */
#define AB_MERGED_NA 0      /* the strategy uses no kmem_cache of its own */
#define AB_MERGED_NO 1      /* the private cache is a cache of its own */
#define AB_MERGED_YES 2     /* the kernel aliased it to an existing cache */
#define AB_MERGED_UNKNOWN 3 /* not known to the module (see above) */
/*
 * A cache of its own when created, but by the end of the run another
 * cache had been merged into it (another run's of the same size, or any
 * kernel user's): its slabs were shared for part of the run.
 */
#define AB_MERGED_LATER 4

/* ab_run.map_pages: the page sizes a mapping's leaf entries map */
enum ab_map_size {
	AB_MAP_4K = 0, /* a PTE: one 4 KiB page */
	AB_MAP_2M = 1, /* a PMD leaf: a 2 MiB page */
	AB_MAP_1G = 2, /* a PUD leaf: a 1 GiB page */
	AB_MAP_NR
};

/**
 * struct ab_sample - one measurement, written to ab_run.samples_ptr
 * @alloc_cycles: AB_TIMING_BATCH: cycle-counter delta around the alloc
 *                phase of the trial (AB_FREE_PAIR: around the whole
 *                alloc+free loop); AB_TIMING_SINGLE: see below
 * @free_cycles:  the same around the free phase (AB_TIMING_BATCH with
 *                AB_FREE_PAIR: 0)
 * @nr_objs:      objects allocated in the trial (less than batch if one
 *                failed; the failing call ends the trial)
 * @flags:        AB_SAMPLE_FAILED if an allocation failed in this trial
 *                (the CLI leaves such an alloc sample out of its figures:
 *                the failed call is timed in it); with
 *                AB_RUN_MARK_DISTURBED also AB_SAMPLE_ALLOC_DISTURBED and
 *                AB_SAMPLE_FREE_DISTURBED
 *
 * AB_TIMING_BATCH: one sample per measured trial, as above.
 *
 * AB_TIMING_SINGLE: one sample per object slot, trial-major: slot i of
 * measured trial t is element t * per_trial + i (per_trial is batch, or 1
 * for AB_STRATEGY_PER_TRIAL strategies, whose one sample per trial is
 * written as in AB_TIMING_BATCH, its one call per phase timed on its own).
 * @alloc_cycles and @free_cycles time that object's own allocation and
 * free; @nr_objs is 1 for an allocated object, 0 for the slot whose
 * allocation failed (AB_SAMPLE_FAILED) and for the unused slots after it.
 * The disturbed bits are per phase of the trial: every slot of a disturbed
 * phase has its bit (a switch is seen between phases, not between
 * objects).
 *
 * ns = cycles * 1000000 / ab_run.tsc_khz. The cycle counter is the TSC on
 * x86, read ordered (rdtsc_ordered(): the read waits for the loads before
 * it), but in the phases the bulk strategies time themselves
 * (kmem_cache_bulk's, kfree_bulk's free and its pairs, alloc_pages_bulk's),
 * read with get_cycles() (a plain rdtsc).
 */
struct ab_sample {
	__u64 alloc_cycles;
	__u64 free_cycles;
	__u32 nr_objs;
	__u32 flags;
};

/* ab_sample.flags (before the disturbed bits existed: 0 or 1, "failed") */
#define AB_SAMPLE_FAILED 1U
/*
 * The trial's alloc phase (AB_FREE_PAIR: its alloc+free loop) saw a
 * context switch of the thread that ran it (voluntary or not: the
 * task's nvcsw + nivcsw changed) or ended on another CPU than it began.
 */
#define AB_SAMPLE_ALLOC_DISTURBED 2U
/* The same for the free phase (AB_RUN_REMOTE_FREE: the worker's). */
#define AB_SAMPLE_FREE_DISTURBED 4U
/*
 * AB_RUN_COND_EACH_TRIAL: the trial began with the condition not holding
 * even after it was restored (every sample of the trial has the bit).
 */
#define AB_SAMPLE_COND_UNMET 8U

/**
 * struct ab_run - argument of AB_IOC_RUN: input fields, then output
 * @size:         sizeof(struct ab_run) as the caller knows it
 * @strategy:     ab_strategy_info.id
 * @obj_size:     bytes per object, >= 1, for AB_PARAM_SIZE strategies; must
 *                be 0 for the others
 * @order:        page order for AB_PARAM_ORDER strategies; must be 0 for the
 *                others
 * @batch:        objects allocated per trial (1..max_batch)
 * @trials:       measured trials (1..max_trials)
 * @warmup:       trials run first and not recorded (0..max_trials)
 * @node:         NUMA node to allocate on, or -1 for no preference; must be
 *                online with memory, and -1 for strategies without
 *                AB_PARAM_NODE. Also the node that node hits count
 *                against; with -1 that is the node of the CPU at start.
 * @gfp:          enum ab_gfp; AB_GFP_KERNEL for strategies without
 *                AB_PARAM_GFP
 * @flags:        AB_RUN_* bits
 * @timing:       enum ab_timing
 * @free_pattern: enum ab_free_pattern
 * @context:      enum ab_context
 * @lookup_table: kmalloc_class: enum ab_class_table_id; 0 for the others
 * @lookup_method: kmalloc_class: enum ab_lookup_method, how the class is
 *                found in each allocation (AB_LOOKUP_NONE: found once before
 *                timing); 0 for the others
 * @seed:         AB_FREE_SHUFFLE: seed of the free order (any value; the
 *                same seed gives the same orders); zero otherwise
 * @samples_ptr:  user pointer to struct ab_sample[@samples_len], laid out
 *                as struct ab_sample says; may be 0 with @samples_len 0
 * @samples_len:  elements at @samples_ptr: 0, or at least @trials
 *                times the samples one trial writes (struct ab_sample: 1,
 *                or batch in AB_TIMING_SINGLE but for
 *                AB_STRATEGY_PER_TRIAL strategies)
 * @free_cpu:     with AB_RUN_REMOTE_FREE, the online CPU that frees (not
 *                with AB_FREE_PAIR); zero otherwise
 * @sheaf_capacity: with AB_RUN_SHEAVES, objects per sheaf asked for, 0 for
 *                none; zero otherwise
 * @align:        AB_PARAM_ALIGN strategies: alignment in bytes, a power of
 *                two and a multiple of sizeof(void *); zero for the others
 *                (AB_STRATEGY_MEM_PERCPU: at most ab_info.page_size, as
 *                pcpu_alloc() takes; zero there is 8)
 * @reserved:     zero
 *
 * Output (also written back, with partial counts, when the run returns
 * -EINTR because a signal arrived):
 * @trials_done:  measured trials completed
 * @cpu_start:    CPU the run started on (raw_smp_processor_id())
 * @cpu_end:      CPU the run ended on
 * @tsc_khz:      TSC frequency in kHz for the cycles->ns conversion, 0 if
 *                unknown (then only cycles are meaningful)
 * @objects:      objects allocated in measured trials
 * @failed:       allocations that returned NULL in measured trials
 * @node_hits:    objects of the node-check trials all of whose pages are
 *                on @target_node (page_to_nid())
 * @node_checked: objects whose node was checked: those of the untimed
 *                check trials (common/ab_trial.h, AB_CHECK_EVERY: one after
 *                the warm-up, then one per 16 measured trials; the check
 *                reads struct pages that the free phase reads too, so it
 *                stays out of timed trials); 0 for "none" and for
 *                AB_FREE_PAIR, whose objects are gone by then
 * @target_node:  node hits were counted against: @node, or without one the
 *                node the most checked objects were on (@obj_node[0]; -1
 *                when none was checked): where they came from, as the
 *                kernel states it, not a guess from the CPU's node
 * @cache_merged: AB_MERGED_*, for strategies with their own kmem_cache
 * @clock_cycles: median cycles of one ordered cycle-counter pair with nothing
 *                between, measured at the start of the run: what timing
 *                one operation costs (subtracted per op in single timing)
 * @limit:        the one limit a refused run was above (AB_LIMIT_*):
 *                with -E2BIG or -EBUSY from AB_IOC_RUN the module writes
 *                this field alone (if the caller's struct is writable;
 *                the errno stands either way), AB_LIMIT_NONE when the
 *                refusal is not a limit of the run (-E2BIG for the
 *                struct's own size or tail); written as zero on success
 * @switches:     context switches (nvcsw + nivcsw of the thread that
 *                ran the phase) inside the timed phases of measured
 *                trials; a phase is timed from its first stamp to its
 *                last, the switches are read just outside it
 * @migrations:   phases of measured trials that ended on another CPU
 *                than they began on
 * @disturbed:    measured trials with a switch or a CPU change in a phase
 * @free_elsewhere: AB_RUN_REMOTE_FREE: free phases of measured trials that
 *                ran on another CPU than @free_cpu (it went offline and
 *                the work item ran elsewhere); else 0
 *
 * Output, version 1 (AB_RUN_SIZE_VER1; written only to a caller whose
 * @size covers them): the memory the kernel used for the objects, read
 * from its own counters of the nodes the trial's objects were on (version
 * 6 and before: @target_node's) just before the alloc phase and just after
 * it (objects held, before the node check) in each untimed check trial,
 * and summed over those trials. Each figure is "after -
 * before" in bytes and may be negative: the counters are the nodes', so
 * whatever else ran on the machine during the alloc phase is in them
 * too. Objects placed in slabs or per-CPU page lists the kernel already
 * held take no new pages, so a small batch shows less than its share.
 * All zero where nothing was held between the phases (AB_FREE_PAIR,
 * AB_RUN_NO_NODE_CHECK, "none").
 * @mem_objects:  objects held at the second read, summed over the trials
 * @mem_free_bytes: free memory of the node that the alloc phase took:
 *                NR_FREE_PAGES of its zones plus the pages on their
 *                per-CPU lists (which NR_FREE_PAGES does not count),
 *                before minus after; every page the phase took, for any
 *                purpose (slabs, vmalloc pages and page tables, arrays)
 * @mem_slab_bytes: growth of the node's slab pages (NR_SLAB_RECLAIMABLE_B
 *                + NR_SLAB_UNRECLAIMABLE_B)
 * @mem_pagetable_bytes: growth of the node's NR_PAGETABLE (page-table
 *                pages the kernel accounts there)
 * @mem_trials:   check trials the figures come from
 * @out_reserved2: written as zero
 *
 * Output, version 2 (AB_RUN_SIZE_VER2; written only to a caller whose
 * @size covers it):
 * @cache_name:   strategies with a kmem_cache of their own (AB_PARAM_CACHE):
 *                the NUL-terminated name the cache was created with, the
 *                entry of /sys/kernel/slab that tells whether it was merged
 *                (see AB_MERGED_UNKNOWN); all zero for the others
 *
 * Output, version 3 (AB_RUN_SIZE_VER3; written only to a caller whose
 * @size covers them): the spread of @mem_free_bytes over the check
 * trials, each trial's "before - after" in bytes as above (zero where
 * @mem_trials is 0).
 * @mem_free_min: the least free memory one check trial's alloc phase took
 * @mem_free_max: the most free memory one check trial's alloc phase took
 *
 * Output, version 4 (AB_RUN_SIZE_VER4; written only to a caller whose
 * @size covers it):
 * @limit_others: with -EBUSY: the bytes the other runs in progress held
 *                under @limit when this one was refused (AB_LIMIT_BUDGET:
 *                their objects and arrays as ab_run_budget_bytes() counts
 *                them; AB_LIMIT_ATOMIC: their objects held where reclaim
 *                is not allowed); the module writes it with @limit alone,
 *                and 0 on success
 *
 * Output, version 5 (AB_RUN_SIZE_VER5; to a caller whose @size covers
 * them), AB_STRATEGY_RCU strategies, measured trials (else zero):
 * @drain_cycles: the waits after the free phases for the trial's objects
 *                handed to RCU, summed: the barrier (AB_KERNEL_KVFREE_RCU_BARRIER),
 *                then until the free pages are back within AB_DRAIN_SLACK
 *                (or the trial's bytes or 1/64 of RAM, if more) of what
 *                they were before the first trial, for at most
 *                AB_DRAIN_MAX_MS (then what is free is the reference)
 * @drain_max_cycles: the longest of those waits
 * @drain_late:   trials whose wait ended at AB_DRAIN_MAX_MS (or a signal)
 *                with the pages not back
 * @out_reserved5: written as zero
 *
 * Output, version 6 (AB_RUN_SIZE_VER6; to a caller whose @size covers
 * them), AB_RUN_COND_EACH_TRIAL (else @cond_unmet and
 * @cond_restored_pages zero, @cond_max_order -1):
 * @cond_unmet:   measured trials that began without the condition
 * @cond_max_order: fragmented: the highest order with a free block in the
 *                condition's zone at the start of a measured trial that
 *                met it (at most its frag_order), -1 when none had one
 * @cond_restored_pages: pages the restores before the trials (all of
 *                them, warm-up included) took back into the condition
 *
 * Output, version 7 (AB_RUN_SIZE_VER7; to a caller whose @size covers
 * them): where the checked objects were (@node_checked), page_to_nid() of
 * their pages. Objects on other nodes: @node_checked minus these.
 * @obj_node:     the nodes that held the most checked objects all of whose
 *                pages were on one node, most first; -1 past the last
 * @obj_node_objs: the checked objects on each of them
 * @obj_spread:   checked objects whose pages were on more than one node
 *
 * Version 8 (AB_RUN_SIZE_VER8), an input and an output for the mempool
 * strategies (AB_PARAM_POOL):
 * @pool_min:     input: min_nr of the run's mempool, the elements its
 *                reserve holds (1..ab_info.max_batch); zero for the
 *                others. With a GFP choice that may sleep, mempool_alloc()
 *                waits for an element when the reserve is empty and the
 *                allocator fails, and only the run frees: so the objects
 *                held at once (batch, or one with AB_FREE_PAIR) must not
 *                exceed it (-EINVAL), nor, for a strategy that takes from
 *                the reserve alone (no AB_PARAM_GFP), the batch
 * @pool_reserved: zero
 * @pool_from_reserve: output: elements the measured trials' alloc phases
 *                took from the reserve (pool_min less the reserve's
 *                curr_nr after the phase; the frees put them back first),
 *                not counted with AB_FREE_PAIR (each free refills it at
 *                once): zero then and for the others
 * Output, version 9 (AB_RUN_SIZE_VER9; to a caller whose @size covers
 * them): how the checked objects of strategies that map them in the
 * vmalloc space (vmalloc, vmalloc_huge, kvmalloc's vmalloc fallback)
 * are mapped, as the kernel's page tables state it (x86 lookup_address():
 * the level of the leaf entry at each address), in the same check trials
 * as @node_checked; all zero for other strategies and where no check ran.
 * @map_pages:    leaf entries mapping the checked areas, by their size
 *                (enum ab_map_size: 4 KiB, 2 MiB, 1 GiB)
 * @map_areas:    checked objects that were vmalloc areas
 *
 * Output, version 10 (AB_RUN_SIZE_VER10; to a caller whose @size covers
 * it):
 * @pool_reserve_unmet: of @pool_from_reserve, the elements taken in the
 *                measured trials that began without their condition
 *                (AB_RUN_COND_EACH_TRIAL: counted in @cond_unmet, their
 *                samples AB_SAMPLE_COND_UNMET), which the CLI leaves out
 *                of every figure; zero otherwise
 */
struct ab_run {
	__u32 size;
	__u32 strategy;
	__u64 obj_size;
	__u32 order;
	__u32 batch;
	__u32 trials;
	__u32 warmup;
	__s32 node;
	__u32 gfp;
	__u32 flags;
	__u32 timing;
	__u32 free_pattern;
	__u32 context;
	__u32 lookup_table;
	__u32 lookup_method;
	__u64 seed;
	__u64 samples_ptr;
	__u64 samples_len;
	__u32 free_cpu;
	__u32 sheaf_capacity;
	__u64 align;
	__u64 reserved[2];

	__u32 trials_done;
	__u32 cpu_start;
	__u32 cpu_end;
	__u32 tsc_khz;
	__u64 objects;
	__u64 failed;
	__u64 node_hits;
	__u64 node_checked;
	__s32 target_node;
	__u32 cache_merged;
	__u64 clock_cycles;
	__u64 switches;
	__u32 migrations;
	__u32 disturbed;
	__u32 free_elsewhere;
	__u32 limit;

	__u64 mem_objects;
	__s64 mem_free_bytes;
	__s64 mem_slab_bytes;
	__s64 mem_pagetable_bytes;
	__u32 mem_trials;
	__u32 out_reserved2;

	char cache_name[AB_CACHE_NAME_LEN];

	__s64 mem_free_min;
	__s64 mem_free_max;

	__u64 limit_others;

	__u64 drain_cycles;
	__u64 drain_max_cycles;
	__u32 drain_late;
	__u32 out_reserved5;

	__u32 cond_unmet;
	__s32 cond_max_order;
	__u64 cond_restored_pages;

	__s32 obj_node[AB_RUN_OBJ_NODES];
	__u64 obj_node_objs[AB_RUN_OBJ_NODES];
	__u64 obj_spread;

	__u32 pool_min;
	__u32 pool_reserved;
	__u64 pool_from_reserve;
	__u64 map_pages[AB_MAP_NR];
	__u64 map_areas;
	__u64 pool_reserve_unmet;
};

#define AB_RUN_SIZE_VER0 208
#define AB_RUN_SIZE_VER1 248
#define AB_RUN_SIZE_VER2 280
#define AB_RUN_SIZE_VER3 296
#define AB_RUN_SIZE_VER4 304
#define AB_RUN_SIZE_VER5 328
#define AB_RUN_SIZE_VER6 344
#define AB_RUN_SIZE_VER7 400
#define AB_RUN_SIZE_VER8 416
#define AB_RUN_SIZE_VER9 448
#define AB_RUN_SIZE_VER10 456

/*
 * ab_run.limit: which limit refused a run. -E2BIG: the run alone is
 * above it; -EBUSY (only AB_LIMIT_BUDGET and AB_LIMIT_ATOMIC, the two
 * that bound all runs in progress together): it is not, but with the
 * runs in progress it would be. The first broken in this order is named.
 */
#define AB_LIMIT_NONE 0	 /* not refused for a limit */
#define AB_LIMIT_BATCH 1 /* @batch above ab_info.max_batch */
#define AB_LIMIT_TRIALS 2 /* @trials or @warmup above ab_info.max_trials */
/* @obj_size above ab_strategy_info.max_size, or @order above max_order */
#define AB_LIMIT_OBJECT 3
/* the budget ab_info.max_bytes (module parameter max_outstanding_mb) */
#define AB_LIMIT_BUDGET 4
#define AB_LIMIT_PHASE 5  /* AB_PHASE_MAX_BYTES */
#define AB_LIMIT_ATOMIC 6 /* AB_ATOMIC_MAX_BYTES */
#define AB_LIMIT_IRQ_OFF_OBJS 7	 /* AB_IRQ_OFF_MAX_OBJS */
#define AB_LIMIT_IRQ_OFF_BYTES 8 /* AB_IRQ_OFF_MAX_BYTES */
/* a cma run's objects held at once above ab_info.cma_pages */
#define AB_LIMIT_CMA 9
#define AB_LIMIT_NR 10

#define AB_IOC_INFO _IOWR(AB_IOC_MAGIC, 0x00, struct ab_info)
#define AB_IOC_RUN _IOWR(AB_IOC_MAGIC, 0x01, struct ab_run)
#define AB_IOC_LOOKUP _IOWR(AB_IOC_MAGIC, 0x02, struct ab_lookup)
#define AB_IOC_CONDITION _IOWR(AB_IOC_MAGIC, 0x03, struct ab_condition)

#endif /* _UAPI_LINUX_ALLOCBENCH_H */
