// SPDX-License-Identifier: GPL-2.0-only
/* common.c - helpers the subcommands share (see allocbench.h). */
#define _GNU_SOURCE /* vasprintf */
#include <errno.h>
#include <fcntl.h>
#include <popt.h>
#include <stdarg.h>
#include <stdlib.h>
#include <stdio.h>
#include <stdio_ext.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "allocbench.h"
#include "explain.h"
#include "outfile.h"
#include "runopts.h"

struct ab_output ab_out;

struct poptOption ab_output_table[] = {
	/* an option without a value (listed in --usage's [-jqv?]), ORed in:
	 * 1, AB_FORMAT_JSON */
	{ "json", 'j', POPT_ARG_NONE | POPT_ARGFLAG_OR, &ab_out.formats, 0,
	  "one JSON document (schema/allocbench-result.schema.json)", NULL },
	{ "output", 'o', POPT_ARG_STRING, &ab_out.path, 0,
	  "write to FILE instead of standard output (-o -: standard output)",
	  "FILE" },
	{ "quiet", 'q', POPT_ARG_NONE, &ab_out.quiet, 0,
	  "no progress line on stderr", NULL },
	{ "verbose", 'v', POPT_ARG_NONE, &ab_out.verbose, 0,
	  "print each request on stderr before it runs; a report: its full text",
	  NULL },
	POPT_TABLEEND
};

struct poptOption ab_dry_run_table[] = {
	{ "dry-run", 0, POPT_ARG_NONE, &ab_out.dry_run, 0,
	  "make every check a run makes (the module's limits included), print what would run, run nothing",
	  NULL },
	POPT_TABLEEND
};

/* The command table, main.c's; set once by ab_cmd_register(). */
static const struct ab_cmd *ab_cmds;

void ab_cmd_register(const struct ab_cmd *table)
{
	ab_cmds = table;
}

const struct ab_cmd *ab_cmd_next(const struct ab_cmd *prev)
{
	const struct ab_cmd *c = prev ? prev + 1 : ab_cmds;

	return c && c->name ? c : NULL;
}

size_t ab_cmd_names(char *buf, size_t len, unsigned int flags, const char *last)
{
	const struct ab_cmd *c;
	size_t n = 0, k = 0, i = 0;
	int w;

	for (c = NULL; (c = ab_cmd_next(c));)
		k += (c->flags & flags) == flags;
	if (len)
		buf[0] = '\0';
	for (c = NULL; (c = ab_cmd_next(c));) {
		if ((c->flags & flags) != flags)
			continue;
		w = snprintf(buf + n, n < len ? len - n : 0, "%s%s",
			     !i		 ? ""
			     : i + 1 < k ? ", "
					 : last,
			     c->name);
		n += w > 0 ? (size_t)w : 0;
		i++;
	}
	return n;
}

size_t ab_enum_words(char *buf, size_t len, const char *(*name)(uint32_t),
		     uint32_t first, uint32_t n, const char *sep,
		     const char *last)
{
	size_t used = 0;
	uint32_t i;
	int w;

	if (len)
		buf[0] = '\0';
	for (i = first; i < n; i++) {
		w = snprintf(buf + used, used < len ? len - used : 0, "%s%s",
			     i == first	 ? ""
			     : i + 1 < n ? sep
					 : last,
			     name(i));
		used += w > 0 ? (size_t)w : 0;
	}
	return used;
}

const struct ab_cmd *ab_cmd_find(const char *name)
{
	const struct ab_cmd *c;
	char names[256];

	for (c = NULL; (c = ab_cmd_next(c));)
		if (!strcmp(c->name, name))
			return c;
	ab_cmd_names(names, sizeof(names), 0, ", ");
	ab_err("'%s' is not a command (commands: %s)", name, names);
	return NULL;
}

void ab_usage(FILE *f)
{
	const struct ab_cmd *c;

	fprintf(f,
		"usage: allocbench [--version] [--help] COMMAND [OPTIONS]\n\n"
		"Measure kernel allocation paths (allocbench.ko) per CPU and NUMA node.\n\n"
		"commands:\n");
	for (c = NULL; (c = ab_cmd_next(c));)
		fprintf(f, "  %-9s %s\n", c->name, c->summary);
	fprintf(f, "\nFirst try: allocbench run --alloc=kmalloc --size=4096\n"
		   "`allocbench help COMMAND` shows a command's options.\n");
}

/* Columns of the progress line on stderr now, 0 when none is shown. */
static int progress_cols;

void ab_progress(const char *fmt, ...)
{
	va_list ap;
	int n;

	fputc('\r', stderr);
	va_start(ap, fmt);
	n = vfprintf(stderr, fmt, ap);
	va_end(ap);
	/* blank what a longer previous line left */
	if (n >= 0 && n < progress_cols)
		fprintf(stderr, "%*s\r", progress_cols - n, "");
	fflush(stderr);
	if (n > progress_cols)
		progress_cols = n;
}

void ab_progress_clear(void)
{
	if (!progress_cols)
		return;
	fprintf(stderr, "\r%*s\r", progress_cols, "");
	fflush(stderr);
	progress_cols = 0;
}

