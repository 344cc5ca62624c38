// SPDX-License-Identifier: GPL-2.0-only
/*
 * vpmupaths.c - --paths: one phase's ops, one length each, into path
 * lengths and how many ops ran each (vpmu.h, struct ab_vpmu_paths).
 */
#include <stdlib.h>
#include <string.h>

#include "vpmu.h"

static int u64_cmp(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return (x > y) - (x < y);
}

/* the most ops first; of equal ops, the shorter */
static int len_cmp(const void *a, const void *b)
{
	const uint64_t *x = a, *y = b;

	if (x[1] != y[1])
		return (x[1] < y[1]) - (x[1] > y[1]);
	return (x[0] > y[0]) - (x[0] < y[0]);
}

int ab_vpmu_path_lengths(uint64_t *v, size_t n, struct ab_vpmu_path_phase *ph)
{
	size_t i, d = 0;
	uint64_t *runs; /* pairs: length, ops */

	memset(ph, 0, sizeof(*ph));
	if (!n)
		return -1;
	qsort(v, n, sizeof(*v), u64_cmp);
	/* each distinct length and its ops: a pair per run of equal values */
	runs = malloc(2 * n * sizeof(*runs));
	if (!runs)
		return -1;
	for (i = 0; i < n; i++) {
		if (!i || v[i] != v[i - 1]) {
			runs[2 * d] = v[i];
			runs[2 * d++ + 1] = 0;
		}
		runs[2 * d - 1]++;
	}
	qsort(runs, d, 2 * sizeof(*runs), len_cmp);
	ph->ops = n;
	ph->distinct = (uint32_t)d;
	for (i = 0; i < d; i++) {
		if (i < AB_VPMU_PATHS) {
			ph->len[i].insns = runs[2 * i];
			ph->len[i].ops = runs[2 * i + 1];
			ph->n++;
		} else {
			ph->other_ops += runs[2 * i + 1];
			ph->other_insns += runs[2 * i] * runs[2 * i + 1];
		}
	}
	free(runs);
	return 0;
}
