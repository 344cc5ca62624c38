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

int ab_vpmu_len_cmp(const void *a, const void *b)
{
	const struct ab_vpmu_len *x = a, *y = b;

	if (x->ops != y->ops)
		return (x->ops < y->ops) - (x->ops > y->ops);
	return (x->insns > y->insns) - (x->insns < y->insns);
}

int ab_vpmu_path_lengths(uint64_t *v, size_t n, struct ab_vpmu_path_phase *ph)
{
	size_t i, d = 0;
	struct ab_vpmu_len *runs;

	memset(ph, 0, sizeof(*ph));
	if (!n)
		return -1;
	qsort(v, n, sizeof(*v), u64_cmp);
	/* each distinct length and its ops: one per run of equal values */
	runs = malloc(n * sizeof(*runs));
	if (!runs)
		return -1;
	for (i = 0; i < n; i++) {
		if (!i || v[i] != v[i - 1])
			runs[d++] = (struct ab_vpmu_len){ v[i], 0 };
		runs[d - 1].ops++;
	}
	qsort(runs, d, sizeof(*runs), ab_vpmu_len_cmp);
	ph->ops = n;
	ph->distinct = (uint32_t)d;
	for (i = 0; i < d; i++) {
		if (i < AB_VPMU_PATHS) {
			ph->len[ph->n++] = runs[i];
		} else {
			ph->other_ops += runs[i].ops;
			ph->other_insns += runs[i].insns * runs[i].ops;
		}
	}
	free(runs);
	return 0;
}
