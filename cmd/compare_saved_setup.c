// SPDX-License-Identifier: GPL-2.0-only
/*
 * compare_saved_setup.c - the saved files of `allocbench compare A.json --
 * B.json` before they are compared (see compare_saved.h): each read and
 * checked, the sides counted, the runs of one side refused unless they
 * repeat one setup, and a note or a warning where A's and B's setups or
 * environments differ (the comparison goes on: the change may be meant).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "allocbench.h"
#include "compare_opts.h"
#include "compare_saved.h"
#include "env.h"
#include "jsonin.h"
#include "jsonout.h"
#include "outfile.h"
#include "resultrow.h"

/* The saved result @path, checked; NULL after one line on stderr. */
json_object *compare_saved_load(const char *path)
{
	char err[1024];
	json_object *root = ab_json_read_result(path, err, sizeof(err));

	if (!root)
		ab_err("compare: %s", err);
	return root;
}

/* One note on stderr when A's @key (@va) and B's (@vb) differ. */
static void differs(const char *label, const char *what, const char *key,
		    json_object *va, json_object *vb)
{
	const char *a = json_object_to_json_string(va);
	const char *b = json_object_to_json_string(vb);

	if (strcmp(a, b))
		ab_err("compare: note: %s: %s%s differs (%s against %s): more than one thing changed",
		       label, what, key, a, b);
}

/*
 * The setup fields that make two results measure different things: a
 * result's own, and its run's parameters (given as --KEY).
 */
static const char *const result_keys[] = { "object_bytes", "batch", "strategy",
					   "node", "lookup" };
static const char *const param_keys[] = { "timing", "free",  "context",
					  "gfp",    "write", "raw" };

/*
 * What a note calls saved row @row: its label, else (a lookup row has
 * none) its name, ab_result_row_name(), into @buf.
 */
static const char *row_label(json_object *row, char *buf, size_t len)
{
	const char *label = json_object_get_string(ab_json_get(row, "label"));
	char *name;

	if (label)
		return label;
	name = ab_result_row_name(row);
	snprintf(buf, len, "%s", name ? name : "?");
	free(name);
	return buf;
}

/*
 * One note on stderr for each setup field in which A and B differ: the
 * comparison goes on, as the change between A and B may be meant.
 */
static void mismatch_notes(json_object *ra, json_object *rb, json_object *a,
			   json_object *b)
{
	json_object *pa = ab_json_get(ra, "parameters"),
		    *pb = ab_json_get(rb, "parameters");
	char buf[256];
	const char *label = row_label(b, buf, sizeof(buf));
	size_t k;

	for (k = 0; k < sizeof(result_keys) / sizeof(result_keys[0]); k++)
		differs(label, "", result_keys[k],
			ab_json_get(a, result_keys[k]),
			ab_json_get(b, result_keys[k]));
	for (k = 0; k < sizeof(param_keys) / sizeof(param_keys[0]); k++)
		differs(label, "--", param_keys[k],
			ab_json_get(pa, param_keys[k]),
			ab_json_get(pb, param_keys[k]));
}

/* One line when @ea and @eb's kernels hid different CPU features. */
static void warn_clearcpuid(json_object *ea, json_object *eb, const char *pa,
			    const char *pb)
{
	const char *la = json_object_get_string(ab_json_get(ea, "cmdline"));
	const char *lb = json_object_get_string(ab_json_get(eb, "cmdline"));
	char ca[128], cb[128];

	if (!la || !lb)
		return;
	ab_env_clearcpuid(la, ca, sizeof(ca));
	ab_env_clearcpuid(lb, cb, sizeof(cb));
	if (strcmp(ca, cb))
		fprintf(stderr,
			"warning: %s and %s ran kernels told to hide different CPU features (clearcpuid=%s; clearcpuid=%s): each ran the code its features chose (allocbench vm's default TCG guest hides rep_good since 2026-12-07, zeroing without rep stosq), so times and counters differ by that too\n",
			pa, pb, ca[0] ? ca : "(none)", cb[0] ? cb : "(none)");
}

/*
 * Saved results whose environments differ in what changes every figure:
 * the CPU model (environment.cpu_model), or whether the kernel's crng was
 * seeded (environment.crng_ready, lib/env.h: unseeded, get_random_*() runs
 * BLAKE2s inside the ops that take a new slab), or the CPU features the
 * kernel was told to hide (clearcpuid= in environment.cmdline: allocbench
 * vm's default TCG guest hides rep_good since 2026-12-07, so results saved
 * before and after ran other zeroing code). One line on stderr each, the
 * comparison goes on.
 */
int compare_saved_warn_env(json_object *a, json_object *b, const char *pa,
			   const char *pb)
{
	json_object *ea = ab_json_get(a, "environment");
	json_object *eb = ab_json_get(b, "environment");
	const char *ma = json_object_get_string(ab_json_get(ea, "cpu_model"));
	const char *mb = json_object_get_string(ab_json_get(eb, "cpu_model"));
	json_object *ca = ab_json_get(ea, "crng_ready");
	json_object *cb = ab_json_get(eb, "crng_ready");

	if (ma && mb && strcmp(ma, mb))
		fprintf(stderr,
			"warning: %s and %s come from different CPUs (%s; %s): their times and counters differ by the CPU too\n",
			pa, pb, ma, mb);
	if (json_object_is_type(ca, json_type_boolean) &&
	    json_object_is_type(cb, json_type_boolean) &&
	    json_object_get_boolean(ca) != json_object_get_boolean(cb))
		fprintf(stderr,
			"warning: %s ran with the kernel's random number generator %s, %s %s: where a new slab is taken, get_random_*() costs more unseeded (BLAKE2s), so times and counters differ by that too\n",
			pa, json_object_get_boolean(ca) ? "seeded" : "unseeded",
			pb,
			json_object_get_boolean(cb) ? "seeded" : "unseeded");
	warn_clearcpuid(ea, eb, pa, pb);
	return mb && strstr(mb, "AMD");
}

