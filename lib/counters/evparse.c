// SPDX-License-Identifier: GPL-2.0-only
/*
 * evparse.c - event names to perf_event_attr (see evparse.h). libpfm4's
 * names are encoded as its perf_examples do: one
 * pfm_get_os_event_encoding(..., PFM_OS_PERF_EVENT_EXT, ...) call per
 * event, default privilege levels user and kernel (PFM_PLM3 | PFM_PLM0);
 * kprobe:FUNC and SUBSYS:EVENT as perf spells them, from sysfs and
 * tracefs.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <perfmon/pfmlib_perf_event.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "counters.h"
#include "dynprobe.h"
#include "kfile.h"
#include "placement.h"
#include "vpmu.h"

int ab_pfm_ready(void)
{
	static int ret = 1;

	if (ret == 1)
		ret = pfm_initialize();
	return ret;
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
	int cpu, type;

	if (e->attr.type != PERF_TYPE_HARDWARE &&
	    e->attr.type != PERF_TYPE_HW_CACHE)
		return 0;
	cpu = ab_pinned_cpu();
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

/*
 * The short names of the memory-access counts (issue 23): "loads" and
 * "stores" are perf's generic L1-dcache-loads and L1-dcache-stores (every
 * load and store retired: tools/perf/util/evsel.c's hw-cache table), the
 * names the virtual PMU counts them under; modifiers carry over.
 */
static const char *perf_alias(const char *name)
{
	static char buf[96];
	static const char *const alias[][2] = {
		{ "loads", "L1-dcache-loads" },
		{ "stores", "L1-dcache-stores" },
	};
	size_t i, n;

	for (i = 0; i < sizeof(alias) / sizeof(alias[0]); i++) {
		n = strlen(alias[i][0]);
		if (!strncmp(name, alias[i][0], n) &&
		    (name[n] == '\0' || name[n] == ':')) {
			snprintf(buf, sizeof(buf), "%s%s", alias[i][1],
				 name + n);
			return buf;
		}
	}
	return name;
}

/*
 * Where the virtual PMU counts (a guest booted with the plugin: no
 * hardware PMU), the modifier of @name when it names one of its events
 * with one (":u", ":k", ":h", ":G", ":H", ":p", ":mg", ...), else NULL:
 * the plugin counts every instruction of the timed regions, in user and
 * kernel mode alike, and has no privilege filter, no precise sampling and
 * no guest or host to tell apart. Refused by name whatever libpfm4 would
 * make of the modifier (issue 40: instructions:u counted as instructions).
 */
static const char *virtual_modifier(const char *name)
{
	static const char *const virt[] = {
		"instructions",
		"branches",
		"branch-instructions",
		"loads",
		"stores",
		"L1-dcache-loads",
		"L1-dcache-stores",
		"branch-misses",
		"L1-dcache-load-misses",
		"L1-icache-load-misses",
		"LLC-load-misses",
	};
	const char *colon = strchr(name, ':');
	size_t i;

	if (!colon || !ab_vpmu_present())
		return NULL;
	for (i = 0; i < sizeof(virt) / sizeof(virt[0]); i++)
		if (strlen(virt[i]) == (size_t)(colon - name) &&
		    !strncmp(name, virt[i], strlen(virt[i])))
			return colon;
	return NULL;
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
	if (virtual_modifier(name)) {
		fprintf(f,
			"counter %s: the virtual PMU counts every instruction of the timed regions, user and kernel mode alike: it cannot honour the modifier %s; drop it\n",
			name, virtual_modifier(name));
		return -1;
	}
	memset(&arg, 0, sizeof(arg));
	/* before encoding: libpfm4 fills only what attr.size says it holds */
	e->attr.size = sizeof(e->attr);
	arg.attr = &e->attr;
	arg.fstr = &fstr;
	arg.size = sizeof(arg);
	arg.cpu = -1;
	ret = ab_pfm_ready();
	if (ret == PFM_SUCCESS)
		ret = pfm_get_os_event_encoding(perf_alias(name),
						PFM_PLM0 | PFM_PLM3,
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
