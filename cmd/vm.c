// SPDX-License-Identifier: GPL-2.0-only
/*
 * vm.c - `allocbench vm`: an allocbench command in the embedded kernel.
 *
 *   allocbench vm --kernel=K -- CMD ...        CMD once, in kernel K
 *   allocbench vm --kernel=A --kernel=B [--rounds=R] --
 * run|sweep|lookup|reproduce ... CMD in R boots of each kernel, alternating (A
 * B B A A B ...), and each kernel after A compared with A, the boot as the unit
 *       (lib/vmab.h)
 *
 * The images (the kernel, allocbench.ko built for it, an initramfs
 * holding this very allocbench binary) are made by scripts/vm/vm-image.sh
 * and booted by scripts/vm/vm-run.sh, from the source checkout this
 * binary was built in, or from where `make install` put them
 * (AB_LIBDIR, or $ALLOCBENCH_LIBDIR). Downloads and images are kept in
 * the checkout's .cache/, or in $ALLOCBENCH_CACHE, else
 * $XDG_CACHE_HOME/allocbench (~/.cache/allocbench).
 */
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "jsonin.h"
#include "jsonout.h"
#include "parse.h"
#include "vm.h"

/* ---- options ---- */

static const char **kernel_args;
/* --rounds: AB_VM_ROUNDS_UNSET until given (then AB_VM_DEFAULT_ROUNDS) */
#define AB_VM_DEFAULT_ROUNDS 5
#define AB_VM_ROUNDS_UNSET   INT_MIN
static struct vm_conf conf = { .nodes = 1,
			       .rounds = AB_VM_ROUNDS_UNSET,
			       .mem_mib = 1024,
			       .smp = 2,
			       .timeout_s = 900,
			       .append = "" };
/* --vpmu: stays vpmu_none when not given; popt sets NULL for a bare
 * --vpmu (POPT_ARGFLAG_OPTIONAL), which means exact */
static const char vpmu_none[] = "";
static const char *accel_arg = "auto", *cache_arg, *threshold_arg,
		  *vpmu_arg = vpmu_none, *smp_arg;

/* The output options, with --json naming the vm document's own schema
 * (filled from ab_output_table by vm_output_options()). */
static struct poptOption vm_output[8];

static void vm_output_options(void)
{
	size_t i;

	for (i = 0;
	     i + 1 < sizeof(vm_output) / sizeof(vm_output[0]) &&
	     (ab_output_table[i].longName || ab_output_table[i].shortName ||
	      ab_output_table[i].argInfo);
	     i++) {
		vm_output[i] = ab_output_table[i];
		if (vm_output[i].longName &&
		    !strcmp(vm_output[i].longName, "json"))
			vm_output[i].descrip =
				"one JSON document: every boot with its result, and the comparisons (schema/allocbench-vm.schema.json)";
	}
}

