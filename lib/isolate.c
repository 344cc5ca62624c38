// SPDX-License-Identifier: GPL-2.0-only
/*
 * isolate.c - a temporary exclusive cpuset through libcpuset (see
 * isolate.h). Kept apart from libnuma's users: both libraries define a
 * struct bitmask. libcpuset needs the legacy cpuset file system at
 * /dev/cpuset (mount -t cpuset none /dev/cpuset, or cgroup v1 with -o
 * cpuset,noprefix); on cgroup v2 its calls fail with ENODEV.
 */
#include <bitmask.h>
#include <dirent.h>
#include <signal.h>
#include <cpuset.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "isolate.h"

static char path[64];

static int cpuset_fs_mounted(void)
{
	char line[512], dev[128], dir[256], type[64], opts[256];
	FILE *f = fopen("/proc/mounts", "r");
	int found = 0;

	if (!f)
		return 0;
	/* "-t cpuset" shows as a cgroup v1 mount with the cpuset option */
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "%127s %255s %63s %255s", dev, dir, type,
			   opts) == 4 &&
		    !strcmp(dir, "/dev/cpuset") &&
		    (!strcmp(type, "cpuset") ||
		     (!strcmp(type, "cgroup") && strstr(opts, "cpuset"))))
			found = 1;
	fclose(f);
	return found;
}

/*
 * Removes the cpusets of earlier runs that were killed before they could
 * remove their own (SIGKILL): /allocbench-PID whose PID is gone. They are
 * empty, and while they stay their CPUs cannot be exclusive again.
 */
static void remove_stale(void)
{
	char stale[300];
	struct dirent *d;
	DIR *dir = opendir("/dev/cpuset");
	int pid;

	if (!dir)
		return;
	while ((d = readdir(dir))) {
		if (sscanf(d->d_name, "allocbench-%d", &pid) != 1 ||
		    (kill(pid, 0) && errno != ESRCH) || !kill(pid, 0))
			continue;
		snprintf(stale, sizeof(stale), "/%s", d->d_name);
		if (!cpuset_delete(stale))
			fprintf(stderr,
				"allocbench: removed the cpuset %s left by a run that was killed\n",
				stale);
	}
	closedir(dir);
}

const char *ab_isolate_path(void)
{
	return path;
}

void ab_isolate_end(void)
{
	if (!path[0])
		return;
	cpuset_move(0, "/");
	cpuset_delete(path);
	path[0] = '\0';
}

int ab_isolate_start(const int *cpus, int n, char *err, size_t len)
{
	struct bitmask *cb = NULL, *mb = NULL;
	struct cpuset *cp = NULL, *root = NULL;
	long ncpu = sysconf(_SC_NPROCESSORS_CONF);
	int i, ret = 0;

	if (!cpuset_fs_mounted()) {
		snprintf(
			err, len,
			"--isolate: needs the legacy cpuset file system at /dev/cpuset (mount -t cpuset none /dev/cpuset)%s",
			access("/sys/fs/cgroup/cgroup.controllers", F_OK)
				? ""
				: "; this machine uses cgroup v2, where libcpuset cannot work");
		return -ENODEV;
	}
	remove_stale();
	snprintf(path, sizeof(path), "/allocbench-%d", (int)getpid());
	cp = cpuset_alloc();
	root = cpuset_alloc();
	cb = bitmask_alloc((unsigned int)ncpu);
	mb = bitmask_alloc(1024);
	if (!cp || !root || !cb || !mb) {
		ret = -ENOMEM;
		goto out;
	}
	for (i = 0; i < n; i++)
		bitmask_setbit(cb, (unsigned int)cpus[i]);
	if (cpuset_query(root, "/") || cpuset_getmems(root, mb) ||
	    cpuset_setcpus(cp, cb) || cpuset_setmems(cp, mb) ||
	    cpuset_set_iopt(cp, "cpu_exclusive", 1) ||
	    cpuset_create(path, cp)) {
		ret = -errno;
		snprintf(err, len, "--isolate: cannot create the cpuset %s: %s",
			 path, strerror(errno));
		path[0] = '\0';
		goto out;
	}
	if (cpuset_move(0, path)) {
		ret = -errno;
		snprintf(err, len, "--isolate: cannot move into %s: %s", path,
			 strerror(errno));
		cpuset_delete(path);
		path[0] = '\0';
		goto out;
	}
	atexit(ab_isolate_end);
out:
	if (ret == -ENOMEM)
		snprintf(err, len, "--isolate: out of memory");
	bitmask_free(cb);
	bitmask_free(mb);
	cpuset_free(cp);
	cpuset_free(root);
	return ret;
}
