// SPDX-License-Identifier: GPL-2.0-only
/*
 * lookup_time.c - timing size-class lookups (job library), shared by
 * `allocbench lookup` and `allocbench reproduce 2002-lookup`: each pass
 * looks up a prepared sequence of sizes once; one cycle-counter pair
 * times the pass. The none method runs the same loop without the lookup.
 * Per lookup, two ways (the header says which is which):
 *   fastest: (fastest pass - fastest none pass) / lookups, the 2002
 *            thread's method ("the fastest time ... loop/test overhead
 *            subtracted");
 *   median and the rest: per pass, cycles / lookups minus the none
 *            method's median per lookup (statistics as in `run`).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "job.h"
#include "lookup_time.h"
#include "report.h"
#include "textout.h"

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return (x > y) - (x < y);
}

/* Runs one method over the sequence; 0 or an exit status. */
static int measure(const struct ab_backend *be, struct ab_lookup_result *r,
		   uint32_t table, const uint32_t *sizes, uint32_t n,
		   uint32_t trials, uint32_t warmup, struct ab_counters *c)
{
	double lookups = (double)n * (trials + warmup);
	char why[AB_ERRLEN];
	int i, err;

	r->samples = calloc(trials, sizeof(*r->samples));
	if (!r->samples)
		return AB_EXIT_RUN;
	memset(&r->lookup, 0, sizeof(r->lookup));
	r->lookup.size = sizeof(r->lookup);
	r->lookup.method = r->method;
	r->lookup.table = table;
	r->lookup.nr_sizes = n;
	r->lookup.sizes_ptr = (__u64)(uintptr_t)sizes;
	r->lookup.trials = trials;
	r->lookup.warmup = warmup;
	r->lookup.samples_ptr = (__u64)(uintptr_t)r->samples;
	r->lookup.samples_len = trials;
	/* virtual events count the passes' marked loops (lib/vpmu.h) */
	if (c && ab_counters_virtual(c))
		r->lookup.flags |= AB_LOOKUP_VPMU;
	if (c && c->n)
		ab_counters_start(c);
	err = be->lookup(&r->lookup, why, sizeof(why));
	if (c && c->n) {
		ab_counters_stop(c);
		for (i = 0; i < c->n; i++)
			r->ev[i] = c->ev[i].value / lookups;
	}
	if (err) {
		ab_err("lookup %s: %s", ab_lookup_name(r->method), why);
		return err == -EINTR ? AB_EXIT_INTR : AB_EXIT_RUN;
	}
	qsort(r->samples, r->lookup.trials_done, sizeof(*r->samples), cmp_u64);
	return AB_EXIT_OK;
}

int ab_lookup_measure(const struct ab_backend *be, uint32_t table,
		      const uint32_t *methods, int nm, const uint32_t *sizes,
		      uint32_t n, uint32_t trials, uint32_t warmup,
		      struct ab_counters *c, struct ab_lookup_result *res)
{
	struct ab_lookup_result *none = &res[0];
	double *v, base_med;
	int i, ret;
	size_t k;

	memset(res, 0, (size_t)(nm + 1) * sizeof(*res));
	none->method = AB_LOOKUP_NONE;
	for (i = 0; i < nm; i++)
		res[i + 1].method = methods[i];
	v = calloc(trials, sizeof(*v));
	if (!v)
		return AB_EXIT_RUN;
	ret = measure(be, none, table, sizes, n, trials, warmup, c);
	for (i = 1; i <= nm && !ret; i++)
		ret = measure(be, &res[i], table, sizes, n, trials, warmup, c);
	if (ret) {
		free(v);
		return ret;
	}
	none->complete = 1;
	for (k = 0; k < none->lookup.trials_done; k++)
		v[k] = (double)none->samples[k] / n;
	ab_stats_compute(v, none->lookup.trials_done, &none->per_lookup);
	base_med = none->per_lookup.median;
	none->fastest = (double)none->samples[0] / n;
	for (i = 1; i <= nm; i++) {
		struct ab_lookup_result *r = &res[i];

		for (k = 0; k < r->lookup.trials_done; k++)
			v[k] = (double)r->samples[k] / n - base_med;
		ab_stats_compute(v, r->lookup.trials_done, &r->per_lookup);
		r->fastest =
			((double)r->samples[0] - (double)none->samples[0]) / n;
		if (r->lookup.checksum != res[1].lookup.checksum) {
			ab_err("lookup: methods %s and %s disagree on the classes of these sizes",
			       ab_lookup_name(res[1].method),
			       ab_lookup_name(r->method));
			ret = AB_EXIT_RUN;
		}
	}
	free(v);
	return ret;
}

void ab_lookup_results_free(struct ab_lookup_result *res, int nm)
{
	int i;

	for (i = 0; i <= nm; i++)
		free(res[i].samples);
}

static void num(double v, const char *fmt)
{
	if (isnan(v))
		printf(" %8s", "n/a");
	else
		printf(fmt, v);
}

