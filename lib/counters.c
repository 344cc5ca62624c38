// SPDX-License-Identifier: GPL-2.0-only
/*
 * counters.c - event counts through libpfm4 and perf_event_open(2) (see
 * counters.h). Encoding follows libpfm4's perf_examples: one
 * pfm_get_os_event_encoding(..., PFM_OS_PERF_EVENT_EXT, ...) call per
 * event, default privilege levels user and kernel (PFM_PLM3 | PFM_PLM0).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <sched.h>
#include <perfmon/pfmlib_perf_event.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "counters.h"
#include "dynprobe.h"
#include "kfile.h"
#include "parse.h"
#include "textout.h"

static int pfm_ready(void)
{
	static int ret = 1;

	if (ret == 1)
		ret = pfm_initialize();
	return ret;
}

/* The kernel's perf_event system calls (struct ab_pmu). */
static int sys_open(void *ctx, struct perf_event_attr *attr, int group)
{
	return (int)syscall(__NR_perf_event_open, attr, 0, -1, group, 0);
}

static int sys_ioctl(void *ctx, int fd, unsigned long req)
{
	return ioctl(fd, req, 0);
}

static long sys_read(void *ctx, int fd, void *buf, size_t len)
{
	return (long)read(fd, buf, len);
}

static int sys_close(void *ctx, int fd)
{
	return close(fd);
}

static const struct ab_pmu sys_pmu = {
	.open = sys_open,
	.ioctl = sys_ioctl,
	.read = sys_read,
	.close = sys_close,
};

/* kernel.perf_event_paranoid, or -100 when it cannot be read. */
static int paranoid(void)
{
	long long v;

	if (ab_kfile_int(&v, "/proc/sys/kernel/perf_event_paranoid") ||
	    v < INT_MIN || v > INT_MAX)
		return -100;
	return (int)v;
}

void ab_counters_explain_open_error(const char *name, int err, int par,
				    char *buf, size_t len)
{
	switch (err) {
	case ENOENT:
	case ENODEV:
	case EOPNOTSUPP:
		snprintf(
			buf, len,
			"counter %s: hardware counters are unavailable here (%s: no PMU, e.g. a VM without a virtual PMU); software events such as task-clock still work",
			name, strerror(err));
		break;
	case EACCES:
	case EPERM:
		snprintf(
			buf, len,
			"counter %s: not permitted (kernel.perf_event_paranoid is %d): counting kernel work needs perf_event_paranoid <= 1, or root or CAP_PERFMON",
			name, par);
		break;
	case EINVAL:
		snprintf(
			buf, len,
			"counter %s: the kernel refused its encoding (EINVAL); see `allocbench list events` for what opens here",
			name);
		break;
	default:
		snprintf(buf, len, "counter %s: perf_event_open: %s", name,
			 strerror(err));
		break;
	}
}

double ab_counter_scale(uint64_t raw, uint64_t enabled, uint64_t running)
{
	if (!running)
		return NAN;
	if (running >= enabled)
		return (double)raw;
	return (double)raw * (double)enabled / (double)running;
}

/* Whether @s is a C identifier, as kernel function and event names are. */
static int is_ident(const char *s, size_t n)
{
	size_t i;

	if (!n || (s[0] >= '0' && s[0] <= '9'))
		return 0;
	for (i = 0; i < n; i++)
		if (!(s[i] == '_' || (s[i] >= 'a' && s[i] <= 'z') ||
		      (s[i] >= 'A' && s[i] <= 'Z') ||
		      (s[i] >= '0' && s[i] <= '9')))
			return 0;
	return 1;
}

/*
 * Whether @s is a function name as /proc/kallsyms has it: an identifier,
 * or one with GCC's clone suffixes (__alloc_pages_slowpath.constprop.0).
 */
static int is_kfunc(const char *s)
{
	size_t n = strcspn(s, ".");

	return is_ident(s, n) &&
	       (!s[n] ||
		strspn(s + n, "._abcdefghijklmnopqrstuvwxyz0123456789") ==
			strlen(s + n));
}

/* Where tracefs is: the events directory, or NULL without one. */
static const char *tracefs_events(void)
{
	static const char *const dirs[] = {
		"/sys/kernel/tracing/events", "/sys/kernel/debug/tracing/events"
	};
	size_t i;

	for (i = 0; i < sizeof(dirs) / sizeof(dirs[0]); i++)
		if (!access(dirs[i], X_OK))
			return dirs[i];
	return NULL;
}

