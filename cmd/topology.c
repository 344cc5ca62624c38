// SPDX-License-Identifier: GPL-2.0-only
/*
 * topology.c - `allocbench topology`: what a placement can choose from:
 * nodes, their CPUs and memory, the NUMA distances, what this process may
 * use (affinity, Mems_allowed, its cgroup v2 cpuset, a legacy cpuset), and
 * which backends and counters work here.
 */
#include <errno.h>
#include <numa.h>
#include <popt.h>
#include <stdio.h>
#include <string.h>

#include "counters.h"
#include "isolate.h"
#include "kfile.h"
#include "jsonout.h"
#include "placement.h"
#include "job.h"
#include "textout.h"

static void show_file(const char *label, const char *path)
{
	char line[256];
	int n = ab_kfile_line(line, sizeof(line), "%s", path);

	/* a line too long is shown cut */
	if (n >= 0 || n == -EFBIG)
		printf("  %-28s %s (%s)\n", label, line[0] ? line : "(empty)",
		       path);
}

/* This process's cgroup v2 directory's cpuset files. */
static void show_cgroup(void)
{
	char cg[512], path[700];

	if (ab_cgroup_v2_path(cg, sizeof(cg)))
		return;
	snprintf(path, sizeof(path), "/sys/fs/cgroup%s/cpuset.cpus.effective",
		 cg);
	show_file("cgroup v2 cpuset.cpus", path);
	snprintf(path, sizeof(path), "/sys/fs/cgroup%s/cpuset.mems.effective",
		 cg);
	show_file("cgroup v2 cpuset.mems", path);
}

static json_object *int_array(const int *v, int n)
{
	json_object *a = json_object_new_array();
	int i;

	for (i = 0; i < n; i++)
		json_object_array_add(a, json_object_new_int(v[i]));
	return a;
}

static int topology_json(void)
{
	json_object *root = ab_json_envelope("topology", (time_t)ab_out.start);
	json_object *d = json_object_new_object(), *nodes, *o, *dist;
	int cpus[AB_MAX_PLACES], n, i, node, j;

	nodes = json_object_new_array();
	for (node = 0; numa_available() >= 0 && node <= numa_max_node();
	     node++) {
		struct bitmask *bm = numa_allocate_cpumask();
		long long size = numa_node_size64(node, NULL);

		n = 0;
		if (!numa_node_to_cpus(node, bm))
			for (i = 0; i < (int)numa_bitmask_nbytes(bm) * 8; i++)
				if (numa_bitmask_isbitset(bm,
							  (unsigned int)i) &&
				    n < AB_MAX_PLACES)
					cpus[n++] = i;
		numa_bitmask_free(bm);
		if (size < 0)
			continue;
		o = json_object_new_object();
		json_object_object_add(o, "node", json_object_new_int(node));
		json_object_object_add(o, "cpus", int_array(cpus, n));
		json_object_object_add(o, "memory_mib",
				       json_object_new_int64(size >> 20));
		dist = json_object_new_array();
		for (j = 0; j <= numa_max_node(); j++)
			if (numa_node_size64(j, NULL) >= 0)
				json_object_array_add(
					dist, json_object_new_int(
						      numa_distance(node, j)));
		json_object_object_add(o, "distances", dist);
		json_object_array_add(nodes, o);
	}
	json_object_object_add(d, "nodes", nodes);
	n = ab_allowed_cpus(cpus, AB_MAX_PLACES);
	json_object_object_add(d, "allowed_cpus", int_array(cpus, n));
	n = ab_memory_nodes(cpus, AB_MAX_PLACES);
	json_object_object_add(d, "memory_nodes", int_array(cpus, n));
	json_object_object_add(root, "data", d);
	ab_json_print(root, stdout);
	return AB_EXIT_OK;
}

int cmd_topology(int argc, const char **argv)
{
	struct poptOption opts[] = { { NULL, 0, POPT_ARG_INCLUDE_TABLE,
				       ab_output_table, 0, "Output:", NULL },
				     POPT_AUTOHELP POPT_TABLEEND };
	int cpus[AB_MAX_PLACES], mem[AB_MAX_PLACES], i, j, n, nm, node;
	const struct ab_backend *be;
	struct ab_backend_info bi;
	struct ab_counters c;
	char list[512], why[AB_ERRLEN];
	int ret = ab_popt_parse("topology", argc, argv, opts);

	if (ret)
		return ret;
	if (ab_out.formats & AB_FORMAT_JSON)
		return topology_json();
	if (numa_available() < 0) {
		printf("NUMA: not available in this kernel: one node, 0\n");
	} else {
		printf("%-6s %-16s %12s  %s\n", "node", "CPUs", "memory MiB",
		       "distances");
		for (node = 0; node <= numa_max_node(); node++) {
			struct bitmask *bm = numa_allocate_cpumask();
			long long free, size = numa_node_size64(node, &free);

			n = 0;
			if (!numa_node_to_cpus(node, bm))
				for (i = 0;
				     i < (int)numa_bitmask_nbytes(bm) * 8; i++)
					if (numa_bitmask_isbitset(
						    bm, (unsigned int)i) &&
					    n < AB_MAX_PLACES)
						cpus[n++] = i;
			numa_bitmask_free(bm);
			if (size < 0)
				continue;
			ab_format_list(cpus, n, list, sizeof(list));
			printf("%-6d %-16s %12lld  ", node, list, size >> 20);
			for (j = 0; j <= numa_max_node(); j++)
				if (numa_node_size64(j, NULL) >= 0)
					printf(" %3d", numa_distance(node, j));
			printf("\n");
		}
	}
	printf("\nthis process may use:\n");
	n = ab_allowed_cpus(cpus, AB_MAX_PLACES);
	ab_format_list(cpus, n, list, sizeof(list));
	printf("  %-28s %s\n", "CPUs (affinity)", list);
	nm = ab_memory_nodes(mem, AB_MAX_PLACES);
	ab_format_list(mem, nm, list, sizeof(list));
	printf("  %-28s %s\n", "nodes with memory", list);
	show_cgroup();
	show_file("legacy cpuset", "/proc/self/cpuset");
	printf("\nbackends:\n");
	for (i = 0; (be = ab_backend_nth((unsigned int)i)); i++) {
		if (be->info(&bi, why, sizeof(why)))
			printf("  %-8s unavailable: %s\n", be->name, why);
		else
			printf("  %-8s usable (%u %s%s)\n", be->name,
			       bi.info.nr_strategies,
			       ab_noun(bi.info.nr_strategies, "strategy",
				       "strategies"),
			       be->lookup ? ", lookups" : "");
	}
	printf("\ncounters:\n");
	ab_counters_open(&c, "cycles", stdout);
	printf("  hardware (cycles): %s\n", c.n ? "usable" : "unavailable");
	ab_counters_close(&c);
	ab_counters_open(&c, "task-clock", stdout);
	printf("  software (task-clock): %s\n", c.n ? "usable" : "unavailable");
	ab_counters_close(&c);
	return AB_EXIT_OK;
}
