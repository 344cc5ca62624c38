// SPDX-License-Identifier: GPL-2.0-only
/*
 * list.c - `allocbench list`: every backend, whether it is usable here and
 * why not, and the strategies of each usable one with the parameters they
 * take and their limits. `allocbench list events`: the events libpfm4
 * knows on this machine's PMUs, and whether each opens.
 */
#include <popt.h>
#include <stdio.h>
#include <string.h>

#include "allocbench.h"
#include "counters.h"
#include "parse.h"

static void print_params(const struct ab_strategy_info *si, char *buf,
			 size_t len)
{
	char max[32];

	if (si->params & AB_PARAM_SIZE) {
		ab_format_size(si->max_size, max, sizeof(max));
		snprintf(buf, len, "size 1..%s", max);
	} else if (si->params & AB_PARAM_ORDER) {
		snprintf(buf, len, "order 0..%u", si->max_order);
	} else {
		snprintf(buf, len, "-");
	}
}

int cmd_list(int argc, const char **argv)
{
	struct poptOption opts[] = { POPT_AUTOHELP POPT_TABLEEND };
	const struct ab_backend *be;
	struct ab_backend_info bi;
	char why[AB_ERRLEN], params[48];
	int ret, usable = 0;
	unsigned int b, i;

	if (argc > 1 && !strcmp(argv[1], "events")) {
		ret = ab_popt_parse("list events", argc - 1, argv + 1, opts);
		if (ret)
			return ret;
		return ab_counters_list(stdout) ? AB_EXIT_OK : AB_EXIT_BACKEND;
	}
	ret = ab_popt_parse("list", argc, argv, opts);
	if (ret)
		return ret;
	for (b = 0; (be = ab_backend_nth(b)); b++) {
		if (be->info(&bi, why, sizeof(why))) {
			printf("backend %s: unavailable: %s\n", be->name, why);
			continue;
		}
		usable++;
		printf("backend %s: %s (version %s, ABI %u)\n", be->name,
		       be->desc, bi.info.version, bi.info.abi_version);
		if (be->lookup)
			printf("  lookup methods (allocbench lookup): walk, fls, bsr, switch, kernel; tables: kmalloc, 2002\n");
		if (!bi.info.nr_strategies) {
			printf("  no allocation strategies\n");
			continue;
		}
		printf("  %-18s %-18s %-5s %-4s %s\n", "strategy", "takes",
		       "node", "gfp", "what it times");
		for (i = 0; i < bi.info.nr_strategies; i++) {
			const struct ab_strategy_info *si = &bi.strategies[i];

			print_params(si, params, sizeof(params));
			printf("  %-18s %-18s %-5s %-4s %s\n", si->name, params,
			       si->params & AB_PARAM_NODE ? "yes" : "-",
			       si->params & AB_PARAM_GFP ? "yes" : "-",
			       si->desc);
		}
	}
	return usable ? AB_EXIT_OK : AB_EXIT_BACKEND;
}
