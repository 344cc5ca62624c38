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
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <signal.h>
#include <spawn.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <linux/kvm.h>

#include "allocbench.h"
#include "jsonin.h"
#include "jsonout.h"
#include "textout.h"
#include "vmab.h"

#ifndef AB_LIBDIR
#define AB_LIBDIR "/usr/local/lib/allocbench"
#endif

/* Exit status when the embedded kernel cannot be made or booted, or too
 * few boots succeeded to conclude anything. */
#define AB_EXIT_VM 5

/* The marker between a boot's messages and its JSON result; each boot's
 * carries a token of its own, so no output of the command can fake it. */
#define RESULT_MARK "@@AB-VM-RESULT-%s@@"

extern char **environ;

/**
 * struct vm_kernel - one --kernel
 * @spec:    as given: NAME[:BOOT PARAMETERS]
 * @name:    the kernel, as scripts/vm/fetch-kernel.sh names kernels
 * @append:  its own boot parameters (after the first ':'), or ""
 * @out:     its image directory (vm-image.sh's OUT)
 * @kdir:    the kernel's directory (OUT/kernel-dir)
 * @release: its release string
 * @good:    boots that produced a result
 */
struct vm_kernel {
	char *spec;
	char *name;
	const char *append;
	char *out;
	char *kdir;
	char *release;
	char *image; /* --pvh: the ELF image booted, else NULL (the bzImage) */
	int good;
};

/* --pvh: boot the ELF image through its PVH entry (pvh_image()) */
static int pvh;

/* Where the scripts, the module's sources and the cache are. */
struct vm_paths {
	char self[PATH_MAX];
	char *scripts;
	char *src;
	char *cache;
};

static volatile sig_atomic_t stop_signal;
static pid_t child_pgid;

/* What signal @sig is, for the reason of a boot it ended. */
static const char *signal_words(int sig)
{
	switch (sig) {
	case SIGINT:
		return "by Ctrl-C (SIGINT)";
	case SIGTERM:
		return "by SIGTERM";
	case SIGHUP:
		return "by SIGHUP (the terminal closed)";
	case SIGQUIT:
		return "by SIGQUIT";
	default:
		return "by a signal";
	}
}

static void on_signal(int sig)
{
	stop_signal = sig;
	/* the boot runs in its own process group: end it too */
	if (child_pgid > 0)
		kill(-child_pgid, SIGINT);
}

static char *xasprintf(const char *fmt, ...)
	__attribute__((format(printf, 1, 2)));
static char *xasprintf(const char *fmt, ...)
{
	va_list ap;
	char *s;
	int n;

	va_start(ap, fmt);
	n = vasprintf(&s, fmt, ap);
	va_end(ap);
	if (n < 0) {
		ab_err("out of memory");
		exit(AB_EXIT_RUN);
	}
	return s;
}

static int is_file(const char *p)
{
	struct stat st;

	return !stat(p, &st) && S_ISREG(st.st_mode);
}

/*
 * The source checkout this binary sits in (its scripts/vm/vm-image.sh
 * beside it), else the installed library directory.
 */
static int find_paths(struct vm_paths *p, const char *cache)
{
	ssize_t n = readlink("/proc/self/exe", p->self, sizeof(p->self) - 1);
	char *dir, *probe;
	const char *lib = getenv("ALLOCBENCH_LIBDIR"), *env;

	if (n <= 0) {
		ab_err("vm: cannot find this program's own file (/proc/self/exe): %s",
		       strerror(errno));
		return AB_EXIT_VM;
	}
	p->self[n] = 0;
	dir = xasprintf("%.*s", (int)(strrchr(p->self, '/') - p->self),
			p->self);
	probe = xasprintf("%s/scripts/vm/vm-image.sh", dir);
	if (!lib && is_file(probe)) {
		p->scripts = xasprintf("%s/scripts/vm", dir);
		p->src = xasprintf("%s", dir);
		p->cache = xasprintf("%s/.cache", dir);
	} else {
		lib = lib ? lib : AB_LIBDIR;
		p->scripts = xasprintf("%s/vm", lib);
		p->src = xasprintf("%s/src", lib);
		env = getenv("ALLOCBENCH_CACHE");
		if (env && *env)
			p->cache = xasprintf("%s", env);
		else if ((env = getenv("XDG_CACHE_HOME")) && *env)
			p->cache = xasprintf("%s/allocbench", env);
		else
			p->cache = xasprintf("%s/.cache/allocbench",
					     getenv("HOME") ? getenv("HOME")
							    : "/root");
	}
	free(probe);
	free(dir);
	if (cache) {
		free(p->cache);
		p->cache = xasprintf("%s", cache);
	}
	probe = xasprintf("%s/vm-image.sh", p->scripts);
	if (!is_file(probe)) {
		ab_err("vm: the embedded kernel's scripts are not in %s: install allocbench with `make install`, or set ALLOCBENCH_LIBDIR to where they are",
		       p->scripts);
		free(probe);
		return AB_EXIT_VM;
	}
	free(probe);
	return AB_EXIT_OK;
}

/* A word for the guest's shell: single-quoted, whatever it holds. */
static char *shell_word(const char *s)
{
	size_t n = strlen(s), i, j = 0;
	char *w = malloc(4 * n + 3);

	if (!w)
		return NULL;
	w[j++] = '\'';
	for (i = 0; i < n; i++) {
		if (s[i] == '\'') {
			memcpy(w + j, "'\\''", 4);
			j += 4;
		} else {
			w[j++] = s[i];
		}
	}
	w[j++] = '\'';
	w[j] = 0;
	return w;
}

