/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * runopts.h - turning `allocbench run` options into struct ab_run requests,
 * with every check the module would make done first, so a bad value gets a
 * one-line message naming it and nothing reaches the module.
 *
 * Three files: lib/runnames.c, the enumerated options' spellings
 * (runnames.h); lib/runopts.c, the request and its checks (this header);
 * lib/runanswer.c, the checks of the module's answers (runanswer.h). This
 * header includes the other two, so its includers see the whole API.
 */
#ifndef AB_RUNOPTS_H
#define AB_RUNOPTS_H

#include <stddef.h>
#include <stdint.h>
#include <linux/allocbench.h>

#include "runanswer.h"
#include "runlimits.h"
#include "runnames.h"

struct ab_footprint; /* common/ab_run.h */

#define AB_DEFAULT_BATCH  100
#define AB_DEFAULT_TRIALS 1000

/* --sheaves: at most this many settings, each a row per strategy */
#define AB_MAX_SHEAVES 8
/* --gfp=LIST: at most this many choices, one row each */
#define AB_MAX_GFPS 4
/* the most orders one --order list holds */
#define AB_MAX_ORDERS 16
/* a setting of --sheaves: the kernel's own choice (no AB_RUN_SHEAVES) */
#define AB_SHEAVES_DEFAULT (-1)

/**
 * struct ab_run_opts - parsed values of `allocbench run`
 * @size:    bytes per object; @size_set when --size was given, as
 *           @size_arg
 * @order:   page order; @order_set when --order was given, as @order_arg
 * @batch:   objects per trial
 * @trials:  measured trials
 * @warmup:  unrecorded trials run first
 * @node:    NUMA node, -1 for none
 * @gfp:     enum ab_gfp (of the request being built: the first of @gfps)
 * @gfps:    --gfp=LIST, @ngfps choices in that order (1 with one choice,
 *           0 without --gfp): one row each for strategies that take one
 * @nomerge: --nomerge
 * @write:   --write (AB_RUN_WRITE)
 * @timing:  enum ab_timing
 * @free_pattern: enum ab_free_pattern
 * @seed:    shuffle seed; @seed_set when --seed was given
 * @context: enum ab_context
 * @lookup_method: kmalloc_class: enum ab_lookup_method (default kernel);
 *           @lookup_set when --lookup was given
 * @lookup_table: kmalloc_class: enum ab_class_table_id; @table_set when
 *           --table was given
 * @align:   posix_memalign and percpu: alignment in bytes (--align), 0
 *           for the default
 * @pool_min: the mempool strategies: their reserve's elements (--pool-min),
 *           0 for the batch
 * @drop_disturbed: --drop-disturbed: samples of phases that saw a context
 *           switch or a CPU change are left out of the figures (the CLI's
 *           choice; the run itself is the same)
 * @sheaf:   the sheaves of the request being built: AB_SHEAVES_DEFAULT,
 *           0 (none) or a capacity (AB_RUN_SHEAVES, ab_run.sheaf_capacity)
 * @sheaves: --sheaves, @nsheaves settings in that order (0 without it)
 */
struct ab_run_opts {
	uint64_t size;
	int size_set;
	char size_arg[32];
	uint32_t order;
	int order_set;
	char order_arg[64];
	/* --order=LIST: one row per order for strategies that take one */
	uint32_t orders[AB_MAX_ORDERS];
	int norders;
	uint32_t batch;
	uint32_t trials;
	uint32_t warmup;
	int node;
	uint32_t gfp;
	uint32_t gfps[AB_MAX_GFPS];
	int ngfps;
	int nomerge;
	int write;
	int drop_disturbed;
	uint32_t timing;
	uint32_t free_pattern;
	uint64_t seed;
	int seed_set;
	uint32_t context;
	uint32_t lookup_method;
	int lookup_set;
	uint32_t lookup_table;
	int table_set;
	uint64_t align;
	uint32_t pool_min;
	int sheaf;
	int sheaves[AB_MAX_SHEAVES];
	int nsheaves;
	/* --condition: AB_COND_* kinds, 0 for quiet */
	uint32_t condition;
	/* --frag-order: fragmented's "no free block above" order */
	uint32_t frag_order;
	int frag_order_set;
	/* --background: a shell command run during each row's trials */
	const char *background;
};

void ab_run_opts_init(struct ab_run_opts *o);

/*
 * Option parsers: each takes the option's text, stores the value and
 * returns 0, or writes "--opt=VALUE: what is wrong (what is allowed)" to
 * @err and returns -EINVAL. Those of the enumerated options (--gfp,
 * --timing, --free, --context, --lookup, --table) are in runnames.h.
 */
int ab_opt_size(const char *arg, struct ab_run_opts *o, char *err, size_t len);
int ab_opt_order(const char *arg, struct ab_run_opts *o, char *err, size_t len);
int ab_opt_count(const char *name, const char *arg, uint32_t min, uint32_t *out,
		 char *err, size_t len);
int ab_opt_seed(const char *arg, struct ab_run_opts *o, char *err, size_t len);
int ab_opt_align(const char *arg, struct ab_run_opts *o, char *err, size_t len);
/* --frag-order: 0..AB_COND_MAX_FRAG_ORDER, marked given (frag_order_set) */
int ab_opt_frag_order(const char *arg, struct ab_run_opts *o, char *err,
		      size_t len);
int ab_opt_sheaves(const char *arg, struct ab_run_opts *o, char *err,
		   size_t len);
/* "default", "off" or the capacity of sheaf setting @v, into @buf */
const char *ab_sheaves_name(int v, char *buf, size_t len);

/*
 * ab_run_prepare - build the request for strategy @si from @o, checked
 * against the limits in @info. Order strategies without --order take the
 * smallest order that holds --size; size strategies without --size take
 * PAGE_SIZE << --order, or one page. The node goes only to strategies that
 * take one (the others count node hits against the local node). The
 * request then passes ab_run_check() (common/ab_run.h), the check the
 * backend makes. Returns 0, or -EINVAL with a one-line reason in @err.
 */
int ab_run_prepare(const struct ab_run_opts *o, const struct ab_info *info,
		   const struct ab_strategy_info *si, struct ab_run *run,
		   char *err, size_t len);

/*
 * ab_run_prepare_fp - ab_run_prepare(), and the request's memory into @fp
 * (ab_run_footprint(), computed once: the checks read it, and so do the
 * job's messages and JSON, which keep it with the row). @fp is filled
 * whatever the answer, from what the request holds when it was refused.
 */
int ab_run_prepare_fp(const struct ab_run_opts *o, const struct ab_info *info,
		      const struct ab_strategy_info *si, struct ab_run *run,
		      struct ab_footprint *fp, char *err, size_t len);

/*
 * ab_kernel_flag - 1 when @info's kernel_flags has @flag (AB_KERNEL_*), 0
 * when it has not, -1 when the backend did not say (a module older than
 * ab_info.kernel_flags, which returns a version-0 size; the user backend).
 */
int ab_kernel_flag(const struct ab_info *info, uint64_t flag);

/*
 * ab_strategy_note - the note a result holding strategy @si must carry on
 * the kernel @info describes ("name: why", no "note: " prefix) into @buf;
 * returns 1, or 0 when there is none. Today: a strategy that finds its own
 * kmalloc class (AB_PARAM_LOOKUP) on a kernel with RANDOM_KMALLOC_CACHES.
 */
int ab_strategy_note(const struct ab_info *info,
		     const struct ab_strategy_info *si, char *buf, size_t len);

#endif
