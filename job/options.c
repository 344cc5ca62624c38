// SPDX-License-Identifier: GPL-2.0-only
/* options.c - the shared option tables (see options.h). */
#include <stdio.h>
#include <string.h>

#include "allocbench.h"
#include "options.h"

struct ab_run_args ab_run_args;

struct poptOption ab_trials_table[] = {
	{ "trials", 't', POPT_ARG_STRING, &ab_run_args.trials, 0,
	  "measured trials", "N" },
	{ "warmup", 'w', POPT_ARG_STRING, &ab_run_args.warmup, 0,
	  "trials run first and not recorded", "N" },
	POPT_TABLEEND
};

/* what one trial does: its objects, its GFP flags, their order of freeing */
struct poptOption ab_trial_table[] = {
	{ "batch", 'b', POPT_ARG_STRING, &ab_run_args.batch, 0,
	  "objects allocated per trial", "N" },
	{ "gfp", 'g', POPT_ARG_STRING, &ab_run_args.gfp, 0,
	  "the allocations' GFP flags (ab_run_table_defaults() lists them)",
	  "NAME" },
	{ "free", 'f', POPT_ARG_STRING, &ab_run_args.free, 0,
	  "free order: fifo (default), lifo, shuffle, or pair (free each right after its allocation)",
	  "PATTERN" },
	{ "seed", 0, POPT_ARG_STRING, &ab_run_args.seed, 0,
	  "seed of --free=shuffle (default: random, printed)", "N" },
	{ "lookup", 0, POPT_ARG_STRING, &ab_run_args.lookup, 0,
	  "kmalloc_class: how each allocation finds its class: walk, fls, bsr, switch, kernel (default) or none (found once before timing)",
	  "METHOD" },
	{ "table", 0, POPT_ARG_STRING, &ab_run_args.table, 0,
	  "kmalloc_class: class table, kmalloc (today's, default) or 2002",
	  "NAME" },
	{ "align", 0, POPT_ARG_STRING, &ab_run_args.align, 0,
	  "posix_memalign (user backend, default 64) and percpu (at most a page, default 8): alignment in bytes",
	  "BYTES" },
	{ "pool-min", 0, POPT_ARG_STRING, &ab_run_args.pool_min, 0,
	  "mempool, mempool_reserve: the reserve's elements, min_nr of mempool_create() (default: the batch)",
	  "N" },
	{ "write", 0, POPT_ARG_NONE, &ab_run_args.write, 0,
	  "write each object right after allocating it (timed with the allocation)",
	  NULL },
	{ "nomerge", 0, POPT_ARG_NONE, &ab_run_args.nomerge, 0,
	  "give kmem_cache strategies a cache the kernel will not merge",
	  NULL },
	{ "sheaves", 0, POPT_ARG_STRING, &ab_run_args.sheaves, 0,
	  "kmem_cache strategies: the private cache's per-CPU sheaves, default (the kernel's), off, or N objects per sheaf (6.18+); a list runs each, as rows, each cache unmerged (--nomerge)",
	  "LIST" },
	POPT_TABLEEND
};

/* how the trials are timed; includes ab_trials_table */
struct poptOption ab_timing_table[] = {
	{ NULL, 0, POPT_ARG_INCLUDE_TABLE, ab_trials_table, 0, NULL, NULL },
	{ "timing", 'T', POPT_ARG_STRING, &ab_run_args.timing, 0,
	  "batch: one clock pair per phase (default); single: one per operation",
	  "MODE" },
	{ "context", 0, POPT_ARG_STRING, &ab_run_args.context, 0,
	  "the loop's context (ab_run_table_defaults() lists them)", "CTX" },
	{ "drop-disturbed", 0, POPT_ARG_NONE, &ab_run_args.drop_disturbed, 0,
	  "leave out samples of phases that saw a context switch or a CPU change",
	  NULL },
	POPT_TABLEEND
};

