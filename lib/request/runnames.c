// SPDX-License-Identifier: GPL-2.0-only
/*
 * runnames.c - the spellings of `allocbench run`'s enumerated options
 * (see runnames.h): one table per enum, indexed by its value, holding the
 * option's word and the kernel's own name (both accepted), and the
 * parsers of those options.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "parse.h"
#include "runopts.h"

/** struct ab_name - one spelling of an enumerated option */
struct ab_name {
	const char *name;  /* what the option takes */
	const char *kname; /* the kernel's spelling, also accepted */
};

static const struct ab_name gfp_names[AB_GFP_NR] = {
	[AB_GFP_KERNEL] = { "kernel", "GFP_KERNEL" },
	[AB_GFP_ATOMIC] = { "atomic", "GFP_ATOMIC" },
	[AB_GFP_NOWAIT] = { "nowait", "GFP_NOWAIT" },
	[AB_GFP_KERNEL_ZERO] = { "kernel_zero", "GFP_KERNEL|__GFP_ZERO" },
	[AB_GFP_NORETRY] = { "noretry", "GFP_KERNEL|__GFP_NORETRY" },
	[AB_GFP_RETRY_MAYFAIL] = { "retry_mayfail",
				   "GFP_KERNEL|__GFP_RETRY_MAYFAIL" },
	[AB_GFP_THP] = { "thp", "GFP_TRANSHUGE" },
	[AB_GFP_NORECLAIM] = { "noreclaim", "GFP_KERNEL&~__GFP_RECLAIM" },
	[AB_GFP_KERNEL_ACCOUNT] = { "kernel_account", "GFP_KERNEL_ACCOUNT" },
};

static const struct ab_name timing_names[AB_TIMING_NR] = {
	[AB_TIMING_BATCH] = { "batch", "batch" },
	[AB_TIMING_SINGLE] = { "single", "single-op" },
};

static const struct ab_name free_names[AB_FREE_NR] = {
	[AB_FREE_FIFO] = { "fifo", "fifo" },
	[AB_FREE_LIFO] = { "lifo", "reverse" },
	[AB_FREE_SHUFFLE] = { "shuffle", "shuffled" },
	[AB_FREE_PAIR] = { "pair", "pair" },
};

static const struct ab_name context_names[AB_CTX_NR] = {
	[AB_CTX_NORMAL] = { "normal", "normal" },
	[AB_CTX_PREEMPT_OFF] = { "preempt-off", "preempt_off" },
	[AB_CTX_IRQ_OFF] = { "irq-off", "irq_off" },
};

static const struct ab_name lookup_names[AB_LOOKUP_NR] = {
	[AB_LOOKUP_NONE] = { "none", "none" },
	[AB_LOOKUP_WALK] = { "walk", "walk" },
	[AB_LOOKUP_FLS] = { "fls", "generic_fls" },
	[AB_LOOKUP_BSR] = { "bsr", "bsrl" },
	[AB_LOOKUP_SWITCH] = { "switch", "switch" },
	[AB_LOOKUP_KERNEL] = { "kernel", "kmalloc_index" },
};

static const struct ab_name table_names[AB_TABLE_NR] = {
	[AB_TABLE_KMALLOC] = { "kmalloc", "6.x" },
	[AB_TABLE_2002] = { "2002", "cache_sizes" },
};

/*
 * Looks @arg up in @names; on failure writes "--OPT=ARG: unknown WHAT
 * (allowed: ...)" to @err and returns -EINVAL.
 */
static int opt_enum(const char *opt, const char *what, const char *arg,
		    const struct ab_name *names, uint32_t n, uint32_t *out,
		    char *err, size_t len)
{
	size_t used;
	uint32_t i;

	for (i = 0; i < n; i++) {
		if (!strcasecmp(arg, names[i].name) ||
		    !strcasecmp(arg, names[i].kname)) {
			*out = i;
			return 0;
		}
	}
	used = (size_t)snprintf(err, len, "--%s=%s: unknown %s (allowed:", opt,
				arg, what);
	for (i = 0; i < n && used < len; i++)
		used += (size_t)snprintf(err + used, len - used, "%s %s",
					 i ? "," : "", names[i].name);
	if (used < len)
		snprintf(err + used, len - used, ")");
	return -EINVAL;
}