void ab_err(const char *fmt, ...)
{
	va_list ap;
	char *line = NULL, *p;
	int n;

	va_start(ap, fmt);
	n = vasprintf(&line, fmt, ap);
	va_end(ap);
	/* one line whatever the values hold (a kernel or file name with a
	 * newline): control characters as '?' */
	for (p = n >= 0 ? line : NULL; p && *p; p++)
		if ((unsigned char)*p < 0x20 || *p == 0x7f)
			*p = '?';
	ab_progress_clear();
	/* the whole line under the stream's lock: the members of a
	 * --concurrent group report at once, and no line may cut another */
	flockfile(stderr);
	fputs("allocbench: ", stderr);
	if (n >= 0) {
		fputs(line, stderr);
	} else {
		va_start(ap, fmt);
		vfprintf(stderr, fmt, ap);
		va_end(ap);
	}
	fputc('\n', stderr);
	funlockfile(stderr);
	if (n >= 0)
		free(line);
}

int ab_backend_open(const char *name, const struct ab_backend **be,
		    struct ab_backend_info *bi)
{
	char why[AB_ERRLEN];

	*be = ab_backend_find(name);
	if (!*be) {
		ab_err("--backend=%s: unknown backend (allowed: %s)", name,
		       ab_backend_names());
		return AB_EXIT_USAGE;
	}
	if ((*be)->info(bi, why, sizeof(why))) {
		ab_err("backend %s unavailable: %s", (*be)->name, why);
		return AB_EXIT_BACKEND;
	}
	ab_limits_owner(!!((*be)->flags & AB_BACKEND_MODULE));
	return AB_EXIT_OK;
}

int ab_popt_parse(const char *cmd, int argc, const char **argv,
		  const struct poptOption *opts)
{
	int n = ab_popt_parse_pos(cmd, argc, argv, opts, NULL, 0);

	return n < 0 ? -n : AB_EXIT_OK;
}

/* @s, a word of argv popt left over, as argv's own string (it outlives popt).
 */
static const char *argv_word(int argc, const char **argv, const char *s)
{
	int i;

	for (i = argc - 1; i > 0; i--)
		if (!strcmp(argv[i], s))
			return argv[i];
	return s;
}

/* -o FILE, open on standard output until ab_output_end() */
static struct ab_outfile output;
static int output_open;

int ab_output_is_stdout(const char *path)
{
	return !path || !strcmp(path, "-");
}

/*
 * Standard output to @path (outfile.h: a temporary renamed over it at the
 * end, or @path in place), so that a command refused after parsing (a bad
 * value, a missing kernel) leaves the file as it was. "-" is standard
 * output itself, as for every Unix tool (nothing is opened). 0, or -1
 * with errno.
 */
static int open_output(const char *path)
{
	int e;

	if (ab_output_is_stdout(path) || ab_outfile_is_stdout_file(path))
		return 0;
	if (ab_outfile_open(&output, path))
		return -1;
	fflush(stdout);
	/* standard output was closed: the file took its descriptor */
	if (output.fd != STDOUT_FILENO && dup2(output.fd, STDOUT_FILENO) < 0) {
		e = errno;
		close(output.fd);
		ab_outfile_end(&output, 0);
		errno = e;
		return -1;
	}
	if (output.fd != STDOUT_FILENO)
		close(output.fd);
	output.fd = STDOUT_FILENO;
	output_open = 1;
	return 0;
}

int ab_events_once(const char *list)
{
	char dup[128];

	if (!list || !ab_events_twice(list, dup, sizeof(dup)))
		return AB_EXIT_OK;
	ab_err("--events=%s: %s is named twice; name each event once", list,
	       dup);
	return AB_EXIT_USAGE;
}

/* the "--" that ended the options of the last ab_popt_parse_pos() */
static int dash_at = -1;

/* Whether option @lng (a long name) or @shrt of @opts takes a value. */
static int takes_value(const struct poptOption *opts, const char *lng,
		       size_t len, char shrt)
{
	const struct poptOption *o;

	for (o = opts; o->longName || o->shortName || o->argInfo; o++) {
		unsigned int kind = o->argInfo & POPT_ARG_MASK;

		if (kind == POPT_ARG_INCLUDE_TABLE) {
			if (takes_value(o->arg, lng, len, shrt))
				return 1;
		} else if ((lng ? o->longName && strlen(o->longName) == len &&
					    !strncmp(o->longName, lng, len)
				: o->shortName == shrt)) {
			return kind != POPT_ARG_NONE && kind != POPT_ARG_VAL &&
			       !(o->argInfo & POPT_ARGFLAG_OPTIONAL);
		}
	}
	return 0;
}

