// SPDX-License-Identifier: GPL-2.0-only
/*
 * isolate.c - --isolate (see isolate.h), one of two ways chosen at run time.
 *
 * Legacy cpuset file system mounted at /dev/cpuset: libcpuset, which works
 * only there (on cgroup v2 its calls fail with ENODEV). This file is kept
 * apart from libnuma's users: both libraries define a struct bitmask.
 *
 * cgroup v2: plain reads and writes of the cgroup v2 interface files, as
 * the kernel's Documentation/admin-guide/cgroup-v2.rst describes them
 * ("Controlling Controllers" for cgroup.subtree_control, "Cpuset Interface
 * Files" for cpuset.cpus, cpuset.mems and cpuset.cpus.partition). Not
 * libcgroup: Debian 12's (2.0.2) has no call for cpuset partitions and
 * known bugs on cgroup v2, while these files are the kernel's own stable
 * interface.
 *
 * Where the two meet: a controller enabled in a cgroup v2
 * cgroup.subtree_control cannot be mounted as a v1 hierarchy (mount -t
 * cpuset then fails with EBUSY), so the v2 way leaves the root's
 * cgroup.subtree_control as it found it.
 */
#define _GNU_SOURCE
#include <bitmask.h>
#include <cpuset.h>
#include <dirent.h>
#include <errno.h>
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

#define SET_PREFIX "allocbench-"
#define V1_MOUNT   "/dev/cpuset"

enum way { WAY_NONE, WAY_CPUSET_V1, WAY_CGROUP2 };

/*
 * The set in use. @way and @path as ab_isolate_path() shows it; for cgroup
 * v2 also @root (the v2 mount point), @home (the cgroup directory this
 * process came from) and the steps done, which ab_isolate_end() undoes:
 * @enabled (cpuset added to the root's cgroup.subtree_control), @made (the
 * directory exists), @moved (this process is in it).
 */
static struct {
	enum way way;
	char path[PATH_MAX];
	char root[PATH_MAX];
	char home[PATH_MAX];
	int enabled, made, moved;
} iso;

/* the shared cgroup v2 steps (cgroup2.h), their sentences naming --isolate */
#define has_word   ab_cg_has_word
#define path_join  ab_cg_path_join
#define find_mount ab_cg_find_mount
#define write_file ab_cg_write

static int cg_get(const char *dir, const char *name, char *val, size_t vlen,
		  char *err, size_t len)
{
	return ab_cg_get("--isolate", dir, name, val, vlen, err, len);
}

static int cg_put(const char *dir, const char *name, const char *val, char *err,
		  size_t len)
{
	return ab_cg_put("--isolate", dir, name, val, err, len);
}

/*
 * v1_mounted - whether the legacy cpuset file system is at /dev/cpuset
 * ("-t cpuset" shows as a cgroup v1 mount with the cpuset option).
 */
static int v1_mounted(void)
{
	return find_mount(V1_MOUNT, "cpuset", NULL, NULL, 0) ||
	       find_mount(V1_MOUNT, "cgroup", "cpuset", NULL, 0);
}

/*
 * The name of a run's cgroup v2 says when that run added cpuset to the
 * root's cgroup.subtree_control (and so owes taking it out again):
 * allocbench-PID+cpuset. A run that ends while others still use their
 * partitions leaves the duty behind as allocbench-0+cpuset (PID 0 is
 * never a live run), which the next run's clean-up takes over.
 */
#define OWES_SUFFIX "+cpuset"

/* Runs found by remove_stale(): live ones, and whether a dead one owed. */
static struct {
	int live, owed;
} scan;

/*
 * remove_stale - remove the sets of earlier runs that were killed before
 * they could remove their own (SIGKILL, SIGHUP): the entries
 * allocbench-PID[+cpuset] of the directory @dir whose PID is gone, through
 * @remove(name) (0 or -errno). They hold no task, and while they stay their
 * CPUs cannot be exclusive again. Each one removed is one line on stderr,
 * naming it as @what @shown/name. Counts the live runs in scan.live and
 * notes in scan.owed whether a removed one owed the subtree_control.
 */