/*
 * kprobe:FUNC, as perf spells it: a kprobe on FUNC's entry through the
 * kprobe PMU (perf_event_open(2): type from
 * /sys/bus/event_source/devices/kprobe/type, the function name's address
 * in config1 = kprobe_func, config2 = probe_offset 0, config bit 0
 * (retprobe) clear). @e->name holds the name the pointer refers to.
 */
static int encode_kprobe(struct ab_event *e, FILE *f)
{
	const char *fn = e->name + strlen("kprobe:");
	long long type;

	if (!is_kfunc(fn)) {
		fprintf(f,
			"counter %s: '%s' is not a function name (kprobe:FUNC, FUNC as /proc/kallsyms names it)\n",
			e->name, fn);
		return -1;
	}
	if (ab_kfile_int(&type, "/sys/bus/event_source/devices/kprobe/type")) {
		fprintf(f,
			"counter %s: this kernel has no kprobe PMU (/sys/bus/event_source/devices/kprobe: CONFIG_KPROBE_EVENTS); the run goes on without it\n",
			e->name);
		return -1;
	}
	e->attr.type = (uint32_t)type;
	e->attr.config = 0;
	e->attr.config1 = (uint64_t)(uintptr_t)fn; /* kprobe_func */
	e->attr.config2 = 0;			   /* probe_offset */
	e->kind = AB_EVENT_KPROBE;
	snprintf(e->fstr, sizeof(e->fstr), "kprobe PMU (type %lld) on %s", type,
		 fn);
	return 0;
}

/* Whether @name is spelled SUBSYS:EVENT, as a tracepoint is. */
static int tracepoint_form(const char *name)
{
	const char *colon = strchr(name, ':');

	return colon && colon[1] != ':' && !strchr(colon + 1, ':') &&
	       is_ident(name, (size_t)(colon - name)) &&
	       is_ident(colon + 1, strlen(colon + 1));
}

/*
 * SUBSYS:EVENT: a tracepoint, PERF_TYPE_TRACEPOINT with its id from
 * tracefs (events/SUBSYS/EVENT/id). Returns 1 when @name is not one (no
 * such subsystem in tracefs: a libpfm4 name with a modifier, "cycles:u"),
 * 0 when encoded, -1 after a line on @f (the subsystem exists, the event
 * does not).
 */
static int encode_tracepoint(struct ab_event *e, FILE *f)
{
	const char *colon = strchr(e->name, ':'), *ev, *dir = tracefs_events();
	char path[256];
	long long id;
	int sub_len;

	if (!tracepoint_form(e->name) || !dir)
		return 1;
	ev = colon + 1;
	sub_len = (int)(colon - e->name);
	snprintf(path, sizeof(path), "%s/%.*s", dir, sub_len, e->name);
	if (access(path, X_OK))
		return 1;
	if (ab_kfile_int(&id, "%s/%.*s/%s/id", dir, sub_len, e->name, ev)) {
		fprintf(f,
			"counter %s: this kernel has no tracepoint %s in %s/%.*s/; the run goes on without it\n",
			e->name, ev, dir, sub_len, e->name);
		return -1;
	}
	e->attr.type = PERF_TYPE_TRACEPOINT;
	e->attr.config = (uint64_t)id;
	e->kind = AB_EVENT_TRACEPOINT;
	snprintf(e->fstr, sizeof(e->fstr), "tracepoint %s (id %lld)", e->name,
		 id);
	return 0;
}

int ab_counter_exists(const char *name)
{
	const char *dir = tracefs_events(), *colon = strchr(name, ':');
	long long v;

	if (ab_dynprobe_find(name))
		return ab_dynprobe_exists(ab_dynprobe_find(name));
	if (!strncmp(name, "kprobe:", strlen("kprobe:")))
		return !ab_kfile_int(
			       &v,
			       "/sys/bus/event_source/devices/kprobe/type") &&
		       ab_kallsyms_has(name + strlen("kprobe:")) == 1;
	if (!tracepoint_form(name) || !dir)
		return 0;
	return !ab_kfile_int(&v, "%s/%.*s/%s/id", dir, (int)(colon - name),
			     name, colon + 1);
}

/*
 * The attributes every counter gets, whatever encoded it. libpfm4 sets
 * exclude_hv itself (clear for :h), so only kprobes and tracepoints get it
 * here.
 */
static void common_attr(struct ab_event *e)
{
	e->attr.size = sizeof(e->attr);
	e->attr.read_format =
		PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING;
	if (e->kind != AB_EVENT_PFM)
		e->attr.exclude_hv = 1;
}

