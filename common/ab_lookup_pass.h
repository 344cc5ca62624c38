/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ab_lookup_pass.h - the timed lookup loop, one pass function per (method,
 * table) pair, shared by allocbench.ko (kmod/lookup.c) and the user backend
 * (backends/user.c), timed with AB_CYCLES() and AB_HIDE() of ab_clock.h.
 *
 * With method and table constant, the lookup inlines and the table's
 * fields fold, as kmalloc's own static tables do. Sizes are read from
 * memory in the loop and the class indexes are summed through AB_HIDE(), so
 * no size is folded, no lookup is dropped and nothing is vectorized.
 * AB_LOOKUP_NONE sums the sizes themselves: the loop-overhead baseline.
 */
#ifndef AB_LOOKUP_PASS_H
#define AB_LOOKUP_PASS_H

#ifdef __KERNEL__
#include <linux/errno.h>
#else
#include <errno.h>
#endif
#include "ab_clock.h"
#include "ab_lookup.h"
#include "ab_vpmu.h"

typedef u64 (*ab_pass_fn)(const u32 *sizes, u32 n, s64 *sum);

/*
 * One pass; with @mark (a constant: each pass is compiled with and without
 * markers, chosen once per request) the virtual PMU's markers bracket the
 * loop just inside the clock reads (AB_LOOKUP_VPMU).
 */
static __always_inline u64 ab_pass(u32 method, const struct ab_class_table *t,
				   const u32 *sizes, u32 n, s64 *sum,
				   const bool mark)
{
	u64 start;
	s64 s = 0;
	u32 i;

	start = AB_CYCLES();
	if (mark)
		ab_vpmu_mark(AB_VPMU_LOOKUP);
	for (i = 0; i < n; i++) {
		if (method == AB_LOOKUP_NONE)
			s += sizes[i];
		else
			s += ab_lookup(method, t, sizes[i]);
		AB_HIDE(s);
	}
	if (mark)
		ab_vpmu_mark(AB_VPMU_LOOKUP | AB_VPMU_END);
	*sum = s;
	return AB_CYCLES() - start;
}

#define AB_PASS(m, tb)                                                      \
	static u64 ab_pass_##m##_##tb(const u32 *sizes, u32 n, s64 *sum)    \
	{                                                                   \
		return ab_pass(AB_LOOKUP_##m, &ab_table_##tb, sizes, n, sum,   \
			       false);                                      \
	}                                                                   \
	static u64 ab_vpass_##m##_##tb(const u32 *sizes, u32 n, s64 *sum)   \
	{                                                                   \
		return ab_pass(AB_LOOKUP_##m, &ab_table_##tb, sizes, n, sum,   \
			       true);                                       \
	}

AB_PASS(NONE, kmalloc)
AB_PASS(WALK, kmalloc)
AB_PASS(FLS, kmalloc)
AB_PASS(BSR, kmalloc)
AB_PASS(SWITCH, kmalloc)
AB_PASS(KERNEL, kmalloc)
AB_PASS(NONE, 2002)
AB_PASS(WALK, 2002)
AB_PASS(FLS, 2002)
AB_PASS(BSR, 2002)
AB_PASS(SWITCH, 2002)
AB_PASS(KERNEL, 2002)

#define AB_PASSES(p, tb)                                                \
	{                                                               \
		p##_NONE_##tb, p##_WALK_##tb, p##_FLS_##tb, p##_BSR_##tb, \
			p##_SWITCH_##tb, p##_KERNEL_##tb                \
	}

/* ab_passes[marked][table][method]: the pass function to time. */
static const ab_pass_fn ab_passes[2][AB_TABLE_NR][AB_LOOKUP_NR] = {
	{
		[AB_TABLE_KMALLOC] = AB_PASSES(ab_pass, kmalloc),
		[AB_TABLE_2002] = AB_PASSES(ab_pass, 2002),
	},
	{
		[AB_TABLE_KMALLOC] = AB_PASSES(ab_vpass, kmalloc),
		[AB_TABLE_2002] = AB_PASSES(ab_vpass, 2002),
	},
};

/*
 * ab_lookup_check - every input field of a lookup request: 0, -EINVAL, or
 * -E2BIG above a limit (@max_trials from the backend).
 */
static inline int ab_lookup_check(const struct ab_lookup *l, u64 max_trials)
{
	if (l->method >= AB_LOOKUP_NR || l->table >= AB_TABLE_NR ||
	    (l->flags & ~AB_LOOKUP_FLAGS_ALL) ||
	    l->reserved0 || l->reserved[0] || l->reserved[1] ||
	    l->reserved[2] || l->reserved[3])
		return -EINVAL;
	if (!l->nr_sizes || !l->sizes_ptr || !l->trials)
		return -EINVAL;
	if (l->nr_sizes > AB_LOOKUP_MAX_SIZES || l->trials > max_trials ||
	    l->warmup > max_trials)
		return -E2BIG;
	if (!l->samples_ptr != !l->samples_len ||
	    (l->samples_len && l->samples_len < l->trials))
		return -EINVAL;
	return 0;
}

/*
 * ab_lookup_passes - warm-up then measured passes of @l over @sizes: each
 * measured pass's cycles to @put (element @index of the samples; 0, or
 * -errno to end there), then @next between passes (0 to go on, -errno to
 * end: -EINTR for a stop, after the pass it came in has been recorded,
 * as ab_run_trials() does). Sets trials_done and checksum; returns 0 or
 * what ended the passes.
 */
static inline int ab_lookup_passes(struct ab_lookup *l, const u32 *sizes,
				   int (*put)(struct ab_lookup *l, u32 index,
					      u64 cycles),
				   int (*next)(void))
{
	ab_pass_fn pass =
		ab_passes[!!(l->flags & AB_LOOKUP_VPMU)][l->table][l->method];
	s64 sum = 0;
	int err = 0;
	u64 cycles;
	u32 t;

	l->trials_done = 0;
	for (t = 0; t < l->warmup + l->trials && !err; t++) {
		cycles = pass(sizes, l->nr_sizes, &sum);
		if (t >= l->warmup) {
			err = put(l, t - l->warmup, cycles);
			if (err)
				break;
			l->trials_done++;
		}
		err = next();
	}
	l->checksum = sum;
	return err;
}

#endif
