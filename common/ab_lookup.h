/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ab_lookup.h - kmalloc size-class lookups, compiled into both allocbench.ko
 * and the userspace tools, so the module and the user backend time the
 * same code and the unit tests check it.
 *
 * A lookup maps a request size in bytes to the index of the smallest class
 * that holds it, in one of two class tables, or AB_NO_CLASS for size 0 and
 * sizes above the largest class. Methods (enum ab_lookup_method):
 *
 *   walk    the linear walk of cache_sizes[] that kmalloc() did in 2002
 *           (mm/slab.c of 2.5.44)
 *   fls     fls(size - 1) computed in portable C, by halving, as the 2002
 *           generic_fls(), then the power-of-two class; the 96 and 192
 *           byte classes are tested first
 *   bsr     the same with the hardware instruction: the kernel's fls()
 *           (bsr on x86), or __builtin_clz() in user space
 *   switch  Nikita Danilov's 2002 proposal: a switch over size ranges
 *   kernel  today's scheme (mm/slab_common.c, kmalloc_slab() and
 *           size_index[]): a 24-entry u8 table indexed by (size - 1) / 8
 *           for sizes up to 192 (where the 96 and 192 byte classes live),
 *           fls(size - 1) above
 *
 * Source of the 2002 thread: "[PATCH,RFC] faster kmalloc lookup", Manfred
 * Spraul and Nikita Danilov, linux-kernel, October 2002.
 */
#ifndef AB_LOOKUP_H
#define AB_LOOKUP_H

#ifdef __KERNEL__
#include <linux/types.h>
#include <linux/bitops.h>
#else
#include "ab_compat.h"
#endif
#include <linux/allocbench.h>

#define AB_NO_CLASS (-1)

/**
 * struct ab_class_table - one table of size classes, ascending
 * @id:        enum ab_class_table_id (each includer has its own copy of
 *             the tables, so they are told apart by @id, not by address)
 * @name:      "kmalloc" or "2002"
 * @sizes:     class sizes in bytes, @nr of them, then a 0 terminator
 * @nr:        number of classes
 * @max:       the largest class
 * @idx96:     index of the 96 byte class
 * @idx192:    index of the 192 byte class
 * @small:     class of sizes 1..192 by (size - 1) / 8, as size_index[]
 * @pow2:      class holding 2^b bytes, for b = fls(size - 1); entries past
 *             @max are never read (sizes above @max are refused first)
 */
struct ab_class_table {
	u32 id;
	const char *name;
	u32 sizes[16];
	int nr;
	u32 max;
	int idx96, idx192;
	s8 small[24];
	s8 pow2[33];
};

/*
 * Today's kmalloc classes on x86_64 with 4 KiB pages: 8 .. 8192 with 96
 * and 192 (KMALLOC_MIN_SIZE 8, KMALLOC_SHIFT_HIGH PAGE_SHIFT + 1).
 */
static const struct ab_class_table ab_table_kmalloc = {
	.id = AB_TABLE_KMALLOC,
	.name = "kmalloc",
	.sizes = { 8, 16, 32, 64, 96, 128, 192, 256, 512, 1024, 2048, 4096,
		   8192, 0 },
	.nr = 13,
	.max = 8192,
	.idx96 = 4,
	.idx192 = 6,
	.small = { 0, 1, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4,
		   5, 5, 5, 5, 6, 6, 6, 6, 6, 6, 6, 6 },
	/* 2^0..2^3 -> 8, then 16, 32, 64, 128, 256 .. 8192 */
	.pow2 = { 0, 0, 0, 0, 1, 2, 3, 5, 7, 8, 9, 10, 11, 12 },
};

/* The 2002 cache_sizes[] on 4 KiB pages: 32 .. 131072 with 96 and 192. */
static const struct ab_class_table ab_table_2002 = {
	.id = AB_TABLE_2002,
	.name = "2002",
	.sizes = { 32, 64, 96, 128, 192, 256, 512, 1024, 2048, 4096, 8192,
		   16384, 32768, 65536, 131072, 0 },
	.nr = 15,
	.max = 131072,
	.idx96 = 2,
	.idx192 = 4,
	.small = { 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2,
		   3, 3, 3, 3, 4, 4, 4, 4, 4, 4, 4, 4 },
	/* 2^0..2^5 -> 32, then 64, 128, 256 .. 131072 */
	.pow2 = { 0, 0, 0, 0, 0, 0, 1, 3, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14 },
};

static inline const struct ab_class_table *ab_class_table(u32 table)
{
	return table == AB_TABLE_2002 ? &ab_table_2002 : &ab_table_kmalloc;
}

/*
 * The definition, independent of the methods below: the smallest class
 * size that is at least @size, found without relying on the order.
 */
static inline int ab_lookup_reference(const struct ab_class_table *t, u32 size)
{
	int i, best = AB_NO_CLASS;

	if (!size)
		return AB_NO_CLASS;
	for (i = 0; i < t->nr; i++)
		if (t->sizes[i] >= size &&
		    (best == AB_NO_CLASS || t->sizes[i] < t->sizes[best]))
			best = i;
	return best;
}

static __always_inline int ab_lookup_walk(const struct ab_class_table *t,
					  u32 size)
{
	const u32 *p;

	if (!size)
		return AB_NO_CLASS;
	for (p = t->sizes; *p; p++)
		if (size <= *p)
			return (int)(p - t->sizes);
	return AB_NO_CLASS;
}