/* "allocbench ARGS..." for the guest's shell (malloc'ed). */
static char *guest_command(const char **args, int n)
{
	char *cmd = xasprintf("allocbench"), *t, *w;
	int i;

	for (i = 0; i < n; i++) {
		w = shell_word(args[i]);
		if (!w) {
			ab_err("out of memory");
			exit(AB_EXIT_RUN);
		}
		t = xasprintf("%s %s", cmd, w);
		free(cmd);
		free(w);
		cmd = t;
	}
	return cmd;
}

/*
 * Runs `sh SCRIPT ARGS...` in a process group of its own (so that a
 * Ctrl-C here ends the boot, and the boot's end is seen here), standard
 * output and error to @out_fd and @err_fd (-1: inherited). Returns its
 * exit status, 128 + N after signal N, -1 when it could not start.
 */
static int spawn_wait(char *const *argv, int out_fd, int err_fd)
{
	posix_spawn_file_actions_t fa;
	posix_spawnattr_t at;
	pid_t pid;
	int st = 0, err;

	posix_spawn_file_actions_init(&fa);
	if (out_fd >= 0)
		posix_spawn_file_actions_adddup2(&fa, out_fd, STDOUT_FILENO);
	if (err_fd >= 0)
		posix_spawn_file_actions_adddup2(&fa, err_fd, STDERR_FILENO);
	posix_spawnattr_init(&at);
	posix_spawnattr_setflags(&at, POSIX_SPAWN_SETPGROUP);
	posix_spawnattr_setpgroup(&at, 0);
	err = posix_spawn(&pid, "/bin/sh", &fa, &at, argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	posix_spawnattr_destroy(&at);
	if (err) {
		ab_err("vm: cannot start %s: %s", argv[1], strerror(err));
		return -1;
	}
	child_pgid = pid;
	if (stop_signal)
		kill(-pid, SIGINT);
	while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
		;
	child_pgid = 0;
	if (WIFSIGNALED(st))
		return 128 + WTERMSIG(st);
	return WEXITSTATUS(st);
}

/*
 * Whether KVM can run a guest here: /dev/kvm opens read-write, speaks the
 * API this qemu uses (KVM_GET_API_VERSION, 12), and qemu can set up a
 * vCPU of the host's model with it (a stopped machine, quit at once: some
 * nested hosts offer /dev/kvm but refuse the host CPU's MSRs, "failed to
 * set MSR 0x10a", and qemu aborts).
 */
static int kvm_usable(void)
{
	char *argv[] = {
		"sh", "-c",
		"exec >/dev/null 2>&1; echo quit | qemu-system-x86_64 -accel kvm -cpu host -S -nodefaults -display none -monitor stdio",
		NULL
	};
	int fd = open("/dev/kvm", O_RDWR | O_CLOEXEC), ok;

	if (fd < 0)
		return 0;
	ok = ioctl(fd, KVM_GET_API_VERSION, 0) == KVM_API_VERSION;
	close(fd);
	return ok && spawn_wait(argv, -1, -1) == 0;
}

/* A file's whole content (malloc'ed, NUL-terminated), or NULL. */
static char *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "re");
	char *buf = NULL;
	size_t n = 0, cap = 0, r;

	if (!f)
		return NULL;
	do {
		if (cap - n < 65536) {
			char *b = realloc(buf, cap + 65536 + 1);

			if (!b)
				break;
			buf = b;
			cap += 65536;
		}
		r = fread(buf + n, 1, cap - n, f);
		n += r;
	} while (r > 0 && n < AB_JSON_READ_MAX);
	fclose(f);
	if (buf)
		buf[n] = 0;
	if (len)
		*len = n;
	return buf;
}

/* The last @lines lines of @text (no more), each prefixed, to stderr. */
static void print_tail(const char *text, int lines, const char *prefix)
{
	const char *p = text + strlen(text);
	int n = 0;

	/* back to the newline that ends the line before those @lines */
	while (p > text)
		if (*--p == '\n' && p[1] && ++n == lines)
			break;
	if (*p == '\n')
		p++;
	while (*p) {
		const char *e = strchrnul(p, '\n');

		fprintf(stderr, "%s%.*s\n", prefix, (int)(e - p), p);
		p = *e ? e + 1 : e;
	}
}

/* A kernel's image directory name: the name with unusual bytes as '_'. */
static char *image_dir(const struct vm_paths *p, const char *name)
{
	char *id = xasprintf("%s", name), *c;

	for (c = id; *c; c++)
		if (!strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-",
			    *c))
			*c = '_';
	/* never "." or "..": the image stays inside the cache's vm/ */
	if (id[0] == '.')
		id[0] = '_';
	c = xasprintf("%s/vm/%s", p->cache, id);
	free(id);
	return c;
}

static char *read_line_file(const char *dir, const char *name)
{
	char *path = xasprintf("%s/%s", dir, name);
	char *s = slurp(path, NULL);

	free(path);
	if (s)
		s[strcspn(s, "\n")] = 0;
	return s;
}

