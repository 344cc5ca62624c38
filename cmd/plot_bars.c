// SPDX-License-Identifier: GPL-2.0-only
/*
 * plot_bars.c - the pictures of `allocbench plot` with one bar per row,
 * drawn across so that every label is read level and whole (the left
 * margin and the picture's width and height are computed from the labels
 * and their number):
 *
 *   run, reproduce   median alloc and free ns/op per strategy
 *   lookup           median cycles per lookup per method and size mix
 *   compare          B / A per phase (`compare --alloc=A,B`: its rounds'
 *                    ratio and interval) or per strategy and phase (of
 *                    saved files)
 *   vm               B / A per kernel, row and phase, against the first;
 *                    with --profile the differential profile instead: B - A
 *                    instructions per op per function, diverging from 0
 *
 * Medians and cycles come with the 95% confidence interval of the median
 * as error bars, on a log axis when they span more than a factor 10 (a
 * linear one from 0 otherwise). A ratio B / A is drawn on a log axis
 * centred on 1: as far from 1 for x2 as for x0.5, the range symmetric
 * around 1 in log space, a dashed line at 1 (no change), each bar from 1
 * to its ratio.
 */
#define _GNU_SOURCE /* asprintf */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "jsonout.h"
#include "plot.h"
#include "textout.h"

/* One bar: its value and interval (NAN: none). */
struct hbar {
	double v, lo, hi;
};

/**
 * struct hchart - the bars of a picture, top to bottom
 * @t:    their labels
 * @b:    their values, @t.n of them
 * @left: rows a log axis cannot draw (a value at or below 0), left out
 */
struct hchart {
	struct titles t;
	struct hbar *b;
	size_t left;
};

/* Adds a bar; a value that is not there (NAN) is no bar. */
static void hchart_add(struct hchart *c, const char *label, double v, double lo,
		       double hi)
{
	struct hbar *b;

	if (isnan(v))
		return;
	b = realloc(c->b, (c->t.n + 1) * sizeof(*b));
	if (!b)
		return;
	c->b = b;
	if (title_add(&c->t, label))
		c->b[c->t.n - 1] = (struct hbar){ v, lo, hi };
}

static double ci_end(json_object *ci, size_t i)
{
	return ci ? ab_json_double(json_object_array_get_idx(ci, i)) : NAN;
}

/* A bar labelled "@a@b" (@b may be "") from the statistics @stats. */
static void hchart_stats(struct hchart *c, const char *a, const char *b,
			 json_object *stats)
{
	json_object *ci = ab_json_array(stats, "ci95_median");
	char *label;

	if (!stats || asprintf(&label, "%s%s", a, b) < 0)
		return;
	hchart_add(c, label, ab_json_double(ab_json_get(stats, "median")),
		   ci_end(ci, 0), ci_end(ci, 1));
	free(label);
}

/* Candidates for the tics of a ratio axis, above 1 (their inverses below). */
static const double ratio_tics[] = { 1.01, 1.02, 1.05, 1.1,  1.15, 1.2,
				     1.3,  1.5,	 2,    3,    5,	   10,
				     20,   50,	 100,  1000, 1e4 };

/*
 * The axis of the ratios: log scale, [1 / m, m] with m the farthest
 * value or interval end from 1 (as a factor) and some room, tics at
 * factors r and 1 / r for a few round r between 1 and m (their labels
 * are numbers: safe as the formats "set xtics" takes them for).
 */
