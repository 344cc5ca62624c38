// SPDX-License-Identifier: GPL-2.0-only
/*
 * runopts.c - `allocbench run` requests (see runopts.h): the numeric
 * options, and the checks that turn the options into a struct ab_run the
 * module will take. The enumerated options' spellings are in
 * lib/runnames.c, the checks of the module's answers in lib/runanswer.c.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "ab_nodes.h"
#include "ab_run.h"
#include "parse.h"
#include "runlimits.h"
#include "runopts.h"

void ab_run_opts_init(struct ab_run_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->batch = AB_DEFAULT_BATCH;
	o->trials = AB_DEFAULT_TRIALS;
	o->node = -1;
	o->gfp = AB_GFP_KERNEL;
	o->lookup_method = AB_LOOKUP_KERNEL;
	o->sheaf = AB_SHEAVES_DEFAULT;
	o->frag_order = 2;
}

const char *ab_sheaves_name(int v, char *buf, size_t len)
{
	if (v == AB_SHEAVES_DEFAULT)
		snprintf(buf, len, "default");
	else if (!v)
		snprintf(buf, len, "off");
	else
		snprintf(buf, len, "%d", v);
	return buf;
}

int ab_opt_sheaves(const char *arg, struct ab_run_opts *o, char *err,
		   size_t len)
{
	char copy[256], *names[AB_MAX_SHEAVES];
	uint64_t v;
	int i, k, n;

	snprintf(copy, sizeof(copy), "%s", arg);
	n = strlen(arg) < sizeof(copy)
		    ? ab_split_list(copy, names, AB_MAX_SHEAVES)
		    : -E2BIG;
	for (i = 0; i < n; i++) {
		if (!strcmp(names[i], "default")) {
			o->sheaves[i] = AB_SHEAVES_DEFAULT;
		} else if (!strcmp(names[i], "off")) {
			o->sheaves[i] = 0;
		} else if (!ab_parse_u64(names[i], 1, AB_SHEAF_MAX, &v)) {
			o->sheaves[i] = (int)v;
		} else {
			n = -ERANGE;
			break;
		}
		/* two rows of one setting would share a label */
		for (k = 0; k < i; k++)
			if (o->sheaves[k] == o->sheaves[i])
				n = -EEXIST;
		if (n < 0)
			break;
	}
	if (n < 0) {
		snprintf(
			err, len,
			"--sheaves=%s: %s (a comma-separated list of at most %d settings of the private kmem_cache's per-CPU sheaves: default, the kernel's own; off, none; or N, sheaves of N objects, 1 to %d)",
			arg,
			n == -E2BIG    ? "too many settings"
			: n == -EEXIST ? "a setting given twice"
			: n == -ERANGE
				? "a setting that is not default, off or a capacity"
				: "an empty setting",
			AB_MAX_SHEAVES, AB_SHEAF_MAX);
		return -EINVAL;
	}
	o->nsheaves = n;
	return 0;
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
	char buf[256], *items[AB_MAX_ORDERS], *dash;
	uint64_t v, hi;
	int i, n, k = 0;

	snprintf(buf, sizeof(buf), "%s", arg);
	n = strlen(arg) < sizeof(buf) ? ab_split_list(buf, items, AB_MAX_ORDERS)
				      : -E2BIG;
	for (i = 0; n >= 0 && i < n; i++) {
		/* N, or a range A-B of whole orders (sweep --orders=0-10) */
		dash = strchr(items[i], '-');
		if (dash)
			*dash = '\0';
		if (ab_parse_u64(items[i], 0, 63, &v) ||
		    (dash && (ab_parse_u64(dash + 1, 0, 63, &hi) || hi < v))) {
			if (dash)
				*dash = '-';
			snprintf(
				err, len,
				"--order=%s: not a page order (an integer from 0 to 63, 2^order pages per object, or a range A-B with A <= B)",
				items[i]);
			return -EINVAL;
		}
		if (!dash)
			hi = v;
		for (; v <= hi && k < AB_MAX_ORDERS; v++)
			o->orders[k++] = (uint32_t)v;
		if (v <= hi)
			n = -E2BIG;
	}
	if (n < 0) {
		snprintf(
			err, len,
			"--order=%s: %s (a comma-separated list of at most %d page orders, or ranges A-B of them)",
			arg, n == -E2BIG ? "too many orders" : "empty order",
			AB_MAX_ORDERS);
		return -EINVAL;
	}
	o->norders = k;
	o->order = o->orders[0];
	o->order_set = 1;
	snprintf(o->order_arg, sizeof(o->order_arg), "%s", arg);
	return 0;
}