/* mkdir -p @path (each missing directory, mode 0777 less the umask). */
static int mkdir_p(const char *path)
{
	char *d = xasprintf("%s", path), *c;
	int rc = 0, end = 0;

	for (c = d + 1; !rc && !end; c++) {
		if (*c && *c != '/')
			continue;
		end = !*c;
		*c = 0;
		if (mkdir(d, 0777) && errno != EEXIST)
			rc = -1;
		if (!end)
			*c = '/';
	}
	free(d);
	return rc;
}

/*
 * --pvh: @k's ELF image with its PVH entry, made once into its image
 * directory by scripts/vm/pvh-image.sh (which says how it is found in the
 * bzImage). Status 5 when the kernel has none.
 */
static int pvh_image(const struct vm_paths *p, struct vm_kernel *k)
{
	char *script = xasprintf("%s/pvh-image.sh", p->scripts);
	char *argv[] = { "sh", script, k->kdir, NULL, NULL };
	int rc;

	k->image = xasprintf("%s/vmlinux.pvh", k->out);
	argv[3] = k->image;
	rc = spawn_wait(argv, -1, -1);
	free(script);
	if (stop_signal) {
		ab_err("vm: interrupted while preparing %s", k->name);
		return 128 + stop_signal;
	}
	if (rc == 3) {
		/* pvh-image.sh said why on stderr (a full or read-only disk) */
		ab_err("vm: --pvh: cannot write %s (see above)", k->image);
		return AB_EXIT_VM;
	}
	if (rc) {
		ab_err("vm: --pvh: kernel %s has no PVH entry (CONFIG_PVH) or is no bzImage of xz, zstd or gzip; boot it without --pvh",
		       k->name);
		return AB_EXIT_VM;
	}
	return AB_EXIT_OK;
}

/* Makes @k's image (quietly: the log is shown only on failure). */
static int prepare(const struct vm_paths *p, struct vm_kernel *k)
{
	char *script = xasprintf("%s/vm-image.sh", p->scripts);
	char *log = xasprintf("%s.log", k->out);
	char *argv[] = { "sh",	 script, k->name,	  p->cache,
			 k->out, p->src, (char *)p->self, NULL };
	char *text;
	int fd, rc;

	if (!ab_out.quiet)
		fprintf(stderr,
			"vm: %s: the image (downloaded once; module and initramfs built when their sources change) ...\n",
			k->name);
	{
		char *vmdir = xasprintf("%s/vm", p->cache);

		rc = mkdir_p(vmdir);
		free(vmdir);
	}
	fd = rc ? -1
		: open(log, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
	if (fd < 0) {
		ab_err("vm: cannot write in the cache %s: %s (--cache=DIR chooses another)",
		       p->cache, strerror(errno));
		free(script);
		free(log);
		return AB_EXIT_VM;
	}
	rc = spawn_wait(argv, fd, fd);
	close(fd);
	text = slurp(log, NULL);
	if (stop_signal) {
		ab_err("vm: interrupted while preparing %s", k->name);
	} else if (rc == 2) {
		/* fetch-kernel.sh's one line: not a kernel, and what is; a
		 * refused name leaves no log (vm-image.sh made no image) */
		if (text)
			print_tail(text, 1, "allocbench: vm: ");
		unlink(log);
	} else if (rc && text) {
		ab_err("vm: preparing kernel %s failed (status %d); the end of %s:",
		       k->name, rc, log);
		print_tail(text, 15, "  ");
	}
	free(text);
	free(script);
	free(log);
	if (stop_signal)
		return 128 + stop_signal;
	if (rc)
		return rc == 2 ? AB_EXIT_USAGE : AB_EXIT_VM;
	k->kdir = read_line_file(k->out, "kernel-dir");
	k->release = k->kdir ? read_line_file(k->kdir, "release") : NULL;
	if (!k->kdir || !k->release) {
		ab_err("vm: %s: the image directory %s is incomplete", k->name,
		       k->out);
		return AB_EXIT_VM;
	}
	return pvh ? pvh_image(p, k) : AB_EXIT_OK;
}

/* ---- options ---- */

static const char **kernel_args;
/* --rounds: AB_VM_ROUNDS_UNSET until given (then AB_VM_DEFAULT_ROUNDS) */
#define AB_VM_DEFAULT_ROUNDS 5
#define AB_VM_ROUNDS_UNSET   INT_MIN
static int nodes = 1, rounds = AB_VM_ROUNDS_UNSET, mem_mib = 1024,
	   timeout_s = 900;
static const char *append_all = "", *accel_arg = "auto", *cache_arg,
		  *threshold_arg;

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
	{ "rounds", 'r', POPT_ARG_INT, &rounds, 0,
	  "boots of each kernel, alternating A B B A ... (default: 5)", "R" },
	{ "threshold", 0, POPT_ARG_STRING, &threshold_arg, 0,
	  "say whether a change of P% would have been detected, and the rounds it needs",
	  "P%" },
	{ "nodes", 0, POPT_ARG_INT, &nodes, 0,
	  "NUMA nodes of the guest: 1, 2, or 3 (a CPU-only and a memory-only node)",
	  "N" },
	{ "append", 0, POPT_ARG_STRING, &append_all, 0,
	  "boot parameters for every kernel", "PARAMS" },
	{ "accel", 0, POPT_ARG_STRING, &accel_arg, 0,
	  "auto (KVM when /dev/kvm is usable, else TCG; default), kvm or tcg",
	  "HOW" },
	{ "pvh", 0, POPT_ARG_NONE, &pvh, 0,
	  "boot each kernel's ELF image through its PVH entry, skipping the bzImage's decompressor (about 8 s less a boot under TCG); no KASLR: every boot has one layout",
	  NULL },
	{ "mem", 0, POPT_ARG_INT, &mem_mib, 0,
	  "guest memory in MiB (default: 1024)", "MIB" },
	{ "timeout", 0, POPT_ARG_INT, &timeout_s, 0,
	  "seconds one boot may take, command included (default: 900)", "S" },
	{ "cache", 0, POPT_ARG_STRING, &cache_arg, 0,
	  "where kernels and images are kept (default: the checkout's .cache, or ~/.cache/allocbench)",
	  "DIR" },
	{ NULL, 0, POPT_ARG_INCLUDE_TABLE, vm_output, 0,
	  "Output options:", NULL },
	POPT_AUTOHELP POPT_TABLEEND
};

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
	static const char *const ab_commands[] = { "run", "sweep", "lookup",
						   "reproduce", NULL };
	const struct ab_cmd *c;
	int i, j;

	if (n < 1) {
		ab_err("vm: no command: allocbench vm --kernel=K -- run --alloc=kmalloc --size=4096");
		return AB_EXIT_USAGE;
	}
	for (c = ab_cmds; c->name && strcmp(c->name, args[0]); c++)
		;
	if (!c->name || !strcmp(args[0], "vm")) {
		ab_err("vm: '%s' is not a command vm runs: the words after -- are an allocbench command (see `allocbench --help`)",
		       args[0]);
		return AB_EXIT_USAGE;
	}
	for (j = 0; compare && ab_commands[j]; j++)
		if (!strcmp(args[0], ab_commands[j]))
			break;
	if (compare && !ab_commands[j]) {
		ab_err("vm: %s: kernels are compared on run, sweep, lookup or reproduce",
		       args[0]);
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
	if (rounds_given && (rounds < 1 || rounds > AB_VM_MAX_ROUNDS)) {
		ab_err("vm: --rounds=%d: allowed 1 to %d (2 or more to test anything)",
		       rounds, AB_VM_MAX_ROUNDS);
		return AB_EXIT_USAGE;
	}
	if (nodes < 1 || nodes > 3) {
		ab_err("vm: --nodes=%d: allowed 1, 2 and 3 (a CPU-only and a memory-only node)",
		       nodes);
		return AB_EXIT_USAGE;
	}
	if (mem_mib < 256 || mem_mib > 65536) {
		ab_err("vm: --mem=%d: allowed 256 to 65536 MiB", mem_mib);
		return AB_EXIT_USAGE;
	}
	if (timeout_s < 10 || timeout_s > 86400) {
		ab_err("vm: --timeout=%d: allowed 10 to 86400 seconds",
		       timeout_s);
		return AB_EXIT_USAGE;
	}
	if (strcmp(accel_arg, "auto") && strcmp(accel_arg, "kvm") &&
	    strcmp(accel_arg, "tcg")) {
		ab_err("vm: --accel=%s: allowed auto, kvm and tcg", accel_arg);
		return AB_EXIT_USAGE;
	}
	if (!strcmp(accel_arg, "kvm") && !kvm_usable()) {
		ab_err("vm: --accel=kvm: /dev/kvm is not usable here (missing, no permission, or no virtualization); --accel=tcg emulates");
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

		ks[i].spec = xasprintf("%s", kernel_args[i]);
		ks[i].name = xasprintf("%s", kernel_args[i]);
		ks[i].append = "";
		if (ks[i].spec[at] && stat(ks[i].spec, &st)) {
			ks[i].name[at] = 0;
			ks[i].append = ks[i].spec + at + 1;
		}
		ks[i].out = image_dir(p, ks[i].name);
	}
}

