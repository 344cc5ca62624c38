// SPDX-License-Identifier: GPL-2.0-only
/*
 * dynprobe.c - filtered kprobes (see dynprobe.h).
 *
 * A kprobe event is defined by writing "p:GROUP/EVENT FUNC FETCHARGS" to
 * tracefs's kprobe_events and removed by writing "-:GROUP/EVENT"; its id
 * is in events/GROUP/EVENT/id (Documentation/trace/kprobetrace.rst). The
 * kprobe is armed only while an event on it is enabled (perf opens it
 * disabled), so defining it changes nothing until it counts.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "dynprobe.h"
#include "kfile.h"

/*
 * The per-CPU slab's refill. mm/slub.c (6.1, 6.12): ___slab_alloc(s,
 * gfpflags, node, addr, c, orig_size) is the slow path, entered when the
 * lockless fast path cannot serve the call: on other kernels when the
 * per-CPU freelist c->freelist is empty (a refill: from the CPU slab's
 * own remote frees, the per-CPU partial list, the node's partial list or
 * a new slab), or the slab is on another node; on PREEMPT_RT on every
 * allocation (USE_LOCKLESS_FAST_PATH() is false there), where it takes
 * the object from c->freelist when there is one. A refill is therefore
 * an entry with c->freelist NULL on both. c is the fifth argument and
 * freelist the first member of struct kmem_cache_cpu (mm/slub.c), at
 * offset 0.
 */
static const struct ab_dynprobe probes[] = {
	{ "kprobe:___slab_alloc(c->freelist==NULL)", "slab_refill",
	  "___slab_alloc", "freelist=+0($arg5):x64", "freelist == 0",
	  "mm/slub.c: ___slab_alloc() entered with the per-CPU freelist empty (kmem_cache_cpu.freelist, the fifth argument's first member): a refill of the per-CPU slab, on PREEMPT_RT as on other kernels" },
};

#define GROUP "allocbench"

static struct {
	const struct ab_dynprobe *probe;
	uint64_t id;
} defined[sizeof(probes) / sizeof(probes[0])];
static int ndefined;

const struct ab_dynprobe *ab_dynprobe_find(const char *name)
{
	size_t i;

	for (i = 0; i < sizeof(probes) / sizeof(probes[0]); i++)
		if (!strcmp(probes[i].name, name))
			return &probes[i];
	return NULL;
}

static const char *tracefs(void)
{
	static const char *const dirs[] = { "/sys/kernel/tracing",
					    "/sys/kernel/debug/tracing" };
	char path[128];
	size_t i;

	for (i = 0; i < sizeof(dirs) / sizeof(dirs[0]); i++) {
		snprintf(path, sizeof(path), "%s/kprobe_events", dirs[i]);
		if (!access(path, F_OK))
			return dirs[i];
	}
	return NULL;
}

/*
 * /proc/kallsyms' function names, sorted, read once per process: a scan
 * of its ~150k lines takes 0.5-0.9 s in a TCG guest, and --explain asks
 * after a dozen names a kernel may lack (7.3's sheaf functions on 6.12:
 * 7 s a run). The module is loaded before the CLI asks, so the table
 * stays true for the run.
 */
static struct {
	char **name;
	size_t n, cap;
	int state; /* 0: unread, 1: read, -1: unreadable */
} ksyms;

static int ksym_add(uint64_t addr, const char *name, void *ctx)
{
	char **grown;

	(void)addr;
	(void)ctx;
	if (ksyms.n == ksyms.cap) {
		ksyms.cap = ksyms.cap ? 2 * ksyms.cap : 4096;
		grown = realloc(ksyms.name, ksyms.cap * sizeof(*grown));
		if (!grown)
			return -1;
		ksyms.name = grown;
	}
	ksyms.name[ksyms.n] = strdup(name);
	return ksyms.name[ksyms.n++] ? 0 : -1;
}

static int by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static void ksyms_free(void)
{
	while (ksyms.n)
		free(ksyms.name[--ksyms.n]);
	free(ksyms.name);
	ksyms.name = NULL;
	ksyms.cap = 0;
}

int ab_kallsyms_has(const char *fn)
{
	if (!ksyms.state) {
		if (ab_kallsyms_each(ksym_add, NULL)) {
			ksyms_free();
			ksyms.state = -1;
		} else {
			qsort(ksyms.name, ksyms.n, sizeof(*ksyms.name),
			      by_name);
			ksyms.state = 1;
		}
	}
	if (ksyms.state < 0)
		return -1;
	return bsearch(&fn, ksyms.name, ksyms.n, sizeof(*ksyms.name),
		       by_name) != NULL;
}

int ab_dynprobe_exists(const struct ab_dynprobe *d)
{
	const char *t = tracefs();
	char path[128];

	if (!t)
		return 0;
	snprintf(path, sizeof(path), "%s/kprobe_events", t);
	return !access(path, W_OK) && ab_kallsyms_has(d->func) == 1;
}

