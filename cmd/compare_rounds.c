// SPDX-License-Identifier: GPL-2.0-only
/*
 * compare_rounds.c - the rounds of `allocbench compare --alloc=A,B` (see
 * compare_rounds.h): --rounds, the blocks of A and B interleaved in a
 * random order per round, and each strategy's blocks merged into one row.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>

#include "allocbench.h"
#include "ab_nodes.h"
#include "compare_rounds.h"
#include "parse.h"
#include "runner.h"

int compare_rounds_parse(struct rounds *rd, const char *rounds_arg)
{
	uint64_t v = ROUNDS_DEFAULT;

	if (rounds_arg &&
	    ab_parse_u64(rounds_arg, ROUNDS_MIN, ROUNDS_MAX, &v)) {
		ab_err("compare: --rounds=%s: give a whole number from %d (the fewest with which a 5%% two-sided signed-rank test can reject after Holm's adjustment over the two phases) to %d",
		       rounds_arg, ROUNDS_MIN, ROUNDS_MAX);
		return AB_EXIT_USAGE;
	}
	rd->n = (int)v;
	return AB_EXIT_OK;
}

/*
 * Replaces the job's rows A and B by 2 x @rd->n blocks: round k is a
 * block of A and one of B, in an order drawn at random (getrandom), each
 * with --trials / rounds trials (the remainder to the first rounds) and
 * its own --warmup. An exit status after the error.
 */
int compare_rounds_run(struct ab_job *job, struct rounds *rd)
{
	const struct ab_row ab[2] = { job->rows[0], job->rows[1] };
	uint32_t trials = ab[0].run.trials;
	int k, s;

	if (trials < (uint32_t)rd->n) {
		ab_err("compare: --trials=%u with --rounds=%d: each round needs at least one trial of each strategy; give at least %d trials or fewer rounds",
		       trials, rd->n, rd->n);
		return AB_EXIT_USAGE;
	}
	if (getrandom(rd->ba, (size_t)rd->n, 0) != (ssize_t)rd->n) {
		ab_err("compare: getrandom: cannot draw the rounds' order");
		return AB_EXIT_RUN;
	}
	for (s = 0; s < 2; s++)
		snprintf(rd->label[s], sizeof(rd->label[s]), "%s", ab[s].label);
	job->nrows = 0;
	for (k = 0; k < rd->n; k++) {
		rd->ba[k] &= 1;
		rd->trials[k] = trials / (uint32_t)rd->n +
				((uint32_t)k < trials % (uint32_t)rd->n);
		for (s = 0; s < 2; s++) {
			int which = s ^ rd->ba[k];
			struct ab_row *r = ab_job_row_new(job);

			if (!r)
				return AB_EXIT_RUN;
			*r = ab[which];
			r->run.trials = rd->trials[k];
			/* one run each: rows of a group run at once */
			r->group = 2 * k + s;
			snprintf(r->label, sizeof(r->label),
				 "%s (%c, round %d)", ab[which].label,
				 'A' + which, k + 1);
			job->nrows++;
		}
	}
	return AB_EXIT_OK;
}

/*
 * Strategy @s's blocks (0: A, 1: B) as one row @m with buffers of its
 * own: the figures over all its trials, as the tables and JSON show them.
 * Per-op ns are the blocks' own (net as each was computed), cycles from
 * them (ns x tsc_khz / 10^6), raw figures from the samples again (with
 * --drop-disturbed's rule); counts summed, event counts per op weighted by each
 * block's operations, over the blocks that have a count (a block whose
 * counter never ran, NaN, has none: it leaves the others' figure standing,
 * as an interval that never ran does in a run). 0, or -1 without memory.
 */
static int merge(const struct ab_job *job, const struct rounds *rd, int s,
		 struct ab_row *m)
{
	const struct ab_row *first = compare_block(job, rd, 0, s);
	/* raw as run_row() takes it: nothing subtracted, the same drop rule */
	const struct ab_net raw = { 0, 0, job->run_opts.drop_disturbed };
	double ops[AB_MAX_EVENTS] = { 0 }, *tmp;
	size_t nsmp = 0, k;
	int i, p, e;

