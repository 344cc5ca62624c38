// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_order.c - the free orders of common/ab_free_order.h, the same code the
 * module runs: each is a permutation, fifo and lifo are what they say, and
 * a shuffle is repeatable for the same seed and trial.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "ab_free_order.h"

#define N 1000

static int is_permutation(const uint32_t *o, uint32_t n)
{
	static uint8_t seen[N];
	uint32_t i;

	memset(seen, 0, sizeof(seen));
	for (i = 0; i < n; i++) {
		if (o[i] >= n || seen[o[i]])
			return 0;
		seen[o[i]] = 1;
	}
	return 1;
}

static void test_fifo_lifo(void **state)
{
	uint32_t o[N], i;

	ab_free_order(o, N, AB_FREE_FIFO, 0, 0);
	for (i = 0; i < N; i++)
		assert_int_equal(o[i], i);
	ab_free_order(o, N, AB_FREE_LIFO, 0, 0);
	for (i = 0; i < N; i++)
		assert_int_equal(o[i], N - 1 - i);
}

static void test_shuffle_repeatable(void **state)
{
	uint32_t a[N], b[N], c[N], d[N], i, moved = 0;

	ab_free_order(a, N, AB_FREE_SHUFFLE, 42, 7);
	ab_free_order(b, N, AB_FREE_SHUFFLE, 42, 7);
	assert_memory_equal(a, b, sizeof(a));
	assert_true(is_permutation(a, N));
	for (i = 0; i < N; i++)
		moved += a[i] != i;
	/* a uniform shuffle of 1000 leaves about one element in place */
	assert_true(moved > N / 2);
	/* another seed, or another trial, gives another order */
	ab_free_order(c, N, AB_FREE_SHUFFLE, 43, 7);
	ab_free_order(d, N, AB_FREE_SHUFFLE, 42, 8);
	assert_true(memcmp(a, c, sizeof(a)) != 0);
	assert_true(memcmp(a, d, sizeof(a)) != 0);
	assert_true(is_permutation(c, N) && is_permutation(d, N));
}

static void test_small_and_zero_seed(void **state)
{
	uint32_t o[2];

	ab_free_order(o, 0, AB_FREE_SHUFFLE, 0, 0);
	ab_free_order(o, 1, AB_FREE_SHUFFLE, 0, 0);
	assert_int_equal(o[0], 0);
	ab_free_order(o, 2, AB_FREE_SHUFFLE, 0, 0);
	assert_true(is_permutation(o, 2));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fifo_lifo),
		cmocka_unit_test(test_shuffle_repeatable),
		cmocka_unit_test(test_small_and_zero_seed),
	};

	return cmocka_run_group_tests_name("order", tests, NULL, NULL);
}
