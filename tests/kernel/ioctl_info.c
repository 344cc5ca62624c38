// SPDX-License-Identifier: GPL-2.0-only
/*
 * ioctl_info.c - AB_IOC_INFO: what the module reports (its strategies and
 * their flags, its limits, the kernel's build flags, each compared with
 * the kernel's own config), a version-0 caller, a newer caller's tail, a
 * pointer it cannot write, and ioctl numbers it does not know.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/utsname.h>
#include <cmocka.h>
#include "ioctl_suite.h"

void test_info_reports(void **state)
{
	unsigned int i;

	assert_int_equal(info.abi_version, AB_ABI_VERSION);
	assert_true(info.nr_strategies > 0 && info.nr_strategies <= 64);
	assert_int_equal(info.size, sizeof(info));
	assert_true(info.max_batch > 0 && info.max_trials > 0);
	assert_true(info.max_bytes > 0);
	assert_int_equal(info.outstanding, 0);
	assert_true(info.page_size >= 4096);
	for (i = 0; i < info.nr_strategies; i++) {
		assert_int_equal(strat[i].id, i);
		assert_true(strat[i].name[0] && strat[i].desc[0]);
		if (strat[i].params & AB_PARAM_SIZE)
			assert_true(strat[i].max_size >= 8);
	}
	find("none");
	find("kmalloc");
	find("vmalloc_batch");
}

/*
 * Strategy flags: only known bits; "none" alone is the baseline (allocates
 * nothing), vmalloc_batch is timed per trial.
 */
void test_info_strategy_flags(void **state)
{
	unsigned int i, baselines = 0;

	for (i = 0; i < info.nr_strategies; i++) {
		assert_int_equal(strat[i].flags & ~AB_STRATEGY_FLAGS_ALL, 0);
		baselines += !!(strat[i].flags & AB_STRATEGY_BASELINE);
		if (strat[i].flags & AB_STRATEGY_BASELINE)
			assert_int_equal(strat[i].params & (AB_PARAM_SIZE |
							    AB_PARAM_ORDER),
					 0);
	}
	assert_int_equal(baselines, 1);
	assert_true(find("none")->flags & AB_STRATEGY_BASELINE);
	assert_true(find("vmalloc_batch")->flags & AB_STRATEGY_PER_TRIAL);
	assert_false(find("kmalloc")->flags & AB_STRATEGY_PER_TRIAL);
	assert_true(find("kmem_cache_bulk")->flags & AB_STRATEGY_IRQS_ON);
	assert_true(find("alloc_pages_bulk")->flags & AB_STRATEGY_PER_TRIAL);
	assert_int_equal(find("alloc_pages_bulk")->max_order, 0);
	/* how each allocator's memory is counted (common/ab_footprint.h) */
	assert_int_equal(find("get_free_pages")->flags & AB_STRATEGY_MEM_MASK,
			 AB_STRATEGY_MEM_EXACT);
	assert_int_equal(find("kmalloc")->flags & AB_STRATEGY_MEM_MASK,
			 AB_STRATEGY_MEM_KMALLOC);
	assert_int_equal(find("kmem_cache")->flags & AB_STRATEGY_MEM_MASK,
			 AB_STRATEGY_MEM_CACHE);
	assert_int_equal(find("vmalloc_node")->flags & AB_STRATEGY_MEM_MASK,
			 AB_STRATEGY_MEM_VMALLOC);
	assert_int_equal(find("kvmalloc_node")->flags & AB_STRATEGY_MEM_MASK,
			 AB_STRATEGY_MEM_KVMALLOC);
	assert_int_equal(find("vmalloc_huge")->flags & AB_STRATEGY_MEM_MASK,
			 AB_STRATEGY_MEM_VMALLOC_HUGE);
	assert_int_equal(find("kmem_buckets")->flags & AB_STRATEGY_MEM_MASK,
			 AB_STRATEGY_MEM_BUCKETS);
	assert_int_equal(find("cma")->flags & AB_STRATEGY_MEM_MASK,
			 AB_STRATEGY_MEM_CMA);
	/* the reason of a strategy the kernel lacks is in its description */
	assert_true(!(find("cma")->flags & AB_STRATEGY_UNAVAILABLE) ||
		    strstr(find("cma")->desc, "; not here: "));
	assert_true(!(find("kmem_buckets")->flags & AB_STRATEGY_UNAVAILABLE) ||
		    strstr(find("kmem_buckets")->desc, "; not here: "));
	assert_true(find("vmalloc_batch")->flags & AB_STRATEGY_ONE_OBJECT);
	assert_false(find("vmalloc_node")->flags & AB_STRATEGY_ONE_OBJECT);
	assert_false(find("kfree_bulk")->flags & AB_STRATEGY_ONE_OBJECT);
}

