// SPDX-License-Identifier: GPL-2.0-only
/*
 * vm_paths.c - `allocbench vm --paths` in the text report (vm.h): per row
 * and phase, the fast path of each kernel (the length of one op that most
 * ops ran, over its boots) and B - A (lib/results/vmpaths.c makes them).
 */
#include <stdio.h>

#include "jsonout.h"
#include "vm.h"

static long long jll(json_object *o, const char *key)
{
	return (long long)json_object_get_int64(ab_json_get(o, key));
}

/* "1004 (87.5%), 1250 (12.4%), ..." of a side's pooled @lengths */
static void print_lengths(const char *side, json_object *lens, long long ops)
{
	size_t i, n = lens ? json_object_array_length(lens) : 0;

	printf("    %s's lengths:", side);
	for (i = 0; i < n; i++) {
		json_object *l = json_object_array_get_idx(lens, i);

		printf("%s %lld (%.1f%%)", i ? "," : "", jll(l, "instructions"),
		       ops ? 100.0 * (double)jll(l, "ops") / (double)ops : 0);
	}
	printf("\n");
}

/* "    A's boots: 1004, 1002, 1004" */
static void print_fast(const char *side, json_object *f)
{
	size_t i, n = f ? json_object_array_length(f) : 0;

	printf("    %s's boots' own fast paths:", side);
	for (i = 0; i < n; i++)
		printf("%s %lld", i ? "," : "",
		       (long long)json_object_get_int64(
			       json_object_array_get_idx(f, i)));
	printf("\n");
}

void vm_print_paths(json_object *rows, int wl, char b, int lengths)
{
	size_t i, n = rows ? json_object_array_length(rows) : 0;
	char eb[32];
	int head = 0, same;

	for (i = 0; i < n; i++) {
		json_object *r = json_object_array_get_idx(rows, i);
		json_object *p = ab_json_get(r, "paths");

		if (!p)
			continue;
		if (!head++) {
			printf("\nfast paths (--paths): instructions of one op on the path most ops ran, boots pooled\n");
			printf("%-*s %-5s %5s %9s %9s %8s  %7s %7s  %s\n", wl,
			       "row", "phase", "boots", "A fast", "B fast",
			       "B - A", "A share", "B share", "every boot");
		}
		snprintf(eb, sizeof(eb), "%zu/%zu",
			 json_object_array_length(ab_json_get(p, "fast_a")),
			 json_object_array_length(ab_json_get(p, "fast_b")));
		printf("%-*s %-5s %5s %9lld %9lld %+8lld  %6.1f%% %6.1f%%  ",
		       wl, json_object_get_string(ab_json_get(r, "label")),
		       json_object_get_string(ab_json_get(r, "phase")), eb,
		       jll(p, "a"), jll(p, "b"), jll(p, "delta"),
		       100 * ab_json_double(ab_json_get(p, "a_share")),
		       100 * ab_json_double(ab_json_get(p, "b_share")));
		same = json_object_get_boolean(
			ab_json_get(p, "same_in_every_boot"));
		printf("%s\n", same ? "yes" : lengths ? "no" : "no (-v: each)");
		if (!lengths)
			continue;
		eb[0] = b;
		eb[1] = '\0';
		if (!same) {
			print_fast("A", ab_json_get(p, "fast_a"));
			print_fast(eb, ab_json_get(p, "fast_b"));
		}
		print_lengths("A", ab_json_get(p, "lengths_a"),
			      jll(p, "ops_a"));
		print_lengths(eb, ab_json_get(p, "lengths_b"), jll(p, "ops_b"));
	}
}
