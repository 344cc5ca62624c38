// SPDX-License-Identifier: GPL-2.0-only
/*
 * plot_orders.c - the picture of `allocbench plot` for a sweep of page
 * orders under a memory condition (sweep --orders=0-10 --condition=...):
 *
 *   top     the alloc latency against the order: median, p99 and max of
 *           each series (one colour a series, one dash a statistic), ns
 *           on a log axis; per call with --timing=single, per trial's
 *           mean with batch timing (the subtitle says which)
 *   bottom  the success rate of each allocation call against the order,
 *           in %, with its 95% Wilson interval as error bars
 *
 * The title names the condition, the GFP mode, the CPUs and nodes, the
 * kernel and the trials. A series is a strategy and its nodes (struct
 * ab_result_row's series); the x axis is the order (0 = one page).
 */
#define _GNU_SOURCE /* asprintf */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "jsonout.h"
#include "plot.h"
#include "resultrow.h"

#define MAX_SERIES 32

/* The statistics drawn in the top panel, each a dash type. */
static const struct {
	const char *key; /* in the phase's "ns" */
	const char *name;
	int dash;
} stats[] = {
	{ "median", "p50", 1 },
	{ "p99", "p99", 2 },
	{ "max", "max", 3 },
};

#define NSTATS (sizeof(stats) / sizeof(stats[0]))

/* One point: a row and its order. */
struct opt {
	json_object *r;
	int order;
};

static int opt_cmp(const void *a, const void *b)
{
	return ((const struct opt *)a)->order - ((const struct opt *)b)->order;
}

int plot_is_order_sweep(json_object *root)
{
	json_object *rows = ab_result_rows(root);
	json_object *par = ab_json_get(root, "parameters");
	size_t i, n = rows ? json_object_array_length(rows) : 0, alloc = 0;
	struct ab_result_row m;

	if (strcmp(plot_text(root, "command"), "sweep"))
		return 0;
	for (i = 0; i < n; i++) {
		if (ab_result_row_read(json_object_array_get_idx(rows, i),
				       &m) ||
		    strcmp(m.kind, "alloc"))
			continue;
		if (m.order < 0)
			return 0;
		alloc++;
	}
	return alloc && (strcmp(plot_text(par, "condition"), "quiet") ||
			 !strcmp(plot_text(par, "timing"), "single"));
}

/*
 * The datablocks of series @s: $L<s>_<k> (order, statistic k in ns; "-"
 * where a log axis cannot draw it) and $S<s> (order, success %, Wilson
 * low, high). @yr widens to the latencies drawn. Returns the points with
 * a success rate.
 */
static size_t series_blocks(FILE *g, size_t s, const struct opt *v, size_t n,
			    double *yr)
{
	size_t i, k, rated = 0;

	for (k = 0; k < NSTATS; k++) {
		fprintf(g, "$L%zu_%zu << EOD\n", s, k);
		for (i = 0; i < n; i++) {
			double x = ab_json_double(ab_json_get(
				ab_json_get(ab_json_get(v[i].r, "alloc"), "ns"),
				stats[k].key));

			if (!(x > 0)) {
				fprintf(g, "%d -\n", v[i].order);
				continue;
			}
			fprintf(g, "%d %.6g\n", v[i].order, x);
			yr[0] = x < yr[0] ? x : yr[0];
			yr[1] = x > yr[1] ? x : yr[1];
		}
		fprintf(g, "EOD\n");
	}
	fprintf(g, "$S%zu << EOD\n", s);
	for (i = 0; i < n; i++) {
		json_object *su = ab_json_get(v[i].r, "success");
		json_object *ci = ab_json_array(su, "wilson95");
		double rate = ab_json_double(ab_json_get(su, "rate"));

		if (isnan(rate) || !ci)
			continue;
		fprintf(g, "%d %.6g %.6g %.6g\n", v[i].order, 100 * rate,
			100 * ab_json_double(json_object_array_get_idx(ci, 0)),
			100 * ab_json_double(json_object_array_get_idx(ci, 1)));
		rated++;
	}
	fprintf(g, "EOD\n");
	return rated;
}

/* The title's second line (malloc'ed). */
static char *subtitle(json_object *root, json_object *r0)
{
	json_object *par = ab_json_get(root, "parameters");
	json_object *env = ab_json_get(root, "environment");
	int single = !strcmp(plot_text(par, "timing"), "single");
	char *s;

	if (asprintf(
		    &s,
		    "condition %s, %s, kernel %s, %.0f trials of %.0f objects; latency %s",
		    plot_text(par, "condition"), plot_text(par, "gfp"),
		    plot_text(env, "kernel_release"),
		    ab_json_double(ab_json_get(r0, "trials")),
		    ab_json_double(ab_json_get(r0, "batch")),
		    single ? "per call (single timing)"
			   : "per trial's mean (batch timing)") < 0)
		s = NULL;
	return s;
}

