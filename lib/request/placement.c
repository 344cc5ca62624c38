// SPDX-License-Identifier: GPL-2.0-only
/* placement.c - CPU and node lists, checked (see placement.h). */
#define _GNU_SOURCE
#include <limits.h>
#include <numa.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kfile.h"
#include "placement.h"

/*
 * libnuma reports parse errors through these weak hooks (numa(3)); ours
 * stay silent, the caller prints one sentence instead.
 */
void numa_error(char *where)
{
	(void)where;
}

void numa_warn(int num, char *fmt, ...)
{
	(void)num;
	(void)fmt;
}

int ab_check_list_ids(const char *opt, const char *arg, const char *what,
		      long top, char *err, size_t len)
{
	unsigned long long v, prev = 0;
	const char *p = arg, *start;
	int after_dash = 0;

	/* numactl's syntax: numbers, ranges, lists, !, + and "all"; other
	 * text (1e3, 0x1) is not a list, whatever libnuma makes of it */
	if (strcmp(arg, "all") && (arg[strspn(arg, "0123456789,-!+")] ||
				   !strpbrk(arg, "0123456789"))) {
		snprintf(
			err, len,
			"--%s=%s: not a %s list (numactl syntax: numbers, ranges and lists such as 0-3,8, or all)",
			opt, arg, what);
		return -1;
	}
	while (*p) {
		if (*p < '0' || *p > '9') {
			after_dash = *p == '-' && p > arg && p[-1] >= '0' &&
				     p[-1] <= '9';
			/* a minus sign (-3): not a list; libnuma says so */
			if (*p == '-' && !after_dash)
				return 0;
			p++;
			continue;
		}
		/* one run of digits: its value, saturated, never truncated */
		start = p;
		for (v = 0; *p >= '0' && *p <= '9'; p++)
			v = v > (ULLONG_MAX - 9) / 10
				    ? ULLONG_MAX
				    : v * 10 + (unsigned)(*p - '0');
		if (top >= 0 && v > (unsigned long long)top) {
			snprintf(err, len,
				 "--%s=%s: there is no %s %.*s (%ss: 0%s%.0ld)",
				 opt, arg, what, (int)(p - start), start, what,
				 top ? "-" : "", top);
			return -1;
		}
		if (after_dash && v < prev) {
			snprintf(
				err, len,
				"--%s=%s: the range %llu-%llu is reversed (numactl syntax: low-high, e.g. %llu-%llu)",
				opt, arg, prev, v, v, prev);
			return -1;
		}
		after_dash = 0;
		prev = v;
	}
	return 0;
}

void ab_format_list(const int *v, int n, char *buf, size_t len)
{
	size_t used = 0;
	int i, j;

	buf[0] = '\0';
	for (i = 0; i < n && used < len; i = j + 1) {
		for (j = i; j + 1 < n && v[j + 1] == v[j] + 1; j++)
			;
		used += (size_t)snprintf(buf + used, len - used, "%s%d",
					 i ? "," : "", v[i]);
		if (j > i && used < len)
			used += (size_t)snprintf(buf + used, len - used, "-%d",
						 v[j]);
	}
	if (!n)
		snprintf(buf, len, "none");
}

int ab_allowed_cpus(int *cpus, int max)
{
	cpu_set_t set;
	int c, n = 0;

	if (sched_getaffinity(0, sizeof(set), &set))
		return 0;
	for (c = 0; c < CPU_SETSIZE && n < max; c++)
		if (CPU_ISSET(c, &set))
			cpus[n++] = c;
	return n;
}

int ab_pinned_cpu(void)
{
	int cpus[2];

	return ab_allowed_cpus(cpus, 2) == 1 ? cpus[0] : -1;
}

int ab_node_has_memory(int node)
{
	long long size;

	if (numa_available() < 0)
		return node == 0;
	size = numa_node_size64(node, NULL);
	return size > 0;
}

int ab_cpu_node(int cpu)
{
	int node = numa_available() < 0 ? 0 : numa_node_of_cpu(cpu);

	return node < 0 ? 0 : node;
}

