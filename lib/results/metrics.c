// SPDX-License-Identifier: GPL-2.0-only
/*
 * metrics.c - a saved result as flat metrics (see metrics.h).
 */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dynprobe.h"
#include "jsonout.h"
#include "metrics.h"
#include "resultrow.h"

/* The ns statistics of a phase, each one metric; lower is better. */
static const char *const ns_stats[] = { "min", "median", "mean", "p90",
					"p99", "p99_9",	 "max" };

const char *ab_metric_dir_name(int dir)
{
	return dir == AB_DIR_LOWER    ? "lower"
	       : dir == AB_DIR_HIGHER ? "higher"
				      : "none";
}

void ab_metrics_free(struct ab_metrics *ms)
{
	free(ms->metric);
	ms->metric = NULL;
	ms->n = ms->cap = 0;
}

/* @s into @buf at @at as a key part: [A-Za-z0-9_-] kept, others '_'. */
static size_t part(char *buf, size_t len, size_t at, const char *s)
{
	for (; *s && at + 1 < len; s++, at++) {
		char c = *s;

		buf[at] = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
					  (c >= '0' && c <= '9') || c == '_' ||
					  c == '-'
				  ? c
				  : '_';
	}
	buf[at < len ? at : len - 1] = '\0';
	return at;
}

/* "." and the printf of @fmt appended to @buf as one key part. */
static void add_part(char *buf, size_t len, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static void add_part(char *buf, size_t len, const char *fmt, ...)
{
	char p[AB_METRIC_KEY];
	size_t at = strlen(buf);
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(p, sizeof(p), fmt, ap);
	va_end(ap);
	if (at && at + 1 < len)
		buf[at++] = '.';
	part(buf, len, at, p);
}

/*
 * Counter event @ev as a key part into @buf: a filtered kprobe's tag
 * (lib/dynprobe.c's table: "slab_refill"), else its name with each run of
 * characters other than [A-Za-z0-9] one '_', none first or last
 * ("kprobe:__slab_free" kprobe_slab_free, "L1-dcache-load-misses"
 * L1_dcache_load_misses). -E2BIG when it does not fit, -EINVAL when
 * nothing is left of it (no letter, no digit).
 */
static int event_part(const char *ev, char *buf, size_t len)
{
	const struct ab_dynprobe *d = ab_dynprobe_find(ev);
	size_t at = 0;
	int gap = 0;

	if (d)
		ev = d->tag;
	for (; *ev; ev++) {
		char c = *ev;

		if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
		      (c >= '0' && c <= '9'))) {
			gap = at > 0;
			continue;
		}
		if (at + gap + 1 >= len)
			return -E2BIG;
		if (gap)
			buf[at++] = '_';
		buf[at++] = c;
		gap = 0;
	}
	buf[at] = '\0';
	return at ? 0 : -EINVAL;
}

static int push(struct ab_metrics *ms, const char *prefix, const char *stat,
		const char *unit_part, const char *unit, int dir, double v,
		int sample, const char *factor)
{
	struct ab_metric *m;

	if (!isfinite(v))
		return 0; /* n/a: nothing measured, nothing exported */
	/*
	 * A time below zero is a net figure whose raw value was below what
	 * it subtracts (a none baseline's median on one or two cold trials):
	 * noise, no cost an engine where lower is better could rank. Left
	 * out, counted, the first named (export says so on stderr).
	 */
	if (dir == AB_DIR_LOWER && v < 0) {
		if (!ms->negative++) {
			snprintf(ms->negative_key, sizeof(ms->negative_key),
				 "%s", prefix);
			add_part(ms->negative_key, sizeof(ms->negative_key),
				 "%s%s%s", stat, unit_part[0] ? "_" : "",
				 unit_part);
			ms->negative_value = v;
		}
		return 0;
	}
	if (ms->n == ms->cap) {
		size_t cap = ms->cap ? 2 * ms->cap : 64;
		struct ab_metric *g = realloc(ms->metric, cap * sizeof(*g));

		if (!g)
			return -ENOMEM;
		ms->metric = g;
		ms->cap = cap;
	}
	m = &ms->metric[ms->n];
	memset(m, 0, sizeof(*m));
	snprintf(m->key, sizeof(m->key), "%s", prefix);
	add_part(m->key, sizeof(m->key), "%s%s%s", stat,
		 unit_part[0] ? "_" : "", unit_part);
	/* a key cut short would be another key: refused (ab_metrics_of()) */
	if (strlen(prefix) + strlen(stat) + strlen(unit_part) + 2 >=
	    sizeof(m->key))
		return -E2BIG;
	ms->n++;
	m->value = v;
	m->unit = unit;
	m->dir = dir;
	m->sample = ms->base + sample;
	m->factor = factor ? factor : "";
	m->kernel = ms->cur_kernel;
	m->failed = NAN;
	snprintf(m->stat, sizeof(m->stat), "%s", stat);
	if (m->sample > ms->samples)
		ms->samples = m->sample;
	return 0;
}

