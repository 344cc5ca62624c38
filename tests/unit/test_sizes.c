// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_sizes.c - size sequences: distributions stay in range and repeat
 * with their seed; size files, including ftrace kmem:kmalloc text, parse,
 * and bad files (empty, garbage, negative or huge sizes) give errors that
 * name the line.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "sizes.h"

static char path[64];
static char err[512];

static void write_file(const char *text)
{
	FILE *f = fopen(path, "w");

	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

static int setup(void **state)
{
	int fd;

	snprintf(path, sizeof(path), "/tmp/ab-sizes-XXXXXX");
	fd = mkstemp(path);
	if (fd < 0)
		return -1;
	close(fd);
	return 0;
}

static int teardown(void **state)
{
	return unlink(path);
}

static void test_dist_ranges_and_seed(void **state)
{
	uint32_t a[1000], b[1000], i, below_1k = 0;

	assert_int_equal(
		ab_sizes_dist("uniform:8-1K", 1000, 3, a, err, sizeof(err)), 0);
	for (i = 0; i < 1000; i++)
		assert_true(a[i] >= 8 && a[i] <= 1024);
	assert_int_equal(
		ab_sizes_dist("uniform:8-1K", 1000, 3, b, err, sizeof(err)), 0);
	assert_memory_equal(a, b, sizeof(a));
	assert_int_equal(
		ab_sizes_dist("loguniform:1-1M", 1000, 9, a, err, sizeof(err)),
		0);
	for (i = 0; i < 1000; i++) {
		assert_true(a[i] >= 1 && a[i] <= 1048576);
		below_1k += a[i] < 1024;
	}
	/* log2 uniform over [0, 21): about 10/21 of the draws are < 2^10 */
	assert_true(below_1k > 350 && below_1k < 600);
	assert_int_equal(ab_sizes_dist("const:4K", 3, 0, a, err, sizeof(err)),
			 0);
	assert_true(a[0] == 4096 && a[2] == 4096);
}

static void test_dist_errors(void **state)
{
	uint32_t a[4];

	assert_int_equal(ab_sizes_dist("normal:5", 4, 0, a, err, sizeof(err)),
			 -22);
	assert_non_null(strstr(err, "--dist=normal:5: unknown distribution"));
	assert_int_equal(
		ab_sizes_dist("uniform:9-3", 4, 0, a, err, sizeof(err)), -22);
	assert_non_null(strstr(err, "--dist=uniform:9-3: out of range"));
	assert_int_equal(
		ab_sizes_dist("uniform:0-3", 4, 0, a, err, sizeof(err)), -22);
	assert_int_equal(ab_sizes_dist("uniform:x", 4, 0, a, err, sizeof(err)),
			 -22);
	assert_int_equal(ab_sizes_dist("const:8G", 4, 0, a, err, sizeof(err)),
			 -22);
}

static void test_file_numbers_and_ftrace(void **state)
{
	uint32_t *v;
	size_t n;

	write_file(
		"# a comment\n64\n\n  128  \n"
		"  kworker/0:1-42 [000] ..... 12.3: kmalloc: call_site=foo+0x1c/0x40 ptr=0000000012345678 bytes_req=72 bytes_alloc=96 gfp_flags=GFP_KERNEL node=-1 accounted=false\n"
		"  bash-7 [001] ..... 13.0: kmalloc_node: call_site=bar ptr=00000000deadbeef bytes_req=4000 bytes_alloc=4096 gfp_flags=GFP_KERNEL node=0\n"
		"0\n4294967295\n");
	assert_int_equal(ab_sizes_file(path, &v, &n, err, sizeof(err)), 0);
	assert_int_equal(n, 6);
	assert_int_equal(v[0], 64);
	assert_int_equal(v[1], 128);
	assert_int_equal(v[2], 72);
	assert_int_equal(v[3], 4000);
	assert_int_equal(v[4], 0);
	assert_int_equal(v[5], 4294967295u);
	free(v);
}

static void expect_error(const char *text, const char *want)
{
	uint32_t *v = NULL;
	size_t n = 0;

	write_file(text);
	assert_true(ab_sizes_file(path, &v, &n, err, sizeof(err)) < 0);
	if (!strstr(err, want))
		fail_msg("error '%s' lacks '%s'", err, want);
	assert_non_null(strstr(err, path));
	assert_null(v);
}

static void test_file_errors(void **state)
{
	expect_error("", "no sizes in it");
	expect_error("# only a comment\n\n", "no sizes in it");
	expect_error("64\nhello world\n", ":2: no size");
	expect_error("64\n128\n-5\n", ":3: a negative size in '-5'");
	expect_error("4294967296\n", ":1: a size above 4294967295 bytes");
	expect_error("12 34\n", ":1: no size");
	expect_error("x bytes_req=-7 y\n", ":1: a negative size");
	expect_error("bytes_req=abc\n", ":1: no size");
}

static void test_missing_file(void **state)
{
	uint32_t *v;
	size_t n;

	assert_true(ab_sizes_file("/nonexistent/sizes", &v, &n, err,
				  sizeof(err)) < 0);
	assert_non_null(strstr(err, "/nonexistent/sizes: No such file"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_dist_ranges_and_seed),
		cmocka_unit_test(test_dist_errors),
		cmocka_unit_test(test_file_numbers_and_ftrace),
		cmocka_unit_test(test_file_errors),
		cmocka_unit_test(test_missing_file),
	};

	return cmocka_run_group_tests_name("sizes", tests, setup, teardown);
}