static void remove_stale(const char *dir, const char *shown, const char *what,
			 int (*remove)(const char *name))
{
	struct dirent *d;
	DIR *dp = opendir(dir);
	int pid, n;

	scan.live = 0;
	if (!dp)
		return;
	while ((d = readdir(dp))) {
		n = -1;
		if (sscanf(d->d_name, SET_PREFIX "%d%n", &pid, &n) != 1 ||
		    pid < 0 ||
		    (d->d_name[n] && strcmp(d->d_name + n, OWES_SUFFIX)))
			continue;
		if (pid == (int)getpid())
			continue;
		if (pid && (!kill(pid, 0) || errno != ESRCH)) {
			scan.live++;
			continue;
		}
		if (remove(d->d_name))
			continue;
		if (d->d_name[n])
			scan.owed = 1;
		if (pid)
			fprintf(stderr,
				"allocbench: removed the %s %s/%s left by a run that was killed\n",
				what, shown, d->d_name);
	}
	closedir(dp);
}

/* ---- legacy cpuset file system, through libcpuset ---- */

/* v1_remove - delete the cpuset /@name. Returns 0 or -errno. */
static int v1_remove(const char *name)
{
	char p[PATH_MAX];

	snprintf(p, sizeof(p), "/%s", name);
	return cpuset_delete(p) ? -errno : 0;
}

/* v1_end - back to the top cpuset, delete ours; failures on stderr. */
static void v1_end(void)
{
	if (cpuset_move(0, "/"))
		fprintf(stderr,
			"allocbench: --isolate: cannot move back to the top cpuset: %s\n",
			strerror(errno));
	if (cpuset_delete(iso.path))
		fprintf(stderr,
			"allocbench: --isolate: cannot remove the cpuset %s: %s\n",
			iso.path, strerror(errno));
}

/*
 * v1_start - the cpuset /allocbench-PID with @cpus[0..n), cpu_exclusive,
 * and the top cpuset's memory nodes; this process moved into it. Returns
 * 0 or -errno with one sentence in @err; on error nothing is left.
 */
static int v1_start(const int *cpus, int n, char *err, size_t len)
{
	struct bitmask *cb = NULL, *mb = NULL;
	struct cpuset *cp = NULL, *top = NULL;
	long ncpu = sysconf(_SC_NPROCESSORS_CONF);
	int i, ret = 0;

	remove_stale(V1_MOUNT, "", "cpuset", v1_remove);
	snprintf(iso.path, sizeof(iso.path), "/" SET_PREFIX "%d",
		 (int)getpid());
	cp = cpuset_alloc();
	top = cpuset_alloc();
	cb = bitmask_alloc((unsigned int)ncpu);
	mb = bitmask_alloc(1024);
	if (!cp || !top || !cb || !mb) {
		ret = -ENOMEM;
		snprintf(err, len, "--isolate: out of memory");
		goto out;
	}
	for (i = 0; i < n; i++)
		bitmask_setbit(cb, (unsigned int)cpus[i]);
	if (cpuset_query(top, "/") || cpuset_getmems(top, mb) ||
	    cpuset_setcpus(cp, cb) || cpuset_setmems(cp, mb) ||
	    cpuset_set_iopt(cp, "cpu_exclusive", 1) ||
	    cpuset_create(iso.path, cp)) {
		ret = -errno;
		snprintf(err, len, "--isolate: cannot create the cpuset %s: %s",
			 iso.path, strerror(errno));
		goto out;
	}
	if (cpuset_move(0, iso.path)) {
		ret = -errno;
		snprintf(err, len, "--isolate: cannot move into %s: %s",
			 iso.path, strerror(errno));
		cpuset_delete(iso.path);
		goto out;
	}
	iso.way = WAY_CPUSET_V1;
out:
	bitmask_free(cb);
	bitmask_free(mb);
	cpuset_free(cp);
	cpuset_free(top);
	return ret;
}

/* ---- cgroup v2: a cpuset partition ---- */

