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
	put("/proc/sys/kernel/version",
	    "#1 SMP PREEMPT_DYNAMIC Debian 6.1.158-1 (2025-11-09)\n");
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
	assert_non_null(strstr(env.preempt_detail, "PREEMPT_DYNAMIC"));
	assert_non_null(strstr(env.preempt_detail, "config"));
	assert_string_equal(env.distribution, "Debian");
	assert_string_equal(env.flavour, "amd64");
	assert_string_equal(env.local_version, "-57-amd64");
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
	/* a root other than the running system: the crng's state unknown */
	assert_int_equal(env.crng_ready, -1);
	assert_false(has_warning(&env, "random number generator"));
	env.crng_ready = 0;
	assert_true(has_warning(&env, "random number generator is not seeded"));
	env.crng_ready = 1;
	assert_false(has_warning(&env, "random number generator"));
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
	assert_non_null(strstr(env.preempt_detail, "preempt= boot parameter"));
	assert_string_equal(env.p_mitigations, "off");
	assert_false(has_warning(&env, "init_on_alloc=1"));
	assert_false(has_warning(&env, "slab merging is on"));
	assert_true(has_warning(&env, "init_on_free=1"));
	assert_true(has_warning(&env, "slub_debug"));
	assert_true(has_warning(&env, "page_alloc.shuffle=1"));
}

/* The header line of @env, as ab_env_print() writes it. */
static void header(const struct ab_env *env, char *buf, size_t len)
{
	FILE *f = fmemopen(buf, len, "w");

	assert_non_null(f);
	ab_env_print(f, env, 1000000);
	fclose(f);
}

/* A dynamic kernel's current mode (debugfs) wins over preempt=. */
static void test_debugfs_mode_wins(void **state)
{
	struct ab_env env;
	char path[128];

	put("/proc/cmdline", "preempt=none\n");
	put("/sys/kernel/debug/sched/preempt", "none voluntary (full) lazy\n");
	ab_env_read(&env, root, 0);
	snprintf(path, sizeof(path), "%s/sys/kernel/debug/sched/preempt", root);
	unlink(path);
	assert_string_equal(env.preempt_model, "full");
	assert_string_equal(env.preempt_detail,
			    "PREEMPT_DYNAMIC; mode from debugfs");
}

/*
 * A kernel of its own in @sub under the fake root: release, uname -v,
 * optionally a config and debugfs's preempt line.
 */
static void fake_kernel(const char *sub, const char *release,
			const char *version, const char *config,
			const char *debugfs, struct ab_env *env)
{
	char saved[sizeof(root)], path[128];

	memcpy(saved, root, sizeof(root));
	if (snprintf(root, sizeof(root), "%s/%s", saved, sub) >=
	    (int)sizeof(root))
		fail_msg("fake root too long");
	put("/proc/sys/kernel/osrelease", release);
	put("/proc/sys/kernel/version", version);
	put("/proc/cmdline", "quiet\n");
	if (config) {
		snprintf(path, sizeof(path), "/boot/config-%s", release);
		put(path, config);
	}
	if (debugfs)
		put("/sys/kernel/debug/sched/preempt", debugfs);
	ab_env_read(env, root, 0);
	memcpy(root, saved, sizeof(root));
}

/*
 * Debian's 6.12 RT kernel: uname -v says PREEMPT_RT, and debugfs (it is
 * also PREEMPT_DYNAMIC) says lazy: the model is rt, lazy a detail.
 */
static void test_rt_kernel(void **state)
{
	struct ab_env env;
	char buf[4096];

	fake_kernel("rt", "6.12.117+deb12-rt-amd64",
		    "#1 SMP PREEMPT_RT Debian 6.12.117-1~deb12u1 (2026-11-14)",
		    "CONFIG_PREEMPT_BUILD=y\nCONFIG_PREEMPT_LAZY=y\n"
		    "CONFIG_PREEMPT_RT=y\nCONFIG_PREEMPT_DYNAMIC=y\n",
		    "none voluntary full (lazy)\n", &env);
	assert_string_equal(env.release, "6.12.117+deb12-rt-amd64");
	assert_string_equal(env.preempt_model, "rt");
	assert_string_equal(env.preempt_detail, "PREEMPT_RT; mode lazy");
	assert_string_equal(env.distribution, "Debian");
	assert_string_equal(env.flavour, "rt-amd64");
	assert_string_equal(env.local_version, "+deb12-rt-amd64");
	header(&env, buf, sizeof(buf));
	assert_non_null(strstr(
		buf,
		"kernel 6.12.117+deb12-rt-amd64 (Debian, flavour rt-amd64): preempt rt (PREEMPT_RT; mode lazy), "));

	/* without debugfs: rt all the same */
	fake_kernel("rt2", "6.1.0-57-rt-amd64",
		    "#1 SMP PREEMPT_RT Debian 6.1.158-1 (2025-11-09)", NULL,
		    NULL, &env);
	assert_string_equal(env.preempt_model, "rt");
	assert_string_equal(env.preempt_detail, "PREEMPT_RT");
	assert_string_equal(env.flavour, "rt-amd64");
}

