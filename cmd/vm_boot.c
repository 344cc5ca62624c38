// SPDX-License-Identifier: GPL-2.0-only
/*
 * vm_boot.c - the boots of `allocbench vm` (vm.h): where the scripts and
 * the cache are, making a kernel's image (scripts/vm/vm-image.sh, and
 * pvh-image.sh for --pvh), booting it once with a command
 * (scripts/vm/vm-run.sh) and reading the boot's result; the signals that
 * end a boot.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
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

#include "jsonin.h"
#include "kfile.h"
#include "vm.h"

#ifndef AB_LIBDIR
#define AB_LIBDIR "/usr/local/lib/allocbench"
#endif

/* The marker between a boot's messages and its JSON result; each boot's
 * carries a token of its own, so no output of the command can fake it. */
#define RESULT_MARK "@@AB-VM-RESULT-%s@@"

extern char **environ;

volatile sig_atomic_t vm_stop_signal;
static pid_t child_pgid;

/* What signal @sig is, for the reason of a boot it ended. */
const char *vm_signal_words(int sig)
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
	vm_stop_signal = sig;
	/* the boot runs in its own process group: end it too */
	if (child_pgid > 0)
		kill(-child_pgid, SIGINT);
}

void vm_catch_signals(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	/* a closed terminal or a quit ends the boot too, never leaves it */
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	sigaction(SIGQUIT, &sa, NULL);
}

char *vm_xasprintf(const char *fmt, ...)
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

int vm_find_paths(struct vm_paths *p, const char *cache)
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
	dir = vm_xasprintf("%.*s", (int)(strrchr(p->self, '/') - p->self),
			   p->self);
	probe = vm_xasprintf("%s/scripts/vm/vm-image.sh", dir);
	if (!lib && is_file(probe)) {
		p->scripts = vm_xasprintf("%s/scripts/vm", dir);
		p->src = vm_xasprintf("%s", dir);
		p->cache = vm_xasprintf("%s/.cache", dir);
	} else {
		lib = lib ? lib : AB_LIBDIR;
		p->scripts = vm_xasprintf("%s/vm", lib);
		p->src = vm_xasprintf("%s/src", lib);
		env = getenv("ALLOCBENCH_CACHE");
		if (env && *env)
			p->cache = vm_xasprintf("%s", env);
		else if ((env = getenv("XDG_CACHE_HOME")) && *env)
			p->cache = vm_xasprintf("%s/allocbench", env);
		else
			p->cache = vm_xasprintf("%s/.cache/allocbench",
						getenv("HOME") ? getenv("HOME")
							       : "/root");
	}
	free(probe);
	free(dir);
	if (cache) {
		free(p->cache);
		p->cache = vm_xasprintf("%s", cache);
	}
	probe = vm_xasprintf("%s/vm-image.sh", p->scripts);
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