static void ratio_axis(FILE *g, const struct hchart *c)
{
	size_t i, k, nt = sizeof(ratio_tics) / sizeof(ratio_tics[0]);
	double m = 1.1, x[3], f, r, last = 1;
	char lab[32];

	for (i = 0; i < c->t.n; i++) {
		x[0] = c->b[i].v;
		x[1] = c->b[i].lo;
		x[2] = c->b[i].hi;
		for (k = 0; k < 3; k++)
			if (x[k] > 0) {
				f = x[k] >= 1 ? x[k] : 1 / x[k];
				if (f > m)
					m = f;
			}
	}
	m = exp(log(m) * 1.12);
	fprintf(g,
		"set logscale x 10\nset xrange [%.6g:%.6g]\nset xtics (\"1\" 1",
		1 / m, m);
	/*
	 * tics a side, each at least a fifth of the half axis (in log
	 * space) beyond the one before, so that no two labels run together
	 */
	for (k = 0; k < nt && ratio_tics[k] < m; k++) {
		r = ratio_tics[k];
		if (log(r) - log(last) < 0.2 * log(m))
			continue;
		/* labels whole from 1000 on (ab_sig_text), not 1e+03 */
		fprintf(g, ", \"%s\" %.6g, \"%.3g\" %.6g",
			ab_sig_text(r, lab, sizeof(lab)), r, 1 / r, 1 / r);
		last = r;
	}
	fprintf(g,
		")\nset mxtics default\n"
		"set arrow 1 from first 1, graph 0 to first 1, graph 1 nohead dt 2 lw 2 lc rgb '#444444' front\n");
}

/* A values' axis: log when all are above 0 and span a factor over 10. */
static int values_axis(FILE *g, const struct hchart *c)
{
	double lo = INFINITY, hi = -INFINITY, x[3];
	size_t i, k;

	for (i = 0; i < c->t.n; i++) {
		x[0] = c->b[i].v;
		x[1] = c->b[i].lo;
		x[2] = c->b[i].hi;
		for (k = 0; k < 3; k++)
			if (!isnan(x[k])) {
				lo = x[k] < lo ? x[k] : lo;
				hi = x[k] > hi ? x[k] : hi;
			}
	}
	if (lo > 0 && hi / lo > 10) {
		fprintf(g,
			"set logscale x 10\nset format x \"%%g\"\n"
			"set xrange [%.6g:%.6g]\n",
			lo / 1.5, hi * 1.5);
		return 1;
	}
	fprintf(g, "set xrange [%.6g:%.6g]\n", lo < 0 ? lo * 1.1 : 0,
		hi > 0 ? hi * 1.1 : 1);
	return 0;
}

/* A differences' axis: linear, symmetric around 0, a dashed line at 0. */
static void delta_axis(FILE *g, const struct hchart *c)
{
	double m = 0;
	size_t i;

	for (i = 0; i < c->t.n; i++)
		if (fabs(c->b[i].v) > m)
			m = fabs(c->b[i].v);
	m = m > 0 ? m * 1.15 : 1;
	fprintf(g, "set xrange [%.6g:%.6g]\n", -m, m);
	fprintf(g,
		"set arrow 1 from first 0, graph 0 to first 0, graph 1 nohead dt 2 lw 2 lc rgb '#444444' front\n");
}

/*
 * Writes the chart @c (freed) with @title and @sub (may be NULL) above
 * and @xlabel below; @ratio: 1 for B / A on the axis centred on 1, 2 for
 * B - A on a linear axis centred on 0 (bars diverging from it). Returns
 * how many bars it draws.
 */
