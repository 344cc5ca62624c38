// SPDX-License-Identifier: GPL-2.0-only
/*
 * plot_sweep.c - the pictures of `allocbench plot` drawn against a size:
 *
 *   sweep            median ns/op against object size, both axes in log
 *                    scale, the 95% confidence interval of each median as
 *                    a band; alloc and free in two panels, one line per
 *                    strategy and node pair; the CPUs and nodes, kernel
 *                    and CPU model in the title
 *   run, single-op   log2 histograms of per-op alloc ns, one per strategy
 */
#define _GNU_SOURCE /* asprintf */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "jsonout.h"
#include "parse.h"
#include "plot.h"
#include "resultrow.h"

/* "n0" -> "node 0", "n0>n1" -> "CPU node 0, memory node 1" (malloc'ed). */
static char *nodes_text(const char *nodes)
{
	int cpu, mem, used = 0;
	char *s = NULL;

	if (sscanf(nodes, "n%d>n%d%n", &cpu, &mem, &used) == 2 &&
	    !nodes[used]) {
		if (asprintf(&s, "CPU node %d, memory node %d", cpu, mem) < 0)
			s = NULL;
	} else if (sscanf(nodes, "n%d%n", &cpu, &used) == 1 && !nodes[used]) {
		if (asprintf(&s, "node %d", cpu) < 0)
			s = NULL;
	} else {
		s = strdup(nodes);
	}
	return s;
}

/* Most lines in a sweep's picture, and most sizes named on its x axis. */
#define MAX_SERIES 64
#define MAX_XTICS  12

/* One point of a series: the result row and its size. */
struct pt {
	json_object *r;
	double size;
};

static int pt_cmp(const void *a, const void *b)
{
	double x = ((const struct pt *)a)->size,
	       y = ((const struct pt *)b)->size;

	return (x > y) - (x < y);
}

/*
 * The datablock $PS (P: 'a' alloc, 'f' free) of one series: size,
 * median, CI low, CI high; "-" (missing) for what a log axis cannot draw
 * (a median or an interval end at or below 0) or what is not there.
 * Returns how many medians it holds; *@left counts those left out, and
 * @yr[0..1] widens to what it draws.
 */
static size_t series_block(FILE *g, char p, size_t s, const struct pt *v,
			   size_t n, size_t *left, double *yr)
{
	size_t i, drawn = 0;

	fprintf(g, "$%c%zu << EOD\n", p, s);
	for (i = 0; i < n; i++) {
		json_object *st = ab_json_get(
			ab_json_get(v[i].r, p == 'a' ? "alloc" : "free"), "ns");
		json_object *ci = ab_json_array(st, "ci95_median");
		double med = ab_json_double(ab_json_get(st, "median")),
		       lo = ci ? ab_json_double(
					 json_object_array_get_idx(ci, 0))
			       : NAN,
		       hi = ci ? ab_json_double(
					 json_object_array_get_idx(ci, 1))
			       : NAN;

		if (!st || isnan(med))
			continue;
		if (!(med > 0)) {
			++*left;
			continue;
		}
		fprintf(g, "%.0f %.6g", v[i].size, med);
		yr[0] = med < yr[0] ? med : yr[0];
		yr[1] = med > yr[1] ? med : yr[1];
		if (lo > 0 && hi > 0) {
			fprintf(g, " %.6g %.6g\n", lo, hi);
			yr[0] = lo < yr[0] ? lo : yr[0];
			yr[1] = hi > yr[1] ? hi : yr[1];
		} else
			fprintf(g, " - -\n");
		drawn++;
	}
	fprintf(g, "EOD\n");
	return drawn;
}

/* The x tics: the sizes swept, as "8", "2K", "1M" (at most MAX_XTICS). */
static void size_tics(FILE *g, const double *sz, size_t n)
{
	size_t i, step = (n + MAX_XTICS - 1) / MAX_XTICS;
	char buf[32];

	fprintf(g, "set xtics (");
	for (i = 0; i < n; i += step ? step : 1) {
		ab_format_size((uint64_t)sz[i], buf, sizeof(buf));
		fprintf(g, "%s", i ? ", " : "");
		gp_str(g, buf);
		fprintf(g, " %.0f", sz[i]);
	}
	fprintf(g, ")\nset mxtics default\n");
}

static int dbl_cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/*
 * The second line of the title: what every series shares (CPUs, nodes),
 * the kernel and the CPU model, trials and batch (malloc'ed).
 */
