// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_env.c - environment capture from a directory of fake /proc, /sys
 * and /boot files: boot parameters override config defaults, each
 * distorting setting gives its warning, and missing files give "?" rather
 * than a failure.
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

#include "env.h"

static char root[64];

static void put(const char *path, const char *text)
{
	char full[256], cmd[300];
	FILE *f;

	snprintf(full, sizeof(full), "%s%s", root, path);
	snprintf(cmd, sizeof(cmd), "mkdir -p \"$(dirname '%s')\"", full);
	assert_int_equal(system(cmd), 0);
	f = fopen(full, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

static int setup(void **state)
{
	snprintf(root, sizeof(root), "/tmp/ab-env-XXXXXX");
	if (!mkdtemp(root))
		return -1;
	put("/proc/sys/kernel/osrelease", "6.1.0-57-amd64\n");
	put("/boot/config-6.1.0-57-amd64",
	    "# comment\nCONFIG_INIT_ON_ALLOC_DEFAULT_ON=y\n"
	    "# CONFIG_INIT_ON_FREE_DEFAULT_ON is not set\n"
	    "CONFIG_SLAB_MERGE_DEFAULT=y\nCONFIG_SLAB_FREELIST_RANDOM=y\n"
	    "CONFIG_SHUFFLE_PAGE_ALLOCATOR=y\nCONFIG_PREEMPT_VOLUNTARY=y\n"
	    "CONFIG_PREEMPT_DYNAMIC=y\n");
	put("/proc/cpuinfo", "processor\t: 0\nmodel name\t: Test CPU @ 1GHz\n"
			     "flags\t\t: fpu tsc hypervisor\n");
	put("/sys/devices/system/cpu/cpu0/cpufreq/scaling_governor",
	    "powersave\n");
	return 0;
}

static int teardown(void **state)
{
	char cmd[128];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
	return system(cmd);
}

static int has_warning(const struct ab_env *env, const char *what)
{
	char buf[4096];
	const char *w = buf;
	int i, n = ab_env_warnings(env, buf, sizeof(buf));

	for (i = 0; i < n; i++, w += strlen(w) + 1)
		if (strstr(w, what))
			return 1;
	return 0;
}

static void test_config_defaults(void **state)
{
	struct ab_env env;

	put("/proc/cmdline", "console=ttyS0 quiet\n");
	ab_env_read(&env, root, 0);
	assert_string_equal(env.release, "6.1.0-57-amd64");
	assert_string_equal(env.config_source, "/boot/config-6.1.0-57-amd64");
	assert_int_equal(env.init_on_alloc, 1);
	assert_int_equal(env.init_on_free, 0);
	assert_int_equal(env.slab_merge, 1);
	assert_int_equal(env.slub_debug, 0);
	assert_string_equal(env.preempt_model, "voluntary");
	assert_string_equal(env.c_kasan, "n");
	assert_string_equal(env.cpu_model, "Test CPU @ 1GHz");
	assert_int_equal(env.hypervisor, 1);
	assert_string_equal(env.governor, "powersave");
	assert_true(has_warning(&env, "init_on_alloc=1"));
	assert_true(has_warning(&env, "slab merging is on"));
	assert_true(has_warning(&env, "SLAB_FREELIST_RANDOM"));
	assert_true(has_warning(&env, "virtualized"));
	assert_true(has_warning(&env, "governor"));
	assert_false(has_warning(&env, "init_on_free"));
	assert_false(has_warning(&env, "page_alloc.shuffle"));
}

static void test_boot_parameters_win(void **state)
{
	struct ab_env env;

	put("/proc/cmdline", "init_on_alloc=0 slab_nomerge slub_debug=FZ "
			     "preempt=full page_alloc.shuffle=1 "
			     "mitigations=off init_on_free=1\n");
	ab_env_read(&env, root, 0);
	assert_int_equal(env.init_on_alloc, 0);
	assert_int_equal(env.init_on_free, 1);
	assert_int_equal(env.slab_merge, 0);
	assert_int_equal(env.slub_debug, 1);
	assert_string_equal(env.p_slub_debug, "FZ");
	assert_string_equal(env.preempt_model, "full");
	assert_string_equal(env.p_mitigations, "off");
	assert_false(has_warning(&env, "init_on_alloc=1"));
	assert_false(has_warning(&env, "slab merging is on"));
	assert_true(has_warning(&env, "init_on_free=1"));
	assert_true(has_warning(&env, "slub_debug"));
	assert_true(has_warning(&env, "page_alloc.shuffle=1"));
}

static void test_nothing_readable(void **state)
{
	struct ab_env env;

	ab_env_read(&env, "/nonexistent-root", 3);
	assert_string_equal(env.config_source, "none");
	assert_string_equal(env.c_kasan, "?");
	assert_int_equal(env.init_on_alloc, -1);
	assert_int_equal(env.slab_merge, -1);
	assert_string_equal(env.governor, "none");
	assert_int_equal(env.hypervisor, -1);
	assert_false(has_warning(&env, "init_on_alloc"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_config_defaults),
		cmocka_unit_test(test_boot_parameters_win),
		cmocka_unit_test(test_nothing_readable),
	};

	return cmocka_run_group_tests_name("env", tests, setup, teardown);
}
