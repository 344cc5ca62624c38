/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * measure.h - from the module's samples to per-operation figures.
 *
 * Batch timing: a sample is one trial's phase; per-op cycles = phase cycles
 * / objects. Single timing: a sample is one timed call, of one object (or
 * of the whole batch for AB_STRATEGY_PER_TRIAL strategies). Overhead
 * subtraction (net values, ab_net_rule()): batch timing subtracts the
 * median per-op cycles of the baseline strategy (AB_STRATEGY_BASELINE)
 * run with the same parameters (loop, clock and harness cost); single
 * timing subtracts the median cost of one get_cycles() pair from each
 * timed call, shared by the call's objects.
 */
#ifndef AB_MEASURE_H
#define AB_MEASURE_H

#include <stddef.h>
#include <stdint.h>
#include <linux/allocbench.h>

#include "stats.h"

enum ab_phase { AB_PHASE_ALLOC, AB_PHASE_FREE };

/**
 * struct ab_net - what net values subtract from a phase's cycles
 * @per_op:     from each operation (batch timing: the baseline's median
 *              per op)
 * @per_sample: from each sample, before it is divided among its objects
 *              (single timing: one clock pair around each timed call)
 * @drop:       with --drop-disturbed nonzero: a sample whose phase saw a
 *              context switch or a CPU change (AB_SAMPLE_ALLOC_DISTURBED,
 *              AB_SAMPLE_FREE_DISTURBED) is left out of that phase
 */
struct ab_net {
	double per_op;
	double per_sample;
	int drop;
};

/*
 * ab_net_uses_baseline - whether net values subtract a baseline's figures
 * (cycles and event counts per op): batch timing, not --raw (@raw), and a
 * baseline measured for this row (@have_baseline: it ran, and the row is
 * not the baseline itself, whose own row stays raw).
 */
int ab_net_uses_baseline(int raw, uint32_t timing, int have_baseline);

/*
 * ab_net_rule - the net-value rule: nothing with @raw; single timing: one
 * clock pair (@clock_cycles, measured by the run) per sample; batch
 * timing: the baseline's raw median per op of the phase
 * (@baseline_median; NULL when ab_net_uses_baseline() says there is none,
 * and then nothing).
 */
struct ab_net ab_net_rule(int raw, uint32_t timing, uint64_t clock_cycles,
			  const double *baseline_median);

/*
 * ab_phase_samples - of a run's @n samples, how many hold @phase: none for
 * the free phase of AB_FREE_PAIR in batch timing (timed with the alloc).
 */
size_t ab_phase_samples(uint32_t timing, uint32_t free_pattern,
			enum ab_phase phase, size_t n);

/*
 * ab_per_op_cycles - per-op cycles of @phase for every sample that holds
 * objects, minus @subtract, into @out (room for @n). Returns how many.
 * Exported for test_measure.c alone: the per-op extraction every phase
 * summary makes (its static per_op()), tested without a summary around it.
 */
size_t ab_per_op_cycles(const struct ab_sample *smp, size_t n,
			enum ab_phase phase, double subtract, double *out);

/**
 * struct ab_phase_stats - one phase of one strategy
 * @cycles: statistics of per-op cycles
 * @ns:     the same in ns (NAN everywhere when the TSC rate is unknown)
 */
struct ab_phase_stats {
	struct ab_stats cycles;
	struct ab_stats ns;
};

/*
 * ab_phase_summary - statistics of @phase over @smp[0..n), after
 * subtracting @subtract cycles per op; @tsc_khz converts to ns
 * (ns = cycles * 10^6 / tsc_khz). @buf has room for @n values and holds the
 * per-op ns afterwards (sorted), for histograms.
 * Exported for the unit tests alone (test_job.c): ab_phase_summary_net()
 * with only a constant subtracted, the form their figures are worked in.
 */
void ab_phase_summary(const struct ab_sample *smp, size_t n,
		      enum ab_phase phase, double subtract,
		      unsigned int tsc_khz, double *buf,
		      struct ab_phase_stats *out);

/* ab_phase_summary_net - the same, subtracting @net (ab_net_rule()). */
void ab_phase_summary_net(const struct ab_sample *smp, size_t n,
			  enum ab_phase phase, const struct ab_net *net,
			  unsigned int tsc_khz, double *buf,
			  struct ab_phase_stats *out);

#endif
