/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * backend.h - where allocations run. A backend is an ops struct; the CLI
 * picks one by name (--backend) and talks to it only through these hooks.
 * The uapi structs (struct ab_info, ab_strategy_info, ab_run, ab_sample)
 * are the common currency, so every backend offers the same parameters and
 * returns the same per-trial samples.
 */
#ifndef AB_BACKEND_H
#define AB_BACKEND_H

#include <signal.h>
#include <stddef.h>
#include <linux/allocbench.h>

#define AB_ERRLEN 256

/**
 * struct ab_backend_info - what a backend offers
 * @info:       limits and versions, as AB_IOC_INFO returns them
 * @strategies: @info.nr_strategies entries, owned by the backend
 */
struct ab_backend_info {
	struct ab_info info;
	struct ab_strategy_info *strategies;
};

/**
 * struct ab_backend - one backend
 * @name:  what --backend takes
 * @desc:  one line for `allocbench list`
 * @probe: 0 when usable; otherwise -errno with a plain sentence in @why
 *         saying what is missing and how to get it
 * @info:  fills @out (valid until the process exits); 0 or -errno with @why
 * @run:   runs @run (input fields set, samples_ptr/len pointing at room for
 *         run->trials samples); 0, or -errno with the sentence in @why.
 *         -EINTR means a signal interrupted the run; the output fields then
 *         hold the trials completed so far.
 * @lookup: times size-class lookups (struct ab_lookup, input fields set);
 *         0 or -errno with the sentence in @why, -EINTR as for @run
 * @condition: optional (the module's alone): AB_IOC_CONDITION with @c's
 *         input fields set; 0 or -errno with the sentence in @why
 * @unavailable: optional; lines naming strategies this backend knows but
 *         cannot offer here, and why; returns how many
 * @flags: AB_BACKEND_* bits: what the CLI may rely on, instead of names
 * @default_run:   the strategies `run` and `compare` take without --alloc
 * @default_sweep: the strategy `sweep` takes without --alloc (one that
 *         takes a node)
 */
struct ab_backend {
	const char *name;
	const char *desc;
	unsigned int flags;
	const char *default_run;
	const char *default_sweep;
	int (*probe)(char *why, size_t len);
	int (*info)(struct ab_backend_info *out, char *why, size_t len);
	int (*run)(struct ab_run *run, char *why, size_t len);
	int (*lookup)(struct ab_lookup *l, char *why, size_t len);
	int (*condition)(struct ab_condition *c, char *why, size_t len);
	int (*unavailable)(char *buf, size_t len);
};

/*
 * ab_backend.flags: the allocations run in the kernel, in a module whose
 * version, ABI, limits and kernel facts struct ab_info reports (otherwise
 * they run in this process, and those fields describe the backend itself).
 */
#define AB_BACKEND_MODULE (1U << 0)
/* ab_backend.flags: AB_RUN_REMOTE_FREE works (frees on another CPU). */
#define AB_BACKEND_REMOTE_FREE (1U << 1)

extern const struct ab_backend ab_backend_kmod;
extern const struct ab_backend ab_backend_user;

/*
 * ab_stop_requested - set (to the signal number) by the CLI's SIGINT and
 * SIGTERM handler; a backend working in this process stops between trials
 * and returns -EINTR. (The module sees the pending signal itself.)
 * Defined in stop.c.
 */
extern volatile sig_atomic_t ab_stop_requested;

/* ab_backend_find - backend named @name (NULL: the default, the first of
 * the table), or NULL. */
const struct ab_backend *ab_backend_find(const char *name);

/* ab_backend_names - the backends' names, "kmod, user", for messages. */
const char *ab_backend_names(void);

/* ab_backend_nth - the @i-th backend of the table, NULL past the end. */
const struct ab_backend *ab_backend_nth(unsigned int i);

/* ab_strategy_find - strategy named @name in @bi, or NULL. */
const struct ab_strategy_info *
ab_strategy_find(const struct ab_backend_info *bi, const char *name);

/* ab_strategy_baseline - the AB_STRATEGY_BASELINE strategy of @bi, or NULL. */
const struct ab_strategy_info *
ab_strategy_baseline(const struct ab_backend_info *bi);

#endif
