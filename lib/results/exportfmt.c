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
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <json-c/json.h>

#include "exportfmt.h"

/*
 * ab_export_num - @v in @buf as the shortest decimal that reads back as
 * the same double (an integer without a point): nothing rounded away.
 */
static void ab_export_num(char *buf, size_t len, double v)
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
		lkp_num(v, sizeof(v), ms->metric[i].value);
		fprintf(f, "%s: %s\n", ms->metric[i].key, v);
	}
	return 0;
}

/*
 * mmtests: metric = the statistic and unit ("median_ns", "failure_rate",
 * "per_op" for every counter), factorA = the row's identity and phase
 * (a counter's event after it), interval = the sample. compare-kernels.sh
 * compares every label of a shellpack one way, lower better unless the
 * shellpack.yaml's top-level preferhigher says higher (ExtractShellpack.pm
 * sets one _PreferredVal per report; a per-metric preferhigher applies only
 * under compare-mmtests.pl --sub-heading, which compare-kernels.sh does
 * not pass): so a success rate goes as its failure rate, the row's failed
 * calls over its attempts, lower better like every other metric here.
 */
static int write_mmtests(const struct ab_metrics *ms,
			 const struct ab_export_opts *o, FILE *f, char *err,
			 size_t len)
{
	char v[40], fa[AB_METRIC_KEY];
	const char *dot, *metric;
	double value;
	size_t i, n;

	for (i = 0; i < ms->n; i++) {
		const struct ab_metric *m = &ms->metric[i];

		if (m->dir == AB_DIR_HIGHER && isnan(m->failed)) {
			snprintf(
				err, len,
				"%s: higher is better, and mmtests compares every metric of a report with lower better: no lower-is-better form of it is saved",
				m->key);
			return -EINVAL;
		}
	}
	for (i = 0; i < ms->n; i++) {
		const struct ab_metric *m = &ms->metric[i];

		dot = strrchr(m->key, '.');
		value = m->dir == AB_DIR_HIGHER ? m->failed : m->value;
		if (m->dir == AB_DIR_HIGHER) {
			/* KEY is PREFIX.success_rate */
			metric = "failure_rate";
			n = dot ? (size_t)(dot - m->key) : 0;
		} else if (!strcmp(m->unit, "per_op")) {
			/* KEY is PREFIX.EVENT_per_op */
			metric = "per_op";
			n = strlen(m->key) - strlen("_per_op");
		} else {
			metric = dot ? dot + 1 : m->key;
			n = dot ? (size_t)(dot - m->key) : 0;
		}
		snprintf(fa, sizeof(fa), "%.*s", (int)n, m->key);
		ab_export_num(v, sizeof(v), value);
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

/*
 * Whether @s is an RFC 3339 date-time as KCIDB's start_time takes it:
 * YYYY-MM-DDTHH:MM:SS, optional fraction, then Z or +HH:MM / -HH:MM.
 */
static int is_datetime(const char *s)
{
	static const char form[] = "dddd-dd-ddTdd:dd:dd";
	size_t i;

	for (i = 0; form[i]; i++)
		if (form[i] == 'd' ? !(s[i] >= '0' && s[i] <= '9')
				   : s[i] != form[i])
			return 0;
	s += i;
	if (*s == '.')
		for (s++; *s >= '0' && *s <= '9'; s++)
			;
	if (*s == 'Z')
		return !s[1];
	return (*s == '+' || *s == '-') && s[1] >= '0' && s[1] <= '9' &&
	       s[2] >= '0' && s[2] <= '9' && s[3] == ':' && s[4] >= '0' &&
	       s[4] <= '9' && s[5] >= '0' && s[5] <= '9' && !s[6];
}

/*
 * The stem of every id this submission makes, "ORIGIN:allocbench_START_
 * HASH": START the document's start time, HASH FNV-1a (64 bits) of every
 * metric's key, kernel, sample and value, so that two documents started
 * in one second get ids of their own (KCIDB merges objects by id) and the
 * same document gets the same ids again.
 */
static void id_stem(const struct ab_metrics *ms, const struct ab_export_opts *o,
		    char *buf, size_t len)
{
	uint64_t h = 0xcbf29ce484222325ULL;
	char sp[40], v[64];
	const char *p;
	size_t i;
	int pass;

	for (i = 0; i < ms->n; i++) {
		const struct ab_metric *m = &ms->metric[i];

		snprintf(v, sizeof(v), "|%d|%d|%.17g|", m->kernel, m->sample,
			 m->value);
		for (pass = 0; pass < 2; pass++)
			for (p = pass ? v : m->key; *p; p++) {
				h ^= (unsigned char)*p;
				h *= 0x100000001b3ULL;
			}
	}
	id_part(sp, sizeof(sp), is_datetime(o->start) ? o->start : "nostart");
	snprintf(buf, len, "%s:allocbench_%s_%016llx", o->origin, sp,
		 (unsigned long long)h);
}

/* The build id of kernel @k of a vm document (-1 outside one). */
static void build_id(const struct ab_metrics *ms,
		     const struct ab_export_opts *o, const char *stem, int k,
		     char *buf, size_t len)
{
	char kp[48];

	if (o->build_id) {
		snprintf(buf, len, "%s", o->build_id);
		return;
	}
	if (k < 0) {
		snprintf(buf, len, "%s", stem);
		return;
	}
	/* the index keeps kernels apart whose names differ in case only */
	id_part(kp, sizeof(kp), ms->kernels[k]);
	snprintf(buf, len, "%s_k%d_%s", stem, k, kp);
}

/* The number and misc of metric @m as a KCIDB test. */
static json_object *kcidb_test(const struct ab_metrics *ms,
			       const struct ab_export_opts *o, const char *stem,
			       const struct ab_metric *m, size_t i)
{
	json_object *t = json_object_new_object(), *num, *misc;
	char id[AB_METRIC_KEY + 64], b[512], v[40];

	snprintf(id, sizeof(id), "%s_%zu", stem, i);
	build_id(ms, o, stem, m->kernel, b, sizeof(b));
	json_object_object_add(t, "id", str(id));
	json_object_object_add(t, "build_id", str(b));
	json_object_object_add(t, "origin", str(o->origin));
	snprintf(id, sizeof(id), "allocbench.%s", m->key);
	json_object_object_add(t, "path", str(id));
	/* the number is the test's output: DONE (kcidb-io's number doc) */
	json_object_object_add(t, "status", str("DONE"));
	if (is_datetime(o->start))
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
	json_object *doc, *ver, *arr, *x;
	char stem[160], b[512];
	int k, builds = 0;
	size_t i;

	for (k = 0; k < ms->nkernels; k++)
		builds += !ms->kernel || !strcmp(ms->kernel, ms->kernels[k]);
	if (o->build_id && builds > 1) {
		snprintf(
			err, len,
			"--build-id=%s names one build, and this vm document holds %d kernels, a build each: choose one with --kernel",
			o->build_id, builds);
		return -EINVAL;
	}
	id_stem(ms, o, stem, sizeof(stem));
	doc = json_object_new_object();
	ver = json_object_new_object();
	json_object_object_add(ver, "major", json_object_new_int(4));
	json_object_object_add(ver, "minor", json_object_new_int(4));
	json_object_object_add(doc, "version", ver);
	arr = json_object_new_array();
	x = json_object_new_object();
	json_object_object_add(x, "id",
			       str(o->checkout_id ? o->checkout_id : stem));
	json_object_object_add(x, "origin", str(o->origin));
	json_object_array_add(arr, x);
	json_object_object_add(doc, "checkouts", arr);
	arr = json_object_new_array();
	for (k = ms->nkernels ? 0 : -1; k < ms->nkernels; k++) {
		if (k >= 0 && ms->kernel && strcmp(ms->kernel, ms->kernels[k]))
			continue;
		x = json_object_new_object();
		build_id(ms, o, stem, k, b, sizeof(b));
		json_object_object_add(x, "id", str(b));
		json_object_object_add(
			x, "checkout_id",
			str(o->checkout_id ? o->checkout_id : stem));
		json_object_object_add(x, "origin", str(o->origin));
		/* the submitter's own build keeps its own misc (KCIDB would
		 * merge ours into it); each test says its kernel */
		if (k >= 0 && !o->build_id) {
			json_object *misc = json_object_new_object();

			json_object_object_add(misc, "kernel",
					       str(ms->kernels[k]));
			json_object_object_add(x, "misc", misc);
		}
		json_object_array_add(arr, x);
		if (k < 0)
			break;
	}
	json_object_object_add(doc, "builds", arr);
	arr = json_object_new_array();
	for (i = 0; i < ms->n; i++)
		json_object_array_add(
			arr, kcidb_test(ms, o, stem, &ms->metric[i], i));
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
		const struct ab_metric *m = &ms->metric[i];

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