static struct poptOption vm_options[] = {
	{ "kernel", 'k', POPT_ARG_ARGV, &kernel_args, 0,
	  "a kernel to boot, NAME[:BOOT PARAMETERS]: a Debian series (6.1, 6.12, 6.12-rt), an exact Debian release, or a path to a kernel build tree; 2 to 4 of them compare each with the first",
	  "KERNEL" },
	{ "rounds", 'r', POPT_ARG_INT, &conf.rounds, 0,
	  "boots of each kernel, alternating A B B A ... (default: 5)", "R" },
	{ "threshold", 0, POPT_ARG_STRING, &threshold_arg, 0,
	  "say whether a change of P% would have been detected, and the rounds it needs",
	  "P%" },
	{ "nodes", 0, POPT_ARG_INT, &conf.nodes, 0,
	  "NUMA nodes of the guest: 1, 2, or 3 (a CPU-only and a memory-only node)",
	  "N" },
	{ "append", 0, POPT_ARG_STRING, &conf.append, 0,
	  "boot parameters for every kernel", "PARAMS" },
	{ "accel", 0, POPT_ARG_STRING, &accel_arg, 0,
	  "auto (KVM when /dev/kvm is usable, else TCG; default), kvm or tcg",
	  "HOW" },
	{ "pvh", 0, POPT_ARG_NONE, &conf.pvh, 0,
	  "boot each kernel's ELF image through its PVH entry, skipping the bzImage's decompressor (about 8 s less a boot under TCG); no KASLR: every boot has one layout",
	  NULL },
	{ "vpmu", 0, POPT_ARG_STRING | POPT_ARGFLAG_OPTIONAL, &vpmu_arg, 0,
	  "boot with the virtual PMU (a QEMU TCG plugin): instructions, branches, loads and stores counted exactly where no hardware PMU opens; =model adds its branch and cache model (default: exact); TCG only",
	  "exact|model" },
	{ "deterministic", 0, POPT_ARG_NONE, &conf.deterministic, 0,
	  "boot as a function of the round's seed: qemu -icount (guest time is the instruction count, so ns/op are instructions), a fixed RTC, one vCPU (SMP code kept: noreplace-smp), and round R's seed on every kernel's command line; rounds are paired by seed (the boots' slab state varies with it, matched between kernels). TCG only",
	  NULL },
	{ "profile", 0, POPT_ARG_NONE, &conf.profile, 0,
	  "per row, the kernel functions whose instructions per op changed, B - A, largest first (as perf diff), from run --profile in every boot; implies --vpmu=model",
	  NULL },
	{ "paths", 0, POPT_ARG_NONE, &conf.paths, 0,
	  "per row and phase, the fast path's instructions (the length most ops ran) in each kernel and B - A, with the other lengths and how often each ran, from run --paths in every boot; implies --vpmu",
	  NULL },
	{ "cpu-model", 0, POPT_ARG_STRING, &conf.cpu_model, 0,
	  "qemu's CPU model for every boot (qemu-system-x86_64 -cpu help; default qemu's own, qemu64 under TCG): one model for all kernels, since a kernel patches its code for the CPU's features (alternatives)",
	  "MODEL" },
	{ "mem", 0, POPT_ARG_INT, &conf.mem_mib, 0,
	  "guest memory in MiB (default: 1024)", "MIB" },
	{ "smp", 0, POPT_ARG_STRING, &smp_arg, 0,
	  "the guest's vCPUs, 1 to 16 (default: 2); single-threaded TCG runs them in turn, so cross-CPU patterns (--free-cpu, --concurrent) are reproduced in kind, not in parallel",
	  "N" },
	{ "timeout", 0, POPT_ARG_INT, &conf.timeout_s, 0,
	  "seconds one boot may take, command included (default: 900)", "S" },
	{ "cache", 0, POPT_ARG_STRING, &cache_arg, 0,
	  "where kernels and images are kept (default: the checkout's .cache, or ~/.cache/allocbench)",
	  "DIR" },
	{ "wide", 0, POPT_ARG_NONE, &ab_out.wide, 0,
	  "the full text report: the whole header, the detectable change, success rates, counters, the verdicts' rule (-v too)",
	  NULL },
	{ NULL, 0, POPT_ARG_INCLUDE_TABLE, vm_output, 0,
	  "Output options:", NULL },
	POPT_AUTOHELP POPT_TABLEEND
};

/*
 * An A/B of two CPU models, refused: --cpu-model given twice among vm's
 * own @n options (popt would keep the last). A kernel patches its code
 * for the CPU's features (alternatives: ERMS's rep stosb zeroing, say),
 * so kernels booted on two models differ in more than the kernel.
 * AB_EXIT_USAGE after the reason.
 */
static int one_cpu_model(int n, const char **argv)
{
	const char *first = NULL, *v;
	int i;

	for (i = 1; i < n; i++) {
		if (!strncmp(argv[i], "--cpu-model=", 12))
			v = argv[i] + 12;
		else if (!strcmp(argv[i], "--cpu-model") && i + 1 < n)
			v = argv[++i];
		else
			continue;
		if (!first) {
			first = v;
			continue;
		}
		ab_err("vm: --cpu-model=%s after --cpu-model=%s: one CPU model for every boot (a kernel patches its code for the CPU's features, so kernels on two models differ in more than the kernel); run vm once per model",
		       v, first);
		return AB_EXIT_USAGE;
	}
	return AB_EXIT_OK;
}

