// SPDX-License-Identifier: GPL-2.0
/*
 * info.c - what allocbench.ko offers (AB_IOC_INFO): its limits, among
 * them the budget of memory all runs may hold at once (the
 * max_outstanding_mb parameter), the facts of the kernel it runs in, and
 * each strategy of the table with the largest object the budget leaves
 * it. AB_IOC_RUN checks every run against these same figures (run.c).
 */

#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/mm.h>
#include <linux/slab.h>
#include <linux/nodemask.h>
#include <linux/string.h>
#include <linux/uaccess.h>
#include "ab_internal.h"
#include "ab_footprint.h"

static unsigned int max_outstanding_mb;

/* max_outstanding_mb accepts 0 (the default) up to the size of RAM. */
static int ab_set_max_mb(const char *val, const struct kernel_param *kp)
{
	unsigned int mb;
	int err = kstrtouint(val, 0, &mb);

	if (err)
		return err;
	if ((u64)mb << 20 > (u64)totalram_pages() << PAGE_SHIFT)
		return -EINVAL;
	*(unsigned int *)kp->arg = mb;
	return 0;
}

static const struct kernel_param_ops ab_max_mb_ops = {
	.set = ab_set_max_mb,
	.get = param_get_uint,
};

module_param_cb(max_outstanding_mb, &ab_max_mb_ops, &max_outstanding_mb,
		0644);
MODULE_PARM_DESC(max_outstanding_mb,
		 "Largest memory held at once over all runs, in MiB, at most RAM (0: a quarter of RAM)");

u64 ab_max_bytes(void)
{
	if (max_outstanding_mb)
		return (u64)max_outstanding_mb << 20;
	return ((u64)totalram_pages() << PAGE_SHIFT) / 4;
}

/*
 * The AB_STRATEGY_MEM_* kind of @s (how common/ab_footprint.h counts its
 * objects against the budget) and AB_STRATEGY_ONE_OBJECT, for
 * ab_strategy_info.flags.
 */
static u32 ab_mem_flags(const struct ab_strategy *s)
{
	static const u32 kind[] = {
		[AB_MEM_EXACT] = AB_STRATEGY_MEM_EXACT,
		[AB_MEM_KMALLOC] = AB_STRATEGY_MEM_KMALLOC,
		[AB_MEM_CACHE] = AB_STRATEGY_MEM_CACHE,
		[AB_MEM_VMALLOC] = AB_STRATEGY_MEM_VMALLOC,
		[AB_MEM_KVMALLOC] = AB_STRATEGY_MEM_KVMALLOC,
		[AB_MEM_PERCPU] = AB_STRATEGY_MEM_PERCPU,
		[AB_MEM_MEMPOOL] = AB_STRATEGY_MEM_MEMPOOL,
		[AB_MEM_FRAG] = AB_STRATEGY_MEM_FRAG,
		[AB_MEM_VMALLOC_HUGE] = AB_STRATEGY_MEM_VMALLOC_HUGE,
		[AB_MEM_BUCKETS] = AB_STRATEGY_MEM_BUCKETS,
		[AB_MEM_CMA] = AB_STRATEGY_MEM_CMA,
	};

	return kind[s->mem] | (s->one_object ? AB_STRATEGY_ONE_OBJECT : 0);
}

/*
 * Largest bytes per object for @s: its own cap, and no larger than what
 * fits the budget (with the harness's arrays for it) and
 * AB_PHASE_MAX_BYTES once counted as common/ab_footprint.h counts it (with
 * GFP_KERNEL, which counts a kvmalloc's vmalloc fallback too). The
 * footprint grows with the size, so a binary search finds it.
 */
static u64 ab_strategy_max_size(const struct ab_strategy *s)
{
	u32 flags = ab_mem_flags(s);
	u64 max = min_t(u64, ab_max_bytes(), AB_PHASE_MAX_BYTES);
	u64 lo = 0, hi, mid, harness;

	if (!(s->params & AB_PARAM_SIZE))
		return 0;
	/* one object's arrays, single timing (the most of them) */
	harness = ab_harness_bytes(1, true, s->flags & AB_STRATEGY_PER_TRIAL,
				   PAGE_SIZE);
	hi = min_t(u64, s->max_size, max);
	while (lo < hi) {
		mid = hi - (hi - lo) / 2;
		if (ab_add_sat(ab_obj_footprint(flags, mid, AB_GFP_KERNEL,
						PAGE_SIZE, KMALLOC_MAX_SIZE),
			       harness) <= max)
			lo = mid;
		else
			hi = mid - 1;
	}
	return lo;
}

