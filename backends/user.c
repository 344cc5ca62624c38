// SPDX-License-Identifier: GPL-2.0-only
/*
 * user.c - the user backend: work done in the CLI's own process, without
 * the module or root: userspace allocators (user_alloc.c) and the same
 * size-class lookup loops the module times (common/ab_lookup_pass.h), read
 * with rdtsc (user_clock.c).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "ab_lookup_pass.h"
#include "backend.h"
#include "user.h"

static int user_probe(char *why, size_t len)
{
	return 0;
}

static int user_info(struct ab_backend_info *out, char *why, size_t len)
{
	memset(out, 0, sizeof(*out));
	ab_user_limits(&out->info);
	out->info.abi_version = AB_ABI_VERSION;
	snprintf(out->info.version, sizeof(out->info.version), "%s",
		 AB_TOOL_VERSION);
	out->info.tsc_khz = ab_user_tsc_khz();
	out->strategies = (struct ab_strategy_info *)ab_user_strategies(
		&out->info.nr_strategies);
	return 0;
}

static int user_put_pass(struct ab_lookup *l, uint32_t index, uint64_t c)
{
	if (l->samples_ptr)
		((uint64_t *)(uintptr_t)l->samples_ptr)[index] = c;
	return 0;
}

static int user_next_pass(void)
{
	return ab_stop_requested ? -EINTR : 0;
}

static int user_lookup(struct ab_lookup *l, char *why, size_t len)
{
	int err = ab_lookup_check(l, AB_USER_MAX_TRIALS);

	if (err) {
		snprintf(why, len, "invalid lookup request (%s)",
			 strerror(-err));
		return err;
	}
	l->tsc_khz = ab_user_tsc_khz();
	l->clock_cycles = ab_clock_pair();
	l->cpu = (uint32_t)sched_getcpu();
	err = ab_lookup_passes(l, (const uint32_t *)(uintptr_t)l->sizes_ptr,
			       user_put_pass, user_next_pass);
	if (err == -EINTR)
		snprintf(why, len, "interrupted after %u of %u passes",
			 l->trials_done, l->trials);
	return err;
}

const struct ab_backend ab_backend_user = {
	.name = "user",
	.desc = "the CLI's own process, no module or root needed: userspace allocators and size-class lookups",
	.default_run = "malloc",
	.default_sweep = "numa_alloc_onnode",
	.probe = user_probe,
	.info = user_info,
	.run = ab_user_run,
	.unavailable = ab_user_unavailable,
	.lookup = user_lookup,
};
