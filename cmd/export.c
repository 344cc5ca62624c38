// SPDX-License-Identifier: GPL-2.0-only
/*
 * export.c - `allocbench export --format=FORMAT RESULT.json...`: saved
 * results in the format of an engine that runs benchmarks on fleets (LKP,
 * mmtests, KernelCI's KCIDB, Arm's Fastpath), so that its own reports
 * show allocbench's figures and their regressions:
 *
 *   allocbench export --format=lkp run.json            KEY: VALUE lines
 *   allocbench export --format=mmtests it1.json it2.json it3.json
 *   allocbench export --format=kcidb vm.json -o submission.json
 *   allocbench export --format=fastpath --kernel=6.12 vm.json
 *
 * The metrics and their keys: lib/metrics.h; the formats:
 * lib/exportfmt.c. Several documents of one command are samples one
 * after another (each an engine's iteration). A document a format cannot
 * carry is refused in one line, status AB_EXIT_FORMAT, nothing written.
 */
#include <errno.h>
#include <popt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "allocbench.h"
#include "exportfmt.h"
#include "jsonin.h"
#include "jsonout.h"
#include "metrics.h"
#include "outfile.h"
#include "textout.h"
#include "vmab.h"

#define MAX_INPUTS 1024

/*
 * A saved result, or an `allocbench vm` document; a comparison of saved
 * files passes here to be refused by ab_metrics_of() with its reason.
 */
static int export_check(json_object *root, char *err, size_t len)
{
	json_object *boots = ab_json_array(root, "boots");
	char why[512];
	size_t i;
	int ret = ab_saved_check(root, NULL, err, len);

	/* a vm document's good boots: each result checked as any saved
	 * result is (plot reads none of them; export reads them all) */
	for (i = 0; !ret && boots && i < json_object_array_length(boots); i++) {
		json_object *b = json_object_array_get_idx(boots, i);
		json_object *res = ab_json_get(b, "result");

		if (!res ||
		    strcmp(json_object_get_string(ab_json_get(b, "status"))
				   ?: "",
			   "ok"))
			continue;
		ret = ab_json_check_result(res, why, sizeof(why));
		if (ret)
			snprintf(err, len, "boots[%zu].result: %s", i, why);
	}
	return ret;
}

/* "lkp, mmtests, ..." from the one table */
static void format_names(char *buf, size_t len)
{
	const struct ab_export_fmt *x;
	size_t at = 0;

	buf[0] = '\0';
	for (x = ab_export_formats; x->name && at < len; x++)
		at += (size_t)snprintf(buf + at, len - at, "%s%s",
				       at ? ", " : "", x->name);
}

/* The input files' metrics into @ms; an exit status after its line. */
static int read_all(const char **in, int n, struct ab_metrics *ms,
		    struct ab_export_opts *o)
{
	char err[1024];
	json_object *root;
	const char *s;
	int i, ret, stdin_read = 0;
	size_t a, b;

	for (i = 0; i < n; i++)
		if (!strcmp(in[i], "-") && stdin_read++) {
			ab_err("export: - given twice: standard input holds one document");
			return AB_EXIT_USAGE;
		}
	if (ab_inputs_named_twice(in, (size_t)n, &a, &b)) {
		ab_err("export: %s and %s are the same file: each document given is one sample of its own; give each file once",
		       in[a], in[b]);
		return AB_EXIT_USAGE;
	}
	for (i = 0; i < n; i++) {
		const char *path = strcmp(in[i], "-") ? in[i] : "/dev/stdin";

		root = ab_json_read_checked(path, export_check, err,
					    sizeof(err));
		if (!root) {
			ab_err("export: %s", err);
			return AB_EXIT_DATA;
		}
		s = json_object_get_string(ab_json_get(root, "start"));
		if (!i && s)
			snprintf(o->start, sizeof(o->start), "%s", s);
		ret = ab_metrics_of(root, ms, err, sizeof(err));
		json_object_put(root);
		if (ret) {
			ab_err("export: %s: %s", in[i], err);
			return ret == -ENOMEM	 ? AB_EXIT_RUN
			       : ret == -EBADMSG ? AB_EXIT_DATA
						 : AB_EXIT_FORMAT;
		}
	}
	return AB_EXIT_OK;
}

/* Whether @fmt carries @ms; AB_EXIT_FORMAT after the reason if not. */
static int carries(const struct ab_export_fmt *fmt, const struct ab_metrics *ms)
{
	if (fmt->one_kernel && ms->nkernels > 1 && !ms->kernel) {
		ab_err("export: --format=%s: one export holds one kernel (%s compares kernels as runs of its own), and this vm document holds %d: choose one with --kernel=%s",
		       fmt->name, fmt->name, ms->nkernels, ms->kernels[0]);
		return AB_EXIT_FORMAT;
	}
	if (fmt->samples && ms->samples > fmt->samples) {
		ab_err("export: --format=%s: the input holds %d samples (%s), and %s takes one value per key and job run: its unit of repetition is the job, run again by the engine; export one run document per job",
		       fmt->name, ms->samples,
		       !strcmp(ms->command, "vm")	 ? "boots"
		       : !strcmp(ms->command, "compare") ? "rounds"
							 : "documents",
		       fmt->name);
		return AB_EXIT_FORMAT;
	}
	return AB_EXIT_OK;
}

/*
 * Whether @s is a KCIDB id: ORIGIN:ID, ORIGIN [a-z0-9_]+ and ID one line
 * (kcidb-io's "^[a-z0-9_]+:.*$", whose '.' matches no line break), at
 * most 200 bytes (room for the test ids made from it).
 */
