// SPDX-License-Identifier: GPL-2.0-only
/*
 * compare.c - `allocbench compare`: is B faster than A, is the difference
 * more than noise, and what do the counters say made it.
 *
 *   allocbench compare --alloc=A,B [run's options]   two strategies, one run
 *   allocbench compare --alloc=S --gfp=A,B              one strategy, two GFP
 *                                  choices (kernel,kernel_account: the cost
 *                                  of memcg accounting)
 *   allocbench compare OLD.json NEW.json              saved results
 *   allocbench compare A1.json A2.json -- B1.json B2.json
 *                                  (e.g. before and after a kernel patch:
 *                                   compare_saved.c)
 *
 * Two strategies run in --rounds rounds, each a block of trials of A and
 * one of B, in an order drawn at random per round (AB or BA). Per phase:
 * the median net ns/op of each over all its trials, and a Wilcoxon
 * signed-rank test on the rounds' log ratios ln(B median / A median)
 * (lib/compare.c): the unit of the test is the round, not the trial, so
 * drift and slow stretches that span many trials count once per round
 * instead of once per trial, and the random order makes each round's sign
 * a fair coin when A and B are the same. B / A is the Hodges-Lehmann
 * estimate with Tukey's interval. The two phases' p are adjusted by Holm's
 * method (ab_holm()), and a difference with adjusted p >= 0.05 is marked
 * as not significant. With counters (--events), the per-op deltas that
 * account for the cycles.
 */
#include <math.h>
#include <popt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compare.h"
#include "compare_opts.h"
#include "compare_paths.h"
#include "compare_rounds.h"
#include "jsonin.h"
#include "jsonout.h"
#include "report.h"
#include "runner.h"
#include "textout.h"

static char *rounds_arg;

/* no options: its heading is --help's word on saved results */
static struct poptOption saved_table[] = { POPT_TABLEEND };

static struct poptOption compare_table[] = {
	{ "rounds", 0, POPT_ARG_STRING, &rounds_arg, 0,
	  "rounds of a block of A and a block of B, in random order each; the signed-rank test's unit (default: 10)",
	  "N" },
	{ NULL, 0, POPT_ARG_INCLUDE_TABLE, saved_table, 0,
	  "Saved results (allocbench run --json -o FILE): compare OLD.json NEW.json, one run per side, gives the ratio and \"cannot conclude: one run per side\"; compare [--json] A1.json A2.json ... -- B1.json B2.json ... tests the runs, the run as unit (Welch's t on the logs of their medians, Holm-adjusted over every row and phase)",
	  NULL },
	POPT_TABLEEND
};

static void pick(const struct ab_job *job, const char *name, double out[2])
{
	/* by type and config: cpu-cycles is cycles, modifiers aside */
	int e = ab_counters_find(&job->session.counters, name);

	out[0] = e < 0 ? NAN : job->rows[0].ev_raw[e];
	out[1] = e < 0 ? NAN : job->rows[1].ev_raw[e];
}

/**
 * struct phase_cmp - one phase of A against B
 * @phase:  "alloc" or "free"
 * @a, @b:  the medians over all trials, net ns/op
 * @w:      the signed-rank test on the rounds' ln(B median / A median)
 * @p:      the test's p-value
 * @padj:   @p adjusted by Holm's method over the phases (ab_holm()): the
 *          verdict's
 */
struct phase_cmp {
	const char *phase;
	double a, b;
	struct ab_wsr w;
	double p;
	double padj;
};

/* B / A: the signed-rank estimate. */
static double ratio_of(const struct phase_cmp *c)
{
	return exp(c->w.estimate);
}

/* "correction": the family of @n phase tests behind the verdicts. */
static json_object *correction_json(const struct phase_cmp *c, int n)
{
	json_object *o = json_object_new_object();
	int i, m = 0;

	for (i = 0; i < n; i++)
		m += !isnan(c[i].p);
	json_object_object_add(o, "method", json_object_new_string("holm"));
	json_object_object_add(o, "alpha", json_object_new_double(0.05));
	json_object_object_add(o, "tests", json_object_new_int(m));
	return o;
}

