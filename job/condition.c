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
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "condition.h"
#include "job.h"
#include "placement.h"

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
	static const int caught[] = { SIGINT, SIGTERM, SIGHUP };
	sigset_t block, old;
	unsigned int i;
	pid_t pid;
	int fd, e;

	/*
	 * The CLI's handlers (ab_catch_signals()) only note a signal: until
	 * the load has its own defaults, a stop's SIGTERM is held, not lost
	 * in an inherited handler (a load stopped before its exec ran on)
	 */
	sigemptyset(&block);
	for (i = 0; i < sizeof(caught) / sizeof(caught[0]); i++)
		sigaddset(&block, caught[i]);
	sigprocmask(SIG_BLOCK, &block, &old);
	pid = fork();
	e = errno;
	if (pid) {
		sigprocmask(SIG_SETMASK, &old, NULL);
	} else {
		for (i = 0; i < sizeof(caught) / sizeof(caught[0]); i++)
			signal(caught[i], SIG_DFL);
		sigprocmask(SIG_SETMASK, &old, NULL);
	}
	if (pid < 0) {
		snprintf(why, len, "--background: cannot start it: %s",
			 strerror(e));
		return -e;
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

extern char **environ;

/* The exit status of /bin/sh with @args (after "sh"), its output to
 * /dev/null; -1 when it cannot be run. */
static int sh_status(const char *a1, const char *a2, const char *a3,
		     const char *a4)
{
	char *const argv[] = { "sh",	   (char *)a1, (char *)a2,
			       (char *)a3, (char *)a4, NULL };
	posix_spawn_file_actions_t fa;
	pid_t pid;
	int st, err;

	if (posix_spawn_file_actions_init(&fa))
		return -1;
	posix_spawn_file_actions_addopen(&fa, STDIN_FILENO, "/dev/null",
					 O_RDONLY, 0);
	posix_spawn_file_actions_addopen(&fa, STDOUT_FILENO, "/dev/null",
					 O_WRONLY, 0);
	posix_spawn_file_actions_addopen(&fa, STDERR_FILENO, "/dev/null",
					 O_WRONLY, 0);
	err = posix_spawn(&pid, "/bin/sh", &fa, NULL, argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	if (err)
		return -1;
	while (waitpid(pid, &st, 0) < 0)
		if (errno != EINTR)
			return -1;
	return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

/*
 * The command shell command @cmd runs first, into @w (@len bytes), when
 * the words say it: a plain name or path after any NAME=value
 * assignments. 0 when the shell's grammar decides (a keyword, quoting, an
 * expansion, a redirection or a subshell first): only its syntax is then
 * checked.
 */
static int first_command(const char *cmd, char *w, size_t len)
{
	static const char *const keywords[] = {
		"if",	"then", "else",	 "elif",     "fi",     "do",   "done",
		"case", "esac", "while", "until",    "for",    "in",   "!",
		"{",	"}",	"[[",	 "function", "select", "time", NULL
	};
	size_t n, name;
	int i;

	for (;;) {
		cmd += strspn(cmd, " \t\n");
		n = strcspn(cmd, " \t\n;&|<>()");
		if (!n || n >= len || cmd[n] == '<' || cmd[n] == '>' ||
		    cmd[n] == '(' || *cmd == '-')
			return 0;
		memcpy(w, cmd, n);
		w[n] = '\0';
		cmd += n;
		name = strspn(
			w,
			"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz_0123456789");
		if (strpbrk(w, "'\"\\$`*?[]{}~#"))
			return 0;
		/* NAME=value: an assignment, not the command */
		if (name && w[name] == '=' && (*w < '0' || *w > '9'))
			continue;
		if (strchr(w, '='))
			return 0;
		for (i = 0; keywords[i]; i++)
			if (!strcmp(w, keywords[i]))
				return 0;
		return 1;
	}
}

/*
 * Whether --background @cmd can start: sh -n finds no syntax error, and
 * the command it runs first (first_command()) exists and can be executed.
 * 0, or -1 with the reason in @why.
 */
static int background_startable(const char *cmd, char *why, size_t len)
{
	char w[128];
	struct stat st;

	if (sh_status("-n", "-c", cmd, NULL)) {
		snprintf(why, len, "sh -n finds a syntax error in it");
		return -1;
	}
	if (!first_command(cmd, w, sizeof(w)))
		return 0;
	if (strchr(w, '/')) {
		if (stat(w, &st))
			snprintf(why, len, "%s: %s", w, strerror(errno));
		else if (S_ISDIR(st.st_mode))
			snprintf(why, len, "%s: a directory, not a program", w);
		else if (access(w, X_OK))
			snprintf(why, len, "%s: not executable: %s", w,
				 strerror(errno));
		else
			return 0;
		return -1;
	}
	if (sh_status("-c", "command -v \"$1\"", "sh", w)) {
		snprintf(
			why, len,
			"%s: not found (no shell builtin, nor a program in PATH)",
			w);
		return -1;
	}
	return 0;
}

/*
 * The node a row's fragmented or pressure condition is built on: its
 * --node, else the node of the CPU it runs on (its own, a sweep cell's, or
 * the job's, as placed).
 */
static int cond_node(const struct ab_job *job, const struct ab_row *r)
{
	if (r->run.node >= 0)
		return r->run.node;
	return r->cpu >= 0 ? ab_cpu_node(r->cpu) : job->cpu_node;
}

/*
 * A row whose condition would be built on a node without memory (a CPU-only
 * node: the module refuses it, and the run's memory comes from elsewhere):
 * AB_EXIT_USAGE after one line naming the CPU, its node and the nodes with
 * memory.
 */
static int check_cond_nodes(const struct ab_job *job, const char *name)
{
	int nodes[AB_MAX_PLACES], n, i, node;
	char list[256];

	if (!(job->run_opts.condition &
	      (AB_COND_FRAGMENTED | AB_COND_PRESSURE)))
		return AB_EXIT_OK;
	for (i = 0; i < job->nrows; i++) {
		const struct ab_row *r = &job->rows[i];

		if (r->si->flags & AB_STRATEGY_BASELINE)
			continue;
		node = cond_node(job, r);
		if (ab_node_has_memory(node))
			continue;
		n = ab_memory_nodes(nodes, AB_MAX_PLACES);
		ab_format_list(nodes, n, list, sizeof(list));
		ab_err("--condition=%s: CPU %d is on node %d, which has no memory (a CPU-only node), and the condition is built on the node of the run's CPU; run on a CPU of a node with memory (%s), or give a *_node strategy --node=N of those",
		       name, r->cpu >= 0 ? r->cpu : job->session.cpu, node,
		       list);
		return AB_EXIT_USAGE;
	}
	return AB_EXIT_OK;
}

int ab_cond_check(const struct ab_job *job)
{
	const char *cmd = job->run_opts.background;
	char name[64], why[AB_ERRLEN];
	int i, allocating = 0;

	if (!job->run_opts.condition && !cmd)
		return AB_EXIT_OK;
	ab_condition_name(job->run_opts.condition, name, sizeof(name));
	if (job->run_opts.condition && !job->session.be->condition) {
		ab_err("--condition=%s: the %s backend cannot build memory conditions (the kmod backend can)",
		       name, job->session.be->name);
		return AB_EXIT_USAGE;
	}
	if (job->concurrent) {
		ab_err("--%s: not with --concurrent (one condition exists at a time, built for one row's trials)",
		       job->run_opts.condition ? "condition" : "background");
		return AB_EXIT_USAGE;
	}
	/* the baseline's rows meet neither (runner.c) */
	for (i = 0; i < job->nrows; i++)
		allocating |= !(job->rows[i].si->flags & AB_STRATEGY_BASELINE);
	if (!allocating) {
		ab_err("--%s%s%s: %s allocates nothing, and no row of it would %s; add a strategy that allocates (`allocbench list`)",
		       job->run_opts.condition ? "condition=" : "background",
		       job->run_opts.condition ? name : "",
		       job->run_opts.condition && cmd ? " --background" : "",
		       job->nrows ? job->rows[0].si->name : "the baseline",
		       job->run_opts.condition ? "meet the condition"
					       : "run beside the load");
		return AB_EXIT_USAGE;
	}
	if (check_cond_nodes(job, name))
		return AB_EXIT_USAGE;
	if (cmd && background_startable(cmd, why, sizeof(why))) {
		ab_err("--background='%s': %s; give a command sh -c can start",
		       cmd, why);
		return AB_EXIT_USAGE;
	}
	return AB_EXIT_OK;
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
	c->bg_status = st;
	c->bg_pid = 0;
}

int ab_cond_begin(struct ab_job *job, struct ab_row *r, char *why, size_t len)
{
	const struct ab_backend *b = job->session.be;
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
	c->kinds = job->run_opts.condition;
	c->frag_order = job->run_opts.frag_order;
	c->background = job->run_opts.background;
	c->node = -1;
	if (c->kinds & (AB_COND_FRAGMENTED | AB_COND_PRESSURE))
		c->node = cond_node(job, r);
	ab_mm_settings_read(&c->settings, "");
	read_mem(c, AB_AT_BEFORE);
	if (c->kinds) {
		/* ab_cond_check() refused it before anything ran */
		if (!b->condition) {
			snprintf(why, len, "the %s backend builds no condition",
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
		    (job->session.bi.info.run_flags & AB_RUN_COND_EACH_TRIAL))
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
	const struct ab_backend *b = job->session.be;
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
