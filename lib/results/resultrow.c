// SPDX-License-Identifier: GPL-2.0-only
/* resultrow.c - one model of a saved result's rows (see resultrow.h). */
#define _GNU_SOURCE /* asprintf */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "parse.h"
#include "resultrow.h"

/* The identity's first part, what a row times, by kind. */
static const char *const alloc_what[] = { "label" };
static const char *const lookup_what[] = { "method", "table", "sizes" };
/* ... and its second part, the setup (lookups have none of their own) */
static const char *const alloc_setup[] = { "object_bytes", "node", "free_cpu" };

static int is_lookup(json_object *row)
{
	const char *kind = json_object_get_string(ab_json_get(row, "kind"));

	return kind && !strcmp(kind, "lookup");
}

static const char *text(json_object *row, const char *key)
{
	const char *s = json_object_get_string(ab_json_get(row, key));

	return s ? s : "?";
}

static int int_or(json_object *row, const char *key, int none)
{
	json_object *v = ab_json_get(row, key);

	return json_object_is_type(v, json_type_int) ? json_object_get_int(v)
						     : none;
}

json_object *ab_result_rows(json_object *doc)
{
	return ab_json_array(doc, "results");
}

/*
 * A sweep cell's label, "NAME SIZE nC" or "NAME SIZE nC>nM" (sweep.c's
 * add_row()): its size word into *@size, and its series and node word into
 * @r. Returns 0 when @label has that form.
 */
static int sweep_label(const char *label, struct ab_result_row *r, double *size)
{
	const char *sp = strchr(label, ' '),
		   *sp2 = sp ? strchr(sp + 1, ' ') : NULL;
	char word[32];
	uint64_t v;
	size_t n;

	if (!sp2 || strchr(sp2 + 1, ' ') || sp2[1] != 'n' ||
	    !isdigit((unsigned char)sp2[2]))
		return -1;
	n = (size_t)(sp2 - sp - 1);
	if (!n || n >= sizeof(word))
		return -1;
	memcpy(word, sp + 1, n);
	word[n] = 0;
	if (ab_parse_size(word, &v) || !v)
		return -1;
	*size = (double)v;
	snprintf(r->series, sizeof(r->series), "%.*s%s", (int)(sp - label),
		 label, sp2);
	snprintf(r->nodes, sizeof(r->nodes), "%s", sp2 + 1);
	return 0;
}

int ab_result_row_read(json_object *row, struct ab_result_row *out)
{
	memset(out, 0, sizeof(*out));
	if (!json_object_is_type(row, json_type_object))
		return -EINVAL;
	out->row = row;
	out->kind = text(row, "kind");
	out->label = text(row, "label");
	out->strategy = text(row, is_lookup(row) ? "method" : "strategy");
	out->object_bytes = ab_json_double(ab_json_get(row, "object_bytes"));
	out->node = int_or(row, "node", -1);
	out->free_cpu = int_or(row, "free_cpu", -1);
	out->cpu = int_or(row, "cpu_start", -1);
	out->order = int_or(row, "order", -1);
	out->sheaves = int_or(row, "sheaves", -1);
	out->lookup = json_object_get_string(ab_json_get(row, "lookup"));
	if (is_lookup(row)) {
		out->table = text(row, "table");
		out->sizes = text(row, "sizes");
	}
	if (sweep_label(out->label, out, &out->size)) {
		out->size = out->object_bytes;
		snprintf(out->series, sizeof(out->series), "%s", out->label);
	}
	return 0;
}

/* "PREFIX|KEY1|KEY2..." of @row's values at @keys, as JSON (malloc'ed). */
static char *join(char *prefix, json_object *row, const char *const *keys,
		  size_t n)
{
	char *s = prefix, *t;
	size_t i;

	for (i = 0; s && i < n; i++) {
		if (asprintf(&t, "%s|%s", s,
			     json_object_to_json_string(
				     ab_json_get(row, keys[i]))) < 0)
			t = NULL;
		free(s);
		s = t;
	}
	return s;
}

/* The identity's first part (@setup 0) or both parts (malloc'ed). */
static char *identity(json_object *row, int setup)
{
	const char *kind = json_object_get_string(ab_json_get(row, "kind"));
	char *s;

	if (asprintf(&s, "%s", kind ? kind : "?") < 0)
		return NULL;
	if (is_lookup(row))
		return join(s, row, lookup_what,
			    sizeof(lookup_what) / sizeof(lookup_what[0]));
	s = join(s, row, alloc_what,
		 sizeof(alloc_what) / sizeof(alloc_what[0]));
	if (setup)
		s = join(s, row, alloc_setup,
			 sizeof(alloc_setup) / sizeof(alloc_setup[0]));
	return s;
}

char *ab_result_row_key(json_object *row)
{
	return identity(row, 1);
}

int ab_result_row_same_what(json_object *a, json_object *b)
{
	char *x = identity(a, 0), *y = identity(b, 0);
	int same = x && y && !strcmp(x, y);

	free(x);
	free(y);
	return same;
}

char *ab_result_row_name(json_object *row)
{
	const char *label = json_object_get_string(ab_json_get(row, "label"));
	double bytes = ab_json_double(ab_json_get(row, "object_bytes"));
	char *s = NULL, obj[48];
	int ret;

	if (is_lookup(row))
		ret = asprintf(
			&s, "lookup %s (%s, sizes %s)",
			json_object_get_string(ab_json_get(row, "method")),
			json_object_get_string(ab_json_get(row, "table")),
			json_object_get_string(ab_json_get(row, "sizes")));
	else if (label && !strchr(label, ' ') && !isnan(bytes)) {
		/* as run's object column names it: by its order, if any */
		ab_format_object(int_or(row, "order", -1), (uint64_t)bytes, 1,
				 obj, sizeof(obj));
		ret = asprintf(&s, "%s %s", label, obj);
	} else
		ret = asprintf(&s, "%s", label ? label : "?");
	return ret < 0 ? NULL : s;
}

const char *const *ab_result_row_phases(json_object *row)
{
	static const char *const alloc_phases[] = { "alloc", "free", NULL };
	static const char *const lookup_phases[] = { "lookup", NULL };

	return is_lookup(row) ? lookup_phases : alloc_phases;
}

double ab_result_row_median(json_object *row, const char *phase)
{
	if (!strcmp(phase, "lookup"))
		return ab_json_double(ab_json_get(row, "median_ns"));
	return ab_json_double(ab_json_get(
		ab_json_get(ab_json_get(row, phase), "ns"), "median"));
}

json_object *ab_result_find(json_object *doc, const char *key, size_t occ)
{
	json_object *rows = ab_result_rows(doc);
	size_t i;

	for (i = 0; key && rows && i < json_object_array_length(rows); i++) {
		json_object *r = json_object_array_get_idx(rows, i);
		char *k = ab_result_row_key(r);
		int same = k && !strcmp(k, key);

		free(k);
		if (same && !occ--)
			return r;
	}
	return NULL;
}

json_object *ab_result_find_what(json_object *doc, json_object *row)
{
	json_object *rows = ab_result_rows(doc);
	size_t i;

	for (i = 0; rows && i < json_object_array_length(rows); i++) {
		json_object *r = json_object_array_get_idx(rows, i);

		if (ab_result_row_same_what(r, row))
			return r;
	}
	return NULL;
}

int ab_result_can_fail(json_object *par, json_object *row)
{
	const char *cond =
		json_object_get_string(ab_json_get(par, "condition"));

	return (cond && strcmp(cond, "quiet")) ||
	       ab_json_double(ab_json_get(row, "failed")) > 0;
}
