// SPDX-License-Identifier: GPL-2.0-only
/*
 * lookup.c - `allocbench lookup`: how fast each method finds the kmalloc
 * size class of a request, on a constant size, a distribution, or a real
 * workload's sizes, in the kernel (kmod backend) or in user space (user).
 *
 * The timing itself, which reproduce 2002-lookup shares, is the job
 * library's (job/lookup_time.c).
 */
#include <errno.h>
#include <popt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>

#include "lookup_time.h"
#include "options.h"
#include "parse.h"
#include "job.h"
#include "report.h"
#include "sizes.h"
#include "textout.h"

/* --size=LIST: one constant sequence per size. */
static int parse_size_list(const char *arg, uint32_t *sizes, int max)
{
	char buf[256], *items[16];
	uint64_t v;
	int i, n;

	snprintf(buf, sizeof(buf), "%s", arg);
	n = ab_split_list(buf, items, max);
	for (i = 0; i < n; i++) {
		if (ab_parse_size(items[i], &v) || v > UINT32_MAX) {
			ab_err("--size=%s: '%s' is not a size (0 to 4294967295 bytes, K/M/G allowed)",
			       arg, items[i]);
			return -EINVAL;
		}
		sizes[i] = (uint32_t)v;
	}
	if (n < 0)
		ab_err("--size=%s: %s (a comma-separated list of sizes)", arg,
		       n == -E2BIG ? "too many sizes" : "empty size");
	return n;
}

struct lookup_args {
	char *method, *table, *size, *dist, *file, *count, *seed;
	char *cpu;
};