/*
 * v2_remove - take the cgroup @name under the v2 root back to a plain
 * member (its CPUs return to the root at once, while rmdir only frees them
 * when the cgroup goes offline, asynchronously), then rmdir it. 0 or
 * -errno.
 */
static int v2_remove(const char *name)
{
	char p[PATH_MAX], f[PATH_MAX];

	if (path_join(p, iso.root, name))
		return -ENAMETOOLONG;
	if (!path_join(f, p, "cpuset.cpus.partition"))
		write_file(f, "member");
	return rmdir(p) ? -errno : 0;
}

/*
 * v2_remove_stale - v2_remove() for remove_stale(), of a cgroup that
 * holds no task (an empty cgroup.procs): one that holds one is a live
 * run's whose PID this PID namespace does not show, and keeps its
 * partition (-EBUSY).
 */
static int v2_remove_stale(const char *name)
{
	char f[PATH_MAX], task[32];
	int n = snprintf(f, sizeof(f), "%s/%s/cgroup.procs", iso.root, name);

	if (n < 0 || n >= (int)sizeof(f))
		return -ENAMETOOLONG;
	return ab_kfile_line(task, sizeof(task), "%s", f) ? -EBUSY
							  : v2_remove(name);
}

int ab_cgroup_v2_path(char *buf, size_t len)
{
	char line[PATH_MAX + 8];
	FILE *f = ab_kfile_open("/proc/self/cgroup");
	int ret = -ENOENT;

	if (!f)
		return -errno;
	while (ret && fgets(line, sizeof(line), f)) {
		if (strncmp(line, "0::", 3))
			continue;
		line[strcspn(line, "\n")] = '\0';
		ret = snprintf(buf, len, "%s", line + 3) < (int)len
			      ? 0
			      : -ENAMETOOLONG;
	}
	fclose(f);
	return ret;
}

/*
 * v2_home - the cgroup directory this process is in (ab_cgroup_v2_path()),
 * into iso.home. Returns 0 or -errno (-ENOENT: no such line).
 */
static int v2_home(void)
{
	char path[PATH_MAX];
	int ret = ab_cgroup_v2_path(path, sizeof(path));
	const char *rel = path + (path[0] == '/');

	if (ret)
		return ret;
	if (*rel)
		return path_join(iso.home, iso.root, rel);
	/* the root itself; both are PATH_MAX */
	strcpy(iso.home, iso.root);
	return 0;
}

/*
 * v2_end - undo what v2_start() did, last step first: move this process
 * back to its cgroup (to the root if that fails), make the cgroup a plain
 * member again and remove it (v2_remove()), and if this run owes it (it
 * added cpuset to the root's cgroup.subtree_control, or took the duty over
 * from a killed run), take cpuset out again, unless other runs still use
 * their partitions: then the duty stays behind as allocbench-0+cpuset for
 * the last of them. Failures are lines on stderr.
 */
static void v2_end(void)
{
	char err[PATH_MAX + 128], pid[32], owed[PATH_MAX];

	snprintf(pid, sizeof(pid), "%d", (int)getpid());
	if (iso.moved &&
	    cg_put(iso.home, "cgroup.procs", pid, err, sizeof(err))) {
		fprintf(stderr, "allocbench: %s\n", err);
		if (cg_put(iso.root, "cgroup.procs", pid, err, sizeof(err)))
			fprintf(stderr, "allocbench: %s\n", err);
	}
	if (iso.made && v2_remove(strrchr(iso.path, '/') + 1) &&
	    errno != ENOENT)
		fprintf(stderr,
			"allocbench: --isolate: cannot remove the cgroup %s: %s\n",
			iso.path, strerror(errno));
	if (iso.enabled) {
		remove_stale(iso.root, iso.root, "cgroup", v2_remove_stale);
		if (!scan.live) {
			if (cg_put(iso.root, "cgroup.subtree_control",
				   "-cpuset", err, sizeof(err)))
				fprintf(stderr, "allocbench: %s\n", err);
		} else if (!path_join(owed, iso.root,
				      SET_PREFIX "0" OWES_SUFFIX)) {
			mkdir(owed, 0755);
		}
	}
	iso.moved = iso.made = iso.enabled = 0;
}