/* ---- boots ---- */

/* This boot's result marker (malloc'ed): RESULT_MARK with a random token. */
static char *result_mark(void)
{
	unsigned char r[8];
	char tok[17];
	size_t i;

	if (getrandom(r, sizeof(r), 0) != sizeof(r))
		for (i = 0; i < sizeof(r); i++)
			r[i] = (unsigned char)(rand() ^ (int)getpid());
	for (i = 0; i < sizeof(r); i++)
		snprintf(tok + 2 * i, 3, "%02x", r[i]);
	return xasprintf(RESULT_MARK, tok);
}

/*
 * Boots kernel @k once with @cmd. @capture: the command's output into
 * the boot's result (and its messages into @b->why on failure), else the
 * output passes through. Fills @b.
 */
static void boot(const struct vm_paths *p, const struct vm_kernel *k,
		 const char *cmd0, int capture, const char *accel,
		 struct ab_vm_boot *b)
{
	char *script = xasprintf("%s/vm-run.sh", p->scripts);
	char *mark = result_mark(), *cmd;
	char *initrd = xasprintf("%s/initrd.gz", k->out);
	char *append = xasprintf("%s %s", append_all, k->append);
	char tmpl_out[] = "/tmp/allocbench-vm-out.XXXXXX",
	     tmpl_err[] = "/tmp/allocbench-vm-err.XXXXXX";
	char *argv[] = { "sh", script, k->kdir, initrd, NULL, NULL };
	char num[32], *out = NULL, *err = NULL, *at = NULL, *next;
	int fo = -1, fe = -1;
	struct timespec t0, t1;