	*m = *first;
	m->group = s;
	m->ran = 0;
	m->smp = NULL;
	m->nr_smp = 0;
	m->ns[0] = m->ns[1] = NULL;
	m->nr_ns[0] = m->nr_ns[1] = 0;
	m->wall_ns = 0;
	memset(&m->busy, 0, sizeof(m->busy));
	m->run.trials = m->run.trials_done = 0;
	m->run.objects = m->run.failed = 0;
	m->run.node_hits = m->run.node_checked = 0;
	ab_nodes_clear(&m->run);
	m->run.switches = 0;
	m->run.migrations = m->run.disturbed = m->run.free_elsewhere = 0;
	m->run.pool_from_reserve = 0;
	m->run.pool_reserve_unmet = 0;
	memset(m->ev_raw, 0, sizeof(m->ev_raw));
	memset(m->ev_net, 0, sizeof(m->ev_net));
	snprintf(m->label, sizeof(m->label), "%s", rd->label[s]);
	for (i = 0; i < rd->n; i++) {
		const struct ab_row *r = compare_block(job, rd, i, s);
		double o = 0;

		m->run.trials += r->run.trials;
		if (!r->ran)
			continue;
		m->ran = 1;
		m->run.trials_done += r->run.trials_done;
		m->run.objects += r->run.objects;
		m->run.failed += r->run.failed;
		ab_nodes_add(&m->run, &r->run);
		m->run.switches += r->run.switches;
		m->run.migrations += r->run.migrations;
		m->run.disturbed += r->run.disturbed;
		m->run.free_elsewhere += r->run.free_elsewhere;
		m->run.pool_from_reserve += r->run.pool_from_reserve;
		m->run.pool_reserve_unmet += r->run.pool_reserve_unmet;
		m->run.cpu_end = r->run.cpu_end;
		m->wall_ns += r->wall_ns;
		ab_cpubusy_add(&m->busy, &r->busy);
		nsmp += r->nr_smp;
		/* the objects the counters saw: warm-up trials included */
		if (r->run.trials_done)
			o = (double)r->run.objects *
			    (double)(r->run.trials_done + r->run.warmup) /
			    (double)r->run.trials_done;
		for (e = 0; e < job->session.counters.n; e++) {
			if (isnan(r->ev_raw[e]) || isnan(r->ev_net[e]))
				continue;
			m->ev_raw[e] += r->ev_raw[e] * o;
			m->ev_net[e] += r->ev_net[e] * o;
			ops[e] += o;
		}
	}
	for (e = 0; e < job->session.counters.n; e++) {
		m->ev_raw[e] = ops[e] > 0 ? m->ev_raw[e] / ops[e] : NAN;
		m->ev_net[e] = ops[e] > 0 ? m->ev_net[e] / ops[e] : NAN;
	}
	m->smp = calloc(nsmp ? nsmp : 1, sizeof(*m->smp));
	m->ns[0] = calloc(nsmp ? nsmp : 1, sizeof(double));
	m->ns[1] = calloc(nsmp ? nsmp : 1, sizeof(double));
	tmp = calloc(nsmp ? nsmp : 1, sizeof(double));
	if (!m->smp || !m->ns[0] || !m->ns[1] || !tmp) {
		free(tmp);
		return -1;
	}
	for (i = 0; i < rd->n; i++) {
		const struct ab_row *r = compare_block(job, rd, i, s);

		if (!r->ran)
			continue;
		memcpy(m->smp + m->nr_smp, r->smp, r->nr_smp * sizeof(*r->smp));
		m->nr_smp += r->nr_smp;
		for (p = 0; p < 2; p++) {
			memcpy(m->ns[p] + m->nr_ns[p], r->ns[p],
			       r->nr_ns[p] * sizeof(double));
			m->nr_ns[p] += r->nr_ns[p];
		}
	}
	for (p = 0; p < 2; p++) {
		/* sorts ns[p], as the histograms want it */
		ab_stats_compute(m->ns[p], m->nr_ns[p], &m->net[p].ns);
		for (k = 0; k < m->nr_ns[p]; k++)
			tmp[k] = m->ns[p][k] * m->run.tsc_khz / 1e6;
		ab_stats_compute(tmp, m->nr_ns[p], &m->net[p].cycles);
		ab_phase_summary_net(
			m->smp,
			ab_phase_samples(m->run.timing, m->run.free_pattern,
					 (enum ab_phase)p, m->nr_smp),
			(enum ab_phase)p, &raw, m->run.tsc_khz, tmp,
			&m->raw[p]);
	}
	free(tmp);
	return 0;
}

/*
 * The job as `run` would show A and B: @view, a copy of @job whose two
 * rows (@rows) are the merged blocks. An exit status.
 */
int compare_rounds_view(const struct ab_job *job, const struct rounds *rd,
			struct ab_job *view, struct ab_row rows[2])
{
	int s, ret = AB_EXIT_OK;

	memset(rows, 0, 2 * sizeof(*rows));
	for (s = 0; s < 2; s++)
		if (merge(job, rd, s, &rows[s])) {
			ab_err("compare: no memory to gather the rounds");
			ret = AB_EXIT_RUN;
		}
	*view = *job;
	view->rows = rows;
	view->nrows = view->rows_cap = 2;
	if (job->baseline == &job->own_baseline)
		view->baseline = &view->own_baseline;
	else if (job->baseline)
		view->baseline =
			job->baseline->si == rows[0].si ? &rows[0] : &rows[1];
	return ret;
}

void compare_rounds_view_free(struct ab_row rows[2])
{
	int s;

	for (s = 0; s < 2; s++) {
		free(rows[s].smp);
		free(rows[s].ns[0]);
		free(rows[s].ns[1]);
	}
}
