/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * condition.h - a row's memory condition (--condition) and background
 * load (--background), for the runner (cmd/runner.c) and the reports:
 * what the module built, the node's state as the kernel states it before,
 * once built, after the trials and after the undo, and the reclaim and
 * compaction counters over the trials.
 */
#ifndef AB_CONDITION_H
#define AB_CONDITION_H

#include <stddef.h>
#include <sys/types.h>

#include "allocbench.h"
#include "memstate.h"

struct ab_job;
struct ab_row;

/* the moments the node's state is read at */
enum ab_cond_when {
	AB_AT_BEFORE, /* before the build */
	AB_AT_BUILT,  /* built, before the trials */
	AB_AT_TRIALS, /* after the trials, before the undo */
	AB_AT_UNDONE, /* after the undo */
	AB_AT_NR
};

/** struct ab_cond_result - one row's condition and background load */
struct ab_cond_result {
	uint32_t kinds;		   /* AB_COND_* */
	uint32_t frag_order;	   /* with AB_COND_FRAGMENTED */
	int node;		   /* -1: vmap-fragmented alone */
	struct ab_condition built; /* AB_COND_BUILD's answer */
	struct ab_condition undo;  /* AB_COND_UNDO's answer */
	int undone;
	int timed; /* the timed pass's window closed (ab_cond_timed()) */
	struct ab_memstate mem[AB_AT_NR];
	unsigned int have_mem;	/* bit per enum ab_cond_when read */
	struct ab_vmstat vm[2]; /* around the timed pass's trials */
	struct ab_mm_settings settings;
	/* --background */
	const char *background;
	pid_t bg_pid;
	int bg_ended_early; /* it exited before the trials ended */
	int bg_status;	    /* its wait status (then, or once stopped) */
};

/*
 * ab_cond_check - --condition and --background against @job, before
 * anything runs: refused for a backend that builds no condition, with
 * --concurrent, where every row is the baseline (which meets neither),
 * and for a load sh cannot start (a syntax error; its first command not
 * found, not executable). AB_EXIT_OK, or AB_EXIT_USAGE after one line.
 */
int ab_cond_check(const struct ab_job *job);

/*
 * ab_cond_begin - before @r's trials: reads the node's state, builds the
 * condition (none for quiet) and starts the background load. 0, or -errno
 * with the one-line reason in @why (nothing is then held).
 */
int ab_cond_begin(struct ab_job *job, struct ab_row *r, char *why, size_t len);
/*
 * ab_cond_timed - right after @r's timed pass: the vmstat window and the
 * zone's state "after trials" close there, so that a counting pass run
 * after it (--events, --explain) is in neither
 */
void ab_cond_timed(struct ab_row *r);
/* ab_cond_end - after @r's passes: stops the load, undoes, reads again */
void ab_cond_end(struct ab_job *job, struct ab_row *r);
/*
 * ab_cond_trials - @r's measured trials that met its condition (all of
 * them without AB_RUN_COND_EACH_TRIAL), and of those the ones whose every
 * allocation succeeded; from the samples (struct ab_sample flags).
 */
void ab_cond_trials(const struct ab_row *r, uint64_t *met, uint64_t *ok);

/* The zone the condition was stated for (the module's), or NULL. */
const struct ab_zonestate *ab_cond_zone(const struct ab_cond_result *c,
					enum ab_cond_when when);

#endif
