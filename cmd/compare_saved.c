// SPDX-License-Identifier: GPL-2.0-only
/*
 * compare_saved.c - `allocbench compare` of saved results (issue 21,
 * part 5):
 *
 *   allocbench compare OLD.json NEW.json            one run per side
 *   allocbench compare A1.json A2.json ... -- B1.json B2.json ...
 *
 * The trials of one run share its boot, its page layout and its drift:
 * they are no independent evidence about the code, exactly as the trials
 * of one boot are none about a kernel. So one run per side gets the ratio
 * of the medians and "cannot conclude", never a verdict; several runs per
 * side are compared with the run as the unit, as `allocbench vm` compares
 * boots: one median per run per row and phase, Welch's t test on their
 * logs (ab_vm_compare() in lib/vmab.c, the same code), with Holm's
 * correction over every row and phase of the report (ab_vm_adjust()).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "allocbench.h"
#include "compare.h"
#include "compare_opts.h"
#include "compare_saved.h"
#include "resultrow.h"
#include "jsonout.h"
#include "textout.h"
#include "vmab.h"
/* B's first file was saved on an AMD CPU (compare_saved_warn_env()): its
 * cache-misses. */
static int files_amd;

/**
 * struct sides - the saved results of each side
 * @n:     how many of A's ([0]) and B's ([1])
 * @path:  their paths, A's then B's
 * @boots: each as a "boot" of kernel 0 (A) or 1 (B) for ab_vm_compare()
 * @cmps:  ab_vm_compare()'s array: one comparison, its rows
 */
struct sides {
	size_t n[2];
	const char **path;
	struct ab_vm_boot *boots;
	json_object *cmps;
};

/* A row's number @key, NAN when null. */
static double num(json_object *r, const char *key)
{
	return ab_json_double(ab_json_get(r, key));
}

/* The @i-th run median of side @key ("boots_a", "boots_b"), NAN if none. */
static double run_median(json_object *r, const char *key, size_t i)
{
	json_object *a = ab_json_array(r, key);

	if (!a || i >= json_object_array_length(a))
		return NAN;
	return ab_json_double(json_object_array_get_idx(a, i));
}

static size_t runs_of(json_object *r, const char *key)
{
	json_object *a = ab_json_array(r, key);

	return a ? json_object_array_length(a) : 0;
}

/*
 * A and B of row @r: with one run per side its medians (defined where the
 * geometric mean is not, a net median <= 0), else the geometric means of
 * the runs' medians.
 */
static void centres(const struct sides *sd, json_object *r, double *a,
		    double *b)
{
	*a = sd->n[0] == 1 ? run_median(r, "boots_a", 0) : num(r, "a_ns");
	*b = sd->n[1] == 1 ? run_median(r, "boots_b", 0) : num(r, "b_ns");
}

/* The verdict as this command says it (vm's, or why there is none). */
static const char *verdict_of(const struct sides *sd, json_object *r)
{
	const char *v = json_object_get_string(ab_json_get(r, "verdict"));

	if (sd->n[0] == 1 && sd->n[1] == 1)
		return "cannot conclude: one run per side";
	if (sd->n[0] == 1 || sd->n[1] == 1)
		return sd->n[0] == 1 ? "cannot conclude: one run of A"
				     : "cannot conclude: one run of B";
	if (runs_of(r, "boots_a") < 2 || runs_of(r, "boots_b") < 2)
		return "cannot conclude: fewer than 2 runs hold this row";
	return v ? v : "cannot conclude";
}

static int tested(const struct sides *sd)
{
	return sd->n[0] >= 2 && sd->n[1] >= 2;
}

/* Mean per op over each side's runs of @event, from the row's counters. */
static void counter(json_object *r, const char *event, double out[2])
{
	json_object *arr = ab_json_array(r, "counters");
	size_t i;

	out[0] = out[1] = NAN;
	for (i = 0; arr && i < json_object_array_length(arr); i++) {
		json_object *c = json_object_array_get_idx(arr, i);
		const char *e = json_object_get_string(ab_json_get(c, "event"));

		if (e && !strcmp(e, event)) {
			out[0] = num(c, "a");
			out[1] = num(c, "b");
		}
	}
}

