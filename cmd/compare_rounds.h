/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * compare_rounds.h - the rounds of `allocbench compare --alloc=A,B`
 * (compare_rounds.c): run interleaved, then gathered into one row per
 * strategy, which compare.c tests and reports.
 */
#ifndef AB_COMPARE_ROUNDS_H
#define AB_COMPARE_ROUNDS_H

#include <stdint.h>

#include "job.h"

/*
 * --rounds: from 7, the fewest with which the two phases' tests, Holm's
 * adjustment doubling the smaller p, can reject at 5% at all (2 x 2 / 2^7
 * = 0.031; with 6, 2 x 2 / 64 = 0.0625, which no result could reach), to
 * 100 (the exact null distribution's cost stays negligible).
 */
#define ROUNDS_DEFAULT 10
#define ROUNDS_MIN     7
#define ROUNDS_MAX     100

/**
 * struct rounds - the interleaved blocks of `compare --alloc=A,B`
 * @n:      rounds
 * @ba:     per round, 1 when B's block ran first (row 2k is then B's)
 * @trials: per round, the trials of each block (--trials spread evenly)
 * @label:  A's and B's row labels ("kmem_cache", "kmem_cache sheaves=off")
 */
struct rounds {
	int n;
	unsigned char ba[ROUNDS_MAX];
	uint32_t trials[ROUNDS_MAX];
	char label[2][64];
};

/* Row of strategy @s (0: A, 1: B) in round @k. */
static inline const struct ab_row *
compare_block(const struct ab_job *job, const struct rounds *rd, int k, int s)
{
	return &job->rows[2 * k + (s ^ rd->ba[k])];
}

/* compare_rounds_parse - --rounds (@rounds_arg, NULL: the default) into
 * @rd->n; an exit status after the error. */
int compare_rounds_parse(struct rounds *rd, const char *rounds_arg);

/*
 * compare_rounds_run - replaces the job's rows A and B by 2 x @rd->n
 * blocks, round k a block of each in a random order; an exit status.
 */
int compare_rounds_run(struct ab_job *job, struct rounds *rd);

/*
 * compare_rounds_view - the job as `run` would show A and B: @view, a copy
 * of @job whose two rows (@rows) are the merged blocks; an exit status.
 * compare_rounds_view_free() frees @rows' samples.
 */
int compare_rounds_view(const struct ab_job *job, const struct rounds *rd,
			struct ab_job *view, struct ab_row rows[2]);
void compare_rounds_view_free(struct ab_row rows[2]);

#endif
