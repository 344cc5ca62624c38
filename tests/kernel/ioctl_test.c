// SPDX-License-Identifier: GPL-2.0-only
/*
 * ioctl_test.c - drives /dev/allocbench with raw ioctls inside the embedded
 * kernel (cmocka, TAP output). Every validation path of AB_IOC_INFO and
 * AB_IOC_RUN is rejected with its errno; every strategy on sizes from 8
 * bytes to its maximum gives positive cycles and frees everything; *_node
 * strategies pinned to each node's CPU find all objects on that node; a
 * signal during a long run ends it within a second with nothing left
 * outstanding. Asserts relations and invariants only, never times of
 * allocations.
 *
 * This file holds the uapi layout checks and the list of tests, in the
 * order they run; the tests are in ioctl_*.c by what they drive
 * (ioctl_suite.h names them), their helpers in ioctl_suite.c.
 */
#define _GNU_SOURCE
#include <fnmatch.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include <linux/allocbench.h>
#include "ioctl_suite.h"

/*
 * The uapi layout is the same for 32-bit and 64-bit callers (the kernel's
 * compat_ioctl is compat_ptr_ioctl: no translation): every struct padded
 * explicitly, 64-bit fields at multiples of 8 (i386 aligns __u64 to 4 in
 * structs, so a missing pad would move them). Checked here in both builds;
 * pahole of the two binaries gave the same offsets for all five structs.
 */
_Static_assert(sizeof(struct ab_info) == AB_INFO_SIZE_VER4, "ab_info");
_Static_assert(sizeof(struct ab_strategy_info) == 152, "ab_strategy_info");
_Static_assert(sizeof(struct ab_sample) == 24, "ab_sample");
_Static_assert(sizeof(struct ab_run) == AB_RUN_SIZE_VER10, "ab_run");
_Static_assert(sizeof(struct ab_lookup) == AB_LOOKUP_SIZE_VER0, "ab_lookup");
_Static_assert(offsetof(struct ab_info, strategies_ptr) == 16 &&
		       offsetof(struct ab_info, version) == 72 &&
		       offsetof(struct ab_info, kernel_flags) == 136,
	       "ab_info offsets");
_Static_assert(offsetof(struct ab_strategy_info, max_size) == 8 &&
		       offsetof(struct ab_strategy_info, name) == 24,
	       "ab_strategy_info offsets");
_Static_assert(offsetof(struct ab_run, obj_size) == 8 &&
		       offsetof(struct ab_run, seed) == 64 &&
		       offsetof(struct ab_run, samples_ptr) == 72 &&
		       offsetof(struct ab_run, align) == 96 &&
		       offsetof(struct ab_run, objects) == 136 &&
		       offsetof(struct ab_run, clock_cycles) == 176 &&
		       offsetof(struct ab_run, mem_objects) ==
			       AB_RUN_SIZE_VER0 &&
		       offsetof(struct ab_run, cache_name) == AB_RUN_SIZE_VER1,
	       "ab_run offsets");
_Static_assert(offsetof(struct ab_lookup, sizes_ptr) == 16 &&
		       offsetof(struct ab_lookup, samples_ptr) == 32 &&
		       offsetof(struct ab_lookup, checksum) == 88 &&
		       offsetof(struct ab_lookup, clock_cycles) == 112,
	       "ab_lookup offsets");

/*
 * AB_IOCTL_SKIP=NAME[,NAME...]: the tests named (fnmatch(3) patterns) are
 * not run: guest.sh's focused and numa suites and debug.sh leave out what
 * another boot runs. Returns how many tests are left, in their order.
 */
static size_t skip_tests(struct CMUnitTest *t, size_t n, const char *list)
{
	size_t i, kept = 0;

	for (i = 0; i < n; i++) {
		const char *p = list;
		int skip = 0;

		while (p && *p && !skip) {
			size_t len = strcspn(p, ",");
			char *pat = strndup(p, len);

			skip = pat && !fnmatch(pat, t[i].name, 0);
			free(pat);
			p += len + (p[len] == ',');
		}
		if (!skip)
			t[kept++] = t[i];
	}
	return kept;
}

