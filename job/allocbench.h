/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * allocbench.h - what the subcommands (one per file in cmd/) share.
 */
#ifndef AB_CMD_H
#define AB_CMD_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <popt.h>

#include "backend.h"

/* Exit statuses, distinct so scripts can tell failure kinds apart. */
enum ab_exit {
	AB_EXIT_OK = 0,	     /* done */
	AB_EXIT_RUN = 1,     /* the run failed in the backend */
	AB_EXIT_USAGE = 2,   /* bad command line; nothing was run */
	AB_EXIT_BACKEND = 3, /* the backend is unavailable */
	AB_EXIT_DATA = 4,    /* a saved result is missing, unreadable or
				invalid (compare, plot); nothing was done */
	AB_EXIT_FORMAT = 6,  /* export: the format cannot carry this valid
				result (the reason on stderr); nothing written */
	AB_EXIT_INTR = 130, /* interrupted (main() makes it 128 + the signal) */
};

/* struct ab_cmd.flags */
enum {
	AB_CMD_GUEST = 1 << 0,	 /* `allocbench vm` may run it in a guest */
	AB_CMD_VERDICT = 1 << 1, /* ... and compare kernels on its result */
};

/**
 * struct ab_cmd - one subcommand
 * @name:    what follows `allocbench`
 * @fn:      entry point; argv[0] is @name; returns an enum ab_exit value
 * @flags:   AB_CMD_* bits
 * @summary: one line for `allocbench --help`
 */
struct ab_cmd {
	const char *name;
	int (*fn)(int argc, const char **argv);
	unsigned int flags;
	const char *summary;
};

/*
 * ab_cmd_register - the command table (main.c), ended by a NULL name; the
 * functions below read it.
 */
void ab_cmd_register(const struct ab_cmd *table);
/* ab_cmd_next - the command after @prev (NULL: the first); NULL at the end. */
const struct ab_cmd *ab_cmd_next(const struct ab_cmd *prev);
/* ab_cmd_find - the command @name; NULL after saying it is not one. */
const struct ab_cmd *ab_cmd_find(const char *name);
/*
 * ab_cmd_names - the names of the commands with every bit of @flags set,
 * in table order, comma-separated with @last before the last one
 * ("run, sweep or lookup"), into @buf of @len bytes (always terminated when
 * @len > 0). Returns the length the whole list needs, as snprintf().
 */
size_t ab_cmd_names(char *buf, size_t len, unsigned int flags,
		    const char *last);

/*
 * ab_enum_words - the spellings @name(@first .. @n - 1) of an enumerated
 * option (lib/runnames.c's tables), joined by @sep with @last before the
 * last one ("kernel, atomic, nowait or kernel_zero"), into @buf of @len
 * bytes (always terminated when @len > 0). Returns the length the whole
 * list needs, as snprintf().
 */
size_t ab_enum_words(char *buf, size_t len, const char *(*name)(uint32_t),
		     uint32_t first, uint32_t n, const char *sep,
		     const char *last);

int cmd_run(int argc, const char **argv);
int cmd_reproduce(int argc, const char **argv);
int cmd_lookup(int argc, const char **argv);
int cmd_compare(int argc, const char **argv);
int cmd_sweep(int argc, const char **argv);
int cmd_topology(int argc, const char **argv);
int cmd_plot(int argc, const char **argv);
int cmd_export(int argc, const char **argv);
int cmd_list(int argc, const char **argv);
int cmd_info(int argc, const char **argv);
int cmd_vm(int argc, const char **argv);
int cmd_help(int argc, const char **argv);

/**
 * enum ab_format - the report's formats, bits of ab_output.formats: the
 * options set theirs (--json, and run's --csv); the report is that of the
 * first format of ab_job_print()'s table given (JSON over CSV), else text
 */
enum ab_format {
	AB_FORMAT_JSON =
		1, /* --json ORs 1 in: POPT_ARG_NONE | POPT_ARGFLAG_OR */
	AB_FORMAT_CSV = 2,
};