/* The event's name in GROUP: the table index and this process's id. */
static void event_name(const struct ab_dynprobe *d, char *buf, size_t len)
{
	snprintf(buf, len, "p%d_%d", (int)(d - probes), (int)getpid());
}

/* Writes @line to kprobe_events (appending): 0 or an errno. */
static int write_events(const char *t, const char *line)
{
	char path[128];
	int fd, err = 0;
	size_t n = strlen(line);

	snprintf(path, sizeof(path), "%s/kprobe_events", t);
	fd = open(path, O_WRONLY | O_APPEND | O_CLOEXEC);
	if (fd < 0)
		return errno;
	if (write(fd, line, n) != (ssize_t)n)
		err = errno ? errno : EIO;
	close(fd);
	return err;
}

/*
 * Removes the events of GROUP whose process is gone (a SIGKILLed run has
 * no atexit), and any of this process's id that it did not define (from a
 * dead process whose id it got again): their names end in the id.
 */
static void sweep_stale(const char *t)
{
	char line[512], rm[128];
	FILE *fp;
	int idx, pid;

	fp = ab_kfile_open("%s/kprobe_events", t);
	if (!fp)
		return;
	while (fgets(line, sizeof(line), fp)) {
		if (sscanf(line, "p:" GROUP "/p%d_%d ", &idx, &pid) != 2 ||
		    pid <= 0)
			continue;
		if (pid != (int)getpid() && (!kill(pid, 0) || errno != ESRCH))
			continue;
		snprintf(rm, sizeof(rm), "-:%s/p%d_%d\n", GROUP, idx, pid);
		write_events(t, rm);
	}
	fclose(fp);
}

static void remove_at_exit(void)
{
	ab_dynprobe_remove_all();
}

/*
 * ab_dynprobe_define - define @d in tracefs as allocbench/EVENT_PID
 * (one per process: several runs at once do not share one) unless this
 * process did already; *@id gets its tracepoint id. 0, or an errno
 * (EACCES: not root; ENOENT: no tracefs or no such function; EINVAL: the
 * kernel refused the fetch argument).
 */
static int ab_dynprobe_define(const struct ab_dynprobe *d, uint64_t *id)
{
	static int registered;
	const char *t = tracefs();
	char ev[64], line[256];
	uint64_t v;
	int i, err;

	for (i = 0; i < ndefined; i++)
		if (defined[i].probe == d) {
			*id = defined[i].id;
			return 0;
		}
	if (!t)
		return ENOENT;
	if (ab_kallsyms_has(d->func) != 1)
		return ENOENT;
	if (!ndefined)
		sweep_stale(t);
	event_name(d, ev, sizeof(ev));
	snprintf(line, sizeof(line), "p:%s/%s %s %s\n", GROUP, ev, d->func,
		 d->fetch);
	err = write_events(t, line);
	if (err)
		return err;
	if (ab_kfile_u64(&v, "%s/events/%s/%s/id", t, GROUP, ev)) {
		snprintf(line, sizeof(line), "-:%s/%s\n", GROUP, ev);
		write_events(t, line);
		return ENOENT;
	}
	defined[ndefined].probe = d;
	defined[ndefined++].id = v;
	if (!registered++)
		atexit(remove_at_exit);
	*id = v;
	return 0;
}

void ab_dynprobe_remove_all(void)
{
	const char *t = tracefs();
	char ev[64], line[128];
	int i, kept = 0;

	for (i = 0; i < ndefined; i++) {
		event_name(defined[i].probe, ev, sizeof(ev));
		snprintf(line, sizeof(line), "-:%s/%s\n", GROUP, ev);
		if (t && write_events(t, line) == EBUSY)
			defined[kept++] = defined[i]; /* still open */
	}
	ndefined = kept;
}

void ab_dynprobe_encode(const struct ab_dynprobe *d,
			struct perf_event_attr *attr, char *fstr, size_t len)
{
	attr->type = PERF_TYPE_TRACEPOINT;
	snprintf(fstr, len, "kprobe event on %s (%s), filter %s", d->func,
		 d->fetch, d->filter);
}

int ab_dynprobe_prepare(const struct ab_dynprobe *d,
			struct perf_event_attr *attr)
{
	uint64_t id;
	int err = ab_dynprobe_define(d, &id);

	if (!err)
		attr->config = id;
	return err;
}

int ab_dynprobe_filter(const struct ab_dynprobe *d, int fd)
{
	return ioctl(fd, PERF_EVENT_IOC_SET_FILTER, d->filter) ? errno : 0;
}

void ab_dynprobe_explain(const struct ab_dynprobe *d, int err, char *buf,
			 size_t len)
{
	snprintf(
		buf, len,
		"counter %s: could not define or filter its kprobe event in tracefs kprobe_events (%s: it needs root, tracefs and %s in /proc/kallsyms); the run goes on without it",
		d->name, strerror(err), d->func);
}