/*
 * Modifiers libpfm4 takes that have no place in counting on the calling
 * thread: sampling (period=, freq=, precise=) and another CPU (cpu=).
 * The modifier's name, or NULL when the encoding is fine.
 */
static const char *refused_modifier(const struct perf_event_attr *a, int cpu)
{
	if (a->freq)
		return "freq=";
	if (a->sample_period)
		return "period=";
	if (a->precise_ip)
		return "precise=";
	if (cpu >= 0)
		return "cpu=";
	return NULL;
}

const char *ab_counters_sysfs = "/sys";

/* Whether CPU @cpu is in the sysfs CPU list @list ("0-7,16-23"). */
static int in_cpu_list(const char *list, int cpu)
{
	const char *p = list;
	char *end;
	long lo, hi;

	while (*p) {
		lo = strtol(p, &end, 10);
		if (end == p)
			return 0;
		hi = lo;
		if (*end == '-')
			hi = strtol(end + 1, &end, 10);
		if (cpu >= lo && cpu <= hi)
			return 1;
		p = *end == ',' ? end + 1 : end;
		if (*p == '\n')
			break;
	}
	return 0;
}

/*
 * The core PMU of CPU @cpu on a hybrid machine: the event-source devices
 * with a "cpus" file (cpu_core and cpu_atom on Intel, one per cluster on
 * Arm big.LITTLE; a machine of one kind has a single core PMU, "cpu",
 * without one). Returns its type and name, 0 when the machine is not
 * hybrid, -1 when no core PMU lists @cpu.
 */
static int hybrid_pmu(int cpu, char *name, size_t len)
{
	static const char *const pmus[] = { "cpu_core", "cpu_atom",
					    "armv8_pmuv3_0", "armv8_pmuv3_1",
					    "armv8_pmuv3_2" };
	char list[256];
	long long type;
	int found = 0, i, ret;

	for (i = 0; i < (int)(sizeof(pmus) / sizeof(pmus[0])); i++) {
		ret = ab_kfile_line(list, sizeof(list),
				    "%s/bus/event_source/devices/%s/cpus",
				    ab_counters_sysfs, pmus[i]);
		/* a list too long for @list: its start */
		if (ret < 0 && ret != -EFBIG)
			continue;
		found = 1;
		if (!in_cpu_list(list, cpu))
			continue;
		if (ab_kfile_int(&type, "%s/bus/event_source/devices/%s/type",
				 ab_counters_sysfs, pmus[i]))
			continue;
		snprintf(name, len, "%s", pmus[i]);
		return (int)type;
	}
	return found ? -1 : 0;
}

/*
 * Hybrid CPUs (issue 14, part 6): a generic hardware event
 * (PERF_TYPE_HARDWARE, PERF_TYPE_HW_CACHE) must say which core PMU counts
 * it, in the top 32 bits of config (PERF_PMU_TYPE_SHIFT, the extended
 * type of Linux 5.13+), and only the PMU of the CPU the thread runs on can
 * count it: the thread must be pinned to one CPU. 0, or -1 after a line.
 */
static int hybrid_encode(struct ab_event *e, FILE *f)
{
	char pmu[64] = "";
	cpu_set_t set;
	int cpu = -1, i, type;

	if (e->attr.type != PERF_TYPE_HARDWARE &&
	    e->attr.type != PERF_TYPE_HW_CACHE)
		return 0;
	if (!sched_getaffinity(0, sizeof(set), &set) && CPU_COUNT(&set) == 1)
		for (i = 0; i < CPU_SETSIZE; i++)
			if (CPU_ISSET(i, &set))
				cpu = i;
	type = hybrid_pmu(cpu >= 0 ? cpu : 0, pmu, sizeof(pmu));
	if (!type)
		return 0;
	if (cpu < 0) {
		fprintf(f,
			"counter %s: this machine's CPUs are of several kinds (hybrid: a core PMU each), and a hardware event counts on one kind: pin the run to one CPU (--cpu)\n",
			e->name);
		return -1;
	}
	if (type < 0) {
		fprintf(f,
			"counter %s: no core PMU lists CPU %d in %s/bus/event_source/devices/*/cpus\n",
			e->name, cpu, ab_counters_sysfs);
		return -1;
	}
	e->attr.config |= (uint64_t)type << 32;
	snprintf(e->fstr + strlen(e->fstr), sizeof(e->fstr) - strlen(e->fstr),
		 " on %s (CPU %d)", pmu, cpu);
	return 0;
}