/* Events per lookup, net of the none method's. */
static void print_events(const struct ab_lookup_result *res, int nm,
			 const struct ab_counters *c)
{
	int i, e, w;
	double v;

	printf("events per lookup, net of the none method (warm-up passes included)\n%-8s",
	       "method");
	/* each column as wide as its event's name, at least 16 */
	for (e = 0; e < c->n; e++)
		printf(" %16s", c->ev[e].name);
	printf("\n");
	for (i = 1; i <= nm; i++) {
		printf("%-8s", ab_lookup_name(res[i].method));
		for (e = 0; e < c->n; e++) {
			w = (int)strlen(c->ev[e].name);
			w = w < 16 ? 16 : w;
			v = res[i].ev[e] - res[0].ev[e];
			if (isnan(v))
				printf(" %*s", w, "n/a");
			else
				printf(" %*.3f", w, v);
		}
		printf("\n");
	}
}

/*
 * The default text (allocbench-lookup(1), NOTES): one table for every
 * experiment of the command, its header printed with the first, a row
 * per method with the experiment's sizes first; the full text (-v,
 * --wide) a table each, with its passes and the class sums.
 */
static void print_short(const struct ab_lookup_result *res, int nm,
			const char *label, const struct ab_counters *c)
{
	static int tables;
	const struct ab_lookup_result *none = &res[0];
	unsigned int khz = none->lookup.tsc_khz;
	/* a seed goes to a note: "loguniform:8-4096 (seed N)" */
	const char *seed = strstr(label, " (");
	int lw = seed ? (int)(seed - label) : (int)strlen(label);
	char note[256];
	int i;

	if (!tables++)
		printf("%-22s %-8s %8s %8s  %-20s %8s %8s %9s\n", "sizes",
		       "method", "fastest", "median", "[95% CI of median]",
		       "p99", "mean", "median ns");
	for (i = 0; i <= nm; i++) {
		const struct ab_lookup_result *r = &res[i];
		const struct ab_stats *s = &r->per_lookup;

		printf("%-22.*s %-8s", lw, label, ab_lookup_name(r->method));
		ab_print_cell(r->fastest, " %*.2f", 8);
		ab_print_cell(s->median, " %*.2f", 8);
		if (!i)
			printf("  %-20s", "(the loop, raw)");
		else if (isnan(s->ci_lo))
			printf("  %-20s", "[n/a]");
		else
			printf("  [%8.2f,%8.2f] ", s->ci_lo, s->ci_hi);
		ab_print_cell(s->p99, " %*.2f", 8);
		ab_print_cell(s->mean, " %*.2f", 8);
		if (i)
			ab_print_cell(khz ? s->median * 1e6 / khz : NAN,
				      " %*.2f", 9);
		printf("\n");
	}
	if (seed) {
		snprintf(note, sizeof(note), "%.*s: %.*s", lw, label,
			 (int)strcspn(seed + 2, ")"), seed + 2);
		ab_print_note("note", note);
	}
	for (i = 1; i <= nm; i++)
		if (ab_lookup_net_note(&res[i], note, sizeof(note)))
			ab_print_note("note", note);
	if (c && c->n) {
		printf("\n");
		print_events(res, nm, c);
	}
}

