// SPDX-License-Identifier: GPL-2.0-only
/*
 * report_csv.c - run and sweep --csv: a finished job as one RFC 4180
 * record per row that ran (lib/textout.h writes the fields), its columns
 * named in the header record (see report.h).
 */
#include <stdio.h>

#include "ab_run.h"
#include "parse.h"
#include "report.h"
#include "textout.h"

void ab_job_print_csv(const struct ab_job *job)
{
	static const char *const phases[] = { "alloc", "free" };
	static const char *const stats[] = { "n",   "min",   "median", "mean",
					     "p90", "p99",   "max",    "stddev",
					     "cv",  "ci_lo", "ci_hi" };
	struct ab_csv_row row = { stdout, 0 };
	int i, p, s;

	printf("strategy,object_bytes,order,batch,trials,warmup,timing,free,seed,context,gfp,write,node,target_node,cpu,objects,failed,node_hits,node_checked,cache_merged,clock_cycles,tsc_khz,values");
	for (p = 0; p < 2; p++) {
		for (s = 0; s < 11; s++)
			printf(",%s_%s_ns", phases[p], stats[s]);
		printf(",%s_median_cycles,%s_raw_median_ns,%s_subtracted_cycles",
		       phases[p], phases[p], phases[p]);
	}
	printf(",switches,migrations,disturbed_trials,free_elsewhere,trials_done,sheaves,rcu_drain_mean_ns,rcu_drain_late_trials,charged,memcg_slab_before,memcg_slab_after,memcg_peak,pool_min,pool_from_reserve,map_areas,map_4k_pages,map_2m_pages,map_1g_pages");
	/*
	 * counters (--events, --explain), per op as the table prints them;
	 * the names hold no comma (the lists are split at commas)
	 */
	for (s = 0; s < job->session.counters.n; s++)
		printf(",%s_per_op", job->session.counters.ev[s].name);
	printf("\n");
	for (i = 0; i < job->nrows; i++) {
		const struct ab_row *r = &job->rows[i];
		const struct ab_run *run = &r->run;
		double drain_mean, drain_max;

		if (!r->ran)
			continue;
		const unsigned long long u[] = {
			run->obj_size,	   run->order,	      run->batch,
			run->trials,	   run->warmup,	      run->seed,
			run->objects,	   run->failed,	      run->node_hits,
			run->node_checked, run->cache_merged, run->clock_cycles,
			run->tsc_khz
		};

		ab_csv_str(&row, r->si->name);
		for (s = 0; s < 5; s++)
			ab_csv_printf(&row, "%llu", u[s]);
		ab_csv_str(&row, ab_timing_name(run->timing));
		ab_csv_str(&row, ab_free_name(run->free_pattern));
		ab_csv_printf(&row, "%llu", u[5]);
		ab_csv_str(&row, ab_context_name(run->context));
		ab_csv_str(&row, ab_row_gfp(job, r));
		ab_csv_printf(&row, "%d", !!(run->flags & AB_RUN_WRITE));
		ab_csv_printf(&row, "%d", run->node);
		ab_csv_printf(&row, "%d", run->target_node);
		ab_csv_printf(&row, "%u", run->cpu_start);
		for (s = 6; s < 13; s++)
			ab_csv_printf(&row, "%llu", u[s]);
		ab_csv_str(&row,
			   r->subtract[0] || r->subtract[1] ? "net" : "raw");
		for (p = 0; p < 2; p++) {
			const struct ab_stats *st = &r->net[p].ns;
			const double v[] = { st->min,
					     st->median,
					     st->mean,
					     st->p90,
					     st->p99,
					     st->max,
					     st->stddev,
					     st->cv,
					     st->ci_lo,
					     st->ci_hi,
					     r->net[p].cycles.median,
					     r->raw[p].ns.median,
					     r->subtract[p] };

			ab_csv_printf(&row, "%zu", st->n);
			for (s = 0; s < (int)(sizeof(v) / sizeof(v[0])); s++)
				ab_csv_num(&row, "%.3f", v[s]);
		}
		/* empty where the backend does not count them (RFC 4180) */
		if (job->session.bi.info.run_flags & AB_RUN_MARK_DISTURBED) {
			ab_csv_printf(&row, "%llu",
				      (unsigned long long)run->switches);
			ab_csv_printf(&row, "%u", run->migrations);
			ab_csv_printf(&row, "%u", run->disturbed);
		} else {
			for (s = 0; s < 3; s++)
				ab_csv_str(&row, "");
		}
		if (run->flags & AB_RUN_REMOTE_FREE)
			ab_csv_printf(&row, "%u", run->free_elsewhere);
		else
			ab_csv_str(&row, "");
		ab_csv_printf(&row, "%u", run->trials_done);
		/* --sheaves: empty for the kernel's own choice, 0 for none */
		if (run->flags & AB_RUN_SHEAVES)
			ab_csv_printf(&row, "%u", run->sheaf_capacity);
		else
			ab_csv_str(&row, "");
		/* RCU strategies: the untimed waits (rcu_note()), else empty */
		if (ab_row_drain_ns(r, &drain_mean, &drain_max)) {
			ab_csv_num(&row, "%.1f", drain_mean);
			ab_csv_printf(&row, "%u", run->drain_late);
		} else {
			ab_csv_str(&row, "");
			ab_csv_str(&row, "");
		}
		/* --memcg: the cgroup's slab bytes around the row, its peak */
		ab_csv_printf(&row, "%d", ab_row_charges(job, r));
		if (r->mc_read) {
			ab_csv_printf(&row, "%llu",
				      (unsigned long long)r->mc[0].slab);
			ab_csv_printf(&row, "%llu",
				      (unsigned long long)r->mc[1].slab);
		} else {
			ab_csv_str(&row, "");
			ab_csv_str(&row, "");
		}
		if (r->mc_read && r->mc[1].peak != UINT64_MAX)
			ab_csv_printf(&row, "%llu",
				      (unsigned long long)r->mc[1].peak);
		else
			ab_csv_str(&row, "");
		/* mempools: the reserve and what was taken (not with pairs) */
		if (r->si->params & AB_PARAM_POOL)
			ab_csv_printf(&row, "%u", run->pool_min);
		else
			ab_csv_str(&row, "");
		if ((r->si->params & AB_PARAM_POOL) &&
		    run->free_pattern != AB_FREE_PAIR)
			ab_csv_printf(
				&row, "%llu",
				(unsigned long long)run->pool_from_reserve);
		else
			ab_csv_str(&row, "");
		/* vmalloc areas: their mapping's leaf entries, else empty */
		for (s = -1; s < AB_MAP_NR; s++)
			if (!run->map_areas)
				ab_csv_str(&row, "");
			else
				ab_csv_printf(
					&row, "%llu",
					(unsigned long long)(s < 0 ? run->map_areas
								   : run->map_pages
									     [s]));
		for (s = 0; s < job->session.counters.n; s++)
			ab_csv_num(&row, "%.4f", r->ev_net[s]);
		ab_csv_end(&row);
	}
}