/*
 * --json, -o and --output (also as --json=..., and in a cluster of short
 * options: the ones that take no value are -q and -v, so -qo and -vj are
 * -o and -j): a file written in the guest is lost with it.
 */
static int owned_by_vm(const char *a)
{
	if (!strncmp(a, "--json", 6) || !strncmp(a, "--output", 8))
		return 1;
	if (a[0] != '-' || a[1] == '-')
		return 0;
	a += strspn(a + 1, "qv") + 1;
	return *a == 'j' || *a == 'o';
}

/* The guest command's words that vm itself must own. */
static int check_guest_args(const char **args, int n, int compare)
{
	const struct ab_cmd *c;
	char names[128];
	int i;

	if (n < 1) {
		ab_err("vm: no command: allocbench vm --kernel=K -- run --alloc=kmalloc --size=4096");
		return AB_EXIT_USAGE;
	}
	for (c = NULL; (c = ab_cmd_next(c)) && strcmp(c->name, args[0]);)
		;
	if (!c || !(c->flags & AB_CMD_GUEST)) {
		ab_err("vm: '%s' is not a command vm runs: the words after -- are an allocbench command (see `allocbench --help`)",
		       args[0]);
		return AB_EXIT_USAGE;
	}
	if (compare && !(c->flags & AB_CMD_VERDICT)) {
		ab_cmd_names(names, sizeof(names), AB_CMD_VERDICT, " or ");
		ab_err("vm: %s: kernels are compared on %s", args[0], names);
		return AB_EXIT_USAGE;
	}
	for (i = 1; i < n; i++) {
		const char *a = args[i];

		if (owned_by_vm(a)) {
			ab_err("vm: %s belongs before --, to vm itself (allocbench vm --json -o FILE --kernel=K -- %s ...): a file written in the guest is lost with it",
			       a, args[0]);
			return AB_EXIT_USAGE;
		}
		if (compare && !strncmp(a, "--csv", 5)) {
			ab_err("vm: --csv: kernels are compared on each boot's JSON result; vm --json gives them all");
			return AB_EXIT_USAGE;
		}
	}
	return AB_EXIT_OK;
}

/*
 * vm --profile and vm --paths: the guest command is `run`, given
 * --profile and --paths (once each) so that each boot's result holds
 * every row's profile and path lengths, which the report compares
 * (lib/vmab.c). @v's args are replaced by a copy (static: they live as
 * long as the command).
 */
static int run_args(struct vm_run *v, int profile, int paths)
{
	static const char *args[256];
	const char *opt = profile ? "--profile" : "--paths";
	int i, n = 0, has_profile = 0, has_paths = 0;

	if (v->nargs < 1 || strcmp(v->args[0], "run")) {
		ab_err("vm: %s: the guest command must be run (allocbench vm %s --kernel=A --kernel=B -- run --alloc=kmalloc --size=64)",
		       opt, opt);
		return AB_EXIT_USAGE;
	}
	if (v->nargs + 3 > (int)(sizeof(args) / sizeof(args[0]))) {
		ab_err("vm: %s: the guest command has too many words", opt);
		return AB_EXIT_USAGE;
	}
	for (i = 0; i < v->nargs; i++) {
		has_profile |= !strcmp(v->args[i], "--profile");
		has_paths |= !strcmp(v->args[i], "--paths");
		/* what the guest's run would refuse after a boot: here */
		if (!strcmp(v->args[i], "--concurrent")) {
			ab_err("vm: %s: the regions counted are the calling thread's, not the concurrent runs'; drop %s or --concurrent",
			       opt, opt);
			return AB_EXIT_USAGE;
		}
	}
	args[n++] = v->args[0];
	if (profile && !has_profile)
		args[n++] = "--profile";
	if (paths && !has_paths)
		args[n++] = "--paths";
	for (i = 1; i < v->nargs; i++)
		args[n++] = v->args[i];
	v->args = args;
	v->nargs = n;
	return AB_EXIT_OK;
}

