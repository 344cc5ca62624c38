// SPDX-License-Identifier: GPL-2.0-only
/*
 * fuzz_watchdog.c - the watchdog thread of a storm: past --deadline it
 * tells the step, the seed and every task's kernel stack, kills the
 * children and ends the process.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <time.h>
#include <unistd.h>
#include "fuzz.h"

/*
 * The watchdog: a storm that is not done after --deadline seconds (a hang
 * once seen on 6.12, not reproduced on demand) prints the step it was in,
 * the seed and every task's kernel stack (/proc/PID/task/TID/stack, and
 * sysrq-w's blocked tasks in the kernel log), kills the children and ends
 * the process, instead of using up the boot's own timeout.
 */
const char *volatile step = "start";
unsigned int deadline_s = 300;
uint64_t wd_seed;

static void print_stacks(pid_t pid)
{
	char path[320], line[256];
	struct dirent *d;
	DIR *dir;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/task", (int)pid);
	dir = opendir(path);
	if (!dir)
		return;
	while ((d = readdir(dir))) {
		if (d->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "/proc/%d/task/%s/stack", (int)pid,
			 d->d_name);
		printf("#   task %d/%s:\n", (int)pid, d->d_name);
		f = fopen(path, "r");
		while (f && fgets(line, sizeof(line), f))
			printf("#     %s", line);
		if (f)
			fclose(f);
	}
	closedir(dir);
}

void *watchdog(void *arg)
{
	struct kids *k = arg;
	struct timespec ts = { .tv_sec = deadline_s };
	unsigned int i;
	int fd;

	while (clock_nanosleep(CLOCK_MONOTONIC, 0, &ts, &ts) == EINTR)
		;
	printf("not ok - fuzz: not done after %u s (--deadline), in step '%s': /ab/fuzz --seed=%" PRIu64
	       "\n",
	       deadline_s, step, wd_seed);
	print_stacks(getpid());
	for (i = 0; i < k->n; i++)
		if (k->pid[i] > 0)
			print_stacks(k->pid[i]);
	fd = open("/proc/sysrq-trigger", O_WRONLY);
	if (fd >= 0) {
		if (write(fd, "w", 1) < 0)
			perror("fuzz: sysrq-trigger");
		close(fd);
	}
	fflush(stdout);
	for (i = 0; i < k->n; i++)
		if (k->pid[i] > 0)
			kill(k->pid[i], SIGKILL);
	_exit(1);
	return NULL;
}
