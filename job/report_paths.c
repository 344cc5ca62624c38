// SPDX-License-Identifier: GPL-2.0-only
/*
 * report_paths.c - --paths in the report: each row's path lengths, the
 * instructions of one op per path and how many ops ran each, from the
 * virtual PMU's pass of one region per op (lib/vpmu.h), as text and JSON.
 */
#include <stdio.h>

#include "report.h"
#include "vmpaths.h"

/* the lengths after the fast path that the text shows, and with -v */
#define AB_PATHS_SHOW	2
#define AB_PATHS_SHOW_V 8

static const char *const phase_name[2] = { "alloc", "free" };

/* "87.2%", or "<0.1%" for a share that rounds to nothing but is not 0 */
static const char *share(uint64_t part, uint64_t whole, char *buf, size_t len)
{
	double p = whole ? 100.0 * (double)part / (double)whole : 0;

	if (part && p < 0.05)
		snprintf(buf, len, "<0.1%%");
	else
		snprintf(buf, len, "%.1f%%", p);
	return buf;
}

/* one row's phase: ops, the fast path, the other lengths */
static void print_phase(const char *label, int w, int k,
			const struct ab_vpmu_path_phase *ph)
{
	uint64_t rest = ph->other_ops;
	uint32_t i, more = ph->distinct > ph->n ? ph->distinct - ph->n : 0;
	uint32_t show =
		ab_out.verbose || ab_out.wide ? AB_PATHS_SHOW_V : AB_PATHS_SHOW;
	char fast[48], s[16];

	snprintf(fast, sizeof(fast), "%llu (%s)",
		 (unsigned long long)ph->len[0].insns,
		 share(ph->len[0].ops, ph->ops, s, sizeof(s)));
	printf("%-*s %-5s %9llu  %17s", w, label, phase_name[k],
	       (unsigned long long)ph->ops, fast);
	for (i = 1; i < ph->n; i++) {
		if (i > show) {
			rest += ph->len[i].ops;
			more++;
			continue;
		}
		printf("%s%llu (%s)", i == 1 ? "  " : ", ",
		       (unsigned long long)ph->len[i].insns,
		       share(ph->len[i].ops, ph->ops, s, sizeof(s)));
	}
	if (more)
		printf("%s%u more length%s (%s)", ph->n > 1 ? ", " : "  ", more,
		       more == 1 ? "" : "s",
		       share(rest, ph->ops, s, sizeof(s)));
	if (ph->left_out)
		printf("; %llu left out (a handler inside)",
		       (unsigned long long)ph->left_out);
	printf("\n");
}

/* why a row that ran has no paths, or NULL when it has them or none apply */
static const char *why_none(const struct ab_row *r)
{
	if (r->paths.valid || !r->ran)
		return NULL;
	if (r->paths.intr)
		return "interrupted during its paths pass: none counted";
	if (r->paths.lost)
		return "the plugin's lines were written over before they were read (over 100000 allocations in the pass?): none counted";
	return NULL;
}

void ab_job_print_paths(const struct ab_job *job)
{
	int i, k, any = 0, told = 0, w = ab_job_label_width(job, 18);
	const char *why;

	if (!job->paths)
		return;
	for (i = 0; i < job->nrows; i++)
		any |= job->rows[i].paths.valid;
	if (any) {
		printf("\npaths (--paths): instructions of one op by path length, one region per op (single timing, raw), the fast path (the length most ops ran) first\n");
		printf("%-*s %-5s %9s  %17s  %s\n", w, "row", "phase", "ops",
		       "fast path (ops)", "other lengths (ops)");
	}
	for (i = 0; i < job->nrows; i++) {
		const struct ab_row *r = &job->rows[i];

		for (k = 0; r->paths.valid && k < 2; k++)
			if (r->paths.ph[k].ops)
				print_phase(r->label, w, k, &r->paths.ph[k]);
	}
	for (i = 0; i < job->nrows; i++)
		if ((why = why_none(&job->rows[i]))) {
			printf("note: %s: paths: %s\n", job->rows[i].label,
			       why);
			told = 1;
		}
	if (!any && !told)
		printf("note: paths: none came back from the virtual PMU (strategies timed per trial have no region per op)\n");
}

json_object *ab_row_paths_json(const struct ab_row *r)
{
	json_object *o, *ph;
	int k;

	if (!r->paths.valid && !why_none(r))
		return NULL;
	o = json_object_new_object();
	if (!r->paths.valid) {
		json_object_object_add(o,
				       r->paths.intr ? "interrupted" : "lost",
				       json_object_new_boolean(1));
		return o;
	}
	for (k = 0; k < 2; k++) {
		const struct ab_vpmu_path_phase *p = &r->paths.ph[k];

		if (!p->ops && !p->left_out)
			continue;
		ph = json_object_new_object();
		json_object_object_add(ph, "ops",
				       json_object_new_int64((int64_t)p->ops));
		json_object_object_add(
			ph, "left_out",
			json_object_new_int64((int64_t)p->left_out));
		json_object_object_add(
			ph, "distinct",
			json_object_new_int64((int64_t)p->distinct));
		json_object_object_add(ph, "lengths",
				       ab_json_path_lengths(p->len, p->n));
		json_object_object_add(
			ph, "other_ops",
			json_object_new_int64((int64_t)p->other_ops));
		json_object_object_add(
			ph, "other_instructions",
			json_object_new_int64((int64_t)p->other_insns));
		json_object_object_add(o, phase_name[k], ph);
	}
	return o;
}
