// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_job.c - the logic of cmd/ behind `run`: building a job (strategy
 * names, refusals), running it through the user backend (the baseline
 * found by its flag and subtracted, its own row raw), and the reports of
 * edge values: undefined statistics as "n/a" in tables, empty CSV fields
 * and JSON nulls, a per-trial strategy's object as the batch of objects,
 * a page-order strategy's object bytes.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "report.h"
#include "runner.h"
#include "textout.h"

/* A job on the user backend, or the test fails. */
static struct ab_job *user_job(void)
{
	struct ab_job *job = ab_job_new();

	assert_non_null(job);
	assert_int_equal(job->free_cpu, -1);
	assert_int_equal(job->session.cpu, -1);
	assert_int_equal(
		ab_backend_open("user", &job->session.be, &job->session.bi), 0);
	return job;
}

static void drop(struct ab_job *job)
{
	ab_job_free(job);
	free(job);
}

static void test_add(void **state)
{
	struct ab_job *job = user_job();
	char many[(AB_MAX_LIST + 1) * 8] = "";
	int i;

	assert_int_equal(ab_job_add(job, "none,malloc"), AB_EXIT_OK);
	assert_int_equal(job->nrows, 2);
	assert_string_equal(job->rows[1].label, "malloc");
	assert_int_equal(job->rows[1].group, 1);
	assert_int_equal(job->rows[1].cpu, -1);
	assert_int_equal(job->rows[1].run.batch, job->run_opts.batch);
	assert_true(job->rows[0].si->flags & AB_STRATEGY_BASELINE);
	/* unknown and empty names add nothing */
	assert_int_equal(ab_job_add(job, "nosuch"), AB_EXIT_USAGE);
	assert_int_equal(ab_job_add(job, "malloc,,calloc"), AB_EXIT_USAGE);
	/* one list holds at most AB_MAX_LIST names */
	for (i = 0; i <= AB_MAX_LIST; i++)
		strcat(many, i ? ",malloc" : "malloc");
	assert_int_equal(ab_job_add(job, many), AB_EXIT_USAGE);
	assert_int_equal(job->nrows, 2);
	drop(job);
}

/*
 * Rows have no fixed count (issue 13, item 17: a sweep of 240 runs was
 * refused "more than 64 runs"): lists add up past AB_MAX_LIST rows, each
 * row intact after the array grew.
 */
static void test_add_many_rows(void **state)
{
	struct ab_job *job = user_job();
	char list[AB_MAX_LIST * 8] = "";
	int i, lists = 4;

	for (i = 0; i < AB_MAX_LIST; i++)
		strcat(list, i ? ",malloc" : "malloc");
	for (i = 0; i < lists; i++)
		assert_int_equal(ab_job_add(job, list), AB_EXIT_OK);
	assert_int_equal(job->nrows, lists * AB_MAX_LIST);
	assert_true(job->rows_cap >= job->nrows);
	for (i = 0; i < job->nrows; i++) {
		assert_string_equal(job->rows[i].label, "malloc");
		assert_int_equal(job->rows[i].group, i);
		assert_int_equal(job->rows[i].run.batch, job->run_opts.batch);
	}
	drop(job);
}

/*
 * --concurrent past 64 rows: each strategy becomes one row per CPU in a
 * new array, the baseline moved to its first copy, and every group of
 * rows (indexed from its first row, not from 0) runs.
 */
static void test_concurrent_many_rows(void **state)
{
	struct ab_job *job;
	char list[AB_MAX_LIST * 8] = "none";
	int i, n = 40;

	if (sysconf(_SC_NPROCESSORS_ONLN) < 2)
		skip();
	job = user_job();
	job->run_opts.trials = 3;
	job->run_opts.warmup = 0;
	job->run_opts.batch = 2;
	for (i = 1; i < n; i++)
		strcat(list, ",malloc");
	assert_int_equal(ab_job_add(job, list), AB_EXIT_OK);
	job->concurrent = 1;
	assert_int_equal(ab_job_place(job, "0-1"), AB_EXIT_OK);
	assert_int_equal(ab_job_run(job), AB_EXIT_OK);
	assert_int_equal(job->nrows, 2 * n);
	assert_ptr_equal(job->baseline, &job->rows[0]);
	for (i = 0; i < job->nrows; i++) {
		assert_true(job->rows[i].ran);
		assert_int_equal(job->rows[i].group, i / 2);
		assert_int_equal(job->rows[i].cpu, i % 2);
		assert_int_equal(job->rows[i].run.trials_done, 3);
	}
	assert_string_equal(job->rows[2 * n - 1].label, "malloc@cpu1");
	drop(job);
}