/**
 * struct ab_output - the output options every command takes
 * @formats: enum ab_format bits: --json (one JSON document,
 *           schema/allocbench-result.schema.json), --csv; 0: text
 * @path:    -o FILE: write there instead of stdout ("-": stdout itself)
 * @quiet:   --quiet: no progress line and no notes on stderr
 * @verbose: --verbose: each request on stderr before it runs, and the
 *           full text report (as --wide)
 * @wide:    --wide (run, compare): the full text report: every table,
 *           the whole header, every note
 * @start:   when the command started
 * @input:   set before parsing by a command that reads a file named in an
 *           option (lookup's --sizes-from): where that option's value
 *           lands; -o may name neither it nor a file given as an argument
 * @dry_run: --dry-run (run, sweep, compare: ab_dry_run_table): check, run
 *           nothing; the file -o names is left as it was
 */
struct ab_output {
	int formats;
	const char *path;
	int quiet;
	int verbose;
	int wide;
	long start;
	char *const *input;
	int dry_run;
};

extern struct ab_output ab_out;
/* popt table of the output options, for POPT_ARG_INCLUDE_TABLE */
extern struct poptOption ab_output_table[];
/* popt table of --dry-run (run, sweep, compare --alloc) */
extern struct poptOption ab_dry_run_table[];

/* ab_usage - the top-level usage text. */
void ab_usage(FILE *f);

/*
 * ab_progress - (re)draw the one progress line on stderr (the caller
 * checks it is a terminal); ab_progress_clear - blank it. Every error line
 * and every report clears it first, so it never mixes into other output.
 */
void ab_progress(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void ab_progress_clear(void);

/*
 * ab_output_end - the command ended with @status: what it wrote to the file
 * -o named replaces that file (a temporary beside it renamed over it; or,
 * where no temporary could be made, the file itself, not emptied when
 * opened, now ends where the output ends). A command that failed before
 * writing anything, or a write that failed part way, leaves the file as it
 * was. Returns the command's status: @status, or AB_EXIT_RUN after one
 * line on stderr when the output could not be written.
 */
int ab_output_end(int status);

/*
 * ab_output_is_stdout - whether -o @path means standard output: no -o, or
 * "-" (as for every Unix tool: a file named "-" is written as ./-).
 */
int ab_output_is_stdout(const char *path);

/* ab_err - "allocbench: <message>\n" on stderr (control characters in it
 * printed as ?: one line whatever its values hold), after the progress line
 * (if any) is cleared. */
void ab_err(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/*
 * ab_backend_open - find backend @name (NULL: the default, kmod) and read
 * its info into @bi. Prints the reason and returns AB_EXIT_USAGE (unknown
 * name) or AB_EXIT_BACKEND (unavailable); AB_EXIT_OK when usable.
 */
int ab_backend_open(const char *name, const struct ab_backend **be,
		    struct ab_backend_info *bi);

/*
 * ab_popt_parse - parse argv with popt table @opts (which should include
 * POPT_AUTOHELP). Prints popt's error naming the bad option. Returns
 * AB_EXIT_OK or AB_EXIT_USAGE (--help prints and exits 0 inside popt).
 */
int ab_popt_parse(const char *cmd, int argc, const char **argv,
		  const struct poptOption *opts);

/*
 * ab_popt_parse_pos - the same for a command that takes up to @max
 * positional arguments (words that are neither options nor their values):
 * puts them in @pos, in order, and returns how many; -(exit status) after
 * the error, one more than @max included.
 */
int ab_popt_parse_pos(const char *cmd, int argc, const char **argv,
		      const struct poptOption *opts, const char **pos, int max);

/*
 * ab_events_once - AB_EXIT_OK when --events @list (NULL: none) names each
 * event once, else AB_EXIT_USAGE after one line naming the one named twice
 * (lib/explain.c's ab_events_twice() says what counts as the same).
 */
int ab_events_once(const char *list);

/*
 * ab_popt_dash - the index in the last ab_popt_parse_pos() argv of the
 * "--" that ended its options (every word after it is positional), or -1
 * when there was none; a "--" given as an option's value (-o --) is not it.
 */
int ab_popt_dash(void);

/*
 * ab_popt_find_dash - the index in @argv of the "--" that ends the
 * options of table @opts, or -1: a "--" that is an option's value (-o --,
 * --output --, -qo --) is none. Used before parsing by a command whose
 * words after "--" are another command's (vm).
 */
int ab_popt_find_dash(int argc, const char **argv,
		      const struct poptOption *opts);

#define AB_VERSION_STRING AB_TOOL_VERSION

#endif