	/* the result follows the marker; the command's status is kept */
	cmd = capture ? xasprintf(
				"%s --json -o /tmp/ab-vm.json; rc=$?; echo; echo %s; cat /tmp/ab-vm.json 2>/dev/null; exit $rc",
				cmd0, mark)
		      : xasprintf("%s", cmd0);
	argv[4] = cmd;

	snprintf(num, sizeof(num), "%d", nodes);
	setenv("NODES", num, 1);
	snprintf(num, sizeof(num), "%d", mem_mib);
	setenv("VM_MEM", num, 1);
	snprintf(num, sizeof(num), "%d", timeout_s);
	setenv("VM_TIMEOUT", num, 1);
	setenv("APPEND", append, 1);
	setenv("VM_ACCEL", accel, 1);
	if (k->image)
		setenv("VM_IMAGE", k->image, 1);
	else
		unsetenv("VM_IMAGE");
	unsetenv("VM_LOG");
	if (capture) {
		fo = mkostemp(tmpl_out, O_CLOEXEC);
		fe = fo < 0 ? -1 : mkostemp(tmpl_err, O_CLOEXEC);
		if (fe < 0) {
			b->status = AB_VM_NOSTATUS;
			b->why = xasprintf("cannot make a temporary file: %s",
					   strerror(errno));
			goto out;
		}
	}
	clock_gettime(CLOCK_MONOTONIC, &t0);
	b->exit = spawn_wait(argv, fo, fe);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	b->seconds = (t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) / 1e9;
	if (capture) {
		out = slurp(tmpl_out, NULL);
		err = slurp(tmpl_err, NULL);
	}
	if (stop_signal) {
		/* the status says "interrupted"; the reason says by what */
		b->status = AB_VM_INTERRUPTED;
		b->why = xasprintf("%s", signal_words(stop_signal));
	} else if (b->exit == 125) {
		b->status = AB_VM_KERNEL;
	} else if (b->exit == 126 || b->exit < 0) {
		b->status = AB_VM_NOSTATUS;
	} else if (b->exit) {
		b->status = AB_VM_FAILED;
	} else {
		b->status = AB_VM_OK;
	}
	if (!capture)
		goto out;
	/* the last marker line: whatever the command printed came before */
	for (next = out; next && (next = strstr(next, mark)); next++)
		if (next > out && next[-1] == '\n' &&
		    next[strlen(mark)] == '\n')
			at = next;
	if (b->status == AB_VM_OK) {
		char why[1024];
		json_object *r = NULL;

		if (at) {
			enum json_tokener_error je;

			r = json_tokener_parse_verbose(at + strlen(mark) + 1,
						       &je);
			if (!r)
				snprintf(why, sizeof(why),
					 "result: not JSON: %s",
					 json_tokener_error_desc(je));
			else if (ab_json_check_result(r, why, sizeof(why)))
				json_object_put(r), r = NULL;
		} else {
			snprintf(why, sizeof(why), "no result in the output");
		}
		b->result = r;
		if (!r) {
			b->status = AB_VM_BADOUTPUT;
			b->why = xasprintf("%s", why);
		}
	}
	if (b->status != AB_VM_OK && !b->why) {
		/* vm-run.sh's own line says what happened, else the first
		 * line of its stderr; the command's own last message is its
		 * reason */
		const char *e = err && *err ? err : "",
			   *v = strstr(e, "vm-run: ");
		char *msg = NULL;

		if (v && (v == e || v[-1] == '\n'))
			e = v;
		if (at)
			*at = 0;
		if (b->status == AB_VM_FAILED && out && *out) {
			char *last = out + strlen(out);

			while (last > out && last[-1] == '\n')
				*--last = 0;
			last = strrchr(out, '\n');
			msg = xasprintf("status %d: %s", b->exit,
					last ? last + 1 : out);
		} else if (b->status == AB_VM_NOSTATUS &&
			   b->seconds >= timeout_s - 1) {
			msg = xasprintf("timed out after %d s (--timeout)",
					timeout_s);
		} else {
			msg = xasprintf("%.*s", (int)strcspn(e, "\n"), e);
		}
		b->why = msg;
	}
out:
	if (fo >= 0)
		close(fo), unlink(tmpl_out);
	if (fe >= 0)
		close(fe), unlink(tmpl_err);
	free(out);
	free(err);
	free(script);
	free(initrd);
	free(append);
	free(mark);
	free(cmd);
}

static void fmt_duration(double s, char *buf, size_t len)
{
	if (s >= 120)
		snprintf(buf, len, "%.0f min", s / 60);
	else
		snprintf(buf, len, "%.0f s", s);
}

/* ---- the report ---- */

static double num(json_object *o, const char *key)
{
	return ab_json_double(ab_json_get(o, key));
}

