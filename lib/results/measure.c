// SPDX-License-Identifier: GPL-2.0-only
/* measure.c - per-operation figures from samples (see measure.h). */
#include <math.h>

#include "measure.h"

int ab_net_uses_baseline(int raw, uint32_t timing, int have_baseline)
{
	return !raw && timing == AB_TIMING_BATCH && have_baseline;
}

struct ab_net ab_net_rule(int raw, uint32_t timing, uint64_t clock_cycles,
			  const double *baseline_median)
{
	struct ab_net net = { 0, 0, 0 };

	if (raw)
		return net;
	if (timing == AB_TIMING_SINGLE)
		net.per_sample = (double)clock_cycles;
	else if (ab_net_uses_baseline(raw, timing, baseline_median != NULL))
		net.per_op = *baseline_median;
	return net;
}

size_t ab_phase_samples(uint32_t timing, uint32_t free_pattern,
			enum ab_phase phase, size_t n)
{
	/* batch-timed pairs have no free phase of their own */
	if (phase == AB_PHASE_FREE && free_pattern == AB_FREE_PAIR &&
	    timing == AB_TIMING_BATCH)
		return 0;
	return n;
}

/*
 * The per-op values of @phase: a sample counts when it timed at least one
 * object and no failed call. A failed allocation is no operation, and its
 * cost (often a reclaim attempt, far from a success's) is not one: in both
 * timings the alloc sample holding it is left out (single timing: the
 * failed call's own slot, which has nr_objs 0; batch timing and per-trial
 * strategies: the whole alloc phase of that trial, since one clock pair
 * timed the failure with the successes), in both backends. The free
 * phase that follows a failure frees only objects that were allocated and
 * counts. How many failed is reported apart (ab_run.failed). With
 * @net->drop, a sample of a phase that saw a context switch or a CPU
 * change is left out too (--drop-disturbed). A trial that began without
 * its memory condition (AB_SAMPLE_COND_UNMET) measured another state: its
 * samples are left out of both phases.
 */
static size_t per_op(const struct ab_sample *smp, size_t n, enum ab_phase phase,
		     const struct ab_net *net, double *out)
{
	const uint32_t disturbed = phase == AB_PHASE_ALLOC
					   ? AB_SAMPLE_ALLOC_DISTURBED
					   : AB_SAMPLE_FREE_DISTURBED;
	size_t i, k = 0;

	for (i = 0; i < n; i++) {
		double c =
			(double)(phase == AB_PHASE_ALLOC ? smp[i].alloc_cycles
							 : smp[i].free_cycles);

		if (phase == AB_PHASE_ALLOC &&
		    (smp[i].flags & AB_SAMPLE_FAILED))
			continue;
		if (smp[i].flags & AB_SAMPLE_COND_UNMET)
			continue;
		if (net->drop && (smp[i].flags & disturbed))
			continue;
		if (smp[i].nr_objs)
			out[k++] = (c - net->per_sample) / smp[i].nr_objs -
				   net->per_op;
	}
	return k;
}

size_t ab_per_op_cycles(const struct ab_sample *smp, size_t n,
			enum ab_phase phase, double subtract, double *out)
{
	const struct ab_net net = { subtract, 0, 0 };

	return per_op(smp, n, phase, &net, out);
}

void ab_phase_summary_net(const struct ab_sample *smp, size_t n,
			  enum ab_phase phase, const struct ab_net *net,
			  unsigned int tsc_khz, double *buf,
			  struct ab_phase_stats *out)
{
	double to_ns = tsc_khz ? 1e6 / tsc_khz : NAN;
	size_t i, k;

	k = per_op(smp, n, phase, net, buf);
	ab_stats_compute(buf, k, &out->cycles);
	for (i = 0; i < k; i++)
		buf[i] *= to_ns;
	ab_stats_compute(buf, k, &out->ns);
}

void ab_phase_summary(const struct ab_sample *smp, size_t n,
		      enum ab_phase phase, double subtract,
		      unsigned int tsc_khz, double *buf,
		      struct ab_phase_stats *out)
{
	const struct ab_net net = { subtract, 0, 0 };

	ab_phase_summary_net(smp, n, phase, &net, tsc_khz, buf, out);
}