int ab_counter_encode(struct ab_event *e, const char *name, FILE *f)
{
	pfm_perf_encode_arg_t arg;
	char *fstr = NULL;
	int ret;

	memset(e, 0, sizeof(*e));
	e->fd = -1;
	if (strlen(name) >= sizeof(e->name)) {
		fprintf(f, "counter %s: a name of at most %zu characters\n",
			name, sizeof(e->name) - 1);
		return -1;
	}
	snprintf(e->name, sizeof(e->name), "%s", name);
	if (ab_dynprobe_find(name)) {
		/* its tracepoint id comes when it is defined, at open */
		e->kind = AB_EVENT_DYNPROBE;
		ab_dynprobe_encode(ab_dynprobe_find(name), &e->attr, e->fstr,
				   sizeof(e->fstr));
		common_attr(e);
		return 0;
	}
	if (!strncmp(name, "kprobe:", strlen("kprobe:"))) {
		if (encode_kprobe(e, f))
			return -1;
		common_attr(e);
		return 0;
	}
	ret = encode_tracepoint(e, f);
	if (ret <= 0) {
		if (!ret)
			common_attr(e);
		return ret;
	}
	memset(&arg, 0, sizeof(arg));
	/* before encoding: libpfm4 fills only what attr.size says it holds */
	e->attr.size = sizeof(e->attr);
	arg.attr = &e->attr;
	arg.fstr = &fstr;
	arg.size = sizeof(arg);
	arg.cpu = -1;
	ret = pfm_ready();
	if (ret == PFM_SUCCESS)
		ret = pfm_get_os_event_encoding(name, PFM_PLM0 | PFM_PLM3,
						PFM_OS_PERF_EVENT_EXT, &arg);
	if (ret != PFM_SUCCESS && tracepoint_form(name)) {
		if (tracefs_events())
			fprintf(f,
				"counter %s: neither a libpfm4 event nor a tracepoint: no subsystem %.*s in %s; the run goes on without it\n",
				name, (int)(strchr(name, ':') - name), name,
				tracefs_events());
		else
			fprintf(f,
				"counter %s: neither a libpfm4 event nor a tracepoint: no tracefs mounted (mount -t tracefs nodev /sys/kernel/tracing); the run goes on without it\n",
				name);
		return -1;
	}
	if (ret != PFM_SUCCESS) {
		fprintf(f,
			"counter %s: %s (libpfm4); `allocbench list events` lists the known events\n",
			name, pfm_strerror(ret));
		return -1;
	}
	snprintf(e->fstr, sizeof(e->fstr), "%s", fstr ? fstr : name);
	free(fstr);
	if (refused_modifier(&e->attr, arg.cpu)) {
		fprintf(f,
			"counter %s: the modifier %s is not for counting (allocbench counts every event on the calling thread, without sampling); drop it\n",
			name, refused_modifier(&e->attr, arg.cpu));
		return -1;
	}
	if (hybrid_encode(e, f))
		return -1;
	common_attr(e);
	return 0;
}

/*
 * Why a kprobe did not open: the function is not in /proc/kallsyms
 * (inlined, renamed, or static and gone), it is on the kprobe blacklist,
 * or the kernel's own error.
 */
static void explain_kprobe(const struct ab_event *e, int err, char *buf,
			   size_t len)
{
	const char *fn = e->name + strlen("kprobe:");
	int known = ab_kallsyms_has(fn);

	if (known == 0)
		snprintf(
			buf, len,
			"counter %s: this kernel has no function %s to probe (not in /proc/kallsyms: inlined, renamed or absent in this version); the run goes on without it",
			e->name, fn);
	else if (err == EACCES || err == EPERM)
		ab_counters_explain_open_error(e->name, err, paranoid(), buf,
					       len);
	else
		snprintf(
			buf, len,
			"counter %s: the kernel refused a kprobe on %s (%s: e.g. on the kprobe blacklist, /sys/kernel/debug/kprobes/blacklist, or a notrace function); the run goes on without it",
			e->name, fn, strerror(err));
}

static const struct ab_pmu *pmu_of(const struct ab_counters *c)
{
	return c->pmu ? c->pmu : &sys_pmu;
}

/*
 * Whether @e counts on the CPU's PMU and belongs in the hardware group:
 * the generic hardware and cache events, raw codes, and a PMU libpfm4
 * named by its dynamic type. Software events, tracepoints, breakpoints and
 * kprobes form the other group.
 */
static int is_hw(const struct ab_event *e)
{
	if (e->kind != AB_EVENT_PFM)
		return 0;
	return e->attr.type == PERF_TYPE_HARDWARE ||
	       e->attr.type == PERF_TYPE_HW_CACHE ||
	       e->attr.type == PERF_TYPE_RAW || e->attr.type >= PERF_TYPE_MAX;
}