int ab_opt_frag_order(const char *arg, struct ab_run_opts *o, char *err,
		      size_t len)
{
	uint64_t v;

	o->frag_order_set = 1;
	if (ab_parse_u64(arg, 0, AB_COND_MAX_FRAG_ORDER, &v)) {
		snprintf(err, len,
			 "--frag-order=%s: must be an integer from 0 to %u",
			 arg, AB_COND_MAX_FRAG_ORDER);
		return -EINVAL;
	}
	o->frag_order = (uint32_t)v;
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
 * (@fp->never): 1 after the reason in @err, else 0.
 */
static int not_applicable(const struct ab_footprint *fp,
			  const struct ab_info *info,
			  const struct ab_strategy_info *si,
			  const struct ab_run *run, char *err, size_t len)
{
	uint64_t bytes = fp->alloc_bytes;
	char b[32], m[32];

	if (!fp->never)
		return 0;
	ab_format_size(bytes, b, sizeof(b));
	ab_format_size(info->kmalloc_max_size, m, sizeof(m));
	/* AB_ERRLEN (256) bytes: the value, why, and what works */
	snprintf(
		err, len,
		"--gfp=%s: not applicable to %s --size=%s: without GFP_KERNEL there is no vmalloc fallback (mm/util.c), and %s is above the largest kmalloc, %s (KMALLOC_MAX_SIZE); use --gfp=kernel or --size=%s or less",
		ab_gfp_option_name(run->gfp), si->name, b, b, m, m);
	return 1;
}

/*
 * The rules of the per-CPU and mempool strategies (ab_run_check_limit()),
 * each refusal naming the option and what is allowed; 0 or -EINVAL.
 */
static int check_pools(const struct ab_run_opts *o, const struct ab_info *info,
		       const struct ab_strategy_info *si,
		       const struct ab_run *run, char *err, size_t len)
{
	uint32_t p = si->params;

	if ((si->flags & AB_STRATEGY_MEM_MASK) == AB_STRATEGY_MEM_PERCPU &&
	    run->align > info->page_size) {
		snprintf(
			err, len,
			"--align=%llu: above a page (%u bytes), the largest alignment pcpu_alloc() takes",
			(unsigned long long)run->align, info->page_size);
		return -EINVAL;
	}
	if (!(p & AB_PARAM_POOL))
		return 0;
	if (run->pool_min > info->max_batch) {
		snprintf(
			err, len,
			"--pool-min=%u: above the largest reserve, %llu elements (max_batch)",
			run->pool_min, (unsigned long long)info->max_batch);
		return -EINVAL;
	}
	if (run->gfp == AB_GFP_KERNEL_ZERO) {
		snprintf(
			err, len,
			"--gfp=%s: %s takes no __GFP_ZERO (mempool_alloc() warns on it); another --gfp",
			ab_gfp_option_name(run->gfp), si->name);
		return -EINVAL;
	}
	if (run->batch > run->pool_min && o->free_pattern != AB_FREE_PAIR &&
	    (!(p & AB_PARAM_GFP) || ab_gfp_may_block(run->gfp))) {
		if (p & AB_PARAM_GFP)
			snprintf(
				err, len,
				"--batch=%u: above %s's reserve of %u (--pool-min) with --gfp=%s, which may sleep: mempool_alloc() would wait for a free that only the run makes; --pool-min=%u or more, --gfp=nowait or atomic, or --free=pair",
				run->batch, si->name, run->pool_min,
				ab_gfp_option_name(run->gfp), run->batch);
		else
			snprintf(
				err, len,
				"--batch=%u: above %s's reserve of %u (--pool-min), which alone serves it; --pool-min=%u or more, or --free=pair",
				run->batch, si->name, run->pool_min,
				run->batch);
		return -EINVAL;
	}
	return 0;
}

/* The request of @o for strategy @si, before any check. */
static void fill(const struct ab_run_opts *o, const struct ab_strategy_info *si,
		 struct ab_run *run)
{
	memset(run, 0, sizeof(*run));
	/*
	 * the node list's "none" (-1, not node 0): a run the module ends
	 * with -EINTR before writing its answer leaves the request as sent,
	 * which ab_run_answer_check() then reads (Ctrl-C between two rows
	 * read as a list naming node 0 with no object: status 1)
	 */
	ab_nodes_clear(run);
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
}

/* --seed, --batch, --trials and --warmup against @info; 0 or -EINVAL. */
static int check_counts(const struct ab_run_opts *o, const struct ab_info *info,
			char *err, size_t len)
{
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
	return 0;
}

/* --sheaves's setting @o->sheaf into @run; 0 or -EINVAL. */
static int take_sheaves(const struct ab_run_opts *o,
			const struct ab_strategy_info *si, struct ab_run *run,
			char *err, size_t len)
{
	/* each setting a cache of its own: the rows differ in sheaves only */
	if (o->nsheaves && (si->params & AB_PARAM_CACHE))
		run->flags |= AB_RUN_NOMERGE;
	if (o->sheaf == AB_SHEAVES_DEFAULT)
		return 0;
	if (!(si->params & AB_PARAM_CACHE)) {
		snprintf(
			err, len,
			"--sheaves: %s has no kmem_cache of its own (only the kmem_cache strategies do)",
			si->name);
		return -EINVAL;
	}
	run->flags |= AB_RUN_SHEAVES;
	run->sheaf_capacity = (uint32_t)o->sheaf;
	return 0;
}

/* --sheaves against what this kernel can do; 0 or -EINVAL. */
static int check_sheaves(const struct ab_run_opts *o,
			 const struct ab_info *info, char *err, size_t len)
{
	char b[16];

	if (o->sheaf == AB_SHEAVES_DEFAULT)
		return 0;
	if (o->sheaf && ab_kernel_flag(info, AB_KERNEL_SHEAF_CAPACITY) != 1) {
		snprintf(
			err, len,
			"--sheaves=%s: this kernel cannot give a cache sheaves (kmem_cache_args.sheaf_capacity is 6.18 and later); --sheaves=default or off work here",
			ab_sheaves_name(o->sheaf, b, sizeof(b)));
		return -EINVAL;
	}
	if (!o->sheaf && ab_kernel_flag(info, AB_KERNEL_SHEAVES_OFF) != 1) {
		snprintf(
			err, len,
			"--sheaves=off: this kernel gives every cache sheaves, and the one way to a cache without (SLAB_NOLEAKTRACE) would also change what kmemleak does (CONFIG_DEBUG_KMEMLEAK); --sheaves=default or N work here");
		return -EINVAL;
	}
	return 0;
}

/*
 * The parameters strategy @si takes into @run (GFP flags, --nomerge,
 * --node, --align, --lookup and --table), each refused where @si does not
 * take it; 0 or -EINVAL.
 */
static int take_params(const struct ab_run_opts *o,
		       const struct ab_strategy_info *si, struct ab_run *run,
		       char *err, size_t len)
{
	if (o->gfp != AB_GFP_KERNEL && !(si->params & AB_PARAM_GFP)) {
		snprintf(
			err, len,
			"--gfp=%s: %s takes no GFP flags (%s); leave --gfp out for it",
			ab_gfp_option_name(o->gfp), si->name,
			!ab_limits_module() ? "a userspace allocator"
			: ab_strategy_gfp_name(si, o->gfp, 1)
				? "it always allocates with GFP_KERNEL"
				: "it never sleeps nor reclaims, in any context");
		return -EINVAL;
	}
	if (o->order_set && !(si->params & AB_PARAM_ORDER)) {
		snprintf(
			err, len,
			"--order=%s: %s takes no page order (`allocbench list`: the strategies with orders); --size for it",
			o->order_arg, si->name);
		return -EINVAL;
	}
	if (o->gfp == AB_GFP_THP && !(si->params & AB_PARAM_ORDER)) {
		snprintf(
			err, len,
			"--gfp=thp: the THP mask (movable, __GFP_COMP) is the page allocator's; %s takes no page order (use a page strategy: alloc_pages_node, get_free_pages)",
			si->name);
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
	/* like --node, --align and --pool-min go to the strategies that take
	 * one */
	if (si->params & AB_PARAM_ALIGN)
		run->align = o->align;
	if (si->params & AB_PARAM_POOL)
		run->pool_min = o->pool_min ? o->pool_min : o->batch;
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
	return take_sheaves(o, si, run, err, len);
}

/*
 * The object: a page order for AB_PARAM_ORDER strategies (--order, or the
 * smallest holding --size), a size for AB_PARAM_SIZE ones, each against
 * @si's largest; 0 or -EINVAL.
 */
static int set_object(const struct ab_run_opts *o, const struct ab_info *info,
		      const struct ab_strategy_info *si, struct ab_run *run,
		      char *err, size_t len)
{
	char b[32];

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
	} else if (si->params & AB_PARAM_SIZE) {
		/* --order was refused for it (take_params()) */
		run->obj_size = o->size_set ? o->size : info->page_size;
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
					"the default size, one page, is above %s's largest object, %s (%llu bytes)%s; give --size",
					si->name, b,
					(unsigned long long)si->max_size, why);
			return -EINVAL;
		}
		if ((si->flags & AB_STRATEGY_RCU) &&
		    run->obj_size < AB_RCU_MIN_SIZE) {
			snprintf(
				err, len,
				"--size=%s: %s needs objects of at least %d bytes, for the RCU head its free puts at the object's start",
				o->size_arg, si->name, AB_RCU_MIN_SIZE);
			return -EINVAL;
		}
	}
	return 0;
}

