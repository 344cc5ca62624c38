// SPDX-License-Identifier: GPL-2.0-only
/* runopts.c - `allocbench run` option checks (see runopts.h). */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "ab_run.h"
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

void ab_run_opts_init(struct ab_run_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->batch = AB_DEFAULT_BATCH;
	o->trials = AB_DEFAULT_TRIALS;
	o->node = -1;
	o->gfp = AB_GFP_KERNEL;
	o->lookup_method = AB_LOOKUP_KERNEL;
}

const char *ab_gfp_name(uint32_t gfp)
{
	return gfp < AB_GFP_NR ? gfp_names[gfp].kname : "?";
}

const char *ab_gfp_option_name(uint32_t gfp)
{
	return gfp < AB_GFP_NR ? gfp_names[gfp].name : "?";
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

int ab_opt_size(const char *arg, struct ab_run_opts *o, char *err, size_t len)
{
	int ret = ab_parse_size(arg, &o->size);
	const char *what = ret == -ERANGE ? "too large"
			   : ret	  ? "not a size"
					  : "an object needs at least 1 byte";

	if (ret || !o->size) {
		snprintf(
			err, len,
			"--size=%s: %s (bytes from 1, with an optional K, M or G suffix for powers of 1024: 4096, 4K, 1M)",
			arg, what);
		return -EINVAL;
	}
	o->size_set = 1;
	snprintf(o->size_arg, sizeof(o->size_arg), "%s", arg);
	return 0;
}

int ab_opt_order(const char *arg, struct ab_run_opts *o, char *err, size_t len)
{
	uint64_t v;

	if (ab_parse_u64(arg, 0, 63, &v)) {
		snprintf(
			err, len,
			"--order=%s: not a page order (an integer from 0; 2^order pages per object)",
			arg);
		return -EINVAL;
	}
	o->order = (uint32_t)v;
	o->order_set = 1;
	return 0;
}

int ab_opt_count(const char *name, const char *arg, uint32_t min, uint32_t *out,
		 char *err, size_t len)
{
	uint64_t v;

	if (ab_parse_u64(arg, min, UINT32_MAX, &v)) {
		snprintf(err, len, "--%s=%s: must be an integer from %u to %u",
			 name, arg, min, UINT32_MAX);
		return -EINVAL;
	}
	*out = (uint32_t)v;
	return 0;
}

int ab_opt_gfp(const char *arg, struct ab_run_opts *o, char *err, size_t len)
{
	return opt_enum("gfp", "GFP choice", arg, gfp_names, AB_GFP_NR, &o->gfp,
			err, len);
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

int ab_opt_align(const char *arg, struct ab_run_opts *o, char *err, size_t len)
{
	if (ab_parse_size(arg, &o->align) || o->align < sizeof(void *) ||
	    (o->align & (o->align - 1)) || o->align > (1ULL << 30)) {
		snprintf(
			err, len,
			"--align=%s: not an alignment (a power of two from %zu to 1G bytes)",
			arg, sizeof(void *));
		return -EINVAL;
	}
	return 0;
}

int ab_opt_seed(const char *arg, struct ab_run_opts *o, char *err, size_t len)
{
	if (ab_parse_u64(arg, 0, UINT64_MAX, &o->seed)) {
		snprintf(err, len,
			 "--seed=%s: not a seed (an integer from 0 to %llu)",
			 arg, (unsigned long long)UINT64_MAX);
		return -EINVAL;
	}
	o->seed_set = 1;
	return 0;
}

int ab_kernel_flag(const struct ab_info *info, uint64_t flag)
{
	if (info->size < AB_INFO_SIZE_VER1)
		return -1;
	return !!(info->kernel_flags & flag);
}

int ab_strategy_note(const struct ab_info *info,
		     const struct ab_strategy_info *si, char *buf, size_t len)
{
	/* a strategy that finds its kmalloc class picks the cache itself */
	if ((si->params & AB_PARAM_LOOKUP) &&
	    ab_kernel_flag(info, AB_KERNEL_RANDOM_KMALLOC_CACHES) == 1) {
		snprintf(
			buf, len,
			"%s: this kernel has RANDOM_KMALLOC_CACHES: plain kmalloc() picks one of several copies of each size's cache from its caller's address, while %s allocates from kmalloc_caches[KMALLOC_NORMAL][index] (the first copy) itself: the two may time different caches",
			si->name, si->name);
		return 1;
	}
	return 0;
}

int ab_info_answer_check(struct ab_info *info, struct ab_strategy_info *si,
			 uint32_t have, char *why, size_t len)
{
	uint32_t i;

	info->version[sizeof(info->version) - 1] = '\0';
	if (!info->page_size || (info->page_size & (info->page_size - 1))) {
		snprintf(
			why, len,
			"the module's AB_IOC_INFO answer makes no sense: page size %u",
			info->page_size);
		return -EPROTO;
	}
	/* never more strategies than the caller made room for */
	if (info->nr_strategies > have)
		info->nr_strategies = have;
	for (i = 0; si && i < info->nr_strategies; i++) {
		si[i].name[sizeof(si[i].name) - 1] = '\0';
		si[i].desc[sizeof(si[i].desc) - 1] = '\0';
	}
	return 0;
}

/* One inconsistency of a run's answer into @why; -EPROTO. */
static int bad_answer(char *why, size_t len, const char *what,
		      unsigned long long got, unsigned long long most)
{
	snprintf(
		why, len,
		"the module's answer makes no sense: %s %llu, at most %llu possible; nothing of this run is used",
		what, got, most);
	return -EPROTO;
}

int ab_run_answer_check(const struct ab_run *req, struct ab_run *ans, int err,
			char *why, size_t len)
{
	const size_t out = offsetof(struct ab_run, trials_done);
	struct ab_run got = *ans;

	/* the request stays the caller's own, whatever came back */
	*ans = *req;
	if (err && err != -EINTR) {
		memset((char *)ans + out, 0, sizeof(*ans) - out);
		/* a refusal's limit, the one field written then */
		if (err != -E2BIG && err != -EBUSY)
			return err;
		if (got.limit >= AB_LIMIT_NR ||
		    (err == -EBUSY && got.limit != AB_LIMIT_NONE &&
		     got.limit != AB_LIMIT_BUDGET &&
		     got.limit != AB_LIMIT_ATOMIC))
			return bad_answer(why, len,
					  err == -EBUSY ? "limit of an EBUSY"
							: "limit of an E2BIG",
					  got.limit,
					  err == -EBUSY ? AB_LIMIT_ATOMIC
							: AB_LIMIT_NR - 1);
		ans->limit = got.limit;
		/* and with an EBUSY, what the other runs held under it */
		if (err == -EBUSY)
			ans->limit_others = got.limit_others;
		return err;
	}
	if (got.limit != AB_LIMIT_NONE)
		err = bad_answer(why, len, "limit of a run done", got.limit,
				 AB_LIMIT_NONE);
	else if (got.limit_others)
		err = bad_answer(why, len,
				 "bytes of other runs named by a run done",
				 got.limit_others, 0);
	else if (got.trials_done > req->trials)
		err = bad_answer(why, len, "trials done", got.trials_done,
				 req->trials);
	else if (!err && got.trials_done != req->trials)
		err = bad_answer(
			why, len,
			"trials done by a finished run (fewer than asked)",
			got.trials_done, req->trials);
	else if (got.objects > (uint64_t)got.trials_done * req->batch)
		err = bad_answer(why, len, "objects", got.objects,
				 (uint64_t)got.trials_done * req->batch);
	else if (got.failed > got.trials_done)
		err = bad_answer(why, len, "failed allocations", got.failed,
				 got.trials_done);
	/* check trials: one, then one per 16 measured (common/ab_trial.h) */
	else if (got.node_checked >
		 ((uint64_t)got.trials_done / 16 + 1) * req->batch)
		err = bad_answer(why, len, "objects checked for their node",
				 got.node_checked,
				 ((uint64_t)got.trials_done / 16 + 1) *
					 req->batch);
	else if (got.node_hits > got.node_checked)
		err = bad_answer(why, len, "node hits", got.node_hits,
				 got.node_checked);
	else if (got.disturbed > got.trials_done)
		err = bad_answer(why, len, "disturbed trials", got.disturbed,
				 got.trials_done);
	else if (got.migrations > 2ULL * got.trials_done)
		err = bad_answer(why, len, "phases that changed CPU",
				 got.migrations, 2ULL * got.trials_done);
	else if (got.free_elsewhere > got.trials_done)
		err = bad_answer(why, len, "free phases off free_cpu",
				 got.free_elsewhere, got.trials_done);
	/* the memory reads are those of the check trials */
	else if (got.mem_trials > (uint64_t)got.trials_done / 16 + 1)
		err = bad_answer(why, len, "trials of the memory reads",
				 got.mem_trials,
				 (uint64_t)got.trials_done / 16 + 1);
	else if (got.mem_objects > (uint64_t)got.mem_trials * req->batch)
		err = bad_answer(why, len, "objects of the memory reads",
				 got.mem_objects,
				 (uint64_t)got.mem_trials * req->batch);
	else if (got.mem_trials && got.mem_free_min > got.mem_free_max) {
		snprintf(
			why, len,
			"the module's answer makes no sense: the least free memory one check trial took, %lld bytes, above the most, %lld; nothing of this run is used",
			(long long)got.mem_free_min,
			(long long)got.mem_free_max);
		err = -EPROTO;
	} else if (strnlen(got.cache_name, sizeof(got.cache_name)) ==
		   sizeof(got.cache_name))
		err = bad_answer(why, len, "cache name length",
				 sizeof(got.cache_name),
				 sizeof(got.cache_name) - 1);
	/* a bad answer is not used at all: its outputs stay zero */
	if (err != -EPROTO)
		memcpy((char *)ans + out, (const char *)&got + out,
		       sizeof(*ans) - out);
	else
		memset((char *)ans + out, 0, sizeof(*ans) - out);
	return err;
}

int ab_lookup_answer_check(const struct ab_lookup *req, struct ab_lookup *ans,
			   int err, char *why, size_t len)
{
	const size_t out = offsetof(struct ab_lookup, checksum);
	struct ab_lookup got = *ans;

	*ans = *req;
	if (err && err != -EINTR) {
		memset((char *)ans + out, 0, sizeof(*ans) - out);
		return err;
	}
	if (got.trials_done > req->trials)
		err = bad_answer(why, len, "lookup passes done",
				 got.trials_done, req->trials);
	else if (!err && got.trials_done != req->trials)
		err = bad_answer(
			why, len,
			"lookup passes done by a finished run (fewer than asked)",
			got.trials_done, req->trials);
	if (err != -EPROTO)
		memcpy((char *)ans + out, (const char *)&got + out,
		       sizeof(*ans) - out);
	else
		memset((char *)ans + out, 0, sizeof(*ans) - out);
	return err;
}

/* Smallest order whose block holds @size bytes. */
static uint32_t order_for(uint64_t size, uint32_t page_size)
{
	uint32_t order = 0;

	while (((uint64_t)page_size << order) < size && order < 63)
		order++;
	return order;
}

/*
 * An allocation @run's strategy can never make with its GFP choice
 * (ab_obj_not_applicable()): 1 after the reason in @err, else 0.
 */
static int not_applicable(const struct ab_run_opts *o,
			  const struct ab_info *info,
			  const struct ab_strategy_info *si,
			  const struct ab_run *run, char *err, size_t len)
{
	uint64_t bytes = ab_run_alloc_bytes(run, info, si);
	char b[32], m[32];

	if (!ab_obj_not_applicable(si->flags, bytes, run->gfp,
				   info->kmalloc_max_size))
		return 0;
	ab_format_size(bytes, b, sizeof(b));
	ab_format_size(info->kmalloc_max_size, m, sizeof(m));
	/* AB_ERRLEN (256) bytes: the value, why, and what works */
	snprintf(
		err, len,
		"--gfp=%s: not applicable to %s --size=%s: without GFP_KERNEL there is no vmalloc fallback (mm/util.c), and %s is above the largest kmalloc, %s (KMALLOC_MAX_SIZE); use --gfp=kernel or --size=%s or less",
		gfp_names[run->gfp].name, si->name, b, b, m, m);
	return 1;
}

static int limits_module = 1;

void ab_limits_owner(int module)
{
	limits_module = module;
}

const char *ab_limits_whose(void)
{
	return limits_module ? "the module's" : "the user backend's";
}

const char *ab_budget_source(void)
{
	return limits_module ? "module parameter max_outstanding_mb"
			     : "a quarter of this machine's memory";
}

/*
 * The memory @run holds at once, counted as its allocator uses it
 * (ab_run_held_bytes(), common/ab_footprint.h: the rule the module
 * enforces), against the module's budget; 0, or -EINVAL with the
 * budget, the request and max_outstanding_mb named in @err.
 */
static int check_budget(const struct ab_run_opts *o, const struct ab_info *info,
			const struct ab_strategy_info *si,
			const struct ab_run *run, char *err, size_t len)
{
	uint64_t held = ab_run_budget_bytes(run, info, si);
	uint64_t size = ab_run_alloc_bytes(run, info, si);
	uint64_t each =
		ab_obj_footprint(si->flags, size, run->gfp, info->page_size,
				 info->kmalloc_max_size);

	if (held <= info->max_bytes)
		return 0;
	/* AB_ERRLEN (256) bytes: the request, the budget, its parameter */
	snprintf(
		err, len,
		"--batch=%u: %s would hold %llu bytes at once (%u x %llu bytes, %llu each as %s, and arrays), above the %llu-byte budget (%s); lower --batch or --size",
		o->batch, si->name, (unsigned long long)held,
		ab_run_objs_held(run, si), (unsigned long long)size,
		(unsigned long long)each, ab_mem_rule(si->flags),
		(unsigned long long)info->max_bytes, ab_budget_source());
	return -EINVAL;
}

/*
 * The budget, then the limits of the uapi header a phase or a trial must
 * keep whatever the budget (AB_PHASE_MAX_BYTES, AB_ATOMIC_MAX_BYTES,
 * AB_IRQ_OFF_MAX_*), each refused in one line naming the value and the
 * limit; 0 or -EINVAL.
 */
static int check_limits(const struct ab_run_opts *o, const struct ab_info *info,
			const struct ab_strategy_info *si,
			const struct ab_run *run, char *err, size_t len)
{
	unsigned long long held = ab_run_held_bytes(run, info, si);
	uint32_t objs = ab_run_objs_held(run, si);
	int ret = check_budget(o, info, si, run, err, len);

	if (ret)
		return ret;
	/* AB_ERRLEN (256) bytes: the request, the limit, why */
	if (held > AB_PHASE_MAX_BYTES) {
		snprintf(
			err, len,
			"--batch=%u: %s would allocate %llu bytes in one phase, above the limit of %llu (AB_PHASE_MAX_BYTES: a phase is not rescheduled); lower --batch or --size",
			o->batch, si->name, held, AB_PHASE_MAX_BYTES);
		return -EINVAL;
	}
	if (ab_run_no_reclaim(run, si->params) && held > AB_ATOMIC_MAX_BYTES) {
		snprintf(
			err, len,
			"--batch=%u: %s would hold %llu bytes in a trial, above the limit of %llu for --gfp=%s or --context=%s (AB_ATOMIC_MAX_BYTES: no reclaim)",
			o->batch, si->name, held, AB_ATOMIC_MAX_BYTES,
			gfp_names[run->gfp].name,
			ab_context_name(run->context));
		return -EINVAL;
	}
	/* (an API that enables IRQs itself is refused for that, below) */
	if (run->context == AB_CTX_IRQ_OFF &&
	    !(si->flags & AB_STRATEGY_IRQS_ON) &&
	    (objs > AB_IRQ_OFF_MAX_OBJS || held > AB_IRQ_OFF_MAX_BYTES)) {
		snprintf(
			err, len,
			"--batch=%u: %s would take %u objects, %llu bytes, with IRQs off in one phase, above the limit of %u objects and %llu bytes (AB_IRQ_OFF_MAX_*)",
			o->batch, si->name, objs, held, AB_IRQ_OFF_MAX_OBJS,
			AB_IRQ_OFF_MAX_BYTES);
		return -EINVAL;
	}
	return 0;
}

static int prepare(const struct ab_run_opts *o, const struct ab_info *info,
		   const struct ab_strategy_info *si, struct ab_run *run,
		   char *err, size_t len)
{
	uint64_t obj_bytes = 0;
	char b[32];

	memset(run, 0, sizeof(*run));
	run->size = sizeof(*run);
	run->strategy = si->id;
	run->batch = o->batch;
	run->trials = o->trials;
	run->warmup = o->warmup;
	run->gfp = o->gfp;
	run->node = -1;
	run->timing = o->timing;
	run->free_pattern = o->free_pattern;
	run->context = o->context;
	if (o->free_pattern == AB_FREE_SHUFFLE)
		run->seed = o->seed;
	if (o->write)
		run->flags |= AB_RUN_WRITE;

	if (o->seed_set && o->free_pattern != AB_FREE_SHUFFLE) {
		snprintf(err, len, "--seed: only --free=shuffle uses a seed");
		return -EINVAL;
	}

	if (o->batch > info->max_batch) {
		snprintf(err, len,
			 "--batch=%u: above %s limit of %llu objects per trial",
			 o->batch, ab_limits_whose(),
			 (unsigned long long)info->max_batch);
		return -EINVAL;
	}
	if (o->trials > info->max_trials || o->warmup > info->max_trials) {
		snprintf(err, len, "--%s=%u: above %s limit of %llu trials",
			 o->trials > info->max_trials ? "trials" : "warmup",
			 o->trials > info->max_trials ? o->trials : o->warmup,
			 ab_limits_whose(),
			 (unsigned long long)info->max_trials);
		return -EINVAL;
	}
	/* "none" allocates nothing: GFP and cache choices do not apply */
	if (!(si->params & (AB_PARAM_SIZE | AB_PARAM_ORDER))) {
		run->gfp = AB_GFP_KERNEL;
		return 0;
	}
	if (o->gfp != AB_GFP_KERNEL && !(si->params & AB_PARAM_GFP)) {
		snprintf(
			err, len,
			"--gfp=%s: %s takes no GFP flags (it always allocates with GFP_KERNEL)",
			ab_gfp_name(o->gfp), si->name);
		return -EINVAL;
	}
	if (o->nomerge && !(si->params & AB_PARAM_CACHE)) {
		snprintf(
			err, len,
			"--nomerge: %s has no kmem_cache of its own (only the kmem_cache strategies do)",
			si->name);
		return -EINVAL;
	}
	if (si->params & AB_PARAM_NODE)
		run->node = o->node;
	/* like --node, --align goes to the strategies that take one */
	if (si->params & AB_PARAM_ALIGN)
		run->align = o->align;
	if (si->params & AB_PARAM_LOOKUP) {
		run->lookup_method = o->lookup_method;
		run->lookup_table = o->lookup_table;
	} else if (o->lookup_set || o->table_set) {
		snprintf(
			err, len,
			"--%s: %s finds no size class; only kmalloc_class takes --lookup and --table",
			o->lookup_set ? "lookup" : "table", si->name);
		return -EINVAL;
	}
	if (o->nomerge)
		run->flags |= AB_RUN_NOMERGE;

	if (si->params & AB_PARAM_ORDER) {
		run->order = o->order_set  ? o->order
			     : o->size_set ? order_for(o->size, info->page_size)
					   : 0;
		if (run->order > si->max_order) {
			if (o->order_set)
				snprintf(
					err, len,
					"--order=%u: above %s's largest order, %u",
					run->order, si->name, si->max_order);
			else
				snprintf(
					err, len,
					"--size=%s: needs order %u, above %s's largest order, %u",
					o->size_arg, run->order, si->name,
					si->max_order);
			return -EINVAL;
		}
		obj_bytes = (uint64_t)info->page_size << run->order;
	} else if (si->params & AB_PARAM_SIZE) {
		/* PAGE_SIZE << order must fit in 64 bits */
		if (!o->size_set && o->order_set &&
		    o->order >= 64 - (uint32_t)__builtin_ctz(info->page_size))
			run->obj_size = UINT64_MAX;
		else
			run->obj_size =
				o->size_set
					? o->size
					: (uint64_t)info->page_size
						  << (o->order_set ? o->order
								   : 0);
		if (run->obj_size > si->max_size) {
			/* near the budget: the backend derived it from the
			 * budget */
			char why[128] = "";

			if (si->max_size > info->max_bytes / 2)
				snprintf(why, sizeof(why),
					 " (%s memory budget, %s, bounds it)",
					 ab_limits_whose(), ab_budget_source());

			ab_format_size(si->max_size, b, sizeof(b));
			if (o->size_set)
				snprintf(
					err, len,
					"--size=%s: above %s's largest object, %s (%llu bytes)%s",
					o->size_arg, si->name, b,
					(unsigned long long)si->max_size, why);
			else
				snprintf(
					err, len,
					"--order=%u: 2^%u pages are above %s's largest object, %s (%llu bytes)%s",
					o->order, o->order, si->name, b,
					(unsigned long long)si->max_size, why);
			return -EINVAL;
		}
		obj_bytes = run->obj_size;
	}
	if (obj_bytes && not_applicable(o, info, si, run, err, len))
		return -EINVAL;
	if (o->context != AB_CTX_NORMAL &&
	    (si->params & (AB_PARAM_SIZE | AB_PARAM_ORDER))) {
		if (ab_kernel_flag(info, AB_KERNEL_PREEMPT_RT) == 1) {
			snprintf(
				err, len,
				"--context=%s: this kernel is PREEMPT_RT, where spinlocks sleep, so %s may sleep with any --gfp and cannot run with preemption or IRQs off; --context=normal (the default) works here, --context=%s on a kernel without PREEMPT_RT",
				ab_context_name(o->context), si->name,
				ab_context_name(o->context));
			return -EINVAL;
		}
		if (!(si->params & AB_PARAM_GFP)) {
			snprintf(
				err, len,
				"--context=%s: %s may sleep; with preemption or IRQs off only strategies that take --gfp=atomic or --gfp=nowait can run",
				ab_context_name(o->context), si->name);
			return -EINVAL;
		}
		if (o->gfp != AB_GFP_ATOMIC && o->gfp != AB_GFP_NOWAIT) {
			snprintf(
				err, len,
				"--context=%s: %s may sleep; use --gfp=atomic or --gfp=nowait",
				ab_context_name(o->context),
				ab_gfp_name(o->gfp));
			return -EINVAL;
		}
	}
	if (obj_bytes)
		return check_limits(o, info, si, run, err, len);
	return 0;
}

int ab_run_prepare(const struct ab_run_opts *o, const struct ab_info *info,
		   const struct ab_strategy_info *si, struct ab_run *run,
		   char *err, size_t len)
{
	const char *why;
	int ret = prepare(o, info, si, run, err, len);

	/* the ABI's own check, as the backend will make it */
	if (!ret && ab_run_check(run, info, si, &why)) {
		snprintf(err, len, "%s: the request has %s (`allocbench info`)",
			 si->name, why);
		ret = -EINVAL;
	}
	return ret;
}
