/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * env.h - the settings of the machine and kernel that change allocation
 * costs, captured before a run and printed above its results (and kept for
 * machine-readable output).
 */
#ifndef AB_ENV_H
#define AB_ENV_H

#include <stdio.h>

#define AB_ENV_STR 128

/*
 * A boolean setting: -1 unknown, 0 off, 1 on. Config values are tristate
 * strings as in .config ("y", "m", "n" for unset, "?" when no config was
 * found).
 */
struct ab_env {
	char release[AB_ENV_STR];     /* uname -r */
	char uts_version[AB_ENV_STR]; /* uname -v: "#1 SMP PREEMPT_RT ..." */
	/*
	 * "Debian" when uname -v names Debian (or the release has a +debN
	 * or +bpo part), else "". @flavour: a Debian kernel's flavour, what
	 * follows the ABI part of the release ("amd64", "rt-amd64",
	 * "cloud-amd64"), else "". @local_version: what follows the upstream
	 * version in any release ("-57-amd64", "-45-generic", "" for none).
	 */
	char distribution[16];
	char flavour[64];
	char local_version[64];
	char config_source[AB_ENV_STR]; /* /proc/config.gz, /boot/config-R */
	/*
	 * The compiler that built the kernel, as /proc/version states it
	 * (init/version-timestamp.c's linux_banner: the second parenthesised
	 * part up to ", GNU ld" or ", LLD"): "x86_64-linux-gnu-gcc-14
	 * (Debian 14.2.0-19) 14.2.0"; "" when the banner has no such part.
	 */
	char compiler[128];
	char cmdline[1024]; /* /proc/cmdline */

	/* boot parameters as given ("" when absent) */
	char p_init_on_alloc[16], p_init_on_free[16], p_slub_debug[64];
	char p_preempt[32], p_mitigations[128], p_shuffle[16];
	char p_clearcpuid[128]; /* CPU features hidden from the kernel */
	int p_slab_nomerge, p_slub_merge; /* present on the command line */

	/* config values ("y", "n", or "?" without a config) */
	char c_init_on_alloc[4], c_init_on_free[4], c_slab_merge[4];
	char c_slub_debug_on[4], c_debug_preempt[4], c_kasan[4];
	char c_freelist_random[4], c_shuffle[4], c_preempt_dynamic[4];
	/*
	 * The preemption model as the kernel reports it: "rt" when uname -v
	 * says PREEMPT_RT; on PREEMPT_DYNAMIC the current mode from
	 * /sys/kernel/debug/sched/preempt (none, voluntary, full, lazy), else
	 * the preempt= boot parameter, else the config's default; "full" for
	 * PREEMPT; from the config without a word in uname -v; "?" unknown.
	 * @preempt_detail says where it came from and what else the kernel
	 * reports (on RT, the dynamic mode, e.g. lazy: "PREEMPT_RT, mode
	 * lazy").
	 */
	char preempt_model[32];
	char preempt_detail[128];

	/* what is in force, boot parameters over config defaults */
	int init_on_alloc, init_on_free, slab_merge, slub_debug;

	char cpu_model[AB_ENV_STR];
	char governor[32]; /* "none" without cpufreq */
	char smt[32];	   /* /sys/devices/system/cpu/smt/control */
	int hypervisor;	   /* cpuinfo "hypervisor" flag */
	/*
	 * Whether the kernel's random number generator is seeded: 1, 0 when
	 * getrandom(GRND_NONBLOCK) says EAGAIN, -1 unknown (no getrandom, or
	 * a @root other than the running system). Until it is seeded every
	 * get_random_*() in the kernel (SLAB_FREELIST_RANDOM shuffles each new
	 * slab with one) extracts from the input pool with BLAKE2s
	 * (drivers/char/random.c, crng_make_state()).
	 */
	int crng_ready;
	char dmi[AB_ENV_STR]; /* sys_vendor and product_name */
	/*
	 * How qemu ran this guest, as scripts/vm/vm-run.sh tells it on the
	 * kernel command line: allocbench.vm=tcg-single (-accel
	 * tcg,thread=single: the vCPUs take turns on one host thread) or
	 * allocbench.vm=kvm; "" when the parameter is absent (not booted by
	 * vm-run.sh).
	 */
	char vm_accel[32];
	/*
	 * allocbench.vpmu=exact|model on the kernel command line: vm-run.sh
	 * booted the guest with the virtual PMU plugin (VPMU=); "" without.
	 */
	char vm_vpmu[16];
};

/*
 * ab_env_read - fill @env from the files under @root ("" for the live
 * system; tests point it at a directory of fake files). @cpu selects the
 * CPU whose governor is read. Never fails: what cannot be read is "?".
 */
void ab_env_read(struct ab_env *env, const char *root, int cpu);

/*
 * ab_env_kernel_kind - what the release says about the kernel, for the
 * header: "Debian, flavour rt-amd64", or for another kernel its local
 * version ("not a Debian kernel: no flavour; local version '-45-generic'").
 */
void ab_env_kernel_kind(const struct ab_env *env, char *buf, size_t len);

/*
 * ab_env_preempt_rt - 1 when the running kernel is PREEMPT_RT (uname -v
 * names PREEMPT_RT, or RT as Debian's 6.1 rt kernels do), else 0.
 */
int ab_env_preempt_rt(void);

/*
 * ab_env_vcpus_serialized - 1 when the CPUs do not run at the same time:
 * a guest of vm-run.sh under single-threaded TCG (allocbench.vm=tcg-single).
 */
int ab_env_vcpus_serialized(const struct ab_env *env);

/* ab_env_print - the short header: two lines, then one per warning. */
void ab_env_print(FILE *f, const struct ab_env *env, unsigned int tsc_khz);

/*
 * ab_env_warnings - write each setting that distorts the numbers as one
 * line "warning: ..." into @buf (NUL-separated lines, at most @len bytes).
 * Returns the number of warnings.
 */
int ab_env_warnings(const struct ab_env *env, char *buf, size_t len);

/*
 * ab_env_clearcpuid - the CPU features a kernel command line tells the
 * kernel to hide (clearcpuid=LIST into @val, "" if none): the kernel takes
 * the last clearcpuid= it is given (arch/x86/kernel/cpu/common.c, 6.1 to
 * 7.3), and what follows " -- " is init's, not the kernel's.
 */
void ab_env_clearcpuid(const char *cmdline, char *val, size_t len);

/*
 * ab_env_caveats - the same settings as ab_env_warnings(), each named in a
 * word or two ("init_on_alloc=1, slab merging, TCG"), comma-separated in
 * @buf (empty when none). Returns how many.
 */
int ab_env_caveats(const struct ab_env *env, char *buf, size_t len);

#endif
