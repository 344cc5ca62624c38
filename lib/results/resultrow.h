/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * resultrow.h - one model of a saved result's rows, for every reader of
 * saved results (compare of saved runs, vm, plot).
 *
 * A result document (schema/allocbench-result.schema.json: run, sweep,
 * compare, reproduce, lookup; a vm document's boots[].result each) holds
 * its rows in "results". A row's identity has two parts:
 *   - what it times: its kind ("alloc" or "lookup") and its strategy as
 *     labelled ("kmalloc", "kmem_cache nomerge", "kmalloc 2K n0>n1"), or
 *     a lookup's method, table and sizes;
 *   - the setup it timed with: the object's bytes, the --node asked for
 *     and the --free-cpu.
 * Two rows are the same row when both parts are equal (ab_result_row_key());
 * ab_result_row_same_what() compares the first part alone, for a note that
 * the setup differs. The CPU is not in the identity by number: without
 * --cpu it is wherever the command started, which differs from boot to
 * boot; rows of one identity on several CPUs at once (--concurrent) are
 * told apart by their place among such rows (ab_result_find()'s @occ).
 * The phase (alloc, free, lookup) is a measurement of a row, not a row.
 */
#ifndef AB_RESULTROW_H
#define AB_RESULTROW_H

#include <stddef.h>

#include "jsonout.h"

/**
 * struct ab_result_row - one saved row, read
 * @row:          the row in its document (borrowed)
 * @kind:         "alloc" or "lookup" ("?" when missing)
 * @label:        as saved ("?" when missing)
 * @strategy:     the strategy (alloc) or the method (lookup), "?" if none
 * @object_bytes: bytes per object, NAN for lookups and when missing
 * @size:         the size the row asked for: a sweep cell's label's size
 *                word ("kmalloc 2K n0": 2048; sweep.c makes these labels),
 *                else @object_bytes
 * @node:         the --node asked for, -1 for none (local)
 * @free_cpu:     --free-cpu, -1 for none
 * @cpu:          the CPU it started on (cpu_start), -1 when not saved
 * @series:       @label without a sweep cell's size word ("kmalloc n0"):
 *                the line a sweep picture draws it in
 * @nodes:        a sweep cell's node word ("n0", "n0>n1": CPU node 0,
 *                memory node 1), "" for other rows
 * @order:        the order a page strategy asked for, -1 for other rows
 * @sheaves:      --sheaves: the sheaf capacity asked for, 0 for off, -1
 *                for the kernel's default (not saved)
 * @lookup:       kmalloc_class's --lookup method as saved, NULL if none
 * @table:        a lookup row's table ("?" when missing), NULL otherwise
 * @sizes:        a lookup row's size mix ("?" when missing), NULL otherwise
 */
struct ab_result_row {
	json_object *row;
	const char *kind;
	const char *label;
	const char *strategy;
	double object_bytes;
	double size;
	int node;
	int free_cpu;
	int cpu;
	char series[128];
	char nodes[32];
	int order;
	int sheaves;
	const char *lookup;
	const char *table;
	const char *sizes;
};

/* ab_result_rows - the "results" array of result document @doc, or NULL. */
json_object *ab_result_rows(json_object *doc);

/* ab_result_row_read - reads saved row @row into @out; -EINVAL when @row is
 * not an object. */
int ab_result_row_read(json_object *row, struct ab_result_row *out);

/*
 * ab_result_row_key - the identity of @row (both parts, see above) as one
 * string (malloc'ed; NULL without memory): equal strings, the same row.
 */
char *ab_result_row_key(json_object *row);

/* ab_result_row_same_what - whether rows @a and @b time the same thing
 * (the identity's first part), whatever their setup. */
int ab_result_row_same_what(json_object *a, json_object *b);

/*
 * ab_result_row_name - what a reader calls @row (malloc'ed; NULL without
 * memory): "kmalloc 64 B" for a strategy of one word, the label as saved
 * for a labelled one ("kmalloc 2K n0>n1"), "lookup walk (kmalloc, sizes
 * 8-64)" for a lookup.
 */
char *ab_result_row_name(json_object *row);

/*
 * ab_result_row_phases - the phases @row measures, NULL-terminated:
 * {"alloc", "free"} for an allocation row, {"lookup"} for a lookup.
 */
const char *const *ab_result_row_phases(json_object *row);

/*
 * ab_result_row_median - @row's median ns/op in @phase (one of
 * ab_result_row_phases()): the phase's "ns" median, a lookup's median_ns;
 * NAN when not saved (a phase that did not run, a null).
 */
double ab_result_row_median(json_object *row, const char *phase);

/*
 * ab_result_can_fail - whether row @row can have failed allocations, so
 * that its success rate says something: its document's @par (its
 * "parameters") built a memory condition (--condition other than quiet),
 * or @row itself failed at least once.
 */
int ab_result_can_fail(json_object *par, json_object *row);

/*
 * ab_result_find - the row of document @doc whose ab_result_row_key() is
 * @key, the @occ-th such (from 0), or NULL.
 */
json_object *ab_result_find(json_object *doc, const char *key, size_t occ);

/*
 * ab_result_find_what - the first row of @doc that times what @row times
 * (ab_result_row_same_what()), or NULL.
 */
json_object *ab_result_find_what(json_object *doc, json_object *row);

#endif
