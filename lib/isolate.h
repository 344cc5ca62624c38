/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * isolate.h - --isolate: run inside a temporary exclusive cpuset holding
 * only the benchmark CPUs, made through libcpuset on the legacy cpuset file
 * system, and removed again on exit and after SIGINT or SIGTERM.
 */
#ifndef AB_ISOLATE_H
#define AB_ISOLATE_H

#include <stddef.h>

/*
 * ab_isolate_start - create /allocbench-PID under the cpuset file system
 * with @cpus[0..n) (cpu_exclusive) and every memory node of the parent,
 * and move this process into it. Registers its removal at exit. Returns 0,
 * or -errno with one sentence in @err: no legacy cpuset file system (what
 * to mount, or that this machine has cgroup v2 only), or libcpuset's
 * error.
 */
int ab_isolate_start(const int *cpus, int n, char *err, size_t len);

/* ab_isolate_end - move back to the parent and remove the cpuset. */
void ab_isolate_end(void);

/* ab_isolate_path - the cpuset in use ("" when none). */
const char *ab_isolate_path(void);

#endif
