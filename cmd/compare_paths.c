// SPDX-License-Identifier: GPL-2.0-only
/*
 * compare_paths.c - `allocbench compare --explain`: what the explained
 * paths of A and B counted per op, B against A (compare_paths.h).
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "compare_paths.h"
#include "explain.h"
#include "jsonout.h"

/*
 * --explain (issue 14, part 4): the explained paths of A's and B's
 * families, per op (net, from the counting pass), as B - A. @cb(path,
 * event, a, b, ctx) gets each path both counted; returns how many.
 */
static int path_deltas(const struct ab_job *view,
		       void (*cb)(const char *, const char *, double, double,
				  void *),
		       void *ctx)
{
	const struct ab_row *a = &view->rows[0], *b = &view->rows[1];
	const struct ab_counters *c = &view->session.counters;
	unsigned int fam = ab_family_of(a->si->flags, a->si->params) |
			   ab_family_of(b->si->flags, b->si->params);
	char ev[160];
	double va, vb;
	int k, n = 0;

	if (!view->explain)
		return 0;
	for (k = 0; k < view->explain_paths.n; k++) {
		if (!(view->explain_paths.path[k].families & fam))
			continue;
		va = ab_explain_net(&view->explain_paths.path[k], c, a->ev_net);
		vb = ab_explain_net(&view->explain_paths.path[k], c, b->ev_net);
		if (isnan(va) || isnan(vb))
			continue;
		ab_explain_event_text(&view->explain_paths.path[k], ev,
				      sizeof(ev));
		cb(view->explain_paths.path[k].label, ev, va, vb, ctx);
		n++;
	}
	return n;
}

/* The text of the deltas: differing paths, then the unchanged ones. */
struct path_text {
	char diff[1024], same[1024];
	size_t nd, ns;
};

/* Per op at two decimals, as printed: equal there is "unchanged". */
static void path_text_add(const char *label, const char *event, double a,
			  double b, void *ctx)
{
	struct path_text *t = ctx;
	char da[32], db[32];

	snprintf(da, sizeof(da), "%.2f", a);
	snprintf(db, sizeof(db), "%.2f", b);
	if (!strcmp(da, db)) {
		if (t->ns < sizeof(t->same))
			t->ns += (size_t)snprintf(
				t->same + t->ns, sizeof(t->same) - t->ns,
				"%s%s", t->ns ? ", " : "", label);
	} else if (t->nd < sizeof(t->diff)) {
		t->nd += (size_t)snprintf(
			t->diff + t->nd, sizeof(t->diff) - t->nd,
			"%s%+.2f %s/op (%s to %s)", t->nd ? ", " : "", b - a,
			label, da, db);
	}
}

void compare_print_paths(const struct ab_job *view, int sig)
{
	struct path_text t = { .nd = 0, .ns = 0 };

	t.diff[0] = t.same[0] = '\0';
	if (!path_deltas(view, path_text_add, &t))
		return;
	printf("paths (--explain, B against A, per op from the counting pass): %s\n",
	       t.nd ? t.diff : "no explained path differs");
	if (t.ns)
		printf("unchanged at two decimals: %s\n", t.same);
	if (t.nd)
		printf(sig ? "paths: these count differences go with the time difference (correlated, not shown to cause it)\n"
			   : "paths: these are counts, not timings: no phase differs significantly in time, so they go with no time difference\n");
}

static void path_json_add(const char *label, const char *event, double a,
			  double b, void *ctx)
{
	json_object *o = json_object_new_object();

	json_object_object_add(o, "path", json_object_new_string(label));
	json_object_object_add(o, "event", json_object_new_string(event));
	json_object_object_add(o, "a_per_op", ab_json_num(a));
	json_object_object_add(o, "b_per_op", ab_json_num(b));
	json_object_object_add(o, "delta_per_op", ab_json_num(b - a));
	json_object_array_add(ctx, o);
}

void compare_paths_json(const struct ab_job *view, json_object *arr)
{
	path_deltas(view, path_json_add, arr);
}
