/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * compare_saved.h - the saved files of `allocbench compare` of saved results
 * before the comparison (compare_saved_setup.c), which compare_saved.c
 * compares and reports.
 */
#ifndef AB_COMPARE_SAVED_H
#define AB_COMPARE_SAVED_H

#include <stddef.h>
#include <json-c/json.h>

/* compare_saved_load - the saved result @path, checked; NULL after one
 * line on stderr. */
json_object *compare_saved_load(const char *path);

/*
 * compare_saved_split - A's and B's counts into @n from @argv's "--"
 * (without it: two files, one each); an exit status after the error.
 */
int compare_saved_split(int argc, const char **argv, int nf, size_t n[2]);

/*
 * compare_saved_named_twice - AB_EXIT_USAGE after the error when one file
 * is named twice among more than two (by path or a link), else AB_EXIT_OK.
 */
int compare_saved_named_twice(const char **files, size_t n);

/*
 * compare_saved_same_setup - whether saved run @rb (@pb) repeats the setup
 * of @ra (@pa), its side's first run: AB_EXIT_OK, or AB_EXIT_USAGE after
 * one line on stderr.
 */
int compare_saved_same_setup(json_object *ra, json_object *rb, const char *pa,
			     const char *pb);

/*
 * compare_saved_warn_env - a warning on stderr for each environment field
 * in which A's first file @a (@pa) and B's @b (@pb) differ that changes
 * every figure (the CPU model, the crng's seeding); whether B's CPU is an
 * AMD one (which names its cache-miss events otherwise).
 */
int compare_saved_warn_env(json_object *a, json_object *b, const char *pa,
			   const char *pb);

/*
 * compare_saved_notes - a note on stderr for each setup field in which a
 * row of @b that @a times too differs, and for different kernels.
 */
void compare_saved_notes(json_object *a, json_object *b);

#endif
