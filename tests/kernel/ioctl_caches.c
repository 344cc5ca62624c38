// SPDX-License-Identifier: GPL-2.0-only
/*
 * ioctl_caches.c - the private kmem_caches of the kmem_cache strategies:
 * what a run reports of merging (and a version-1 caller), a cache kept
 * for its geometry (AB_RUN_KEEP_CACHE) until the thread's next run or the
 * file's close, a cache merged into during its run, and caches created
 * and destroyed by several runs at once.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <cmocka.h>
#include "ab_testlib.h"
#include "ioctl_suite.h"

/*
 * Whether SLUB merges caches in this boot: not with slab_nomerge, nor
 * with slub_debug flags, which are in SLAB_NEVER_MERGE (mm/slab_common.c).
 */
static int kernel_merges(void)
{
	char line[4096] = "";
	FILE *f = fopen("/proc/cmdline", "r");

	if (f) {
		if (!fgets(line, sizeof(line), f))
			line[0] = 0;
		fclose(f);
	}
	return !strstr(line, "slab_nomerge") && !strstr(line, "slub_nomerge") &&
	       !strstr(line, "slub_debug");
}

/*
 * The module opens no files (issue 16, part 5e): it says NO for a cache
 * made unmergeable, UNKNOWN for a mergeable one (the CLI reads
 * /sys/kernel/slab/<cache_name>, lib/slabmerge.c), and names the cache;
 * the name is an entry of SLUB's sysfs (a link for a mergeable cache,
 * left after the run: mm/slub.c removes it only when the name is reused).
 * A version-1 caller gets no name written.
 */
void test_cache_merge_report(void **state)
{
	struct ab_run r = req("kmem_cache");
	char path[128];
	struct stat st;

	r.flags = AB_RUN_NOMERGE;
	run_ok(&r, 1);
	assert_int_equal(r.cache_merged, AB_MERGED_NO);
	assert_int_equal(strncmp(r.cache_name, "allocbench-", 11), 0);
	r = req("kmem_cache");
	r.obj_size = 4096;
	run_ok(&r, 1);
	assert_int_equal(r.cache_merged, AB_MERGED_UNKNOWN);
	assert_int_equal(strncmp(r.cache_name, "allocbench-4096-", 16), 0);
	assert_non_null(memchr(r.cache_name, 0, sizeof(r.cache_name)));
	snprintf(path, sizeof(path), "/sys/kernel/slab/%s", r.cache_name);
	if (stat("/sys/kernel/slab", &st) == 0 && kernel_merges()) {
		/* merged: a link to the shared cache, left after the run */
		assert_int_equal(lstat(path, &st), 0);
		assert_true(S_ISLNK(st.st_mode));
	} else if (stat("/sys/kernel/slab", &st) == 0) {
		/* a cache of its own: its directory went with it */
		assert_int_equal(lstat(path, &st), -1);
		assert_int_equal(errno, ENOENT);
	}
	r = req("kmem_cache");
	r.size = AB_RUN_SIZE_VER1;
	memset(r.cache_name, 'x', sizeof(r.cache_name));
	assert_int_equal(xioctl(AB_IOC_RUN, &r), 0);
	assert_int_equal(r.size, AB_RUN_SIZE_VER1);
	assert_int_equal(r.cache_name[0], 'x');
	r = req("kmalloc");
	run_ok(&r, 1);
	assert_int_equal(r.cache_merged, AB_MERGED_NA);
	assert_int_equal(r.cache_name[0], 0);
}

/* Whether @name is an entry of /sys/kernel/slab: 1, 0, or -1 without it. */
static int slab_entry(const char *name)
{
	char path[128];
	struct stat st;

	if (stat("/sys/kernel/slab", &st))
		return -1;
	snprintf(path, sizeof(path), "/sys/kernel/slab/%s/objs_per_slab", name);
	return stat(path, &st) == 0;
}

/*
 * AB_RUN_KEEP_CACHE (issue 21): a cache of its own (--nomerge), which
 * kmem_cache_destroy() takes out of /sys/kernel/slab with its geometry,
 * stays after its run, empty, until the same thread's next run on the
 * same file begins or the file is closed; another thread's run leaves
 * it. Without the flag it goes with the run, as before. A run of a
 * strategy without a cache ignores the flag.
 */