static double num(json_object *o, const char *key)
{
	json_object *v = ab_json_get(o, key);

	return v && (json_object_is_type(v, json_type_double) ||
		     json_object_is_type(v, json_type_int))
		       ? json_object_get_double(v)
		       : NAN;
}

static const char *str(json_object *o, const char *key)
{
	json_object *v = ab_json_get(o, key);

	return v && json_object_is_type(v, json_type_string)
		       ? json_object_get_string(v)
		       : NULL;
}

/* The lowercase of @s less a "GFP_" or "__GFP_" prefix: "kernel". */
static void gfp_part(char *buf, size_t len, const char *s)
{
	size_t i;

	if (!strncmp(s, "__GFP_", 6))
		s += 6;
	else if (!strncmp(s, "GFP_", 4))
		s += 4;
	for (i = 0; s[i] && i + 1 < len; i++)
		buf[i] = s[i] >= 'A' && s[i] <= 'Z' ? s[i] - 'A' + 'a' : s[i];
	buf[i] = '\0';
}

/*
 * The identity of alloc row @r (read through lib/resultrow.c, the one
 * model of a saved row; @row its JSON) of a document with parameters
 * @par; its CPU with @cpu_given.
 */
static void row_key(const struct ab_result_row *r, json_object *row,
		    json_object *par, int cpu_given, char *key, size_t len)
{
	const char *cond = str(par, "condition");
	/* the row's own GFP flags (null: none apply), else the document's */
	json_object *g_row;
	const char *gfp = json_object_object_get_ex(row, "gfp", &g_row)
				  ? str(row, "gfp")
				  : str(par, "gfp");
	const char *timing = str(par, "timing");
	char g[48];

	key[0] = '\0';
	add_part(key, len, "%s", r->strategy);
	if (r->sheaves == 0)
		add_part(key, len, "sheaves_off");
	else if (r->sheaves > 0)
		add_part(key, len, "sheaves_%d", r->sheaves);
	if (r->lookup)
		add_part(key, len, "lookup_%s", r->lookup);
	if (cond && strcmp(cond, "quiet"))
		add_part(key, len, "cond_%s", cond);
	if (gfp) {
		gfp_part(g, sizeof(g), gfp);
		if (strcmp(g, "kernel"))
			add_part(key, len, "gfp_%s", g);
	}
	if (timing && strcmp(timing, "batch"))
		add_part(key, len, "timing_%s", timing);
	if (r->free_cpu >= 0)
		add_part(key, len, "freecpu%d", r->free_cpu);
	if (r->order >= 0)
		add_part(key, len, "order%d", r->order);
	else
		add_part(key, len, "%.0fB", r->object_bytes);
	if (r->node < 0)
		add_part(key, len, "nodelocal");
	else
		add_part(key, len, "node%d", r->node);
	/* the CPU --cpu chose (or a sweep's, or a --concurrent group's): a
	 * run on the CPU the CLI happened to start on keys as cpuany */
	if (cpu_given && r->cpu >= 0)
		add_part(key, len, "cpu%d", r->cpu);
	else
		add_part(key, len, "cpuany");
}