/* --context around strategy @si, on this kernel; 0 or -EINVAL. */
static int check_context(const struct ab_run_opts *o,
			 const struct ab_info *info,
			 const struct ab_strategy_info *si, char *err,
			 size_t len)
{
	if (o->context != AB_CTX_NORMAL &&
	    (si->params & (AB_PARAM_SIZE | AB_PARAM_ORDER)) &&
	    !(si->flags & AB_STRATEGY_ANY_CONTEXT)) {
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
	return 0;
}

/*
 * The request of @o for strategy @si into @run, and its footprint into
 * @fp, computed once here (ab_run_footprint()): every check reads it, and
 * the row keeps it. The CLI's own checks first, each refusal in one line
 * naming the option, the value and the limit (the shared check's limits,
 * ab_run_check_limits(), worded by ab_limit_refused()), then the ABI's
 * own check as the backend will make it.
 */
static int prepare(const struct ab_run_opts *o, const struct ab_info *info,
		   const struct ab_strategy_info *si, struct ab_run *run,
		   struct ab_footprint *fp, char *err, size_t len)
{
	struct ab_refusal no;
	int ret;

	if (si->flags & AB_STRATEGY_UNAVAILABLE) {
		snprintf(err, len,
			 "--alloc=%s: not available on this kernel (%s)",
			 si->name, si->desc);
		return -EINVAL;
	}
	fill(o, si, run);
	ret = check_counts(o, info, err, len);
	if (ret)
		return ret;
	/* "none" allocates nothing: GFP and cache choices do not apply */
	if (!(si->params & (AB_PARAM_SIZE | AB_PARAM_ORDER))) {
		run->gfp = AB_GFP_KERNEL;
	} else {
		ret = take_params(o, si, run, err, len);
		if (!ret)
			ret = set_object(o, info, si, run, err, len);
		if (ret)
			return ret;
	}
	/* the memory it takes, once */
	ab_run_footprint(run, info, si, fp);
	if (!(si->params & (AB_PARAM_SIZE | AB_PARAM_ORDER)))
		return 0;
	if (not_applicable(fp, info, si, run, err, len))
		return -EINVAL;
	ret = check_context(o, info, si, err, len);
	if (!ret)
		ret = check_pools(o, info, si, run, err, len);
	if (!ret)
		ret = check_sheaves(o, info, err, len);
	if (!ret && ab_run_check_limits(run, info, si, fp, &no))
		ret = ab_limit_refused(&no, run, si, fp, err, len);
	return ret;
}

int ab_run_prepare_fp(const struct ab_run_opts *o, const struct ab_info *info,
		      const struct ab_strategy_info *si, struct ab_run *run,
		      struct ab_footprint *fp, char *err, size_t len)
{
	struct ab_refusal no;
	int ret = prepare(o, info, si, run, fp, err, len);

	/* the ABI's own check, as the backend will make it */
	if (!ret && (ab_run_check_fields(run, info, si, &no) ||
		     ab_run_check_memory(run, info, si, fp, &no))) {
		no.limit = AB_LIMIT_NONE;
		ret = ab_limit_refused(&no, run, si, fp, err, len);
	}
	return ret;
}

int ab_run_prepare(const struct ab_run_opts *o, const struct ab_info *info,
		   const struct ab_strategy_info *si, struct ab_run *run,
		   char *err, size_t len)
{
	struct ab_footprint fp;

	return ab_run_prepare_fp(o, info, si, run, &fp, err, len);
}
