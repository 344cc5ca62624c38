// SPDX-License-Identifier: GPL-2.0-only
/*
 * memcg.c - --memcg (see memcg.h): a memory cgroup to run in, made and
 * removed through cgroup v2's interface files (cgroup2.h; the kernel's
 * Documentation/admin-guide/cgroup-v2.rst, "Memory Interface Files").
 *
 * A cgroup made for the run sits right under the cgroup v2 root: cgroup
 * v2's "no internal process" rule keeps a cgroup that holds processes
 * (this shell's) from enabling memory for a child, so a child of this
 * process's own cgroup could not have the controller. Moving a process
 * moves none of its earlier charges (cgroup v2 has no
 * move_charge_at_immigrate): the cgroup's figures start near zero and are
 * what the run charged after the move.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cgroup2.h"
#include "isolate.h"
#include "kfile.h"
#include "memcg.h"

#define WHO    "--memcg"
#define PREFIX "allocbench-memcg-"
/* a run's cgroup name ends so when it turned the memory controller on */
#define ON_SUFFIX "-on"

static struct {
	int mode;
	char path[PATH_MAX];
	char root[PATH_MAX];
	char home[PATH_MAX];
	int enabled, made, moved;
} mc;

static const char *const mode_names[AB_MEMCG_NR] = {
	[AB_MEMCG_NONE] = "",
	[AB_MEMCG_NEW] = "new",
	[AB_MEMCG_SELF] = "self",
};

const char *ab_memcg_mode_name(int mode)
{
	return mode >= 0 && mode < AB_MEMCG_NR ? mode_names[mode] : "?";
}

int ab_memcg_parse(const char *arg, int *mode, char *err, size_t len)
{
	int i;

	for (i = AB_MEMCG_NEW; i < AB_MEMCG_NR; i++) {
		if (!strcmp(arg, mode_names[i])) {
			*mode = i;
			return 0;
		}
	}
	snprintf(
		err, len,
		"--memcg=%s: unknown memory cgroup choice (allowed: new, a cgroup made for the run; self, the cgroup this process is in)",
		arg);
	return -EINVAL;
}

const char *ab_memcg_path(void)
{
	return mc.mode ? mc.path : "";
}

int ab_memcg_mode(void)
{
	return mc.mode;
}

/*
 * own_dir - this process's cgroup directory into @dir (PATH_MAX bytes),
 * and whether it is the root (1) or not (0); -errno.
 */
static int own_dir(char *dir)
{
	char path[PATH_MAX];
	int ret = ab_cgroup_v2_path(path, sizeof(path));
	const char *rel = path + (path[0] == '/');

	if (ret)
		return ret;
	if (!*rel) {
		snprintf(dir, PATH_MAX, "%s", mc.root);
		return 1;
	}
	return ab_cg_path_join(dir, mc.root, rel);
}

/*
 * remove_stale - rmdir the cgroups allocbench-memcg-PID[-on] under the
 * root whose PID is gone (a run killed with SIGKILL): one line on stderr
 * each. *@on (when not NULL) is set when one of them ends in ON_SUFFIX:
 * its run had turned the memory controller on in the root's
 * subtree_control, and never turned it off. Returns how many other live
 * runs have one.
 */
static int remove_stale(int *on)
{
	char p[PATH_MAX], task[32];
	struct dirent *d;
	DIR *dp = opendir(mc.root);
	int pid, n, live = 0;

	if (!dp)
		return 0;
	while ((d = readdir(dp))) {
		n = 0;
		if (sscanf(d->d_name, PREFIX "%d%n", &pid, &n) != 1 ||
		    pid == (int)getpid())
			continue;
		if (pid > 0 && (!kill(pid, 0) || errno != ESRCH)) {
			live++;
			continue;
		}
		/* a task in it (or no answer): a live run's, or it stays */
		if (ab_cg_path_join(p, mc.root, d->d_name) ||
		    ab_kfile_line(task, sizeof(task), "%s/cgroup.procs", p) ||
		    rmdir(p)) {
			live++;
			continue;
		}
		fprintf(stderr,
			"allocbench: removed the memory cgroup %s left by a run that was killed\n",
			p);
		if (on && !strcmp(d->d_name + n, ON_SUFFIX))
			*on = 1;
	}
	closedir(dp);
	return live;
}

void ab_memcg_end(void)
{
	char err[PATH_MAX + 128], pid[32];

	if (mc.mode != AB_MEMCG_NEW)
		goto out;
	snprintf(pid, sizeof(pid), "%d", (int)getpid());
	if (mc.moved &&
	    ab_cg_put(WHO, mc.home, "cgroup.procs", pid, err, sizeof(err))) {
		fprintf(stderr, "allocbench: %s\n", err);
		if (ab_cg_put(WHO, mc.root, "cgroup.procs", pid, err,
			      sizeof(err)))
			fprintf(stderr, "allocbench: %s\n", err);
	}
	/* charges still held (none should be) are reparented by the kernel */
	if (mc.made && rmdir(mc.path) && errno != ENOENT)
		fprintf(stderr,
			"allocbench: --memcg: cannot remove the cgroup %s: %s\n",
			mc.path, strerror(errno));
	if (mc.enabled && !remove_stale(NULL) &&
	    ab_cg_put(WHO, mc.root, "cgroup.subtree_control", "-memory", err,
		      sizeof(err)))
		fprintf(stderr, "allocbench: %s\n", err);
out:
	memset(&mc, 0, sizeof(mc));
}

