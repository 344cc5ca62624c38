// SPDX-License-Identifier: GPL-2.0-only
/*
 * plot.c - `allocbench plot RESULT.json -o FILE.svg|FILE.png`: a picture of
 * a saved result, drawn by gnuplot (its script and data go down a pipe):
 *
 *   sweep            median alloc ns/op against object size (log2 axis),
 *                    one line per strategy and CPU node > memory node
 *   run, single-op   log2 histograms of per-op alloc ns, one per strategy
 *   run, reproduce   median alloc and free ns/op per strategy, with the
 *                    95% confidence interval of the median as error bars
 *   compare          A and B per phase, with their intervals
 *   lookup           median cycles per lookup per method and size mix
 */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <popt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "jsonout.h"
#include "allocbench.h"

/*
 * @o[@key] as text fit for a gnuplot script: only letters, digits and
 * " _@>,.:+-/()=" pass, anything else (quotes, newlines, backslashes) is
 * '?', so nothing in a result file can end a string or start a command.
 * Rotates over 8 buffers, enough for one fprintf.
 */
static const char *gstr(json_object *o, const char *key)
{
	static char bufs[8][128];
	static unsigned int next;
	json_object *v = ab_json_get(o, key);
	const char *src = v ? json_object_get_string(v) : "";
	char *d = bufs[next++ % 8];
	size_t i;

	for (i = 0; src[i] && i < sizeof(bufs[0]) - 1; i++)
		d[i] = (isalnum((unsigned char)src[i]) ||
			strchr(" _@>,.:+-/()=", src[i]))
			       ? src[i]
			       : '?';
	d[i] = '\0';
	return d;
}

/* The series of a sweep cell: its label without the size. */
static void series_of(const char *label, char *buf, size_t len)
{
	const char *sp = strchr(label, ' '),
		   *sp2 = sp ? strchr(sp + 1, ' ') : NULL;

	if (sp && sp2)
		snprintf(buf, len, "%.*s%s", (int)(sp - label), label, sp2);
	else
		snprintf(buf, len, "%s", label);
}

static void plot_sweep(FILE *g, json_object *results)
{
	char series[64][80], key[80];
	size_t i, n = json_object_array_length(results);
	int s, ns = 0;

	for (i = 0; i < n; i++) {
		series_of(gstr(json_object_array_get_idx(results, i), "label"),
			  key, sizeof(key));
		for (s = 0; s < ns && strcmp(series[s], key); s++)
			;
		if (s == ns && ns < 64)
			snprintf(series[ns++], sizeof(series[0]), "%s", key);
	}
	fprintf(g, "set title 'allocbench sweep: median alloc ns/op'\n"
		   "set xlabel 'object size, bytes'\nset ylabel 'ns/op (net)'\n"
		   "set logscale x 2\nset key outside right\n");
	for (s = 0; s < ns; s++) {
		fprintf(g, "$s%d << EOD\n", s);
		for (i = 0; i < n; i++) {
			json_object *r = json_object_array_get_idx(results, i);

			series_of(gstr(r, "label"), key, sizeof(key));
			if (!strcmp(key, series[s]))
				fprintf(g, "%.0f %g\n",
					ab_json_double(
						ab_json_get(r, "object_bytes")),
					ab_json_double(ab_json_get(
						ab_json_get(
							ab_json_get(r, "alloc"),
							"ns"),
						"median")));
		}
		fprintf(g, "EOD\n");
	}
	fprintf(g, "plot ");
	for (s = 0; s < ns; s++)
		fprintf(g, "%s$s%d using 1:2 with linespoints title '%s'",
			s ? ", " : "", s, series[s]);
	fprintf(g, "\n");
}

static void plot_histograms(FILE *g, json_object *results)
{
	size_t i, k, n = json_object_array_length(results);
	double prev;

	fprintf(g,
		"set title 'allocbench: per-op alloc ns, log2 buckets'\n"
		"set xlabel 'ns/op (net, bucket start)'\nset ylabel 'operations'\n"
		"set logscale x 2\nset style fill transparent solid 0.4\n"
		"set key outside right\n");
	for (i = 0; i < n; i++) {
		json_object *h = ab_json_array(
			ab_json_get(json_object_array_get_idx(results, i),
				    "alloc"),
			"histogram");

		fprintf(g, "$h%zu << EOD\n", i);
		/*
		 * "steps" holds each level from its x to the next point's:
		 * one point per bucket start, a zero where buckets are
		 * missing, and one at the end of the last bucket.
		 */
		for (k = 0, prev = NAN; h && k < json_object_array_length(h);
		     k++) {
			json_object *b = json_object_array_get_idx(h, k);
			double lo = ab_json_double(ab_json_get(b, "lo_ns")),
			       hi = ab_json_double(ab_json_get(b, "hi_ns"));

			lo = lo > 0 ? lo : 0.5;
			if (!isnan(prev) && prev < lo)
				fprintf(g, "%g 0\n", prev);
			fprintf(g, "%g %g\n", lo,
				ab_json_double(ab_json_get(b, "count")));
			prev = isnan(hi) ? 2 * lo : hi;
		}
		if (!isnan(prev))
			fprintf(g, "%g 0\n", prev);
		fprintf(g, "EOD\n");
	}
	fprintf(g, "plot ");
	for (i = 0; i < n; i++)
		fprintf(g, "%s$h%zu using 1:2 with steps lw 2 title '%s'",
			i ? ", " : "", i,
			gstr(json_object_array_get_idx(results, i), "label"));
	fprintf(g, "\n");
}