static int kcidb_id(const char *s)
{
	size_t n = strspn(s, "abcdefghijklmnopqrstuvwxyz0123456789_");

	return n && s[n] == ':' && strlen(s) <= 200 && !strpbrk(s, "\r\n");
}

/*
 * KCIDB's origin and ids: their patterns in kcidb-io's schema, the two ids
 * together, each of the origin given.
 */
static int check_ids(const struct ab_export_opts *o)
{
	size_t n = strspn(o->origin, "abcdefghijklmnopqrstuvwxyz0123456789_");
	int i;

	if (!n || o->origin[n] || n > 64) {
		ab_err("export: --origin=%s: KCIDB allows [a-z0-9_]+ (here at most 64 characters)",
		       o->origin);
		return AB_EXIT_USAGE;
	}
	if (o->build_id && !kcidb_id(o->build_id)) {
		ab_err("export: --build-id=%s: a KCIDB id is ORIGIN:ID, ORIGIN [a-z0-9_]+, one line of at most 200 characters",
		       o->build_id);
		return AB_EXIT_USAGE;
	}
	if (o->checkout_id && !kcidb_id(o->checkout_id)) {
		ab_err("export: --checkout-id=%s: a KCIDB id is ORIGIN:ID, ORIGIN [a-z0-9_]+, one line of at most 200 characters",
		       o->checkout_id);
		return AB_EXIT_USAGE;
	}
	/*
	 * KCIDB merges the objects of one id property by property: a build
	 * of the submitter's under an id made up here (or a made-up build
	 * under the submitter's checkout) would join objects that are not
	 * one, so the two ids come together or not at all
	 */
	if (!o->build_id != !o->checkout_id) {
		ab_err("export: --%s=%s without --%s: the submitter's build and its checkout are named together (a build names its checkout, and KCIDB merges objects of one id), give both or neither",
		       o->build_id ? "build-id" : "checkout-id",
		       o->build_id ?: o->checkout_id,
		       o->build_id ? "checkout-id" : "build-id");
		return AB_EXIT_USAGE;
	}
	/* an id starts with the CI system that submitted the object */
	for (i = 0; o->build_id && i < 2; i++) {
		const char *id = i ? o->checkout_id : o->build_id;
		size_t op = strcspn(id, ":");

		if (op != strlen(o->origin) || strncmp(id, o->origin, op)) {
			ab_err("export: --%s=%s: its origin %.*s is not --origin=%s, and the object written under that id would carry origin %s (kcidb-io: an id starts with the CI system that submitted it): give --origin and ids of one origin",
			       i ? "checkout-id" : "build-id", id, (int)op, id,
			       o->origin, o->origin);
			return AB_EXIT_USAGE;
		}
	}
	return AB_EXIT_OK;
}

int cmd_export(int argc, const char **argv)
{
	const char *format = NULL, *kernel = NULL, *in[MAX_INPUTS];
	struct ab_export_opts o = { .origin = "allocbench" };
	struct poptOption opts[] = {
		{ "format", 0, POPT_ARG_STRING, &format, 0,
		  "the engine's format (`allocbench list --values=export-formats`)",
		  "FORMAT" },
		{ "kernel", 'k', POPT_ARG_STRING, &kernel, 0,
		  "a vm document's boots of this kernel only (its name, as --kernel gave it to vm)",
		  "NAME" },
		{ "origin", 0, POPT_ARG_STRING, &o.origin, 0,
		  "kcidb: the submitter's origin (default allocbench)",
		  "ORIGIN" },
		{ "build-id", 0, POPT_ARG_STRING, &o.build_id, 0,
		  "kcidb: the id of the build the result ran on (ORIGIN:ID)",
		  "ID" },
		{ "checkout-id", 0, POPT_ARG_STRING, &o.checkout_id, 0,
		  "kcidb: the id of its checkout (ORIGIN:ID)", "ID" },
		{ "output", 'o', POPT_ARG_STRING, &ab_out.path, 0,
		  "write to FILE instead of standard output (-o -: standard output)",
		  "FILE" },
		POPT_AUTOHELP POPT_TABLEEND
	};
	const struct ab_export_fmt *fmt;
	struct ab_metrics ms = { 0 };
	char names[128], err[1024];
	int n, ret;

	n = ab_popt_parse_pos("export", argc, argv, opts, in, MAX_INPUTS);
	if (n < 0)
		return -n;
	format_names(names, sizeof(names));
	if (!format || !n) {
		ab_err("export: usage: allocbench export --format=%s RESULT.json... [-o FILE]",
		       names);
		return AB_EXIT_USAGE;
	}
	fmt = ab_export_find(format);
	if (!fmt) {
		ab_err("export: --format=%s: allowed %s", format, names);
		return AB_EXIT_USAGE;
	}
	if (kernel && !kernel[0]) {
		ab_err("export: --kernel='': name a kernel of the vm document");
		return AB_EXIT_USAGE;
	}
	ret = check_ids(&o);
	if (ret)
		return ret;
	ms.kernel = kernel;
	ret = read_all(in, n, &ms, &o);
	/* also where nothing else was left to export: it says why */
	if (ms.negative)
		/* why such a figure is no latency: allocbench-export(1), NOTES
		 */
		ab_err("export: note: %d %s below zero left out (the first: %s %.2f)",
		       ms.negative,
		       ab_noun((unsigned)ms.negative, "time", "times"),
		       ms.negative_key, ms.negative_value);
	if (!ret)
		ret = carries(fmt, &ms);
	if (!ret && fmt->write(&ms, &o, stdout, err, sizeof(err))) {
		ab_err("export: --format=%s: %s", fmt->name, err);
		ret = AB_EXIT_FORMAT;
	}
	ab_metrics_free(&ms);
	return ret;
}
