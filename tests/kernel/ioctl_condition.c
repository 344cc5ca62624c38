// SPDX-License-Identifier: GPL-2.0-only
/*
 * ioctl_condition.c - AB_IOC_CONDITION: each field's refusal, one
 * condition at a time, UNDO and STATE, and the close of the file that
 * holds one giving everything back (what a SIGKILL of the CLI does).
 * The vmap-fragmented kind is used where any kind would do: it is the
 * quickest to build under TCG; the fragmented kind's build is checked
 * against the zone's own free lists.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>
#include "ab_testlib.h"
#include "ioctl_suite.h"

static struct ab_condition cond(uint32_t op, uint32_t kinds, int node)
{
	struct ab_condition c;

	memset(&c, 0, sizeof(c));
	c.size = sizeof(c);
	c.op = op;
	c.kinds = kinds;
	c.node = node;
	return c;
}

static int cond_call(int on, struct ab_condition *c)
{
	return ab_ioctl(on, AB_IOC_CONDITION, c);
}

void test_condition_rejects(void **state)
{
	static const struct {
		const char *what;
		uint32_t op, kinds, frag;
		int node, reserved;
	} bad[] = {
		{ "unknown op", 9, AB_COND_VMAP_FRAGMENTED, 0, -1, 0 },
		{ "op 0", 0, 0, 0, -1, 0 },
		{ "no kinds", AB_COND_BUILD, 0, 0, 0, 0 },
		{ "unknown kind", AB_COND_BUILD, 1U << 3, 0, 0, 0 },
		{ "fragmented without a node", AB_COND_BUILD,
		  AB_COND_FRAGMENTED, 0, -1, 0 },
		{ "pressure on no node", AB_COND_BUILD, AB_COND_PRESSURE, 0,
		  4096, 0 },
		{ "vmap with a node", AB_COND_BUILD, AB_COND_VMAP_FRAGMENTED, 0,
		  0, 0 },
		{ "frag_order above the limit", AB_COND_BUILD,
		  AB_COND_FRAGMENTED, AB_COND_MAX_FRAG_ORDER + 1, 0, 0 },
		{ "frag_order without fragmented", AB_COND_BUILD,
		  AB_COND_PRESSURE, 1, 0, 0 },
		{ "undo with kinds", AB_COND_UNDO, AB_COND_PRESSURE, 0, -1, 0 },
		{ "state with a node", AB_COND_STATE, 0, 0, 0, 0 },
		{ "reserved0", AB_COND_BUILD, AB_COND_VMAP_FRAGMENTED, 0, -1,
		  1 },
		{ "reserved[1]", AB_COND_BUILD, AB_COND_VMAP_FRAGMENTED, 0, -1,
		  2 },
	};
	struct ab_condition c;
	size_t i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		c = cond(bad[i].op, bad[i].kinds, bad[i].node);
		c.frag_order = bad[i].frag;
		if (bad[i].reserved == 1)
			c.reserved0 = 1;
		if (bad[i].reserved == 2)
			c.reserved[1] = 1;
		if (cond_call(fd, &c) != EINVAL)
			fail_msg("condition: %s accepted", bad[i].what);
	}
	/* a size below version 0 */
	c = cond(AB_COND_STATE, 0, -1);
	c.size = AB_CONDITION_SIZE_VER0 - 8;
	assert_int_equal(cond_call(fd, &c), EINVAL);
	/* nothing held: UNDO and STATE have nothing to act on */
	c = cond(AB_COND_UNDO, 0, -1);
	assert_int_equal(cond_call(fd, &c), ENOENT);
	c = cond(AB_COND_STATE, 0, -1);
	assert_int_equal(cond_call(fd, &c), ENOENT);
	assert_true(info.kernel_flags & AB_KERNEL_CONDITIONS);
}

void test_condition_lifecycle(void **state)
{
	struct ab_condition c =
		cond(AB_COND_BUILD, AB_COND_VMAP_FRAGMENTED, -1);
	int other = ab_open();

	assert_true(other >= 0);
	assert_int_equal(cond_call(other, &c), 0);
	assert_int_equal(c.vmap_areas, AB_COND_VMAP_AREAS / 2);
	assert_true(c.build_ns > 0);
	/* one at a time: this file cannot build another, nor undo that one */
	c = cond(AB_COND_BUILD, AB_COND_VMAP_FRAGMENTED, -1);
	assert_int_equal(cond_call(fd, &c), EBUSY);
	c = cond(AB_COND_UNDO, 0, -1);
	assert_int_equal(cond_call(fd, &c), ENOENT);
	c = cond(AB_COND_STATE, 0, -1);
	assert_int_equal(cond_call(other, &c), 0);
	assert_int_equal(c.vmap_areas, AB_COND_VMAP_AREAS / 2);
	/* the close gives it back: another file can build one at once */
	close(other);
	c = cond(AB_COND_BUILD, AB_COND_VMAP_FRAGMENTED, -1);
	assert_int_equal(cond_call(fd, &c), 0);
	c = cond(AB_COND_UNDO, 0, -1);
	assert_int_equal(cond_call(fd, &c), 0);
	assert_int_equal(c.vmap_areas, AB_COND_VMAP_AREAS / 2);
	c = cond(AB_COND_STATE, 0, -1);
	assert_int_equal(cond_call(fd, &c), ENOENT);
}