/*
 * Whether the rows of @doc were placed on their CPUs by choice: --cpu
 * (parameters.cpu_given), a sweep's CPU nodes, a --concurrent group.
 */
static int cpu_keyed(json_object *doc)
{
	json_object *par = ab_json_get(doc, "parameters");
	const char *cmd = str(doc, "command");

	return json_object_get_boolean(ab_json_get(par, "cpu_given")) ||
	       json_object_get_boolean(ab_json_get(par, "concurrent")) ||
	       (cmd && !strcmp(cmd, "sweep"));
}

/* Row @r's counters ({event, per_op}) under @prefix: no direction. */
static int counters(struct ab_metrics *ms, json_object *r, const char *prefix,
		    int sample, const char *factor)
{
	json_object *c = ab_json_get(r, "counters");
	size_t i, n = c && json_object_is_type(c, json_type_array)
			      ? json_object_array_length(c)
			      : 0;
	int err = 0;

	for (i = 0; i < n && !err; i++) {
		json_object *e = json_object_array_get_idx(c, i);
		const char *ev = str(e, "event");
		char part[AB_METRIC_KEY];
		size_t at = ms->n;

		if (!ev)
			continue;
		err = event_part(ev, part, sizeof(part));
		if (err == -EINVAL) {
			ms->bad_event = ev;
			return -EDOM;
		}
		if (!err)
			err = push(ms, prefix, part, "per_op", "per_op",
				   AB_DIR_NONE, num(e, "per_op"), sample,
				   factor);
		/* the statistic is the event as counted, its key the part */
		if (!err && ms->n > at)
			snprintf(ms->metric[at].stat,
				 sizeof(ms->metric[at].stat), "%s", ev);
	}
	return err;
}

/* Every statistic of alloc row @r as sample @sample. */
static int alloc_row(struct ab_metrics *ms, json_object *r, json_object *par,
		     int ck, int sample, const char *factor)
{
	static const char *const phases[] = { "alloc", "free" };
	char key[AB_METRIC_KEY], pk[AB_METRIC_KEY + 8];
	json_object *succ = ab_json_get(r, "success");
	size_t p, s;
	int err = 0;

	struct ab_result_row rr;

	if (ab_result_row_read(r, &rr))
		return 0;
	row_key(&rr, r, par, ck, key, sizeof(key));
	for (p = 0; p < 2 && !err; p++) {
		json_object *ph = ab_json_get(r, phases[p]);
		json_object *ns = ab_json_get(ph, "ns");

		if (!ph || !ns)
			continue;
		snprintf(pk, sizeof(pk), "%s.%s", key, phases[p]);
		for (s = 0; s < sizeof(ns_stats) / sizeof(ns_stats[0]) && !err;
		     s++)
			err = push(ms, pk, ns_stats[s], "ns", "ns",
				   AB_DIR_LOWER, num(ns, ns_stats[s]), sample,
				   factor);
		if (!err)
			err = push(ms, pk, "median", "cycles", "cycles",
				   AB_DIR_LOWER,
				   num(ab_json_get(ph, "cycles"), "median"),
				   sample, factor);
	}
	/* the success rate says something only where a request can fail */
	if (!err && succ && !isnan(num(r, "failed")) &&
	    ab_result_can_fail(par, r)) {
		size_t at = ms->n;
		double tries = num(succ, "attempts");

		err = push(ms, key, "success", "rate", "fraction",
			   AB_DIR_HIGHER, num(succ, "rate"), sample, factor);
		if (!err && ms->n > at && tries > 0)
			ms->metric[at].failed = num(r, "failed") / tries;
	}
	return err ? err : counters(ms, r, key, sample, factor);
}