/* the sentence for a missing cgroup v2 or memory controller; -ENODEV */
static int no_memcg(int v2, const char *ctl, char *err, size_t len)
{
	if (!v2)
		snprintf(
			err, len,
			"--memcg: needs a cgroup v2 with the memory controller to charge the run to, and no cgroup v2 is mounted (mount -t cgroup2 none /sys/fs/cgroup)");
	else
		snprintf(
			err, len,
			"--memcg: needs the memory controller, and the cgroup v2 at %s has none (cgroup.controllers: \"%s\"; the kernel's cgroup_disable=memory, or a legacy hierarchy, may hold it)",
			mc.root, ctl);
	return -ENODEV;
}

static int start_self(char *err, size_t len)
{
	char file[PATH_MAX];
	int ret = own_dir(mc.path);

	if (ret < 0) {
		snprintf(
			err, len,
			"--memcg=self: cannot find this process's cgroup v2 in /proc/self/cgroup: %s",
			strerror(-ret));
		return ret;
	}
	if (ret == 1) {
		snprintf(
			err, len,
			"--memcg=self: this process is in the root cgroup (%s), where nothing is charged; use --memcg=new, or start allocbench in a child cgroup",
			mc.root);
		return -EPERM;
	}
	if (ab_cg_path_join(file, mc.path, "memory.current") ||
	    access(file, R_OK)) {
		snprintf(
			err, len,
			"--memcg=self: the cgroup %s has no memory controller (no memory.current: its parent's cgroup.subtree_control lacks memory)",
			mc.path);
		return -ENODEV;
	}
	mc.mode = AB_MEMCG_SELF;
	return 0;
}

static int start_new(char *err, size_t len)
{
	char val[1024], pid[32];
	int ret = own_dir(mc.home), live, on = 0;

	if (ret < 0) {
		snprintf(
			err, len,
			"--memcg=new: cannot find this process's cgroup v2 in /proc/self/cgroup: %s",
			strerror(-ret));
		return ret;
	}
	live = remove_stale(&on);
	mc.mode = AB_MEMCG_NEW;
	ret = ab_cg_get(WHO, mc.root, "cgroup.subtree_control", val,
			sizeof(val), err, len);
	if (!ret && !ab_cg_has_word(val, "memory", " ")) {
		ret = ab_cg_put(WHO, mc.root, "cgroup.subtree_control",
				"+memory", err, len);
		mc.enabled = !ret;
	} else if (!ret && on && !live) {
		/* a killed run turned it on: this one turns it off after */
		mc.enabled = 1;
	}
	snprintf(pid, sizeof(pid), "%d", (int)getpid());
	snprintf(val, sizeof(val), PREFIX "%s%s", pid,
		 mc.enabled ? ON_SUFFIX : "");
	if (!ret && ab_cg_path_join(mc.path, mc.root, val)) {
		snprintf(err, len, "--memcg: %s/%s: name too long", mc.root,
			 val);
		ret = -ENAMETOOLONG;
	}
	if (!ret && mkdir(mc.path, 0755)) {
		ret = -errno;
		snprintf(err, len, "--memcg: cannot create the cgroup %s: %s",
			 mc.path, strerror(errno));
	}
	mc.made = !ret;
	if (!ret)
		ret = ab_cg_put(WHO, mc.path, "cgroup.procs", pid, err, len);
	mc.moved = !ret;
	if (ret)
		ab_memcg_end();
	return ret;
}

int ab_memcg_start(int mode, char *err, size_t len)
{
	static int registered;
	char ctl[1024] = "";
	int v2;

	if (mc.mode) {
		snprintf(err, len, "--memcg: already in the cgroup %s",
			 mc.path);
		return -EBUSY;
	}
	if (!registered && !atexit(ab_memcg_end))
		registered = 1;
	v2 = ab_cg_find_mount(NULL, "cgroup2", NULL, mc.root, sizeof(mc.root));
	if (v2)
		ab_cg_get(WHO, mc.root, "cgroup.controllers", ctl, sizeof(ctl),
			  NULL, 0);
	if (!v2 || !ab_cg_has_word(ctl, "memory", " "))
		return no_memcg(v2, ctl, err, len);
	return mode == AB_MEMCG_SELF ? start_self(err, len)
				     : start_new(err, len);
}

/* stat_field - "@key N" of @dir/memory.stat into *@v; 0 or -errno */
static int stat_field(const char *dir, const char *key, uint64_t *v)
{
	char line[256];
	size_t n = strlen(key);
	FILE *f = ab_kfile_open("%s/memory.stat", dir);
	int ret = -ENODATA;

	if (!f)
		return -errno;
	while (ret && fgets(line, sizeof(line), f))
		if (!strncmp(line, key, n) && line[n] == ' ')
			ret = sscanf(line + n, "%" SCNu64, v) == 1 ? 0
								   : -EINVAL;
	fclose(f);
	return ret;
}

int ab_memcg_read(struct ab_memcg_stat *st)
{
	int ret;

	if (!mc.mode)
		return -ENOENT;
	ret = ab_kfile_u64(&st->current, "%s/memory.current", mc.path);
	if (!ret)
		ret = stat_field(mc.path, "slab", &st->slab);
	if (ret)
		return ret;
	if (stat_field(mc.path, "kernel", &st->kernel))
		st->kernel = UINT64_MAX;
	if (ab_kfile_u64(&st->peak, "%s/memory.peak", mc.path))
		st->peak = UINT64_MAX;
	return 0;
}