const char *ab_gfp_name(uint32_t gfp)
{
	return gfp < AB_GFP_NR ? gfp_names[gfp].kname : "?";
}

const char *ab_gfp_option_name(uint32_t gfp)
{
	return gfp < AB_GFP_NR ? gfp_names[gfp].name : "?";
}

const char *ab_strategy_gfp_name(const struct ab_strategy_info *si,
				 uint32_t gfp, int module)
{
	if (!module || !(si->params & (AB_PARAM_SIZE | AB_PARAM_ORDER)))
		return NULL;
	if (!(si->params & AB_PARAM_GFP))
		return si->flags & AB_STRATEGY_ANY_CONTEXT ? NULL
							   : "GFP_KERNEL";
	return ab_gfp_name(gfp);
}

const char *ab_timing_name(uint32_t timing)
{
	return timing < AB_TIMING_NR ? timing_names[timing].name : "?";
}

const char *ab_free_name(uint32_t pattern)
{
	return pattern < AB_FREE_NR ? free_names[pattern].name : "?";
}

const char *ab_context_name(uint32_t context)
{
	return context < AB_CTX_NR ? context_names[context].name : "?";
}

const char *ab_lookup_name(uint32_t method)
{
	return method < AB_LOOKUP_NR ? lookup_names[method].name : "?";
}

const char *ab_table_name(uint32_t table)
{
	return table < AB_TABLE_NR ? table_names[table].name : "?";
}

const char *ab_context_warning(uint32_t context)
{
	switch (context) {
	case AB_CTX_PREEMPT_OFF:
		return "preemption is disabled around each timed phase: the allocators' own preempt_disable() becomes a cheap nested one and nothing can preempt the loop, so costs come out lower than in ordinary process context";
	case AB_CTX_IRQ_OFF:
		return "IRQs are disabled around each timed phase: the allocators' local_irq_save() paths get cheaper and timer and IPI work waits until the phase ends, so costs come out lower and latency outliers vanish";
	default:
		return NULL;
	}
}

int ab_opt_gfp(const char *arg, struct ab_run_opts *o, char *err, size_t len)
{
	char copy[256], *names[AB_MAX_GFPS];
	int i, k, n;

	snprintf(copy, sizeof(copy), "%s", arg);
	n = strlen(arg) < sizeof(copy) ? ab_split_list(copy, names, AB_MAX_GFPS)
				       : -E2BIG;
	for (i = 0; i < n; i++) {
		if (opt_enum("gfp", "GFP choice", names[i], gfp_names,
			     AB_GFP_NR, &o->gfps[i], err, len))
			return -EINVAL;
		/* two rows of one choice would share a label */
		for (k = 0; k < i; k++)
			if (o->gfps[k] == o->gfps[i])
				n = -EEXIST;
	}
	if (n < 0) {
		snprintf(
			err, len,
			"--gfp=%s: %s (a comma-separated list of at most %d GFP choices, a row each: `allocbench list --values=gfp`)",
			arg,
			n == -E2BIG    ? "too many choices"
			: n == -EEXIST ? "a choice given twice"
				       : "an empty choice",
			AB_MAX_GFPS);
		return -EINVAL;
	}
	o->ngfps = n;
	o->gfp = o->gfps[0];
	return 0;
}

int ab_opt_timing(const char *arg, struct ab_run_opts *o, char *err, size_t len)
{
	return opt_enum("timing", "timing mode", arg, timing_names,
			AB_TIMING_NR, &o->timing, err, len);
}

