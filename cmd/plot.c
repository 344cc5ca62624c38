// SPDX-License-Identifier: GPL-2.0-only
/*
 * plot.c - `allocbench plot RESULT.json -o FILE.svg|FILE.png`: a picture of
 * a saved result, drawn by gnuplot:
 *
 *   sweep            median alloc ns/op against object size (log2 axis),
 *                    one line per strategy and CPU node > memory node
 *   run, single-op   log2 histograms of per-op alloc ns, one per strategy
 *   run, reproduce   median alloc and free ns/op per strategy, with the
 *                    95% confidence interval of the median as error bars
 *   compare          A and B per phase, with their intervals
 *   lookup           median cycles per lookup per method and size mix
 *
 * What reaches gnuplot is data, never script text made of names: the
 * picture is written to a file allocbench opens itself and hands to
 * gnuplot as its standard output (the name of the picture never reaches
 * gnuplot), the script goes down a pipe to gnuplot's standard input, and
 * every text in the script is a string constant made of octal escapes
 * (gp_str()).
 */
#define _GNU_SOURCE /* asprintf, pipe2 */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <popt.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "allocbench.h"
#include "jsonin.h"
#include "jsonout.h"
#include "textout.h"
#include "vmab.h"

extern char **environ;

/*
 * @s as a gnuplot string constant: '"', then one octal escape "\ooo" per
 * byte, then '"'. Every text of the script (titles, axis labels, and the
 * labels, strategy names and file names read from the result) goes
 * through here, which makes it data whatever it holds: the script line
 * holds nothing but '"', '\' and octal digits for it, so no byte of the
 * text can end the string, start a command, or be a backquote (gnuplot's
 * command substitution, done on the raw line, even inside double quotes)
 * or an '@' (a macro); gnuplot turns the escapes back into the bytes when
 * it reads the constant, and never parses a string's value as a command.
 * Bytes that are not UTF-8, and control characters (which SVG cannot
 * hold), are drawn as U+FFFD.
 */
static void gp_str(FILE *g, const char *s)
{
	const char *bad;
	size_t n;

	fputc('"', g);
	while (*s) {
		n = ab_utf8_seq(s);
		if (!n || (unsigned char)*s < 0x20 || *s == 0x7f) {
			for (bad = AB_UTF8_REPLACEMENT; *bad; bad++)
				fprintf(g, "\\%03o", (unsigned char)*bad);
			s += n ? n : 1;
			continue;
		}
		while (n--)
			fprintf(g, "\\%03o", (unsigned char)*s++);
	}
	fputc('"', g);
}

/* Writes @fmt as it is, but for each "%q": @text, through gp_str(). */
static void gp_printf(FILE *g, const char *fmt, const char *text)
{
	const char *q = strstr(fmt, "%q");

	fwrite(fmt, 1, q ? (size_t)(q - fmt) : strlen(fmt), g);
	if (q) {
		gp_str(g, text);
		gp_printf(g, q + 2, text);
	}
}

/* The string member @key of @o ("" when it is absent). */
static const char *text_of(json_object *o, const char *key)
{
	json_object *v = ab_json_get(o, key);

	return json_object_is_type(v, json_type_string)
		       ? json_object_get_string(v)
		       : "";
}

/**
 * struct titles - the texts of a picture's series or bars, numbered from 1
 * as the gnuplot array T[] the script defines from them
 * @v: the texts, malloc'ed
 * @n: how many
 */
struct titles {
	char **v;
	size_t n;
};

/* Adds a copy of @s; returns its index from 1 (0 when out of memory). */
static size_t title_add(struct titles *t, const char *s)
{
	char **v = realloc(t->v, (t->n + 1) * sizeof(*v));

	if (!v)
		return 0;
	t->v = v;
	t->v[t->n] = strdup(s);
	return t->v[t->n] ? ++t->n : 0;
}

/* Index from 1 of @s in @t, or 0. */
static size_t title_find(const struct titles *t, const char *s)
{
	size_t i;

	for (i = 0; i < t->n; i++)
		if (!strcmp(t->v[i], s))
			return i + 1;
	return 0;
}

