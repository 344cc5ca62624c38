// SPDX-License-Identifier: GPL-2.0-only
/*
 * fuzz_checks.c - after the storm: nothing outstanding, no allocbench
 * kmem_cache left in /sys/kernel/slab, unreclaimable slab and free memory
 * (/proc/meminfo, after dropping caches) within TOL_SLAB_KB and
 * TOL_FREE_KB of the same reading after the warm-up, and with --rmmod
 * the module unloaded and loaded again (from /lib/modules/allocbench.ko).
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "ab_testlib.h"
#include "fuzz.h"

/*
 * Tolerances after the storm, in KiB, against the reading after the
 * warm-up (both after drop_caches): per-CPU slab caches and the slabs of
 * kmalloc caches the storm grew may stay; objects the module leaked would
 * show in ab_info.outstanding first. Measured over storms of 10000 to
 * 20000 calls on 6.1, 6.12-rt and 6.1 with slub_debug: SUnreclaim grew by
 * 96 to 960 KiB; MemFree ended between 17.8 MiB lower and 12 MiB higher
 * (per-CPU page lists, page cache, the children's page tables), but 48 MiB
 * lower when run at the end of guest.sh, whose other processes and files
 * took it: so the check is on MemFree + Buffers + Cached + AnonPages
 * (free_kb()), which such use leaves alone; that sum still fell by up to
 * 35 MiB in one of six 20000-call storms on 6.12 (and rose by 20 MiB over
 * three others), hence 48 MiB at first. In make check's two-node boots
 * of 6.1 (512 MiB per node) the sum then fell by 53 to 58 MiB after a
 * 12000-call storm, with no other /proc/meminfo field moving by 2 MiB
 * (free pages held outside the free lists, e.g. per-CPU page lists of four
 * zones); not a leak: a second storm in the same boot brought MemFree
 * back to 9 MiB below the start, and compaction or rmmod changed nothing.
 * Hence 96 MiB, about a tenth of the guest's RAM. Leaks of objects the
 * module counts show in ab_info.outstanding, which must be 0; this check
 * is the coarse net for memory it does not count.
 */
#define TOL_SLAB_KB 4096
#define TOL_FREE_KB 98304

/*
 * Memory that is free or held by user space (MemFree + Buffers + Cached +
 * AnonPages, in KiB; each in @f): what the rest of the test suite's
 * processes and files take moves between these terms, what the kernel
 * keeps for itself (a leak among it) lowers the sum.
 */
static long free_kb(long f[4])
{
	static const char *const key[4] = { "MemFree", "Buffers", "Cached",
					    "AnonPages" };
	long sum = 0;
	int i;

	for (i = 0; i < 4; i++)
		sum += f[i] = ab_meminfo_kb(key[i]);
	return sum;
}

static void drop_caches(void)
{
	int fd = open("/proc/sys/vm/drop_caches", O_WRONLY);

	sync();
	if (fd >= 0) {
		if (write(fd, "3\n", 2) < 0)
			perror("fuzz: drop_caches");
		close(fd);
	}
}

/*
 * Entries of /sys/kernel/slab the module's private caches made: a cache
 * of its own is a directory, removed by kmem_cache_destroy(); a cache
 * merged into an existing one is a symlink to it, which SLUB never
 * removes (mm/slub.c: sysfs_slab_alias() has no counterpart), counted in
 * @links.
 */
static int module_caches(char *first, size_t len, int *links)
{
	DIR *d = opendir("/sys/kernel/slab");
	struct dirent *e;
	int n = 0;

	*links = 0;
	while (d && (e = readdir(d))) {
		if (strncmp(e->d_name, "allocbench", 10))
			continue;
		if (e->d_type == DT_LNK)
			++*links;
		else if (!n++)
			snprintf(first, len, "%.48s", e->d_name);
	}
	if (d)
		closedir(d);
	return n;
}

void read_memory(struct mem_reading *m)
{
	drop_caches();
	m->slab = ab_meminfo_kb("SUnreclaim");
	m->free = free_kb(m->f);
}

int after_storm(const struct mem_reading *before, const char *old, int do_rmmod)
{
	struct mem_reading after;
	int fails = 0, links;
	unsigned int i;
	char buf[64];

	/*
	 * A run with AB_RUN_KEEP_CACHE keeps its private kmem_cache until the
	 * next run on its file or the file's close: the storm's threads share
	 * shared_fd, so its last kept cache goes only with its close (6.12-rt
	 * once read "allocbench-512-391 left" here before this)
	 */
	step = "close of the storm's file";
	close(shared_fd);
	shared_fd = ab_open();
	if (shared_fd < 0) {
		printf("not ok - fuzz: open %s again: %s\n", AB_DEV_PATH,
		       strerror(errno));
		return 1;
	}
	fails += tap(
		!load_info() && info.outstanding == 0,
		"nothing outstanding after the storm (ab_info.outstanding %" PRIu64
		")",
		(uint64_t)info.outstanding);
	step = "the caches left";
	i = module_caches(buf, sizeof(buf), &links);
	fails += tap(
		!i,
		"no allocbench kmem_cache of its own left in /sys/kernel/slab (%u%s%s)",
		i, i ? ", e.g. " : "", i ? buf : "");
	printf("# fuzz: %d allocbench-* alias symlinks in /sys/kernel/slab (caches merged into another: SLUB keeps an alias's link after kmem_cache_destroy())\n",
	       links);
	step = "drop_caches after the storm";
	/*
	 * The RCU strategies' objects go back when kfree_rcu()'s batches are
	 * drained (KFREE_DRAIN_JIFFIES, 5 s, then a grace period), which the
	 * module's rcu_barrier() does not wait for where the kernel exports
	 * no kvfree_rcu_barrier() (6.1, 7.3): memory pending there is no
	 * leak, so the readings settle for up to 20 s first
	 */
	for (i = 0; i < 80; i++) {
		read_memory(&after);
		if (after.slab - before->slab <= TOL_SLAB_KB &&
		    before->free - after.free <= TOL_FREE_KB)
			break;
		usleep(250000);
	}
	printf("# fuzz: memory read %.2f s after the storm's end\n", i * 0.25);
	fails += tap(
		after.slab - before->slab <= TOL_SLAB_KB,
		"unreclaimable slab back within %d KiB (SUnreclaim %ld -> %ld KiB)",
		TOL_SLAB_KB, before->slab, after.slab);
	fails += tap(
		before->free - after.free <= TOL_FREE_KB,
		"free memory back within %d KiB (MemFree + Buffers + Cached + AnonPages %ld -> %ld KiB; MemFree %ld -> %ld, Cached %ld -> %ld, AnonPages %ld -> %ld)",
		TOL_FREE_KB, before->free, after.free, before->f[0], after.f[0],
		before->f[2], after.f[2], before->f[3], after.f[3]);
	ab_budget_write(old);
	close(shared_fd);
	step = "rmmod";
	if (do_rmmod) {
		int rm = system("rmmod allocbench");

		fails += tap(rm == 0, "rmmod allocbench after the storm");
		fails += tap(system("insmod /lib/modules/allocbench.ko") == 0,
			     "insmod allocbench.ko again");
	}
	return fails;
}