static void print_comparison(json_object *c, double threshold)
{
	json_object *rows = ab_json_array(c, "rows");
	size_t i, j, nrows = rows ? json_object_array_length(rows) : 0;
	int counters = 0, wl = 24,
	    tests = json_object_get_int(
		    ab_json_get(ab_json_get(c, "correction"), "tests"));
	char thr[32];

	for (i = 0; i < nrows; i++) {
		int l = (int)strlen(json_object_get_string(ab_json_get(
			json_object_array_get_idx(rows, i), "label")));

		if (l > wl)
			wl = l;
	}
	if (!nrows) {
		printf("\n%s (B) against %s (A): nothing to compare: no good boot of A holds a result\n",
		       json_object_get_string(ab_json_get(c, "b")),
		       json_object_get_string(ab_json_get(c, "a")));
		return;
	}
	printf("\n%s (B) against %s (A): each boot's median ns/op, their geometric mean per kernel; Welch's t test on the logs, the boot as unit; verdict on Holm's adjusted p (p adj) over the %d %s of this report\n",
	       json_object_get_string(ab_json_get(c, "b")),
	       json_object_get_string(ab_json_get(c, "a")), tests,
	       ab_noun((unsigned)tests, "test", "tests"));
	snprintf(thr, sizeof(thr), "%g%% seen?", threshold);
	printf("%-*s %-6s %5s %10s %10s %7s %17s %8s %8s  %-26s %10s%s%s\n", wl,
	       "row", "phase", "boots", "A ns/op", "B ns/op", "B / A",
	       "95% CI of B / A", "p", "p adj", "verdict", "detectable",
	       threshold > 0 ? "  " : "", threshold > 0 ? thr : "");
	for (i = 0; i < nrows; i++) {
		json_object *r = json_object_array_get_idx(rows, i);
		json_object *ci = ab_json_array(r, "ci95");
		const char *v =
			json_object_get_string(ab_json_get(r, "verdict"));
		double det = num(r, "detectable_pct");
		char verdict[64], boots[16], cis[32], p[16], padj[16];

		snprintf(boots, sizeof(boots), "%zu/%zu",
			 json_object_array_length(ab_json_array(r, "boots_a")),
			 json_object_array_length(ab_json_array(r, "boots_b")));
		if (!strcmp(v, "faster") || !strcmp(v, "slower"))
			snprintf(verdict, sizeof(verdict), "B %s", v);
		else
			snprintf(verdict, sizeof(verdict), "%s", v);
		if (ci && !isnan(num(r, "ratio")) &&
		    !isnan(ab_json_double(json_object_array_get_idx(ci, 0))))
			snprintf(cis, sizeof(cis), "[%.3f, %.3f]",
				 ab_json_double(
					 json_object_array_get_idx(ci, 0)),
				 ab_json_double(
					 json_object_array_get_idx(ci, 1)));
		else
			snprintf(cis, sizeof(cis), "n/a");
		printf("%-*s %-6s %5s", wl,
		       json_object_get_string(ab_json_get(r, "label")),
		       json_object_get_string(ab_json_get(r, "phase")), boots);
		ab_print_cell(num(r, "a_ns"), " %*.1f", 10);
		ab_print_cell(num(r, "b_ns"), " %*.1f", 10);
		ab_print_cell(num(r, "ratio"), " %*.3f", 7);
		printf(" %17s", cis);
		printf(" %8s %8s  %-26s", ab_p_text(num(r, "p"), p, sizeof(p)),
		       ab_p_text(num(r, "p_adjusted"), padj, sizeof(padj)),
		       verdict);
		if (isnan(det))
			printf(" %10s", "n/a");
		else
			printf(" %9.1f%%", det);
		if (threshold > 0) {
			json_object *seen =
				ab_json_get(r, "threshold_detectable");
			json_object *need = ab_json_get(r, "rounds_needed");

			if (!seen)
				printf("  n/a");
			else if (json_object_get_boolean(seen))
				printf("  yes");
			else if (need)
				printf("  no: %d rounds",
				       json_object_get_int(need));
			else
				printf("  no: over %d rounds",
				       AB_VM_MAX_ROUNDS);
		}
		printf("\n");
		for (j = 0;
		     j < json_object_array_length(ab_json_array(r, "counters"));
		     j++)
			counters = 1;
	}
	if (!counters)
		return;
	printf("\ncounters per op (alloc and free together), mean over each kernel's boots (what goes with the difference; correlated, not shown to cause it):\n");
	for (i = 0; i < nrows; i++) {
		json_object *r = json_object_array_get_idx(rows, i);
		json_object *cs = ab_json_array(r, "counters");
		const char *label =
			json_object_get_string(ab_json_get(r, "label"));

		/* a row's counters are the same in each of its phases */
		if (!cs || !json_object_array_length(cs) ||
		    (i && !strcmp(label, json_object_get_string(ab_json_get(
						 json_object_array_get_idx(
							 rows, i - 1),
						 "label")))))
			continue;
		printf("%s:\n", label);
		for (j = 0; j < json_object_array_length(cs); j++) {
			json_object *e = json_object_array_get_idx(cs, j);

			printf("  %-36s A %12.3f  B %12.3f  B - A %+12.3f\n",
			       json_object_get_string(ab_json_get(e, "event")),
			       num(e, "a"), num(e, "b"), num(e, "delta"));
		}
	}
}

/* --pvh's caveat, in the header */
static const char pvh_words[] =
	"boots through the PVH entry (--pvh): no KASLR, every boot has one layout, so boots vary less than an installed kernel's";

static const char *accel_words(const char *accel)
{
	return strcmp(accel, "kvm")
		       ? "TCG: an emulated CPU, so these are not bare-metal figures; compare kernels with each other, not with hardware"
		       : "KVM: the host's CPU, virtualized";
}

/* ---- the command ---- */

