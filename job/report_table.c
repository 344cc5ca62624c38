// SPDX-License-Identifier: GPL-2.0-only
/*
 * report_table.c - the full text report's tables of figures (see
 * report.h): the table of each strategy's per-op ns and cycles, the
 * distribution lines, the log2 histograms (--histogram); and the label and
 * object columns both text reports share.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "parse.h"
#include "report.h"
#include "stats.h"
#include "textout.h"

static void print_num_w(double v, int w)
{
	if (isnan(v))
		printf(" %*s", w, "n/a");
	else
		printf(" %*.1f", w, v);
}

static void print_num(double v)
{
	print_num_w(v, 8);
}

void ab_row_object_label(const struct ab_row *r, char *buf, size_t len)
{
	char sz[32];

	if (r->si->params & AB_PARAM_ORDER) {
		ab_format_object((int)r->run.order, 0, 0, buf, len);
	} else if (r->si->params & AB_PARAM_SIZE) {
		ab_format_object(-1, r->run.obj_size, 0, sz, sizeof(sz));
		if (r->si->flags & AB_STRATEGY_PER_TRIAL)
			snprintf(buf, len, "%ux%s", r->run.batch, sz);
		else
			snprintf(buf, len, "%s", sz);
	} else {
		snprintf(buf, len, "-");
	}
}

int ab_job_label_width(const struct ab_job *job, int least)
{
	int i, w = least, n;

	for (i = 0; i < job->nrows; i++) {
		n = (int)strlen(job->rows[i].label);
		if (job->rows[i].ran && n > w)
			w = n;
	}
	return w;
}

void ab_job_print_table(const struct ab_job *job)
{
	int pair = job->run_opts.free_pattern == AB_FREE_PAIR &&
		   job->run_opts.timing == AB_TIMING_BATCH;
	const char *alloc = pair ? "alloc+free ns/op" : "alloc ns/op";
	/* the cycles column of a pair's one loop: wide enough for its name */
	int cw = pair ? 10 : 8;
	char obj[48], node[16];
	int i, w = ab_job_label_width(job, 18);

	printf("%-*s %-35s   %-35s   %s\n", w + 11, "", alloc, "free ns/op",
	       "median cycles/op");
	printf("%-*s %-10s %8s %8s %8s %8s   %8s %8s %8s %8s   %*s %8s %7s %5s %6s\n",
	       w, "strategy", "object", "min", "median", "mean", "max", "min",
	       "median", "mean", "max", cw, pair ? "alloc+free" : "alloc",
	       "free", "failed", "node", "hit%");
	for (i = 0; i < job->nrows; i++) {
		const struct ab_row *r = &job->rows[i];
		const struct ab_phase_stats *a = &r->net[0], *f = &r->net[1];

		if (!r->ran)
			continue;
		ab_row_object_label(r, obj, sizeof(obj));
		printf("%-*s %-10s", w, r->label, obj);
		print_num(a->ns.min);
		print_num(a->ns.median);
		print_num(a->ns.mean);
		print_num(a->ns.max);
		printf("  ");
		print_num(f->ns.min);
		print_num(f->ns.median);
		print_num(f->ns.mean);
		print_num(f->ns.max);
		printf("  ");
		print_num_w(a->cycles.median, cw);
		print_num(f->cycles.median);
		if (r->run.target_node >= 0)
			snprintf(node, sizeof(node), "%d%s", r->run.target_node,
				 r->run.node < 0 ? "L" : "");
		else
			snprintf(node, sizeof(node), "-");
		printf(" %7llu %5s", (unsigned long long)r->run.failed, node);
		if (r->run.node_checked)
			printf(" %6.1f\n", 100.0 * (double)r->run.node_hits /
						   (double)r->run.node_checked);
		else
			printf(" %6s\n", "n/a");
	}
}

static void print_dist_line(int w, const char *name, int pw, const char *phase,
			    const struct ab_stats *s)
{
	printf("%-*s %-*s %8zu", w, name, pw, phase, s->n);
	print_num(s->median);
	if (isnan(s->ci_lo))
		printf("  %-22s", "[n/a]");
	else
		printf("  [%8.1f, %8.1f]  ", s->ci_lo, s->ci_hi);
	print_num(s->p90);
	print_num(s->p99);
	print_num(s->stddev);
	if (isnan(s->cv))
		printf(" %7s\n", "n/a");
	else
		printf(" %6.1f%%\n", 100 * s->cv);
}

/*
 * Names the interval of the median and its exact coverage for each sample
 * count in the table (lib/stats.h): at least 95%, more for small counts.
 */
static void print_ci_note(const struct ab_job *job)
{
	size_t seen[4];
	int i, k, ns = 0;
	char note[160];

	for (i = 0; i < job->nrows && ns < 4; i++) {
		size_t n = job->rows[i].net[0].ns.n;

		if (!job->rows[i].ran)
			continue;
		for (k = 0; k < ns && seen[k] != n; k++)
			;
		if (k < ns)
			continue;
		seen[ns++] = n;
		ab_ci_note(n, note, sizeof(note));
		printf("%s\n", note);
	}
}

void ab_job_print_distribution(const struct ab_job *job)
{
	int i, w = ab_job_label_width(job, 18), pw = 5;

	/* the phase column: as wide as its longest name */
	for (i = 0; i < job->nrows; i++)
		if (job->rows[i].ran &&
		    (int)strlen(ab_alloc_phase(&job->rows[i].run)) > pw)
			pw = (int)strlen(ab_alloc_phase(&job->rows[i].run));
	printf("\n%-*s %-*s %8s %8s  %-22s %8s %8s %8s %7s\n", w,
	       "distribution", pw, "phase", "samples", "median",
	       "[95% CI of median]", "p90", "p99", "stddev", "cv");
	for (i = 0; i < job->nrows; i++) {
		const struct ab_row *r = &job->rows[i];

		if (!r->ran)
			continue;
		print_dist_line(w, r->label, pw, ab_alloc_phase(&r->run),
				&r->net[0].ns);
		print_dist_line(w, "", pw, "free", &r->net[1].ns);
	}
	print_ci_note(job);
}

/* One log2 histogram of a row's per-op net ns. */
void ab_row_print_histogram(const struct ab_row *r, int phase)
{
	uint64_t c[AB_HIST_BUCKETS], most = 0;
	int b, lo = AB_HIST_BUCKETS, hi = -1;

	if (!r->nr_ns[phase])
		return;
	ab_histogram_log2(r->ns[phase], r->nr_ns[phase], c, AB_HIST_BUCKETS);
	for (b = 0; b < AB_HIST_BUCKETS; b++) {
		if (!c[b])
			continue;
		lo = b < lo ? b : lo;
		hi = b;
		most = c[b] > most ? c[b] : most;
	}
	printf("\nhistogram: %s %s, net ns/op, %zu %s\n", r->si->name,
	       phase ? "free" : ab_alloc_phase(&r->run), r->nr_ns[phase],
	       ab_noun(r->nr_ns[phase], "sample", "samples"));
	for (b = lo; b <= hi; b++) {
		int bar = (int)((c[b] * 40 + most - 1) / most);

		if (b == 0)
			printf("  %23s", "< 1");
		else if (b == AB_HIST_BUCKETS - 1)
			printf("  [%10.0f,      inf)", ldexp(1, b - 1));
		else
			printf("  [%10.0f, %10.0f)", ldexp(1, b - 1),
			       ldexp(1, b));
		printf(" %10llu %.*s\n", (unsigned long long)c[b], bar,
		       "########################################");
	}
}