/* The counters' lines for row @r into @why; whether any counter was saved. */
static int explain_row(json_object *r, char *why, size_t len)
{
	struct ab_explain_in in;

	counter(r, "cycles", in.cycles);
	counter(r, "instructions", in.instructions);
	counter(r, "branch-misses", in.branch_misses);
	counter(r, "cache-misses", in.cache_misses);
	counter(r, "dTLB-load-misses", in.dtlb_misses);
	in.amd = files_amd;
	in.tsc_cycles[0] = in.tsc_cycles[1] = NAN;
	ab_explain(&in, why, len);
	return !isnan(in.cycles[0]) || !isnan(in.instructions[0]);
}

static json_object *runs_json(json_object *r, const char *key)
{
	json_object *a = ab_json_array(r, key);

	return a ? json_object_get(a) : json_object_new_array();
}

/* One phase of a row as compare's JSON has it. */
static json_object *phase_json(const struct sides *sd, json_object *r)
{
	json_object *o = json_object_new_object(),
		    *ci = ab_json_array(r, "ci95");
	const char *v = verdict_of(sd, r);
	double a, b, padj = num(r, "p_adjusted");

	centres(sd, r, &a, &b);
	json_object_object_add(o, "phase",
			       json_object_get(ab_json_get(r, "phase")));
	json_object_object_add(o, "a_median_ns", ab_json_num(a));
	json_object_object_add(o, "b_median_ns", ab_json_num(b));
	json_object_object_add(o, "delta_ns", ab_json_num(b - a));
	json_object_object_add(o, "ratio", ab_json_num(b / a));
	json_object_object_add(o, "runs_a", runs_json(r, "boots_a"));
	json_object_object_add(o, "runs_b", runs_json(r, "boots_b"));
	json_object_object_add(
		o, "test",
		json_object_new_string(tested(sd) ? "welch-t-log-run-medians"
						  : "none"));
	if (tested(sd)) {
		json_object_object_add(
			o, "ratio_ci_lo",
			ab_json_num(ab_json_double(
				json_object_array_get_idx(ci, 0))));
		json_object_object_add(
			o, "ratio_ci_hi",
			ab_json_num(ab_json_double(
				json_object_array_get_idx(ci, 1))));
		json_object_object_add(o, "ci_level",
				       ab_json_num(1 - AB_VM_ALPHA));
		/* the row's own interval: Holm adjusts p, not the interval */
		json_object_object_add(o, "ci_adjusted",
				       json_object_new_boolean(0));
		json_object_object_add(o, "df", ab_json_num(num(r, "df")));
	}
	json_object_object_add(o, "p", ab_json_num(num(r, "p")));
	json_object_object_add(o, "p_adjusted", ab_json_num(padj));
	json_object_object_add(
		o, "significant",
		isnan(padj) ? NULL
			    : json_object_new_boolean(padj < AB_VM_ALPHA));
	json_object_object_add(o, "verdict", json_object_new_string(v));
	return o;
}

/* Whether verdict @v says B differs. */
static int differs_in_time(const char *v)
{
	return !strcmp(v, "faster") || !strcmp(v, "slower");
}

/*
 * This report shows the rows' phases and not ab_vm_compare()'s success
 * rates (saved runs whose allocations failed): Holm's family is what it
 * shows, so the success tests are dropped and the rows adjusted again,
 * over themselves (before, "over the 5 tests" stood above 4).
 */
static void only_rows(json_object *cmps)
{
	size_t i;

	for (i = 0; cmps && i < json_object_array_length(cmps); i++) {
		json_object *c = json_object_array_get_idx(cmps, i);

		json_object_object_del(c, "success");
		json_object_object_del(c, "correction");
	}
	ab_vm_adjust(cmps);
}

/* The saved row of A's first file that ab_vm_compare() calls @label. */
static const char *values_of(const struct sides *sd, const char *label,
			     int side)
{
	json_object *rows =
		ab_result_rows(sd->boots[side ? sd->n[0] : 0].result);
	size_t i;

	for (i = 0; rows && i < json_object_array_length(rows); i++) {
		json_object *x = json_object_array_get_idx(rows, i);
		char *l = ab_result_row_name(x);
		int same = l && !strcmp(l, label);

		free(l);
		if (same)
			return json_object_get_string(ab_json_get(x, "values"));
	}
	return NULL;
}

