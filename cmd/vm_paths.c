// SPDX-License-Identifier: GPL-2.0-only
/*
 * vm_paths.c - `allocbench vm --paths` in the text report (vm.h): per row
 * and phase, the fast path of each kernel (the length of one op that most
 * ops ran, over its boots) and B - A (lib/results/vmpaths.c makes them).
 */
#include <stdio.h>
#include <string.h>

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

	printf("    %s:", side);
	for (i = 0; i < n; i++) {
		json_object *l = json_object_array_get_idx(lens, i);

		printf("%s %lld (%.1f%%)", i ? "," : "", jll(l, "instructions"),
		       ops ? 100.0 * (double)jll(l, "ops") / (double)ops : 0);
	}
	printf("\n");
}

/* "yes", or each kernel's fast paths over its boots when they differ */
static void every_boot(json_object *p, char *buf, size_t len)
{
	json_object *f;
	size_t i, k, n, used = 0;
	int w;

	if (json_object_get_boolean(ab_json_get(p, "same_in_every_boot"))) {
		snprintf(buf, len, "yes");
		return;
	}
	w = snprintf(buf, len, "no:");
	used = w > 0 && (size_t)w < len ? (size_t)w : len - 1;
	for (k = 0; k < 2; k++) {
		f = ab_json_get(p, k ? "fast_b" : "fast_a");
		n = f ? json_object_array_length(f) : 0;
		w = snprintf(buf + used, len - used, " %c", k ? 'B' : 'A');
		used += w > 0 && (size_t)w < len - used ? (size_t)w : 0;
		for (i = 0; i < n && used + 1 < len; i++) {
			w = snprintf(buf + used, len - used, "%s%lld",
				     i ? "," : " ",
				     (long long)json_object_get_int64(
					     json_object_array_get_idx(f, i)));
			used += w > 0 && (size_t)w < len - used ? (size_t)w : 0;
		}
	}
}

void vm_print_paths(json_object *rows, int wl, char b, int lengths)
{
	size_t i, n = rows ? json_object_array_length(rows) : 0;
	char eb[160];
	int head = 0;

	for (i = 0; i < n; i++) {
		json_object *r = json_object_array_get_idx(rows, i);
		json_object *p = ab_json_get(r, "paths");

		if (!p)
			continue;
		if (!head++) {
			printf("\nfast paths (--paths): instructions of one op on the path most ops ran, each kernel's boots pooled (every boot a slab state); B - A is exact, and the same in every pair of boots when every boot of each kernel ran that fast path (\"every boot\"); share: the ops on it\n");
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
		every_boot(p, eb, sizeof(eb));
		printf("%s\n", eb);
		if (!lengths)
			continue;
		print_lengths("A", ab_json_get(p, "lengths_a"),
			      jll(p, "ops_a"));
		eb[0] = b;
		eb[1] = '\0';
		print_lengths(eb, ab_json_get(p, "lengths_b"), jll(p, "ops_b"));
	}
}
