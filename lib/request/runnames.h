/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * runnames.h - the spellings of `allocbench run`'s enumerated options
 * (lib/runnames.c): each enum value's word for the option, the kernel's
 * name for it (accepted too), and the options' parsers. runopts.h
 * includes this header and defines struct ab_run_opts.
 */
#ifndef AB_RUNNAMES_H
#define AB_RUNNAMES_H

#include <stddef.h>
#include <stdint.h>

struct ab_run_opts;

/*
 * Parsers of the enumerated options, as runopts.h's others: each looks
 * @arg up (case-insensitive, the option's word or the kernel's name),
 * stores its value in @o and returns 0, or writes "--opt=ARG: unknown
 * WHAT (allowed: ...)" to @err and returns -EINVAL. --lookup and --table
 * also mark themselves given (lookup_set, table_set).
 */
int ab_opt_gfp(const char *arg, struct ab_run_opts *o, char *err, size_t len);
int ab_opt_timing(const char *arg, struct ab_run_opts *o, char *err,
		  size_t len);
int ab_opt_free(const char *arg, struct ab_run_opts *o, char *err, size_t len);
int ab_opt_context(const char *arg, struct ab_run_opts *o, char *err,
		   size_t len);
int ab_opt_lookup(const char *arg, struct ab_run_opts *o, char *err,
		  size_t len);
int ab_opt_table(const char *arg, struct ab_run_opts *o, char *err, size_t len);

/*
 * ab_opt_methods - a comma-separated list of lookup methods into
 * @methods (at most AB_LOOKUP_NR); returns how many, or -EINVAL with
 * "--method=...: why" in @err.
 */
int ab_opt_methods(const char *arg, uint32_t *methods, char *err, size_t len);

/*
 * ab_opt_condition - --condition: "quiet", or AB_COND_* kinds by name
 * joined with '+' ("fragmented+pressure"), each at most once, into
 * o->condition; 0 or -EINVAL with the one-line message in @err.
 */
int ab_opt_condition(const char *arg, struct ab_run_opts *o, char *err,
		     size_t len);
/* ab_condition_name - AB_COND_* @kinds as --condition spells them, in @buf */
const char *ab_condition_name(uint32_t kinds, char *buf, size_t len);

/* ab_gfp_name - "GFP_KERNEL" etc. for enum ab_gfp, "?" if out of range. */
const char *ab_gfp_name(uint32_t gfp);
/* ab_gfp_option_name - --gfp's spelling ("kernel"), "?" if out of range. */
const char *ab_gfp_option_name(uint32_t gfp);

struct ab_strategy_info;
/*
 * ab_strategy_gfp_name - the GFP flags strategy @si allocates with under
 * the GFP choice @gfp (enum ab_gfp), as ab_gfp_name() names them, or NULL
 * where GFP flags do not apply: a strategy of a backend other than the
 * module (@module 0: userspace allocators take none), the baseline (it
 * allocates nothing), or one that takes no GFP flags and allocates in any
 * context (AB_STRATEGY_ANY_CONTEXT: kmalloc_nolock()). One that takes none
 * otherwise allocates with GFP_KERNEL (vmalloc). The one rule every
 * output follows: text, JSON (null), CSV (empty) and export keys.
 */
const char *ab_strategy_gfp_name(const struct ab_strategy_info *si,
				 uint32_t gfp, int module);
/*
 * The option spellings of enum ab_timing, ab_free_pattern, ab_context,
 * ab_lookup_method and ab_class_table_id; "?" if out of range.
 */
const char *ab_timing_name(uint32_t timing);
const char *ab_free_name(uint32_t pattern);
const char *ab_context_name(uint32_t context);
const char *ab_lookup_name(uint32_t method);
const char *ab_table_name(uint32_t table);

/*
 * ab_context_warning - the one line explaining how a loop context distorts
 * the numbers, or NULL for the normal context.
 */
const char *ab_context_warning(uint32_t context);

#endif
