// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_memstate.c - a node's zones as lib/kernel/memstate.c reads them,
 * from a fake /proc laid out as 6.12's mm/vmstat.c prints it: the free
 * blocks of /proc/buddyinfo, and from /proc/zoneinfo the free count, the
 * watermarks and the pages on each CPU's list (pagesets' "count:"), which
 * the free count leaves out.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include "memstate.h"

static char root[64];

static void put(const char *name, const char *text)
{
	char p[256];
	FILE *f;

	snprintf(p, sizeof(p), "%s/proc/%s", root, name);
	f = fopen(p, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

static int setup(void **state)
{
	char p[128];

	snprintf(root, sizeof(root), "/tmp/ab-memstate-%d", (int)getpid());
	snprintf(p, sizeof(p), "%s/proc", root);
	if (mkdir(root, 0700) || mkdir(p, 0700))
		return -1;
	put("buddyinfo",
	    "Node 0, zone      DMA      1      0      1      0      2      1      1      0      1      1      3 \n"
	    "Node 0, zone    DMA32    120     80     40     20     10      5      2      1      0      0      0 \n");
	put("zoneinfo", "Node 0, zone      DMA\n"
			"  per-node stats\n"
			"  pages free     3840\n"
			"        boost    0\n"
			"        min      44\n"
			"        low      55\n"
			"        high     66\n"
			"  pagesets\n"
			"    cpu: 0\n"
			"              count: 0\n"
			"              high:  0\n"
			"              batch: 1\n"
			"Node 0, zone    DMA32\n"
			"  pages free     217992\n"
			"      nr_free_cma  8192\n"
			"        boost    0\n"
			"        min      2915\n"
			"        low      3643\n"
			"        high     4371\n"
			"  pagesets\n"
			"    cpu: 0\n"
			"              count: 9000\n"
			"              high:  13000\n"
			"              batch: 63\n"
			"  vm stats threshold: 24\n"
			"    cpu: 1\n"
			"              count: 4177\n"
			"              high:  13000\n"
			"              batch: 63\n"
			"  vm stats threshold: 24\n"
			"  node_unreclaimable:  0\n");
	return 0;
}

static int teardown(void **state)
{
	char cmd[128];

	snprintf(cmd, sizeof(cmd), "rm -rf %s", root);
	return system(cmd);
}

/* the per-CPU lists' pages summed by zone; the watermarks not confused
 * with a pageset's "high:" */
static void test_zoneinfo_pcp(void **state)
{
	const struct ab_zonestate *z;
	struct ab_memstate m;

	assert_int_equal(ab_memstate_read(&m, 0, root), 0);
	assert_int_equal(m.nzones, 2);
	z = ab_memstate_zone(&m, "DMA32");
	assert_non_null(z);
	assert_int_equal(z->free, 217992);
	assert_int_equal(z->pcp, 9000 + 4177);
	assert_int_equal(z->free_cma, 8192);
	assert_int_equal(z->min, 2915);
	assert_int_equal(z->low, 3643);
	assert_int_equal(z->high, 4371);
	assert_int_equal(z->orders, 11);
	assert_int_equal(ab_zone_max_order(z), 7);
	z = ab_memstate_zone(&m, "DMA");
	assert_non_null(z);
	assert_int_equal(z->pcp, 0);
	assert_int_equal(z->high, 66);
}

/* another node: no line in buddyinfo */
static void test_other_node(void **state)
{
	struct ab_memstate m;

	assert_int_equal(ab_memstate_read(&m, 1, root), -ENODATA);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_zoneinfo_pcp),
		cmocka_unit_test(test_other_node),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
