// SPDX-License-Identifier: GPL-2.0-only
/*
 * list.c - `allocbench list`: every backend, whether it is usable here and
 * why not, and the strategies of each usable one with the parameters they
 * take and their limits. `allocbench list events`: the events libpfm4
 * knows on this machine's PMUs, and whether each opens. `allocbench list
 * --values=KIND`: the words an option or a position takes, one a line,
 * from the tables that define them (the shell completions ask for them).
 */
#include <popt.h>
#include <stdio.h>
#include <string.h>

#include "allocbench.h"
#include "exportfmt.h"
#include "counters.h"
#include "jsonout.h"
#include "memcg.h"
#include "parse.h"
#include "runopts.h"

static void print_params(const struct ab_strategy_info *si, char *buf,
			 size_t len)
{
	char max[32];

	if (si->params & AB_PARAM_SIZE) {
		ab_format_size(si->max_size, max, sizeof(max));
		snprintf(buf, len, "size %d..%s",
			 si->flags & AB_STRATEGY_RCU ? AB_RCU_MIN_SIZE : 1,
			 max);
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

/* Prints the spellings @name(@first .. @n - 1), joined by @sep, then @end. */
static void print_enum(const char *(*name)(uint32_t), uint32_t first,
		       uint32_t n, const char *sep, const char *end)
{
	char words[256];

	ab_enum_words(words, sizeof(words), name, first, n, sep, sep);
	printf("%s%s", words, end);
}

static void values_commands(void)
{
	const struct ab_cmd *c;

	for (c = NULL; (c = ab_cmd_next(c));)
		printf("%s\n", c->name);
}

/* "name:summary", as zsh's _describe takes them */
static void values_summaries(void)
{
	const struct ab_cmd *c;

	for (c = NULL; (c = ab_cmd_next(c));)
		printf("%s:%s\n", c->name, c->summary);
}

static void values_strategies(void)
{
	const struct ab_backend *be;
	struct ab_backend_info bi;
	char why[AB_ERRLEN];
	unsigned int b, i;

	/* the usable backends' strategies */
	for (b = 0; (be = ab_backend_nth(b)); b++)
		if (!be->info(&bi, why, sizeof(why)))
			for (i = 0; i < bi.info.nr_strategies; i++)
				printf("%s\n", bi.strategies[i].name);
}

static void values_backends(void)
{
	const struct ab_backend *be;
	unsigned int b;

	for (b = 0; (be = ab_backend_nth(b)); b++)
		printf("%s\n", be->name);
}

static void values_gfp(void)
{
	print_enum(ab_gfp_option_name, 0, AB_GFP_NR, "\n", "\n");
}

static void values_memcg(void)
{
	int m;

	for (m = AB_MEMCG_NONE + 1; m < AB_MEMCG_NR; m++)
		printf("%s\n", ab_memcg_mode_name(m));
}

static void values_timing(void)
{
	print_enum(ab_timing_name, 0, AB_TIMING_NR, "\n", "\n");
}

static void values_free(void)
{
	print_enum(ab_free_name, 0, AB_FREE_NR, "\n", "\n");
}

static void values_context(void)
{
	print_enum(ab_context_name, 0, AB_CTX_NR, "\n", "\n");
}

static void values_lookup(void)
{
	print_enum(ab_lookup_name, 0, AB_LOOKUP_NR, "\n", "\n");
}

/* --method: every lookup method but none (the loop alone) */
static void values_methods(void)
{
	print_enum(ab_lookup_name, AB_LOOKUP_NONE + 1, AB_LOOKUP_NR, "\n",
		   "\n");
}

static void values_table(void)
{
	print_enum(ab_table_name, 0, AB_TABLE_NR, "\n", "\n");
}

static void values_export_formats(void)
{
	const struct ab_export_fmt *x;

	for (x = ab_export_formats; x->name; x++)
		printf("%s\n", x->name);
}

static void values_kinds(void);

/* The kinds of --values, in the order their error lists them. */
static const struct {
	const char *kind;
	void (*print)(void);
} value_kinds[] = {
	{ "commands", values_commands },
	{ "command-summaries", values_summaries },
	{ "strategies", values_strategies },
	{ "backends", values_backends },
	{ "gfp", values_gfp },
	{ "memcg", values_memcg },
	{ "timing", values_timing },
	{ "free", values_free },
	{ "context", values_context },
	{ "lookup", values_lookup },
	{ "methods", values_methods },
	{ "table", values_table },
	{ "export-formats", values_export_formats },
	{ "kinds", values_kinds },
};

/* the kinds themselves, for completing --values= */
static void values_kinds(void)
{
	size_t i;

	for (i = 0; i < sizeof(value_kinds) / sizeof(value_kinds[0]); i++)
		printf("%s\n", value_kinds[i].kind);
}

static int print_values(const char *kind)
{
	char allowed[256];
	size_t i, n = 0;

	for (i = 0; i < sizeof(value_kinds) / sizeof(value_kinds[0]); i++)
		if (!strcmp(kind, value_kinds[i].kind)) {
			value_kinds[i].print();
			return AB_EXIT_OK;
		}
	for (i = 0; i < sizeof(value_kinds) / sizeof(value_kinds[0]); i++)
		n += (size_t)snprintf(
			allowed + n,
			n < sizeof(allowed) ? sizeof(allowed) - n : 0, "%s%s",
			i ? ", " : "", value_kinds[i].kind);
	ab_err("list --values=%s: unknown kind (allowed: %s)", kind, allowed);
	return AB_EXIT_USAGE;
}

int cmd_list(int argc, const char **argv)
{
	int names = 0;
	char *values = NULL;
	struct poptOption opts[] = {
		{ "names", 0, POPT_ARG_NONE, &names, 0,
		  "only the strategy names of the usable backends, one a line",
		  NULL },
		{ "values", 0, POPT_ARG_STRING, &values, 0,
		  "the words of KIND, one a line, for shell completion: commands, command-summaries, strategies, backends, gfp, timing, free, context, lookup, methods, table, kinds",
		  "KIND" },
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
		const char *glob = NULL;

		ret = ab_popt_parse_pos("list events", argc - 1, argv + 1, opts,
					&glob, 1);
		if (ret < 0)
			return -ret;
		if (names || values) {
			ab_err("list events: --%s lists strategies or words, not events; drop it, or drop events",
			       names ? "names" : "values");
			return AB_EXIT_USAGE;
		}
		if (ab_counters_list(stdout, glob))
			return AB_EXIT_OK;
		if (!glob)
			return AB_EXIT_BACKEND;
		ab_err("list events: no event here matches '%s' (a glob on PMU::EVENT or on EVENT, case ignored; allocbench list events lists them all)",
		       glob);
		return AB_EXIT_USAGE;
	}
	ret = ab_popt_parse("list", argc, argv, opts);
	if (ret)
		return ret;
	if (values && (names || (ab_out.formats & AB_FORMAT_JSON))) {
		ab_err("list --values=%s: prints the words alone, one a line; drop --%s",
		       values, names ? "names" : "json");
		return AB_EXIT_USAGE;
	}
	if (values)
		return print_values(values);
	if (ab_out.formats & AB_FORMAT_JSON)
		return list_json();
	if (names) {
		/* for shell completion: strategy names, one a line */
		values_strategies();
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
		if (be->lookup) {
			printf("  lookup methods (allocbench lookup): ");
			print_enum(ab_lookup_name, AB_LOOKUP_NONE + 1,
				   AB_LOOKUP_NR, ", ", "; tables: ");
			print_enum(ab_table_name, 0, AB_TABLE_NR, ", ", "\n");
		}
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