int ab_memory_nodes(int *nodes, int max)
{
	struct bitmask *allowed;
	int node, n = 0;

	if (numa_available() < 0) {
		nodes[0] = 0;
		return 1;
	}
	allowed = numa_get_mems_allowed();
	for (node = 0; node <= numa_max_node() && n < max; node++)
		if (numa_bitmask_isbitset(allowed, (unsigned int)node) &&
		    ab_node_has_memory(node))
			nodes[n++] = node;
	numa_bitmask_free(allowed);
	return n;
}

int ab_node_first_cpu(int node)
{
	int cpus[AB_MAX_PLACES], i, n = ab_allowed_cpus(cpus, AB_MAX_PLACES);

	for (i = 0; i < n; i++)
		if ((numa_available() < 0 ? 0 : numa_node_of_cpu(cpus[i])) ==
		    node)
			return cpus[i];
	return -1;
}

int ab_cpu_nodes(int *nodes, int max)
{
	int node, n = 0, top = numa_available() < 0 ? 0 : numa_max_node();

	for (node = 0; node <= top && n < max; node++)
		if (ab_node_first_cpu(node) >= 0)
			nodes[n++] = node;
	return n;
}

/* Whether CPU @c is one of the @n in @set. */
static int cpu_in(const int *set, int n, int c)
{
	int i;

	for (i = 0; i < n && set[i] != c; i++)
		;
	return i < n;
}

int ab_parse_cpus(const char *opt, const char *arg, int *cpus, int max,
		  char *err, size_t len)
{
	int allowed[AB_MAX_PLACES], na, c, i, n = 0;
	long conf = sysconf(_SC_NPROCESSORS_CONF);
	const char *list = arg[0] == '!' ? arg + 1 : arg;
	int rel = list[0] == '+';
	struct bitmask *bm;
	char buf[256];
	long long online;

	na = ab_allowed_cpus(allowed, AB_MAX_PLACES);
	ab_format_list(allowed, na, buf, sizeof(buf));
	/* a relative list counts CPUs: checked against their count below */
	if (ab_check_list_ids(opt, arg, "CPU", rel ? -1 : conf - 1, err, len))
		return -1;
	/*
	 * numactl's meaning (numactl(8)), within the CPUs this process may
	 * use now (sched_getaffinity): "all" is those CPUs, +LIST counts
	 * within them (+0 the first), !LIST is all of them but LIST. Not
	 * libnuma's numa_parse_cpustring(): its allowed set is the one the
	 * process had when libnuma loaded, and --isolate's cleanup of a
	 * killed run's partition gives CPUs back after that. libnuma reads
	 * the numbers (numa_parse_cpustring_all: any CPU of the machine);
	 * a CPU outside the allowed ones is named below.
	 */
	if (!strcmp(list, "all")) {
		bm = numa_allocate_cpumask();
		for (i = 0; bm && i < na; i++)
			numa_bitmask_setbit(bm, (unsigned int)allowed[i]);
	} else {
		bm = numa_parse_cpustring_all(rel ? list + 1 : list);
		/* the syntax was checked: a number beyond the machine's CPUs */
		if (!bm && rel) {
			snprintf(
				err, len,
				"--%s=%s: a relative CPU beyond this process's %d allowed CPU%s (%s: +0 to +%d, numactl syntax)",
				opt, arg, na, na == 1 ? "" : "s", buf, na - 1);
			return -1;
		}
		if (!bm) {
			snprintf(
				err, len,
				"--%s=%s: not a CPU list, or a CPU that does not exist (numactl syntax, e.g. 0-3,8 or all; allowed here: %s)",
				opt, arg, buf);
			return -1;
		}
	}
	if (bm && rel) {
		struct bitmask *abs = numa_allocate_cpumask();

		for (c = 0; abs && c < (int)numa_bitmask_nbytes(bm) * 8; c++) {
			if (!numa_bitmask_isbitset(bm, (unsigned int)c))
				continue;
			if (c >= na) {
				snprintf(
					err, len,
					"--%s=%s: a relative CPU beyond this process's %d allowed CPU%s (%s: +0 to +%d, numactl syntax)",
					opt, arg, na, na == 1 ? "" : "s", buf,
					na - 1);
				numa_bitmask_free(bm);
				numa_bitmask_free(abs);
				return -1;
			}
			numa_bitmask_setbit(abs, (unsigned int)allowed[c]);
		}
		numa_bitmask_free(bm);
		bm = abs;
	}
	if (bm && list != arg) {
		struct bitmask *inv = numa_allocate_cpumask();

		for (i = 0; inv && i < na; i++)
			if (!numa_bitmask_isbitset(bm,
						   (unsigned int)allowed[i]))
				numa_bitmask_setbit(inv,
						    (unsigned int)allowed[i]);
		numa_bitmask_free(bm);
		bm = inv;
	}
	if (!bm) {
		snprintf(err, len, "--%s=%s: out of memory", opt, arg);
		return -1;
	}
	for (c = 0; c < (int)numa_bitmask_nbytes(bm) * 8 && n <= max; c++) {
		if (!numa_bitmask_isbitset(bm, (unsigned int)c))
			continue;
		if (c >= conf) {
			snprintf(err, len,
				 "--%s=%s: there is no CPU %d (CPUs: 0-%ld)",
				 opt, arg, c, conf - 1);
			goto fail;
		}
		/* no online file (cpu0 on most machines): online */
		if (!ab_kfile_int(&online,
				  "/sys/devices/system/cpu/cpu%d/online", c) &&
		    !online) {
			snprintf(err, len, "--%s=%s: CPU %d is offline", opt,
				 arg, c);
			goto fail;
		}
		if (!cpu_in(allowed, na, c)) {
			snprintf(
				err, len,
				"--%s=%s: CPU %d is outside this process's allowed CPUs (%s: its affinity within its cpuset)",
				opt, arg, c, buf);
			goto fail;
		}
		if (n == max) {
			snprintf(err, len, "--%s=%s: more than %d CPU%s", opt,
				 arg, max, max == 1 ? "" : "s");
			goto fail;
		}
		cpus[n++] = c;
	}
	numa_bitmask_free(bm);
	if (!n)
		snprintf(err, len, "--%s=%s: no CPU in the list", opt, arg);
	return n ? n : -1;
fail:
	numa_bitmask_free(bm);
	return -1;
}