/* --threshold=P or P%: a percentage above 0 and below 1000. */
static int parse_threshold(double *pct)
{
	char *end;

	*pct = 0;
	if (!threshold_arg)
		return AB_EXIT_OK;
	errno = 0;
	*pct = strtod(threshold_arg, &end);
	if (*end == '%')
		end++;
	if (errno || end == threshold_arg || *end || !(*pct > 0) ||
	    *pct >= 1000) {
		ab_err("vm: --threshold=%s: give a percentage above 0 and below 1000, e.g. 5%%",
		       threshold_arg);
		return AB_EXIT_USAGE;
	}
	return AB_EXIT_OK;
}

static int check_options(int nk, double *threshold, int rounds_given)
{
	if (nk < 1 || nk > AB_VM_MAX_KERNELS) {
		ab_err("vm: %d kernels: give 1 (run a command in it) to %d (compare each with the first) --kernel options",
		       nk, AB_VM_MAX_KERNELS);
		return AB_EXIT_USAGE;
	}
	if (rounds_given &&
	    (conf.rounds < 1 || conf.rounds > AB_VM_MAX_ROUNDS)) {
		ab_err("vm: --rounds=%d: allowed 1 to %d (2 or more to test anything)",
		       conf.rounds, AB_VM_MAX_ROUNDS);
		return AB_EXIT_USAGE;
	}
	if (conf.nodes < 1 || conf.nodes > 3) {
		ab_err("vm: --nodes=%d: allowed 1, 2 and 3 (a CPU-only and a memory-only node)",
		       conf.nodes);
		return AB_EXIT_USAGE;
	}
	if (smp_arg) {
		uint64_t v;

		if (ab_parse_u64(smp_arg, conf.nodes > 1 ? 2 : 1, 16, &v)) {
			if (conf.nodes > 1)
				ab_err("vm: --smp='%s': allowed 2 to 16 vCPUs with --nodes=%d (a node's CPUs each)",
				       smp_arg, conf.nodes);
			else
				ab_err("vm: --smp='%s': allowed 1 to 16 vCPUs",
				       smp_arg);
			return AB_EXIT_USAGE;
		}
		conf.smp = (int)v;
	}
	/* one vCPU: qemu's -icount needs one TCG thread, and a second vCPU
	 * hung while it came up (docs/vpmu.md) */
	if (conf.deterministic) {
		if (!strcmp(accel_arg, "kvm")) {
			ab_err("vm: --deterministic with --accel=kvm: deterministic execution is TCG's (-icount); use --accel=tcg (or auto)");
			return AB_EXIT_USAGE;
		}
		if ((smp_arg && conf.smp != 1) || conf.nodes > 1) {
			ab_err("vm: --deterministic boots one vCPU (qemu's -icount): --smp=1 and --nodes=1 only");
			return AB_EXIT_USAGE;
		}
		conf.smp = 1;
	}
	if (conf.mem_mib < 256 || conf.mem_mib > 65536) {
		ab_err("vm: --mem=%d: allowed 256 to 65536 MiB", conf.mem_mib);
		return AB_EXIT_USAGE;
	}
	if (conf.timeout_s < 10 || conf.timeout_s > 86400) {
		ab_err("vm: --timeout=%d: allowed 10 to 86400 seconds",
		       conf.timeout_s);
		return AB_EXIT_USAGE;
	}
	if (strcmp(accel_arg, "auto") && strcmp(accel_arg, "kvm") &&
	    strcmp(accel_arg, "tcg")) {
		ab_err("vm: --accel=%s: allowed auto, kvm and tcg", accel_arg);
		return AB_EXIT_USAGE;
	}
	if (!vpmu_arg)
		vpmu_arg = "exact";
	if (vpmu_arg != vpmu_none && strcmp(vpmu_arg, "exact") &&
	    strcmp(vpmu_arg, "model")) {
		ab_err("vm: --vpmu=%s: allowed exact (the default) and model",
		       vpmu_arg);
		return AB_EXIT_USAGE;
	}
	if (vpmu_arg != vpmu_none && !strcmp(accel_arg, "kvm")) {
		ab_err("vm: --vpmu with --accel=kvm: the virtual PMU counts what TCG executes; use --accel=tcg (or auto)");
		return AB_EXIT_USAGE;
	}
	/* the profile and the path lengths are the virtual PMU's */
	if ((conf.profile || conf.paths) && !strcmp(accel_arg, "kvm")) {
		ab_err("vm: --%s with --accel=kvm: %s the virtual PMU's, which counts what TCG executes; use --accel=tcg (or auto)",
		       conf.profile ? "profile" : "paths",
		       conf.profile ? "the profile is"
				    : "the path lengths are");
		return AB_EXIT_USAGE;
	}
	/* the profile is the model's (lib/vpmu.h, ab_vpmu_profile()); path
	 * lengths are instructions, which the exact mode counts */
	if (conf.profile)
		vpmu_arg = "model";
	else if (conf.paths && vpmu_arg == vpmu_none)
		vpmu_arg = "exact";
	conf.vpmu = vpmu_arg;
	if (conf.cpu_model &&
	    (!*conf.cpu_model ||
	     strspn(conf.cpu_model,
		    "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.,+=-") !=
		     strlen(conf.cpu_model))) {
		ab_err("vm: --cpu-model='%s': a qemu CPU model name (qemu-system-x86_64 -cpu help), such as qemu64, max or Skylake-Client",
		       conf.cpu_model);
		return AB_EXIT_USAGE;
	}
	if (!strcmp(accel_arg, "kvm") && !vm_kvm_usable()) {
		ab_err("vm: --accel=kvm: /dev/kvm is not usable here (missing, no permission, or no vmx/svm in /proc/cpuinfo); --accel=tcg emulates");
		return AB_EXIT_VM;
	}
	if (cache_arg && !*cache_arg) {
		ab_err("vm: --cache='': give a directory");
		return AB_EXIT_USAGE;
	}
	if (nk == 1 && (rounds_given || threshold_arg)) {
		ab_err("vm: --rounds and --threshold compare kernels: give two to %d --kernel options",
		       AB_VM_MAX_KERNELS);
		return AB_EXIT_USAGE;
	}
	return parse_threshold(threshold);
}