/* The block header of row @label: what its values are. */
static void block_header(const struct sides *sd, const char *label)
{
	const char *va = values_of(sd, label, 0), *vb = values_of(sd, label, 1);
	char vals[64];

	/* as each file says: the none baseline's own row is raw */
	if (!va || !vb || !strcmp(va, vb))
		snprintf(vals, sizeof(vals), "%s", va ? va : "net");
	else
		snprintf(vals, sizeof(vals), "A %s, B %s", va, vb);
	printf("\n%s: old (A) against new (B), %s ns/op\n", label, vals);
	if (tested(sd))
		printf("%-6s %7s %10s %10s %8s  %-24s %8s %8s  %s\n", "phase",
		       "runs", "A ns/op", "B ns/op", "B / A",
		       "[unadj. 95% CI of B / A]", "p", "p adj", "verdict");
	else
		printf("%-6s %10s %10s %10s %8s  %s\n", "phase", "A median",
		       "B median", "B - A", "B / A", "verdict");
}

static void phase_line(const struct sides *sd, json_object *r)
{
	json_object *ci = ab_json_array(r, "ci95");
	double a, b, lo = ab_json_double(json_object_array_get_idx(ci, 0)),
		     hi = ab_json_double(json_object_array_get_idx(ci, 1));
	char runs[24], p[16], padj[16], cis[40];
	const char *v = verdict_of(sd, r);

	centres(sd, r, &a, &b);
	printf("%-6s", json_object_get_string(ab_json_get(r, "phase")));
	if (!tested(sd)) {
		ab_print_cell(a, " %*.1f", 10);
		ab_print_cell(b, " %*.1f", 10);
		ab_print_cell(b - a, " %+*.1f", 10);
		ab_print_cell(a > 0 && b > 0 ? b / a : NAN, " %*.3f", 8);
		printf("  %s\n", v);
		return;
	}
	snprintf(runs, sizeof(runs), "%zu/%zu", runs_of(r, "boots_a"),
		 runs_of(r, "boots_b"));
	if (isnan(lo) || isnan(hi))
		snprintf(cis, sizeof(cis), "n/a");
	else
		snprintf(cis, sizeof(cis), "[%.3f, %.3f]", lo, hi);
	printf(" %7s", runs);
	ab_print_cell(a, " %*.1f", 10);
	ab_print_cell(b, " %*.1f", 10);
	ab_print_cell(num(r, "ratio"), " %*.3f", 8);
	printf("  %-24s %8s %8s  %s%s\n", cis,
	       ab_p_text(num(r, "p"), p, sizeof(p)),
	       ab_p_text(num(r, "p_adjusted"), padj, sizeof(padj)),
	       differs_in_time(v) ? "new is " : "", v);
}

/* The counters' story of one row, text; @sig: a phase of it differs. */
static void print_why(const struct sides *sd, json_object *r, int sig)
{
	char why[1024];
	int saved = explain_row(r, why, sizeof(why));

	if (why[0] && sig)
		printf("why (changes in the counters per op that go with the time difference, new against old; correlated, not shown to cause it):\n%s",
		       why);
	else if (why[0])
		printf("counters per op, new against old (counts, not timings: %s):\n%s",
		       tested(sd) ? "no phase differs significantly in time"
				  : "no time difference was tested",
		       why);
	else
		printf("why: %s\n",
		       saved ? "instructions, IPC and misses per op barely differ"
			     : "the files hold no hardware counts (saved without a PMU, or without --events)");
}

/* The "why" lines of row @r as JSON strings. */
static json_object *why_json(json_object *r)
{
	json_object *lines = json_object_new_array();
	char why[1024], *line, *save = NULL;

	explain_row(r, why, sizeof(why));
	for (line = strtok_r(why, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save))
		json_object_array_add(lines, json_object_new_string(line));
	return lines;
}

static json_object *correction_json(json_object *cmp)
{
	json_object *c = ab_json_get(cmp, "correction");

	if (c)
		return json_object_get(c);
	c = json_object_new_object();
	json_object_object_add(c, "method", json_object_new_string("holm"));
	json_object_object_add(c, "alpha", json_object_new_double(AB_VM_ALPHA));
	json_object_object_add(c, "tests", json_object_new_int(0));
	return c;
}

/*
 * Rows of one label (the phases of one strategy, consecutive in
 * ab_vm_compare()'s order) from @i: printed or added to @out. Returns the
 * index after them.
 */