/*
 * +LIST (@arg) within the @na nodes @all, in order: the nodes it names, or
 * NULL after the error in @err. LIST is numbers, ranges and commas (as
 * ab_check_list_ids() found it); libnuma's parsers would check each
 * number against the machine's nodes, not their count here.
 */
static struct bitmask *relative_nodes(const char *opt, const char *arg,
				      const int *all, int na, char *err,
				      size_t len)
{
	struct bitmask *abs = numa_allocate_nodemask();
	const char *p = arg + 1;
	char have[256], *end;
	unsigned long lo, hi, k;

	ab_format_list(all, na, have, sizeof(have));
	while (abs && *p) {
		lo = strtoul(p, &end, 10);
		hi = lo;
		if (end != p && *end == '-') {
			p = end + 1;
			hi = strtoul(p, &end, 10);
		}
		if (end == p || (*end && *end != ',') || hi < lo) {
			snprintf(
				err, len,
				"--%s=%s: not a relative node list (numactl syntax, e.g. +0 or +0-1: +0 is the first of %s)",
				opt, arg, have);
			goto fail;
		}
		if (hi >= (unsigned long)na) {
			snprintf(
				err, len,
				"--%s=%s: a relative node beyond this process's %d allowed node%s (%s: +0 to +%d, numactl syntax)",
				opt, arg, na, na == 1 ? "" : "s", have, na - 1);
			goto fail;
		}
		for (k = lo; k <= hi; k++)
			numa_bitmask_setbit(abs, (unsigned int)all[k]);
		p = *end ? end + 1 : end;
	}
	return abs;
fail:
	numa_bitmask_free(abs);
	return NULL;
}