/* --align needs a strategy that takes one. */
static void test_add_align(void **state)
{
	struct ab_job *job = user_job();

	job->run_opts.align = 128;
	assert_int_equal(ab_job_add(job, "malloc"), AB_EXIT_USAGE);
	job->nrows = 0;
	assert_int_equal(ab_job_add(job, "posix_memalign"), AB_EXIT_OK);
	assert_int_equal(job->rows[0].run.align, 128);
	drop(job);
}

/*
 * A real run in this process: the baseline is the row flagged
 * AB_STRATEGY_BASELINE, its own row raw, the other net of its medians.
 */
static void test_run_baseline(void **state)
{
	struct ab_job *job = user_job();
	const struct ab_row *none, *m;

	job->run_opts.trials = 30;
	job->run_opts.batch = 8;
	assert_int_equal(ab_job_add(job, "none,malloc"), AB_EXIT_OK);
	assert_int_equal(ab_job_place(job, "0"), AB_EXIT_OK);
	assert_int_equal(ab_job_run(job), AB_EXIT_OK);
	none = &job->rows[0];
	m = &job->rows[1];
	assert_ptr_equal(job->baseline, none);
	assert_true(none->ran && m->ran);
	assert_int_equal(m->run.trials_done, 30);
	assert_int_equal(m->run.objects, 240);
	assert_float_equal(none->subtract[0], 0, 0);
	assert_float_equal(m->subtract[0], none->raw[0].cycles.median, 0);
	assert_float_equal(m->subtract[1], none->raw[1].cycles.median, 0);
	assert_int_equal(m->net[0].cycles.n, 30);
	drop(job);
}

/* What @fn prints on stdout, in a malloc'ed string. */
static char *captured(void (*fn)(const struct ab_job *), const struct ab_job *j)
{
	FILE *f = tmpfile();
	int saved = dup(STDOUT_FILENO);
	char *text = calloc(1, 65536);
	size_t n;

	assert_non_null(f);
	assert_non_null(text);
	fflush(stdout);
	dup2(fileno(f), STDOUT_FILENO);
	fn(j);
	fflush(stdout);
	dup2(saved, STDOUT_FILENO);
	close(saved);
	rewind(f);
	n = fread(text, 1, 65535, f);
	text[n] = '\0';
	fclose(f);
	return text;
}

static const struct ab_strategy_info per_trial_si = {
	.id = 1,
	.params = AB_PARAM_SIZE,
	.flags = AB_STRATEGY_PER_TRIAL,
	.max_size = 1 << 20,
	.name = "bulk",
	.desc = "one call for the batch",
};
static const struct ab_strategy_info pages_si = {
	.id = 2,
	.params = AB_PARAM_ORDER,
	.max_order = 3,
	.name = "pages",
	.desc = "pages",
};

/*
 * Two rows that ran with no sample holding objects (every allocation
 * failed): every statistic undefined.
 */
static struct ab_job *empty_job(void)
{
	struct ab_job *job = user_job();
	int i, p;

	job->title = "run";
	job->session.cpu = 0;
	for (i = 0; i < 2; i++) {
		struct ab_row *r = ab_job_row_new(job);

		assert_non_null(r);
		job->nrows++;

		r->si = i ? &pages_si : &per_trial_si;
		snprintf(r->label, sizeof(r->label), "%s", r->si->name);
		r->ran = 1;
		r->cpu = -1;
		r->group = i;
		r->run.batch = 64;
		r->run.trials = 3;
		r->run.trials_done = 3;
		r->run.failed = 3;
		r->run.node = -1;
		r->run.tsc_khz = 1000000;
		if (i)
			r->run.order = 2;
		else
			r->run.obj_size = 4096;
		for (p = 0; p < 2; p++) {
			ab_phase_summary(NULL, 0, (enum ab_phase)p, 0, 1000000,
					 NULL, &r->raw[p]);
			r->net[p] = r->raw[p];
		}
	}
	return job;
}

/* the full text (-v, --wide), whose every line these tests read */
static void print_text(const struct ab_job *job)
{
	ab_out.wide = 1;
	ab_job_print(job);
	ab_out.wide = 0;
}

