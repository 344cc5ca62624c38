// SPDX-License-Identifier: GPL-2.0-only
/*
 * compare.c - `allocbench compare`: is B faster than A, is the difference
 * more than noise, and what do the counters say made it.
 *
 *   allocbench compare --alloc=A,B [run's options]   two strategies, one run
 *   allocbench compare OLD.json NEW.json              two saved results
 *                                                     (e.g. before and after
 *                                                     a kernel patch)
 *
 * Per phase: the median net ns/op of each, their difference and ratio, and
 * a Mann-Whitney U test on the per-trial values (lib/compare.c), a
 * difference with p >= 0.05 marked as not significant. With counters
 * (--events), the per-op deltas that account for the cycles.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compare.h"
#include "jsonin.h"
#include "jsonout.h"
#include "runner.h"

/* Index of event @name (its modifiers after ':' ignored), or -1. */
static int event_index(const struct ab_counters *c, const char *name)
{
	size_t n = strlen(name);
	int i;

	for (i = 0; i < c->n; i++)
		if (!strncmp(c->ev[i].name, name, n) &&
		    (c->ev[i].name[n] == '\0' || c->ev[i].name[n] == ':'))
			return i;
	return -1;
}

static void pick(const struct ab_job *job, const char *name, double out[2])
{
	int e = event_index(&job->ses.counters, name);

	out[0] = e < 0 ? NAN : job->rows[0].ev_raw[e];
	out[1] = e < 0 ? NAN : job->rows[1].ev_raw[e];
}

/**
 * struct phase_cmp - one phase of A against B
 * @phase:  "alloc" or "free"
 * @a, @b:  the medians, net ns/op
 * @t:      the Mann-Whitney U test on the per-trial values
 */
struct phase_cmp {
	const char *phase;
	double a, b;
	struct ab_mwu t;
};

/* Tests @va[0..na) against @vb[0..nb) (sorted per-op ns). */
static void phase_test(struct phase_cmp *c, const char *phase, const double *va,
		       size_t na, const double *vb, size_t nb)
{
	struct ab_stats sa, sb;
	double *ca = malloc((na ? na : 1) * sizeof(*ca));
	double *cb = malloc((nb ? nb : 1) * sizeof(*cb));

	c->phase = phase;
	c->a = c->b = NAN;
	if (ca && cb) {
		memcpy(ca, va, na * sizeof(*ca));
		memcpy(cb, vb, nb * sizeof(*cb));
		ab_stats_compute(ca, na, &sa);
		ab_stats_compute(cb, nb, &sb);
		c->a = sa.median;
		c->b = sb.median;
	}
	free(ca);
	free(cb);
	ab_mann_whitney(va, na, vb, nb, &c->t);
}

static json_object *phase_json(const struct phase_cmp *c)
{
	json_object *o = json_object_new_object();

	json_object_object_add(o, "phase", json_object_new_string(c->phase));
	json_object_object_add(o, "a_median_ns", ab_json_num(c->a));
	json_object_object_add(o, "b_median_ns", ab_json_num(c->b));
	json_object_object_add(o, "delta_ns", ab_json_num(c->b - c->a));
	json_object_object_add(o, "ratio", ab_json_num(c->b / c->a));
	json_object_object_add(o, "test",
			       json_object_new_string("mann-whitney-u"));
	json_object_object_add(o, "u", ab_json_num(c->t.u));
	json_object_object_add(o, "z", ab_json_num(c->t.z));
	json_object_object_add(o, "p", ab_json_num(c->t.p));
	json_object_object_add(
		o, "significant",
		isnan(c->t.p) ? NULL : json_object_new_boolean(c->t.p < 0.05));
	return o;
}

/* One table line; @b_name is what the verdict calls B. */
static void phase_line(const struct phase_cmp *c, const char *b_name)
{
	printf("%-6s %10.1f %10.1f %+10.1f %8.3f %12.3g  ", c->phase, c->a,
	       c->b, c->b - c->a, c->b / c->a, c->t.p);
	if (isnan(c->t.p))
		printf("not testable (too few or all-equal samples)\n");
	else if (c->t.p >= 0.05)
		printf("no significant difference (p >= 0.05)\n");
	else
		printf("%s is %s (significant, p < 0.05)\n", b_name,
		       c->b < c->a ? "faster" : "slower");
}

static void row_test(struct phase_cmp *c, const struct ab_row *a,
		     const struct ab_row *b, int p)
{
	phase_test(c, p ? "free" : "alloc", a->ns[p], a->nr_ns[p], b->ns[p],
		   b->nr_ns[p]);
}