/*
 * Notes for each row of @b (B's first file) whose strategy @a times too
 * (ab_result_find_what(): the identity's first part), where the setup
 * differs.
 */
void compare_saved_notes(json_object *a, json_object *b)
{
	json_object *rb = ab_result_rows(b);
	json_object *ka = ab_json_get(ab_json_get(a, "environment"),
				      "kernel_release"),
		    *kb = ab_json_get(ab_json_get(b, "environment"),
				      "kernel_release");
	size_t j;
	int common = 0;

	for (j = 0; rb && j < json_object_array_length(rb); j++) {
		json_object *y = json_object_array_get_idx(rb, j);
		json_object *x = ab_result_find_what(a, y);

		if (x)
			mismatch_notes(a, b, x, y);
		common |= x != NULL;
	}
	/* once for the two files, not once per row */
	if (common && strcmp(json_object_to_json_string(ka),
			     json_object_to_json_string(kb)))
		ab_err("compare: note: kernels %s and %s",
		       json_object_to_json_string(ka),
		       json_object_to_json_string(kb));
}

/* A's and B's counts from @argv's "--"; an exit status after the error. */
int compare_saved_split(int argc, const char **argv, int nf, size_t n[2])
{
	int i = ab_popt_dash();

	if (i < 0) {
		if (nf != 2) {
			ab_err("compare: give two saved results, OLD.json NEW.json, or several of each side, A1.json A2.json ... -- B1.json B2.json ...");
			return AB_EXIT_USAGE;
		}
		n[0] = n[1] = 1;
		return AB_EXIT_OK;
	}
	/* popt takes every word after "--" as a file */
	n[1] = (size_t)(argc - 1 - i);
	n[0] = (size_t)nf - n[1];
	if (!n[0] || !n[1] || n[0] > AB_COMPARE_MAX_FILES / 2 ||
	    n[1] > AB_COMPARE_MAX_FILES / 2) {
		ab_err("compare: give 1 to %d saved results on each side of --, A's before it, B's after it (got %zu and %zu)",
		       AB_COMPARE_MAX_FILES / 2, n[0], n[1]);
		return AB_EXIT_USAGE;
	}
	return AB_EXIT_OK;
}

/*
 * Whether saved run @rb repeats the setup of @ra, its side's first run:
 * each row both time (ab_result_find_what()) the same in every setup field.
 * Pooled as repeats, runs of different setups would make a verdict about
 * neither (issue 21). Returns AB_EXIT_USAGE after one line on stderr.
 */
int compare_saved_same_setup(json_object *ra, json_object *rb, const char *pa,
			     const char *pb)
{
	json_object *xb = ab_result_rows(rb);
	size_t j, k;

	for (j = 0; xb && j < json_object_array_length(xb); j++) {
		json_object *y = json_object_array_get_idx(xb, j);
		char buf[256];
		const char *label = row_label(y, buf, sizeof(buf));
		json_object *x = ab_result_find_what(ra, y);
		/* a result's own fields, then its run's parameters */
		struct {
			json_object *a, *b;
			const char *const *keys;
			size_t n;
			const char *dashes;
		} set[] = {
			{ x, y, result_keys,
			  sizeof(result_keys) / sizeof(*result_keys), "" },
			{ ab_json_get(ra, "parameters"),
			  ab_json_get(rb, "parameters"), param_keys,
			  sizeof(param_keys) / sizeof(*param_keys), "--" },
		};
		size_t s;

		for (s = 0; x && s < sizeof(set) / sizeof(*set); s++)
			for (k = 0; k < set[s].n; k++) {
				const char *key = set[s].keys[k];
				const char *va = json_object_to_json_string(
					ab_json_get(set[s].a, key));
				const char *vb = json_object_to_json_string(
					ab_json_get(set[s].b, key));

				if (strcmp(va, vb)) {
					ab_err("compare: %s and %s are on one side but differ in %s%s of %s (%s against %s): the runs of one side must repeat one setup",
					       pa, pb, set[s].dashes, key,
					       label, va, vb);
					return AB_EXIT_USAGE;
				}
			}
	}
	return AB_EXIT_OK;
}

/*
 * A file named twice among several runs (by path or through a link: the
 * same device and inode) would count as two independent runs of one
 * measurement: refused, an exit status after the error. One file on each
 * side may be the same (a side-by-side look; no verdict is drawn then).
 */
int compare_saved_named_twice(const char **files, size_t n)
{
	size_t i, j;

	if (n > 2 && ab_inputs_named_twice(files, n, &i, &j)) {
		ab_err("compare: %s and %s are the same file: each saved run counts once as a unit of the test; give each run once",
		       files[i], files[j]);
		return AB_EXIT_USAGE;
	}
	return AB_EXIT_OK;
}
