// SPDX-License-Identifier: GPL-2.0-only
/* test_parse.c - sizes, integers and lists as the command line gives them. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "parse.h"

static void test_size_plain_and_suffixes(void **state)
{
	static const struct {
		const char *in;
		uint64_t want;
	} cases[] = {
		{ "1", 1 },	   { "4096", 4096 },
		{ "4K", 4096 },	   { "4k", 4096 },
		{ "4KiB", 4096 },  { "4kb", 4096 },
		{ "1M", 1048576 }, { "3G", 3ULL << 30 },
		{ "0", 0 },	   { "18446744073709551615", UINT64_MAX },
	};
	uint64_t v;
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		assert_int_equal(ab_parse_size(cases[i].in, &v), 0);
		assert_int_equal(v, cases[i].want);
	}
}

static void test_size_rejects(void **state)
{
	static const char *const bad[] = {
		"",    "abc", "-1",   "+4",  "4 K",  " 4",
		"4KK", "4T",  "1.5M", "4Kx", "0x10", "K",
	};
	uint64_t v;
	size_t i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		assert_int_equal(ab_parse_size(bad[i], &v), -EINVAL);
	assert_int_equal(ab_parse_size(NULL, &v), -EINVAL);
}

static void test_size_overflow(void **state)
{
	uint64_t v;

	assert_int_equal(ab_parse_size("18446744073709551616", &v), -ERANGE);
	/* 2^34 G = 2^64 bytes */
	assert_int_equal(ab_parse_size("17179869184G", &v), -ERANGE);
	assert_int_equal(ab_parse_size("17179869183G", &v), 0);
	assert_int_equal(v, 17179869183ULL << 30);
}

static void test_u64_range(void **state)
{
	uint64_t v;

	assert_int_equal(ab_parse_u64("7", 1, 10, &v), 0);
	assert_int_equal(v, 7);
	assert_int_equal(ab_parse_u64("0", 1, 10, &v), -ERANGE);
	assert_int_equal(ab_parse_u64("11", 1, 10, &v), -ERANGE);
	assert_int_equal(ab_parse_u64("-1", 0, 10, &v), -EINVAL);
	assert_int_equal(ab_parse_u64("1k", 0, 10000, &v), -EINVAL);
	assert_int_equal(ab_parse_u64("", 0, 10, &v), -EINVAL);
	assert_int_equal(
		ab_parse_u64("99999999999999999999", 0, UINT64_MAX, &v),
		-ERANGE);
}

static void test_split_list(void **state)
{
	char buf[64];
	char *items[4];

	strcpy(buf, "kmalloc,vmalloc_node");
	assert_int_equal(ab_split_list(buf, items, 4), 2);
	assert_string_equal(items[0], "kmalloc");
	assert_string_equal(items[1], "vmalloc_node");

	strcpy(buf, "one");
	assert_int_equal(ab_split_list(buf, items, 4), 1);
	assert_string_equal(items[0], "one");

	strcpy(buf, "a,,b");
	assert_int_equal(ab_split_list(buf, items, 4), -EINVAL);
	strcpy(buf, "a,");
	assert_int_equal(ab_split_list(buf, items, 4), -EINVAL);
	strcpy(buf, "");
	assert_int_equal(ab_split_list(buf, items, 4), -EINVAL);
	strcpy(buf, "a,b,c,d,e");
	assert_int_equal(ab_split_list(buf, items, 4), -E2BIG);
}

static void test_format_size(void **state)
{
	char buf[32];

	ab_format_size(4096, buf, sizeof(buf));
	assert_string_equal(buf, "4K");
	ab_format_size(4097, buf, sizeof(buf));
	assert_string_equal(buf, "4097");
	ab_format_size(3ULL << 30, buf, sizeof(buf));
	assert_string_equal(buf, "3G");
	ab_format_size(1536ULL << 10, buf, sizeof(buf));
	assert_string_equal(buf, "1536K");
	ab_format_size(0, buf, sizeof(buf));
	assert_string_equal(buf, "0");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_size_plain_and_suffixes),
		cmocka_unit_test(test_size_rejects),
		cmocka_unit_test(test_size_overflow),
		cmocka_unit_test(test_u64_range),
		cmocka_unit_test(test_split_list),
		cmocka_unit_test(test_format_size),
	};

	return cmocka_run_group_tests_name("parse", tests, NULL, NULL);
}
