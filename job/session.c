// SPDX-License-Identifier: GPL-2.0-only
/* session.c - a command's timing session (see session.h). */
#define _GNU_SOURCE
#include <errno.h>
#include <sched.h>
#include <string.h>

#include "placement.h"
#include "session.h"

void ab_session_init(struct ab_session *s)
{
	memset(s, 0, sizeof(*s));
	s->cpu = -1;
	s->counters.hw_leader = s->counters.sw_leader = -1;
}

int ab_pin(int cpu)
{
	cpu_set_t one;

	CPU_ZERO(&one);
	CPU_SET(cpu, &one);
	if (sched_setaffinity(0, sizeof(one), &one)) {
		ab_err("cannot pin to CPU %d: %s", cpu, strerror(errno));
		return AB_EXIT_RUN;
	}
	return AB_EXIT_OK;
}

int ab_session_pin(struct ab_session *s, const char *cpu_arg)
{
	int cpus[AB_MAX_PLACES], n;
	char err[AB_ERRLEN];

	if (cpu_arg) {
		n = ab_parse_cpus("cpu", cpu_arg, cpus, AB_MAX_PLACES, err,
				  sizeof(err));
		if (n < 0) {
			ab_err("%s", err);
			return AB_EXIT_USAGE;
		}
		if (n > 1) {
			ab_err("--cpu=%s: one CPU, please", cpu_arg);
			return AB_EXIT_USAGE;
		}
		s->cpu = cpus[0];
	} else {
		n = sched_getcpu();
		s->cpu = n >= 0 ? n : 0;
	}
	return ab_pin(s->cpu);
}

json_object *ab_session_json_module(const struct ab_session *s)
{
	json_object *mod = json_object_new_object();

	json_object_object_add(mod, "backend",
			       json_object_new_string(s->be->name));
	json_object_object_add(mod, "version",
			       json_object_new_string(s->bi.info.version));
	json_object_object_add(mod, "abi",
			       json_object_new_int64(s->bi.info.abi_version));
	return mod;
}

void ab_session_close(struct ab_session *s)
{
	ab_counters_close(&s->counters);
}