int ab_parse_nodes(const char *opt, const char *arg, int *nodes, int max,
		   int need_cpus, char *err, size_t len)
{
	int mem[AB_MAX_PLACES], nm, node, n = 0;
	struct bitmask *bm, *allowed;
	char list[256];

	nm = ab_memory_nodes(mem, AB_MAX_PLACES);
	ab_format_list(mem, nm, list, sizeof(list));
	if (numa_available() < 0) {
		if (!strcmp(arg, "0") || !strcmp(arg, "all")) {
			nodes[0] = 0;
			return 1;
		}
		snprintf(
			err, len,
			"--%s=%s: this kernel has no NUMA support; only node 0 exists",
			opt, arg);
		return -1;
	}
	/* a relative list counts nodes, checked against their count below */
	if (ab_check_list_ids(opt, arg, "node",
			      arg[0] == '+' ? -1 : numa_max_node(), err, len))
		return -1;
	/* "all", as numactl has it: the nodes this process may use, here
	 * those a CPU node or a memory node needs (with the _all parser it
	 * was every possible node, a CPU-only one among the memory nodes);
	 * +LIST counts within them (+0 the first), as numactl's relative
	 * node lists count within the cpuset's */
	if (!strcmp(arg, "all") || arg[0] == '+') {
		int all[AB_MAX_PLACES], na;

		na = need_cpus ? ab_cpu_nodes(all, AB_MAX_PLACES) : nm;
		if (!need_cpus)
			memcpy(all, mem, (size_t)nm * sizeof(*all));
		if (!na) {
			snprintf(err, len,
				 "--%s=%s: no node this process may use", opt,
				 arg);
			return -1;
		}
		if (!strcmp(arg, "all")) {
			if (na > max) {
				snprintf(err, len,
					 "--%s=%s: more than %d node%s", opt,
					 arg, max, max == 1 ? "" : "s");
				return -1;
			}
			memcpy(nodes, all, (size_t)na * sizeof(*nodes));
			return na;
		}
		bm = relative_nodes(opt, arg, all, na, err, len);
	} else {
		bm = numa_parse_nodestring_all(arg);
		if (!bm)
			snprintf(
				err, len,
				"--%s=%s: not a node list, or a node that does not exist (numactl syntax, e.g. 0-1 or all; nodes with memory: %s)",
				opt, arg, list);
	}
	if (!bm)
		return -1;
	allowed = numa_get_mems_allowed();
	for (node = 0; node <= numa_max_possible_node() && n <= max; node++) {
		if (!numa_bitmask_isbitset(bm, (unsigned int)node))
			continue;
		if (node > numa_max_node() ||
		    numa_node_size64(node, NULL) < 0) {
			snprintf(
				err, len,
				"--%s=%s: there is no node %d (nodes with memory: %s)",
				opt, arg, node, list);
			goto fail;
		}
		/* CPU nodes need CPUs (below), memory nodes need memory */
		if (!need_cpus && !ab_node_has_memory(node)) {
			snprintf(
				err, len,
				"--%s=%s: node %d has no memory (a CPU-only node; nodes with memory: %s)",
				opt, arg, node, list);
			goto fail;
		}
		if (!need_cpus &&
		    !numa_bitmask_isbitset(allowed, (unsigned int)node)) {
			snprintf(
				err, len,
				"--%s=%s: node %d is outside this process's allowed memory nodes (%s: Mems_allowed of its cpuset)",
				opt, arg, node, list);
			goto fail;
		}
		if (need_cpus && ab_node_first_cpu(node) < 0) {
			snprintf(
				err, len,
				"--%s=%s: node %d has no CPU this process may use (a memory-only node?)",
				opt, arg, node);
			goto fail;
		}
		if (n == max) {
			snprintf(err, len, "--%s=%s: more than %d node%s", opt,
				 arg, max, max == 1 ? "" : "s");
			goto fail;
		}
		nodes[n++] = node;
	}
	numa_bitmask_free(bm);
	numa_bitmask_free(allowed);
	if (!n)
		snprintf(err, len, "--%s=%s: no node in the list", opt, arg);
	return n ? n : -1;
fail:
	numa_bitmask_free(bm);
	numa_bitmask_free(allowed);
	return -1;
}