void test_cache_kept_for_its_geometry(void **state)
{
	struct ab_run r = req("kmem_cache");
	char name[AB_CACHE_NAME_LEN];
	int fd2, saved = fd, st;
	pid_t pid;

	if (slab_entry("kmalloc-64") < 0)
		skip();
	r.flags = AB_RUN_NOMERGE | AB_RUN_KEEP_CACHE;
	r.obj_size = 4096;
	run_ok(&r, 1);
	assert_int_equal(r.cache_merged, AB_MERGED_NO);
	memcpy(name, r.cache_name, sizeof(name));
	assert_int_equal(slab_entry(name), 1);
	assert_int_equal(outstanding(), 0);
	/* another thread's run on the same file leaves it */
	pid = fork();
	assert_true(pid >= 0);
	if (!pid) {
		struct ab_run k = req("kmalloc");

		_exit(ioctl(fd, AB_IOC_RUN, &k) ? 1 : 0);
	}
	assert_int_equal(waitpid(pid, &st, 0), pid);
	assert_true(WIFEXITED(st) && WEXITSTATUS(st) == 0);
	assert_int_equal(slab_entry(name), 1);
	/* the next run of this thread on the file destroys it first */
	r = req("kmalloc");
	r.flags = AB_RUN_KEEP_CACHE;
	run_ok(&r, 1);
	assert_int_equal(r.cache_name[0], 0);
	assert_int_equal(slab_entry(name), 0);
	/* without the flag: gone with the run */
	r = req("kmem_cache");
	r.flags = AB_RUN_NOMERGE;
	run_ok(&r, 1);
	assert_int_equal(slab_entry(r.cache_name), 0);
	/* closing the file destroys what its runs kept */
	fd2 = ab_open();
	assert_true(fd2 >= 0);
	fd = fd2;
	r = req("kmem_cache");
	r.flags = AB_RUN_NOMERGE | AB_RUN_KEEP_CACHE;
	run_ok(&r, 1);
	fd = saved;
	memcpy(name, r.cache_name, sizeof(name));
	assert_int_equal(slab_entry(name), 1);
	/* a run on another file leaves it */
	r = req("kmalloc");
	run_ok(&r, 1);
	assert_int_equal(slab_entry(name), 1);
	assert_int_equal(close(fd2), 0);
	assert_int_equal(slab_entry(name), 0);
}

/*
 * Two runs' caches of one size at once (issue 13, item 22): the second is
 * merged into the first (YES), and the first, a cache of its own when it
 * was created, says so at its end (LATER), not NO. 2728 bytes: no kernel
 * cache is within the 8 bytes SLUB merges across (find_mergeable()), so
 * the first is a cache of its own unless the kernel merges nothing.
 */
void test_cache_merged_during_run(void **state)
{
	struct ab_run a = req("kmem_cache");
	int st;
	pid_t pid;

	a.obj_size = 2728;
	a.batch = 64;
	a.trials = 30000;
	pid = fork();
	assert_true(pid >= 0);
	if (!pid) {
		struct ab_run b = req("kmem_cache");

		b.obj_size = 2728;
		usleep(300000);
		_exit(ioctl(fd, AB_IOC_RUN, &b) ? 100 : (int)b.cache_merged);
	}
	assert_int_equal(xioctl(AB_IOC_RUN, &a), 0);
	assert_int_equal(waitpid(pid, &st, 0), pid);
	assert_true(WIFEXITED(st));
	if (a.cache_merged == AB_MERGED_NO)
		fail_msg(
			"the first run's cache stayed NO while the second's (cache_merged %d; 100: failed) ran; LATER expected",
			WEXITSTATUS(st));
	if (a.cache_merged == AB_MERGED_LATER)
		assert_int_equal(WEXITSTATUS(st), AB_MERGED_YES);
	else
		assert_true(a.cache_merged == AB_MERGED_YES ||
			    a.cache_merged == AB_MERGED_UNKNOWN);
}