static size_t block(const struct sides *sd, json_object *rows, size_t i,
		    json_object *out)
{
	json_object *r0 = json_object_array_get_idx(rows, i), *c = NULL,
		    *phases = NULL;
	const char *label = json_object_get_string(ab_json_get(r0, "label"));
	size_t j;
	int sig = 0;

	if (out) {
		c = json_object_new_object();
		json_object_object_add(c, "a", json_object_new_string(label));
		json_object_object_add(c, "b", json_object_new_string(label));
		phases = json_object_new_array();
	} else {
		block_header(sd, label);
	}
	for (j = i; j < json_object_array_length(rows); j++) {
		json_object *r = json_object_array_get_idx(rows, j);

		if (strcmp(json_object_get_string(ab_json_get(r, "label")),
			   label))
			break;
		sig |= differs_in_time(verdict_of(sd, r));
		if (out)
			json_object_array_add(phases, phase_json(sd, r));
		else
			phase_line(sd, r);
	}
	if (out) {
		json_object_object_add(c, "phases", phases);
		json_object_object_add(c, "why", why_json(r0));
		json_object_object_add(
			c, "correction",
			correction_json(
				json_object_array_get_idx(sd->cmps, 0)));
		json_object_array_add(out, c);
	} else {
		print_why(sd, r0, sig);
	}
	return j;
}

static void print_head(const struct sides *sd)
{
	json_object *corr = ab_json_get(json_object_array_get_idx(sd->cmps, 0),
					"correction");
	char family[128];

	if (!tested(sd)) {
		printf("compare: %zu saved run%s of A (old, %s) against %zu of B (new, %s): the ratio of the runs' medians, no test\n",
		       sd->n[0], sd->n[0] == 1 ? "" : "s", sd->path[0],
		       sd->n[1], sd->path[sd->n[0]]);
		return;
	}
	printf("compare: %zu saved %s of A (old) against %zu of B (new): each run's median ns/op, their geometric mean per side; Welch's t test on the logs, the run as unit; %s\n",
	       sd->n[0], ab_noun(sd->n[0], "run", "runs"), sd->n[1],
	       ab_holm_text(json_object_get_int(ab_json_get(corr, "tests")),
			    "2 runs a side with positive medians", family,
			    sizeof(family)));
}

static void print_foot(const struct sides *sd)
{
	if (tested(sd)) {
		printf("\nverdict: faster or slower when Holm's adjusted p < %.2f over every row and phase above (the chance of any false verdict in this report stays under that; p is each test's own); \"no significant difference\" is not \"no difference\". The intervals (unadj.) are each row's own 95%%, not adjusted: Holm adjusts p, not intervals, so an interval can leave out 1 where the adjusted verdict is no significant difference\n",
		       AB_VM_ALPHA);
		return;
	}
	printf("\nnote: cannot conclude with one run on a side: the trials of one run share its boot, page layout and drift, so they are no independent evidence about the code, and one run per side gives no estimate of the run-to-run spread (`make bench` measures that spread for kmalloc in the embedded kernel). For a verdict, save several runs of each and give them as compare A1.json A2.json ... -- B1.json B2.json ..., the run as the unit; or run both strategies in interleaved rounds with compare --alloc=A,B\n");
}

/* @path's last component */
static const char *base_name(const char *path)
{
	const char *s = strrchr(path, '/');

	return s && s[1] ? s + 1 : path;
}

/*
 * The default text (allocbench-compare(1), NOTES): a header of two lines,
 * one table of every row's phases, notes of one line each; -v and --wide
 * print report()'s full text, --json every figure.
 */