/* Defines "array T[n]" and each T[i] in the script; frees the texts. */
static void titles_emit(FILE *g, struct titles *t)
{
	size_t i;

	fprintf(g, "array T[%zu]\n", t->n);
	for (i = 0; i < t->n; i++) {
		fprintf(g, "T[%zu] = ", i + 1);
		gp_str(g, t->v[i]);
		fputc('\n', g);
		free(t->v[i]);
	}
	free(t->v);
	t->v = NULL;
	t->n = 0;
}

/* The series of a sweep cell: its label without the size (malloc'ed). */
static char *series_of(const char *label)
{
	const char *sp = strchr(label, ' '),
		   *sp2 = sp ? strchr(sp + 1, ' ') : NULL;
	char *s = NULL;

	if (sp && sp2) {
		if (asprintf(&s, "%.*s%s", (int)(sp - label), label, sp2) < 0)
			s = NULL;
	} else {
		s = strdup(label);
	}
	return s;
}

/* Most lines in a sweep's picture. */
#define MAX_SERIES 64

/* Each function below writes a picture's script; returns what it draws. */
static size_t plot_sweep(FILE *g, json_object *results)
{
	size_t i, s, n = json_object_array_length(results);
	struct titles t = { NULL, 0 };
	char *key;

	for (i = 0; i < n; i++) {
		key = series_of(text_of(json_object_array_get_idx(results, i),
					"label"));
		if (key && !title_find(&t, key) && t.n < MAX_SERIES)
			title_add(&t, key);
		free(key);
	}
	gp_printf(g, "set title %q\n", "allocbench sweep: median alloc ns/op");
	gp_printf(g, "set xlabel %q\n", "object size, bytes");
	gp_printf(g, "set ylabel %q\n", "ns/op (net)");
	fprintf(g, "set logscale x 2\nset key outside right\n");
	for (s = 1; s <= t.n; s++) {
		fprintf(g, "$s%zu << EOD\n", s);
		for (i = 0; i < n; i++) {
			json_object *r = json_object_array_get_idx(results, i);

			key = series_of(text_of(r, "label"));
			if (key && title_find(&t, key) == s)
				fprintf(g, "%.0f %g\n",
					ab_json_double(
						ab_json_get(r, "object_bytes")),
					ab_json_double(ab_json_get(
						ab_json_get(
							ab_json_get(r, "alloc"),
							"ns"),
						"median")));
			free(key);
		}
		fprintf(g, "EOD\n");
	}
	n = t.n;
	titles_emit(g, &t);
	fprintf(g, "plot ");
	for (s = 1; s <= n; s++)
		fprintf(g, "%s$s%zu using 1:2 with linespoints title T[%zu]",
			s > 1 ? ", " : "", s, s);
	fprintf(g, "\n");
	return n;
}