static void test_report_edges(void **state)
{
	struct ab_job *job = empty_job();
	char *text = captured(print_text, job);

	/* the per-trial row's object is the batch, the page row's an order */
	assert_non_null(strstr(text, "bulk               64x4K"));
	assert_non_null(strstr(text, "pages              order 2"));
	assert_non_null(strstr(text, "n/a"));
	assert_null(strstr(text, "nan"));
	assert_non_null(strstr(text, "note: bulk: one call per trial"));
	assert_non_null(strstr(text, "(64 x 4096 bytes)"));
	assert_non_null(strstr(text, "note: bulk: 3 allocations failed"));
	free(text);
	ab_out.formats = AB_FORMAT_CSV;
	text = captured(print_text, job);
	ab_out.formats = 0;
	/* undefined statistics are empty fields; nothing subtracted: raw */
	assert_non_null(strstr(text, "\nbulk,4096,0,64,3,0,"));
	assert_non_null(strstr(text, ",raw,0,,,,"));
	assert_null(strstr(text, "nan"));
	free(text);
	drop(job);
}

/*
 * A count of 1 takes the singular, every count noun of the text report:
 * "1 switch", not "1 switches" (issue 21).
 */
static void test_report_counts_of_one(void **state)
{
	struct ab_job *job = empty_job();
	struct ab_run *run = &job->rows[0].run;
	char *text;

	job->run_opts.batch = 1;
	job->run_opts.trials = 1;
	run->trials = 1;
	run->trials_done = 0;
	run->disturbed = 1;
	run->switches = 1;
	run->migrations = 1;
	run->failed = 1;
	run->free_elsewhere = 1;
	text = captured(print_text, job);
	assert_non_null(strstr(text, "1 object per trial, 1 trial after"));
	assert_non_null(strstr(text, "1 of 0 trials was disturbed"));
	assert_non_null(strstr(text, "1 switch, 1 CPU change)"));
	assert_non_null(strstr(text, "1 free phase ran on another CPU"));
	assert_non_null(strstr(text, "1 allocation failed;"));
	assert_non_null(strstr(text, "interrupted after 0 of 1 trial\n"));
	free(text);
	run->switches = 2;
	run->migrations = 0;
	text = captured(print_text, job);
	assert_non_null(strstr(text, "2 switches, 0 CPU changes)"));
	free(text);
	drop(job);
}

/*
 * Issue 39.3: `run --alloc=malloc --size=64 --batch=2 --trials=1` printed
 * -425.4 ns alloc with no word. The none baseline's median rests on 1
 * trial (no 95% interval of a median below 6 samples: 1 - 2 / 2^5 =
 * 93.8%), and a net median below zero is said so, with its raw figure,
 * in the text and the JSON's notes; with 6 trials only the second, with
 * --raw neither.
 */
static void test_net_notes(void **state)
{
	struct ab_job *job = empty_job();
	char notes[4][AB_NOTE_LEN], *text;
	json_object *root;
	const char *all;
	struct ab_row *b = &job->rows[0], *r = &job->rows[1];

	job->run_opts.timing = AB_TIMING_BATCH;
	job->baseline = b;
	b->raw[0].cycles.n = 1;
	r->net[0].ns.median = -425.4;
	r->raw[0].ns.median = 55.1;
	assert_int_equal(ab_job_net_notes(job, notes, 4), 2);
	assert_non_null(strstr(notes[0],
			       "rests on 1 trial: too few for a 95% interval"));
	assert_string_equal(
		notes[1],
		"pages: net median below zero, alloc -425.4 (raw 55.1) ns/op: its raw figure is below what the net figures subtract from it, which is noise, not a negative cost (--raw shows the figures as measured)");
	text = captured(print_text, job);
	assert_non_null(strstr(
		text,
		"\nnote: pages: net median below zero, alloc -425.4 (raw 55.1)"));
	assert_non_null(strstr(
		text,
		"\nnote: the none baseline's median, which the net figures subtract, rests on 1 trial"));
	free(text);
	root = ab_job_json(job);
	all = json_object_to_json_string(json_object_object_get(root, "notes"));
	assert_non_null(strstr(all, "net median below zero, alloc -425.4"));
	json_object_put(root);
	b->raw[0].cycles.n = 6;
	assert_int_equal(ab_job_net_notes(job, notes, 4), 1);
	job->raw = 1;
	assert_int_equal(ab_job_net_notes(job, notes, 4), 0);
	drop(job);
}

