/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * allocbench_lookup.h - AB_IOC_LOOKUP's part of the contract between
 * allocbench.ko and the CLI: the size-class lookup methods and tables
 * (which AB_IOC_RUN's kmalloc_class takes too) and struct ab_lookup.
 * Included by linux/allocbench.h, whose layout, extensibility and error
 * rules hold here.
 */
#ifndef _UAPI_LINUX_ALLOCBENCH_LOOKUP_H
#define _UAPI_LINUX_ALLOCBENCH_LOOKUP_H

#include <linux/types.h>

/*
 * Size-class lookup methods (ab_lookup.method, ab_run.lookup_method); see
 * common/ab_lookup.h for what each does and where it comes from.
 */
enum ab_lookup_method {
	AB_LOOKUP_NONE = 0,   /* no lookup: the loop alone (baseline) */
	AB_LOOKUP_WALK = 1,   /* 2002: linear walk of cache_sizes[] */
	AB_LOOKUP_FLS = 2,    /* fls() in portable C */
	AB_LOOKUP_BSR = 3,    /* fls() with the bit-scan instruction */
	AB_LOOKUP_SWITCH = 4, /* a switch over size ranges */
	AB_LOOKUP_KERNEL = 5, /* 6.x: size_index[] up to 192, fls() above */
	AB_LOOKUP_NR
};

/* Class tables (ab_lookup.table, ab_run.lookup_table) */
enum ab_class_table_id {
	AB_TABLE_KMALLOC = 0, /* today's kmalloc classes: 8 .. 8192, 96, 192 */
	AB_TABLE_2002 = 1,    /* 2002 cache_sizes[]: 32 .. 131072, 96, 192 */
	AB_TABLE_NR
};

/* Largest ab_lookup.nr_sizes. */
#define AB_LOOKUP_MAX_SIZES (1U << 20)

/* ab_lookup.flags */
/*
 * Bracket each pass's timed loop with the virtual PMU's markers
 * (common/ab_vpmu.h), as AB_RUN_VPMU does for a run: one region a pass,
 * warm-up passes included, just inside the clock reads.
 */
#define AB_LOOKUP_VPMU (1U << 0)
#define AB_LOOKUP_FLAGS_ALL AB_LOOKUP_VPMU

/**
 * struct ab_lookup - argument of AB_IOC_LOOKUP, to time a size-class lookup:
 * input fields, then output
 * @size:        sizeof(struct ab_lookup) as the caller knows it
 * @method:      enum ab_lookup_method (AB_LOOKUP_NONE: the loop alone)
 * @table:       enum ab_class_table_id
 * @nr_sizes:    sizes in the sequence (1..AB_LOOKUP_MAX_SIZES)
 * @sizes_ptr:   user pointer to __u32[@nr_sizes], request sizes in bytes
 * @trials:      measured passes (1..ab_info.max_trials)
 * @warmup:      passes run first and not recorded (0..max_trials)
 * @samples_ptr: user pointer to __u64[@samples_len]: cycles of each
 *               measured pass; may be 0 with @samples_len 0
 * @samples_len: 0, or at least @trials
 * @flags:       AB_LOOKUP_* bits (others: -EINVAL)
 * @reserved0:   zero
 * @reserved:    zero
 *
 * Output (also written back, for the passes completed, when a signal ends
 * the passes: -EINTR):
 * @checksum:    sum of the class indexes of one pass: equal for every
 *               method but AB_LOOKUP_NONE (which sums the sizes instead)
 * @trials_done: measured passes completed
 * @cpu:         CPU the passes began on
 * @tsc_khz:     TSC frequency in kHz, 0 if unknown
 * @out_reserved0: written as zero
 * @clock_cycles: median cycles of one pair of the pass's cycle-counter
 *               reads with nothing between, measured before the passes
 * @out_reserved: written as zero
 *
 * Each pass looks up every size of the sequence once, in order, summing
 * the class indexes (AB_NO_CLASS counts -1) so the work cannot be dropped;
 * one pair of ordered cycle-counter reads (x86: rdtsc_ordered()) times
 * the whole pass. The sequence is copied in before timing; it is read from
 * memory in the loop, so the compiler cannot fold a constant size.
 */
struct ab_lookup {
	__u32 size;
	__u32 method;
	__u32 table;
	__u32 nr_sizes;
	__u64 sizes_ptr;
	__u32 trials;
	__u32 warmup;
	__u64 samples_ptr;
	__u64 samples_len;
	__u32 flags;
	__u32 reserved0;
	__u64 reserved[4];

	__s64 checksum;
	__u32 trials_done;
	__u32 cpu;
	__u32 tsc_khz;
	__u32 out_reserved0;
	__u64 clock_cycles;
	__u64 out_reserved[4];
};

#define AB_LOOKUP_SIZE_VER0 152

#endif /* _UAPI_LINUX_ALLOCBENCH_LOOKUP_H */