int ab_popt_find_dash(int argc, const char **argv,
		      const struct poptOption *opts)
{
	int i;

	for (i = 1; i < argc; i++) {
		const char *w = argv[i], *c;

		if (!strcmp(w, "--"))
			return i;
		if (w[0] != '-' || !w[1])
			continue;
		if (w[1] == '-') {
			if (!strchr(w, '=') &&
			    takes_value(opts, w + 2, strlen(w + 2), 0))
				i++;
			continue;
		}
		/* a cluster of short options: a value ends it */
		for (c = w + 1; *c; c++)
			if (takes_value(opts, NULL, 0, *c)) {
				if (!c[1])
					i++;
				break;
			}
	}
	return -1;
}

int ab_popt_dash(void)
{
	return dash_at;
}

int ab_popt_parse_pos(const char *cmd, int argc, const char **argv,
		      const struct poptOption *opts, const char **pos, int max)
{
	const char **args = calloc((size_t)argc + 1, sizeof(*args));
	const char *word;
	char name[64];
	poptContext pc;
	int i, rc, n = 0, ret = AB_EXIT_OK;

	if (!args) {
		ab_err("out of memory");
		return -AB_EXIT_RUN;
	}
	/* popt's --help and --usage name the program after argv[0] */
	snprintf(name, sizeof(name), "allocbench %s", cmd);
	memcpy(args, argv, (size_t)argc * sizeof(*args));
	args[0] = name;
	/* --events alone asks for the default set (popt's optional argument
	 * would leave it indistinguishable from no --events at all) */
	for (i = 1; i < argc; i++)
		if (!strcmp(args[i], "--events"))
			args[i] = "--events=default";
	dash_at = ab_popt_find_dash(argc, args, opts);
	pc = poptGetContext(cmd, argc, args, opts, 0);
	rc = poptGetNextOpt(pc);
	if (rc < -1) {
		ab_err("%s: %s: %s (see `allocbench help %s`)", cmd,
		       poptBadOption(pc, POPT_BADOPTION_NOALIAS),
		       poptStrerror(rc), cmd);
		ret = AB_EXIT_USAGE;
	}
	/* the words that are no option nor an option's value, in order */
	while (!ret && (word = poptGetArg(pc))) {
		if (n == max && max) {
			ab_err("%s: '%s': more than %d inputs (see `allocbench help %s`)",
			       cmd, word, max, cmd);
			ret = AB_EXIT_USAGE;
		} else if (n == max) {
			ab_err("%s: unexpected argument '%s' (see `allocbench help %s`)",
			       cmd, word, cmd);
			ret = AB_EXIT_USAGE;
		} else {
			pos[n++] = argv_word(argc, argv, word);
		}
	}
	poptFreeContext(pc);
	free(args);
	/* an empty name would be found out only at the end, after the work */
	if (!ret && ab_out.path && !*ab_out.path) {
		ab_err("-o '': an empty file name; name a file, or - for standard output");
		ret = AB_EXIT_USAGE;
	}
	/* -o is opened (and emptied) now, before any input is read */
	for (i = 0; !ret && !ab_output_is_stdout(ab_out.path) && i <= n; i++) {
		word = i < n ? pos[i] : ab_out.input ? *ab_out.input : NULL;
		if (word && ab_outfile_is_input(ab_out.path, word)) {
			ab_err("-o %s: that is the input file %s; write elsewhere",
			       ab_out.path, word);
			ret = AB_EXIT_USAGE;
		}
	}
	if (!ret && ab_out.path && open_output(ab_out.path)) {
		ab_err("-o %s: cannot write there: %s", ab_out.path,
		       strerror(errno));
		ret = AB_EXIT_USAGE;
	}
	return ret ? -ret : n;
}

int ab_output_end(int status)
{
	int failed = 0, e = 0, was_temp, keep;
	long pos;

	if (!output_open)
		return status;
	output_open = 0;
	was_temp = !!output.temp;
	/* the bytes written so far, those still in stdio's buffer included
	 * (a pipe or a device has no offset: something may have been) */
	pos = ftell(stdout);
	/* what a command that ran wrote replaces the file: done, a run that
	 * failed in the backend or its boots, or an interrupted one (its
	 * partial report); a refused command (a usage error, no backend, a
	 * bad input, a format that cannot carry it) leaves it as it was,
	 * its buffered header unwritten, and so does a failed write */
	keep = !ab_out.dry_run &&
	       (status == AB_EXIT_OK ||
		(pos != 0 && status != AB_EXIT_USAGE &&
		 status != AB_EXIT_BACKEND && status != AB_EXIT_DATA &&
		 status != AB_EXIT_FORMAT));
	if (keep) {
		failed = fflush(stdout) || ferror(stdout);
		e = errno;
	} else {
		__fpurge(stdout);
	}
	if (ab_outfile_end(&output, keep && !failed) && keep && !failed) {
		failed = 1;
		e = errno;
	}
	if (!failed)
		return status;
	/* no more writes to the file, nor a second report at exit */
	__fpurge(stdout);
	clearerr(stdout);
	ab_err("cannot write the output (%s): %s%s", ab_out.path,
	       e ? strerror(e) : "write error",
	       output.damaged ? "; it was written in place and is incomplete"
	       : was_temp     ? "; the file is as it was"
			      : "");
	return status == AB_EXIT_OK ? AB_EXIT_RUN : status;
}