/*
 * Debian's 7.3: PREEMPT_LAZY built in, PREEMPT_DYNAMIC without debugfs,
 * and the compiler as /proc/version states it (parentheses inside, the
 * linker after a comma). Without a banner the compiler is "".
 */
static void test_lazy_and_compiler(void **state)
{
	struct ab_env env;
	char buf[4096];

	fake_kernel(
		"k73", "7.3.4+deb13-amd64",
		"#1 SMP PREEMPT_DYNAMIC Debian 7.3.4-1~bpo13+1 (2026-11-15)",
		"CONFIG_PREEMPT_BUILD=y\n# CONFIG_PREEMPT is not set\n"
		"CONFIG_PREEMPT_LAZY=y\nCONFIG_PREEMPT_DYNAMIC=y\n",
		NULL, &env);
	assert_string_equal(env.preempt_model, "lazy");
	assert_string_equal(env.compiler, "");
	put("/k73b/proc/version",
	    "Linux version 7.3.4+deb13-amd64 (debian-kernel@lists.debian.org) "
	    "(x86_64-linux-gnu-gcc-14 (Debian 14.2.0-19) 14.2.0, GNU ld (GNU Binutils for Debian) 2.44) "
	    "#1 SMP PREEMPT_DYNAMIC Debian 7.3.4-1~bpo13+1 (2026-11-15)\n");
	fake_kernel(
		"k73b", "7.3.4+deb13-amd64",
		"#1 SMP PREEMPT_DYNAMIC Debian 7.3.4-1~bpo13+1 (2026-11-15)",
		NULL, NULL, &env);
	assert_string_equal(
		env.compiler,
		"x86_64-linux-gnu-gcc-14 (Debian 14.2.0-19) 14.2.0");
	header(&env, buf, sizeof(buf));
	assert_non_null(strstr(
		buf,
		"; built by x86_64-linux-gnu-gcc-14 (Debian 14.2.0-19) 14.2.0\n"));
}

/* Flavours of Debian's release names; what can be said of the others. */
static void test_flavours(void **state)
{
	struct ab_env env;
	char buf[4096];

	fake_kernel("cloud", "6.12.38+deb13-cloud-amd64",
		    "#1 SMP PREEMPT_DYNAMIC Debian 6.12.38-1 (2025-07-16)",
		    NULL, "none (voluntary) full lazy\n", &env);
	assert_string_equal(env.flavour, "cloud-amd64");
	assert_string_equal(env.preempt_model, "voluntary");
	fake_kernel("bpo", "6.1.0-0.deb11.17-amd64",
		    "#1 SMP PREEMPT_DYNAMIC Debian 6.1.69-1~bpo11+1", NULL,
		    NULL, &env);
	assert_string_equal(env.flavour, "amd64");
	fake_kernel("bpo12", "6.12.12+bpo-amd64",
		    "#1 SMP PREEMPT_DYNAMIC Debian 6.12.12-1~bpo12+1", NULL,
		    NULL, &env);
	assert_string_equal(env.distribution, "Debian");
	assert_string_equal(env.flavour, "amd64");

	/* another distribution's kernel: no flavour, its local version */
	fake_kernel(
		"ubuntu", "6.8.0-45-generic",
		"#45-Ubuntu SMP PREEMPT_DYNAMIC Fri Aug 30 12:02:04 UTC 2024",
		"CONFIG_PREEMPT_VOLUNTARY=y\nCONFIG_PREEMPT_DYNAMIC=y\n", NULL,
		&env);
	assert_string_equal(env.distribution, "");
	assert_string_equal(env.flavour, "");
	assert_string_equal(env.local_version, "-45-generic");
	assert_string_equal(env.preempt_model, "voluntary");
	header(&env, buf, sizeof(buf));
	assert_non_null(strstr(
		buf,
		"kernel 6.8.0-45-generic (not a Debian kernel: no flavour; local version '-45-generic'): preempt voluntary ("));

	/* a vanilla build with full preemption, not dynamic */
	fake_kernel("vanilla", "6.12.0", "#1 SMP PREEMPT Mon Jan 1 2024",
		    "CONFIG_PREEMPT=y\n", NULL, &env);
	assert_string_equal(env.local_version, "");
	assert_string_equal(env.preempt_model, "full");
	assert_string_equal(env.preempt_detail, "PREEMPT");
	header(&env, buf, sizeof(buf));
	assert_non_null(strstr(
		buf,
		"kernel 6.12.0 (not a Debian kernel: no flavour, no local version): preempt full (PREEMPT)"));

	/* uname -v names no preemption: the config says which */
	fake_kernel("none", "6.1.0-57-cloud-amd64",
		    "#1 SMP Debian 6.1.158-1 (2025-11-09)",
		    "CONFIG_PREEMPT_NONE=y\n", NULL, &env);
	assert_string_equal(env.flavour, "cloud-amd64");
	assert_string_equal(env.preempt_model, "none");
}

