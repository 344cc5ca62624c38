// SPDX-License-Identifier: GPL-2.0-only
/*
 * plot.c - `allocbench plot RESULT.json -o FILE.svg|FILE.png`: a picture of
 * a saved result, drawn by gnuplot:
 *
 *   sweep            median ns/op against object size, log-log, the 95%
 *                    confidence interval of each median as a band, alloc
 *                    and free in two panels (plot_sweep.c)
 *   sweep of page    alloc latency (p50, p99, max) and success rate with
 *   orders under a   its Wilson interval against the order, two panels
 *   condition        (plot_orders.c)
 *   run, single-op   log2 histograms of per-op alloc ns (plot_sweep.c)
 *   run, reproduce   median alloc and free ns/op per strategy, with the
 *                    95% confidence interval of the median (plot_bars.c)
 *   compare, vm      B / A per phase and row on a log axis centred on 1;
 *                    a vm document of one boot: its result, as above
 *                    (plot_bars.c)
 *   lookup           median cycles per lookup per method and size mix
 *
 * --script=FILE also writes the script, which holds its data: `gnuplot
 * FILE > PICTURE` draws the same picture again.
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
#include <poll.h>
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
#include "outfile.h"
#include "plot.h"
#include "vmab.h"

extern char **environ;

/*
 * The whole script for @root into a malloc'ed string (*@len bytes); NULL
 * when the result holds nothing this picture draws.
 */
/*
 * The result of the one good boot of a vm document that compares nothing
 * (one kernel: `allocbench vm -k K --json -- sweep ...`), else NULL.
 */
static json_object *one_boot(json_object *root)
{
	json_object *boots = ab_json_array(root, "boots"), *res = NULL;
	json_object *cmps = ab_json_array(root, "comparisons");
	size_t i;

	if (cmps && json_object_array_length(cmps))
		return NULL;
	for (i = 0; boots && i < json_object_array_length(boots); i++) {
		json_object *b = json_object_array_get_idx(boots, i);

		if (strcmp(plot_text(b, "status"), "ok") ||
		    !ab_json_get(b, "result"))
			continue;
		if (res)
			return NULL; /* several: no one result to draw */
		res = ab_json_get(b, "result");
	}
	return res;
}

static char *script(json_object *root, int png, size_t *len)
{
	const char *cmd = plot_text(root, "command");
	json_object *one;
	char *buf = NULL;
	size_t drawn;
	FILE *g = open_memstream(&buf, len);

	if (!g)
		return NULL;
	if (!strcmp(plot_text(root, "schema"), "allocbench-vm") &&
	    (one = one_boot(root))) {
		/* one kernel's one boot: its result, drawn as saved alone */
		fclose(g);
		free(buf);
		return script(one, png, len);
	}
	if (!strcmp(plot_text(root, "schema"), "allocbench-vm"))
		drawn = plot_vm(g, root, png);
	else if (ab_json_get(root, "compare") ||
		 ab_json_get(root, "comparisons"))
		drawn = plot_compare(g, root, png);
	else if (plot_is_order_sweep(root))
		drawn = plot_orders(g, root, png);
	else if (!strcmp(cmd, "sweep"))
		drawn = plot_sweep(g, root, png);
	else if (!strcmp(cmd, "lookup") ||
		 !strcmp(cmd, "reproduce 2002-lookup"))
		drawn = plot_lookup(g, root, png);
	else if (!strcmp(plot_text(ab_json_get(root, "parameters"), "timing"),
			 "single"))
		drawn = plot_histograms(g, root, png);
	else
		drawn = plot_medians(g, root, png);
	if (fclose(g) || !drawn) {
		free(buf);
		return NULL;
	}
	return buf;
}

/*
 * Opens the picture (or script) @out for writing (outfile.h: the old file
 * stays until the new one is whole): refused when it is the result @in
 * itself (also through a link), so the input is never touched. Returns 0,
 * or -1 after one line on stderr (@what names the option).
 */
static int open_picture(struct ab_outfile *f, const char *out, const char *in,
			const char *what)
{
	if (ab_outfile_is_input(out, in)) {
		ab_err("plot: %s%s: that is the result %s itself; it is left as it is",
		       what, out, in);
		return -1;
	}
	if (ab_outfile_open(f, out)) {
		ab_err("plot: %s%s: cannot write there: %s", what, out,
		       strerror(errno));
		return -1;
	}
	return 0;
}

