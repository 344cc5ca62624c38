// SPDX-License-Identifier: GPL-2.0-only
/*
 * exportfmt.c - the engines' formats (see exportfmt.h). The sources each
 * writer follows, read in the engines' own repositories:
 *
 *   lkp       intel/lkp-tests sbin/dump-stat: a program's parse prints
 *             "key: value" lines, numeric values (a float has a '.'), no
 *             white space in a key;
 *             LKP prefixes the program's name ("allocbench.KEY"); one
 *             value per key and job run (a key given twice becomes an
 *             array of records, which stats.json averages away)
 *   mmtests   gormanm/mmtests shellpack_src/parsers/time-parse-results:
 *             parse-results prints tab-separated "metric factorA factorB
 *             interval value extra", "_" for an empty field; the report
 *             labels a series metric-factorA[-factorB] and summarises its
 *             intervals (bin/lib/MMTests/ExtractShellpack.pm)
 *   kcidb     kernelci/kcidb-io kcidb_io/schema/v04_04.py: a submission
 *             {version, checkouts, builds, tests}, ids "origin:...", a
 *             test's number {value, unit, prefix}
 *   fastpath  Arm's Fastpath documentation (developer-guide/
 *             benchmarkintegrate): the container's exec script writes
 *             results.csv into /fastpath-share; its columns are not in
 *             the parts of the documentation read (docs/export.md)
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <json-c/json.h>

#include "exportfmt.h"

void ab_export_num(char *buf, size_t len, double v)
{
	int p;

	if (v == floor(v) && fabs(v) < 1e15) {
		snprintf(buf, len, "%.0f", v);
		return;
	}
	for (p = 1; p < 17; p++) {
		snprintf(buf, len, "%.*g", p, v);
		if (strtod(buf, NULL) == v)
			return;
	}
	snprintf(buf, len, "%.17g", v);
}

/*
 * @v for LKP's sbin/dump-stat, which reads a value with a '.' as a float
 * and any other as an integer (`v.index('.') ? v.to_f : v.to_i`): "5e-05"
 * would read as 5. A whole number as such; any other in fixed notation,
 * the fewest decimals that read back as @v (up to 40; a value that needs
 * more, below about 1e-25, keeps its exponent after a '.': "1.0e-30").
 */
static void lkp_num(char *buf, size_t len, double v)
{
	int p;

	if (v == floor(v) && fabs(v) < 1e15) {
		snprintf(buf, len, "%.0f", v);
		return;
	}
	for (p = 1; p <= 40; p++) {
		snprintf(buf, len, "%.*f", p, v);
		if (strtod(buf, NULL) == v)
			return;
	}
	ab_export_num(buf, len, v);
	if (!strchr(buf, '.')) {
		char *e = strchr(buf, 'e');
		char tail[16];

		if (e) {
			snprintf(tail, sizeof(tail), "%s", e);
			snprintf(e, len - (size_t)(e - buf), ".0%s", tail);
		}
	}
}

/* LKP: "KEY: VALUE" per metric of the one sample. */
static int write_lkp(const struct ab_metrics *ms,
		     const struct ab_export_opts *o, FILE *f, char *err,
		     size_t len)
{
	char v[64];
	size_t i;

	for (i = 0; i < ms->n; i++) {
		lkp_num(v, sizeof(v), ms->m[i].value);
		fprintf(f, "%s: %s\n", ms->m[i].key, v);
	}
	return 0;
}

/*
 * mmtests: metric = the statistic and unit ("median_ns", "success_pct",
 * "per_op" for every counter), factorA = the row's identity and phase
 * (a counter's event after it), interval = the sample.
 */