static size_t plot_histograms(FILE *g, json_object *results)
{
	size_t i, k, n = json_object_array_length(results);
	struct titles t = { NULL, 0 };
	double prev;

	gp_printf(g, "set title %q\n",
		  "allocbench: per-op alloc ns, log2 buckets");
	gp_printf(g, "set xlabel %q\n", "ns/op (net, bucket start)");
	gp_printf(g, "set ylabel %q\n", "operations");
	fprintf(g, "set logscale x 2\nset style fill transparent solid 0.4\n"
		   "set key outside right\n");
	for (i = 0; i < n; i++) {
		json_object *r = json_object_array_get_idx(results, i);
		json_object *h =
			ab_json_array(ab_json_get(r, "alloc"), "histogram");

		if (!title_add(&t, text_of(r, "label")))
			break;
		fprintf(g, "$h%zu << EOD\n", t.n);
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
	n = t.n;
	titles_emit(g, &t);
	fprintf(g, "plot ");
	for (i = 1; i <= n; i++)
		fprintf(g, "%s$h%zu using 1:2 with steps lw 2 title T[%zu]",
			i > 1 ? ", " : "", i, i);
	fprintf(g, "\n");
	return n;
}

/*
 * Bars: a row (value, CI low, CI high) in $bars per bar, its label in
 * T[] (xtic() takes a tic label as it is, never as a format).
 */
static void bars_begin(FILE *g, const char *title, const char *ylabel)
{
	gp_printf(g, "set title %q\n", title);
	gp_printf(g, "set ylabel %q\n", ylabel);
	fprintf(g, "set style fill solid 0.6\nset boxwidth 0.8\n"
		   "set xtics rotate by -30\nset key off\nset yrange [0:*]\n"
		   "$bars << EOD\n");
}

static size_t bars_end(FILE *g, struct titles *t)
{
	size_t n = t->n;

	fprintf(g, "EOD\n");
	titles_emit(g, t);
	fprintf(g,
		"plot $bars using 0:1:xtic(T[int($0) + 1]) with boxes lc rgb '#4477aa', "
		"'' using 0:1:2:3 with yerrorbars lc black pt 0\n");
	return n;
}

static double ci_end(json_object *ci, size_t i, double dflt)
{
	double v = ci ? ab_json_double(json_object_array_get_idx(ci, i)) : NAN;

	return isnan(v) ? dflt : v;
}

/* One bar labelled "@a@b" (@b may be ""). */
static void bar(FILE *g, struct titles *t, const char *a, const char *b,
		json_object *stats)
{
	json_object *ci = ab_json_array(stats, "ci95_median");
	double med = ab_json_double(ab_json_get(stats, "median"));
	char *label;

	if (asprintf(&label, "%s%s", a, b) < 0)
		return;
	if (title_add(t, label)) {
		if (isnan(med))
			med = 0;
		fprintf(g, "%g %g %g\n", med, ci_end(ci, 0, med),
			ci_end(ci, 1, med));
	}
	free(label);
}

static size_t plot_medians(FILE *g, json_object *results, const char *title)
{
	size_t i, n = json_object_array_length(results);
	struct titles t = { NULL, 0 };

	bars_begin(g, title, "ns/op (net), 95% CI of the median");
	for (i = 0; i < n; i++) {
		json_object *r = json_object_array_get_idx(results, i);
		json_object *f = ab_json_get(ab_json_get(r, "free"), "ns");

		if (strcmp(text_of(r, "kind"), "alloc"))
			continue;
		bar(g, &t, text_of(r, "label"), " alloc",
		    ab_json_get(ab_json_get(r, "alloc"), "ns"));
		if (f)
			bar(g, &t, text_of(r, "label"), " free", f);
	}
	return bars_end(g, &t);
}

static size_t plot_lookup(FILE *g, json_object *results)
{
	size_t i, n = json_object_array_length(results);
	struct titles t = { NULL, 0 };
	char *label;

	bars_begin(g, "allocbench lookup: cycles per lookup (net of none)",
		   "cycles, 95% CI of the median");
	for (i = 0; i < n; i++) {
		json_object *r = json_object_array_get_idx(results, i);

		if (strcmp(text_of(r, "kind"), "lookup") ||
		    !strcmp(text_of(r, "method"), "none"))
			continue;
		if (asprintf(&label, "%s, ", text_of(r, "method")) < 0)
			continue;
		bar(g, &t, label, text_of(r, "sizes"),
		    ab_json_get(r, "cycles"));
		free(label);
	}
	return bars_end(g, &t);
}

/* allocbench vm: each kernel against A, B / A per row and phase. */
static size_t plot_vm(FILE *g, json_object *root)
{
	json_object *cmps = ab_json_array(root, "comparisons");
	struct titles t = { NULL, 0 };
	size_t i, j;
	char *label, title[256];

	/* the line of no change */
	fprintf(g,
		"set arrow from graph 0, first 1 to graph 1, first 1 nohead dt 2\n");
	snprintf(
		title, sizeof(title),
		"allocbench vm: each kernel / %s, boots' median ns/op, 95%% CI",
		text_of(json_object_array_get_idx(cmps, 0), "a"));
	bars_begin(g, title, "B / A (1: no change)");
	for (i = 0; cmps && i < json_object_array_length(cmps); i++) {
		json_object *c = json_object_array_get_idx(cmps, i);
		json_object *rows = ab_json_array(c, "rows");

		for (j = 0; rows && j < json_object_array_length(rows); j++) {
			json_object *r = json_object_array_get_idx(rows, j);
			json_object *ci = ab_json_array(r, "ci95");
			double ratio = ab_json_double(ab_json_get(r, "ratio"));

			/* drawn with its interval, or not at all */
			if (isnan(ratio) || isnan(ci_end(ci, 0, NAN)))
				continue;
			/* every kernel is against the same A (the y label) */
			if (asprintf(&label, "%s: %s %s", text_of(c, "b"),
				     text_of(r, "label"),
				     text_of(r, "phase")) < 0)
				continue;
			if (title_add(&t, label))
				fprintf(g, "%g %g %g\n", ratio,
					ci_end(ci, 0, ratio),
					ci_end(ci, 1, ratio));
			free(label);
		}
	}
	return bars_end(g, &t);
}

/*
 * The whole script for @root into a malloc'ed string (*@len bytes); NULL
 * when the result holds nothing this picture draws.
 */
static char *script(json_object *root, int png, size_t *len)
{
	json_object *results = ab_json_get(root, "results");
	const char *cmd = text_of(root, "command");
	char *buf = NULL;
	size_t drawn;
	FILE *g = open_memstream(&buf, len);

	if (!g)
		return NULL;
	/* no "set output": gnuplot writes to its standard output, the
	 * picture's file; noenhanced: every text is drawn as it is */
	fprintf(g, "set terminal %s size 1000,600 noenhanced\nset grid\n",
		png ? "pngcairo" : "svg");
	if (!strcmp(text_of(root, "schema"), "allocbench-vm"))
		drawn = plot_vm(g, root);
	else if (!strcmp(cmd, "sweep"))
		drawn = plot_sweep(g, results);
	else if (!strcmp(cmd, "lookup") ||
		 !strcmp(cmd, "reproduce 2002-lookup"))
		drawn = plot_lookup(g, results);
	else if (!strcmp(text_of(ab_json_get(root, "parameters"), "timing"),
			 "single"))
		drawn = plot_histograms(g, results);
	else
		drawn = plot_medians(
			g, results,
			ab_json_get(root, "compare")
				? "allocbench compare: A and B, median ns/op"
				: "allocbench: median ns/op per strategy");
	if (fclose(g) || !drawn) {
		free(buf);
		return NULL;
	}
	return buf;
}

/*
 * Opens the picture @out for writing without truncating it: refused when
 * it is the result @in itself (also through a link), so the input is
 * never touched. *@made says the file was created here. Returns the
 * descriptor, or -1 after one line on stderr.
 */
static int open_picture(const char *out, const char *in, int *made)
{
	struct stat so, si;
	int fd;

	*made = 1;
	fd = open(out, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOCTTY,
		  0666);
	if (fd < 0 && errno == EEXIST) {
		*made = 0;
		fd = open(out, O_WRONLY | O_CLOEXEC | O_NOCTTY);
	}
	if (fd < 0) {
		ab_err("plot: -o %s: cannot write there: %s", out,
		       strerror(errno));
		return -1;
	}
	if (!*made && !fstat(fd, &so) && !stat(in, &si) &&
	    so.st_dev == si.st_dev && so.st_ino == si.st_ino) {
		ab_err("plot: -o %s: that is the result %s itself; it is left as it is",
		       out, in);
		close(fd);
		return -1;
	}
	return fd;
}

/*
 * Runs gnuplot with @fd as its standard output and @text (@len bytes) as
 * its script. Returns an exit status, after one line on stderr on failure.
 */
static int run_gnuplot(int fd, const char *text, size_t len)
{
	char *const args[] = { "gnuplot", "--default-settings", NULL };
	posix_spawn_file_actions_t fa;
	void (*old)(int);
	int p[2], err, st = 0;
	size_t done = 0;
	ssize_t w;
	pid_t pid;

	if (pipe2(p, O_CLOEXEC)) {
		ab_err("plot: cannot start gnuplot: %s", strerror(errno));
		return AB_EXIT_RUN;
	}
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_adddup2(&fa, p[0], STDIN_FILENO);
	posix_spawn_file_actions_adddup2(&fa, fd, STDOUT_FILENO);
	err = posix_spawnp(&pid, "gnuplot", &fa, NULL, args, environ);
	posix_spawn_file_actions_destroy(&fa);
	close(p[0]);
	if (err) {
		close(p[1]);
		if (err == ENOENT) {
			ab_err("plot: gnuplot not found: install it (apt-get install gnuplot-nox)");
			return AB_EXIT_BACKEND;
		}
		ab_err("plot: cannot start gnuplot: %s", strerror(err));
		return AB_EXIT_RUN;
	}
	/* a gnuplot that stops reading is a failure of its own, not SIGPIPE */
	old = signal(SIGPIPE, SIG_IGN);
	while (done < len) {
		w = write(p[1], text + done, len - done);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			break;
		done += (size_t)w;
	}
	close(p[1]);
	signal(SIGPIPE, old);
	while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
		;
	if (done < len || !WIFEXITED(st) || WEXITSTATUS(st))
		return AB_EXIT_RUN;
	return AB_EXIT_OK;
}

/*
 * Draws the checked result @root (from @in) into @out ("-": standard
 * output, which is neither emptied nor removed).
 */
static int draw(json_object *root, const char *in, const char *out, int png)
{
	size_t len = 0;
	char *text = script(root, png, &len);
	int fd, made = 0, ret, reg;
	struct stat so;

	if (!text) {
		ab_err("plot: %s: nothing to draw: no result this picture shows",
		       in);
		return AB_EXIT_DATA;
	}
	if (ab_output_is_stdout(out)) {
		fflush(stdout);
		ret = run_gnuplot(STDOUT_FILENO, text, len);
		if (ret == AB_EXIT_RUN)
			ab_err("plot: gnuplot failed drawing on standard output");
		free(text);
		return ret;
	}
	fd = open_picture(out, in, &made);
	if (fd < 0) {
		free(text);
		return AB_EXIT_USAGE;
	}
	/* the old picture goes only now, when the new one can be drawn */
	reg = !fstat(fd, &so) && S_ISREG(so.st_mode);
	if (reg && ftruncate(fd, 0)) {
		ab_err("plot: -o %s: cannot write there: %s", out,
		       strerror(errno));
		ret = AB_EXIT_USAGE;
	} else {
		ret = run_gnuplot(fd, text, len);
		if (ret == AB_EXIT_RUN)
			ab_err("plot: gnuplot failed drawing %s", out);
	}
	close(fd);
	free(text);
	/* no half-drawn picture is left behind */
	if (ret && (made || reg))
		unlink(out);
	return ret;
}

/* A saved result, or an `allocbench vm` document. */
static int plot_check(json_object *root, char *err, size_t len)
{
	const char *schema =
		json_object_get_string(ab_json_get(root, "schema"));

	if (schema && !strcmp(schema, "allocbench-vm"))
		return ab_vm_check(root, err, len);
	return ab_json_check_result(root, err, len);
}

int cmd_plot(int argc, const char **argv)
{
	const char *out = NULL, *in = NULL, *ext, *format = NULL;
	struct poptOption opts[] = {
		{ "output", 'o', POPT_ARG_STRING, &out, 0,
		  "the picture to write: FILE.svg or FILE.png, or - for standard output",
		  "FILE" },
		{ "format", 0, POPT_ARG_STRING, &format, 0,
		  "svg or png (default: from -o's extension; svg for -o -)",
		  "FORMAT" },
		POPT_AUTOHELP POPT_TABLEEND
	};
	char err[1024];
	json_object *root;
	int ret, png;

	ret = ab_popt_parse_pos("plot", argc, argv, opts, &in, 1);
	if (ret < 0)
		return -ret;
	if (!in || !out) {
		ab_err("plot: usage: allocbench plot RESULT.json -o FILE.svg|FILE.png|- [--format=svg|png]");
		return AB_EXIT_USAGE;
	}
	if (format && strcasecmp(format, "svg") && strcasecmp(format, "png")) {
		ab_err("plot: --format=%s: allowed svg and png", format);
		return AB_EXIT_USAGE;
	}
	ext = strrchr(out, '.');
	if (ab_output_is_stdout(out)) {
		png = format && !strcasecmp(format, "png");
		if (png && isatty(STDOUT_FILENO)) {
			ab_err("plot: -o - --format=png: standard output is a terminal; a PNG is binary: redirect it, or write -o FILE.png");
			return AB_EXIT_USAGE;
		}
	} else if (!ext ||
		   (strcasecmp(ext, ".svg") && strcasecmp(ext, ".png"))) {
		ab_err("plot: -o %s: the picture must end in .svg or .png (any case), or be - for standard output",
		       out);
		return AB_EXIT_USAGE;
	} else {
		png = !strcasecmp(ext, ".png");
		if (format && png != !strcasecmp(format, "png")) {
			ab_err("plot: -o %s --format=%s: the extension says %s",
			       out, format, png ? "png" : "svg");
			return AB_EXIT_USAGE;
		}
	}
	root = ab_json_read_checked(in, plot_check, err, sizeof(err));
	if (!root) {
		ab_err("plot: %s", err);
		return AB_EXIT_DATA;
	}
	ret = draw(root, in, out, png);
	json_object_put(root);
	return ret;
}