static void report_short(const struct sides *sd, json_object *rows)
{
	json_object *corr = ab_json_get(json_object_array_get_idx(sd->cmps, 0),
					"correction");
	int w = 6, t = tested(sd), counted = 0, saved = 0, tests;
	const char *ka, *kb;
	char family[128], runs[24], p[16], padj[16], cis[40], why[1024];
	char note[AB_NOTE_COLS * 4];
	size_t i;

	for (i = 0; i < json_object_array_length(rows); i++) {
		const char *l = json_object_get_string(ab_json_get(
			json_object_array_get_idx(rows, i), "label"));

		if (l && (int)strlen(l) > w)
			w = (int)strlen(l);
	}
	/* the files by name, the line cut at AB_TABLE_COLS (-v: paths) */
	snprintf(
		note, sizeof(note),
		"allocbench %s compare: %zu saved %s of A (old, %s%s) against %zu of B (new, %s%s)",
		AB_TOOL_VERSION, sd->n[0], ab_noun(sd->n[0], "run", "runs"),
		base_name(sd->path[0]), sd->n[0] > 1 ? ", ..." : "", sd->n[1],
		base_name(sd->path[sd->n[0]]), sd->n[1] > 1 ? ", ..." : "");
	if (strlen(note) > AB_TABLE_COLS)
		printf("%.*s...\n", AB_TABLE_COLS - 3, note);
	else
		printf("%s\n", note);
	ka = json_object_get_string(
		ab_json_get(ab_json_get(sd->boots[0].result, "environment"),
			    "kernel_release"));
	kb = json_object_get_string(ab_json_get(
		ab_json_get(sd->boots[sd->n[0]].result, "environment"),
		"kernel_release"));
	if (ka && kb && strcmp(ka, kb))
		printf("kernel A %.50s, B %.50s\n", ka, kb);
	else
		printf("kernel %.50s, both sides\n", ka ? ka : "?");
	tests = json_object_get_int(ab_json_get(corr, "tests"));
	if (t && tests)
		printf("test: Welch's t on the logs of the runs' medians, the run as unit; Holm over %d %s\n\n",
		       tests, ab_noun((unsigned)tests, "test", "tests"));
	else if (t)
		printf("%s\n\n",
		       ab_holm_text(tests,
				    "2 runs a side with positive medians",
				    family, sizeof(family)));
	else
		printf("no test: one run on a side; B / A is the ratio of the runs' medians\n\n");
	if (t)
		printf("%-*s %-5s %5s %9s %9s %6s  %-16s %7s %7s  %s\n", w,
		       "row", "phase", "runs", "A ns/op", "B ns/op", "B / A",
		       "[95% CI, unadj.]", "p", "p adj", "verdict");
	else
		printf("%-*s %-5s %9s %9s %9s %6s  %s\n", w, "row", "phase",
		       "A median", "B median", "B - A", "B / A", "verdict");
	for (i = 0; i < json_object_array_length(rows); i++) {
		json_object *r = json_object_array_get_idx(rows, i);
		const char *v = verdict_of(sd, r);
		double a, b;
		json_object *ci = ab_json_array(r, "ci95");
		double lo = ab_json_double(json_object_array_get_idx(ci, 0)),
		       hi = ab_json_double(json_object_array_get_idx(ci, 1));

		if (!runs_of(r, "boots_b"))
			continue;
		centres(sd, r, &a, &b);
		printf("%-*s %-5s", w,
		       json_object_get_string(ab_json_get(r, "label")),
		       json_object_get_string(ab_json_get(r, "phase")));
		if (t) {
			snprintf(runs, sizeof(runs), "%zu/%zu",
				 runs_of(r, "boots_a"), runs_of(r, "boots_b"));
			printf(" %5s", runs);
		}
		ab_print_cell(a, " %*.1f", 9);
		ab_print_cell(b, " %*.1f", 9);
		if (!t) {
			ab_print_cell(b - a, " %+*.1f", 9);
			ab_print_cell(a > 0 && b > 0 ? b / a : NAN, " %*.3f",
				      6);
			printf("  %.*s\n", (int)strcspn(v, ":"), v);
			continue;
		}
		ab_print_cell(num(r, "ratio"), " %*.3f", 6);
		if (isnan(lo) || isnan(hi))
			snprintf(cis, sizeof(cis), "n/a");
		else
			snprintf(cis, sizeof(cis), "[%.3f, %.3f]", lo, hi);
		printf("  %-16s %7s %7s  %s%.*s\n", cis,
		       ab_p_text(num(r, "p"), p, sizeof(p)),
		       ab_p_text(num(r, "p_adjusted"), padj, sizeof(padj)),
		       differs_in_time(v) ? "new " : "", (int)strcspn(v, ":"),
		       v);
	}
	/* the rows' own notes: values that differ, counters that changed */
	for (i = 0; i < json_object_array_length(rows); i++) {
		json_object *r = json_object_array_get_idx(rows, i);
		const char *l = json_object_get_string(ab_json_get(r, "label"));
		const char *va, *vb;

		if (!runs_of(r, "boots_b") ||
		    (i &&
		     !strcmp(l, json_object_get_string(ab_json_get(
					json_object_array_get_idx(rows, i - 1),
					"label")))))
			continue;
		va = values_of(sd, l, 0);
		vb = values_of(sd, l, 1);
		if (va && vb && strcmp(va, vb)) {
			snprintf(note, sizeof(note),
				 "%s: A's figures are %s, B's %s", l, va, vb);
			ab_print_note("note", note);
		} else if (va && strcmp(va, "net")) {
			/* the none baseline's own row, as each file says */
			snprintf(note, sizeof(note),
				 "%s: %s ns/op, the others net", l, va);
			ab_print_note("note", note);
		}
		saved |= explain_row(r, why, sizeof(why));
		counted += !!why[0];
	}
	if (counted)
		printf("note: the counters per op differ, new against old, in %d %s: -v lists them\n",
		       counted, ab_noun((unsigned)counted, "row", "rows"));
	else
		printf("why: %s\n",
		       saved ? "instructions, IPC and misses per op barely differ"
			     : "the files hold no hardware counts (saved without a PMU, or without --events)");
	if (t)
		printf("note: verdicts on Holm's adjusted p < %.2f over every row and phase; CIs unadjusted (NOTES)\n",
		       AB_VM_ALPHA);
	else
		printf("note: one run a side cannot conclude: save several, A1.json A2.json -- B1.json B2.json\n");
}