/*
 * Runs gnuplot with @text (@len bytes) as its script, and copies what it
 * draws to @fd. The picture passes through this process so that a write
 * that fails (a full disk, /dev/full) is seen: gnuplot itself exits 0
 * after such a write (gnuplot 5.4). Returns an exit status, after one
 * line on stderr on failure; *@werr is the failed write's errno, else 0.
 */
static int run_gnuplot(int fd, const char *text, size_t len, int *werr)
{
	char *const args[] = { "gnuplot", "--default-settings", NULL };
	posix_spawn_file_actions_t fa;
	struct pollfd pf[2];
	void (*old)(int);
	int in[2], out[2], err, st = 0;
	size_t done = 0;
	char buf[65536];
	ssize_t w;
	pid_t pid;

	*werr = 0;
	if (pipe2(in, O_CLOEXEC)) {
		ab_err("plot: cannot start gnuplot: %s", strerror(errno));
		return AB_EXIT_RUN;
	}
	if (pipe2(out, O_CLOEXEC)) {
		ab_err("plot: cannot start gnuplot: %s", strerror(errno));
		close(in[0]);
		close(in[1]);
		return AB_EXIT_RUN;
	}
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_adddup2(&fa, in[0], STDIN_FILENO);
	posix_spawn_file_actions_adddup2(&fa, out[1], STDOUT_FILENO);
	err = posix_spawnp(&pid, "gnuplot", &fa, NULL, args, environ);
	posix_spawn_file_actions_destroy(&fa);
	close(in[0]);
	close(out[1]);
	if (err) {
		close(in[1]);
		close(out[0]);
		if (err == ENOENT) {
			ab_err("plot: gnuplot not found: install it (apt-get install gnuplot-nox)");
			return AB_EXIT_BACKEND;
		}
		ab_err("plot: cannot start gnuplot: %s", strerror(err));
		return AB_EXIT_RUN;
	}
	/* a gnuplot that stops reading is a failure of its own, not SIGPIPE */
	old = signal(SIGPIPE, SIG_IGN);
	/* the script in and the picture out at once: either pipe may fill */
	pf[0] = (struct pollfd){ .fd = out[0], .events = POLLIN };
	pf[1] = (struct pollfd){ .fd = len ? in[1] : -1, .events = POLLOUT };
	if (!len)
		close(in[1]);
	while (pf[0].fd >= 0) {
		if (poll(pf, 2, -1) < 0) {
			if (errno == EINTR)
				continue;
			break;
		}
		if (pf[1].fd >= 0 && pf[1].revents) {
			w = write(in[1], text + done, len - done);
			if (w > 0)
				done += (size_t)w;
			if ((w < 0 && errno != EINTR && errno != EAGAIN) ||
			    done == len ||
			    (pf[1].revents & (POLLERR | POLLHUP))) {
				close(in[1]);
				pf[1].fd = -1;
			}
		}
		if (pf[0].revents) {
			w = read(out[0], buf, sizeof(buf));
			if (w < 0 && errno == EINTR)
				continue;
			if (w <= 0)
				break;
			/* after a failed write, read on: gnuplot must not block
			 */
			if (!*werr && ab_write_all(fd, buf, (size_t)w))
				*werr = errno ? errno : EIO;
		}
	}
	if (pf[1].fd >= 0)
		close(in[1]);
	close(out[0]);
	signal(SIGPIPE, old);
	while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
		;
	if (done < len || !WIFEXITED(st) || WEXITSTATUS(st) || *werr)
		return AB_EXIT_RUN;
	return AB_EXIT_OK;
}

/*
 * Writes the script @text (@len bytes) to @path ("-": standard output),
 * never to the result @in. Returns an exit status, after one line on
 * stderr on failure.
 */
static int save_script(const char *path, const char *in, const char *text,
		       size_t len)
{
	struct ab_outfile f;
	int ok, e = 0;

	if (!strcmp(path, "-") || ab_outfile_is_stdout_file(path))
		return fwrite(text, 1, len, stdout) == len && !fflush(stdout)
			       ? AB_EXIT_OK
			       : AB_EXIT_RUN;
	if (open_picture(&f, path, in, "--script="))
		return AB_EXIT_USAGE;
	ok = !ab_write_all(f.fd, text, len);
	if (!ok)
		e = errno;
	/* in place, the file's length is set through the descriptor */
	if (ab_outfile_end(&f, ok) && ok) {
		ok = 0;
		e = errno;
	}
	if (close(f.fd) && ok) {
		ok = 0;
		e = errno;
	}
	if (!ok) {
		ab_err("plot: --script=%s: cannot write there: %s", path,
		       strerror(e));
		return AB_EXIT_RUN;
	}
	return AB_EXIT_OK;
}