/* Opens @e, in the group of @leader_fd if >= 0; errno on failure. */
static int open_event(const struct ab_pmu *p, struct ab_event *e, int leader_fd)
{
	/* a filtered kprobe: defined before, filtered after (the kernel's) */
	const struct ab_dynprobe *d =
		e->kind == AB_EVENT_DYNPROBE && p == &sys_pmu
			? ab_dynprobe_find(e->name)
			: NULL;
	int err = d ? ab_dynprobe_prepare(d, &e->attr) : 0;

	e->attr.disabled = leader_fd < 0;
	e->fd = err ? -1 : p->open(p->ctx, &e->attr, leader_fd);
	if (!err && e->fd < 0)
		err = errno;
	if (!err && d)
		err = ab_dynprobe_filter(d, e->fd);
	if (err && e->fd >= 0) {
		p->close(p->ctx, e->fd);
		e->fd = -1;
	}
	return err;
}

/* The line for @e failing to open with @err. */
static void explain_open(const struct ab_event *e, int err, char *why,
			 size_t len)
{
	if (e->kind == AB_EVENT_KPROBE)
		explain_kprobe(e, err, why, len);
	else if (e->kind == AB_EVENT_DYNPROBE)
		ab_dynprobe_explain(ab_dynprobe_find(e->name), err, why, len);
	else
		ab_counters_explain_open_error(e->name, err, paranoid(), why,
					       len);
}

static int same_event(const struct ab_event *a, const struct ab_event *b);

/* Index of an open event counting what @e does, in the same modes, or -1. */
static int open_twin(const struct ab_counters *c, const struct ab_event *e)
{
	int i;

	for (i = 0; i < c->n; i++)
		if (same_event(&c->ev[i], e) &&
		    c->ev[i].attr.exclude_user == e->attr.exclude_user &&
		    c->ev[i].attr.exclude_kernel == e->attr.exclude_kernel)
			return i;
	return -1;
}

static int open_list(struct ab_counters *c, const char *list, FILE *f,
		     int quiet_hw)
{
	const struct ab_pmu *p = pmu_of(c);
	char buf[2048], *items[AB_MAX_EVENTS], why[320];
	int i, n, err, opened = 0, hw_failed = 0, nfail = 0;
	struct {
		struct ab_event e;
		int err;
	} fail[AB_MAX_EVENTS];

	if (strlen(list) >= sizeof(buf)) {
		fprintf(f,
			"counters: --events: a list of %zu characters is too long (at most %zu); no counters\n",
			strlen(list), sizeof(buf) - 1);
		return 0;
	}
	snprintf(buf, sizeof(buf), "%s", list);
	n = ab_split_list(buf, items, AB_MAX_EVENTS - c->n);
	if (n < 0) {
		fprintf(f, "counters: --events=%s: %s; no counters\n", list,
			n == -E2BIG ? "more than " AB_MAX_EVENTS_STR " events"
				    : "an empty name");
		return 0;
	}
	for (i = 0; i < n; i++) {
		struct ab_event *e = &c->ev[c->n];
		int *leader;

		if (ab_counter_encode(e, items[i], f))
			continue;
		if (open_twin(c, e) >= 0) {
			/* --events=cycles,cpu-cycles: one count, shown once */
			fprintf(f,
				"counter %s: the same event as %s, counted once\n",
				e->name, c->ev[open_twin(c, e)].name);
			continue;
		}
		leader = is_hw(e) ? &c->hw_leader : &c->sw_leader;
		err = open_event(p, e, *leader >= 0 ? c->ev[*leader].fd : -1);
		if (err && *leader >= 0) {
			/* the group refused it: count it on its own */
			int in_group = err;

			err = open_event(p, e, -1);
			if (!err)
				fprintf(f,
					"counter %s: the kernel would not add it to the group of %s (%s); it counts on its own, over intervals of its own\n",
					e->name, c->ev[*leader].name,
					strerror(in_group));
			e->group = -1;
		} else if (!err) {
			if (*leader < 0)
				*leader = c->n;
			e->group = *leader;
		}
		e->was_group = e->group;
		if (err) {
			if (quiet_hw) {
				/* told below: one line, or one per event */
				hw_failed = err;
				fail[nfail].e = *e;
				fail[nfail++].err = err;
				continue;
			}
			explain_open(e, err, why, sizeof(why));
			fprintf(f, "%s\n", why);
			continue;
		}
		/* the kprobe's name is read at open only: keep it anyway */
		c->n++;
		opened++;
	}
	if (quiet_hw && hw_failed && !opened) {
		/* no PMU at all: one line for the set */
		ab_counters_explain_open_error("cycles", hw_failed, paranoid(),
					       why, sizeof(why));
		fprintf(f, "%s\n", why);
	} else {
		/* a partial failure of the default set: each, with its reason
		 */
		for (i = 0; i < nfail; i++) {
			explain_open(&fail[i].e, fail[i].err, why, sizeof(why));
			fprintf(f, "%s\n", why);
		}
	}
	return opened;
}

