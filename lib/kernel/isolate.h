/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * isolate.h - --isolate: run inside a temporary set of CPUs that holds only
 * the benchmark CPUs and that nothing else may use, removed again on exit
 * and after SIGINT or SIGTERM. Made one of two ways, chosen at run time:
 * an exclusive cpuset through libcpuset when the legacy cpuset file system
 * is mounted at /dev/cpuset, otherwise a cgroup v2 cpuset partition.
 */
#ifndef AB_ISOLATE_H
#define AB_ISOLATE_H

#include <stddef.h>

/*
 * ab_isolate_start - make the set for @cpus[0..n) (CPU numbers) and move
 * this process into it; registers its removal at exit.
 *  - legacy cpuset file system mounted at /dev/cpuset: the cpuset
 *    /allocbench-PID through libcpuset, cpu_exclusive, with every memory
 *    node of the top cpuset;
 *  - otherwise cgroup v2 with the cpuset controller: the cgroup
 *    allocbench-PID right under the v2 root, with every memory node of the
 *    root, made a partition root ("root" in cpuset.cpus.partition).
 * Sets left by runs that were killed (their PID is gone) are removed
 * first. Returns 0; -ENODEV, and only for that, when neither way exists
 * here (@err names what is missing for each); or another -errno with one
 * sentence in @err (the step that failed and the kernel's reason, e.g. the
 * reason of an invalid partition; -EDOM when the CPUs are every CPU the
 * cgroup v2 root has, which no partition may take). On any error nothing
 * is left behind:
 * the process is back in its cgroup and the root's cgroup.subtree_control
 * is as it was.
 */
int ab_isolate_start(const int *cpus, int n, char *err, size_t len);

/*
 * ab_isolate_clean_stale - remove the sets that killed runs left (as
 * ab_isolate_start() does first), before the --cpu CPUs are checked
 * against this process's affinity: a leftover partition still holds them.
 * Lines on stderr name what was removed.
 */
void ab_isolate_clean_stale(void);

/*
 * ab_isolate_end - move this process back (v1: to the top cpuset; v2: to
 * the cgroup it came from), remove the set and, on cgroup v2, take cpuset
 * out of the root's cgroup.subtree_control again if ab_isolate_start()
 * put it there. Does nothing when no set is in use; what fails is one line
 * on stderr.
 */
void ab_isolate_end(void);

/*
 * ab_isolate_path - the set in use: the cpuset path (v1, relative to
 * /dev/cpuset, "/allocbench-PID") or the cgroup directory (v2,
 * "/sys/fs/cgroup/allocbench-PID"); "" when none.
 */
const char *ab_isolate_path(void);

/*
 * ab_isolate_what - what the set in use is: "exclusive cpuset" (v1,
 * libcpuset) or "cpuset partition" (cgroup v2); "" when none.
 */
const char *ab_isolate_what(void);

/*
 * ab_cgroup_v2_path - this process's cgroup v2 path, the PATH of the
 * "0::PATH" line of /proc/self/cgroup ("/user.slice/...", "/" for the
 * root), into @buf of @len bytes. Returns 0 or -errno (-ENOENT: no such
 * line, a kernel or mount without cgroup v2; -ENAMETOOLONG: longer than
 * @len - 1).
 */
int ab_cgroup_v2_path(char *buf, size_t len);

#endif