/*
 * v2_takes_all - whether @cpus[0..n) would take every CPU the v2 root has
 * (cpuset.cpus.effective, a list like "0-3,8"): a partition cannot leave
 * the root without CPUs.
 */
static int v2_takes_all(const int *cpus, int n)
{
	char val[4096], *p = val, *end;
	long a, b, c;
	int i;

	if (cg_get(iso.root, "cpuset.cpus.effective", val, sizeof(val), NULL,
		   0))
		return 0;
	while (*p) {
		a = strtol(p, &end, 10);
		if (end == p)
			break;
		b = a;
		if (*end == '-')
			b = strtol(end + 1, &end, 10);
		for (c = a; c <= b; c++) {
			for (i = 0; i < n && cpus[i] != c; i++)
				;
			if (i == n)
				return 0;
		}
		p = end + (*end == ',');
	}
	return 1;
}

/*
 * v2_start - the cgroup allocbench-PID under the v2 root iso.root, a
 * partition root of @cpus[0..n) with the root's memory nodes, and this
 * process moved into it. Returns 0 or -errno with one sentence in @err
 * (-EINVAL when the kernel made it an invalid partition root: its reason);
 * on error ab_isolate_end() has undone every step.
 */
static int v2_start(const int *cpus, int n, char *err, size_t len)
{
	char val[4096], pid[32], *reason;
	size_t off = 0;
	int i, ret;

	ret = v2_home();
	if (ret) {
		snprintf(
			err, len,
			"--isolate: cannot find this process's cgroup v2 in /proc/self/cgroup: %s",
			strerror(-ret));
		return ret;
	}
	remove_stale(iso.root, iso.root, "cgroup", v2_remove_stale);
	if (v2_takes_all(cpus, n)) {
		snprintf(
			err, len,
			"--isolate: the CPUs asked for are every CPU of the cgroup v2 root; a partition must leave the rest of the system at least one");
		return -EDOM;
	}
	snprintf(pid, sizeof(pid), "%d", (int)getpid());
	iso.way = WAY_CGROUP2;

	ret = cg_get(iso.root, "cgroup.subtree_control", val, sizeof(val), err,
		     len);
	if (!ret && !has_word(val, "cpuset", " ")) {
		ret = cg_put(iso.root, "cgroup.subtree_control", "+cpuset", err,
			     len);
		iso.enabled = !ret;
	} else if (!ret && scan.owed) {
		iso.enabled = 1; /* a killed run's duty, taken over */
	}
	if (ret)
		goto fail;
	snprintf(val, sizeof(val), SET_PREFIX "%s%s", pid,
		 iso.enabled ? OWES_SUFFIX : "");
	ret = path_join(iso.path, iso.root, val);
	if (ret) {
		snprintf(err, len, "--isolate: %s/%s: %s", iso.root, val,
			 strerror(-ret));
		goto fail;
	}
	if (mkdir(iso.path, 0755)) {
		ret = -errno;
		snprintf(err, len, "--isolate: cannot create the cgroup %s: %s",
			 iso.path, strerror(errno));
		goto fail;
	}
	iso.made = 1;

	/* cpuset.cpus first, then the partition (cgroup-v2.rst) */
	for (i = 0; i < n && off < sizeof(val); i++)
		off += (size_t)snprintf(val + off, sizeof(val) - off, "%s%d",
					i ? "," : "", cpus[i]);
	ret = cg_put(iso.path, "cpuset.cpus", val, err, len);
	if (!ret)
		ret = cg_get(iso.root, "cpuset.mems.effective", val,
			     sizeof(val), err, len);
	if (!ret)
		ret = cg_put(iso.path, "cpuset.mems", val, err, len);
	if (!ret)
		ret = cg_put(iso.path, "cpuset.cpus.partition", "root", err,
			     len);
	/* the write may succeed and still leave "root invalid (reason)" */
	if (!ret)
		ret = cg_get(iso.path, "cpuset.cpus.partition", val,
			     sizeof(val), err, len);
	if (!ret && strcmp(val, "root")) {
		reason = strchr(val, '(');
		if (reason)
			reason[strcspn(reason, ")")] = '\0';
		snprintf(
			err, len,
			"--isolate: the kernel refused %s as a cpuset partition: %s",
			iso.path, reason ? reason + 1 : val);
		ret = -EINVAL;
	}
	if (ret)
		goto fail;
	ret = cg_put(iso.path, "cgroup.procs", pid, err, len);
	if (ret)
		goto fail;
	iso.moved = 1;
	return 0;
fail:
	ab_isolate_end();
	return ret;
}

