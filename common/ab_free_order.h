/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ab_free_order.h - the order in which a trial frees its objects, compiled
 * into both allocbench.ko and the userspace tools (which test it), so the
 * module runs exactly the tested code.
 *
 * Patterns (enum values of the uapi free_pattern field):
 *   AB_FREE_FIFO:    allocation order, as in the 2019 seed
 *   AB_FREE_LIFO:    reverse allocation order
 *   AB_FREE_SHUFFLE: a seeded Fisher-Yates shuffle, repeatable: the same
 *                    (seed, trial) always gives the same order
 * (AB_FREE_PAIR frees each object right after allocating it and needs no
 * order.)
 *
 * Random numbers: xorshift64* (S. Vigna, "An experimental exploration of
 * Marsaglia's xorshift generators, scrambled", ACM TOMS 42(4), 2016),
 * seeded per trial through splitmix64 (Steele, Lea and Flood, "Fast
 * splittable pseudorandom number generators", OOPSLA 2014). Modulo bias of
 * r % (i + 1) is below 2^-40 for the at most 2^20 objects of a trial.
 */
#ifndef AB_FREE_ORDER_H
#define AB_FREE_ORDER_H

#ifdef __KERNEL__
#include <linux/types.h>
#else
#include "ab_compat.h"
#endif
#include <linux/allocbench.h>

static inline u64 ab_splitmix64(u64 x)
{
	x += 0x9e3779b97f4a7c15ULL;
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
	x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
	return x ^ (x >> 31);
}

static inline u64 ab_xorshift64s(u64 *state)
{
	u64 x = *state;

	x ^= x >> 12;
	x ^= x << 25;
	x ^= x >> 27;
	*state = x;
	return x * 0x2545f4914f6cdd1dULL;
}

/*
 * ab_free_order - fill @perm[0..n) with the indexes of a trial's objects
 * in the order @pattern frees them (a permutation of 0..n-1). @seed and
 * @trial matter for AB_FREE_SHUFFLE only.
 */
static inline void ab_free_order(u32 *perm, u32 n, u32 pattern, u64 seed,
				 u32 trial)
{
	u64 state;
	u32 i, j, tmp;

	for (i = 0; i < n; i++)
		perm[i] = pattern == AB_FREE_LIFO ? n - 1 - i : i;
	if (pattern != AB_FREE_SHUFFLE || n < 2)
		return;
	state = ab_splitmix64(seed ^ ab_splitmix64(trial));
	if (!state)
		state = 1; /* xorshift's one fixed point */
	for (i = n - 1; i > 0; i--) {
		j = (u32)(ab_xorshift64s(&state) % (i + 1));
		tmp = perm[i];
		perm[i] = perm[j];
		perm[j] = tmp;
	}
}

#endif