/* Whether any row of @rows was found in a run of B. */
static int matched(json_object *rows)
{
	size_t i;

	for (i = 0; rows && i < json_object_array_length(rows); i++)
		if (runs_of(json_object_array_get_idx(rows, i), "boots_b"))
			return 1;
	return 0;
}

static void report(const struct sides *sd, json_object *rows)
{
	json_object *root = NULL, *out = NULL;
	size_t i;

	if (ab_out.formats & AB_FORMAT_JSON) {
		root = ab_json_envelope("compare", (time_t)ab_out.start);
		out = json_object_new_array();
	} else if (!ab_out.wide && !ab_out.verbose) {
		report_short(sd, rows);
		return;
	} else {
		print_head(sd);
	}
	/* the rows of A that B has: the strategies in common */
	for (i = 0; i < json_object_array_length(rows);)
		if (runs_of(json_object_array_get_idx(rows, i), "boots_b"))
			i = block(sd, rows, i, out);
		else
			i++;
	if (root) {
		json_object_object_add(root, "end", ab_json_time(time(NULL)));
		json_object_object_add(root, "comparisons", out);
		ab_json_print(root, stdout);
	} else {
		print_foot(sd);
	}
}

int ab_compare_saved(int argc, const char **argv, const char **files, int nf)
{
	static const char *const names[] = { "old", "new" };
	struct sides sd = { .path = files };
	json_object *rows;
	size_t i, n;
	int ret = compare_saved_split(argc, argv, nf, sd.n);

	if (ret)
		return ret;
	n = sd.n[0] + sd.n[1];
	ret = compare_saved_named_twice(files, n);
	if (ret)
		return ret;
	sd.boots = calloc(n, sizeof(*sd.boots));
	if (!sd.boots) {
		ab_err("compare: out of memory");
		return AB_EXIT_RUN;
	}
	for (i = 0; i < n; i++) {
		sd.boots[i].kernel = i >= sd.n[0];
		sd.boots[i].round = (int)i + 1;
		sd.boots[i].status = AB_VM_OK;
		sd.boots[i].result = compare_saved_load(files[i]);
		if (!sd.boots[i].result)
			ret = AB_EXIT_DATA;
	}
	for (i = 1; !ret && i < n; i++)
		if (i != sd.n[0])
			ret = compare_saved_same_setup(
				sd.boots[i < sd.n[0] ? 0 : sd.n[0]].result,
				sd.boots[i].result,
				files[i < sd.n[0] ? 0 : sd.n[0]], files[i]);
	if (!ret) {
		files_amd = compare_saved_warn_env(sd.boots[0].result,
						   sd.boots[sd.n[0]].result,
						   files[0], files[sd.n[0]]);
		compare_saved_notes(sd.boots[0].result,
				    sd.boots[sd.n[0]].result);
		sd.cmps = ab_vm_compare(sd.boots, n, 2, names, 0);
		only_rows(sd.cmps);
		rows = ab_json_array(json_object_array_get_idx(sd.cmps, 0),
				     "rows");
		if (!matched(rows)) {
			ab_err("compare: %s and %s have no strategy in common",
			       files[0], files[sd.n[0]]);
			ret = AB_EXIT_USAGE;
		} else {
			report(&sd, rows);
		}
		json_object_put(sd.cmps);
	}
	for (i = 0; i < n; i++)
		json_object_put(sd.boots[i].result);
	free(sd.boots);
	return ret;
}