static size_t hchart_draw(FILE *g, struct hchart *c, int png, const char *title,
			  const char *sub, const char *xlabel, int ratio)
{
	size_t i, n = c->t.n, drawn = 0, tw;
	int logx = ratio == 1, w, h, lm, with_ci = 0;
	double base;

	for (i = 0; i < n; i++)
		if (logx && !(c->b[i].v > 0))
			c->left++;
	/* the label column, then ~600 px of bars; the title fits whole */
	lm = (int)c->t.width + 3;
	w = lm * PLOT_CHAR_PX + 620;
	tw = plot_chars(title);
	if (sub && plot_chars(sub) > tw)
		tw = plot_chars(sub);
	if (w < (int)tw * PLOT_CHAR_PX + 40)
		w = (int)tw * PLOT_CHAR_PX + 40;
	h = 150 + 26 * (int)(n ? n : 1) + (sub ? 20 : 0);
	plot_terminal(g, png, w, h < 320 ? 320 : h);
	fprintf(g,
		"set datafile missing \"-\"\nset lmargin %d\nset rmargin 4\n"
		"set key off\nset grid noytics\nset style fill solid 0.6 border -1\n",
		lm);
	fprintf(g, "set title ");
	gp_str(g, title);
	if (sub) {
		fprintf(g, " . \"\\n\" . ");
		gp_str(g, sub);
	}
	fprintf(g, "\n");
	gp_printf(g, "set xlabel %q\n", xlabel);
	if (ratio == 1)
		ratio_axis(g, c);
	else if (ratio == 2)
		delta_axis(g, c);
	else
		logx = values_axis(g, c);
	/* the labels through ytic(), which takes them as they are (the
	 * labels of "set ytics (...)" are formats: a '%' in one is an error) */
	fprintf(g, "set yrange [0.4:%zu.6]\nset ytics nomirror scale 0\n", n);
	titles_emit(g, &c->t);
	if (c->left) {
		char *txt;

		if (asprintf(
			    &txt,
			    "%zu row%s at or below 0 left out: a log axis has no 0",
			    c->left, c->left > 1 ? "s" : "") < 0)
			txt = NULL;
		gp_printf(g,
			  "set label 1 %q at screen 0.01, screen 0.02 front\n",
			  txt ? txt : "");
		free(txt);
	}
	/* y, value, CI low, CI high, bar from, bar to */
	base = ratio == 1 ? 1 : 0;
	fprintf(g, "$bars << EOD\n");
	for (i = 0; i < n; i++) {
		struct hbar *b = &c->b[i];
		double from = b->v < base ? b->v : base,
		       to = b->v < base ? base : b->v;

		if (logx && !(b->v > 0))
			continue;
		/* on a log axis without 1 in it, a bar starts at the axis */
		if (logx && !ratio) {
			from = 0;
			to = b->v;
		}
		fprintf(g, "%zu %.6g", n - i, b->v);
		if (!isnan(b->lo) && !isnan(b->hi) && (!logx || b->lo > 0)) {
			fprintf(g, " %.6g %.6g", b->lo, b->hi);
			with_ci = 1;
		} else
			fprintf(g, " - -");
		fprintf(g, " %.6g %.6g\n", from, to);
		drawn++;
	}
	fprintf(g, "EOD\n");
	if (logx && !ratio)
		/* no bar on a log axis without a 0: a point with its interval
		 */
		fprintf(g,
			"plot $bars using 2:1:ytic(T[%zu - int($1)]) with points pt 7 ps 1.2 lc rgb '#4477aa'",
			n + 1);
	else
		fprintf(g,
			"plot $bars using 2:1:5:6:($1 - 0.3):($1 + 0.3) with boxxyerror lc rgb '#4477aa', "
			"'' using 2:1:ytic(T[%zu - int($1)]) with points pt 7 ps 0.8 lc rgb 'black'",
			n + 1);
	/* the intervals, where there are any (gnuplot warns of an empty set) */
	if (with_ci)
		fprintf(g,
			", '' using 2:1:3:4 with xerrorbars pt 7 ps %s lc rgb '%s'",
			logx && !ratio ? "1.2" : "0.8",
			logx && !ratio ? "#4477aa" : "black");
	fprintf(g, "\n");
	free(c->b);
	c->b = NULL;
	return drawn;
}

size_t plot_medians(FILE *g, json_object *root, int png)
{
	json_object *results = ab_json_array(root, "results");
	size_t i, n = json_object_array_length(results);
	struct hchart c = { { NULL, 0, 0 }, NULL, 0 };
	char *title;
	size_t drawn;

	for (i = 0; i < n; i++) {
		json_object *r = json_object_array_get_idx(results, i);
		json_object *f = ab_json_get(ab_json_get(r, "free"), "ns");

		if (strcmp(plot_text(r, "kind"), "alloc"))
			continue;
		hchart_stats(&c, plot_text(r, "label"), " alloc",
			     ab_json_get(ab_json_get(r, "alloc"), "ns"));
		if (f)
			hchart_stats(&c, plot_text(r, "label"), " free", f);
	}
	if (asprintf(
		    &title,
		    "allocbench %s: median ns/op per strategy, 95%% CI of the median",
		    plot_text(root, "command")) < 0)
		title = NULL;
	drawn = hchart_draw(g, &c, png, title ? title : "allocbench", NULL,
			    "ns/op (net; the none row raw)", 0);
	free(title);
	return drawn;
}

