// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_resultrow.c - the one model of a saved result's rows: a row's
 * identity (what it times, then its setup), a sweep cell's size, series
 * and node word from its label, the name readers print, and finding a row
 * by identity among several of one identity (--concurrent).
 */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "parse.h"
#include "resultrow.h"

static json_object *parse(const char *text)
{
	json_object *o = json_tokener_parse(text);

	assert_non_null(o);
	return o;
}

#define ROW(label, bytes, node, cpu)                                           \
	"{\"kind\": \"alloc\", \"strategy\": \"kmalloc\", \"label\": \"" label \
	"\", \"object_bytes\": " #bytes ", \"node\": " #node                   \
	", \"free_cpu\": null, \"cpu_start\": " #cpu "}"

static void test_identity(void **state)
{
	json_object *a = parse(ROW("kmalloc", 64, -1, 0));
	json_object *cpu1 = parse(ROW("kmalloc", 64, -1, 1));
	json_object *bytes = parse(ROW("kmalloc", 128, -1, 0));
	json_object *node = parse(ROW("kmalloc", 64, 1, 0));
	json_object *other = parse(ROW("kmem_cache", 64, -1, 0));
	char *ka = ab_result_row_key(a), *k1 = ab_result_row_key(cpu1),
	     *kb = ab_result_row_key(bytes), *kn = ab_result_row_key(node);

	(void)state;
	/* the CPU number is not in the identity; the setup is */
	assert_string_equal(ka, k1);
	assert_string_not_equal(ka, kb);
	assert_string_not_equal(ka, kn);
	/* the first part alone: the same strategy, whatever the setup */
	assert_true(ab_result_row_same_what(a, bytes));
	assert_true(ab_result_row_same_what(a, node));
	assert_false(ab_result_row_same_what(a, other));
	free(ka);
	free(k1);
	free(kb);
	free(kn);
	json_object_put(a);
	json_object_put(cpu1);
	json_object_put(bytes);
	json_object_put(node);
	json_object_put(other);
}

static void test_lookup_identity(void **state)
{
	json_object *a = parse("{\"kind\": \"lookup\", \"method\": \"walk\", "
			       "\"table\": \"kmalloc\", \"sizes\": \"8-64\"}");
	json_object *b = parse("{\"kind\": \"lookup\", \"method\": \"fls\", "
			       "\"table\": \"kmalloc\", \"sizes\": \"8-64\"}");
	struct ab_result_row m;
	char *name = ab_result_row_name(a);

	(void)state;
	assert_false(ab_result_row_same_what(a, b));
	assert_string_equal(name, "lookup walk (kmalloc, sizes 8-64)");
	assert_int_equal(ab_result_row_read(a, &m), 0);
	assert_string_equal(m.strategy, "walk");
	assert_true(isnan(m.object_bytes));
	free(name);
	json_object_put(a);
	json_object_put(b);
}

static void test_sweep_label(void **state)
{
	json_object *r = parse(ROW("kmalloc 2K n0>n1", 2048, 1, 0));
	json_object *gfp = parse(ROW("get_free_pages 8 n0", 4096, -1, 0));
	json_object *run = parse(ROW("kmem_cache nomerge", 64, -1, 0));
	struct ab_result_row m;

	(void)state;
	assert_int_equal(ab_result_row_read(r, &m), 0);
	assert_true(m.size == 2048);
	assert_string_equal(m.series, "kmalloc n0>n1");
	assert_string_equal(m.nodes, "n0>n1");
	assert_int_equal(m.node, 1);
	/* the size asked for, not the page the strategy hands out */
	assert_int_equal(ab_result_row_read(gfp, &m), 0);
	assert_true(m.size == 8);
	assert_true(m.object_bytes == 4096);
	assert_string_equal(m.series, "get_free_pages n0");
	/* not a sweep cell: the label is the series, no node word */
	assert_int_equal(ab_result_row_read(run, &m), 0);
	assert_true(m.size == 64);
	assert_string_equal(m.series, "kmem_cache nomerge");
	assert_string_equal(m.nodes, "");
	assert_int_equal(ab_result_row_read(NULL, &m), -EINVAL);
	json_object_put(r);
	json_object_put(gfp);
	json_object_put(run);
}

static void test_find(void **state)
{
	json_object *doc =
		parse("{\"results\": [" ROW("kmalloc", 64, -1, 0) ", " ROW(
			"kmalloc", 64, -1, 1) ", " ROW("vmalloc", 64, -1,
						       0) "]}");
	json_object *rows = ab_result_rows(doc);
	json_object *first = json_object_array_get_idx(rows, 0);
	char *key = ab_result_row_key(first), *name = ab_result_row_name(first);

	(void)state;
	assert_ptr_equal(ab_result_find(doc, key, 0), first);
	assert_ptr_equal(ab_result_find(doc, key, 1),
			 json_object_array_get_idx(rows, 1));
	assert_null(ab_result_find(doc, key, 2));
	assert_null(ab_result_find(doc, NULL, 0));
	assert_ptr_equal(
		ab_result_find_what(doc, json_object_array_get_idx(rows, 2)),
		json_object_array_get_idx(rows, 2));
	assert_string_equal(name, "kmalloc 64 B");
	free(key);
	free(name);
	json_object_put(doc);
}

/*
 * Issue 43: a page-order row is named by its order, as run's object
 * column names it ("cma order 4"), not by its bytes ("cma 65536 B");
 * a size row by its bytes as before.
 */
static void test_name_order(void **state)
{
	json_object *doc = parse(
		"{\"results\": [{\"kind\": \"alloc\", \"strategy\": \"cma\", "
		"\"label\": \"cma\", \"object_bytes\": 65536, \"order\": 4}, "
		"{\"kind\": \"alloc\", \"strategy\": \"kmalloc\", "
		"\"label\": \"kmalloc\", \"object_bytes\": 4096, \"order\": null}]}");
	json_object *rows = ab_result_rows(doc);
	char *a = ab_result_row_name(json_object_array_get_idx(rows, 0));
	char *b = ab_result_row_name(json_object_array_get_idx(rows, 1));
	char obj[48];

	(void)state;
	assert_string_equal(a, "cma order 4");
	assert_string_equal(b, "kmalloc 4096 B");
	/* the same rule as run's object column (job/report_table.c) */
	ab_format_object(4, 65536, 0, obj, sizeof(obj));
	assert_string_equal(obj, "order 4");
	ab_format_object(-1, 4096, 0, obj, sizeof(obj));
	assert_string_equal(obj, "4K");
	free(a);
	free(b);
	json_object_put(doc);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_identity),
		cmocka_unit_test(test_name_order),
		cmocka_unit_test(test_lookup_identity),
		cmocka_unit_test(test_sweep_label),
		cmocka_unit_test(test_find),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