static void test_report_json(void **state)
{
	struct ab_job *job = empty_job();
	json_object *root = ab_job_json(job), *res, *r0, *r1, *alloc;

	res = json_object_object_get(root, "results");
	assert_int_equal(json_object_array_length(res), 2);
	r0 = json_object_array_get_idx(res, 0);
	r1 = json_object_array_get_idx(res, 1);
	assert_string_equal(
		json_object_get_string(json_object_object_get(r0, "values")),
		"raw");
	/* 2^2 pages of the backend's page size */
	assert_int_equal(json_object_get_int64(
				 json_object_object_get(r1, "object_bytes")),
			 (int64_t)job->session.bi.info.page_size << 2);
	assert_int_equal(
		json_object_get_int(json_object_object_get(r1, "order")), 2);
	assert_null(json_object_object_get(r0, "order"));
	assert_null(json_object_object_get(r0, "node_hit_pct"));
	alloc = json_object_object_get(json_object_object_get(r0, "alloc"),
				       "ns");
	assert_non_null(alloc);
	assert_null(json_object_object_get(alloc, "median"));
	assert_null(strstr(json_object_to_json_string(root), "NaN"));
	json_object_put(root);
	drop(job);
}

/*
 * Issue 43: --concurrent's aggregate divided the objects by the slowest
 * CPU's wall time, which held its setup (kmem_buckets' caches, 370 ms
 * under TCG): it covers the measured trials' timed phases alone, each
 * row's summed from its samples (the slowest row's), and their objects.
 */
static void test_aggregate_timed_only(void **state)
{
	struct ab_job *job = empty_job();
	char *text;
	size_t k;
	int i;

	for (i = 0; i < 2; i++) {
		struct ab_row *r = &job->rows[i];

		r->si = &per_trial_si;
		r->group = 0;
		r->run.objects = 100;
		r->wall_ns = 400e6; /* setup and trials */
		r->nr_smp = 2 + (size_t)i;
		r->smp = calloc(r->nr_smp, sizeof(*r->smp));
		assert_non_null(r->smp);
		for (k = 0; k < r->nr_smp; k++) {
			r->smp[k].alloc_cycles = 600; /* 1 GHz: ns */
			r->smp[k].free_cycles = 400;
		}
	}
	assert_float_equal(ab_row_timed_ns(&job->rows[0]), 2000, 1e-9);
	assert_float_equal(ab_row_timed_ns(&job->rows[1]), 3000, 1e-9);
	text = captured(ab_job_print_aggregates, job);
	assert_non_null(strstr(
		text,
		"aggregate: bulk on 2 CPUs at once: 200 objects allocated and freed in the measured trials, 0.003 ms of timed phases on the slowest CPU"));
	assert_null(strstr(text, "400.0 ms"));
	free(text);
	drop(job);
}

/*
 * Issue 43: the mempool note counted the reserve's elements and the
 * allocations of the trials left out for their unmet --condition too: it
 * counts those of the trials counted alone (ab_run.pool_reserve_unmet,
 * the samples' AB_SAMPLE_COND_UNMET); a module that does not tell them
 * apart is said to.
 */
static void test_pool_note_counted_trials(void **state)
{
	struct ab_job *job = empty_job();
	struct ab_row *r = &job->rows[0];
	char t[AB_NOTE_LEN];
	size_t k;

	snprintf(r->label, sizeof(r->label), "mempool");
	r->run.size = sizeof(r->run);
	r->run.pool_min = 8;
	r->run.batch = 4;
	r->run.trials_done = 3;
	r->run.objects = 12;
	r->run.cond_unmet = 1;
	r->run.pool_from_reserve = 10;
	r->run.pool_reserve_unmet = 4;
	r->nr_smp = 3;
	r->smp = calloc(3, sizeof(*r->smp));
	assert_non_null(r->smp);
	for (k = 0; k < 3; k++)
		r->smp[k].nr_objs = 4;
	r->smp[1].flags = AB_SAMPLE_COND_UNMET;
	ab_row_pool_text(r, t, sizeof(t));
	assert_non_null(strstr(
		t,
		"mempool: 6 of 8 allocations taken from the reserve of 8 (min_nr)"));
	assert_non_null(strstr(t, "in the trials that met the condition"));
	r->run.size = AB_RUN_SIZE_VER9;
	ab_row_pool_text(r, t, sizeof(t));
	assert_non_null(strstr(
		t,
		"10 of 12 allocations taken from the reserve of 8 (min_nr) in all 3 trials, the 1 left out"));
	drop(job);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_add),
		cmocka_unit_test(test_add_align),
		cmocka_unit_test(test_add_many_rows),
		cmocka_unit_test(test_concurrent_many_rows),
		cmocka_unit_test(test_run_baseline),
		cmocka_unit_test(test_report_edges),
		cmocka_unit_test(test_report_counts_of_one),
		cmocka_unit_test(test_report_json),
		cmocka_unit_test(test_net_notes),
		cmocka_unit_test(test_aggregate_timed_only),
		cmocka_unit_test(test_pool_note_counted_trials),
	};

	return cmocka_run_group_tests_name("job", tests, NULL, NULL);
}