/* The verdicts of @n phases on Holm's adjusted p: one family. */
static void adjust(struct phase_cmp *c, int n)
{
	double p[2], adj[2];
	int i;

	for (i = 0; i < n; i++)
		p[i] = c[i].p;
	ab_holm(p, (size_t)n, adj);
	for (i = 0; i < n; i++)
		c[i].padj = adj[i];
}

static json_object *phase_json(const struct phase_cmp *c)
{
	json_object *o = json_object_new_object();

	json_object_object_add(o, "phase", json_object_new_string(c->phase));
	json_object_object_add(o, "a_median_ns", ab_json_num(c->a));
	json_object_object_add(o, "b_median_ns", ab_json_num(c->b));
	json_object_object_add(o, "delta_ns", ab_json_num(c->b - c->a));
	json_object_object_add(o, "ratio", ab_json_num(ratio_of(c)));
	json_object_object_add(o, "ratio_ci_lo", ab_json_num(exp(c->w.ci_lo)));
	json_object_object_add(o, "ratio_ci_hi", ab_json_num(exp(c->w.ci_hi)));
	json_object_object_add(o, "ci_level", ab_json_num(c->w.ci_level));
	/* the phase's own interval: Holm adjusts p, not the interval */
	json_object_object_add(o, "ci_adjusted", json_object_new_boolean(0));
	json_object_object_add(o, "test",
			       json_object_new_string("wilcoxon-signed-rank"));
	json_object_object_add(o, "rounds",
			       json_object_new_int64((int64_t)c->w.n));
	json_object_object_add(o, "w_plus", ab_json_num(c->w.w_plus));
	json_object_object_add(o, "p", ab_json_num(c->p));
	json_object_object_add(o, "p_adjusted", ab_json_num(c->padj));
	json_object_object_add(
		o, "significant",
		isnan(c->padj) ? NULL
			       : json_object_new_boolean(c->padj < 0.05));
	return o;
}

/* One table line; @b_name is what the verdict calls B. */
static void phase_line(const struct phase_cmp *c, const char *b_name)
{
	printf("%-6s", c->phase);
	ab_print_cell(c->a, " %*.1f", 10);
	ab_print_cell(c->b, " %*.1f", 10);
	ab_print_cell(c->b - c->a, " %+*.1f", 10);
	ab_print_cell(ratio_of(c), " %*.3f", 8);
	if (isnan(c->w.ci_lo))
		printf("  %-24s", "[n/a]");
	else
		printf("  [%7.3f, %7.3f]      ", exp(c->w.ci_lo),
		       exp(c->w.ci_hi));
	ab_print_cell(c->p, " %*.3g", 12);
	ab_print_cell(c->padj, " %*.3g", 12);
	printf("  ");
	if (isnan(c->padj))
		printf("not testable (no round with a positive median of each, or no round differs)\n");
	else if (c->padj >= 0.05)
		printf("no significant difference (adjusted p >= 0.05)\n");
	else
		printf("%s is %s (significant, adjusted p < 0.05)\n", b_name,
		       ratio_of(c) < 1 ? "faster" : "slower");
}

/*
 * One line of the default text's table (at most AB_TABLE_COLS columns):
 * the verdict in a word or two, B named in the notes.
 */
