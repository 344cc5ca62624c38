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
#include "jsonout.h"
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

/* Every backend, usable or not, with its strategies, as JSON. */
static int list_json(void)
{
	json_object *root = ab_json_envelope("list", (time_t)ab_out.start);
	json_object *arr = json_object_new_array(), *o, *st, *x;
	const struct ab_backend *be;
	struct ab_backend_info bi;
	char why[AB_ERRLEN];
	unsigned int b, i;

	for (b = 0; (be = ab_backend_nth(b)); b++) {
		o = json_object_new_object();
		json_object_object_add(o, "backend",
				       json_object_new_string(be->name));
		if (be->info(&bi, why, sizeof(why))) {
			json_object_object_add(o, "usable",
					       json_object_new_boolean(0));
			json_object_object_add(o, "why",
					       json_object_new_string(why));
			json_object_array_add(arr, o);
			continue;
		}
		json_object_object_add(o, "usable", json_object_new_boolean(1));
		json_object_object_add(
			o, "lookups",
			json_object_new_boolean(be->lookup != NULL));
		st = json_object_new_array();
		for (i = 0; i < bi.info.nr_strategies; i++) {
			const struct ab_strategy_info *si = &bi.strategies[i];

			x = json_object_new_object();
			json_object_object_add(
				x, "name", json_object_new_string(si->name));
			json_object_object_add(
				x, "description",
				json_object_new_string(si->desc));
			json_object_object_add(
				x, "max_size",
				si->params & AB_PARAM_SIZE
					? json_object_new_int64(
						  (int64_t)si->max_size)
					: NULL);
			json_object_object_add(
				x, "max_order",
				si->params & AB_PARAM_ORDER
					? json_object_new_int64(si->max_order)
					: NULL);
			json_object_object_add(
				x, "node",
				json_object_new_boolean(si->params &
							AB_PARAM_NODE));
			json_object_object_add(
				x, "gfp",
				json_object_new_boolean(si->params &
							AB_PARAM_GFP));
			json_object_array_add(st, x);
		}
		json_object_object_add(o, "strategies", st);
		json_object_array_add(arr, o);
	}
	json_object_object_add(root, "data", arr);
	ab_json_print(root, stdout);
	return AB_EXIT_OK;
}

int cmd_list(int argc, const char **argv)
{
	int names = 0;
	struct poptOption opts[] = {
		{ "names", 0, POPT_ARG_NONE, &names, 0,
		  "only the strategy names of the usable backends, one a line",
		  NULL },
		{ NULL, 0, POPT_ARG_INCLUDE_TABLE, ab_output_table, 0,
		  "Output:", NULL },
		POPT_AUTOHELP POPT_TABLEEND
	};
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
	if (ab_out.json)
		return list_json();
	if (names) {
		/* for shell completion: strategy names, one a line */
		for (b = 0; (be = ab_backend_nth(b)); b++)
			if (!be->info(&bi, why, sizeof(why)))
				for (i = 0; i < bi.info.nr_strategies; i++)
					printf("%s\n", bi.strategies[i].name);
		return AB_EXIT_OK;
	}
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
		if (be->unavailable && be->unavailable(why, sizeof(why)))
			printf("  unavailable here:\n%s", why);
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
