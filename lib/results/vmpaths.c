// SPDX-License-Identifier: GPL-2.0-only
/*
 * vmpaths.c - the fast path's B - A of one row and phase of `allocbench
 * vm --paths` (see vmpaths.h): each kernel's path lengths pooled over its
 * boots, the fast path of each, and B - A.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "jsonout.h"
#include "vmpaths.h"
#include "vpmu.h"

/* One kernel's side: its pooled lengths (each length's ops summed over
 * its boots) and each boot's fast path. */
struct side {
	struct ab_vpmu_len *len;
	size_t n, cap;
	int64_t ops, other_ops;
	int64_t *fast; /* each boot's, boots of them */
	size_t boots;
};

static int plen_add(struct side *s, uint64_t insns, uint64_t ops)
{
	size_t i;

	for (i = 0; i < s->n; i++)
		if (s->len[i].insns == insns) {
			s->len[i].ops += ops;
			return 0;
		}
	if (s->n == s->cap) {
		struct ab_vpmu_len *m;

		s->cap = s->cap ? 2 * s->cap : 32;
		m = realloc(s->len, s->cap * sizeof(*m));
		if (!m)
			return -1;
		s->len = m;
	}
	s->len[s->n].insns = insns;
	s->len[s->n++].ops = ops;
	return 0;
}

static int64_t jint(json_object *o, const char *key)
{
	return json_object_get_int64(ab_json_get(o, key));
}

/* @rows' paths of @phase into @s: -1 out of memory */
static int side_load(struct side *s, json_object **rows, size_t n,
		     const char *phase)
{
	json_object *ph, *lens, *l;
	size_t i, k, nl;

	s->fast = calloc(n + 1, sizeof(*s->fast));
	if (!s->fast)
		return -1;
	for (i = 0; i < n; i++) {
		ph = ab_json_get(ab_json_get(rows[i], "paths"), phase);
		lens = ab_json_get(ph, "lengths");
		nl = lens && json_object_is_type(lens, json_type_array)
			     ? json_object_array_length(lens)
			     : 0;
		if (!nl)
			continue;
		for (k = 0; k < nl; k++) {
			l = json_object_array_get_idx(lens, k);
			if (plen_add(s, (uint64_t)jint(l, "instructions"),
				     (uint64_t)jint(l, "ops")))
				return -1;
		}
		s->fast[s->boots++] = jint(json_object_array_get_idx(lens, 0),
					   "instructions");
		s->ops += jint(ph, "ops");
		s->other_ops += jint(ph, "other_ops");
	}
	if (s->n)
		qsort(s->len, s->n, sizeof(*s->len), ab_vpmu_len_cmp);
	return 0;
}

static int same_fast(const struct side *s)
{
	size_t i;

	for (i = 1; i < s->boots; i++)
		if (s->fast[i] != s->fast[0])
			return 0;
	return s->boots > 0;
}

json_object *ab_json_path_lengths(const struct ab_vpmu_len *len, size_t n)
{
	json_object *a = json_object_new_array(), *l;
	size_t i;

	for (i = 0; i < n; i++) {
		l = json_object_new_object();
		json_object_object_add(
			l, "instructions",
			json_object_new_int64((int64_t)len[i].insns));
		json_object_object_add(
			l, "ops", json_object_new_int64((int64_t)len[i].ops));
		json_object_array_add(a, l);
	}
	return a;
}

static double share(const struct side *s)
{
	return s->ops ? (double)s->len[0].ops / (double)s->ops : 0;
}

json_object *ab_vm_paths_diff(json_object **ra, size_t na, json_object **rb,
			      size_t nb, const char *phase, int paired)
{
	struct side s[2];
	json_object *o = NULL, *pd;
	int64_t *d;
	size_t i;
	int k;

	memset(s, 0, sizeof(s));
	if (side_load(&s[0], ra, na, phase) ||
	    side_load(&s[1], rb, nb, phase) || !s[0].n || !s[1].n)
		goto out;
	o = json_object_new_object();
	json_object_object_add(
		o, "a", json_object_new_int64((int64_t)s[0].len[0].insns));
	json_object_object_add(
		o, "b", json_object_new_int64((int64_t)s[1].len[0].insns));
	json_object_object_add(
		o, "delta",
		json_object_new_int64((int64_t)s[1].len[0].insns -
				      (int64_t)s[0].len[0].insns));
	json_object_object_add(o, "a_share", ab_json_num(share(&s[0])));
	json_object_object_add(o, "b_share", ab_json_num(share(&s[1])));
	json_object_object_add(
		o, "same_in_every_boot",
		json_object_new_boolean(same_fast(&s[0]) && same_fast(&s[1])));
	for (k = 0; k < 2; k++) {
		json_object_object_add(
			o, k ? "fast_b" : "fast_a",
			ab_json_int_array(s[k].fast, s[k].boots));
		json_object_object_add(o, k ? "ops_b" : "ops_a",
				       json_object_new_int64(s[k].ops));
		json_object_object_add(
			o, k ? "lengths_b" : "lengths_a",
			ab_json_path_lengths(s[k].len,
					     s[k].n < AB_VM_PATHS_LIST
						     ? s[k].n
						     : AB_VM_PATHS_LIST));
		json_object_object_add(o, k ? "distinct_b" : "distinct_a",
				       json_object_new_int64((int64_t)s[k].n));
	}
	/* vm --deterministic: round i's boots of A and B, pair by pair */
	pd = NULL;
	if (paired && s[0].boots == s[1].boots &&
	    (d = calloc(s[0].boots + 1, sizeof(*d)))) {
		for (i = 0; i < s[0].boots; i++)
			d[i] = s[1].fast[i] - s[0].fast[i];
		pd = ab_json_int_array(d, s[0].boots);
		free(d);
	}
	json_object_object_add(o, "pairs_delta", pd);
out:
	for (k = 0; k < 2; k++) {
		free(s[k].len);
		free(s[k].fast);
	}
	return o;
}