static int write_mmtests(const struct ab_metrics *ms,
			 const struct ab_export_opts *o, FILE *f, char *err,
			 size_t len)
{
	char v[40], fa[AB_METRIC_KEY];
	const char *dot, *metric;
	size_t i, n;

	for (i = 0; i < ms->n; i++) {
		const struct ab_metric *m = &ms->m[i];

		dot = strrchr(m->key, '.');
		if (!strcmp(m->unit, "per_op")) {
			/* KEY is PREFIX.EVENT_per_op */
			metric = "per_op";
			n = strlen(m->key) - strlen("_per_op");
		} else {
			metric = dot ? dot + 1 : m->key;
			n = dot ? (size_t)(dot - m->key) : 0;
		}
		snprintf(fa, sizeof(fa), "%.*s", (int)n, m->key);
		ab_export_num(v, sizeof(v), m->value);
		fprintf(f, "%s\t%s\t_\t%d\t%s\t_\n", metric, fa[0] ? fa : "_",
			m->sample, v);
	}
	return 0;
}

/* A KCIDB id part: [a-z0-9_] only, other characters '_'. */
static void id_part(char *buf, size_t len, const char *s)
{
	size_t i;

	for (i = 0; s[i] && i + 1 < len; i++) {
		char c = s[i];

		if (c >= 'A' && c <= 'Z')
			c = (char)(c - 'A' + 'a');
		buf[i] = (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') ? c
									  : '_';
	}
	buf[i] = '\0';
}

static json_object *str(const char *s)
{
	return json_object_new_string(s);
}

/* The build id of the kernel @k ("" outside a vm document). */
static void build_id(const struct ab_metrics *ms,
		     const struct ab_export_opts *o, const char *k, char *buf,
		     size_t len)
{
	char kp[64], sp[40];

	if (o->build_id) {
		snprintf(buf, len, "%s", o->build_id);
		return;
	}
	id_part(kp, sizeof(kp), k);
	id_part(sp, sizeof(sp), o->start);
	snprintf(buf, len, "%s:allocbench_%s%s%s", o->origin, sp,
		 k[0] ? "_" : "", kp);
}

/* The number and misc of metric @m as a KCIDB test. */
static json_object *kcidb_test(const struct ab_metrics *ms,
			       const struct ab_export_opts *o,
			       const struct ab_metric *m, size_t i)
{
	json_object *t = json_object_new_object(), *num, *misc;
	char id[256], b[256], v[40], sp[40];

	id_part(sp, sizeof(sp), o->start);
	snprintf(id, sizeof(id), "%s:allocbench_%s_%zu", o->origin, sp, i);
	build_id(ms, o, m->factor, b, sizeof(b));
	json_object_object_add(t, "id", str(id));
	json_object_object_add(t, "build_id", str(b));
	json_object_object_add(t, "origin", str(o->origin));
	snprintf(id, sizeof(id), "allocbench.%s", m->key);
	json_object_object_add(t, "path", str(id));
	/* the number is the test's output: DONE (kcidb-io's number doc) */
	json_object_object_add(t, "status", str("DONE"));
	if (o->start[0])
		json_object_object_add(t, "start_time", str(o->start));
	num = json_object_new_object();
	ab_export_num(v, sizeof(v), m->value);
	json_object_object_add(num, "value",
			       json_object_new_double_s(m->value, v));
	json_object_object_add(num, "unit", str(m->unit));
	json_object_object_add(t, "number", num);
	misc = json_object_new_object();
	json_object_object_add(misc, "sample", json_object_new_int(m->sample));
	json_object_object_add(misc, "direction",
			       str(ab_metric_dir_name(m->dir)));
	json_object_object_add(misc, "statistic", str(m->stat));
	json_object_object_add(misc, "command", str(ms->command));
	if (m->factor[0])
		json_object_object_add(misc, "kernel", str(m->factor));
	json_object_object_add(t, "misc", misc);
	return t;
}

/*
 * KCIDB v4.4: one checkout, one build per kernel (a vm document's) and
 * one test per metric and sample.
 */
static int write_kcidb(const struct ab_metrics *ms,
		       const struct ab_export_opts *o, FILE *f, char *err,
		       size_t len)
{
	json_object *doc = json_object_new_object(), *ver, *arr, *x;
	char ck[256], b[256], sp[40];
	int k, nk = ms->nkernels ? ms->nkernels : 1;
	size_t i;

	ver = json_object_new_object();
	json_object_object_add(ver, "major", json_object_new_int(4));
	json_object_object_add(ver, "minor", json_object_new_int(4));
	json_object_object_add(doc, "version", ver);
	id_part(sp, sizeof(sp), o->start);
	if (o->checkout_id)
		snprintf(ck, sizeof(ck), "%s", o->checkout_id);
	else
		snprintf(ck, sizeof(ck), "%s:allocbench_%s", o->origin, sp);
	arr = json_object_new_array();
	x = json_object_new_object();
	json_object_object_add(x, "id", str(ck));
	json_object_object_add(x, "origin", str(o->origin));
	json_object_array_add(arr, x);
	json_object_object_add(doc, "checkouts", arr);
	arr = json_object_new_array();
	for (k = 0; k < nk; k++) {
		const char *kn = ms->nkernels ? ms->kernels[k] : "";

		if (ms->kernel && strcmp(ms->kernel, kn))
			continue;
		x = json_object_new_object();
		build_id(ms, o, kn, b, sizeof(b));
		json_object_object_add(x, "id", str(b));
		json_object_object_add(x, "checkout_id", str(ck));
		json_object_object_add(x, "origin", str(o->origin));
		if (kn[0]) {
			json_object *misc = json_object_new_object();

			json_object_object_add(misc, "kernel", str(kn));
			json_object_object_add(x, "misc", misc);
		}
		json_object_array_add(arr, x);
	}
	json_object_object_add(doc, "builds", arr);
	arr = json_object_new_array();
	for (i = 0; i < ms->n; i++)
		json_object_array_add(arr, kcidb_test(ms, o, &ms->m[i], i));
	json_object_object_add(doc, "tests", arr);
	fprintf(f, "%s\n",
		json_object_to_json_string_ext(
			doc, JSON_C_TO_STRING_PRETTY |
				     JSON_C_TO_STRING_NOSLASHESCAPE));
	json_object_put(doc);
	return 0;
}

/*
 * Fastpath's results.csv, as docs/export.md states it: a header, then
 * one line per metric and sample: resultclass (the key), value, unit,
 * improvement (bigger, smaller or none) and sample.
 */
static int write_fastpath(const struct ab_metrics *ms,
			  const struct ab_export_opts *o, FILE *f, char *err,
			  size_t len)
{
	char v[40];
	size_t i;

	fprintf(f, "resultclass,value,unit,improvement,sample\n");
	for (i = 0; i < ms->n; i++) {
		const struct ab_metric *m = &ms->m[i];

		ab_export_num(v, sizeof(v), m->value);
		fprintf(f, "%s,%s,%s,%s,%d\n", m->key, v, m->unit,
			m->dir == AB_DIR_HIGHER	 ? "bigger"
			: m->dir == AB_DIR_LOWER ? "smaller"
						 : "none",
			m->sample);
	}
	return 0;
}

const struct ab_export_fmt ab_export_formats[] = {
	{ "lkp", "LKP-tests parse output: KEY: VALUE, one sample", 1, 1,
	  write_lkp },
	{ "mmtests", "mmtests parse-results: metric, factors, interval, value",
	  0, 1, write_mmtests },
	{ "kcidb", "a KCIDB v4.4 submission: a test per metric and sample", 0,
	  0, write_kcidb },
	{ "fastpath", "Fastpath results.csv: resultclass, value, unit, ...", 0,
	  1, write_fastpath },
	{ NULL, NULL, 0, 0, NULL },
};

const struct ab_export_fmt *ab_export_find(const char *name)
{
	const struct ab_export_fmt *x;

	for (x = ab_export_formats; name && x->name; x++)
		if (!strcmp(x->name, name))
			return x;
	return NULL;
}