/* Lookup row @r: its cycles and ns per lookup. */
static int lookup_row(struct ab_metrics *ms, json_object *r, int sample,
		      const char *factor)
{
	char key[AB_METRIC_KEY] = "";
	struct ab_result_row rr;
	int err;

	if (ab_result_row_read(r, &rr) || !rr.table)
		return 0;
	add_part(key, sizeof(key), "lookup");
	add_part(key, sizeof(key), "%s", rr.strategy);
	add_part(key, sizeof(key), "%s", rr.table);
	add_part(key, sizeof(key), "%s", rr.sizes);
	err = push(ms, key, "median", "cycles", "cycles", AB_DIR_LOWER,
		   num(ab_json_get(r, "cycles"), "median"), sample, factor);
	if (!err)
		err = push(ms, key, "fastest", "cycles", "cycles", AB_DIR_LOWER,
			   num(r, "fastest_cycles"), sample, factor);
	if (!err)
		err = push(ms, key, "median", "ns", "ns", AB_DIR_LOWER,
			   ab_result_row_median(r, "lookup"), sample, factor);
	return err ? err : counters(ms, r, key, sample, factor);
}

/* Every row of result document @doc as sample @sample. */
static int result_rows(struct ab_metrics *ms, json_object *doc, int sample,
		       const char *factor)
{
	json_object *rows = ab_result_rows(doc);
	json_object *par = ab_json_get(doc, "parameters");
	size_t i, n = rows ? json_object_array_length(rows) : 0;
	int err = 0;

	for (i = 0; i < n && !err; i++) {
		json_object *r = json_object_array_get_idx(rows, i);
		const char *const *ph = ab_result_row_phases(r);

		if (ph[0] && !strcmp(ph[0], "lookup"))
			err = lookup_row(ms, r, sample, factor);
		else
			err = alloc_row(ms, r, par, cpu_keyed(doc), sample,
					factor);
	}
	return err;
}

/* The row of @doc labelled @label, or NULL. */
static json_object *row_labelled(json_object *doc, const char *label)
{
	json_object *rows = ab_result_rows(doc);
	size_t i, n = rows ? json_object_array_length(rows) : 0;
	struct ab_result_row rr;

	for (i = 0; label && i < n; i++)
		if (!ab_result_row_read(json_object_array_get_idx(rows, i),
					&rr) &&
		    !strcmp(rr.label, label))
			return rr.row;
	return NULL;
}

/* A compare document: per round, each side's median per phase. */
static int compare_rounds(struct ab_metrics *ms, json_object *doc, char *err,
			  size_t len)
{
	static const char *const side[] = { "a", "b" };
	static const char *const phases[] = { "alloc", "free" };
	json_object *cmp = ab_json_get(doc, "compare");
	json_object *rounds = ab_json_array(cmp, "per_round");
	json_object *par = ab_json_get(doc, "parameters");
	size_t i, n = rounds ? json_object_array_length(rounds) : 0;
	char key[2][AB_METRIC_KEY], pk[2 * AB_METRIC_KEY + 8], field[48];
	struct ab_result_row rr;
	int s, p, ret = 0;

	if (!rounds) {
		snprintf(err, len, "compare.per_round: not an array of rounds");
		return -EBADMSG;
	}
	for (s = 0; s < 2; s++) {
		json_object *r = row_labelled(doc, str(cmp, side[s]));

		if (!r) {
			snprintf(err, len,
				 "compare.%s: no row of that label in results",
				 side[s]);
			return -EINVAL;
		}
		if (ab_result_row_read(r, &rr))
			return -EINVAL;
		row_key(&rr, r, par, cpu_keyed(doc), key[s], sizeof(key[s]));
	}
	if (!strcmp(key[0], key[1])) {
		snprintf(
			err, len,
			"compare: both sides have the identity %s: nothing tells them apart",
			key[0]);
		return -EINVAL;
	}
	for (i = 0; i < n && !ret; i++) {
		json_object *rd = json_object_array_get_idx(rounds, i);

		for (s = 0; s < 2 && !ret; s++)
			for (p = 0; p < 2 && !ret; p++) {
				snprintf(pk, sizeof(pk), "%s.%s", key[s],
					 phases[p]);
				snprintf(field, sizeof(field),
					 "%s_%s_median_ns", side[s], phases[p]);
				ret = push(ms, pk, "median", "ns", "ns",
					   AB_DIR_LOWER, num(rd, field),
					   (int)i + 1, "");
			}
	}
	return ret;
}