/*
 * Private caches created and destroyed by several runs at once, of one
 * size, some mergeable, some not, for 2 s: every run succeeds and the
 * kernel log stays clean (before the fix, 3 s showed it on 6.12). Before the
 * module destroyed its caches under its own lock, a create racing a destroy of
 * the same merged name made SLUB print "sysfs: cannot create duplicate filename
 * '/kernel/slab/:0000008'" with a stack dump and fail the create (6.12, found
 * by the fuzzer).
 */
void test_caches_created_and_destroyed_at_once(void **state)
{
	pid_t pid[4];
	int k, st;

	for (k = 0; k < 4; k++) {
		pid[k] = fork();
		assert_true(pid[k] >= 0);
		if (!pid[k]) {
			struct ab_run r = req("kmem_cache");
			time_t end = time(NULL) + 2;
			int bad = 0;

			r.obj_size = 8;
			r.trials = 1;
			if (k < 2)
				r.flags |= AB_RUN_NOMERGE;
			while (time(NULL) < end && !bad)
				bad = xioctl(AB_IOC_RUN, &r);
			_exit(bad ? 1 : 0);
		}
	}
	for (k = 0; k < 4; k++) {
		assert_true(waitpid(pid[k], &st, 0) == pid[k]);
		assert_true(WIFEXITED(st) && WEXITSTATUS(st) == 0);
	}
	assert_int_equal(outstanding(), 0);
}

/* /sys/kernel/slab/@name/sheaf_capacity: the number, or -1 without it. */
static long sheaf_capacity(const char *name)
{
	char path[128];
	long v = -1;
	FILE *f;

	snprintf(path, sizeof(path), "/sys/kernel/slab/%s/sheaf_capacity",
		 name);
	f = fopen(path, "r");
	if (!f)
		return -1;
	if (fscanf(f, "%ld", &v) != 1)
		v = -1;
	fclose(f);
	return v;
}

/*
 * AB_RUN_SHEAVES (issue 24): a private cache without sheaves, or with
 * sheaves of N, where the kernel can make one (AB_KERNEL_SHEAVES_OFF,
 * AB_KERNEL_SHEAF_CAPACITY), -EOPNOTSUPP where it cannot; the cache is
 * unmergeable either way. What the kernel gave is in its sysfs entry:
 * none, or at least N (7.x takes the larger of its own and N).
 */
void test_cache_sheaves(void **state)
{
	struct ab_run r = req("kmem_cache");
	int can_off = !!(info.kernel_flags & AB_KERNEL_SHEAVES_OFF);
	int can_n = !!(info.kernel_flags & AB_KERNEL_SHEAF_CAPACITY);
	long cap;

	r.flags = AB_RUN_SHEAVES | AB_RUN_KEEP_CACHE;
	r.sheaf_capacity = AB_SHEAF_MAX + 1;
	assert_int_equal(xioctl(AB_IOC_RUN, &r), EINVAL);
	assert_int_equal(outstanding(), 0);
	/* off */
	r = req("kmem_cache");
	r.flags = AB_RUN_SHEAVES | AB_RUN_KEEP_CACHE;
	if (!can_off) {
		assert_int_equal(xioctl(AB_IOC_RUN, &r), EOPNOTSUPP);
	} else {
		run_ok(&r, 1);
		assert_int_equal(r.cache_merged, AB_MERGED_NO);
		cap = sheaf_capacity(r.cache_name);
		/* no entry before 6.18: no sheaves to have */
		assert_true(cap == 0 || (cap == -1 && !can_n));
	}
	/* sheaves of 128 */
	r = req("kmem_cache");
	r.flags = AB_RUN_SHEAVES | AB_RUN_KEEP_CACHE;
	r.sheaf_capacity = 128;
	if (!can_n) {
		assert_int_equal(xioctl(AB_IOC_RUN, &r), EOPNOTSUPP);
	} else {
		run_ok(&r, 1);
		assert_int_equal(r.cache_merged, AB_MERGED_NO);
		cap = sheaf_capacity(r.cache_name);
		/* slub_debug caches get none (mm/slub.c) */
		assert_true(cap >= 128 || cap == 0);
	}
	assert_int_equal(outstanding(), 0);
}
