// SPDX-License-Identifier: GPL-2.0-only
/*
 * plot.c - `allocbench plot RESULT.json -o FILE.svg|FILE.png`: a picture of
 * a saved result, drawn by gnuplot:
 *
 *   sweep            median ns/op against object size, log-log, the 95%
 *                    confidence interval of each median as a band, alloc
 *                    and free in two panels (plot_sweep.c)
 *   run, single-op   log2 histograms of per-op alloc ns (plot_sweep.c)
 *   run, reproduce   median alloc and free ns/op per strategy, with the
 *                    95% confidence interval of the median (plot_bars.c)
 *   compare, vm      B / A per phase and row on a log axis centred on 1
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
#include "plot.h"
#include "vmab.h"

extern char **environ;

/*
 * The whole script for @root into a malloc'ed string (*@len bytes); NULL
 * when the result holds nothing this picture draws.
 */
static char *script(json_object *root, int png, size_t *len)
{
	const char *cmd = plot_text(root, "command");
	char *buf = NULL;
	size_t drawn;
	FILE *g = open_memstream(&buf, len);

	if (!g)
		return NULL;
	if (!strcmp(plot_text(root, "schema"), "allocbench-vm"))
		drawn = plot_vm(g, root, png);
	else if (ab_json_get(root, "compare") ||
		 ab_json_get(root, "comparisons"))
		drawn = plot_compare(g, root, png);
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
 * Writes the script @text (@len bytes) to @path ("-": standard output),
 * never to the result @in. Returns an exit status, after one line on
 * stderr on failure.
 */
static int save_script(const char *path, const char *in, const char *text,
		       size_t len)
{
	int fd, made, ok;
	struct stat so;

	if (!strcmp(path, "-"))
		return fwrite(text, 1, len, stdout) == len && !fflush(stdout)
			       ? AB_EXIT_OK
			       : AB_EXIT_RUN;
	fd = open_picture(path, in, &made);
	if (fd < 0)
		return AB_EXIT_USAGE;
	ok = !(!fstat(fd, &so) && S_ISREG(so.st_mode) && ftruncate(fd, 0));
	while (ok && len) {
		ssize_t w = write(fd, text, len);

		if (w < 0 && errno == EINTR)
			continue;
		ok = w > 0;
		if (ok) {
			text += w;
			len -= (size_t)w;
		}
	}
	if (close(fd) || !ok) {
		ab_err("plot: --script=%s: cannot write there: %s", path,
		       strerror(errno));
		return AB_EXIT_RUN;
	}
	return AB_EXIT_OK;
}

/*
 * Draws the checked result @root (from @in) into @out; the script also
 * to @gp when it is not NULL.
 */
static int draw(json_object *root, const char *in, const char *out, int png,
		const char *gp)
{
	size_t len = 0;
	char *text = script(root, png, &len);
	int fd, made, ret, reg;
	struct stat so;

	if (!text) {
		ab_err("plot: %s: nothing to draw: no result this picture shows",
		       in);
		return AB_EXIT_DATA;
	}
	if (gp) {
		ret = save_script(gp, in, text, len);
		if (ret) {
			free(text);
			return ret;
		}
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
	/* `compare OLD.json NEW.json --json`: comparisons, no results */
	if (schema && !strcmp(schema, "allocbench-result") &&
	    !ab_json_get(root, "results") && ab_json_get(root, "comparisons"))
		return plot_check_comparisons(root, err, len);
	return ab_json_check_result(root, err, len);
}

int cmd_plot(int argc, const char **argv)
{
	const char *out = NULL, *in = NULL, *ext, *gp = NULL;
	struct poptOption opts[] = {
		{ "output", 'o', POPT_ARG_STRING, &out, 0,
		  "the picture to write: FILE.svg or FILE.png", "FILE" },
		{ "script", 0, POPT_ARG_STRING, &gp, 0,
		  "also write the gnuplot script to FILE (- for standard output): `gnuplot FILE > PICTURE` draws it again",
		  "FILE" },
		POPT_AUTOHELP POPT_TABLEEND
	};
	char err[1024];
	json_object *root;
	int ret;

	ret = ab_popt_parse_pos("plot", argc, argv, opts, &in, 1);
	if (ret < 0)
		return -ret;
	if (!in || !out) {
		ab_err("plot: usage: allocbench plot RESULT.json -o FILE.svg|FILE.png");
		return AB_EXIT_USAGE;
	}
	ext = strrchr(out, '.');
	if (!ext || (strcasecmp(ext, ".svg") && strcasecmp(ext, ".png"))) {
		ab_err("plot: -o %s: the picture must end in .svg or .png (any case)",
		       out);
		return AB_EXIT_USAGE;
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
	ret = draw(root, in, out, !strcasecmp(ext, ".png"), gp);
	json_object_put(root);
	return ret;
}