static void phase_line_short(const struct phase_cmp *c)
{
	printf("%-6s", c->phase);
	ab_print_cell(c->a, " %*.1f", 10);
	ab_print_cell(c->b, " %*.1f", 10);
	ab_print_cell(c->b - c->a, " %+*.1f", 10);
	ab_print_cell(ratio_of(c), " %*.3f", 7);
	if (isnan(c->w.ci_lo))
		printf("  %-18s", "[n/a]");
	else
		printf("  [%7.3f,%7.3f] ", exp(c->w.ci_lo), exp(c->w.ci_hi));
	ab_print_cell(c->p, " %*.3g", 9);
	ab_print_cell(c->padj, " %*.3g", 9);
	printf("  %s\n", isnan(c->padj)	   ? "not testable"
			 : c->padj >= 0.05 ? "no significant difference"
			 : ratio_of(c) < 1 ? "B faster"
					   : "B slower");
}

/*
 * Phase @p of the rounds: the medians of @view's rows (every trial of A,
 * of B), and the signed-rank test on ln(B median / A median) of each round
 * whose two blocks both ran.
 */
static void round_test(struct phase_cmp *c, const struct ab_job *job,
		       const struct rounds *rd, const struct ab_job *view,
		       int p)
{
	double d[ROUNDS_MAX];
	size_t n = 0;
	int k, positive = 1;

	c->phase = p ? "free" : "alloc";
	c->a = view->rows[0].net[p].ns.median;
	c->b = view->rows[1].net[p].ns.median;
	for (k = 0; k < rd->n; k++) {
		const struct ab_row *x = compare_block(job, rd, k, 0),
				    *y = compare_block(job, rd, k, 1);

		/* a round cut short by an interrupt */
		if (!x->ran || !y->ran || !x->nr_ns[p] || !y->nr_ns[p])
			continue;
		if (!(x->net[p].ns.median > 0) || !(y->net[p].ns.median > 0))
			positive = 0;
		else
			d[n++] = log(y->net[p].ns.median / x->net[p].ns.median);
	}
	/* a ratio needs positive medians: net values may not be */
	ab_signed_rank(d, positive ? n : 0, &c->w);
	c->w.n = positive ? n : 0;
	c->p = c->padj = c->w.p;
}

/* The explanation lines into @why; 0 when no hardware counter opened. */
static int explain(const struct ab_job *job, char *why, size_t len)
{
	struct ab_explain_in in;
	int s;

	why[0] = '\0';
	if (!job->session.counters.n)
		return 0;
	pick(job, "cycles", in.cycles);
	pick(job, "instructions", in.instructions);
	pick(job, "branch-misses", in.branch_misses);
	pick(job, "cache-misses", in.cache_misses);
	pick(job, "dTLB-load-misses", in.dtlb_misses);
	in.amd = !!strstr(job->session.env.cpu_model, "AMD");
	for (s = 0; s < 2; s++)
		in.tsc_cycles[s] = job->rows[s].net[0].cycles.median +
				   (job->rows[s].nr_ns[1]
					    ? job->rows[s].net[1].cycles.median
					    : 0);
	if (isnan(in.cycles[0]) && isnan(in.instructions[0]) &&
	    isnan(in.branch_misses[0]) && isnan(in.cache_misses[0]) &&
	    isnan(in.dtlb_misses[0]))
		return 0;
	ab_explain(&in, why, len);
	return 1;
}

/* Per round: its order, trials and each block's medians. */
static json_object *rounds_json(const struct ab_job *job,
				const struct rounds *rd)
{
	json_object *arr = json_object_new_array();
	int k, s, p;

	for (k = 0; k < rd->n; k++) {
		json_object *o = json_object_new_object();

		json_object_object_add(o, "round", json_object_new_int(k + 1));
		json_object_object_add(
			o, "order",
			json_object_new_string(rd->ba[k] ? "BA" : "AB"));
		json_object_object_add(o, "trials",
				       json_object_new_int64(rd->trials[k]));
		for (s = 0; s < 2; s++)
			for (p = 0; p < 2; p++) {
				static const char *const key[2][2] = {
					{ "a_alloc_median_ns",
					  "a_free_median_ns" },
					{ "b_alloc_median_ns",
					  "b_free_median_ns" }
				};
				const struct ab_row *r =
					compare_block(job, rd, k, s);

				json_object_object_add(
					o, key[s][p],
					ab_json_num(
						r->ran && r->nr_ns[p]
							? r->net[p].ns.median
							: NAN));
			}
		json_object_array_add(arr, o);
	}
	return arr;
}