int ab_counters_open_pmu(struct ab_counters *c, const char *list, FILE *f,
			 const struct ab_pmu *pmu)
{
	memset(c, 0, sizeof(*c));
	c->hw_leader = c->sw_leader = -1;
	c->pmu = pmu;
	if (strcmp(list, "default"))
		return open_list(c, list, f, 0);
	open_list(c, AB_DEFAULT_HW_EVENTS, f, 1);
	open_list(c, AB_DEFAULT_SW_EVENTS, f, 0);
	return c->n;
}

int ab_counters_open(struct ab_counters *c, const char *list, FILE *f)
{
	return ab_counters_open_pmu(c, list, f, NULL);
}

void ab_counters_suspend(struct ab_counters *c)
{
	const struct ab_pmu *p = pmu_of(c);
	int i;

	for (i = c->n - 1; i >= 0; i--)
		if (c->ev[i].fd >= 0) {
			p->close(p->ctx, c->ev[i].fd);
			c->ev[i].fd = -1;
		}
	c->suspended = 1;
}

void ab_counters_resume(struct ab_counters *c)
{
	const struct ab_pmu *p = pmu_of(c);
	int i, g;

	if (!c->suspended)
		return;
	for (i = 0; i < c->n; i++) {
		struct ab_event *e = &c->ev[i];

		g = e->group;
		/* a leader, or alone; members join their leader's fd */
		if (open_event(p, e,
			       g >= 0 && g != i && c->ev[g].fd >= 0
				       ? c->ev[g].fd
				       : -1))
			e->fd = -1;
	}
	c->suspended = 0;
}

int ab_counters_warn_kernel(const struct ab_counters *c, FILE *f)
{
	int i, n = 0;

	for (i = 0; i < c->n; i++)
		if (c->ev[i].attr.exclude_kernel) {
			fprintf(f,
				"warning: counter %s excludes kernel mode, where this backend runs the allocations: it counts the CLI's own user-mode work only (drop :u to count the allocator)\n",
				c->ev[i].name);
			n++;
		}
	return n;
}

/* Whether @a and @b count the same thing, whatever their modifiers. */
static int same_event(const struct ab_event *a, const struct ab_event *b)
{
	if (a->kind != b->kind)
		return 0;
	if (a->kind == AB_EVENT_KPROBE || a->kind == AB_EVENT_DYNPROBE)
		return !strcmp(a->name, b->name);
	return a->attr.type == b->attr.type &&
	       a->attr.config == b->attr.config &&
	       (a->kind != AB_EVENT_PFM || a->attr.config1 == b->attr.config1);
}

int ab_counters_named(const struct ab_counters *c, const char *name)
{
	int i;

	for (i = 0; i < c->n; i++)
		if (!strcmp(c->ev[i].name, name))
			return i;
	return -1;
}

int ab_counters_find(const struct ab_counters *c, const char *name)
{
	struct ab_event want;
	FILE *quiet = fopen("/dev/null", "w");
	int i, ret;

	ret = ab_counter_encode(&want, name, quiet ? quiet : stderr);
	if (quiet)
		fclose(quiet);
	if (ret)
		return -1;
	for (i = 0; i < c->n; i++)
		if (same_event(&c->ev[i], &want))
			return i;
	return -1;
}

/* Index of the generic hardware event @config, or -1. */
static int find_hw(const struct ab_counters *c, uint64_t config)
{
	int i;

	for (i = 0; i < c->n; i++)
		if (c->ev[i].kind == AB_EVENT_PFM &&
		    c->ev[i].attr.type == PERF_TYPE_HARDWARE &&
		    (c->ev[i].attr.config & 0xffffffffULL) == config)
			return i;
	return -1;
}