int main(void)
{
	/* sized for every unit test plus both rejection tables */
	struct CMUnitTest tests[160] = {
		cmocka_unit_test(test_info_reports),
		cmocka_unit_test(test_info_count_only),
		cmocka_unit_test(test_info_tail),
		cmocka_unit_test(test_info_kernel_flags),
		cmocka_unit_test(test_info_strategy_flags),
		cmocka_unit_test(test_info_ver0),
		cmocka_unit_test(test_budget_one_rule),
		cmocka_unit_test(test_never_allocates_refused),
		cmocka_unit_test(test_info_bad_pointer),
		cmocka_unit_test(test_unknown_command),
		cmocka_unit_test(test_run_reject_params),
		cmocka_unit_test(test_every_strategy_every_size),
		cmocka_unit_test(test_warmup_not_recorded),
		cmocka_unit_test(test_every_gfp),
		cmocka_unit_test(test_condition_rejects),
		cmocka_unit_test(test_condition_lifecycle),
		cmocka_unit_test(test_condition_fragmented),
		cmocka_unit_test(test_condition_each_trial),
		cmocka_unit_test(test_cache_merge_report),
		cmocka_unit_test(test_cache_kept_for_its_geometry),
		cmocka_unit_test(test_cache_sheaves),
		cmocka_unit_test(test_rcu_and_nolock),
		cmocka_unit_test(test_cache_merged_during_run),
		cmocka_unit_test(test_disturbed_counted),
		cmocka_unit_test(test_node_hits),
		cmocka_unit_test(test_every_mode_and_pattern),
		cmocka_unit_test(test_write_every_strategy),
		cmocka_unit_test(test_atomic_contexts),
		cmocka_unit_test(test_rt_refuses_atomic_contexts),
		cmocka_unit_test(test_atomic_context_rejects),
		cmocka_unit_test(test_single_timing_layout),
		cmocka_unit_test(test_bulk),
		cmocka_unit_test(test_lookup_methods_agree),
		cmocka_unit_test(test_lookup_rejects),
		cmocka_unit_test(test_kmalloc_class),
		cmocka_unit_test(test_remote_free),
		cmocka_unit_test(test_memory_per_object),
		cmocka_unit_test(test_task_clock_matches_wall_time),
		cmocka_unit_test(test_param_capped_at_ram),
		cmocka_unit_test(test_budget_counts_real_footprint),
		cmocka_unit_test(test_failed_allocations_end_trials),
		cmocka_unit_test(test_non_root_refused),
		cmocka_unit_test(test_run_needs_cap_sys_admin),
		cmocka_unit_test(test_phase_cap),
		cmocka_unit_test(test_cma_area_cap),
		cmocka_unit_test(test_caches_created_and_destroyed_at_once),
		cmocka_unit_test(test_atomic_gfp_capped),
		cmocka_unit_test(test_budget_busy_names_it),
		cmocka_unit_test(test_irq_off_bounded),
		cmocka_unit_test(test_sigint_default),
		cmocka_unit_test(test_sigint_caught),
	};
	size_t n;

	/* the listed tests, then the table-driven ones after them */
	for (n = 0; tests[n].test_func; n++)
		;
	n = reject_tests(tests, n, sizeof(tests) / sizeof(tests[0]));
	if (!n)
		return 1;
	n = skip_tests(tests, n, getenv("AB_IOCTL_SKIP"));
#ifdef __i386__
	/*
	 * Built with -m32 (issue 16, part 3): the same tests through the
	 * kernel's compat ioctl path, their TAP lines named apart.
	 */
	{
		size_t i;
		char *name;

		for (i = 0; i < n; i++)
			if (asprintf(&name, "i386 %s", tests[i].name) > 0)
				tests[i].name = name;
		return _cmocka_run_group_tests("ioctl-i386", tests, n,
					       setup_all, NULL);
	}
#endif
	/* AB_TEST_FILTER=PATTERN runs the tests whose names match (cmocka) */
	if (getenv("AB_TEST_FILTER"))
		cmocka_set_test_filter(getenv("AB_TEST_FILTER"));
	return _cmocka_run_group_tests("ioctl", tests, n, setup_all, NULL);
}