/*
 * Draws the checked result @root (from @in) into @out ("-": standard
 * output, which is neither emptied nor removed); the script also to @gp
 * when it is not NULL.
 */
static int draw(json_object *root, const char *in, const char *out, int png,
		const char *gp)
{
	size_t len = 0;
	char *text = script(root, png, &len);
	struct ab_outfile f;
	int ret, werr, to_stdout = ab_output_is_stdout(out);

	if (!text) {
		ab_err("plot: %s: nothing to draw: no result this picture shows",
		       in);
		return AB_EXIT_DATA;
	}
	/* the picture's file first: a picture that cannot be written refuses
	 * the command before the script is written */
	if (!to_stdout && open_picture(&f, out, in, "-o ")) {
		free(text);
		return AB_EXIT_USAGE;
	}
	if (gp) {
		ret = save_script(gp, in, text, len);
		if (ret) {
			if (!to_stdout) {
				ab_outfile_end(&f, 0);
				close(f.fd);
			}
			free(text);
			return ret;
		}
	}
	if (to_stdout) {
		fflush(stdout);
		ret = run_gnuplot(STDOUT_FILENO, text, len, &werr);
		if (ret == AB_EXIT_RUN && werr)
			ab_err("plot: -o -: cannot write the picture to standard output: %s",
			       strerror(werr));
		else if (ret == AB_EXIT_RUN)
			ab_err("plot: gnuplot failed drawing on standard output");
		free(text);
		return ret;
	}
	ret = run_gnuplot(f.fd, text, len, &werr);
	if (ret == AB_EXIT_RUN && werr)
		ab_err("plot: -o %s: cannot write the picture there: %s", out,
		       strerror(werr));
	else if (ret == AB_EXIT_RUN)
		ab_err("plot: gnuplot failed drawing %s", out);
	/* no half-drawn picture: the old one stays (drawn in place, outfile.h,
	 * it holds what gnuplot wrote over it) */
	if (ab_outfile_end(&f, !ret) && !ret) {
		ab_err("plot: -o %s: cannot write the picture there: %s%s", out,
		       strerror(errno),
		       f.damaged ? "; it was written in place and is incomplete"
				 : "");
		ret = AB_EXIT_RUN;
	}
	close(f.fd);
	free(text);
	return ret;
}

/* A saved result, or an `allocbench vm` document. */
static int plot_check(json_object *root, char *err, size_t len)
{
	return ab_saved_check(root, plot_check_comparisons, err, len);
}

int cmd_plot(int argc, const char **argv)
{
	const char *out = NULL, *in = NULL, *ext, *format = NULL, *gp = NULL;
	struct poptOption opts[] = {
		{ "output", 'o', POPT_ARG_STRING, &out, 0,
		  "the picture to write: FILE.svg or FILE.png, or - for standard output",
		  "FILE" },
		{ "format", 0, POPT_ARG_STRING, &format, 0,
		  "svg or png (default: from -o's extension; svg for -o -)",
		  "FORMAT" },
		{ "script", 0, POPT_ARG_STRING, &gp, 0,
		  "also write the gnuplot script to FILE (- for standard output): `gnuplot FILE > PICTURE` draws it again",
		  "FILE" },
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
	/* an empty name would be found out only after drawing */
	if (!*out || (gp && !*gp)) {
		ab_err("plot: %s'': an empty file name; name a file, or - for standard output",
		       *out ? "--script=" : "-o ");
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
	if (gp && !strcmp(gp, out)) {
		ab_err("plot: --script=%s: that is the picture (-o); name another file",
		       gp);
		return AB_EXIT_USAGE;
	}
	root = ab_json_read_checked(in, plot_check, err, sizeof(err));
	if (!root) {
		ab_err("plot: %s", err);
		return AB_EXIT_DATA;
	}
	ret = draw(root, in, out, png, gp);
	json_object_put(root);
	return ret;
}