/* The explanation lines into @why; 0 when no hardware counter opened. */
static int explain(const struct ab_job *job, char *why, size_t len)
{
	struct ab_explain_in in;

	why[0] = '\0';
	if (!job->ses.counters.n)
		return 0;
	pick(job, "cycles", in.cycles);
	pick(job, "instructions", in.instructions);
	pick(job, "branch-misses", in.branch_misses);
	pick(job, "cache-misses", in.cache_misses);
	pick(job, "dTLB-load-misses", in.dtlb_misses);
	if (isnan(in.cycles[0]) && isnan(in.instructions[0]) &&
	    isnan(in.branch_misses[0]) && isnan(in.cache_misses[0]) &&
	    isnan(in.dtlb_misses[0]))
		return 0;
	ab_explain(&in, why, len);
	return 1;
}

static void json_compare(const struct ab_job *job)
{
	const struct ab_row *a = &job->rows[0], *b = &job->rows[1];
	json_object *root = ab_job_json(job), *c = json_object_new_object();
	json_object *phases = json_object_new_array(), *lines;
	char why[1024], *line, *save = NULL;
	int hw = explain(job, why, sizeof(why));

	json_object_object_add(c, "a", json_object_new_string(a->label));
	json_object_object_add(c, "b", json_object_new_string(b->label));
	struct phase_cmp pc;

	row_test(&pc, a, b, 0);
	json_object_array_add(phases, phase_json(&pc));
	if (a->nr_ns[1] && b->nr_ns[1]) {
		row_test(&pc, a, b, 1);
		json_object_array_add(phases, phase_json(&pc));
	}
	json_object_object_add(c, "phases", phases);
	lines = json_object_new_array();
	for (line = strtok_r(why, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save))
		json_object_array_add(lines, json_object_new_string(line));
	json_object_object_add(c, "why", hw ? lines : NULL);
	if (!hw)
		json_object_put(lines);
	json_object_object_add(root, "compare", c);
	ab_json_print(root, stdout);
}

static void print_compare(const struct ab_job *job)
{
	const struct ab_row *a = &job->rows[0], *b = &job->rows[1];
	struct phase_cmp pc;
	char why[1024];

	printf("\ncompare: %s (B) against %s (A), %s ns/op per trial; test: Mann-Whitney U, two-sided\n",
	       b->si->name, a->si->name, job->raw ? "raw" : "net");
	printf("%-6s %10s %10s %10s %8s %12s  %s\n", "phase", "A median",
	       "B median", "B - A", "B / A", "p", "verdict");
	row_test(&pc, a, b, 0);
	phase_line(&pc, b->si->name);
	if (a->nr_ns[1] && b->nr_ns[1]) {
		row_test(&pc, a, b, 1);
		phase_line(&pc, b->si->name);
	}
	printf("note: A's trials all ran before B's; drift between the two runs counts as a difference too: compare a strategy with itself (--alloc=%s,%s) to see this machine's noise floor\n",
	       a->si->name, a->si->name);
	if (!job->ses.counters.n)
		printf("why: no counters (add --events to see instructions, IPC and misses per op)\n");
	else if (!explain(job, why, sizeof(why)))
		printf("why: no hardware counter opened, so instructions, IPC and misses are unknown here (software counts above)\n");
	else if (why[0])
		printf("why (counters per op, B against A):\n%s", why);
	else
		printf("why: instructions, IPC and misses per op barely differ\n");
}

/* ---- two saved results ---- */

/* A phase's sorted per-op ns into a malloc'ed array; *n how many. */
static double *per_op(json_object *result, const char *phase, size_t *n)
{
	json_object *arr =
		ab_json_array(ab_json_get(result, phase), "per_op_ns_sorted");
	double *v;
	size_t i, len;

	*n = 0;
	if (!arr)
		return NULL;
	len = json_object_array_length(arr);
	v = calloc(len ? len : 1, sizeof(*v));
	/* finite numbers, every one: load() checked them */
	for (i = 0; v && i < len; i++)
		v[(*n)++] = ab_json_double(json_object_array_get_idx(arr, i));
	return v;
}

static double counter_of(json_object *result, const char *event)
{
	json_object *arr = ab_json_array(result, "counters");
	size_t i;

	if (!arr)
		return NAN;
	for (i = 0; i < json_object_array_length(arr); i++) {
		json_object *c = json_object_array_get_idx(arr, i);
		const char *e = json_object_get_string(ab_json_get(c, "event"));

		if (e && !strcmp(e, event))
			return ab_json_double(ab_json_get(c, "per_op"));
	}
	return NAN;
}