/*
 * A vm document's kernels into @ms: each "name", "#N" after a name given
 * before (an A/A run boots one kernel as A and B). 0, or -EBADMSG.
 */
static int vm_kernels(struct ab_metrics *ms, json_object *ks, char *err,
		      size_t len)
{
	int k, j;

	ms->nkernels = (int)json_object_array_length(ks);
	if (ms->nkernels > 4) {
		snprintf(err, len,
			 "kernels: %d of them, a vm document holds 1 to 4",
			 ms->nkernels);
		return -EBADMSG;
	}
	for (k = 0; k < ms->nkernels; k++) {
		const char *name =
			str(json_object_array_get_idx(ks, (size_t)k), "name");

		if (!name || strlen(name) > 255) {
			snprintf(err, len, "kernels[%d].name: %s", k,
				 name ? "longer than 255 characters"
				      : "missing");
			return -EBADMSG;
		}
		snprintf(ms->kernels[k], sizeof(ms->kernels[k]), "%s", name);
		for (j = 0; j < k; j++)
			if (!strcmp(ms->kernels[j], name))
				snprintf(ms->kernels[k], sizeof(ms->kernels[k]),
					 "%s#%d", name, k + 1);
	}
	return 0;
}

/* A vm document: each good boot's result, one sample per boot. */
static int vm_boots(struct ab_metrics *ms, json_object *doc, char *err,
		    size_t len)
{
	json_object *boots = ab_json_array(doc, "boots");
	json_object *ks = ab_json_array(doc, "kernels");
	size_t i, at, n = boots ? json_object_array_length(boots) : 0;
	int good[4] = { 0 }, ret = 0, k, any = 0;

	if (!boots || !ks) {
		snprintf(err, len, "%s: not an array",
			 boots ? "kernels" : "boots");
		return -EBADMSG;
	}
	ret = vm_kernels(ms, ks, err, len);
	if (ret)
		return ret;
	for (k = 0; ms->kernel && k < ms->nkernels; k++)
		if (!strcmp(ms->kernel, ms->kernels[k]))
			break;
	if (ms->kernel && k == ms->nkernels) {
		at = (size_t)snprintf(
			err, len,
			"--kernel=%s: not a kernel of this document (its kernels:",
			ms->kernel);
		for (k = 0; k < ms->nkernels && at < len; k++)
			at += (size_t)snprintf(err + at, len - at, " %s",
					       ms->kernels[k]);
		if (at < len)
			snprintf(err + at, len - at, ")");
		return -EINVAL;
	}
	for (i = 0; i < n && !ret; i++) {
		json_object *b = json_object_array_get_idx(boots, i);
		json_object *res = ab_json_get(b, "result");
		json_object *ki = ab_json_get(b, "kernel_index");
		const char *st = str(b, "status");

		if (!st || strcmp(st, "ok") || !res)
			continue;
		k = json_object_is_type(ki, json_type_int)
			    ? (int)json_object_get_int64(ki)
			    : -1;
		if (k < 0 || k >= ms->nkernels) {
			snprintf(
				err, len,
				"boots[%zu].kernel_index: not the index of one of its %d kernels",
				i, ms->nkernels);
			return -EBADMSG;
		}
		if (ms->kernel && strcmp(ms->kernel, ms->kernels[k]))
			continue;
		any = 1;
		ms->cur_kernel = k;
		ret = result_rows(ms, res, ++good[k], ms->kernels[k]);
		ms->cur_kernel = -1;
	}
	if (!ret && !any) {
		snprintf(
			err, len,
			"a vm document with no good boot: no sample to export");
		return -EINVAL;
	}
	return ret;
}

static int by_identity(const void *a, const void *b)
{
	const struct ab_metric *x = *(const struct ab_metric *const *)a;
	const struct ab_metric *y = *(const struct ab_metric *const *)b;
	int c = strcmp(x->key, y->key);

	if (!c)
		c = strcmp(x->factor, y->factor);
	return c ? c : (x->sample > y->sample) - (x->sample < y->sample);
}

