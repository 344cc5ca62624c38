/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * vm.h - what the files of `allocbench vm` share: vm.c (options, the plan
 * of boots, the command), vm_boot.c (images and boots), vm_report.c
 * (header, tables) and vm_json.c (the JSON document). vm.c calls the
 * others; they call neither vm.c nor each other (vm_json.c reads
 * vm_boot.c's vm_stop_signal).
 */
#ifndef AB_CMD_VM_H
#define AB_CMD_VM_H

#include <limits.h>
#include <signal.h>

#include "allocbench.h"
#include "jsonout.h"
#include "vmab.h"

/* Exit status when the embedded kernel cannot be made or booted, or too
 * few boots succeeded to conclude anything. */
#define AB_EXIT_VM 5

/**
 * struct vm_kernel - one --kernel
 * @spec:    as given: NAME[:BOOT PARAMETERS]
 * @name:    the kernel, as scripts/vm/fetch-kernel.sh names kernels
 * @append:  its own boot parameters (after the first ':'), or ""
 * @out:     its image directory (vm-image.sh's OUT)
 * @kdir:    the kernel's directory (OUT/kernel-dir)
 * @release: its release string
 * @image:   --pvh: the ELF image booted, else NULL (the bzImage)
 * @good:    boots that produced a result
 */
struct vm_kernel {
	char *spec;
	char *name;
	const char *append;
	char *out;
	char *kdir;
	char *release;
	char *image;
	int good;
};

/**
 * struct vm_paths - where the scripts, the module's sources and the cache are
 * @self:    this program's file
 * @scripts: scripts/vm (a checkout's) or AB_LIBDIR/vm
 * @src:     the module's sources
 * @cache:   downloads and images
 */
struct vm_paths {
	char self[PATH_MAX];
	char *scripts;
	char *src;
	char *cache;
};

/**
 * struct vm_conf - the options every boot of one vm command shares
 * @nodes:     --nodes: the guest's NUMA nodes, 1 to 3
 * @rounds:    --rounds: boots of each kernel
 * @mem_mib:   --mem: guest memory, MiB
 * @timeout_s: --timeout: seconds one boot may take
 * @pvh:       --pvh: boot the ELF image through its PVH entry
 * @append:    --append: boot parameters for every kernel ("" for none)
 * @vpmu:      --vpmu: "exact" or "model" (the virtual PMU plugin loaded
 *             into qemu, vm-run.sh's VPMU), "" without
 * @cpu_model: --cpu-model: qemu's -cpu model for every boot (vm-run.sh's
 *             VM_CPU), NULL for qemu's default
 * @smp:       --smp: the guest's vCPUs (vm-run.sh's VM_SMP), 1 to 16
 * @profile:   --profile: run --profile in each boot, a differential
 *             profile per row (implies vpmu "model")
 * @paths:     --paths: run --paths in each boot, each row's fast path B - A
 *             (implies vpmu "exact" unless "model" is asked for)
 * @deterministic: --deterministic: vm-run.sh's VM_ICOUNT=0 and VM_SEED
 *             (each boot's seed, struct ab_vm_boot), one vCPU
 */
struct vm_conf {
	int nodes, rounds, mem_mib, timeout_s, pvh, smp, profile, deterministic;
	int paths;
	const char *append;
	const char *vpmu;
	const char *cpu_model;
};

/**
 * struct vm_run - one vm command: its kernels, boots and figures
 * @conf:      the options
 * @ks, @nk:   the kernels, A first
 * @args, @nargs: the guest command's words (after --)
 * @accel:     "kvm" or "tcg"
 * @threshold: --threshold, percent (0: not given)
 * @boots, @nboots: every boot, in the order they ran
 * @seconds:   the boots' wall time
 * @ran:       boots that ran to their end (not one a signal interrupted)
 */
struct vm_run {
	struct vm_conf conf;
	struct vm_kernel ks[AB_VM_MAX_KERNELS];
	int nk;
	const char **args;
	int nargs;
	const char *accel;
	double threshold;
	struct ab_vm_boot *boots;
	int nboots;
	double seconds;
	int ran;
};

/* ---- vm_boot.c ---- */

/* The signal that stopped the command (SIGINT, SIGTERM, SIGHUP, SIGQUIT),
 * 0 while none has. */
extern volatile sig_atomic_t vm_stop_signal;

/* vm_catch_signals - those four signals end the boot running, and are kept
 * in vm_stop_signal. */
void vm_catch_signals(void);

/* vm_signal_words - what signal @sig is, for the reason of a boot it ended:
 * "by Ctrl-C (SIGINT)". */
const char *vm_signal_words(int sig);

/* vm_xasprintf - asprintf(), exiting with AB_EXIT_RUN without memory. */
char *vm_xasprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/*
 * vm_find_paths - the source checkout this binary sits in (its
 * scripts/vm/vm-image.sh beside it), else the installed library directory;
 * @cache (--cache, or NULL) overrides the cache. An exit status.
 */
int vm_find_paths(struct vm_paths *p, const char *cache);

/* vm_guest_command - "allocbench ARGS..." for the guest's shell, each word
 * quoted (malloc'ed). */
char *vm_guest_command(const char **args, int n);

/* vm_kvm_usable - whether KVM can run a guest here (see vm_boot.c). */
int vm_kvm_usable(void);

/* vm_image_dir - a kernel's image directory in the cache (malloc'ed). */
char *vm_image_dir(const struct vm_paths *p, const char *name);

/*
 * vm_prepare - makes @k's image (vm-image.sh; with @c->pvh its PVH image
 * too) and reads its kernel directory and release. An exit status: 2 for a
 * kernel name fetch-kernel.sh refuses, AB_EXIT_VM when it cannot be made,
 * 128 + the signal when interrupted.
 */
int vm_prepare(const struct vm_paths *p, const struct vm_conf *c,
	       struct vm_kernel *k);

/*
 * vm_boot - boots kernel @k once with @cmd, qemu's accelerator @accel.
 * @capture: the command's output into the boot's result (and its messages
 * into @b->why on failure), else the output passes through. Fills @b.
 */
void vm_boot(const struct vm_paths *p, const struct vm_conf *c,
	     const struct vm_kernel *k, const char *cmd, int capture,
	     const char *accel, struct ab_vm_boot *b);

/* ---- vm_report.c ---- */

/* vm_fmt_duration - @s seconds as "42 s" or "3 min". */
void vm_fmt_duration(double s, char *buf, size_t len);

/*
 * vm_print_paths - --paths: the fast path per row and phase of one
 * comparison's @rows (lib/results/vmpaths.h), labels @wl wide, the other
 * kernel named @b; @lengths adds each kernel's pooled lengths (vm_paths.c)
 */
void vm_print_paths(json_object *rows, int wl, char b, int lengths);

/* vm_accel_words - what @accel means for the figures, for the header. */
const char *vm_accel_words(const char *accel);

/* vm_pvh_words - --pvh's caveat, for the header. */
extern const char vm_pvh_words[];

/* vm_print_report - the text report of @v: header, each comparison of
 * @cmps (ab_vm_compare()), the verdict's rule. */
void vm_print_report(const struct vm_run *v, const char *cmd,
		     json_object *cmps);

/* ---- vm_json.c ---- */

/* vm_document - the vm JSON document of @v; takes @cmps and each boot's
 * result. */
json_object *vm_document(struct vm_run *v, const char *cmd, json_object *cmps);

#endif
