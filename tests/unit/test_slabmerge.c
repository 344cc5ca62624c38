// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_slabmerge.c - whether a run's kmem_cache was merged, told from a
 * fake /sys/kernel/slab laid out as SLUB lays it out (lib/slabmerge.h):
 * unmergeable caches as directories under their names, mergeable ones as
 * a directory under a unique id plus links from names, aliases as links.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>
#include <linux/allocbench.h>

#include "slabmerge.h"

static char root[64];

static void mk(const char *name)
{
	char p[128];

	snprintf(p, sizeof(p), "%s/%s", root, name);
	assert_int_equal(mkdir(p, 0755), 0);
}

static void ln(const char *target, const char *name)
{
	char p[128];

	snprintf(p, sizeof(p), "%s/%s", root, name);
	assert_int_equal(symlink(target, p), 0);
}

static void rm(const char *name)
{
	char p[128];

	snprintf(p, sizeof(p), "%s/%s", root, name);
	assert_int_equal(remove(p), 0);
}

static int setup(void **state)
{
	snprintf(root, sizeof(root), "/tmp/ab-slab-XXXXXX");
	if (!mkdtemp(root))
		return -1;
	mk(":0004096");
	ln(":0004096", "biovec-max");
	mk("kmalloc-8k");
	return 0;
}

static int teardown(void **state)
{
	char cmd[128];

	snprintf(cmd, sizeof(cmd), "rm -rf %s", root);
	return system(cmd) ? -1 : 0;
}

/* the snapshot holds directories only, sorted */
static void test_snapshot_dirs_only(void **state)
{
	struct ab_slab_snap s;

	ab_slab_snapshot(root, &s);
	assert_true(s.ok);
	assert_int_equal(s.n, 2);
	assert_string_equal(s.names[0], ":0004096");
	assert_string_equal(s.names[1], "kmalloc-8k");
	ab_slab_snap_free(&s);
	ab_slab_snapshot("/nonexistent/slab", &s);
	assert_false(s.ok);
	assert_int_equal(s.n, 0);
}

/* aliased at creation to a cache that was there before: YES */
static void test_alias_from_the_start(void **state)
{
	struct ab_slab_snap s;

	ab_slab_snapshot(root, &s);
	ln(":0004096", "allocbench-4096-2");
	assert_int_equal(ab_slab_merged(root, &s, "allocbench-4096-2",
					AB_MERGED_UNKNOWN, 0),
			 AB_MERGED_YES);
	/* the module's LATER (another run merged in) was an alias too */
	assert_int_equal(ab_slab_merged(root, &s, "allocbench-4096-2",
					AB_MERGED_LATER, 0),
			 AB_MERGED_YES);
	rm("allocbench-4096-2");
	ab_slab_snap_free(&s);
}

/* a mergeable cache of its own, destroyed: its link leads nowhere: NO */
static void test_own_cache_gone(void **state)
{
	struct ab_slab_snap s;

	ab_slab_snapshot(root, &s);
	ln(":0002728", "allocbench-2728-1");
	assert_int_equal(ab_slab_merged(root, &s, "allocbench-2728-1",
					AB_MERGED_UNKNOWN, 0),
			 AB_MERGED_NO);
	/* another run merged in and gone before: the module's word stands */
	assert_int_equal(ab_slab_merged(root, &s, "allocbench-2728-1",
					AB_MERGED_LATER, 0),
			 AB_MERGED_LATER);
	rm("allocbench-2728-1");
	/* an unmergeable cache's directory, removed: no entry at all */
	assert_int_equal(ab_slab_merged(root, &s, "allocbench-2728-3",
					AB_MERGED_UNKNOWN, 0),
			 AB_MERGED_NO);
	ab_slab_snap_free(&s);
}

/* its own cache, kept alive by a user merged into it meanwhile: LATER */
static void test_kept_alive_by_another(void **state)
{
	struct ab_slab_snap s;

	ab_slab_snapshot(root, &s);
	mk(":0002736");
	ln(":0002736", "allocbench-2736-4");
	ln(":0002736", "some-driver-cache");
	assert_int_equal(ab_slab_merged(root, &s, "allocbench-2736-4",
					AB_MERGED_UNKNOWN, 0),
			 AB_MERGED_LATER);
	/* kept by its run (AB_RUN_KEEP_CACHE): its own, not merged */
	assert_int_equal(ab_slab_merged(root, &s, "allocbench-2736-4",
					AB_MERGED_UNKNOWN, 1),
			 AB_MERGED_NO);
	/* another run of ours merged into it: the module's LATER stands */
	assert_int_equal(ab_slab_merged(root, &s, "allocbench-2736-4",
					AB_MERGED_LATER, 1),
			 AB_MERGED_LATER);
	ab_slab_snap_free(&s);
}

/*
 * an unmergeable cache (slab_nomerge boot) kept by its run: a directory of
 * its name, its own cache (issue 21: env.sh read "unknown" here once the
 * module kept caches); not kept, a directory of that name tells nothing
 */
static void test_kept_unmergeable(void **state)
{
	struct ab_slab_snap s;

	ab_slab_snapshot(root, &s);
	mk("allocbench-4096-9");
	assert_int_equal(ab_slab_merged(root, &s, "allocbench-4096-9",
					AB_MERGED_UNKNOWN, 1),
			 AB_MERGED_NO);
	assert_int_equal(ab_slab_merged(root, &s, "allocbench-4096-9",
					AB_MERGED_UNKNOWN, 0),
			 AB_MERGED_UNKNOWN);
	assert_int_equal(ab_slab_merged(root, &s, "allocbench-4096-9",
					AB_MERGED_LATER, 1),
			 AB_MERGED_LATER);
	ab_slab_snap_free(&s);
}

/* what the module knows stands; without sysfs or a name nothing changes */
static void test_module_word_stands(void **state)
{
	struct ab_slab_snap s, none;

	ab_slab_snapshot(root, &s);
	ln(":0004096", "allocbench-4096-5");
	assert_int_equal(
		ab_slab_merged(root, &s, "allocbench-4096-5", AB_MERGED_NO, 0),
		AB_MERGED_NO);
	assert_int_equal(ab_slab_merged(root, &s, "", AB_MERGED_UNKNOWN, 0),
			 AB_MERGED_UNKNOWN);
	assert_int_equal(ab_slab_merged(root, &s, "../x", AB_MERGED_UNKNOWN, 0),
			 AB_MERGED_UNKNOWN);
	ab_slab_snapshot("/nonexistent/slab", &none);
	assert_int_equal(ab_slab_merged("/nonexistent/slab", &none,
					"allocbench-4096-5", AB_MERGED_UNKNOWN,
					0),
			 AB_MERGED_UNKNOWN);
	assert_int_equal(
		ab_slab_merged(root, &s, "kmalloc-8k", AB_MERGED_UNKNOWN, 0),
		AB_MERGED_UNKNOWN);
	ab_slab_snap_free(&s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_snapshot_dirs_only),
		cmocka_unit_test(test_alias_from_the_start),
		cmocka_unit_test(test_own_cache_gone),
		cmocka_unit_test(test_kept_alive_by_another),
		cmocka_unit_test(test_kept_unmergeable),
		cmocka_unit_test(test_module_word_stands),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