/* Splits each --kernel NAME[:PARAMS]; a whole spec that is an existing
 * path is a path, ':' and all. */
static void split_kernels(struct vm_kernel *ks, int nk,
			  const struct vm_paths *p)
{
	struct stat st;
	int i;

	for (i = 0; i < nk; i++) {
		size_t at = strcspn(kernel_args[i], ":");

		ks[i].spec = vm_xasprintf("%s", kernel_args[i]);
		ks[i].name = vm_xasprintf("%s", kernel_args[i]);
		ks[i].append = "";
		if (ks[i].spec[at] && stat(ks[i].spec, &st)) {
			ks[i].name[at] = 0;
			ks[i].append = ks[i].spec + at + 1;
		}
		ks[i].out = vm_image_dir(p, ks[i].name);
	}
}

/* Boots every kernel in turn, @rounds times; the report. */
static int compare_kernels(const struct vm_paths *p, struct vm_run *v)
{
	char *cmd0 = vm_guest_command(v->args, v->nargs);
	const char *names[AB_VM_MAX_KERNELS];
	json_object *cmps, *root;
	struct timespec t0, t1;
	int i, ret = AB_EXIT_OK, few = 0, tty = isatty(STDERR_FILENO);
	int refused = 0;
	double spent = 0;
	char eta[32];

	v->nboots = v->nk * v->conf.rounds;
	v->boots = calloc((size_t)v->nboots, sizeof(*v->boots));
	if (!v->boots) {
		ab_err("out of memory");
		return AB_EXIT_RUN;
	}
	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (i = 0; i < v->nboots; i++) {
		struct ab_vm_boot *b = &v->boots[i];
		struct vm_kernel *k;

		b->kernel = ab_vm_kernel_of(i, v->nk);
		b->round = i / v->nk + 1;
		/* the same seed for every kernel of a round: paired */
		b->seed = v->conf.deterministic ? b->round : 0;
		k = &v->ks[b->kernel];
		if (vm_stop_signal || refused) {
			b->status = AB_VM_NOTRUN;
			b->why =
				refused ? vm_xasprintf(
						  "the command was refused in boot %d (status 2): every boot would refuse it",
						  refused)
					: vm_xasprintf(
						  "the run was interrupted %s",
						  vm_signal_words(
							  vm_stop_signal));
			continue;
		}
		if (i)
			vm_fmt_duration(spent / i * (v->nboots - i), eta,
					sizeof(eta));
		if (!ab_out.quiet && tty)
			ab_progress("vm: boot %d of %d: %s, round %d: %s%s%s",
				    i + 1, v->nboots, k->spec, b->round, cmd0,
				    i ? ", about " : "", i ? eta : "");
		vm_boot(p, &v->conf, k, cmd0, 1, v->accel, b);
		spent += b->seconds;
		/* a boot a signal ended did not run: it is named, not counted
		 */
		if (b->status != AB_VM_INTERRUPTED)
			v->ran++;
		if (b->status == AB_VM_OK)
			k->good++;
		/* a usage error is the command's, not the kernel's */
		if (b->status == AB_VM_FAILED && b->exit == AB_EXIT_USAGE)
			refused = i + 1;
		if (!ab_out.quiet && (!tty || b->status != AB_VM_OK)) {
			ab_progress_clear();
			fprintf(stderr,
				"vm: boot %d of %d: %s, round %d: %s%s%s (%.1f s)\n",
				i + 1, v->nboots, k->spec, b->round,
				ab_vm_status_name(b->status),
				b->why ? ": " : "", b->why ? b->why : "",
				b->seconds);
		}
	}
	if (!ab_out.quiet && tty)
		ab_progress_clear();
	clock_gettime(CLOCK_MONOTONIC, &t1);
	v->seconds = (t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) / 1e9;
	for (i = 0; i < v->nk; i++) {
		names[i] = v->ks[i].spec;
		if (v->nk > 1 && v->ks[i].good < 2 && !vm_stop_signal)
			few = 1;
	}
	cmps = ab_vm_compare(v->boots, (size_t)v->nboots, v->nk, names,
			     v->threshold);
	if (ab_out.formats & AB_FORMAT_JSON) {
		root = vm_document(v, cmd0, cmps);
		ab_json_print(root, stdout);
		json_object_put(root);
	} else {
		vm_print_report(v, cmd0, cmps);
		json_object_put(cmps);
	}
	if (refused)
		ab_err("vm: the command was refused in boot %d (status 2, a usage error): see its message above",
		       refused);
	else if (few)
		ab_err("vm: cannot conclude: a kernel has fewer than 2 good boots (each kernel needs 2 or more for a test)");
	free(cmd0);
	if (vm_stop_signal)
		ret = 128 + vm_stop_signal;
	else if (refused)
		ret = AB_EXIT_USAGE;
	else if (few)
		ret = AB_EXIT_VM;
	return ret;
}

