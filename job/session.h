/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * session.h - what every command that times something holds while it
 * runs: the backend and what it offers, the CPU it is pinned to, the
 * environment it captured and the counters it opened. A run's job
 * (runner.h) embeds one; `lookup` has only this.
 */
#ifndef AB_SESSION_H
#define AB_SESSION_H

#include <json-c/json.h>

#include "allocbench.h"
#include "counters.h"
#include "env.h"

/**
 * struct ab_session - one command's timing session
 * @be, @bi:  the backend and what it offers
 * @env:      the captured environment
 * @counters: the counters opened for --events (none: n == 0)
 * @cpu:      the CPU the calling thread is pinned to, -1 before
 */
struct ab_session {
	const struct ab_backend *be;
	struct ab_backend_info bi;
	struct ab_env env;
	struct ab_counters counters;
	int cpu;
};

/* ab_session_init - nothing open, no CPU. */
void ab_session_init(struct ab_session *s);

/* ab_pin - pin the calling thread to @cpu: 0 or an exit status. */
int ab_pin(int cpu);

/*
 * ab_session_pin - pin to the one CPU of @cpu_arg (numactl syntax), or
 * without it to the CPU the thread is on. Returns an exit status.
 */
int ab_session_pin(struct ab_session *s, const char *cpu_arg);

/*
 * ab_session_json_module - the "module" object of a result: the backend,
 * its version and ABI.
 */
json_object *ab_session_json_module(const struct ab_session *s);

/* ab_session_close - close the counters. */
void ab_session_close(struct ab_session *s);

#endif