void ab_lookup_print(const struct ab_lookup_result *res, int nm, int csv,
		     const char *label, const struct ab_counters *c)
{
	const struct ab_lookup_result *none = &res[0];
	unsigned int khz = none->lookup.tsc_khz;
	int i;

	if (csv) {
		for (i = 0; i <= nm; i++) {
			const struct ab_lookup_result *r = &res[i];
			const struct ab_stats *s = &r->per_lookup;
			struct ab_csv_row row = { stdout, 0 };

			ab_csv_str(&row, label);
			ab_csv_str(&row, ab_lookup_name(r->method));
			ab_csv_str(&row, ab_table_name(r->lookup.table));
			ab_csv_printf(&row, "%u", r->lookup.nr_sizes);
			ab_csv_printf(&row, "%u", r->lookup.trials_done);
			ab_csv_num(&row, "%.3f", r->fastest);
			ab_csv_num(&row, "%.3f", s->median);
			ab_csv_num(&row, "%.3f", s->ci_lo);
			ab_csv_num(&row, "%.3f", s->ci_hi);
			ab_csv_num(&row, "%.3f", s->p99);
			ab_csv_num(&row, "%.3f", s->mean);
			ab_csv_num(&row, "%.3f",
				   khz ? s->median * 1e6 / khz : NAN);
			/* none looks up no class: no class sum (as in JSON) */
			if (i)
				ab_csv_printf(&row, "%lld",
					      (long long)r->lookup.checksum);
			else
				ab_csv_str(&row, NULL);
			ab_csv_end(&row);
		}
		return;
	}
	if (!ab_out.wide && !ab_out.verbose) {
		print_short(res, nm, label, c);
		return;
	}
	printf("\n%s: %u %s per pass, %u %s, table %s\n", label,
	       none->lookup.nr_sizes,
	       ab_noun(none->lookup.nr_sizes, "lookup", "lookups"),
	       none->lookup.trials_done,
	       ab_noun(none->lookup.trials_done, "pass", "passes"),
	       ab_table_name(none->lookup.table));
	printf("%-8s %9s %8s  %-22s %8s %8s %9s %12s\n", "method", "fastest",
	       "median", "[95% CI of median]", "p99", "mean", "median ns",
	       "class sum");
	printf("%-8s", "none");
	ab_print_cell(none->fastest, " %*.2f", 9);
	ab_print_cell(none->per_lookup.median, " %*.2f", 8);
	printf("  %-22s", "(the loop alone, raw) ");
	ab_print_cell(none->per_lookup.p99, " %*.2f", 8);
	ab_print_cell(none->per_lookup.mean, " %*.2f", 8);
	printf(" %9s %12s\n", "", "-");
	for (i = 1; i <= nm; i++) {
		const struct ab_lookup_result *r = &res[i];
		const struct ab_stats *s = &r->per_lookup;

		printf("%-8s", ab_lookup_name(r->method));
		ab_print_cell(r->fastest, " %*.2f", 9);
		num(s->median, " %8.2f");
		if (isnan(s->ci_lo))
			printf("  %-22s", "[n/a]");
		else
			printf("  [%8.2f, %8.2f]  ", s->ci_lo, s->ci_hi);
		num(s->p99, " %8.2f");
		num(s->mean, " %8.2f");
		num(khz ? s->median * 1e6 / khz : NAN, " %9.2f");
		printf(" %12lld\n", (long long)r->lookup.checksum);
	}
	if (nm >= 1) {
		char note[160];

		ab_ci_note(res[1].per_lookup.n, note, sizeof(note));
		printf("%s\n", note);
	}
	for (i = 1; i <= nm; i++) {
		char note[256];

		if (ab_lookup_net_note(&res[i], note, sizeof(note)))
			printf("note: %s\n", note);
	}
	if (c && c->n)
		print_events(res, nm, c);
}

int ab_lookup_net_note(const struct ab_lookup_result *r, char *buf, size_t len)
{
	if (!(r->fastest < 0) && !(r->per_lookup.median < 0))
		return 0;
	snprintf(
		buf, len,
		"%s: net below zero (fastest %.2f, median %.2f cycles per lookup): the none method's loop took longer than its passes, which is noise, not a negative cost; more --trials steady it",
		ab_lookup_name(r->method), r->fastest, r->per_lookup.median);
	return 1;
}

void ab_lookup_json(const struct ab_lookup_result *res, int nm,
		    const char *label, const struct ab_counters *c,
		    json_object *results)
{
	unsigned int khz = res[0].lookup.tsc_khz;
	json_object *o, *ev, *e;
	int i, k;

	for (i = 0; i <= nm; i++) {
		const struct ab_lookup_result *r = &res[i];

		o = json_object_new_object();
		json_object_object_add(o, "kind",
				       json_object_new_string("lookup"));
		json_object_object_add(o, "sizes",
				       json_object_new_string(label));
		json_object_object_add(
			o, "method",
			json_object_new_string(ab_lookup_name(r->method)));
		json_object_object_add(
			o, "table",
			json_object_new_string(ab_table_name(r->lookup.table)));
		json_object_object_add(
			o, "lookups_per_pass",
			json_object_new_int64(r->lookup.nr_sizes));
		json_object_object_add(
			o, "passes",
			json_object_new_int64(r->lookup.trials_done));
		json_object_object_add(
			o, "values", json_object_new_string(i ? "net" : "raw"));
		json_object_object_add(o, "fastest_cycles",
				       ab_json_num(r->fastest));
		json_object_object_add(o, "cycles",
				       ab_json_stats(&r->per_lookup));
		json_object_object_add(
			o, "median_ns",
			ab_json_num(khz ? r->per_lookup.median * 1e6 / khz
					: NAN));
		json_object_object_add(
			o, "class_sum",
			i ? json_object_new_int64(r->lookup.checksum) : NULL);
		json_object_object_add(o, "tsc_khz",
				       json_object_new_int64(khz));
		ev = json_object_new_array();
		for (k = 0; c && k < c->n; k++) {
			e = json_object_new_object();
			json_object_object_add(
				e, "event",
				json_object_new_string(c->ev[k].name));
			json_object_object_add(
				e, "source",
				json_object_new_string(
					ab_counter_source(&c->ev[k])));
			json_object_object_add(e, "per_lookup",
					       ab_json_num(r->ev[k]));
			json_object_object_add(
				e, "net_per_lookup",
				ab_json_num(r->ev[k] - res[0].ev[k]));
			json_object_array_add(ev, e);
		}
		json_object_object_add(o, "counters", ev);
		json_object_array_add(results, o);
	}
}