size_t plot_lookup(FILE *g, json_object *root, int png)
{
	json_object *results = ab_json_array(root, "results");
	size_t i, n = json_object_array_length(results);
	struct hchart c = { { NULL, 0, 0 }, NULL, 0 };
	char *label;

	for (i = 0; i < n; i++) {
		json_object *r = json_object_array_get_idx(results, i);

		if (strcmp(plot_text(r, "kind"), "lookup") ||
		    !strcmp(plot_text(r, "method"), "none"))
			continue;
		if (asprintf(&label, "%s, ", plot_text(r, "method")) < 0)
			continue;
		hchart_stats(&c, label, plot_text(r, "sizes"),
			     ab_json_get(r, "cycles"));
		free(label);
	}
	return hchart_draw(
		g, &c, png,
		"allocbench lookup: cycles per lookup (net of none), 95% CI of the median",
		NULL, "cycles", 0);
}

/*
 * vm --profile: each row's differential profile, B - A instructions per
 * op per function (the first AB_PLOT_PD_TOP of a row, then the rest
 * together and the residue, so a row's bars add up to its B - A), a bar
 * diverging from 0 each. 0 when no row has one.
 */
#define AB_PLOT_PD_TOP 8
static size_t plot_vm_profile(FILE *g, json_object *root, int png)
{
	json_object *cmps = ab_json_array(root, "comparisons");
	struct hchart c = { { NULL, 0, 0 }, NULL, 0 };
	size_t i, j, k;
	char *label, *title;
	size_t drawn;

	for (i = 0; cmps && i < json_object_array_length(cmps); i++) {
		json_object *cm = json_object_array_get_idx(cmps, i);
		json_object *rows = ab_json_array(cm, "rows");

		for (j = 0; rows && j < json_object_array_length(rows); j++) {
			json_object *r = json_object_array_get_idx(rows, j);
			json_object *pd = ab_json_get(r, "profile_diff");
			json_object *fns = ab_json_array(pd, "functions");
			size_t n = fns ? json_object_array_length(fns) : 0;
			double rest =
				ab_json_double(
					ab_json_get(pd, "unlisted_delta")) +
				ab_json_double(ab_json_get(pd, "other_delta"));

			if (!pd)
				continue;
			if (asprintf(&label, "%s: %s: B - A in all",
				     plot_text(cm, "b"),
				     plot_text(r, "label")) >= 0) {
				hchart_add(&c, label,
					   ab_json_double(
						   ab_json_get(pd, "delta")),
					   NAN, NAN);
				free(label);
			}
			for (k = 0; k < n; k++) {
				json_object *e =
					json_object_array_get_idx(fns, k);
				const char *found = plot_text(e, "found");

				if (k >= AB_PLOT_PD_TOP) {
					rest += ab_json_double(
						ab_json_get(e, "delta"));
					continue;
				}
				if (asprintf(&label, "%s: %s: %s%s%s%s",
					     plot_text(cm, "b"),
					     plot_text(r, "label"),
					     plot_text(e, "function"),
					     strcmp(found, "both") ? " (" : "",
					     strcmp(found, "both") ? found : "",
					     strcmp(found, "both") ? ")" : "") <
				    0)
					continue;
				hchart_add(
					&c, label,
					ab_json_double(ab_json_get(e, "delta")),
					NAN, NAN);
				free(label);
			}
			if (asprintf(&label, "%s: %s: (the other functions)",
				     plot_text(cm, "b"),
				     plot_text(r, "label")) >= 0) {
				hchart_add(&c, label, rest, NAN, NAN);
				free(label);
			}
			if (asprintf(&label,
				     "%s: %s: (residue: the none baseline)",
				     plot_text(cm, "b"),
				     plot_text(r, "label")) >= 0) {
				hchart_add(&c, label,
					   ab_json_double(
						   ab_json_get(pd, "residue")),
					   NAN, NAN);
				free(label);
			}
		}
	}
	if (!c.t.n)
		return 0;
	if (asprintf(
		    &title,
		    "allocbench vm --profile: B - A instructions per op by function, A = %s",
		    plot_text(json_object_array_get_idx(cmps, 0), "a")) < 0)
		title = NULL;
	drawn = hchart_draw(
		g, &c, png, title ? title : "allocbench vm --profile",
		"means over the boots; a row's bars below its first add up to it",
		"B - A, instructions per op (0: no change)", 2);
	free(title);
	return drawn;
}

