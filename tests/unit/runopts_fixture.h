/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * runopts_fixture.h - what the tests of `allocbench run` requests share
 * (test_runopts.c, test_runnames.c, test_runanswer.c, test_runlimits.c):
 * a module's limits, its strategies as AB_IOC_INFO describes them, and
 * the buffer for the messages.
 */
#ifndef AB_RUNOPTS_FIXTURE_H
#define AB_RUNOPTS_FIXTURE_H

#include <linux/allocbench.h>

static const struct ab_info info = {
	.abi_version = AB_ABI_VERSION,
	.max_batch = 1 << 20,
	.max_trials = 1 << 24,
	.max_bytes = 256ULL << 20,
	.page_size = 4096,
	.nr_node_ids = 4,
};

static const struct ab_strategy_info kmalloc_si = {
	.id = 3,
	.params = AB_PARAM_SIZE | AB_PARAM_GFP,
	.max_size = 4 << 20,
	.name = "kmalloc",
};
static const struct ab_strategy_info kmalloc_node_si = {
	.id = 4,
	.params = AB_PARAM_SIZE | AB_PARAM_GFP | AB_PARAM_NODE,
	.max_size = 4 << 20,
	.name = "kmalloc_node",
};
static const struct ab_strategy_info pages_si = {
	.id = 1,
	.params = AB_PARAM_ORDER | AB_PARAM_GFP,
	.max_order = 10,
	.name = "get_free_pages",
};
static const struct ab_strategy_info vmalloc_si = {
	.id = 7,
	.params = AB_PARAM_SIZE | AB_PARAM_NODE,
	.max_size = 256 << 20,
	.name = "vmalloc_node",
};
static const struct ab_strategy_info cache_si = {
	.id = 5,
	.params = AB_PARAM_SIZE | AB_PARAM_GFP | AB_PARAM_CACHE,
	.max_size = 32768,
	.name = "kmem_cache",
};

static char err[256];

/* A module's INFO answer with kernel_flags (a version-1 size). */
static inline struct ab_info info_with(uint64_t flags)
{
	struct ab_info i = info;

	i.size = AB_INFO_SIZE_VER1;
	i.kernel_flags = flags;
	return i;
}

#endif