int ab_opt_free(const char *arg, struct ab_run_opts *o, char *err, size_t len)
{
	return opt_enum("free", "free pattern", arg, free_names, AB_FREE_NR,
			&o->free_pattern, err, len);
}

int ab_opt_context(const char *arg, struct ab_run_opts *o, char *err,
		   size_t len)
{
	return opt_enum("context", "loop context", arg, context_names,
			AB_CTX_NR, &o->context, err, len);
}

int ab_opt_lookup(const char *arg, struct ab_run_opts *o, char *err, size_t len)
{
	o->lookup_set = 1;
	return opt_enum("lookup", "lookup method", arg, lookup_names,
			AB_LOOKUP_NR, &o->lookup_method, err, len);
}

int ab_opt_table(const char *arg, struct ab_run_opts *o, char *err, size_t len)
{
	o->table_set = 1;
	return opt_enum("table", "class table", arg, table_names, AB_TABLE_NR,
			&o->lookup_table, err, len);
}

int ab_opt_methods(const char *arg, uint32_t *methods, char *err, size_t len)
{
	char buf[128], *items[AB_LOOKUP_NR];
	int i, n;

	snprintf(buf, sizeof(buf), "%s", arg);
	n = ab_split_list(buf, items, AB_LOOKUP_NR);
	if (n < 0) {
		snprintf(
			err, len,
			"--method=%s: %s (a comma-separated list of: walk, fls, bsr, switch, kernel)",
			arg, n == -E2BIG ? "too many methods" : "empty name");
		return -EINVAL;
	}
	for (i = 0; i < n; i++)
		if (opt_enum("method", "lookup method", items[i], lookup_names,
			     AB_LOOKUP_NR, &methods[i], err, len))
			return -EINVAL;
	return n;
}

/* --condition's kinds, indexed by bit (AB_COND_*: 1 << index) */
static const struct ab_name cond_names[] = {
	{ "fragmented", "AB_COND_FRAGMENTED" },
	{ "pressure", "AB_COND_PRESSURE" },
	{ "vmap-fragmented", "AB_COND_VMAP_FRAGMENTED" },
};

#define AB_NR_COND (sizeof(cond_names) / sizeof(cond_names[0]))

int ab_opt_condition(const char *arg, struct ab_run_opts *o, char *err,
		     size_t len)
{
	char buf[128], *p, *save = NULL;
	uint32_t kinds = 0, i;

	if (!strcasecmp(arg, "quiet")) {
		o->condition = 0;
		return 0;
	}
	if (strlen(arg) >= sizeof(buf))
		goto bad;
	snprintf(buf, sizeof(buf), "%s", arg);
	for (p = strtok_r(buf, "+", &save); p; p = strtok_r(NULL, "+", &save)) {
		for (i = 0; i < AB_NR_COND; i++)
			if (!strcasecmp(p, cond_names[i].name) ||
			    !strcasecmp(p, cond_names[i].kname))
				break;
		if (i == AB_NR_COND || (kinds & (1U << i)))
			goto bad;
		kinds |= 1U << i;
	}
	/* "a+" or "+a" or "a++b": strtok_r skips the empty names */
	if (!kinds || arg[0] == '+' || arg[strlen(arg) - 1] == '+' ||
	    strstr(arg, "++"))
		goto bad;
	o->condition = kinds;
	return 0;
bad:
	snprintf(
		err, len,
		"--condition=%s: not a memory condition (allowed: quiet, or fragmented, pressure, vmap-fragmented, each at most once, joined with +)",
		arg);
	return -EINVAL;
}

const char *ab_condition_name(uint32_t kinds, char *buf, size_t len)
{
	size_t used = 0;
	uint32_t i;

	buf[0] = '\0';
	if (!kinds)
		snprintf(buf, len, "quiet");
	for (i = 0; i < AB_NR_COND && used < len; i++)
		if (kinds & (1U << i))
			used += (size_t)snprintf(buf + used, len - used, "%s%s",
						 used ? "+" : "",
						 cond_names[i].name);
	return buf;
}
