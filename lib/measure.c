// SPDX-License-Identifier: GPL-2.0-only
/* measure.c - per-operation figures from samples (see measure.h). */
#include <math.h>

#include "measure.h"

size_t ab_per_op_cycles(const struct ab_sample *smp, size_t n,
			enum ab_phase phase, double subtract, double *out)
{
	size_t i, k = 0;

	for (i = 0; i < n; i++) {
		double c =
			(double)(phase == AB_PHASE_ALLOC ? smp[i].alloc_cycles
							 : smp[i].free_cycles);

		if (smp[i].nr_objs)
			out[k++] = c / smp[i].nr_objs - subtract;
	}
	return k;
}

void ab_phase_summary(const struct ab_sample *smp, size_t n,
		      enum ab_phase phase, double subtract,
		      unsigned int tsc_khz, double *buf,
		      struct ab_phase_stats *out)
{
	double to_ns = tsc_khz ? 1e6 / tsc_khz : NAN;
	size_t i, k;

	k = ab_per_op_cycles(smp, n, phase, subtract, buf);
	ab_stats_compute(buf, k, &out->cycles);
	for (i = 0; i < k; i++)
		buf[i] *= to_ns;
	ab_stats_compute(buf, k, &out->ns);
}