/* fls() in portable C: the highest set bit, 1-based; 0 for 0. */
static __always_inline int ab_fls_generic(u32 x)
{
	int r = 32;

	if (!x)
		return 0;
	if (!(x & 0xffff0000u)) {
		x <<= 16;
		r -= 16;
	}
	if (!(x & 0xff000000u)) {
		x <<= 8;
		r -= 8;
	}
	if (!(x & 0xf0000000u)) {
		x <<= 4;
		r -= 4;
	}
	if (!(x & 0xc0000000u)) {
		x <<= 2;
		r -= 2;
	}
	if (!(x & 0x80000000u))
		r -= 1;
	return r;
}

/* fls() with the CPU's bit-scan instruction. */
static __always_inline int ab_fls_hw(u32 x)
{
#ifdef __KERNEL__
	return fls(x);
#else
	return x ? 32 - __builtin_clz(x) : 0;
#endif
}

/* The class of @size once @b = fls(size - 1) is known. */
static __always_inline int ab_class_from_fls(const struct ab_class_table *t,
					     u32 size, int b)
{
	if (!size || size > t->max)
		return AB_NO_CLASS;
	if (size > 64 && size <= 96)
		return t->idx96;
	if (size > 128 && size <= 192)
		return t->idx192;
	return t->pow2[b];
}

static __always_inline int ab_lookup_fls(const struct ab_class_table *t,
					 u32 size)
{
	return ab_class_from_fls(t, size, ab_fls_generic(size - 1));
}

static __always_inline int ab_lookup_bsr(const struct ab_class_table *t,
					 u32 size)
{
	return ab_class_from_fls(t, size, ab_fls_hw(size - 1));
}

static __always_inline int ab_switch_kmalloc(u32 size)
{
	switch (size) {
	case 1 ... 8:
		return 0;
	case 9 ... 16:
		return 1;
	case 17 ... 32:
		return 2;
	case 33 ... 64:
		return 3;
	case 65 ... 96:
		return 4;
	case 97 ... 128:
		return 5;
	case 129 ... 192:
		return 6;
	case 193 ... 256:
		return 7;
	case 257 ... 512:
		return 8;
	case 513 ... 1024:
		return 9;
	case 1025 ... 2048:
		return 10;
	case 2049 ... 4096:
		return 11;
	case 4097 ... 8192:
		return 12;
	default:
		return AB_NO_CLASS;
	}
}

static __always_inline int ab_switch_2002(u32 size)
{
	switch (size) {
	case 1 ... 32:
		return 0;
	case 33 ... 64:
		return 1;
	case 65 ... 96:
		return 2;
	case 97 ... 128:
		return 3;
	case 129 ... 192:
		return 4;
	case 193 ... 256:
		return 5;
	case 257 ... 512:
		return 6;
	case 513 ... 1024:
		return 7;
	case 1025 ... 2048:
		return 8;
	case 2049 ... 4096:
		return 9;
	case 4097 ... 8192:
		return 10;
	case 8193 ... 16384:
		return 11;
	case 16385 ... 32768:
		return 12;
	case 32769 ... 65536:
		return 13;
	case 65537 ... 131072:
		return 14;
	default:
		return AB_NO_CLASS;
	}
}

static __always_inline int ab_lookup_switch(const struct ab_class_table *t,
					    u32 size)
{
	return t->id == AB_TABLE_2002 ? ab_switch_2002(size)
				      : ab_switch_kmalloc(size);
}

static __always_inline int ab_lookup_kernel(const struct ab_class_table *t,
					    u32 size)
{
	if (!size || size > t->max)
		return AB_NO_CLASS;
	if (size <= 192)
		return t->small[(size - 1) / 8];
	return t->pow2[ab_fls_hw(size - 1)];
}

/*
 * ab_lookup - @method's answer for @size. AB_LOOKUP_NONE answers 0: it is
 * the loop-overhead baseline, not a lookup. With a constant @method the
 * switch folds away and the method inlines.
 */
static __always_inline int ab_lookup(u32 method, const struct ab_class_table *t,
				     u32 size)
{
	switch (method) {
	case AB_LOOKUP_WALK:
		return ab_lookup_walk(t, size);
	case AB_LOOKUP_FLS:
		return ab_lookup_fls(t, size);
	case AB_LOOKUP_BSR:
		return ab_lookup_bsr(t, size);
	case AB_LOOKUP_SWITCH:
		return ab_lookup_switch(t, size);
	case AB_LOOKUP_KERNEL:
		return ab_lookup_kernel(t, size);
	default:
		return 0;
	}
}

/*
 * ab_lookup_selfcheck - every method against the reference for every size
 * from 0 to the largest class + 1 of both tables. Returns 0, or the first
 * size that disagrees (with *@method and *@table saying where).
 */
static inline u32 ab_lookup_selfcheck(u32 *method, u32 *table)
{
	u32 m, tb, size;

	for (tb = 0; tb < AB_TABLE_NR; tb++) {
		const struct ab_class_table *t = ab_class_table(tb);

		for (m = AB_LOOKUP_WALK; m < AB_LOOKUP_NR; m++)
			for (size = 0; size <= t->max + 1; size++)
				if (ab_lookup(m, t, size) !=
				    ab_lookup_reference(t, size)) {
					*method = m;
					*table = tb;
					return size ? size : 0xffffffffU;
				}
	}
	return 0;
}

#endif