/* The environment of a boot whose kernel command line is @cmdline. */
static void booted(struct ab_env *env, const char *cmdline)
{
	put("/proc/cmdline", cmdline);
	ab_env_read(env, root, 0);
}

/*
 * vm-run.sh's allocbench.vm= says how qemu ran the guest: tcg-single
 * serializes the vCPUs and the header says so; kvm or no word does not.
 */
static void test_vm_accel(void **state)
{
	struct ab_env env;
	char buf[4096];

	booted(&env,
	       "console=ttyS0 panic=-1 quiet allocbench.vm=tcg-single slab_nomerge\n");
	assert_string_equal(env.vm_accel, "tcg-single");
	assert_true(ab_env_vcpus_serialized(&env));
	header(&env, buf, sizeof(buf));
	assert_non_null(strstr(
		buf,
		", qemu tcg-single (allocbench.vm: its vCPUs take turns on one host thread, never at the same time)\n"));
	booted(&env, "quiet allocbench.vm=kvm\n");
	assert_string_equal(env.vm_accel, "kvm");
	assert_false(ab_env_vcpus_serialized(&env));
	header(&env, buf, sizeof(buf));
	assert_non_null(strstr(buf, ", qemu kvm\n"));
	booted(&env, "quiet allocbench.vmx=tcg-single\n");
	assert_string_equal(env.vm_accel, "");
	assert_false(ab_env_vcpus_serialized(&env));
	header(&env, buf, sizeof(buf));
	assert_null(strstr(buf, ", qemu "));
}

/*
 * clearcpuid= (vm-run.sh's default TCG guest: rep_good) is among the
 * caveats and warns in the header; without it, neither.
 */
static void test_clearcpuid(void **state)
{
	struct ab_env env;
	char buf[4096];

	booted(&env, "quiet allocbench.vm=tcg-single clearcpuid=rep_good\n");
	assert_string_equal(env.p_clearcpuid, "rep_good");
	ab_env_caveats(&env, buf, sizeof(buf));
	assert_non_null(strstr(buf, "clearcpuid"));
	header(&env, buf, sizeof(buf));
	assert_non_null(strstr(
		buf,
		"warning: clearcpuid= hides CPU features from the kernel"));
	booted(&env, "quiet allocbench.vm=tcg-single\n");
	assert_string_equal(env.p_clearcpuid, "");
	header(&env, buf, sizeof(buf));
	assert_null(strstr(buf, "clearcpuid"));
	/* the kernel takes the last; init's arguments and a bare word not */
	booted(&env, "clearcpuid=rep_good quiet clearcpuid=rep_good,erms\n");
	assert_string_equal(env.p_clearcpuid, "rep_good,erms");
	booted(&env, "quiet -- clearcpuid=rep_good\n");
	assert_string_equal(env.p_clearcpuid, "");
	booted(&env, "quiet clearcpuid\n");
	assert_string_equal(env.p_clearcpuid, "");
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
		cmocka_unit_test(test_debugfs_mode_wins),
		cmocka_unit_test(test_rt_kernel),
		cmocka_unit_test(test_lazy_and_compiler),
		cmocka_unit_test(test_flavours),
		cmocka_unit_test(test_vm_accel),
		cmocka_unit_test(test_clearcpuid),
		cmocka_unit_test(test_nothing_readable),
	};

	return cmocka_run_group_tests_name("env", tests, setup, teardown);
}