/* the memory state the trials meet */
struct poptOption ab_cond_table[] = {
	{ "condition", 0, POPT_ARG_STRING, &ab_run_args.condition, 0,
	  "the memory state the trials meet, built before each row and undone after it: quiet (default), fragmented, pressure, vmap-fragmented, or kinds joined with + (fragmented+pressure)",
	  "STATE" },
	{ "frag-order", 0, POPT_ARG_STRING, &ab_run_args.frag_order, 0,
	  "--condition=fragmented: no free block above this order (0-8, default 2)",
	  "ORDER" },
	{ "background", 0, POPT_ARG_STRING, &ab_run_args.background, 0,
	  "a shell command run during each row's trials (sh -c), stopped after them",
	  "CMD" },
	POPT_TABLEEND
};

struct poptOption ab_run_table[] = {
	{ NULL, 0, POPT_ARG_INCLUDE_TABLE, ab_trial_table, 0, NULL, NULL },
	{ NULL, 0, POPT_ARG_INCLUDE_TABLE, ab_timing_table, 0, NULL, NULL },
	{ NULL, 0, POPT_ARG_INCLUDE_TABLE, ab_cond_table, 0, NULL, NULL },
	POPT_TABLEEND
};

struct poptOption ab_events_table[] = {
	{ "events", 'e', POPT_ARG_STRING | POPT_ARGFLAG_OPTIONAL,
	  &ab_run_args.events, 0,
	  "count events per op (libpfm4 names, kprobe:FUNC, SUBSYS:EVENT tracepoints, comma-separated; alone: a default set)",
	  "LIST" },
	POPT_TABLEEND
};

struct poptOption ab_explain_table[] = {
	{ "explain", 0, POPT_ARG_NONE, &ab_run_args.explain, 0,
	  "count the allocators' own internal paths (slab slow path, new slabs, per-CPU page lists, vmap areas...) per op, in a counting pass",
	  NULL },
	POPT_TABLEEND
};

struct poptOption ab_profile_table[] = {
	{ "profile", 0, POPT_ARG_NONE, &ab_run_args.profile, 0,
	  "with the virtual PMU and its model (booted with VPMU=model): the functions that take the instructions of one op, per strategy, symbolised from /proc/kallsyms",
	  NULL },
	{ "paths", 0, POPT_ARG_NONE, &ab_run_args.paths, 0,
	  "with the virtual PMU (booted with VPMU=1): each op's instructions in a pass of its own, one region per op, as path lengths and how many ops ran each (the fast path first)",
	  NULL },
	POPT_TABLEEND
};

struct poptOption ab_wide_table[] = {
	{ "wide", 0, POPT_ARG_NONE, &ab_out.wide, 0,
	  "the full text report: the whole header, every column and table, every note in full (-v too)",
	  NULL },
	POPT_TABLEEND
};

struct poptOption ab_csv_table[] = {
	{ "csv", 0, POPT_BIT_SET, &ab_out.formats, AB_FORMAT_CSV,
	  "comma-separated lines, one per result row, instead of tables",
	  NULL },
	POPT_TABLEEND
};

struct poptOption ab_backend_table[] = {
	{ "backend", 0, POPT_ARG_STRING, &ab_run_args.backend, 0,
	  "where to run: kmod (the module, default) or user (this process)",
	  "NAME" },
	POPT_TABLEEND
};

/* The help text of option --@name of @table and the tables it includes. */
static void set_descrip(struct poptOption *table, const char *name,
			const char *text)
{
	for (; table->longName || table->shortName || table->arg; table++)
		if ((table->argInfo & POPT_ARG_MASK) == POPT_ARG_INCLUDE_TABLE)
			set_descrip(table->arg, name, text);
		else if (table->longName && !strcmp(table->longName, name))
			table->descrip = text;
}