void test_info_count_only(void **state)
{
	struct ab_info i = { .size = sizeof(i) };

	assert_int_equal(xioctl(AB_IOC_INFO, &i), 0);
	assert_int_equal(i.nr_strategies, info.nr_strategies);
}

/* "y" when /boot/config-RELEASE sets CONFIG_@sym=y, -1 without the file. */
static int config_has(const char *sym)
{
	char path[256], line[512], want[128];
	struct utsname u;
	int found = 0;
	FILE *f;

	if (uname(&u))
		return -1;
	snprintf(path, sizeof(path), "/boot/config-%s", u.release);
	f = fopen(path, "r");
	if (!f)
		return -1;
	snprintf(want, sizeof(want), "CONFIG_%s=y\n", sym);
	while (fgets(line, sizeof(line), f))
		found |= !strcmp(line, want);
	fclose(f);
	return found;
}

/*
 * kernel_flags: only known bits, each the kernel's own config (and uname
 * -v agrees on PREEMPT_RT).
 */
void test_info_kernel_flags(void **state)
{
	static const struct {
		uint64_t flag;
		const char *sym;
	} flags[] = {
		{ AB_KERNEL_PREEMPT_RT, "PREEMPT_RT" },
		{ AB_KERNEL_PREEMPT_DYNAMIC, "PREEMPT_DYNAMIC" },
		{ AB_KERNEL_RANDOM_KMALLOC_CACHES, "RANDOM_KMALLOC_CACHES" },
		{ AB_KERNEL_SLAB_BUCKETS, "SLAB_BUCKETS" },
	};
	size_t k;
	int y;

	assert_int_equal(info.size, AB_INFO_SIZE_VER4);
	assert_int_equal(info.run_flags, AB_RUN_FLAGS_ALL);
	/* KMALLOC_MAX_SIZE is PAGE_SIZE << MAX_PAGE_ORDER, the largest order */
	assert_int_equal(info.kmalloc_max_size,
			 (uint64_t)info.page_size
				 << find("get_free_pages")->max_order);
	assert_int_equal(info.kernel_flags & ~AB_KERNEL_FLAGS_ALL, 0);
	assert_int_equal(!!(info.kernel_flags & AB_KERNEL_PREEMPT_RT),
			 kernel_is_rt());
	for (k = 0; k < sizeof(flags) / sizeof(flags[0]); k++) {
		y = config_has(flags[k].sym);
		if (y < 0)
			continue;
		if (!!(info.kernel_flags & flags[k].flag) != y)
			fail_msg("kernel_flags says %s=%d, the config %d",
				 flags[k].sym,
				 !!(info.kernel_flags & flags[k].flag), y);
	}
}

/* A version-0 caller gets version 0 back: the appended fields untouched. */
void test_info_ver0(void **state)
{
	struct ab_info i;

	memset(&i, 0, sizeof(i));
	i.size = AB_INFO_SIZE_VER0;
	i.kernel_flags = 0x5a5a; /* beyond the caller's size: not read */
	assert_int_equal(xioctl(AB_IOC_INFO, &i), 0);
	assert_int_equal(i.size, AB_INFO_SIZE_VER0);
	assert_int_equal(i.abi_version, AB_ABI_VERSION);
	assert_int_equal(i.kernel_flags, 0x5a5a);
}

/* A struct larger than the module's: zero tail accepted, nonzero -E2BIG. */
void test_info_tail(void **state)
{
	struct {
		struct ab_info i;
		uint64_t newer_field;
	} big = { .i.size = sizeof(big) };

	assert_int_equal(xioctl(AB_IOC_INFO, &big), 0);
	assert_int_equal(big.i.size, sizeof(struct ab_info));
	big.i.size = sizeof(big);
	big.newer_field = 1;
	assert_int_equal(xioctl(AB_IOC_INFO, &big), E2BIG);
}

void test_info_bad_pointer(void **state)
{
	struct ab_info i = { .size = sizeof(i) };

	i.strategies_len = 4;
	i.strategies_ptr = 16;
	assert_int_equal(xioctl(AB_IOC_INFO, &i), EFAULT);
}

void test_unknown_command(void **state)
{
	struct ab_run r = req("none");

	assert_int_equal(xioctl(_IOWR(AB_IOC_MAGIC, 0x1f, struct ab_run), &r),
			 ENOTTY);
	assert_int_equal(xioctl(_IOR(AB_IOC_MAGIC, 0x01, struct ab_run), &r),
			 ENOTTY);
	assert_int_equal(
		xioctl(_IOWR(AB_IOC_MAGIC + 1, 0x01, struct ab_run), &r),
		ENOTTY);
	assert_int_equal(xioctl(_IO(AB_IOC_MAGIC, 0x00), NULL), ENOTTY);
}