/* @view: A and B, each over all its blocks; @job: the blocks. */
static void json_compare(const struct ab_job *job, const struct rounds *rd,
			 const struct ab_job *view)
{
	const struct ab_row *a = &view->rows[0], *b = &view->rows[1];
	json_object *root = ab_job_json(view), *c = json_object_new_object();
	json_object *phases = json_object_new_array(), *lines;
	char why[1024], *line, *save = NULL;
	int hw = explain(view, why, sizeof(why)), np, p;
	struct phase_cmp pc[2];

	json_object_object_add(c, "a", json_object_new_string(a->label));
	json_object_object_add(c, "b", json_object_new_string(b->label));
	json_object_object_add(c, "rounds", json_object_new_int(rd->n));
	json_object_object_add(c, "per_round", rounds_json(job, rd));
	np = a->nr_ns[1] && b->nr_ns[1] ? 2 : 1;
	for (p = 0; p < np; p++)
		round_test(&pc[p], job, rd, view, p);
	adjust(pc, np);
	for (p = 0; p < np; p++)
		json_object_array_add(phases, phase_json(&pc[p]));
	json_object_object_add(c, "phases", phases);
	json_object_object_add(c, "correction", correction_json(pc, np));
	if (view->explain) {
		json_object *paths = json_object_new_array();

		compare_paths_json(view, paths);
		json_object_object_add(c, "paths", paths);
	}
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

static void print_num(double v)
{
	if (isnan(v))
		printf(" %9s", "n/a");
	else
		printf(" %9.1f", v);
}

/* The rounds, one line each: order, trials, the blocks' medians. */
static void print_rounds(const struct ab_job *job, const struct rounds *rd,
			 int phases)
{
	int k, s, p;

	printf("%-5s %-5s %7s", "round", "order", "trials");
	for (p = 0; p < phases; p++)
		printf(" %9s %9s %7s", p ? "A free" : "A alloc",
		       p ? "B free" : "B alloc", "B / A");
	printf("\n");
	for (k = 0; k < rd->n; k++) {
		printf("%5d %-5s %7u", k + 1, rd->ba[k] ? "BA" : "AB",
		       rd->trials[k]);
		for (p = 0; p < phases; p++) {
			double m[2];

			for (s = 0; s < 2; s++) {
				const struct ab_row *r =
					compare_block(job, rd, k, s);

				m[s] = r->ran && r->nr_ns[p]
					       ? r->net[p].ns.median
					       : NAN;
				print_num(m[s]);
			}
			if (isnan(m[0]) || isnan(m[1]))
				printf(" %7s", "n/a");
			else
				printf(" %7.3f", m[1] / m[0]);
		}
		printf("\n");
	}
}

/*
 * compare's default text: the short header, one table of the phases'
 * verdicts, and notes of one line each; the rounds, the run's own tables
 * and every line in full are -v's (--wide's), and always the JSON's.
 */
static void print_compare_short(const struct ab_job *job,
				const struct rounds *rd,
				const struct ab_job *view)
{
	const struct ab_row *a = &view->rows[0], *b = &view->rows[1];
	int phases = a->nr_ns[1] && b->nr_ns[1] ? 2 : 1, p, sig = 0;
	struct phase_cmp pcs[2], pc;
	char t[AB_NOTE_LEN], why[1024];

	ab_job_print_header_short(view);
	printf("%-6s %10s %10s %10s %7s  %-18s %9s %9s  %s\n", "phase",
	       "A median", "B median", "B - A", "B / A", "[95% CI, unadj.]",
	       "p", "p adj", "verdict");
	for (p = 0; p < phases; p++)
		round_test(&pcs[p], job, rd, view, p);
	adjust(pcs, phases);
	for (p = 0; p < phases; p++) {
		phase_line_short(&pcs[p]);
		sig |= pcs[p].padj < 0.05;
	}
	pc = pcs[phases - 1];
	ab_job_print_notes_short(view);
	snprintf(
		t, sizeof(t),
		"%d rounds (AB or BA at random); A = %.40s, B = %.40s, %s ns/op",
		rd->n, a->label, b->label, job->raw ? "raw" : "net");
	ab_print_note("note", t);
	if (isnan(pc.w.ci_level))
		snprintf(
			t, sizeof(t),
			"signed-rank test on %zu rounds, Holm over %d %s; no CI under 6 rounds (NOTES)",
			pc.w.n, phases,
			ab_noun((unsigned)phases, "test", "tests"));
	else
		snprintf(
			t, sizeof(t),
			"signed-rank test on %zu rounds, Holm over %d %s; CI %.1f%%, unadjusted (NOTES)",
			pc.w.n, phases,
			ab_noun((unsigned)phases, "test", "tests"),
			100 * pc.w.ci_level);
	ab_print_note("note", t);
	if (!job->session.counters.n)
		printf("why: no counters (add --events to see instructions, IPC and misses per op)\n");
	else if (!explain(view, why, sizeof(why)))
		printf("why: no hardware counter opened: instructions, IPC and misses unknown\n");
	else if (!sig)
		printf("why: no phase differs significantly, so no counter difference is put beside it\n");
	else if (why[0])
		printf("why: the counters per op that changed with the time: -v lists them\n");
	else
		printf("why: instructions, IPC and misses per op barely differ\n");
	if (job->explain)
		printf("paths: --explain's counts, A and B: -v lists them\n");
}

static void print_compare(const struct ab_job *job, const struct rounds *rd,
			  const struct ab_job *view)
{
	const struct ab_row *a = &view->rows[0], *b = &view->rows[1];
	int phases = a->nr_ns[1] && b->nr_ns[1] ? 2 : 1, p, sig = 0;
	struct phase_cmp pcs[2], pc;
	char why[1024];

	printf("\ncompare: %s (B) against %s (A), %s ns/op; %d rounds, each a block of A's trials and one of B's, in random order\n",
	       b->label, a->label, job->raw ? "raw" : "net", rd->n);
	print_rounds(job, rd, phases);
	printf("\n%-6s %10s %10s %10s %8s  %-24s %12s %12s  %s\n", "phase",
	       "A median", "B median", "B - A", "B / A",
	       "[unadj. 95% CI of B / A]", "p", "p adj", "verdict");
	for (p = 0; p < phases; p++)
		round_test(&pcs[p], job, rd, view, p);
	adjust(pcs, phases);
	for (p = 0; p < phases; p++) {
		phase_line(&pcs[p], b->label);
		sig |= pcs[p].padj < 0.05;
	}
	pc = pcs[phases - 1];
	printf("test: Wilcoxon signed-rank, exact, two-sided, on ln(B median / A median) of each round (%zu %s): the round is the unit, its order (AB or BA) drawn at random; the verdict on Holm's adjusted p over the %d phase %s of this report (p adj)\n",
	       pc.w.n, ab_noun(pc.w.n, "round", "rounds"), phases,
	       ab_noun((unsigned)phases, "test", "tests"));
	if (isnan(pc.w.ci_level))
		printf("B / A: Hodges-Lehmann estimate; no interval with fewer than 6 rounds\n");
	else
		printf("B / A: Hodges-Lehmann estimate; its interval Tukey's, exact coverage %.1f%%, each phase's own, not adjusted for the %d phase %s (Holm adjusts p, not the interval: it can leave out 1 where the adjusted verdict is no significant difference)\n",
		       100 * pc.w.ci_level, phases,
		       ab_noun((unsigned)phases, "test", "tests"));
	printf("A and B medians: over all trials of each\n");
	if (!job->session.counters.n)
		printf("why: no counters (add --events to see instructions, IPC and misses per op)\n");
	else if (!explain(view, why, sizeof(why)))
		printf("why: no hardware counter opened, so instructions, IPC and misses are unknown here (software counts above)\n");
	else if (!sig)
		printf("why: no phase differs significantly in time, so no counter difference is put beside it (the counters per op are in the table above)\n");
	else if (why[0])
		printf("why (changes in the counters per op that go with the time difference, B against A; correlated, not shown to cause it):\n%s",
		       why);
	else
		printf("why: instructions, IPC and misses per op barely differ\n");
	compare_print_paths(view, sig);
}

int cmd_compare(int argc, const char **argv)
{
	struct ab_job *job = ab_job_new(), view;
	struct ab_row rows[2];
	struct rounds rd;
	const char *files[AB_COMPARE_MAX_FILES + 1];
	int ret, nf;

	if (!job)
		return AB_EXIT_RUN;
	/* two saved results, or run's options for two strategies */
	nf = ab_run_parse("compare", argc, argv, job, compare_table, files,
			  AB_COMPARE_MAX_FILES + 1);
	ret = nf < 0 ? -nf : AB_EXIT_OK;
	if (!ret && nf && ab_out.dry_run) {
		ab_err("compare: --dry-run checks a compare that runs (--alloc=A,B); a compare of saved results runs nothing");
		ret = AB_EXIT_USAGE;
	} else if (!ret && nf && (ab_run_options_given() || rounds_arg)) {
		ab_err("compare: give two saved results, OLD.json NEW.json (or several per side, A1.json A2.json ... -- B1.json B2.json ...), or --alloc=A,B with run's options, not both");
		ret = AB_EXIT_USAGE;
	}
	if (!ret && nf) {
		ab_job_free(job);
		free(job);
		return ab_compare_saved(argc, argv, files, nf);
	}
	if (!ret)
		ret = compare_rounds_parse(&rd, rounds_arg);
	if (!ret)
		ret = ab_run_setup(job);
	if (!ret && (ab_out.formats & AB_FORMAT_CSV)) {
		ab_err("compare: --csv is for one table of results; use --json for the comparison too");
		ret = AB_EXIT_USAGE;
	}
	if (!ret && job->nrows != 2) {
		ab_err("compare: --alloc%s gives %d %s; compare takes two: --alloc=A,B, one strategy with --gfp=A,B, or one kmem_cache strategy with --sheaves=A,B",
		       job->run_opts.nsheaves	 ? " with --sheaves"
		       : job->run_opts.ngfps > 1 ? " with --gfp"
						 : "",
		       job->nrows,
		       ab_noun((unsigned)job->nrows, "run", "runs"));
		ret = AB_EXIT_USAGE;
	}
	if (!ret && job->concurrent) {
		ab_err("compare: --concurrent runs each strategy on several CPUs at once; compare runs A and B on one CPU, in rounds");
		ret = AB_EXIT_USAGE;
	}
	if (!ret)
		ret = compare_rounds_run(job, &rd);
	if (!ret && ab_out.dry_run) {
		ret = ab_job_dry_run(job);
	} else if (!ret) {
		ret = ab_job_run(job);
		nf = compare_rounds_view(job, &rd, &view, rows);
		if (nf && !ret)
			ret = nf;
		if ((ab_out.formats & AB_FORMAT_JSON) && !ret) {
			json_compare(job, &rd, &view);
		} else if (!nf && (ab_out.wide || ab_out.verbose)) {
			ab_job_print(&view);
			if (!ret)
				print_compare(job, &rd, &view);
		} else if (!nf && !ret) {
			print_compare_short(job, &rd, &view);
		} else if (!nf) {
			ab_job_print(&view);
		}
		compare_rounds_view_free(rows);
	}
	ab_job_free(job);
	free(job);
	return ret;
}