/* ---- either ---- */

const char *ab_isolate_path(void)
{
	return iso.way == WAY_NONE ? "" : iso.path;
}

const char *ab_isolate_what(void)
{
	switch (iso.way) {
	case WAY_CPUSET_V1:
		return "exclusive cpuset";
	case WAY_CGROUP2:
		return "cpuset partition";
	default:
		return "";
	}
}

void ab_isolate_end(void)
{
	if (iso.way == WAY_CPUSET_V1)
		v1_end();
	else if (iso.way == WAY_CGROUP2)
		v2_end();
	iso.way = WAY_NONE;
	iso.path[0] = '\0';
}

/*
 * no_way - the -ENODEV sentence into @err: what each way misses here. @v2
 * says whether a cgroup v2 is mounted (at iso.root), @ctl is its
 * cgroup.controllers.
 */
static void no_way(int v2, const char *ctl, char *err, size_t len)
{
	char fs[4096] = "", v2why[PATH_MAX + 1200];

	ab_kfile_read(fs, sizeof(fs), "/proc/filesystems");
	if (v2)
		snprintf(
			v2why, sizeof(v2why),
			"the cgroup v2 at %s has no cpuset controller (cgroup.controllers: \"%s\"; a legacy hierarchy may hold it)",
			iso.root, ctl);
	else
		snprintf(
			v2why, sizeof(v2why),
			"no cgroup v2 is mounted (mount -t cgroup2 none /sys/fs/cgroup)");
	snprintf(
		err, len,
		"--isolate: needs the legacy cpuset file system at /dev/cpuset or a cgroup v2 with the cpuset controller: /dev/cpuset is not mounted (%s), and %s",
		strstr(fs, "\tcpuset\n")
			? "mount -t cpuset none /dev/cpuset"
			: "this kernel has no legacy cpuset file system: CONFIG_CPUSETS_V1 is off",
		v2why);
}

void ab_isolate_clean_stale(void)
{
	if (iso.way != WAY_NONE)
		return;
	if (v1_mounted())
		remove_stale(V1_MOUNT, "", "cpuset", v1_remove);
	else if (find_mount(NULL, "cgroup2", NULL, iso.root, sizeof(iso.root)))
		remove_stale(iso.root, iso.root, "cgroup", v2_remove_stale);
}

int ab_isolate_start(const int *cpus, int n, char *err, size_t len)
{
	static int registered;
	char ctl[1024] = "";
	int ret, v2;

	if (iso.way != WAY_NONE) {
		snprintf(err, len, "--isolate: already in the %s %s",
			 ab_isolate_what(), iso.path);
		return -EBUSY;
	}
	/* before anything exists: whatever exit() comes next removes it */
	if (!registered && !atexit(ab_isolate_end))
		registered = 1;
	if (v1_mounted()) {
		ret = v1_start(cpus, n, err, len);
	} else {
		v2 = find_mount(NULL, "cgroup2", NULL, iso.root,
				sizeof(iso.root));
		if (v2)
			cg_get(iso.root, "cgroup.controllers", ctl, sizeof(ctl),
			       err, len);
		if (!v2 || !has_word(ctl, "cpuset", " ")) {
			no_way(v2, ctl, err, len);
			return -ENODEV;
		}
		ret = v2_start(cpus, n, err, len);
	}
	/* -ENODEV means no way at all; a step's ENODEV is another error */
	return ret == -ENODEV ? -EIO : ret;
}