static char *sweep_subtitle(json_object *root, json_object *results,
			    const char *nodes)
{
	json_object *env = ab_json_get(root, "environment"),
		    *r0 = json_object_array_get_idx(results, 0);
	char cpus[128] = "", *s = NULL, *nt = nodes ? nodes_text(nodes) : NULL;
	size_t i, n = json_object_array_length(results), used = 0, k = 0;
	long seen[16];

	for (i = 0; i < n && k < 16; i++) {
		long c = (long)ab_json_double(ab_json_get(
			json_object_array_get_idx(results, i), "cpu_start"));
		size_t j;

		for (j = 0; j < k && seen[j] != c; j++)
			;
		if (j == k && used < sizeof(cpus)) {
			seen[k++] = c;
			used += (size_t)snprintf(cpus + used,
						 sizeof(cpus) - used, "%s%ld",
						 k > 1 ? ", " : "", c);
		}
	}
	if (asprintf(&s,
		     "CPU%s %s%s%s, kernel %s, %s, %.0f trials of %.0f objects",
		     k > 1 ? "s" : "", cpus, nt ? ", " : "", nt ? nt : "",
		     plot_text(env, "kernel_release"),
		     plot_text(env, "cpu_model"),
		     ab_json_double(ab_json_get(r0, "trials")),
		     ab_json_double(ab_json_get(r0, "batch"))) < 0)
		s = NULL;
	free(nt);
	return s;
}

/*
 * The y tics of a log axis over [@lo, @hi]: 1, 2 and 5 times the powers
 * of 10 when it spans less than two decades (the powers alone may be one
 * or none there), gnuplot's own (the powers) otherwise.
 */
static void log_tics(FILE *g, double lo, double hi)
{
	static const double m[] = { 1, 2, 5 };
	const char *sep = "(";
	double p, v;
	size_t k;

	if (!(lo > 0) || hi / lo >= 100) {
		fprintf(g, "set ytics auto\n");
		return;
	}
	fprintf(g, "set ytics ");
	for (p = pow(10, floor(log10(lo))); p <= hi; p *= 10)
		for (k = 0; k < 3; k++) {
			v = m[k] * p;
			if (v >= lo && v <= hi) {
				fprintf(g, "%s%.6g", sep, v);
				sep = ", ";
			}
		}
	fprintf(g, "%s\n", *sep == '(' ? "auto" : ")");
}

/*
 * One panel: its y range (what it draws, and some room: a factor 1.5 on
 * either side), the bands, then the lines over them.
 */
static void sweep_panel(FILE *g, char p, size_t ns, const size_t *drawn,
			const double *yr)
{
	const char *sep = "plot ";
	size_t s;

	if (yr[0] <= yr[1]) {
		fprintf(g, "set yrange [%.6g:%.6g]\n", yr[0] / 1.5,
			yr[1] * 1.5);
		log_tics(g, yr[0] / 1.5, yr[1] * 1.5);
	}

	for (s = 1; s <= ns; s++)
		if (drawn[s - 1]) {
			fprintf(g,
				"%s$%c%zu using 1:3:4 with filledcurves lc %zu notitle",
				sep, p, s, s);
			sep = ", ";
		}
	for (s = 1; s <= ns; s++)
		if (drawn[s - 1])
			fprintf(g,
				", $%c%zu using 1:2 with linespoints lc %zu lw 2 pt 7 ps 0.8 title T[%zu]",
				p, s, s, s);
	fprintf(g, "\n");
}