size_t plot_vm(FILE *g, json_object *root, int png)
{
	json_object *cmps = ab_json_array(root, "comparisons");
	struct hchart c = { { NULL, 0, 0 }, NULL, 0 };
	size_t i, j, drawn;
	char *label, *title;

	/* vm --profile: the differential profile is the picture */
	drawn = plot_vm_profile(g, root, png);
	if (drawn)
		return drawn;
	for (i = 0; cmps && i < json_object_array_length(cmps); i++) {
		json_object *cm = json_object_array_get_idx(cmps, i);
		json_object *rows = ab_json_array(cm, "rows");

		for (j = 0; rows && j < json_object_array_length(rows); j++) {
			json_object *r = json_object_array_get_idx(rows, j);
			json_object *ci = ab_json_array(r, "ci95");

			/* drawn with its interval, or not at all */
			if (isnan(ci_end(ci, 0)) || isnan(ci_end(ci, 1)))
				continue;
			/* every kernel is against the same A (the title) */
			if (asprintf(&label, "%s: %s %s", plot_text(cm, "b"),
				     plot_text(r, "label"),
				     plot_text(r, "phase")) < 0)
				continue;
			hchart_add(&c, label,
				   ab_json_double(ab_json_get(r, "ratio")),
				   ci_end(ci, 0), ci_end(ci, 1));
			free(label);
		}
	}
	if (asprintf(&title,
		     "allocbench vm: B / A, each kernel B against A = %s",
		     plot_text(json_object_array_get_idx(cmps, 0), "a")) < 0)
		title = NULL;
	drawn = hchart_draw(
		g, &c, png, title ? title : "allocbench vm",
		"the boots' median ns/op, 95% CI; rows that could not be tested left out",
		"B / A, log scale (1: no change)", 1);
	free(title);
	return drawn;
}

/* The bars of one compare's phases, each labelled "@prefix@phase: ...". */
static void compare_phases(struct hchart *c, json_object *cmp,
			   const char *prefix, int *no_ci)
{
	json_object *ph = ab_json_array(cmp, "phases");
	size_t i;
	char *label, a[32], b[32];

	for (i = 0; ph && i < json_object_array_length(ph); i++) {
		json_object *p = json_object_array_get_idx(ph, i);
		double lo = ab_json_double(ab_json_get(p, "ratio_ci_lo")),
		       hi = ab_json_double(ab_json_get(p, "ratio_ci_hi"));

		ab_sig_text(ab_json_double(ab_json_get(p, "a_median_ns")), a,
			    sizeof(a));
		ab_sig_text(ab_json_double(ab_json_get(p, "b_median_ns")), b,
			    sizeof(b));
		if (asprintf(&label, "%s%s (A %s, B %s ns)", prefix,
			     plot_text(p, "phase"), a, b) < 0)
			continue;
		*no_ci |= isnan(lo) || isnan(hi);
		hchart_add(c, label, ab_json_double(ab_json_get(p, "ratio")),
			   lo, hi);
		free(label);
	}
}