/* fragmented: no free block above frag_order in the zone it names */
void test_condition_fragmented(void **state)
{
	struct ab_condition c = cond(AB_COND_BUILD, AB_COND_FRAGMENTED, 0);

	c.frag_order = 2;
	assert_int_equal(cond_call(fd, &c), 0);
	/*
	 * pages others free late (a deferred free merging in the buddy lists
	 * while the build ends) can leave one block above the order: seen on
	 * 6.12-rt in two fresh-clone CI runs of five, never again in a boot.
	 * Built once more before it counts, as tests/kernel/condition.sh does
	 */
	if (c.max_free_order > 2) {
		print_message(
			"# fragmented: a block of order %d after the build; building it again\n",
			c.max_free_order);
		c = cond(AB_COND_UNDO, 0, -1);
		assert_int_equal(cond_call(fd, &c), 0);
		c = cond(AB_COND_BUILD, AB_COND_FRAGMENTED, 0);
		c.frag_order = 2;
		assert_int_equal(cond_call(fd, &c), 0);
	}
	assert_true(c.held_pages > 0);
	assert_true(c.zone[0] != '\0');
	assert_true(c.max_free_order <= 2);
	assert_true(c.zone_free > c.zone_min);
	c = cond(AB_COND_UNDO, 0, -1);
	assert_int_equal(cond_call(fd, &c), 0);
	assert_int_equal(outstanding(), 0);
}

/*
 * AB_RUN_COND_EACH_TRIAL (issue 39): refused without a condition to
 * restore (none held, or vmap-fragmented alone: -ENOENT); with fragmented
 * held, every measured trial is restored first, the ones that began
 * without it are counted and their samples marked, and a trial that met
 * it began with no free block above frag_order. Without the flag the
 * outputs say nothing was restored.
 */
void test_condition_each_trial(void **state)
{
	static struct ab_sample s[8 * 4];
	struct ab_condition c =
		cond(AB_COND_BUILD, AB_COND_VMAP_FRAGMENTED, -1);
	struct ab_run r = req("alloc_pages_node");
	uint32_t i, unmet = 0;

	r.flags |= AB_RUN_COND_EACH_TRIAL;
	assert_int_equal(xioctl(AB_IOC_RUN, &r), ENOENT);
	assert_int_equal(cond_call(fd, &c), 0);
	r = req("alloc_pages_node");
	r.flags |= AB_RUN_COND_EACH_TRIAL;
	assert_int_equal(xioctl(AB_IOC_RUN, &r), ENOENT);
	c = cond(AB_COND_UNDO, 0, -1);
	assert_int_equal(cond_call(fd, &c), 0);

	c = cond(AB_COND_BUILD, AB_COND_FRAGMENTED, 0);
	c.frag_order = 2;
	assert_int_equal(cond_call(fd, &c), 0);
	r = req("alloc_pages_node");
	r.node = 0;
	r.order = 3;
	r.batch = 4;
	r.trials = 8;
	r.timing = AB_TIMING_SINGLE;
	r.flags |= AB_RUN_COND_EACH_TRIAL;
	r.samples_ptr = (uint64_t)(uintptr_t)s;
	r.samples_len = 8 * 4;
	assert_int_equal(xioctl(AB_IOC_RUN, &r), 0);
	assert_int_equal(r.trials_done, 8);
	assert_true(r.cond_unmet <= r.trials_done);
	assert_true(r.cond_max_order <= 2);
	for (i = 0; i < 8 * 4; i++) {
		int bit = !!(s[i].flags & AB_SAMPLE_COND_UNMET);

		/* every slot of a trial carries its trial's bit */
		assert_int_equal(bit,
				 !!(s[i / 4 * 4].flags & AB_SAMPLE_COND_UNMET));
		unmet += bit && i % 4 == 0;
	}
	assert_int_equal(unmet, r.cond_unmet);
	print_message(
		"# each trial: %u of 8 began without the condition, max free order at the others' start %d, %llu pages taken again\n",
		r.cond_unmet, r.cond_max_order,
		(unsigned long long)r.cond_restored_pages);
	/* without the flag: nothing restored, nothing marked */
	r = req("alloc_pages_node");
	assert_int_equal(xioctl(AB_IOC_RUN, &r), 0);
	assert_int_equal(r.cond_unmet, 0);
	assert_int_equal(r.cond_max_order, -1);
	assert_int_equal(r.cond_restored_pages, 0);
	c = cond(AB_COND_UNDO, 0, -1);
	assert_int_equal(cond_call(fd, &c), 0);
	assert_int_equal(outstanding(), 0);
}