size_t plot_sweep(FILE *g, json_object *root, int png)
{
	json_object *results = ab_json_array(root, "results");
	size_t i, s, n = json_object_array_length(results), nsz = 0, np = 0;
	size_t drawn[2][MAX_SERIES] = { { 0 } }, left = 0, any[2] = { 0, 0 };
	double yr[2][2] = { { INFINITY, -INFINITY }, { INFINITY, -INFINITY } };
	struct titles t = { NULL, 0, 0 }, legend = { NULL, 0, 0 };
	struct pt *pts = calloc(n ? n : 1, sizeof(*pts));
	double *sz = calloc(n ? n : 1, sizeof(*sz));
	/* each series' node word (struct ab_result_row's nodes) */
	char nodes_v[MAX_SERIES][sizeof(((struct ab_result_row *)0)->nodes)];
	const char *nodes = NULL;
	char *sub = NULL, *txt;
	int same = 1, panels, h, w;
	struct ab_result_row m;

	if (!pts || !sz)
		goto out;
	for (i = 0; i < n; i++) {
		json_object *r = json_object_array_get_idx(results, i);

		if (strcmp(plot_text(r, "kind"), "alloc") ||
		    ab_result_row_read(r, &m))
			continue;
		if (!title_find(&t, m.series) && t.n < MAX_SERIES &&
		    title_add(&t, m.series)) {
			snprintf(nodes_v[t.n - 1], sizeof(nodes_v[0]), "%s",
				 m.nodes);
			if (!nodes)
				nodes = nodes_v[t.n - 1];
			same &= !strcmp(nodes, m.nodes);
		}
		sz[nsz++] = m.size;
	}
	if (!t.n)
		goto out;
	qsort(sz, nsz, sizeof(*sz), dbl_cmp);
	for (i = 1, np = nsz ? 1 : 0; i < nsz; i++)
		if (sz[i] != sz[np - 1])
			sz[np++] = sz[i];
	nsz = np;
	/* the legend: the strategy alone when every line has the same nodes */
	for (s = 0; s < t.n; s++) {
		const char *nd = nodes_v[s];
		char *nt = nodes_text(nd);
		/* the series is "STRATEGY NODES": the strategy's length */
		int sl = (int)(strlen(t.v[s]) - strlen(nd)) - (*nd ? 1 : 0);

		if (same && *nd)
			txt = strndup(t.v[s], (size_t)sl);
		else if (asprintf(&txt, "%.*s, %s", sl, t.v[s], nt ? nt : nd) <
			 0)
			txt = NULL;
		title_add(&legend, txt ? txt : t.v[s]);
		free(txt);
		free(nt);
	}
	sub = sweep_subtitle(root, results,
			     same && nodes && *nodes ? nodes : NULL);
	for (i = 0; i < n; i++) {
		json_object *r = json_object_array_get_idx(results, i);

		/* a free panel when it has something to draw */
		any[1] |= !strcmp(plot_text(r, "kind"), "alloc") &&
			  ab_json_double(ab_json_get(
				  ab_json_get(ab_json_get(r, "free"), "ns"),
				  "median")) > 0;
	}
	panels = any[1] ? 2 : 1;
	/* the legend's width in characters: its sample line, then the text */
	w = 740 + (int)(legend.width + 12) * PLOT_CHAR_PX;
	if (sub && w < (int)plot_chars(sub) * PLOT_CHAR_PX + 40)
		w = (int)plot_chars(sub) * PLOT_CHAR_PX + 40;
	h = 100 + 420 * panels;
	plot_terminal(g, png, w, h);
	for (s = 1; s <= t.n; s++) {
		np = 0;
		for (i = 0; i < n; i++) {
			json_object *r = json_object_array_get_idx(results, i);

			if (strcmp(plot_text(r, "kind"), "alloc") ||
			    ab_result_row_read(r, &m))
				continue;
			if (title_find(&t, m.series) == s) {
				pts[np].r = r;
				pts[np++].size = m.size;
			}
		}
		qsort(pts, np, sizeof(*pts), pt_cmp);
		drawn[0][s - 1] =
			series_block(g, 'a', s, pts, np, &left, yr[0]);
		drawn[1][s - 1] =
			any[1] ? series_block(g, 'f', s, pts, np, &left, yr[1])
			       : 0;
		any[0] += drawn[0][s - 1] + drawn[1][s - 1];
	}
	if (!any[0])
		goto out;
	np = t.n;
	titles_free(&t);
	fprintf(g, "set rmargin %zu\n", legend.width + 12);
	titles_emit(g, &legend);
	fprintf(g,
		"set datafile missing \"-\"\n"
		"set logscale x 2\nset logscale y 10\nset format y \"%%g\"\n");
	fprintf(g, "set xrange [%g:%g]\n", sz[0] / 1.4, sz[nsz - 1] * 1.4);
	gp_printf(g, "set xlabel %q\n",
		  "object size asked for, bytes (log scale)");
	size_tics(g, sz, nsz);
	fprintf(g, "set style fill transparent solid 0.2 noborder\n"
		   "set lmargin 12\n"
		   "set key outside right top Left reverse samplen 3\n");
	fprintf(g, "set multiplot layout %d,1 title ", panels);
	gp_str(g,
	       "allocbench sweep: median ns/op (net), the band its 95% confidence interval");
	fprintf(g, " . \"\\n\" . ");
	gp_str(g, sub ? sub : "");
	fprintf(g, "\n");
	if (left) {
		if (asprintf(
			    &txt,
			    "%zu median%s at or below 0 ns/op left out: a log axis has no 0",
			    left, left > 1 ? "s" : "") < 0)
			txt = NULL;
		gp_printf(g,
			  "set label 1 %q at screen 0.01, screen 0.985 front\n",
			  txt ? txt : "");
		free(txt);
	}
	gp_printf(g, "set title %q\n", "alloc");
	gp_printf(g, "set ylabel %q\n", "ns/op (net), log scale");
	sweep_panel(g, 'a', np, drawn[0], yr[0]);
	if (panels == 2) {
		gp_printf(g, "set title %q\n", "free");
		sweep_panel(g, 'f', np, drawn[1], yr[1]);
	}
	fprintf(g, "unset multiplot\n");
	n = np;
	goto done;
out:
	n = 0;
done:
	titles_free(&t);
	titles_free(&legend);
	free(sub);
	free(pts);
	free(sz);
	return n;
}