int ab_counters_ipc(const struct ab_counters *c, int *cyc, int *ins)
{
	const struct perf_event_attr *a, *b;

	*cyc = find_hw(c, PERF_COUNT_HW_CPU_CYCLES);
	*ins = find_hw(c, PERF_COUNT_HW_INSTRUCTIONS);
	if (*cyc < 0 || *ins < 0)
		return 0;
	a = &c->ev[*cyc].attr;
	b = &c->ev[*ins].attr;
	if (c->ev[*cyc].group < 0 || c->ev[*cyc].group != c->ev[*ins].group ||
	    a->exclude_user != b->exclude_user ||
	    a->exclude_kernel != b->exclude_kernel ||
	    a->exclude_hv != b->exclude_hv)
		return -1;
	return 1;
}

/* Whether every member of @leader's group never ran in any interval. */
static int group_never_ran(const struct ab_counters *c, int leader)
{
	int i, members = 0;

	for (i = 0; i < c->n; i++) {
		if (c->ev[i].was_group != leader)
			continue;
		if (c->ev[i].unrun != c->ev[i].intervals)
			return 0;
		members++;
	}
	return members > 1;
}

int ab_counters_note(const struct ab_counters *c, int e, char *buf, size_t len)
{
	const struct ab_event *ev = &c->ev[e];
	size_t at = 0;
	int i;

	buf[0] = '\0';
	if (!ev->intervals)
		return 0;
	if (ev->unread) {
		snprintf(
			buf, len,
			"counter %s could not be read in %u of %u %s (the kernel put it in an error state): no count there (n/a)",
			ev->name, ev->unread, ev->intervals,
			ab_noun(ev->intervals, "interval", "intervals"));
		return 1;
	}
	if (ev->unrun == ev->intervals && ev->was_group >= 0 &&
	    group_never_ran(c, ev->was_group)) {
		if (ev->was_group != e) {
			snprintf(
				buf, len,
				"counter %s never ran (time_running 0), with its group led by %s: no count (n/a)",
				ev->name, c->ev[ev->was_group].name);
			return 1;
		}
		at = (size_t)snprintf(buf, len, "counter group {");
		for (i = 0; i < c->n && at < len; i++)
			if (c->ev[i].was_group == e)
				at += (size_t)snprintf(
					buf + at, len - at, "%s%s",
					i == e ? "" : ", ", c->ev[i].name);
		if (at < len)
			snprintf(
				buf + at, len - at,
				"} never ran (time_running 0): it never had all the hardware counters it needs at once (more events than free counters, or the NMI watchdog holds one: kernel.nmi_watchdog=0 frees it); no counts (n/a); ask for fewer hardware events at once");
		return 1;
	}
	if (ev->unrun == ev->intervals) {
		snprintf(
			buf, len,
			"counter %s never ran (time_running 0: no free counter for it in any interval): no count (n/a), nothing scaled",
			ev->name);
		return 1;
	}
	if (ev->unrun)
		at = (size_t)snprintf(
			buf, len,
			"counter %s never ran in %u of %u %s (time_running 0: no free counter then): no count for those (n/a)",
			ev->name, ev->unrun, ev->intervals,
			ab_noun(ev->intervals, "interval", "intervals"));
	if (ev->scaled && at < len)
		snprintf(
			buf + at, len - at,
			"%scounter %s ran as little as %.0f%% of the time in %u of %u %s (multiplexed) and is scaled by enabled/running",
			at ? "; " : "", ev->name, 100.0 * ev->min_share,
			ev->scaled, ev->intervals,
			ab_noun(ev->intervals, "interval", "intervals"));
	return ev->unrun || ev->scaled;
}

void ab_counters_start(struct ab_counters *c)
{
	const struct ab_pmu *p = pmu_of(c);
	int i;

	/* fd -1: an event a re-split could not open again (resplit()) */
	for (i = 0; i < c->n; i++)
		if (c->ev[i].fd >= 0)
			p->ioctl(p->ctx, c->ev[i].fd, PERF_EVENT_IOC_RESET);
	/* the reset leaves the times as they were: the base of the interval */
	for (i = 0; i < c->n; i++) {
		struct ab_event *e = &c->ev[i];

		if (e->fd < 0 ||
		    p->read(p->ctx, e->fd, e->base, sizeof(e->base)) !=
			    (long)sizeof(e->base))
			memset(e->base, 0, sizeof(e->base));
	}
	for (i = 0; i < c->n; i++)
		if (c->ev[i].fd >= 0 && c->ev[i].attr.disabled)
			p->ioctl(p->ctx, c->ev[i].fd, PERF_EVENT_IOC_ENABLE);
}