void ab_run_table_defaults(const struct ab_run_opts *o)
{
	static char trials[64], warmup[80], batch[64], gfp[192], context[224];
	char words[160];

	snprintf(trials, sizeof(trials), "measured trials (default: %u)",
		 o->trials);
	snprintf(warmup, sizeof(warmup),
		 "trials run first and not recorded (default: %u)", o->warmup);
	snprintf(batch, sizeof(batch),
		 "objects allocated per trial (default: %u)", o->batch);
	set_descrip(ab_run_table, "trials", trials);
	set_descrip(ab_run_table, "warmup", warmup);
	set_descrip(ab_run_table, "batch", batch);
	/* the spellings from their table (lib/runnames.c) */
	ab_enum_words(words, sizeof(words), ab_gfp_option_name, 0, AB_GFP_NR,
		      ", ", " or ");
	snprintf(gfp, sizeof(gfp), "%s (default: %s)", words,
		 ab_gfp_option_name(o->gfp));
	ab_enum_words(words, sizeof(words), ab_context_name, 0, AB_CTX_NR, ", ",
		      " or ");
	snprintf(context, sizeof(context),
		 "%s around each timed phase (default: %s)", words,
		 ab_context_name(o->context));
	set_descrip(ab_run_table, "gfp", gfp);
	set_descrip(ab_run_table, "context", context);
}

int ab_run_args_apply(struct ab_run_opts *o)
{
	const struct ab_run_args *a = &ab_run_args;
	char err[AB_ERRLEN];
	int bad = 0;

	o->nomerge |= a->nomerge;
	o->write |= a->write;
	o->drop_disturbed |= a->drop_disturbed;
	if (a->batch)
		bad = bad || ab_opt_count("batch", a->batch, 1, &o->batch, err,
					  sizeof(err));
	if (a->trials)
		bad = bad || ab_opt_count("trials", a->trials, 1, &o->trials,
					  err, sizeof(err));
	if (a->warmup)
		bad = bad || ab_opt_count("warmup", a->warmup, 0, &o->warmup,
					  err, sizeof(err));
	if (a->gfp)
		bad = bad || ab_opt_gfp(a->gfp, o, err, sizeof(err));
	if (a->timing)
		bad = bad || ab_opt_timing(a->timing, o, err, sizeof(err));
	if (a->free)
		bad = bad || ab_opt_free(a->free, o, err, sizeof(err));
	if (a->seed)
		bad = bad || ab_opt_seed(a->seed, o, err, sizeof(err));
	if (a->context)
		bad = bad || ab_opt_context(a->context, o, err, sizeof(err));
	if (a->lookup)
		bad = bad || ab_opt_lookup(a->lookup, o, err, sizeof(err));
	if (a->table)
		bad = bad || ab_opt_table(a->table, o, err, sizeof(err));
	if (a->align)
		bad = bad || ab_opt_align(a->align, o, err, sizeof(err));
	if (a->sheaves)
		bad = bad || ab_opt_sheaves(a->sheaves, o, err, sizeof(err));
	if (a->pool_min)
		bad = bad || ab_opt_count("pool-min", a->pool_min, 1,
					  &o->pool_min, err, sizeof(err));
	if (a->condition)
		bad = bad ||
		      ab_opt_condition(a->condition, o, err, sizeof(err));
	if (a->frag_order)
		bad = bad ||
		      ab_opt_frag_order(a->frag_order, o, err, sizeof(err));
	if (a->background) {
		if (!*a->background) {
			snprintf(
				err, sizeof(err),
				"--background=: an empty command (give the shell command to run during the trials)");
			bad = 1;
		}
		o->background = a->background;
	}
	if (!bad && o->frag_order_set && !(o->condition & AB_COND_FRAGMENTED)) {
		snprintf(err, sizeof(err),
			 "--frag-order=%s: only with --condition=fragmented",
			 a->frag_order);
		bad = 1;
	}
	if (bad) {
		ab_err("%s", err);
		return AB_EXIT_USAGE;
	}
	return AB_EXIT_OK;
}

int ab_run_args_given(void)
{
	const struct ab_run_args *a = &ab_run_args;

	return a->trials || a->warmup || a->batch || a->gfp || a->timing ||
	       a->free || a->seed || a->context || a->lookup || a->table ||
	       a->align || a->sheaves || a->pool_min || a->condition ||
	       a->frag_order || a->background || a->write || a->nomerge ||
	       a->drop_disturbed;
}