size_t plot_orders(FILE *g, json_object *root, int png)
{
	json_object *rows = ab_result_rows(root);
	size_t i, k, s, n = rows ? json_object_array_length(rows) : 0, np;
	struct titles t = { NULL, 0, 0 }, legend = { NULL, 0, 0 };
	struct opt *pts = calloc(n ? n : 1, sizeof(*pts));
	double yr[2] = { INFINITY, -INFINITY };
	size_t rated[MAX_SERIES] = { 0 };
	int lo = 64, hi = -1, w;
	const char *sep;
	char *sub = NULL;
	struct ab_result_row m;

	if (!pts)
		return 0;
	for (i = 0; i < n; i++)
		if (!ab_result_row_read(json_object_array_get_idx(rows, i),
					&m) &&
		    !strcmp(m.kind, "alloc") && m.order >= 0 &&
		    !title_find(&t, m.series) && t.n < MAX_SERIES)
			title_add(&t, m.series);
	if (!t.n) {
		free(pts);
		return 0;
	}
	/* the legend: T[1..series] the series (success), then each series'
	 * statistics in the order drawn (latency) */
	for (s = 0; s < t.n; s++)
		title_add(&legend, t.v[s]);
	for (s = 0; s < t.n; s++)
		for (k = 0; k < NSTATS; k++) {
			char *txt;

			if (asprintf(&txt, "%s %s", t.v[s], stats[k].name) < 0)
				txt = NULL;
			title_add(&legend, txt ? txt : t.v[s]);
			free(txt);
		}
	w = 760 + (int)(legend.width + 12) * PLOT_CHAR_PX;
	plot_terminal(g, png, w, 940);
	for (s = 0; s < t.n; s++) {
		np = 0;
		for (i = 0; i < n; i++) {
			json_object *r = json_object_array_get_idx(rows, i);

			if (ab_result_row_read(r, &m) ||
			    strcmp(m.kind, "alloc") || m.order < 0 ||
			    title_find(&t, m.series) != s + 1)
				continue;
			pts[np].r = r;
			pts[np++].order = m.order;
			lo = m.order < lo ? m.order : lo;
			hi = m.order > hi ? m.order : hi;
		}
		qsort(pts, np, sizeof(*pts), opt_cmp);
		if (!s)
			sub = subtitle(root, pts[0].r);
		rated[s] = series_blocks(g, s + 1, pts, np, yr);
	}
	fprintf(g, "set rmargin %zu\n", legend.width + 12);
	titles_emit(g, &legend);
	fprintf(g, "set datafile missing \"-\"\nset lmargin 12\n"
		   "set key outside right top Left reverse samplen 3\n");
	fprintf(g, "set xrange [%g:%g]\nset xtics 1\n", lo - 0.5, hi + 0.5);
	gp_printf(g, "set xlabel %q\n",
		  "page order (2^order pages per allocation)");
	fprintf(g, "set multiplot layout 2,1 title ");
	gp_str(g,
	       "allocbench sweep: alloc latency and success against the page order");
	fprintf(g, " . \"\\n\" . ");
	gp_str(g, sub ? sub : "");
	fprintf(g, "\n");
	gp_printf(g, "set title %q\n", "alloc latency");
	gp_printf(g, "set ylabel %q\n", "ns (net), log scale");
	fprintf(g, "set logscale y 10\nset format y \"%%g\"\n");
	if (yr[0] <= yr[1])
		fprintf(g, "set yrange [%.6g:%.6g]\n", yr[0] / 1.5,
			yr[1] * 1.5);
	sep = "plot ";
	for (s = 0; s < t.n; s++)
		for (k = 0; k < NSTATS; k++) {
			fprintf(g,
				"%s$L%zu_%zu using 1:2 with linespoints lc %zu dt %d lw 2 pt 7 ps 0.8 title T[%zu]",
				sep, s + 1, k, s + 1, stats[k].dash,
				t.n + s * NSTATS + k + 1);
			sep = ", ";
		}
	fprintf(g, "\nunset logscale y\nset yrange [-5:105]\nset ytics auto\n");
	gp_printf(g, "set title %q\n",
		  "success per allocation call, with its 95% Wilson interval");
	gp_printf(g, "set ylabel %q\n", "%");
	sep = "plot ";
	for (s = 0; s < t.n; s++)
		if (rated[s]) {
			fprintf(g,
				"%s$S%zu using 1:2:3:4 with yerrorlines lc %zu lw 2 pt 7 ps 0.8 title T[%zu]",
				sep, s + 1, s + 1, s + 1);
			sep = ", ";
		}
	if (*sep == 'p')
		fprintf(g, "NaN notitle");
	fprintf(g, "\nunset multiplot\n");
	np = t.n;
	titles_free(&t);
	free(sub);
	free(pts);
	return np;
}