size_t plot_histograms(FILE *g, json_object *root, int png)
{
	json_object *results = ab_json_array(root, "results");
	size_t i, k, n = json_object_array_length(results);
	struct titles t = { NULL, 0, 0 };
	double prev, xr[2] = { INFINITY, 0 };
	char *body = NULL;
	size_t blen = 0;
	FILE *d = open_memstream(&body, &blen);

	if (!d)
		return 0;
	for (i = 0; i < n; i++) {
		json_object *r = json_object_array_get_idx(results, i);
		json_object *h =
			ab_json_array(ab_json_get(r, "alloc"), "histogram");

		if (!title_add(&t, plot_text(r, "label")))
			break;
		fprintf(d, "$h%zu << EOD\n", t.n);
		/*
		 * "steps" holds each level from its x to the next point's:
		 * one point per bucket start, a zero before the first and
		 * where buckets are missing, and one at the end of the last.
		 */
		for (k = 0, prev = NAN; h && k < json_object_array_length(h);
		     k++) {
			json_object *b = json_object_array_get_idx(h, k);
			double lo = ab_json_double(ab_json_get(b, "lo_ns")),
			       hi = ab_json_double(ab_json_get(b, "hi_ns"));

			lo = lo > 0 ? lo : 0.5;
			xr[0] = lo < xr[0] ? lo : xr[0];
			/* the first bucket rises from 0 at its start */
			if (isnan(prev))
				fprintf(d, "%g 0\n", lo);
			else if (prev < lo)
				fprintf(d, "%g 0\n", prev);
			fprintf(d, "%g %g\n", lo,
				ab_json_double(ab_json_get(b, "count")));
			prev = isnan(hi) ? 2 * lo : hi;
		}
		if (!isnan(prev)) {
			fprintf(d, "%g 0\n", prev);
			xr[1] = prev > xr[1] ? prev : xr[1];
		}
		fprintf(d, "EOD\n");
	}
	if (fclose(d)) {
		free(body);
		titles_free(&t);
		return 0;
	}
	plot_terminal(g, png, 740 + (int)(t.width + 12) * PLOT_CHAR_PX, 600);
	fwrite(body, 1, blen, g);
	free(body);
	gp_printf(g, "set title %q\n",
		  "allocbench: per-op alloc ns, log2 buckets");
	gp_printf(g, "set xlabel %q\n", "ns/op (net, bucket start), log scale");
	gp_printf(g, "set ylabel %q\n", "operations");
	/* room on either side: no step stands on the frame */
	if (xr[0] < xr[1])
		fprintf(g, "set xrange [%g:%g]\n", xr[0] / 1.5, xr[1] * 1.5);
	fprintf(g,
		"set logscale x 10\nset format x \"%%.0f\"\n"
		"set style fill transparent solid 0.4\n"
		"set lmargin 12\nset rmargin %zu\n"
		"set key outside right top Left reverse\n",
		t.width + 12);
	n = t.n;
	titles_emit(g, &t);
	fprintf(g, "plot ");
	for (i = 1; i <= n; i++)
		fprintf(g, "%s$h%zu using 1:2 with steps lw 2 title T[%zu]",
			i > 1 ? ", " : "", i, i);
	fprintf(g, "\n");
	return n;
}
