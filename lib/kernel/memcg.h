/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * memcg.h - --memcg: run in a memory cgroup (cgroup v2 with the memory
 * controller), so that what a run charges (GFP_KERNEL_ACCOUNT, a
 * SLAB_ACCOUNT cache) is charged somewhere: in the root cgroup nothing is.
 * Either a cgroup made for the run, removed again on exit and after
 * SIGINT or SIGTERM, or the cgroup this process is already in.
 */
#ifndef AB_MEMCG_H
#define AB_MEMCG_H

#include <stddef.h>
#include <stdint.h>

/* --memcg's choices */
enum ab_memcg_mode {
	AB_MEMCG_NONE = 0, /* not asked, and nothing charges */
	AB_MEMCG_NEW,	   /* allocbench-memcg-PID under the cgroup v2 root */
	AB_MEMCG_SELF,	   /* the cgroup this process is in */
	AB_MEMCG_NR
};

/* "new", "self"; "" for AB_MEMCG_NONE */
const char *ab_memcg_mode_name(int mode);

/*
 * ab_memcg_parse - --memcg=@arg into *@mode. Returns 0, or -EINVAL with
 * "--memcg=ARG: ... (allowed: new, self)" in @err.
 */
int ab_memcg_parse(const char *arg, int *mode, char *err, size_t len);

/*
 * ab_memcg_start - put this process in a memory cgroup:
 *  - AB_MEMCG_NEW: the cgroup allocbench-memcg-PID right under the cgroup
 *    v2 root, memory added to the root's cgroup.subtree_control if it was
 *    not there (taken out again at the end, unless another run's cgroup
 *    still lives); those killed runs left (their PID gone, no task in
 *    them) are removed first;
 *  - AB_MEMCG_SELF: the cgroup this process is in, which must not be the
 *    root and must have the memory controller (a memory.current file).
 * Registers the removal at exit. Returns 0; -EPERM for AB_MEMCG_SELF in
 * the root cgroup; -ENODEV when there is no cgroup v2 or no memory
 * controller there; another -errno for a step that failed; each with one
 * sentence in @err. On error nothing is left behind.
 */
int ab_memcg_start(int mode, char *err, size_t len);

/*
 * ab_memcg_end - move this process back to the cgroup it came from and
 * remove the cgroup made for it (AB_MEMCG_NEW); nothing for AB_MEMCG_SELF.
 * What fails is one line on stderr.
 */
void ab_memcg_end(void);

/* the memory cgroup in use, its directory ("" when none), and its mode */
const char *ab_memcg_path(void);
int ab_memcg_mode(void);

/*
 * struct ab_memcg_stat - figures of the cgroup in use, in bytes
 * @current: memory.current (pages charged, the per-CPU stock's too)
 * @slab:    memory.stat "slab" (slab objects charged, bytes)
 * @kernel:  memory.stat "kernel" (all kernel memory charged; 5.18+,
 *           UINT64_MAX where the file has no such line)
 * @peak:    memory.peak (5.19+; UINT64_MAX where absent)
 */
struct ab_memcg_stat {
	uint64_t current, slab, kernel, peak;
};

/* ab_memcg_read - the figures now; 0 or -errno (no cgroup in use: -ENOENT) */
int ab_memcg_read(struct ab_memcg_stat *st);

#endif