/*
 * A hardware group of several events that never got the PMU in an
 * interval (time_running 0: more events than free counters, or the NMI
 * watchdog holding one) is split: each of its events is opened again on
 * its own, so from the next interval the kernel can rotate them through
 * the counters it has (multiplexing, scaled by enabled / running). The
 * interval that never ran stays unmeasured (its note says so).
 */
static void resplit(struct ab_counters *c)
{
	const struct ab_pmu *p = pmu_of(c);
	int i, lead = c->hw_leader, members = 0;

	if (lead < 0 || c->ev[lead].running || !c->ev[lead].enabled)
		return;
	for (i = 0; i < c->n; i++)
		members += c->ev[i].group == lead;
	if (members < 2)
		return;
	for (i = c->n - 1; i >= 0; i--)
		if (c->ev[i].group == lead && c->ev[i].fd >= 0)
			p->close(p->ctx, c->ev[i].fd);
	for (i = 0; i < c->n; i++) {
		struct ab_event *e = &c->ev[i];

		if (e->group != lead)
			continue;
		if (open_event(p, e, -1))
			e->fd = -1;
		e->group = -1;
	}
	c->hw_leader = -1;
	c->resplit++;
}

/* @now - @then, 0 if the counter went backwards. */
static uint64_t delta(uint64_t now, uint64_t then)
{
	return now >= then ? now - then : 0;
}

void ab_counters_stop(struct ab_counters *c)
{
	const struct ab_pmu *p = pmu_of(c);
	uint64_t v[3];
	int i;

	for (i = 0; i < c->n; i++)
		if (c->ev[i].fd >= 0 && c->ev[i].attr.disabled)
			p->ioctl(p->ctx, c->ev[i].fd, PERF_EVENT_IOC_DISABLE);
	for (i = 0; i < c->n; i++) {
		struct ab_event *e = &c->ev[i];
		double share;

		e->intervals++;
		if (e->fd < 0 ||
		    p->read(p->ctx, e->fd, v, sizeof(v)) != (long)sizeof(v)) {
			e->raw = e->enabled = e->running = 0;
			e->value = NAN;
			e->unread++;
			continue;
		}
		e->raw = delta(v[0], e->base[0]);
		e->enabled = delta(v[1], e->base[1]);
		e->running = delta(v[2], e->base[2]);
		e->value = ab_counter_scale(e->raw, e->enabled, e->running);
		if (!e->running) {
			e->unrun++;
			continue;
		}
		if (e->running >= e->enabled)
			continue;
		share = (double)e->running / (double)e->enabled;
		if (!e->scaled || share < e->min_share)
			e->min_share = share;
		e->scaled++;
	}
	resplit(c);
}

void ab_counters_close(struct ab_counters *c)
{
	const struct ab_pmu *p = pmu_of(c);
	int i;

	for (i = c->n - 1; i >= 0; i--)
		if (c->ev[i].fd >= 0)
			p->close(p->ctx, c->ev[i].fd);
	c->n = 0;
	c->hw_leader = c->sw_leader = -1;
	ab_dynprobe_remove_all();
}

int ab_counters_list(FILE *f)
{
	pfm_event_info_t info;
	pfm_pmu_info_t pinfo;
	struct ab_event e;
	char name[256];
	int p, i, n = 0, err;

	if (pfm_ready() != PFM_SUCCESS) {
		fprintf(f, "libpfm4 did not initialize: %s\n",
			pfm_strerror(pfm_ready()));
		return 0;
	}
	pfm_for_all_pmus(p)
	{
		memset(&pinfo, 0, sizeof(pinfo));
		pinfo.size = sizeof(pinfo);
		if (pfm_get_pmu_info(p, &pinfo) != PFM_SUCCESS ||
		    !pinfo.is_present)
			continue;
		fprintf(f, "pmu %s: %s\n", pinfo.name, pinfo.desc);
		for (i = pinfo.first_event; i != -1;
		     i = pfm_get_event_next(i)) {
			memset(&info, 0, sizeof(info));
			info.size = sizeof(info);
			if (pfm_get_event_info(i, PFM_OS_PERF_EVENT_EXT,
					       &info) != PFM_SUCCESS)
				continue;
			snprintf(name, sizeof(name), "%s::%s", pinfo.name,
				 info.name);
			err = -1;
			if (!ab_counter_encode(&e, name, stderr)) {
				err = open_event(&sys_pmu, &e, -1);
				if (!err)
					close(e.fd);
			}
			fprintf(f, "  %-44s %s\n", name,
				err == 0  ? "opens"
				: err < 0 ? "cannot be encoded"
					  : strerror(err));
			n++;
		}
	}
	return n;
}
