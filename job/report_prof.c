// SPDX-License-Identifier: GPL-2.0-only
/*
 * report_prof.c - --profile in the report: each row's instructions per op
 * by kernel function, from the virtual PMU's model (lib/vpmu.h), as text
 * and as JSON.
 */
#include <stdio.h>

#include "report.h"

void ab_job_print_profile(const struct ab_job *job)
{
	int i, k, any = 0;

	for (i = 0; i < job->nrows; i++)
		any |= job->rows[i].prof.valid;
	if (!job->profile)
		return;
	if (!any) {
		printf("\nprofile: none came back from the virtual PMU (the runs did not pin one CPU, or the plugin's model is off)\n");
		return;
	}
	printf("\nprofile (--profile): instructions per op (one allocation and its free) by function, from the virtual PMU's counting pass, raw (the harness's own functions included; interrupts taken out, the regions holding a handler that could not be left out and the rest scaled as the counts are)\n");
	for (i = 0; i < job->nrows; i++) {
		const struct ab_row *r = &job->rows[i];
		const struct ab_vpmu_prof *p = &r->prof;

		if (!p->valid)
			continue;
		double other = p->other;

		printf("%s (%.2f in all):\n", r->label, p->total);
		/* the first AB_VPMU_PROF_SHOW, all with -v; the JSON has
		 * every function the profile named */
		for (k = 0; k < p->n; k++) {
			if (k >= AB_VPMU_PROF_SHOW && !ab_out.verbose &&
			    !ab_out.wide) {
				other += p->fn[k].count;
				continue;
			}
			printf("  %10.2f  %5.1f%%  %s\n", p->fn[k].count,
			       p->total > 0 ? 100 * p->fn[k].count / p->total
					    : 0,
			       p->fn[k].name);
		}
		if (other > 0)
			printf("  %10.2f  %5.1f%%  (the other functions)\n",
			       other,
			       p->total > 0 ? 100 * other / p->total : 0);
		if (p->dropped)
			printf("  note: %llu addresses did not fit the plugin's table: their instructions are missing\n",
			       (unsigned long long)p->dropped);
	}
}

json_object *ab_row_profile_json(const struct ab_row *r)
{
	const struct ab_vpmu_prof *p = &r->prof;
	json_object *o, *fns;
	int k;

	if (!p->valid)
		return NULL;
	o = json_object_new_object();
	fns = json_object_new_array();
	for (k = 0; k < p->n; k++) {
		json_object *f = json_object_new_object();

		json_object_object_add(f, "function",
				       json_object_new_string(p->fn[k].name));
		json_object_object_add(f, "instructions_per_op",
				       ab_json_num(p->fn[k].count));
		json_object_array_add(fns, f);
	}
	json_object_object_add(o, "instructions_per_op", ab_json_num(p->total));
	json_object_object_add(o, "functions", fns);
	json_object_object_add(o, "other_per_op", ab_json_num(p->other));
	json_object_object_add(o, "dropped_addresses",
			       json_object_new_int64((int64_t)p->dropped));
	return o;
}
