// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_vmpaths.c - `allocbench vm --paths` (lib/results/vmpaths.c) through
 * ab_vm_compare(): per row and phase, each kernel's path lengths pooled
 * over its boots, the fast path (the length most ops ran), B - A of the
 * fast paths, exact however the slow paths' shares moved between boots,
 * and whether every boot ran the same fast path.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "vmab_fixture.h"

/*
 * A boot's result: kmalloc 4096, alloc lengths @fast (ops @nf) and
 * @slow (@ns), free lengths 97 (@tail ops) and 95 (@head ops: an object
 * in its slab's head page, two instructions shorter)
 */
static json_object *paths_result(long fast, long nf, long slow, long ns,
				 long tail, long head)
{
	/* the lengths as run --paths writes them: the most ops first */
	long f1 = tail >= head ? 97 : 95, f2 = tail >= head ? 95 : 97;
	long o1 = tail >= head ? tail : head, o2 = tail >= head ? head : tail;
	char text[2048];

	snprintf(
		text, sizeof(text),
		AB_TEST_KMALLOC_4K
		" \"counters\": [],"
		" \"paths\": {\"alloc\": {\"ops\": %ld, \"left_out\": 0, \"distinct\": 2,"
		"  \"lengths\": [{\"instructions\": %ld, \"ops\": %ld}, {\"instructions\": %ld, \"ops\": %ld}],"
		"  \"other_ops\": 0, \"other_instructions\": 0},"
		" \"free\": {\"ops\": %ld, \"left_out\": 1, \"distinct\": 2,"
		"  \"lengths\": [{\"instructions\": %ld, \"ops\": %ld}, {\"instructions\": %ld, \"ops\": %ld}],"
		"  \"other_ops\": 0, \"other_instructions\": 0}}}]}",
		nf + ns, fast, nf, slow, ns, tail + head, f1, o1, f2, o2);
	return json_tokener_parse(text);
}

static json_object *row(json_object *cmps, const char *phase)
{
	json_object *rows =
		ab_json_array(json_object_array_get_idx(cmps, 0), "rows");
	size_t i;

	for (i = 0; rows && i < json_object_array_length(rows); i++) {
		json_object *r = json_object_array_get_idx(rows, i);

		if (!strcmp(json_object_get_string(ab_json_get(r, "phase")),
			    phase))
			return r;
	}
	return NULL;
}

static long long jll(json_object *o, const char *key)
{
	return (long long)json_object_get_int64(ab_json_get(o, key));
}

/*
 * init_on_alloc=0 against 1 (issue 40): the alloc fast path 734
 * instructions shorter in every boot; the refill's share moves with each
 * boot's slab state, the free's head-page share too, and neither moves a
 * fast path: B - A -734 and 0, the same in every pair
 */
static void test_fast_path_exact(void **state)
{
	const char *names[] = { "6.1", "6.1:init_on_alloc=0" };
	struct ab_vm_boot b[6];
	json_object *cmps, *p, *lens;
	long slow_a = 0;
	int i;

	good_boots(b, 6);
	for (i = 0; i < 6; i++) {
		int k = b[i].kernel;
		long refill = 10 + 3 * i, head = 12 + i;

		b[i].result = k ? paths_result(270, 100 - refill, 520, refill,
					       100 - head, head)
				: paths_result(1004, 100 - refill, 1990, refill,
					       100 - head, head);
		slow_a += k ? 0 : refill;
	}
	cmps = ab_vm_compare(b, 6, 2, names, 0);
	p = ab_json_get(row(cmps, "alloc"), "paths");
	assert_non_null(p);
	assert_int_equal(jll(p, "a"), 1004);
	assert_int_equal(jll(p, "b"), 270);
	assert_int_equal(jll(p, "delta"), -734);
	assert_true(
		json_object_get_boolean(ab_json_get(p, "same_in_every_boot")));
	assert_int_equal(json_object_array_length(ab_json_get(p, "fast_a")), 3);
	assert_int_equal(jll(p, "ops_a"), 300);
	/* pooled: A's slow path after its fast one, with its ops summed */
	lens = ab_json_get(p, "lengths_a");
	assert_int_equal(json_object_array_length(lens), 2);
	assert_int_equal(
		jll(json_object_array_get_idx(lens, 1), "instructions"), 1990);
	assert_int_equal(jll(json_object_array_get_idx(lens, 1), "ops"),
			 slow_a);
	assert_true(fabs(ab_json_double(ab_json_get(p, "a_share")) -
			 (double)(300 - slow_a) / 300.0) < 1e-12);
	assert_null(ab_json_get(p, "pairs_delta"));
	p = ab_json_get(row(cmps, "free"), "paths");
	assert_int_equal(jll(p, "delta"), 0);
	json_object_put(cmps);
	/* paired by seed (vm --deterministic): each pair's B - A */
	for (i = 0; i < 6; i++)
		b[i].seed = b[i].round;
	cmps = ab_vm_compare(b, 6, 2, names, 0);
	p = ab_json_get(row(cmps, "alloc"), "paths");
	assert_non_null(ab_json_get(p, "pairs_delta"));
	for (i = 0; i < 3; i++)
		assert_int_equal(
			json_object_get_int64(json_object_array_get_idx(
				ab_json_get(p, "pairs_delta"), i)),
			-734);
	json_object_put(cmps);
	free_boots(b, 6);
}

/*
 * A boot whose state makes another length the most run (the head page in
 * most of its frees): the pooled fast path stays, "every boot" says no,
 * and that boot's own fast path is listed; no paths in A: none
 */
static void test_fast_path_differs(void **state)
{
	const char *names[] = { "6.1", "6.1" };
	struct ab_vm_boot b[6];
	json_object *cmps, *p;
	int i;

	good_boots(b, 6);
	for (i = 0; i < 6; i++)
		b[i].result = paths_result(300, 90, 600, 10, i == 3 ? 10 : 90,
					   i == 3 ? 90 : 10);
	cmps = ab_vm_compare(b, 6, 2, names, 0);
	p = ab_json_get(row(cmps, "free"), "paths");
	assert_int_equal(jll(p, "a"), 97);
	assert_int_equal(jll(p, "b"), 97);
	assert_int_equal(jll(p, "delta"), 0);
	assert_false(
		json_object_get_boolean(ab_json_get(p, "same_in_every_boot")));
	p = ab_json_get(row(cmps, "alloc"), "paths");
	assert_true(
		json_object_get_boolean(ab_json_get(p, "same_in_every_boot")));
	json_object_put(cmps);
	/* A's boots without paths (run without --paths): none */
	for (i = 0; i < 6; i++)
		if (!b[i].kernel) {
			json_object_put(b[i].result);
			b[i].result = result(100, 50, 5.0, 1, 0);
		}
	cmps = ab_vm_compare(b, 6, 2, names, 0);
	assert_null(ab_json_get(row(cmps, "alloc"), "paths"));
	json_object_put(cmps);
	free_boots(b, 6);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fast_path_exact),
		cmocka_unit_test(test_fast_path_differs),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