static json_object *kernels_json(const struct vm_kernel *ks, int nk)
{
	json_object *a = json_object_new_array();
	int i;

	for (i = 0; i < nk; i++) {
		json_object *o = json_object_new_object();

		json_object_object_add(o, "name",
				       json_object_new_string(ks[i].spec));
		json_object_object_add(o, "kernel",
				       json_object_new_string(ks[i].name));
		json_object_object_add(o, "append",
				       json_object_new_string(ks[i].append));
		json_object_object_add(
			o, "release",
			ks[i].release ? json_object_new_string(ks[i].release)
				      : NULL);
		json_object_object_add(o, "good_boots",
				       json_object_new_int(ks[i].good));
		json_object_array_add(a, o);
	}
	return a;
}

static json_object *boots_json(struct ab_vm_boot *bs, int nb,
			       const struct vm_kernel *ks)
{
	json_object *a = json_object_new_array();
	int i;

	for (i = 0; i < nb; i++) {
		json_object *o = json_object_new_object();

		json_object_object_add(o, "boot", json_object_new_int(i + 1));
		json_object_object_add(
			o, "kernel",
			json_object_new_string(ks[bs[i].kernel].spec));
		json_object_object_add(o, "kernel_index",
				       json_object_new_int(bs[i].kernel));
		json_object_object_add(o, "round",
				       json_object_new_int(bs[i].round));
		json_object_object_add(o, "status",
				       json_object_new_string(ab_vm_status_name(
					       bs[i].status)));
		json_object_object_add(
			o, "exit",
			bs[i].status == AB_VM_NOTRUN
				? NULL
				: json_object_new_int(bs[i].exit));
		json_object_object_add(o, "seconds",
				       ab_json_num(bs[i].seconds));
		json_object_object_add(
			o, "why",
			bs[i].why ? json_object_new_string(bs[i].why) : NULL);
		json_object_object_add(o, "result", bs[i].result);
		bs[i].result = NULL;
		json_object_array_add(a, o);
	}
	return a;
}

struct vm_run {
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

static void print_header(const struct vm_run *v, const char *cmd)
{
	int i;

	printf("allocbench vm: %d kernels, %d %s (%d boots: A B, B A, ...), %d NUMA %s, %s\n",
	       v->nk, rounds, ab_noun((unsigned)rounds, "round", "rounds"),
	       v->nboots, nodes, ab_noun((unsigned)nodes, "node", "nodes"),
	       accel_words(v->accel));
	if (pvh)
		printf("%s\n", pvh_words);
	for (i = 0; i < v->nk; i++) {
		const struct vm_kernel *k = &v->ks[i];
		int params = *append_all || *k->append;

		printf("  %c = %s: %s%s%s%s%s, %d good boot%s\n", 'A' + i,
		       k->spec, k->release, params ? ", boot parameters: " : "",
		       append_all, *append_all && *k->append ? " " : "",
		       k->append, k->good, k->good == 1 ? "" : "s");
	}
	printf("command in each boot: %s\n", cmd);
	for (i = 0; i < v->nboots; i++)
		if (v->boots[i].status != AB_VM_OK)
			printf("left out: boot %d (%c = %s, round %d): %s%s%s\n",
			       i + 1, 'A' + v->boots[i].kernel,
			       v->ks[v->boots[i].kernel].spec,
			       v->boots[i].round,
			       ab_vm_status_name(v->boots[i].status),
			       v->boots[i].why ? ": " : "",
			       v->boots[i].why ? v->boots[i].why : "");
}

static json_object *tool_json(void)
{
	json_object *t = json_object_new_object();

	json_object_object_add(t, "name", json_object_new_string("allocbench"));
	json_object_object_add(t, "version",
			       json_object_new_string(AB_TOOL_VERSION));
	return t;
}

/* Boots every kernel in turn, @rounds times; the report. */
static int compare_kernels(const struct vm_paths *p, struct vm_run *v)
{
	char *cmd0 = guest_command(v->args, v->nargs);
	const char *names[AB_VM_MAX_KERNELS];
	json_object *cmps, *root;
	struct timespec t0, t1;
	int i, ret = AB_EXIT_OK, few = 0, tty = isatty(STDERR_FILENO);
	int refused = 0;
	double spent = 0;
	char eta[32];

	v->nboots = v->nk * rounds;
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
		k = &v->ks[b->kernel];
		if (stop_signal || refused) {
			b->status = AB_VM_NOTRUN;
			b->why =
				refused ? xasprintf(
						  "the command was refused in boot %d (status 2): every boot would refuse it",
						  refused)
					: xasprintf(
						  "the run was interrupted %s",
						  signal_words(stop_signal));
			continue;
		}
		if (i)
			fmt_duration(spent / i * (v->nboots - i), eta,
				     sizeof(eta));
		if (!ab_out.quiet && tty)
			ab_progress("vm: boot %d of %d: %s, round %d: %s%s%s",
				    i + 1, v->nboots, k->spec, b->round, cmd0,
				    i ? ", about " : "", i ? eta : "");
		boot(p, k, cmd0, 1, v->accel, b);
		spent += b->seconds;
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
		if (v->nk > 1 && v->ks[i].good < 2 && !stop_signal)
			few = 1;
	}
	cmps = ab_vm_compare(v->boots, (size_t)v->nboots, v->nk, names,
			     v->threshold);
	if (ab_out.json) {
		root = json_object_new_object();
		json_object_object_add(root, "schema",
				       json_object_new_string("allocbench-vm"));
		json_object_object_add(root, "schema_version",
				       json_object_new_int(1));
		json_object_object_add(root, "tool", tool_json());
		json_object_object_add(root, "command",
				       json_object_new_string("vm"));
		json_object_object_add(root, "start",
				       ab_json_time((time_t)ab_out.start));
		json_object_object_add(root, "end", ab_json_time(time(NULL)));
		json_object_object_add(root, "seconds",
				       ab_json_num(v->seconds));
		json_object_object_add(root, "accel",
				       json_object_new_string(v->accel));
		json_object_object_add(
			root, "entry",
			json_object_new_string(pvh ? "pvh" : "bzimage"));
		json_object_object_add(root, "nodes",
				       json_object_new_int(nodes));
		json_object_object_add(root, "rounds",
				       json_object_new_int(rounds));
		json_object_object_add(root, "append",
				       json_object_new_string(append_all));
		json_object_object_add(
			root, "threshold_pct",
			v->threshold > 0 ? ab_json_num(v->threshold) : NULL);
		json_object_object_add(root, "guest_command",
				       json_object_new_string(cmd0));
		json_object_object_add(
			root, "interrupted",
			json_object_new_boolean(stop_signal != 0));
		json_object_object_add(root, "kernels",
				       kernels_json(v->ks, v->nk));
		json_object_object_add(root, "boots",
				       boots_json(v->boots, v->nboots, v->ks));
		json_object_object_add(root, "comparisons", cmps);
		ab_json_print(root, stdout);
	} else {
		char took[32];
		json_object *c0 = cmps && json_object_array_length(cmps)
					  ? json_object_array_get_idx(cmps, 0)
					  : NULL;
		size_t tests = (size_t)json_object_get_int64(
			ab_json_get(ab_json_get(c0, "correction"), "tests"));

		if (!tests)
			tests = 1;
		print_header(v, cmd0);
		fmt_duration(v->seconds, took, sizeof(took));
		printf("%d of %d %s ran, in %s\n", v->ran, v->nboots,
		       ab_noun((unsigned)v->nboots, "boot", "boots"), took);
		for (i = 0; cmps && i < (int)json_object_array_length(cmps);
		     i++)
			print_comparison(json_object_array_get_idx(cmps, i),
					 v->threshold);
		printf("\nverdict: faster or slower when Holm's adjusted p < %.2f, over every row, phase and kernel of this report (so the chance of any false verdict in it stays under that; p is each test's own); \"no significant difference\" is not \"no difference\": the detectable column is the change these boots would have found 8 times in 10 (from the boot-to-boot spread seen) at Holm's first level, %.2g / %zu tests, and --threshold=P%% says how many rounds a P%% change needs there.\n",
		       AB_VM_ALPHA, AB_VM_ALPHA, tests);
		json_object_put(cmps);
	}
	if (refused)
		ab_err("vm: the command was refused in boot %d (status 2, a usage error): see its message above",
		       refused);
	else if (few)
		ab_err("vm: cannot conclude: a kernel has fewer than 2 good boots (each kernel needs 2 or more for a test)");
	free(cmd0);
	if (stop_signal)
		ret = 128 + stop_signal;
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
	char *cmd = guest_command(v->args, v->nargs);
	int ret;

