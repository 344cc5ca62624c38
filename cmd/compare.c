// SPDX-License-Identifier: GPL-2.0-only
/*
 * compare.c - `allocbench compare`: is B faster than A, is the difference
 * more than noise, and what do the counters say made it.
 *
 *   allocbench compare --alloc=A,B [run's options]   two strategies, one run
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
	int e = event_index(&job->counters, name);

	out[0] = e < 0 ? NAN : job->rows[0].ev_raw[e];
	out[1] = e < 0 ? NAN : job->rows[1].ev_raw[e];
}

/* The comparison of one phase, as JSON. */
static json_object *json_phase(const char *phase, const struct ab_row *a,
			       const struct ab_row *b, int p)
{
	const struct ab_stats *sa = &a->net[p].ns, *sb = &b->net[p].ns;
	json_object *o = json_object_new_object();
	struct ab_mwu t;

	ab_mann_whitney(a->ns[p], a->nr_ns[p], b->ns[p], b->nr_ns[p], &t);
	json_object_object_add(o, "phase", json_object_new_string(phase));
	json_object_object_add(o, "a_median_ns", ab_json_num(sa->median));
	json_object_object_add(o, "b_median_ns", ab_json_num(sb->median));
	json_object_object_add(o, "delta_ns",
			       ab_json_num(sb->median - sa->median));
	json_object_object_add(o, "ratio",
			       ab_json_num(sb->median / sa->median));
	json_object_object_add(o, "test",
			       json_object_new_string("mann-whitney-u"));
	json_object_object_add(o, "u", ab_json_num(t.u));
	json_object_object_add(o, "z", ab_json_num(t.z));
	json_object_object_add(o, "p", ab_json_num(t.p));
	json_object_object_add(
		o, "significant",
		isnan(t.p) ? NULL : json_object_new_boolean(t.p < 0.05));
	return o;
}

static void print_phase(const char *phase, const struct ab_row *a,
			const struct ab_row *b, int p)
{
	const struct ab_stats *sa = &a->net[p].ns, *sb = &b->net[p].ns;
	double d = sb->median - sa->median;
	struct ab_mwu t;

	ab_mann_whitney(a->ns[p], a->nr_ns[p], b->ns[p], b->nr_ns[p], &t);
	printf("%-6s %10.1f %10.1f %+10.1f %8.3f %12.3g  ", phase, sa->median,
	       sb->median, d, sb->median / sa->median, t.p);
	if (isnan(t.p))
		printf("not testable (too few or all-equal samples)\n");
	else if (t.p >= 0.05)
		printf("no significant difference (p >= 0.05)\n");
	else
		printf("%s is %s (significant, p < 0.05)\n", b->si->name,
		       d < 0 ? "faster" : "slower");
}

/* The explanation lines into @why; 0 when no hardware counter opened. */
static int explain(const struct ab_job *job, char *why, size_t len)
{
	struct ab_explain_in in;

	why[0] = '\0';
	if (!job->counters.n)
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
	json_object_array_add(phases, json_phase("alloc", a, b, 0));
	if (a->nr_ns[1] && b->nr_ns[1])
		json_object_array_add(phases, json_phase("free", a, b, 1));
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
	char why[1024];

	printf("\ncompare: %s (B) against %s (A), %s ns/op per trial; test: Mann-Whitney U, two-sided\n",
	       b->si->name, a->si->name, job->raw ? "raw" : "net");
	printf("%-6s %10s %10s %10s %8s %12s  %s\n", "phase", "A median",
	       "B median", "B - A", "B / A", "p", "verdict");
	print_phase("alloc", a, b, 0);
	if (a->nr_ns[1] && b->nr_ns[1])
		print_phase("free", a, b, 1);
	if (!job->counters.n)
		printf("why: no counters (add --events to see instructions, IPC and misses per op)\n");
	else if (!explain(job, why, sizeof(why)))
		printf("why: no hardware counter opened, so instructions, IPC and misses are unknown here (software counts above)\n");
	else if (why[0])
		printf("why (counters per op, B against A):\n%s", why);
	else
		printf("why: instructions, IPC and misses per op barely differ\n");
}

int cmd_compare(int argc, const char **argv)
{
	struct ab_job *job = calloc(1, sizeof(*job));
	int ret;

	if (!job)
		return AB_EXIT_RUN;
	ret = ab_run_setup("compare", argc, argv, job);
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
