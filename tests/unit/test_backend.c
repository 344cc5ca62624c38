// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_backend.c - backend selection and what the CLI reads from a backend
 * instead of names: the default backend, lookup by name, the names for
 * messages, each backend's default strategies and flags, and the user
 * backend's strategy table (the baseline found by its flag, the defaults
 * it names present).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "backend.h"

static void test_find(void **state)
{
	const struct ab_backend *be;
	unsigned int i;

	/* no --backend: the first of the table, the module */
	assert_ptr_equal(ab_backend_find(NULL), ab_backend_nth(0));
	assert_true(ab_backend_find(NULL)->flags & AB_BACKEND_MODULE);
	for (i = 0; (be = ab_backend_nth(i)); i++) {
		assert_ptr_equal(ab_backend_find(be->name), be);
		assert_non_null(strstr(ab_backend_names(), be->name));
		assert_non_null(be->default_run);
		assert_non_null(be->default_sweep);
		assert_non_null(be->info);
		assert_non_null(be->run);
	}
	assert_int_equal(i, 2);
	assert_null(ab_backend_find("nosuch"));
	assert_null(ab_backend_find(""));
	assert_string_equal(ab_backend_names(), "kmod, user");
}

/* Only the module frees on another CPU; the user backend is in-process. */
static void test_flags(void **state)
{
	assert_true(ab_backend_kmod.flags & AB_BACKEND_REMOTE_FREE);
	assert_false(ab_backend_user.flags &
		     (AB_BACKEND_MODULE | AB_BACKEND_REMOTE_FREE));
}

/*
 * The user backend's table: one baseline, found by its flag; the default
 * strategies exist, and the sweep's takes a node.
 */
static void test_user_strategies(void **state)
{
	const struct ab_strategy_info *none, *run, *sweep;
	struct ab_backend_info bi;
	char why[AB_ERRLEN];
	unsigned int i, baselines = 0;

	assert_int_equal(ab_backend_user.info(&bi, why, sizeof(why)), 0);
	for (i = 0; i < bi.info.nr_strategies; i++) {
		assert_int_equal(bi.strategies[i].id, i);
		assert_int_equal(
			bi.strategies[i].flags & ~AB_STRATEGY_FLAGS_ALL, 0);
		baselines += !!(bi.strategies[i].flags & AB_STRATEGY_BASELINE);
	}
	assert_int_equal(baselines, 1);
	none = ab_strategy_baseline(&bi);
	assert_non_null(none);
	assert_int_equal(none->params & (AB_PARAM_SIZE | AB_PARAM_ORDER), 0);
	run = ab_strategy_find(&bi, ab_backend_user.default_run);
	sweep = ab_strategy_find(&bi, ab_backend_user.default_sweep);
	assert_non_null(run);
	assert_non_null(sweep);
	assert_true(sweep->params & AB_PARAM_NODE);
	assert_null(ab_strategy_find(&bi, "nosuch"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_find),
		cmocka_unit_test(test_flags),
		cmocka_unit_test(test_user_strategies),
	};

	return cmocka_run_group_tests_name("backend", tests, NULL, NULL);
}