char *vm_guest_command(const char **args, int n)
{
	char *cmd = vm_xasprintf("allocbench"), *t, *w;
	int i;

	for (i = 0; i < n; i++) {
		w = shell_word(args[i]);
		if (!w) {
			ab_err("out of memory");
			exit(AB_EXIT_RUN);
		}
		t = vm_xasprintf("%s %s", cmd, w);
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
	if (vm_stop_signal)
		kill(-pid, SIGINT);
	while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
		;
	child_pgid = 0;
	if (WIFSIGNALED(st))
		return 128 + WTERMSIG(st);
	return WEXITSTATUS(st);
}

/*
 * Whether this CPU states hardware virtualization: a "flags" line of
 * /proc/cpuinfo with the word vmx (Intel VT-x) or svm (AMD-V).
 */
static int cpu_has_virt(void)
{
	FILE *f = ab_kfile_open("/proc/cpuinfo");
	char line[8192];
	int found = 0;

	if (!f)
		return 0;
	while (!found && fgets(line, sizeof(line), f)) {
		char *tok, *save;

		if (strncmp(line, "flags", 5))
			continue;
		for (tok = strtok_r(line, " \t\n", &save); tok && !found;
		     tok = strtok_r(NULL, " \t\n", &save))
			found = !strcmp(tok, "vmx") || !strcmp(tok, "svm");
	}
	fclose(f);
	return found;
}

/*
 * Whether KVM can run a guest here: the CPU states vmx or svm (a nested
 * host, a Firecracker microVM seen here, can offer a /dev/kvm that opens
 * and starts qemu without them, and a guest then stalls for minutes at
 * its first timer calibration), /dev/kvm opens read-write, speaks the
 * API this qemu uses (KVM_GET_API_VERSION, 12), and qemu can set up a
 * vCPU of the host's model with it (a stopped machine, quit at once: some
 * nested hosts offer /dev/kvm but refuse the host CPU's MSRs, "failed to
 * set MSR 0x10a", and qemu aborts).
 */
int vm_kvm_usable(void)
{
	char *argv[] = {
		"sh", "-c",
		"exec >/dev/null 2>&1; echo quit | qemu-system-x86_64 -accel kvm -cpu host -S -nodefaults -display none -monitor stdio",
		NULL
	};
	int fd, ok;

	if (!cpu_has_virt())
		return 0;
	fd = open("/dev/kvm", O_RDWR | O_CLOEXEC);
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

/* the name with unusual bytes as '_' */
char *vm_image_dir(const struct vm_paths *p, const char *name)
{
	char *id = vm_xasprintf("%s", name), *c;

	for (c = id; *c; c++)
		if (!strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-",
			    *c))
			*c = '_';
	/* never "." or "..": the image stays inside the cache's vm/ */
	if (id[0] == '.')
		id[0] = '_';
	c = vm_xasprintf("%s/vm/%s", p->cache, id);
	free(id);
	return c;
}

/* The first line of the image directory's file @dir/@name (malloc'ed), or
 * NULL. */
static char *read_line_file(const char *dir, const char *name)
{
	char line[PATH_MAX];

	if (ab_kfile_line(line, sizeof(line), "%s/%s", dir, name) < 0)
		return NULL;
	return vm_xasprintf("%s", line);
}

/* mkdir -p @path (each missing directory, mode 0777 less the umask). */
static int mkdir_p(const char *path)
{
	char *d = vm_xasprintf("%s", path), *c;
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
	char *script = vm_xasprintf("%s/pvh-image.sh", p->scripts);
	char *argv[] = { "sh", script, k->kdir, NULL, NULL };
	int rc;

	k->image = vm_xasprintf("%s/vmlinux.pvh", k->out);
	argv[3] = k->image;
	rc = spawn_wait(argv, -1, -1);
	free(script);
	if (vm_stop_signal) {
		ab_err("vm: interrupted while preparing %s", k->name);
		return 128 + vm_stop_signal;
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

/* quietly: the log is shown only on failure */
int vm_prepare(const struct vm_paths *p, const struct vm_conf *c,
	       struct vm_kernel *k)
{
	char *script = vm_xasprintf("%s/vm-image.sh", p->scripts);
	char *log = vm_xasprintf("%s.log", k->out);
	char *argv[] = { "sh",	 script, k->name,	  p->cache,
			 k->out, p->src, (char *)p->self, NULL };
	char *text;
	int fd, rc;

	if (!ab_out.quiet)
		fprintf(stderr,
			"vm: %s: the image (downloaded once; module and initramfs built when their sources change) ...\n",
			k->name);
	{
		char *vmdir = vm_xasprintf("%s/vm", p->cache);

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
	if (vm_stop_signal) {
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
	if (vm_stop_signal)
		return 128 + vm_stop_signal;
	if (rc)
		return rc == 2 ? AB_EXIT_USAGE : AB_EXIT_VM;
	k->kdir = read_line_file(k->out, "kernel-dir");
	k->release = k->kdir ? read_line_file(k->kdir, "release") : NULL;
	if (!k->kdir || !k->release) {
		ab_err("vm: %s: the image directory %s is incomplete", k->name,
		       k->out);
		return AB_EXIT_VM;
	}
	return c->pvh ? pvh_image(p, k) : AB_EXIT_OK;
}

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
	return vm_xasprintf(RESULT_MARK, tok);
}

void vm_boot(const struct vm_paths *p, const struct vm_conf *c,
	     const struct vm_kernel *k, const char *cmd0, int capture,
	     const char *accel, struct ab_vm_boot *b)
{
	char *script = vm_xasprintf("%s/vm-run.sh", p->scripts);
	char *mark = result_mark(), *cmd;
	char *initrd = vm_xasprintf("%s/initrd.gz", k->out);
	char *append = vm_xasprintf("%s %s", c->append, k->append);
	/* the boot's output and errors: in $TMPDIR, else /tmp, as mktemp(1) */
	const char *td = getenv("TMPDIR");
	char *tmpl_out, *tmpl_err;
	char *argv[] = { "sh", script, k->kdir, initrd, NULL, NULL };
	char num[32], *out = NULL, *err = NULL, *at = NULL, *next;
	int fo = -1, fe = -1;
	struct timespec t0, t1;

	if (!td || !*td)
		td = "/tmp";
	tmpl_out = vm_xasprintf("%s/allocbench-vm-out.XXXXXX", td);
	tmpl_err = vm_xasprintf("%s/allocbench-vm-err.XXXXXX", td);
	/* the result follows the marker; the command's status is kept */
	cmd = capture ? vm_xasprintf(
				"%s --json -o /tmp/ab-vm.json; rc=$?; echo; echo %s; cat /tmp/ab-vm.json 2>/dev/null; exit $rc",
				cmd0, mark)
		      : vm_xasprintf("%s", cmd0);
	argv[4] = cmd;

	snprintf(num, sizeof(num), "%d", c->nodes);
	setenv("NODES", num, 1);
	snprintf(num, sizeof(num), "%d", c->mem_mib);
	setenv("VM_MEM", num, 1);
	snprintf(num, sizeof(num), "%d", c->smp);
	setenv("VM_SMP", num, 1);
	snprintf(num, sizeof(num), "%d", c->timeout_s);
	setenv("VM_TIMEOUT", num, 1);
	setenv("APPEND", append, 1);
	setenv("VM_ACCEL", accel, 1);
	setenv("VPMU", c->vpmu ? c->vpmu : "", 1);
	setenv("VM_CPU", c->cpu_model ? c->cpu_model : "", 1);
	if (k->image)
		setenv("VM_IMAGE", k->image, 1);
	else
		unsetenv("VM_IMAGE");
	unsetenv("VM_LOG");
	/* the default model's clearcpuid=rep_good, as the header says */
	unsetenv("VM_REP_GOOD");
	if (c->deterministic) {
		setenv("VM_ICOUNT", "0", 1);
		snprintf(num, sizeof(num), "%d", b->seed);
		setenv("VM_SEED", num, 1);
	} else {
		unsetenv("VM_ICOUNT");
		unsetenv("VM_SEED");
	}
	if (capture) {
		fo = mkostemp(tmpl_out, O_CLOEXEC);
		fe = fo < 0 ? -1 : mkostemp(tmpl_err, O_CLOEXEC);
		if (fe < 0) {
			b->status = AB_VM_NOSTATUS;
			b->why =
				vm_xasprintf("cannot make a temporary file: %s",
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
	if (vm_stop_signal) {
		/* the status says "interrupted"; the reason says by what */
		b->status = AB_VM_INTERRUPTED;
		b->why = vm_xasprintf("%s", vm_signal_words(vm_stop_signal));
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
			b->why = vm_xasprintf("%s", why);
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
			msg = vm_xasprintf("status %d: %s", b->exit,
					   last ? last + 1 : out);
		} else if (b->status == AB_VM_NOSTATUS &&
			   b->seconds >= c->timeout_s - 1) {
			msg = vm_xasprintf("timed out after %d s (--timeout)",
					   c->timeout_s);
		} else {
			msg = vm_xasprintf("%.*s", (int)strcspn(e, "\n"), e);
		}
		b->why = msg;
	}
out:
	if (fo >= 0)
		close(fo), unlink(tmpl_out);
	if (fe >= 0)
		close(fe), unlink(tmpl_err);
	free(tmpl_out);
	free(tmpl_err);
	free(out);
	free(err);
	free(script);
	free(initrd);
	free(append);
	free(mark);
	free(cmd);
}
