/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * measure.h - from the module's samples to per-operation figures.
 *
 * Batch timing: a sample is one trial's phase; per-op cycles = phase cycles
 * / objects. Single timing: a sample is one operation. Overhead subtraction
 * (net values): batch timing subtracts the median per-op cycles of the
 * "none" strategy run with the same parameters (loop, clock and harness
 * cost); single timing subtracts the median cost of one get_cycles() pair.
 */
#ifndef AB_MEASURE_H
#define AB_MEASURE_H

#include <stddef.h>
#include <linux/allocbench.h>

#include "stats.h"

enum ab_phase { AB_PHASE_ALLOC, AB_PHASE_FREE };

/*
 * ab_per_op_cycles - per-op cycles of @phase for every sample that holds
 * objects, minus @subtract, into @out (room for @n). Returns how many.
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
 */
void ab_phase_summary(const struct ab_sample *smp, size_t n,
		      enum ab_phase phase, double subtract,
		      unsigned int tsc_khz, double *buf,
		      struct ab_phase_stats *out);

#endif
