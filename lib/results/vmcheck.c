// SPDX-License-Identifier: GPL-2.0-only
/*
 * vmcheck.c - saved documents read back (plot, export): ab_vm_check() for
 * an `allocbench vm` document, ab_saved_check() for any one a command
 * saved (see vmab.h).
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "jsonin.h"
#include "jsonout.h"
#include "vmab.h"

/* A member @key of @o that is a finite number or null. */
static int number_ok(json_object *o, const char *key)
{
	json_object *v;

	if (!json_object_object_get_ex(o, key, &v))
		return 0;
	if (!v)
		return 1;
	if (!json_object_is_type(v, json_type_double) &&
	    !json_object_is_type(v, json_type_int))
		return 0;
	return isfinite(json_object_get_double(v));
}

/* One row of comparison @i; 0 or -EINVAL after the reason in @err. */
static int row_ok(json_object *r, size_t i, size_t j, char *err, size_t len)
{
	static const char *const nums[] = { "a_ns", "b_ns", "ratio", "p" };
	json_object *ci = ab_json_array(r, "ci95");
	size_t k;

	if (!json_object_is_type(ab_json_get(r, "label"), json_type_string) ||
	    !json_object_is_type(ab_json_get(r, "phase"), json_type_string)) {
		snprintf(
			err, len,
			"comparisons[%zu].rows[%zu]: label and phase must be strings",
			i, j);
		return -EINVAL;
	}
	for (k = 0; k < sizeof(nums) / sizeof(nums[0]); k++) {
		json_object *v = ab_json_get(r, nums[k]);

		double x = v ? json_object_get_double(v) : 0;

		/* ns and ratios are positive; p is in [0, 1] */
		if (number_ok(r, nums[k]) && v &&
		    (strcmp(nums[k], "p") ? !(x > 0) : !(x >= 0 && x <= 1))) {
			snprintf(err, len,
				 "comparisons[%zu].rows[%zu].%s: out of range",
				 i, j, nums[k]);
			return -EINVAL;
		}
		if (!number_ok(r, nums[k])) {
			snprintf(
				err, len,
				"comparisons[%zu].rows[%zu].%s: not a finite number or null",
				i, j, nums[k]);
			return -EINVAL;
		}
	}
	for (k = 0; ci && k < json_object_array_length(ci); k++) {
		json_object *v = json_object_array_get_idx(ci, k);

		if (v && !(json_object_is_type(v, json_type_double) ||
			   json_object_is_type(v, json_type_int)))
			ci = NULL;
	}
	if (!ci || json_object_array_length(ci) != 2) {
		snprintf(
			err, len,
			"comparisons[%zu].rows[%zu].ci95: not an array of two numbers",
			i, j);
		return -EINVAL;
	}
	return 0;
}

int ab_vm_check(json_object *root, char *err, size_t len)
{
	json_object *cmps = ab_json_array(root, "comparisons");
	const char *schema =
		json_object_get_string(ab_json_get(root, "schema"));
	size_t i, j;

	if (!schema || strcmp(schema, "allocbench-vm")) {
		snprintf(err, len, "schema: not \"allocbench-vm\"");
		return -EINVAL;
	}
	if (json_object_get_int(ab_json_get(root, "schema_version")) != 1) {
		snprintf(err, len,
			 "schema_version: this allocbench reads version 1");
		return -EINVAL;
	}
	if (!cmps) {
		snprintf(err, len, "comparisons: missing or not an array");
		return -EINVAL;
	}
	for (i = 0; i < json_object_array_length(cmps); i++) {
		json_object *c = json_object_array_get_idx(cmps, i);
		json_object *rows = ab_json_array(c, "rows");

		if (!json_object_get_string(ab_json_get(c, "a")) ||
		    !json_object_get_string(ab_json_get(c, "b")) || !rows) {
			snprintf(err, len,
				 "comparisons[%zu]: needs a, b and rows", i);
			return -EINVAL;
		}
		for (j = 0; j < json_object_array_length(rows); j++)
			if (row_ok(json_object_array_get_idx(rows, j), i, j,
				   err, len))
				return -EINVAL;
	}
	return 0;
}

int ab_saved_check(json_object *root,
		   int (*comparisons)(json_object *, char *, size_t), char *err,
		   size_t len)
{
	const char *schema =
		json_object_get_string(ab_json_get(root, "schema"));

	if (schema && !strcmp(schema, "allocbench-vm"))
		return ab_vm_check(root, err, len);
	if (schema && !strcmp(schema, "allocbench-result") &&
	    !ab_json_get(root, "results") && ab_json_get(root, "comparisons"))
		return comparisons ? comparisons(root, err, len) : 0;
	return ab_json_check_result(root, err, len);
}
