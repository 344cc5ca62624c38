/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * jsonin.h - reading saved results (what `allocbench CMD --json -o FILE`
 * wrote) for compare and plot. A saved file may be truncated, empty, edited
 * by hand or made by another program: it is checked once, as it is read,
 * against rules made from schema/allocbench-result.schema.json at build
 * time (scripts/schema-rules.py: each field's type, null or not, an
 * integer's minimum, an array's fixed length; the fields the reader needs,
 * the schema's x-reader-required), so that the readers never see a NaN
 * sample, a string where a number belongs or a negative count. The first
 * fault is reported in one line naming the file and the field.
 */
#ifndef AB_JSONIN_H
#define AB_JSONIN_H

#include <stddef.h>
#include <json-c/json.h>

/* Largest saved result read, in bytes. */
#define AB_JSON_READ_MAX (1UL << 30)

/*
 * ab_json_check_result - check the parsed document @root: an object with
 * "schema": "allocbench-result", "schema_version" 1, a "command" string
 * and a "results" array of alloc and lookup results, each field of the
 * known ones of the right type (numbers finite, counts integers not below
 * their minimum, per-op samples numbers, not null). Fields it does not
 * know are allowed. Returns 0, or -EINVAL with "FIELD: what is wrong"
 * in @err (FIELD as results[2].alloc.per_op_ns_sorted[7]).
 */
int ab_json_check_result(json_object *root, char *err, size_t len);

/*
 * ab_json_read_result - read the file @path (at most AB_JSON_READ_MAX
 * bytes, one JSON document and nothing but white space after it) and check
 * it with ab_json_check_result(). Returns the document (json_object_put()
 * it when done) or NULL with one line in @err that starts with @path
 * (control characters in it shown as '?'): "PATH: cannot read: REASON",
 * "PATH: empty file", "PATH: not JSON: line N: REASON", "PATH: FIELD:
 * what is wrong", ...
 */
json_object *ab_json_read_result(const char *path, char *err, size_t len);

/*
 * ab_json_counter - the per-op count of @event in a saved result row
 * (its "counters" array: { "event", "per_op" }), NAN when not counted.
 */
double ab_json_counter(json_object *row, const char *event);

/*
 * ab_json_read_checked - the same, with @check in place of
 * ab_json_check_result() (plot reads `allocbench vm` documents too).
 */
json_object *ab_json_read_checked(const char *path,
				  int (*check)(json_object *, char *, size_t),
				  char *err, size_t len);

#endif