int cmd_lookup(int argc, const char **argv)
{
	struct lookup_args a = { 0 };
	struct poptOption opts[] = {
		{ "method", 'm', POPT_ARG_STRING, &a.method, 0,
		  "methods, comma-separated: walk, fls, bsr, switch, kernel (default: all)",
		  "LIST" },
		{ "table", 0, POPT_ARG_STRING, &a.table, 0,
		  "class table: kmalloc (today's, default) or 2002", "NAME" },
		{ "size", 's', POPT_ARG_STRING, &a.size, 0,
		  "constant sizes, one experiment each (default: 32,4096)",
		  "LIST" },
		{ "dist", 'd', POPT_ARG_STRING, &a.dist, 0,
		  "sizes drawn from const:N, uniform:A-B or loguniform:A-B",
		  "SPEC" },
		{ "sizes-from", 'F', POPT_ARG_STRING, &a.file, 0,
		  "sizes from a file: numbers, or ftrace kmem:kmalloc text (bytes_req=)",
		  "FILE" },
		{ "count", 'n', POPT_ARG_STRING, &a.count, 0,
		  "lookups per pass for --size and --dist (default: 100)",
		  "N" },
		{ "seed", 0, POPT_ARG_STRING, &a.seed, 0,
		  "seed of --dist (default: random, printed)", "N" },
		{ NULL, 0, POPT_ARG_INCLUDE_TABLE, ab_trials_table, 0,
		  "Passes (each trial is one pass over the sizes):", NULL },
		{ "cpu", 'c', POPT_ARG_STRING, &a.cpu, 0,
		  "CPU to pin to (default: the CPU the command starts on)",
		  "N" },
		{ NULL, 0, POPT_ARG_INCLUDE_TABLE, ab_backend_table, 0, NULL,
		  NULL },
		{ NULL, 0, POPT_ARG_INCLUDE_TABLE, ab_wide_table, 0, NULL,
		  NULL },
		{ NULL, 0, POPT_ARG_INCLUDE_TABLE, ab_csv_table, 0, NULL,
		  NULL },
		{ NULL, 0, POPT_ARG_INCLUDE_TABLE, ab_events_table, 0, NULL,
		  NULL },
		{ NULL, 0, POPT_ARG_INCLUDE_TABLE, ab_output_table, 0,
		  "Output:", NULL },
		POPT_AUTOHELP POPT_TABLEEND
	};
	uint32_t methods[AB_LOOKUP_NR] = { AB_LOOKUP_WALK, AB_LOOKUP_FLS,
					   AB_LOOKUP_BSR, AB_LOOKUP_SWITCH,
					   AB_LOOKUP_KERNEL };
	struct ab_lookup_result res[AB_LOOKUP_NR + 1];
	struct ab_run_opts o;
	struct ab_session session;
	uint32_t consts[16], count = 100, *seq;
	int nm = 5, nconst = 0, i, ret, sources;
	char err[AB_ERRLEN], label[160];
	json_object *results = NULL, *notes = NULL;
	uint64_t seed = 0;
	size_t nfile = 0;

	ab_run_opts_init(&o);
	ab_session_init(&session);
	/* 100 passes: the 2002 thread's */
	o.trials = 100;
	o.warmup = 10;
	ab_run_table_defaults(&o);
	ab_out.input = &a.file;
	ret = ab_popt_parse("lookup", argc, argv, opts);
	if (!ret)
		ret = ab_run_args_apply(&o);
	sources = !!a.size + !!a.dist + !!a.file;
	if (!ret && sources > 1) {
		ab_err("lookup: --size, --dist and --sizes-from each give the sizes: use one");
		ret = AB_EXIT_USAGE;
	}
	if (!ret && a.method) {
		nm = ab_opt_methods(a.method, methods, err, sizeof(err));
		if (nm < 0) {
			ab_err("%s", err);
			ret = AB_EXIT_USAGE;
		}
	}
	if (!ret && a.table && ab_opt_table(a.table, &o, err, sizeof(err))) {
		ab_err("%s", err);
		ret = AB_EXIT_USAGE;
	}
	if (!ret && a.count &&
	    ab_opt_count("count", a.count, 1, &count, err, sizeof(err))) {
		ab_err("%s", err);
		ret = AB_EXIT_USAGE;
	}
	if (!ret && count > AB_LOOKUP_MAX_SIZES) {
		ab_err("--count=%u: at most %u lookups per pass", count,
		       AB_LOOKUP_MAX_SIZES);
		ret = AB_EXIT_USAGE;
	}
	if (!ret && a.seed) {
		if (ab_opt_seed(a.seed, &o, err, sizeof(err))) {
			ab_err("%s", err);
			ret = AB_EXIT_USAGE;
		}
		seed = o.seed;
	} else if (getrandom(&seed, sizeof(seed), 0) != sizeof(seed)) {
		seed = 1;
	}
	if (!ret && a.size) {
		nconst = parse_size_list(a.size, consts, 16);
		ret = nconst < 0 ? AB_EXIT_USAGE : AB_EXIT_OK;
	} else if (!ret && !sources) {
		consts[0] = 32;
		consts[1] = 4096;
		nconst = 2;
	}
	seq = calloc(count, sizeof(*seq));
	if (!ret && a.dist &&
	    ab_sizes_dist(a.dist, count, seed, seq, err, sizeof(err))) {
		ab_err("%s", err);
		ret = AB_EXIT_USAGE;
	}
	if (!ret && a.file) {
		free(seq);
		seq = NULL;
		if (ab_sizes_file(a.file, &seq, &nfile, err, sizeof(err))) {
			ab_err("--sizes-from=%s", err);
			ret = AB_EXIT_USAGE;
		} else if (nfile > AB_LOOKUP_MAX_SIZES) {
			ab_err("--sizes-from=%s: %zu sizes, more than the %u a pass can hold",
			       a.file, nfile, AB_LOOKUP_MAX_SIZES);
			ret = AB_EXIT_USAGE;
		}
	}
	if (!ret)
		ret = ab_events_once(ab_run_args.events);
	if (!ret)
		ret = ab_backend_open(ab_run_args.backend, &session.be,
				      &session.bi);
	if (!ret && !session.be->lookup) {
		ab_err("backend %s cannot time lookups", session.be->name);
		ret = AB_EXIT_BACKEND;
	}
	/* the limit ab_lookup_check() applies in the backend, checked first */
	if (!ret && (o.trials > session.bi.info.max_trials ||
		     o.warmup > session.bi.info.max_trials)) {
		ab_err("--%s=%u: above %s limit of %llu passes",
		       o.trials > session.bi.info.max_trials ? "trials"
							     : "warmup",
		       o.trials > session.bi.info.max_trials ? o.trials
							     : o.warmup,
		       ab_limits_whose(),
		       (unsigned long long)session.bi.info.max_trials);
		ret = AB_EXIT_USAGE;
	}
	if (!ret)
		ret = ab_session_pin(&session, a.cpu);
	if (!ret && (ab_out.formats & AB_FORMAT_JSON)) {
		ab_env_read(&session.env, "", session.cpu);
		results = json_object_new_array();
		notes = json_object_new_array();
	} else if (!ret && !(ab_out.formats & AB_FORMAT_CSV)) {
		ab_env_read(&session.env, "", session.cpu);
	}
	if (!ret && !(ab_out.formats & AB_FORMAT_JSON) &&
	    !(ab_out.formats & AB_FORMAT_CSV) && !ab_out.wide &&
	    !ab_out.verbose) {
		char params[160];

		snprintf(
			params, sizeof(params),
			"CPU %d, table %s, %u passes, %u warm-up; cycles per lookup, net of the none method's median",
			session.cpu, ab_table_name(o.lookup_table), o.trials,
			o.warmup);
		ab_print_header_short(&session, "lookup", params, NULL);
	} else if (!ret && !(ab_out.formats & AB_FORMAT_JSON) &&
		   !(ab_out.formats & AB_FORMAT_CSV)) {
		printf("allocbench %s lookup, backend %s (%s)\n",
		       AB_TOOL_VERSION, session.be->name,
		       session.bi.info.version);
		ab_env_print(stdout, &session.env, session.bi.info.tsc_khz);
		printf("CPU %d; per lookup in cycles (median ns: cycles * 10^6 / tsc_khz); fastest: (fastest pass - fastest none pass) / lookups, the 2002 thread's way; median and the rest: per pass, minus the none method's median\n",
		       session.cpu);
	} else if (!ret && !(ab_out.formats & AB_FORMAT_JSON)) {
		printf("sizes,method,table,lookups,passes,fastest_cycles,median_cycles,ci_lo_cycles,ci_hi_cycles,p99_cycles,mean_cycles,median_ns,class_sum\n");
	}
	if (!ret && ab_run_args.events)
		ab_counters_open(&session.counters, ab_run_args.events, stderr);
	/* one pass counts all events: a probe's handler would run inside the
	 * regions the virtual PMU counts (run gives each kind a pass) */
	for (i = 0; !ret && ab_counters_virtual(&session.counters) &&
		    i < session.counters.n;
	     i++)
		if (!session.counters.ev[i].virt &&
		    session.counters.ev[i].kind != AB_EVENT_PFM) {
			ab_err("lookup --events: %s beside virtual PMU events: its handler would run in the passes they count; count them in separate lookups",
			       session.counters.ev[i].name);
			ret = AB_EXIT_USAGE;
		}
	if (!ret)
		ab_catch_signals();
	for (i = 0; !ret && i < (nconst ? nconst : 1); i++) {
		uint32_t k, n = a.file ? (uint32_t)nfile : count;

		if (nconst) {
			for (k = 0; k < count; k++)
				seq[k] = consts[i];
			snprintf(label, sizeof(label), "constant %u",
				 consts[i]);
		} else if (a.dist) {
			snprintf(label, sizeof(label), "%s (seed %llu)", a.dist,
				 (unsigned long long)seed);
		} else {
			snprintf(label, sizeof(label), "%s", a.file);
		}
		ret = ab_lookup_measure(session.be, o.lookup_table, methods, nm,
					seq, n, o.trials, o.warmup,
					&session.counters, res);
		if (res[0].complete && results) {
			char note[256];

			ab_lookup_json(res, nm, label, &session.counters,
				       results);
			/* as the text's notes: a net figure below zero */
			for (k = 1; k <= (uint32_t)nm; k++)
				if (ab_lookup_net_note(&res[k], note,
						       sizeof(note)))
					json_object_array_add(
						notes,
						json_object_new_string(note));
		} else if (res[0].complete)
			ab_lookup_print(res, nm,
					(ab_out.formats & AB_FORMAT_CSV), label,
					&session.counters);
		ab_lookup_results_free(res, nm);
	}
	if (results) {
		json_object *root =
			ab_json_envelope("lookup", (time_t)ab_out.start);

		json_object_object_add(root, "end", ab_json_time(time(NULL)));
		json_object_object_add(root, "module",
				       ab_session_json_module(&session));
		json_object_object_add(
			root, "environment",
			ab_json_env(&session.env, session.bi.info.tsc_khz));
		json_object_object_add(root, "results", results);
		json_object_object_add(root, "notes", notes);
		notes = NULL;
		ab_json_print(root, stdout);
	}
	json_object_put(notes);
	free(seq);
	ab_session_close(&session);
	return ret;
}