/* The saved result @path, checked; NULL after one line on stderr. */
static json_object *load(const char *path)
{
	char err[1024];
	json_object *root = ab_json_read_result(path, err, sizeof(err));

	if (!root)
		ab_err("compare: %s", err);
	return root;
}

/*
 * The setup fields that make two results measure different things; one
 * note each on stderr when A and B differ in them.
 */
static void mismatch_notes(json_object *ra, json_object *rb, json_object *a,
			   json_object *b)
{
	static const char *const result_keys[] = { "object_bytes", "batch",
						   "strategy", "node",
						   "lookup" };
	static const char *const param_keys[] = { "timing", "free",  "context",
						  "gfp",    "write", "raw" };
	json_object *pa = ab_json_get(ra, "parameters"),
		    *pb = ab_json_get(rb, "parameters");
	json_object *ea = ab_json_get(ra, "environment"),
		    *eb = ab_json_get(rb, "environment");
	const char *label = json_object_get_string(ab_json_get(b, "label"));
	size_t k;

	for (k = 0; k < sizeof(result_keys) / sizeof(result_keys[0]); k++)
		if (strcmp(json_object_to_json_string(
				   ab_json_get(a, result_keys[k])),
			   json_object_to_json_string(
				   ab_json_get(b, result_keys[k]))))
			ab_err("compare: note: %s: %s differs (%s against %s): more than one thing changed",
			       label, result_keys[k],
			       json_object_to_json_string(
				       ab_json_get(a, result_keys[k])),
			       json_object_to_json_string(
				       ab_json_get(b, result_keys[k])));
	for (k = 0; k < sizeof(param_keys) / sizeof(param_keys[0]); k++)
		if (strcmp(json_object_to_json_string(
				   ab_json_get(pa, param_keys[k])),
			   json_object_to_json_string(
				   ab_json_get(pb, param_keys[k]))))
			ab_err("compare: note: %s: --%s differs (%s against %s): more than one thing changed",
			       label, param_keys[k],
			       json_object_to_json_string(
				       ab_json_get(pa, param_keys[k])),
			       json_object_to_json_string(
				       ab_json_get(pb, param_keys[k])));
	if (strcmp(json_object_to_json_string(
			   ab_json_get(ea, "kernel_release")),
		   json_object_to_json_string(
			   ab_json_get(eb, "kernel_release"))))
		ab_err("compare: note: kernels %s and %s",
		       json_object_to_json_string(
			       ab_json_get(ea, "kernel_release")),
		       json_object_to_json_string(
			       ab_json_get(eb, "kernel_release")));
}

/* One strategy in both files: each phase, then the counters' story. */
static void compare_results(json_object *a, json_object *b, json_object *out)
{
	static const char *const phases[] = { "alloc", "free" };
	struct ab_explain_in in;
	json_object *c = json_object_new_object(), *arr;
	char why[1024];
	int p;

	json_object_object_add(c, "a",
			       json_object_new_string(json_object_get_string(
				       ab_json_get(a, "label"))));
	json_object_object_add(c, "b",
			       json_object_new_string(json_object_get_string(
				       ab_json_get(b, "label"))));
	arr = json_object_new_array();
	if (!out) {
		/* as each file says: the none baseline's own row is raw */
		const char *va =
			json_object_get_string(ab_json_get(a, "values"));
		const char *vb =
			json_object_get_string(ab_json_get(b, "values"));
		char vals[64];

		if (!va || !vb || !strcmp(va, vb))
			snprintf(vals, sizeof(vals), "%s", va ? va : "net");
		else
			snprintf(vals, sizeof(vals), "A %s, B %s", va, vb);
		printf("\n%s: old (A) against new (B), %s ns/op; test: Mann-Whitney U, two-sided\n%-6s %10s %10s %10s %8s %12s  %s\n",
		       json_object_get_string(ab_json_get(a, "label")), vals,
		       "phase", "A median", "B median", "B - A", "B / A", "p",
		       "verdict");
	}
	for (p = 0; p < 2; p++) {
		size_t na, nb;
		double *va = per_op(a, phases[p], &na),
		       *vb = per_op(b, phases[p], &nb);
		struct phase_cmp pc;

		if (na && nb) {
			phase_test(&pc, phases[p], va, na, vb, nb);
			if (out)
				json_object_array_add(arr, phase_json(&pc));
			else
				phase_line(&pc, "new");
		}
		free(va);
		free(vb);
	}
	in.cycles[0] = counter_of(a, "cycles");
	in.cycles[1] = counter_of(b, "cycles");
	in.instructions[0] = counter_of(a, "instructions");
	in.instructions[1] = counter_of(b, "instructions");
	in.branch_misses[0] = counter_of(a, "branch-misses");
	in.branch_misses[1] = counter_of(b, "branch-misses");
	in.cache_misses[0] = counter_of(a, "cache-misses");
	in.cache_misses[1] = counter_of(b, "cache-misses");
	in.dtlb_misses[0] = counter_of(a, "dTLB-load-misses");
	in.dtlb_misses[1] = counter_of(b, "dTLB-load-misses");
	ab_explain(&in, why, sizeof(why));
	json_object_object_add(c, "phases", arr);
	if (out) {
		json_object *lines = json_object_new_array();
		char *line, *save = NULL;

		for (line = strtok_r(why, "\n", &save); line;
		     line = strtok_r(NULL, "\n", &save))
			json_object_array_add(lines,
					      json_object_new_string(line));
		json_object_object_add(c, "why", lines);
		json_object_array_add(out, c);
	} else {
		if (why[0])
			printf("why (counters per op, new against old):\n%s",
			       why);
		else
			printf("why: %s\n",
			       isnan(in.cycles[0]) && isnan(in.instructions[0])
				       ? "the files hold no hardware counts (saved without a PMU, or without --events)"
				       : "instructions, IPC and misses per op barely differ");
		json_object_put(c);
	}
}