/* One kernel: the command's own output, and its status. */
static int run_once(const struct vm_paths *p, struct vm_run *v)
{
	struct ab_vm_boot b = { 0 };
	char *cmd = vm_guest_command(v->args, v->nargs);
	int ret;

	if (!ab_out.quiet)
		fprintf(stderr, "vm: %s (%s), %d NUMA node%s, %s\n",
			v->ks[0].spec, v->ks[0].release, v->conf.nodes,
			v->conf.nodes > 1 ? "s" : "", vm_accel_words(v->accel));
	if (!ab_out.quiet && v->conf.pvh)
		fprintf(stderr, "vm: %s\n", vm_pvh_words);
	if (*v->conf.vpmu)
		fprintf(stderr,
			"vm: virtual PMU (--vpmu=%s): the guest counts instructions, branches, loads and stores on a QEMU TCG plugin where no hardware PMU opens\n",
			v->conf.vpmu);
	if (!(ab_out.formats & AB_FORMAT_JSON)) {
		fflush(stdout);
		vm_boot(p, &v->conf, &v->ks[0], cmd, 0, v->accel, &b);
		free(cmd);
		free(b.why);
		if (vm_stop_signal)
			return 128 + vm_stop_signal;
		return b.exit < 0 ? AB_EXIT_VM : b.exit;
	}
	/* --json: the one boot as a vm document */
	free(cmd);
	v->conf.rounds = 1;
	ret = compare_kernels(p, v);
	if (ret)
		return ret;
	switch (v->boots[0].status) {
	case AB_VM_OK:
		return AB_EXIT_OK;
	case AB_VM_FAILED:
		return v->boots[0].exit;
	default:
		return AB_EXIT_VM;
	}
}

