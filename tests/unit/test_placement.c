// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_placement.c - the numbers of CPU and node lists are checked before
 * libnuma reads them: never truncated, ranges never reversed.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <string.h>
#include <cmocka.h>

#include "placement.h"

static void test_ids_within_range_pass(void **state)
{
	static const char *const ok[] = { "0",	 "1",  "0-1",  "0,1",  "all",
					  "1-1", "!0", "+0-1", "0-1,1" };
	char err[256];
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(ok) / sizeof(ok[0]); i++)
		assert_int_equal(ab_check_list_ids("cpu", ok[i], "CPU", 1, err,
						   sizeof(err)),
				 0);
}

static void test_ids_past_the_top_named_whole(void **state)
{
	static const struct {
		const char *arg, *msg;
	} cases[] = {
		/* 2^32 and 2^32 + 1: libnuma's int made them 0 and 1 */
		{ "4294967296",
		  "--node=4294967296: there is no node 4294967296 (nodes: 0-1)" },
		{ "4294967297",
		  "--node=4294967297: there is no node 4294967297 (nodes: 0-1)" },
		{ "1-4294967297",
		  "--node=1-4294967297: there is no node 4294967297 (nodes: 0-1)" },
		{ "99999999999999999999999",
		  "--node=99999999999999999999999: there is no node 99999999999999999999999 (nodes: 0-1)" },
		{ "0,2", "--node=0,2: there is no node 2 (nodes: 0-1)" },
	};
	char err[256];
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		assert_int_equal(ab_check_list_ids("node", cases[i].arg, "node",
						   1, err, sizeof(err)),
				 -1);
		assert_string_equal(err, cases[i].msg);
	}
	assert_int_equal(
		ab_check_list_ids("node", "1", "node", 0, err, sizeof(err)),
		-1);
	assert_string_equal(err, "--node=1: there is no node 1 (nodes: 0)");
}

static void test_reversed_range_refused(void **state)
{
	char err[256];

	(void)state;
	assert_int_equal(ab_check_list_ids("free-cpu", "1-0", "CPU", 1, err,
					   sizeof(err)),
			 -1);
	assert_non_null(
		strstr(err, "--free-cpu=1-0: the range 1-0 is reversed"));
	assert_int_equal(
		ab_check_list_ids("cpu", "0,1-0", "CPU", 1, err, sizeof(err)),
		-1);
	/* a minus sign is no range: left to libnuma, which refuses it */
	assert_int_equal(
		ab_check_list_ids("node", "-3", "node", 1, err, sizeof(err)),
		0);
	/* what numactl's syntax does not know is no list */
	assert_int_equal(
		ab_check_list_ids("cpu", "1e3", "CPU", 1, err, sizeof(err)),
		-1);
	assert_non_null(strstr(err, "--cpu=1e3: not a CPU list"));
	assert_int_equal(
		ab_check_list_ids("cpu", "0x1", "CPU", 1, err, sizeof(err)),
		-1);
	/* a comma between two numbers is no range */
	assert_int_equal(
		ab_check_list_ids("cpu", "1,0", "CPU", 1, err, sizeof(err)), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ids_within_range_pass),
		cmocka_unit_test(test_ids_past_the_top_named_whole),
		cmocka_unit_test(test_reversed_range_refused),
	};

	return cmocka_run_group_tests_name("placement", tests, NULL, NULL);
}
