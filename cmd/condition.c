// SPDX-License-Identifier: GPL-2.0-only
/*
 * condition.c - a row's memory condition and background load (see
 * condition.h): the module builds and undoes the condition
 * (AB_IOC_CONDITION, kmod/condition.c), the node's state around it is
 * read from the kernel's own files (lib/memstate.c), and the load is a
 * `sh -c` in a process group of its own, stopped with SIGTERM (then
 * SIGKILL) when the trials end.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "condition.h"
#include "job.h"

static void read_mem(struct ab_cond_result *c, enum ab_cond_when when)
{
	if (c->node >= 0 && !ab_memstate_read(&c->mem[when], c->node, ""))
		c->have_mem |= 1U << when;
}

const struct ab_zonestate *ab_cond_zone(const struct ab_cond_result *c,
					enum ab_cond_when when)
{
	if (!(c->have_mem & (1U << when)) || !c->built.zone[0])
		return NULL;
	return ab_memstate_zone(&c->mem[when], c->built.zone);
}

/* The load: sh -c CMD, its output to /dev/null, its errors kept. */
static int start_background(struct ab_cond_result *c, char *why, size_t len)
{
	pid_t pid = fork();
	int fd;

	if (pid < 0) {
		snprintf(why, len, "--background: cannot start it: %s",
			 strerror(errno));
		return -errno;
	}
	if (!pid) {
		setpgid(0, 0);
		/* a CLI killed outright leaves no load behind it */
		prctl(PR_SET_PDEATHSIG, SIGTERM);
		fd = open("/dev/null", O_RDWR | O_CLOEXEC);
		if (fd >= 0) {
			dup2(fd, STDIN_FILENO);
			dup2(fd, STDOUT_FILENO);
		}
		execl("/bin/sh", "sh", "-c", c->background, (char *)NULL);
		_exit(127);
	}
	setpgid(pid, pid);
	c->bg_pid = pid;
	return 0;
}

static void stop_background(struct ab_cond_result *c)
{
	struct timespec ts = { 0, 10 * 1000 * 1000 };
	int i, st;

	if (c->bg_pid <= 0)
		return;
	if (waitpid(c->bg_pid, &st, WNOHANG) == c->bg_pid) {
		c->bg_ended_early = 1;
		c->bg_status = st;
		killpg(c->bg_pid, SIGTERM); /* what it left running */
		c->bg_pid = 0;
		return;
	}
	killpg(c->bg_pid, SIGTERM);
	/* up to 2 s for it to go, then SIGKILL */
	for (i = 0; i < 200; i++) {
		if (waitpid(c->bg_pid, &st, WNOHANG) == c->bg_pid)
			break;
		nanosleep(&ts, NULL);
	}
	if (i == 200) {
		killpg(c->bg_pid, SIGKILL);
		waitpid(c->bg_pid, &st, 0);
	}
	c->bg_pid = 0;
}

int ab_cond_begin(struct ab_job *job, struct ab_row *r, char *why, size_t len)
{
	const struct ab_backend *b = job->ses.be;
	struct ab_cond_result *c = r->cond;
	int err;

	if (!c) {
		c = calloc(1, sizeof(*c));
		if (!c) {
			snprintf(why, len, "out of memory");
			return -ENOMEM;
		}
		r->cond = c;
	}
	memset(c, 0, sizeof(*c));
	c->kinds = job->o.condition;
	c->frag_order = job->o.frag_order;
	c->background = job->o.background;
	c->node = -1;
	if (c->kinds & (AB_COND_FRAGMENTED | AB_COND_PRESSURE))
		c->node = r->run.node >= 0 ? r->run.node : job->cpu_node;
	ab_mm_settings_read(&c->settings, "");
	read_mem(c, AB_AT_BEFORE);
	if (c->kinds) {
		if (!b->condition) {
			snprintf(
				why, len,
				"--condition=%s: the %s backend cannot build memory conditions (the kmod backend can)",
				ab_condition_name(c->kinds, (char[64]){ 0 },
						  64),
				b->name);
			return -EINVAL;
		}
		c->built.op = AB_COND_BUILD;
		c->built.kinds = c->kinds;
		c->built.node = c->node;
		c->built.frag_order =
			c->kinds & AB_COND_FRAGMENTED ? c->frag_order : 0;
		err = b->condition(&c->built, why, len);
		if (err)
			return err;
		/* every trial meets the state: restored before each */
		if ((c->kinds & (AB_COND_FRAGMENTED | AB_COND_PRESSURE)) &&
		    (job->ses.bi.info.run_flags & AB_RUN_COND_EACH_TRIAL))
			r->run.flags |= AB_RUN_COND_EACH_TRIAL;
	}
	read_mem(c, AB_AT_BUILT);
	ab_vmstat_read(&c->vm[0], "");
	if (c->background) {
		err = start_background(c, why, len);
		if (err) {
			ab_cond_end(job, r);
			return err;
		}
	}
	return 0;
}

void ab_cond_timed(struct ab_row *r)
{
	struct ab_cond_result *c = r->cond;

	if (!c || c->timed)
		return;
	c->timed = 1;
	ab_vmstat_read(&c->vm[1], "");
	read_mem(c, AB_AT_TRIALS);
}

void ab_cond_trials(const struct ab_row *r, uint64_t *met, uint64_t *ok)
{
	uint32_t per = ab_run_samples_per_trial(&r->run, r->si->flags);
	uint64_t t, n = r->smp && per ? r->nr_smp / per : 0;
	uint32_t i, f;

	*met = 0;
	*ok = 0;
	for (t = 0; t < n; t++) {
		const struct ab_sample *s = &r->smp[t * per];

		if (s->flags & AB_SAMPLE_COND_UNMET)
			continue;
		for (f = 0, i = 0; i < per; i++)
			f |= s[i].flags;
		(*met)++;
		*ok += !(f & AB_SAMPLE_FAILED);
	}
}

void ab_cond_end(struct ab_job *job, struct ab_row *r)
{
	const struct ab_backend *b = job->ses.be;
	struct ab_cond_result *c = r->cond;
	char why[AB_ERRLEN];

	if (!c)
		return;
	stop_background(c);
	ab_cond_timed(r);
	if (c->kinds && b->condition) {
		c->undo.op = AB_COND_UNDO;
		c->undo.node = -1;
		if (b->condition(&c->undo, why, sizeof(why)))
			ab_err("--condition: %s (closing the device undoes it)",
			       why);
		else
			c->undone = 1;
	}
	read_mem(c, AB_AT_UNDONE);
}