/* Bars: one row per (label, value, CI low, CI high, color index). */
static void bars_begin(FILE *g, const char *title, const char *ylabel)
{
	fprintf(g,
		"set title '%s'\nset ylabel '%s'\nset style fill solid 0.6\n"
		"set boxwidth 0.8\nset xtics rotate by -30\nset key off\n"
		"set yrange [0:*]\n$bars << EOD\n",
		title, ylabel);
}

static void bars_end(FILE *g)
{
	fprintf(g,
		"EOD\nplot $bars using 0:2:xtic(1) with boxes lc rgb '#4477aa', "
		"'' using 0:2:3:4 with yerrorbars lc black pt 0\n");
}

static double ci_end(json_object *ci, size_t i, double dflt)
{
	double v = ci ? ab_json_double(json_object_array_get_idx(ci, i)) : NAN;

	return isnan(v) ? dflt : v;
}

static void bar(FILE *g, const char *label, json_object *stats)
{
	json_object *ci = ab_json_array(stats, "ci95_median");
	double med = ab_json_double(ab_json_get(stats, "median"));

	if (isnan(med))
		med = 0;
	fprintf(g, "\"%s\" %g %g %g\n", label, med, ci_end(ci, 0, med),
		ci_end(ci, 1, med));
}

static void plot_medians(FILE *g, json_object *results, const char *title)
{
	char label[160];
	size_t i, n = json_object_array_length(results);

	bars_begin(g, title, "ns/op (net), 95% CI of the median");
	for (i = 0; i < n; i++) {
		json_object *r = json_object_array_get_idx(results, i);

		if (strcmp(gstr(r, "kind"), "alloc"))
			continue;
		snprintf(label, sizeof(label), "%s alloc", gstr(r, "label"));
		bar(g, label, ab_json_get(ab_json_get(r, "alloc"), "ns"));
		if (ab_json_get(r, "free") &&
		    ab_json_get(ab_json_get(r, "free"), "ns")) {
			snprintf(label, sizeof(label), "%s free",
				 gstr(r, "label"));
			bar(g, label,
			    ab_json_get(ab_json_get(r, "free"), "ns"));
		}
	}
	bars_end(g);
}

static void plot_lookup(FILE *g, json_object *results)
{
	char label[200];
	size_t i, n = json_object_array_length(results);

	bars_begin(g, "allocbench lookup: cycles per lookup (net of none)",
		   "cycles, 95% CI of the median");
	for (i = 0; i < n; i++) {
		json_object *r = json_object_array_get_idx(results, i);

		if (!strcmp(gstr(r, "method"), "none"))
			continue;
		snprintf(label, sizeof(label), "%s, %s", gstr(r, "method"),
			 gstr(r, "sizes"));
		bar(g, label, ab_json_get(r, "cycles"));
	}
	bars_end(g);
}

int cmd_plot(int argc, const char **argv)
{
	const char *out = NULL, *in = NULL, *rest[64], *ext, *cmd;
	struct poptOption opts[] = {
		{ "output", 'o', POPT_ARG_STRING, &out, 0,
		  "the picture to write: FILE.svg or FILE.png", "FILE" },
		POPT_AUTOHELP POPT_TABLEEND
	};
	json_object *root, *results;
	int i, n = 0, ret;
	FILE *g;

	for (i = 0; i < argc && n < 63; i++) {
		if (i && argv[i][0] != '-' && !in &&
		    (i < 1 || (strcmp(argv[i - 1], "-o") &&
			       strcmp(argv[i - 1], "--output"))))
			in = argv[i];
		else
			rest[n++] = argv[i];
	}
	rest[n] = NULL;
	ret = ab_popt_parse("plot", n, rest, opts);
	if (ret)
		return ret;
	if (!in || !out) {
		ab_err("plot: usage: allocbench plot RESULT.json -o FILE.svg|FILE.png");
		return AB_EXIT_USAGE;
	}
	ext = strrchr(out, '.');
	if (!ext || (strcmp(ext, ".svg") && strcmp(ext, ".png"))) {
		ab_err("plot: -o %s: the picture must end in .svg or .png",
		       out);
		return AB_EXIT_USAGE;
	}
	root = json_object_from_file(in);
	results = root ? ab_json_array(root, "results") : NULL;
	if (!root || strcmp(gstr(root, "schema"), "allocbench-result") ||
	    !results) {
		ab_err("plot: %s: not an allocbench result with results (save one with --json -o FILE)",
		       in);
		json_object_put(root);
		return AB_EXIT_USAGE;
	}
	if (system("command -v gnuplot >/dev/null 2>&1")) {
		ab_err("plot: gnuplot not found: install it (apt-get install gnuplot-nox)");
		json_object_put(root);
		return AB_EXIT_BACKEND;
	}
	g = popen("gnuplot", "w");
	if (!g) {
		ab_err("plot: cannot start gnuplot: %s", strerror(errno));
		json_object_put(root);
		return AB_EXIT_RUN;
	}
	fprintf(g, "set terminal %s size 1000,600\nset output '%s'\nset grid\n",
		strcmp(ext, ".svg") ? "pngcairo" : "svg", out);
	cmd = gstr(root, "command");
	if (!strcmp(cmd, "sweep"))
		plot_sweep(g, results);
	else if (!strcmp(cmd, "lookup") ||
		 !strcmp(cmd, "reproduce 2002-lookup"))
		plot_lookup(g, results);
	else if (!strcmp(gstr(ab_json_get(root, "parameters"), "timing"),
			 "single"))
		plot_histograms(g, results);
	else
		plot_medians(
			g, results,
			ab_json_get(root, "compare")
				? "allocbench compare: A and B, median ns/op"
				: "allocbench: median ns/op per strategy");
	json_object_put(root);
	if (pclose(g)) {
		ab_err("plot: gnuplot failed drawing %s", out);
		return AB_EXIT_RUN;
	}
	return AB_EXIT_OK;
}