/*
 * Facts about the running kernel (ab_info.kernel_flags): the config the
 * module was built against is the one of the kernel it is loaded into.
 */
static u64 ab_kernel_flags(void)
{
	u64 flags = 0;

	if (IS_ENABLED(CONFIG_PREEMPT_RT))
		flags |= AB_KERNEL_PREEMPT_RT;
	if (IS_ENABLED(CONFIG_PREEMPT_DYNAMIC))
		flags |= AB_KERNEL_PREEMPT_DYNAMIC;
	/* since 6.6; 6.1 has no such option, so the flag stays clear there */
	if (IS_ENABLED(CONFIG_RANDOM_KMALLOC_CACHES))
		flags |= AB_KERNEL_RANDOM_KMALLOC_CACHES;
	/* since 6.11 */
	if (IS_ENABLED(CONFIG_SLAB_BUCKETS))
		flags |= AB_KERNEL_SLAB_BUCKETS;
#ifdef AB_HAVE_SHEAF_ARGS
	flags |= AB_KERNEL_SHEAF_CAPACITY;
#endif
	if (AB_CAN_SHEAVES_OFF)
		flags |= AB_KERNEL_SHEAVES_OFF;
#ifdef AB_HAVE_KVFREE_RCU_BARRIER
	flags |= AB_KERNEL_KVFREE_RCU_BARRIER;
#endif
	return flags | AB_KERNEL_CONDITIONS;
}

/*
 * What AB_IOC_INFO says of strategy @s (its largest object in the budget);
 * one the kernel cannot run now (its lacks()) is unavailable, the reason
 * appended to its description, as run.c then refuses it (ab_run_check()).
 */
void ab_strategy_info(unsigned int id, struct ab_strategy_info *si)
{
	const struct ab_strategy *s = &ab_strategies[id];
	const char *why = s->lacks ? s->lacks() : NULL;

	memset(si, 0, sizeof(*si));
	si->id = id;
	si->params = s->params;
	si->flags = s->flags | ab_mem_flags(s);
	si->max_size = ab_strategy_max_size(s);
	si->max_order = s->max_order;
	strscpy(si->name, s->name, sizeof(si->name));
	strscpy(si->desc, s->desc, sizeof(si->desc));
	if (why) {
		si->flags |= AB_STRATEGY_UNAVAILABLE;
		strlcat(si->desc, "; not here: ", sizeof(si->desc));
		strlcat(si->desc, why, sizeof(si->desc));
	}
}

/* The limits AB_IOC_INFO reports, which ab_run_check() applies. */
void ab_limits(struct ab_info *info)
{
	info->max_batch = AB_MAX_BATCH;
	info->max_trials = AB_MAX_TRIALS;
	info->max_bytes = ab_max_bytes();
	info->page_size = PAGE_SIZE;
	info->nr_node_ids = nr_node_ids;
	info->kernel_flags = ab_kernel_flags();
	info->kmalloc_max_size = KMALLOC_MAX_SIZE;
	info->run_flags = AB_RUN_FLAGS_ALL;
	info->possible_cpus = num_possible_cpus();
	info->cma_pages = ab_cma_pages();
}

long ab_ioctl_info(void __user *uarg)
{
	struct ab_strategy_info __user *uinfo;
	struct ab_strategy_info si;
	struct ab_info info;
	unsigned int i, n;
	long usize;

	usize = ab_copy_in(&info, sizeof(info), AB_INFO_SIZE_VER0, uarg);
	if (usize < 0)
		return usize;
	if (info.reserved0 ||
	    memchr_inv(info.reserved, 0, sizeof(info.reserved)))
		return -EINVAL;
	if (!info.strategies_ptr && info.strategies_len)
		return -EINVAL;

	uinfo = u64_to_user_ptr(info.strategies_ptr);
	n = min_t(u32, info.strategies_len, ab_nr_strategies);
	for (i = 0; i < n; i++) {
		ab_strategy_info(i, &si);
		if (copy_to_user(&uinfo[i], &si, sizeof(si)))
			return -EFAULT;
	}

	info.abi_version = AB_ABI_VERSION;
	info.nr_strategies = ab_nr_strategies;
	ab_limits(&info);
	info.outstanding = ab_drv_outstanding();
	info.tsc_khz = ab_tsc_khz();
	strscpy(info.version, AB_MODULE_VERSION, sizeof(info.version));
	return ab_copy_out(uarg, &info, sizeof(info), usize);
}