	if (!ab_out.quiet)
		fprintf(stderr, "vm: %s (%s), %d NUMA node%s, %s\n",
			v->ks[0].spec, v->ks[0].release, nodes,
			nodes > 1 ? "s" : "", accel_words(v->accel));
	if (!ab_out.quiet && pvh)
		fprintf(stderr, "vm: %s\n", pvh_words);
	if (!ab_out.json) {
		fflush(stdout);
		boot(p, &v->ks[0], cmd, 0, v->accel, &b);
		free(cmd);
		free(b.why);
		if (stop_signal)
			return 128 + stop_signal;
		return b.exit < 0 ? AB_EXIT_VM : b.exit;
	}
	/* --json: the one boot as a vm document */
	free(cmd);
	rounds = 1;
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
	struct sigaction sa;
	int i, nk = 0, dash = argc, ret;

	memset(&v, 0, sizeof(v));
	vm_output_options();
	/* the first "--" that is no option's value (vm -o -- ... names a
	 * file "--", as compare's -o does) */
	i = ab_popt_find_dash(argc, argv, vm_options);
	if (i >= 0)
		dash = i;
	ret = -ab_popt_parse_pos("vm", dash, argv, vm_options, NULL, 0);
	if (ret > 0)
		return ret;
	while (kernel_args && kernel_args[nk])
		nk++;
	v.args = argv + dash + 1;
	v.nargs = dash < argc ? argc - dash - 1 : 0;
	ret = check_options(nk, &v.threshold, rounds != AB_VM_ROUNDS_UNSET);
	if (rounds == AB_VM_ROUNDS_UNSET)
		rounds = AB_VM_DEFAULT_ROUNDS;
	if (!ret)
		ret = check_guest_args(v.args, v.nargs, nk > 1 || ab_out.json);
	if (!ret)
		ret = find_paths(&paths, cache_arg);
	if (ret)
		return ret;
	v.nk = nk;
	v.accel = !strcmp(accel_arg, "auto") ? (kvm_usable() ? "kvm" : "tcg")
					     : accel_arg;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	/* a closed terminal or a quit ends the boot too, never leaves it */
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	sigaction(SIGQUIT, &sa, NULL);
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
			ret = prepare(&paths, &v.ks[i]);
		}
	}
	if (ret)
		return ret;
	if (nk == 1)
		return run_once(&paths, &v);
	return compare_kernels(&paths, &v);
}