static int compare_files(const char *old_path, const char *new_path)
{
	json_object *a = load(old_path), *b = a ? load(new_path) : NULL;
	json_object *ra, *rb, *out = NULL, *root = NULL;
	size_t i, j, matched = 0;

	if (!a || !b) {
		json_object_put(a);
		return AB_EXIT_DATA;
	}
	if (ab_out.json) {
		root = ab_json_envelope("compare", (time_t)ab_out.start);
		out = json_object_new_array();
	}
	ra = ab_json_get(a, "results");
	rb = ab_json_get(b, "results");
	for (j = 0; j < json_object_array_length(rb); j++) {
		json_object *y = json_object_array_get_idx(rb, j);
		const char *label =
			json_object_get_string(ab_json_get(y, "label"));

		for (i = 0; label && i < json_object_array_length(ra); i++) {
			json_object *x = json_object_array_get_idx(ra, i);
			const char *la =
				json_object_get_string(ab_json_get(x, "label"));

			if (la && !strcmp(la, label)) {
				mismatch_notes(a, b, x, y);
				compare_results(x, y, out);
				matched++;
				break;
			}
		}
	}
	if (root) {
		json_object_object_add(root, "end", ab_json_time(time(NULL)));
		json_object_object_add(root, "comparisons", out);
		ab_json_print(root, stdout);
	}
	json_object_put(a);
	json_object_put(b);
	if (!matched) {
		ab_err("compare: %s and %s have no strategy in common",
		       old_path, new_path);
		return AB_EXIT_USAGE;
	}
	return AB_EXIT_OK;
}

int cmd_compare(int argc, const char **argv)
{
	struct ab_job *job = ab_job_new();
	const char *files[3];
	int ret, nf;

	if (!job)
		return AB_EXIT_RUN;
	/* two saved results, or run's options for two strategies */
	nf = ab_run_parse("compare", argc, argv, job, files, 3);
	ret = nf < 0 ? -nf : AB_EXIT_OK;
	if (!ret && nf && (nf != 2 || ab_run_options_given())) {
		ab_err("compare: give two saved results, OLD.json NEW.json, or --alloc=A,B");
		ret = AB_EXIT_USAGE;
	}
	if (!ret && nf) {
		ab_job_free(job);
		free(job);
		return compare_files(files[0], files[1]);
	}
	if (!ret)
		ret = ab_run_setup(job);
	if (!ret && job->csv) {
		ab_err("compare: --csv is for one table of results; use --json for the comparison too");
		ret = AB_EXIT_USAGE;
	}
	if (!ret && job->nrows != 2) {
		ab_err("compare: --alloc names %d strategies; compare takes two, A,B",
		       job->nrows);
		ret = AB_EXIT_USAGE;
	}
	if (!ret) {
		ret = ab_job_run(job);
		if (ab_out.json && !ret) {
			json_compare(job);
		} else {
			ab_job_print(job);
			if (!ret)
				print_compare(job);
		}
	}
	ab_job_free(job);
	free(job);
	return ret;
}