int cmd_vm(int argc, const char **argv)
{
	struct vm_paths paths = { { 0 }, NULL, NULL, NULL };
	struct vm_run v;
	int i, nk = 0, dash = argc, ret;

	memset(&v, 0, sizeof(v));
	vm_output_options();
	/* the first "--" that is no option's value (vm -o -- ... names a
	 * file "--", as compare's -o does) */
	i = ab_popt_find_dash(argc, argv, vm_options);
	if (i >= 0)
		dash = i;
	ret = -ab_popt_parse_pos("vm", dash, argv, vm_options, NULL, 0);
	if (!ret)
		ret = one_cpu_model(dash, argv);
	if (ret > 0)
		return ret;
	while (kernel_args && kernel_args[nk])
		nk++;
	v.args = argv + dash + 1;
	v.nargs = dash < argc ? argc - dash - 1 : 0;
	ret = check_options(nk, &v.threshold,
			    conf.rounds != AB_VM_ROUNDS_UNSET);
	if (!ret && (conf.profile || conf.paths))
		ret = run_args(&v, conf.profile, conf.paths);
	if (conf.rounds == AB_VM_ROUNDS_UNSET)
		conf.rounds = AB_VM_DEFAULT_ROUNDS;
	v.conf = conf;
	if (!ret)
		ret = check_guest_args(
			v.args, v.nargs,
			nk > 1 || (ab_out.formats & AB_FORMAT_JSON));
	if (!ret)
		ret = vm_find_paths(&paths, cache_arg);
	if (ret)
		return ret;
	v.nk = nk;
	v.accel =
		!strcmp(accel_arg, "auto")
			? (vm_kvm_usable() && !*conf.vpmu && !conf.deterministic
				   ? "kvm"
				   : "tcg")
			: accel_arg;
	vm_catch_signals();
	split_kernels(v.ks, nk, &paths);
	for (i = 0; i < nk; i++)
		if (!*v.ks[i].name) {
			ab_err("vm: --kernel='%s': no kernel named (KERNEL[:BOOT PARAMETERS], e.g. 6.1:init_on_alloc=0)",
			       v.ks[i].spec);
			return AB_EXIT_USAGE;
		}
	for (i = 0; i < nk && !ret; i++) {
		int j;

		/* one image per kernel, whatever its boot parameters */
		for (j = 0; j < i && strcmp(v.ks[i].name, v.ks[j].name); j++)
			;
		if (j < i) {
			v.ks[i].kdir = v.ks[j].kdir;
			v.ks[i].release = v.ks[j].release;
			v.ks[i].image = v.ks[j].image;
		} else {
			ret = vm_prepare(&paths, &v.conf, &v.ks[i]);
		}
	}
	if (ret)
		return ret;
	if (nk == 1)
		return run_once(&paths, &v);
	return compare_kernels(&paths, &v);
}
