// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_lookup.c - every size-class lookup method of common/ab_lookup.h
 * against a plain reference written here, for every size from 0 to the
 * largest class + 1 of both tables; the module's self-check; and the
 * pass loop both backends run (common/ab_lookup_pass.h): samples of
 * measured passes only, the checksum, a stop that keeps its pass.
 */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "ab_lookup.h"

static u64 fake_clock;
#define AB_CYCLES()  (fake_clock += 5)
#define AB_HIDE(var) __asm__ __volatile__("" : "+r"(var))
#include "ab_lookup_pass.h"
#include "lookup_time.h"

static u64 pass_cycles[8];
static int passes_left;

static int put_pass(struct ab_lookup *l, u32 index, u64 cycles)
{
	pass_cycles[index] = cycles;
	return 0;
}

static int next_pass(void)
{
	return --passes_left ? 0 : -EINTR;
}

/* The smallest class that holds @size, by the tables' own sizes. */
static int plain(const uint32_t *sizes, int nr, uint32_t size)
{
	int i;

	if (size == 0)
		return -1;
	for (i = 0; i < nr; i++)
		if (size <= sizes[i])
			return i;
	return -1;
}

static void check_table(uint32_t table, const uint32_t *sizes, int nr)
{
	const struct ab_class_table *t = ab_class_table(table);
	uint32_t m, size;

	assert_int_equal(t->nr, nr);
	assert_int_equal(t->max, sizes[nr - 1]);
	for (m = AB_LOOKUP_WALK; m < AB_LOOKUP_NR; m++)
		for (size = 0; size <= t->max + 1; size++) {
			int want = plain(sizes, nr, size);
			int got = ab_lookup(m, t, size);

			if (got != want)
				fail_msg(
					"table %s, method %u, size %u: class %d, want %d",
					t->name, m, size, got, want);
		}
	/* far above the table */
	for (m = AB_LOOKUP_WALK; m < AB_LOOKUP_NR; m++) {
		assert_int_equal(ab_lookup(m, t, UINT32_MAX), AB_NO_CLASS);
		assert_int_equal(ab_lookup(m, t, 1u << 31), AB_NO_CLASS);
	}
}

static void test_kmalloc_classes(void **state)
{
	/* x86_64, 4 KiB pages: kmalloc-8 .. kmalloc-8k with 96 and 192 */
	static const uint32_t sizes[] = { 8,   16,  32,	  64,	96,   128, 192,
					  256, 512, 1024, 2048, 4096, 8192 };

	check_table(AB_TABLE_KMALLOC, sizes, 13);
}

static void test_2002_classes(void **state)
{
	/* the cases of Danilov's switch, 4 KiB pages: 32 .. 131072 */
	static const uint32_t sizes[] = { 32,	64,    96,    128,   192,
					  256,	512,   1024,  2048,  4096,
					  8192, 16384, 32768, 65536, 131072 };

	check_table(AB_TABLE_2002, sizes, 15);
}

static void test_fls(void **state)
{
	uint32_t x;

	assert_int_equal(ab_fls_generic(0), 0);
	assert_int_equal(ab_fls_hw(0), 0);
	for (x = 1; x < (1u << 20); x++)
		assert_int_equal(ab_fls_generic(x), ab_fls_hw(x));
	assert_int_equal(ab_fls_generic(UINT32_MAX), 32);
	assert_int_equal(ab_fls_generic(1u << 31), 32);
	assert_int_equal(ab_fls_generic(1), 1);
}

static void test_selfcheck(void **state)
{
	uint32_t m = 99, t = 99;

	assert_int_equal(ab_lookup_selfcheck(&m, &t), 0);
	assert_int_equal(ab_lookup(AB_LOOKUP_NONE, &ab_table_kmalloc, 100), 0);
}

/*
 * Issue 39.3: a method's net figure below zero (its passes less the none
 * method's) is said to be noise, with its figures; at zero or above,
 * nothing.
 */
static void test_net_note(void **state)
{
	struct ab_lookup_result r = { 0 };
	char note[256];

	(void)state;
	r.method = AB_LOOKUP_FLS;
	r.fastest = 0.54;
	r.per_lookup.median = 0;
	assert_int_equal(ab_lookup_net_note(&r, note, sizeof(note)), 0);
	r.per_lookup.median = -0.27;
	assert_int_equal(ab_lookup_net_note(&r, note, sizeof(note)), 1);
	assert_non_null(strstr(
		note,
		"fls: net below zero (fastest 0.54, median -0.27 cycles per lookup)"));
	r.per_lookup.median = NAN;
	r.fastest = -1.08;
	assert_int_equal(ab_lookup_net_note(&r, note, sizeof(note)), 1);
}

static void test_passes(void **state)
{
	static const u32 sizes[] = { 32, 4096, 100 };
	struct ab_lookup l = { .method = AB_LOOKUP_KERNEL,
			       .table = AB_TABLE_KMALLOC,
			       .nr_sizes = 3,
			       .trials = 4,
			       .warmup = 2 };

	passes_left = 100;
	assert_int_equal(ab_lookup_passes(&l, sizes, put_pass, next_pass), 0);
	assert_int_equal(l.trials_done, 4);
	assert_int_equal(pass_cycles[3], 5);
	/* the sum of one pass's classes */
	assert_int_equal(l.checksum,
			 ab_lookup_reference(&ab_table_kmalloc, 32) +
				 ab_lookup_reference(&ab_table_kmalloc, 4096) +
				 ab_lookup_reference(&ab_table_kmalloc, 100));
	/* a stop after the fourth pass: two warm-up, two measured kept */
	passes_left = 4;
	assert_int_equal(ab_lookup_passes(&l, sizes, put_pass, next_pass),
			 -EINTR);
	assert_int_equal(l.trials_done, 2);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_kmalloc_classes),
		cmocka_unit_test(test_2002_classes),
		cmocka_unit_test(test_fls),
		cmocka_unit_test(test_selfcheck),
		cmocka_unit_test(test_passes),
		cmocka_unit_test(test_net_note),
	};

	return cmocka_run_group_tests_name("lookup", tests, NULL, NULL);
}
