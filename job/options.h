/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * options.h - the options every command that times something takes, in one
 * popt table each, included (POPT_ARG_INCLUDE_TABLE) by run, compare,
 * sweep, lookup and reproduce, and parsed in one place.
 */
#ifndef AB_CMD_OPTIONS_H
#define AB_CMD_OPTIONS_H

#include <popt.h>

#include "runopts.h"

/**
 * struct ab_run_args - the option texts as given, NULL when not given
 * @trials, @warmup: ab_trials_table
 * @batch, @gfp, @timing, @free, @seed, @context, @lookup, @table, @align,
 * @sheaves, @pool_min,
 * @write, @nomerge: ab_run_table (what one trial does)
 * @backend:  ab_backend_table
 * @events:   ab_events_table (--events alone: "")
 * @explain:  ab_explain_table
 * @profile, @paths: ab_profile_table
 * (--csv, ab_csv_table: ab_out.formats)
 */
struct ab_run_args {
	char *trials, *warmup;
	char *batch, *gfp, *timing, *free, *seed, *context, *lookup, *table;
	char *align, *sheaves, *pool_min;
	char *condition, *frag_order, *background;
	int write, nomerge, drop_disturbed;
	char *backend;
	char *events;
	int explain, profile, paths;
};

extern struct ab_run_args ab_run_args;

/* --trials, --warmup: every command that repeats a timed pass */
extern struct poptOption ab_trials_table[];
/* what one trial does: --batch, --gfp, --free, ... (run's Strategy group) */
extern struct poptOption ab_trial_table[];
/* how it is timed: ab_trials_table, --timing, --context, --drop-disturbed */
extern struct poptOption ab_timing_table[];
/* the memory state the trials meet: --condition, --frag-order, --background */
extern struct poptOption ab_cond_table[];
/* the three above, without headings (sweep) */
extern struct poptOption ab_run_table[];
/* --backend */
extern struct poptOption ab_backend_table[];
/* --events[=LIST]: run, compare, sweep and lookup */
extern struct poptOption ab_events_table[];
/* --explain: run, compare and sweep */
extern struct poptOption ab_explain_table[];
/* --profile, --paths: run */
extern struct poptOption ab_profile_table[];
/* --csv: run, sweep and lookup (compare refuses it) */
extern struct poptOption ab_csv_table[];
/* --wide: ab_out.wide, the full text report (run, compare, sweep, lookup,
 * reproduce) */
extern struct poptOption ab_wide_table[];

/*
 * ab_run_table_defaults - the defaults --help shows for --trials, --warmup
 * and --batch, taken from @o (a command's own defaults, set before parsing).
 */
void ab_run_table_defaults(const struct ab_run_opts *o);

/*
 * ab_run_args_apply - the values given in ab_run_args over @o (which holds
 * the command's defaults). Prints the first bad value; returns an exit
 * status.
 */
int ab_run_args_apply(struct ab_run_opts *o);

/* ab_run_args_given - nonzero when any option of ab_run_table was given. */
int ab_run_args_given(void);

#endif