/*
 * Two metrics of the same key, factor and sample: rows of one identity
 * (sorted, so a sweep of thousands of rows is checked at once).
 */
static int duplicate(const struct ab_metrics *ms, char *err, size_t len)
{
	const struct ab_metric **s = malloc(ms->n * sizeof(*s));
	size_t i;
	int ret = 0;

	if (!s) {
		snprintf(err, len, "out of memory");
		return -ENOMEM;
	}
	for (i = 0; i < ms->n; i++)
		s[i] = &ms->metric[i];
	qsort(s, ms->n, sizeof(*s), by_identity);
	for (i = 1; i < ms->n && !ret; i++)
		if (!by_identity(&s[i - 1], &s[i]) &&
		    !strcmp(s[i]->unit, "per_op") &&
		    strcmp(s[i - 1]->stat, s[i]->stat)) {
			snprintf(
				err, len,
				"the events '%.200s' and '%.200s' of one row both key as %s (sample %d): export's key keeps only letters and digits of an event's name (docs/export.md): count one of them",
				s[i - 1]->stat, s[i]->stat, s[i]->key,
				s[i]->sample);
			ret = -EINVAL;
		} else if (!by_identity(&s[i - 1], &s[i])) {
			snprintf(
				err, len,
				"two rows have the identity %s (sample %d): export keys a row by strategy, size or order, node, CPU and setup, and these share all of them",
				s[i]->key, s[i]->sample);
			ret = -EINVAL;
		}
	free(s);
	return ret;
}

int ab_metrics_of(json_object *doc, struct ab_metrics *ms, char *err,
		  size_t len)
{
	const char *schema = str(doc, "schema");
	const char *cmd = str(doc, "command");
	size_t start = ms->n;
	int ret;

	ms->base = ms->samples;
	if (!ms->command[0])
		snprintf(ms->command, sizeof(ms->command), "%s",
			 cmd ? cmd : "");
	else if (!cmd || strcmp(ms->command, cmd)) {
		snprintf(
			err, len,
			"a %s document after a %s one: the samples of one export come from one command",
			cmd ? cmd : "(no command)", ms->command);
		return -EINVAL;
	}
	if (ms->kernel && (!schema || strcmp(schema, "allocbench-vm"))) {
		snprintf(
			err, len,
			"--kernel=%s: only a vm document holds several kernels",
			ms->kernel);
		return -EINVAL;
	}
	ms->cur_kernel = -1;
	if (schema && !strcmp(schema, "allocbench-vm") && ms->base) {
		snprintf(
			err, len,
			"a vm document after another document: its boots are its samples, export it alone");
		return -EINVAL;
	}
	if (schema && !strcmp(schema, "allocbench-vm"))
		ret = vm_boots(ms, doc, err, len);
	else if (!ab_json_get(doc, "results") &&
		 ab_json_get(doc, "comparisons")) {
		snprintf(
			err, len,
			"a comparison of saved files holds ratios of other documents' runs, not samples: export those documents");
		return -EINVAL;
	} else if (ab_json_get(doc, "compare"))
		ret = compare_rounds(ms, doc, err, len);
	else
		ret = result_rows(ms, doc, 1, "");
	if (ret == -ENOMEM)
		snprintf(err, len, "out of memory");
	else if (ret == -E2BIG) {
		snprintf(
			err, len,
			"a metric's key would be longer than %d characters (a label, kernel or event name too long): keys are never cut short, so none is exported",
			AB_METRIC_KEY - 1);
		ret = -EINVAL;
	} else if (ret == -EDOM) {
		snprintf(
			err, len,
			"counters: the event '%.200s' has no letter or digit for its key (docs/export.md: the keys)",
			ms->bad_event);
		ret = -EBADMSG;
	}
	if (!ret && ms->n == start) {
		snprintf(err, len, "no measured figure in the document");
		ret = -EINVAL;
	}
	return ret ? ret : duplicate(ms, err, len);
}
