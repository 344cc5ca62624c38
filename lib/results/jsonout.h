/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * jsonout.h - allocbench's JSON output through json-c, in the versioned
 * format described by schema/allocbench-result.schema.json. An undefined
 * statistic is null, never NaN (json-c would print a bare NaN, which is
 * not JSON).
 */
#ifndef AB_JSONOUT_H
#define AB_JSONOUT_H

#include <stdint.h>
#include <stdio.h>
#include <time.h>
#include <json-c/json.h>

#include "env.h"
#include "stats.h"

/* Bumped when a field changes meaning or goes away; additions keep it. */
#define AB_JSON_SCHEMA_VERSION 1

/* ab_json_num - a number, or NULL (JSON null) for NaN and infinities. */
json_object *ab_json_num(double v);

/*
 * ab_json_stats - {"n", "min", "median", "mean", "p90", "p99", "max",
 * "stddev", "cv", "ci95_median": [lo, hi]} of @s.
 */
json_object *ab_json_stats(const struct ab_stats *s);

/* ab_json_env - the environment capture, with its warnings. */
json_object *ab_json_env(const struct ab_env *env, unsigned int tsc_khz);

/*
 * ab_json_envelope - the object every output starts from: schema name and
 * version, tool version, the command and its full command line, and the
 * start time (UTC, ISO 8601). Callers add "end", "module", "parameters",
 * "results" and so on.
 */
json_object *ab_json_envelope(const char *command, time_t start);

/* ab_json_time - @t as "YYYY-MM-DDThh:mm:ssZ". */
json_object *ab_json_time(time_t t);

/*
 * ab_json_print - pretty-print @root with a final newline; frees it. Every
 * byte of a string that is not UTF-8 is written as U+FFFD, so the output
 * is valid JSON (RFC 8259 text is UTF-8) whatever the strings held.
 */
void ab_json_print(json_object *root, FILE *f);

/*
 * Reading saved results, which may have been edited by hand: each helper
 * takes NULL and a value of the wrong type and answers NULL or NAN. Check
 * a file first with ab_json_read_result() (jsonin.h), which names the
 * file and the field at fault, so these answer what it found valid.
 * ab_json_get - member @key of object @o, or NULL.
 * ab_json_array - member @key if it is an array, else NULL.
 * ab_json_double - the number @v holds, NAN for null or a missing value.
 */
json_object *ab_json_get(json_object *o, const char *key);
json_object *ab_json_array(json_object *o, const char *key);
double ab_json_double(json_object *v);

/* ab_json_int_array - a new array of the integers @v[0..@n) */
json_object *ab_json_int_array(const int64_t *v, size_t n);

/* The command line, kept by main() for the envelope. */
extern int ab_cmdline_argc;
extern const char **ab_cmdline_argv;

#endif
