/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * placement.h - CPU and NUMA node lists in numactl's syntax ("0-3,8",
 * "all", "!1"), parsed by libnuma and checked against what exists and what
 * this process may use: CPUs that are online and in its affinity (which the
 * kernel already narrows to its cpuset, legacy or cgroup v2), nodes that
 * have memory and are in its Mems_allowed.
 */
#ifndef AB_PLACEMENT_H
#define AB_PLACEMENT_H

#include <stddef.h>

#define AB_MAX_PLACES 1024

/*
 * ab_parse_cpus - @arg into @cpus (ascending, at most @max); returns how
 * many, or -1 with "--OPT=ARG: why (what is allowed)" in @err: not a list,
 * no such CPU, offline, outside the allowed CPUs.
 */
int ab_parse_cpus(const char *opt, const char *arg, int *cpus, int max,
		  char *err, size_t len);

/*
 * ab_parse_nodes - @arg into @nodes; -1 with the reason: not a list, no
 * such node (including a machine without node 0), and: with @need_cpus
 * (CPU nodes: where allocations run) no CPU this process may use on it;
 * without (memory nodes) no memory on it, or outside Mems_allowed.
 */
int ab_parse_nodes(const char *opt, const char *arg, int *nodes, int max,
		   int need_cpus, char *err, size_t len);

/*
 * ab_check_list_ids - the numbers in the numactl-style list @arg, before
 * libnuma sees them (its parser keeps them in an int, so 4294967297 became
 * 1): 0 when every number is at most @top and every range N-M has N <= M
 * (numactl refuses 1-0 too); otherwise -1 with "--OPT=ARG: there is no
 * WHAT N (WHATs: 0-TOP)" or the reversed range in @err. Numbers of any
 * length are compared without truncation; a @top below 0 bounds nothing
 * (a relative list, whose numbers count allowed CPUs or nodes, is checked
 * against their count by its parser). Text that is no numactl list
 * (1e3, 0x1) is refused here: "not a WHAT list"; the rest of the syntax is
 * left to libnuma.
 */
int ab_check_list_ids(const char *opt, const char *arg, const char *what,
		      long top, char *err, size_t len);

/* ab_format_list - "0-3,8" for the ascending @v[0..n). */
void ab_format_list(const int *v, int n, char *buf, size_t len);

/* ab_node_first_cpu - the first allowed CPU of @node, or -1. */
int ab_node_first_cpu(int node);

/* ab_allowed_cpus - the CPUs this process may run on, ascending. */
int ab_allowed_cpus(int *cpus, int max);

/* ab_pinned_cpu - the CPU the calling thread is pinned to (its only
 * allowed one), or -1 when it may run on several */
int ab_pinned_cpu(void);

/* ab_memory_nodes - the nodes with memory this process may use. */
int ab_memory_nodes(int *nodes, int max);

/* ab_cpu_nodes - the nodes with at least one allowed CPU. */
int ab_cpu_nodes(int *nodes, int max);

/* ab_node_has_memory - 1 if @node has memory (a CPU-only node has none). */
int ab_node_has_memory(int node);

/* ab_cpu_node - the node of @cpu (0 without NUMA). */
int ab_cpu_node(int cpu);

#endif
