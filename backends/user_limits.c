// SPDX-License-Identifier: GPL-2.0-only
/*
 * user_limits.c - the user backend's limits, as AB_IOC_INFO reports the
 * module's: what its info reports (user.c) and what its runs are checked
 * against (user_alloc.c, with common/ab_run.h's ab_run_check()).
 */
#define _GNU_SOURCE
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kfile.h"
#include "user.h"

/*
 * The kernel's nr_node_ids: the highest possible node + 1, from the last
 * number of /sys/devices/system/node/possible ("0-1"); 1 without it.
 */
static uint32_t possible_nodes(void)
{
	char line[256], *p;

	if (ab_kfile_line(line, sizeof(line),
			  "/sys/devices/system/node/possible") < 0)
		return 1;
	p = line + strlen(line);
	while (p > line && p[-1] >= '0' && p[-1] <= '9')
		p--;
	return (uint32_t)strtoul(p, NULL, 10) + 1;
}

void ab_user_limits(struct ab_info *info)
{
	memset(info, 0, sizeof(*info));
	info->max_trials = AB_USER_MAX_TRIALS;
	info->max_batch = 1U << 20;
	info->max_bytes = (uint64_t)sysconf(_SC_PHYS_PAGES) *
			  (uint64_t)sysconf(_SC_PAGESIZE) / 4;
	info->page_size = (uint32_t)sysconf(_SC_PAGESIZE);
	info->nr_node_ids = possible_nodes();
	/* every flag but remote frees (refused: see user_alloc.c) and the
	 * condition restored per trial (no condition here: -ENOENT) */
	info->run_flags = AB_RUN_FLAGS_ALL &
			  ~(AB_RUN_REMOTE_FREE | AB_RUN_COND_EACH_TRIAL);
}