size_t plot_compare(FILE *g, json_object *root, int png)
{
	json_object *one = ab_json_get(root, "compare"),
		    *cmps = ab_json_array(root, "comparisons");
	struct hchart c = { { NULL, 0, 0 }, NULL, 0 };
	char *title = NULL, *sub = NULL, *prefix;
	int no_ci = 0;
	size_t i, drawn;

	if (one) {
		compare_phases(&c, one, "", &no_ci);
		if (asprintf(&title,
			     "allocbench compare: B / A, B = %s, A = %s",
			     plot_text(one, "b"), plot_text(one, "a")) < 0)
			title = NULL;
		if (asprintf(
			    &sub,
			    "median of %.0f rounds' ratios, its %.1f%% CI (Wilcoxon)",
			    ab_json_double(ab_json_get(one, "rounds")),
			    100 * ab_json_double(ab_json_get(
					  json_object_array_get_idx(
						  ab_json_array(one, "phases"),
						  0),
					  "ci_level"))) < 0)
			sub = NULL;
	} else {
		for (i = 0; cmps && i < json_object_array_length(cmps); i++) {
			json_object *cm = json_object_array_get_idx(cmps, i);
			const char *a = plot_text(cm, "a"),
				   *b = plot_text(cm, "b");

			if (!strcmp(a, b)
				    ? asprintf(&prefix, "%s ", a) < 0
				    : asprintf(&prefix, "%s / %s ", b, a) < 0)
				continue;
			compare_phases(&c, cm, prefix, &no_ci);
			free(prefix);
		}
		title = strdup(
			"allocbench compare: B / A, the new saved result (B) against the old (A)");
		sub = strdup(
			no_ci ? "median ns/op of each; no interval where the comparison has none"
			      : "median ns/op of each, the comparison's interval");
	}
	drawn = hchart_draw(g, &c, png, title ? title : "allocbench compare",
			    sub, "B / A, log scale (1: no change)", 1);
	free(title);
	free(sub);
	return drawn;
}

/* "comparisons[I].phases[J].KEY: what is wrong" into @err. */
static int bad(char *err, size_t len, size_t i, long j, const char *key,
	       const char *what)
{
	if (j < 0)
		snprintf(err, len, "comparisons[%zu].%s: %s", i, key, what);
	else
		snprintf(err, len, "comparisons[%zu].phases[%ld].%s: %s", i, j,
			 key, what);
	return -EINVAL;
}

/* The number @key of @o: finite, or null when @null; -1 when wrong. */
static int num_ok(json_object *o, const char *key, int null)
{
	json_object *v;

	if (!json_object_object_get_ex(o, key, &v))
		return null;
	if (json_object_is_type(v, json_type_null))
		return null;
	return (json_object_is_type(v, json_type_double) ||
		json_object_is_type(v, json_type_int)) &&
	       isfinite(json_object_get_double(v));
}

int plot_check_comparisons(json_object *root, char *err, size_t len)
{
	static const char *const nums[] = { "ratio", "a_median_ns",
					    "b_median_ns" };
	static const char *const opt[] = { "ratio_ci_lo", "ratio_ci_hi" };
	json_object *cmps = ab_json_array(root, "comparisons");
	size_t i, j, k;

	if (!cmps) {
		snprintf(err, len, "comparisons: missing or not an array");
		return -EINVAL;
	}
	if (json_object_get_int(ab_json_get(root, "schema_version")) != 1) {
		snprintf(err, len,
			 "schema_version: this allocbench reads version 1");
		return -EINVAL;
	}
	for (i = 0; i < json_object_array_length(cmps); i++) {
		json_object *cm = json_object_array_get_idx(cmps, i);
		json_object *ph = ab_json_array(cm, "phases");

		if (!json_object_is_type(ab_json_get(cm, "a"),
					 json_type_string))
			return bad(err, len, i, -1, "a", "not a string");
		if (!json_object_is_type(ab_json_get(cm, "b"),
					 json_type_string))
			return bad(err, len, i, -1, "b", "not a string");
		if (!ph)
			return bad(err, len, i, -1, "phases",
				   "missing or not an array");
		for (j = 0; j < json_object_array_length(ph); j++) {
			json_object *p = json_object_array_get_idx(ph, j);

			if (!json_object_is_type(ab_json_get(p, "phase"),
						 json_type_string))
				return bad(err, len, i, (long)j, "phase",
					   "not a string");
			for (k = 0; k < 3; k++)
				if (num_ok(p, nums[k], 1) != 1)
					return bad(err, len, i, (long)j,
						   nums[k],
						   "not a finite number");
			for (k = 0; k < 2; k++)
				if (num_ok(p, opt[k], 1) != 1)
					return bad(err, len, i, (long)j, opt[k],
						   "not a finite number");
		}
	}
	return 0;
}
