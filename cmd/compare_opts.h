/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * compare_opts.h - `allocbench compare`'s comparison of saved results
 * (compare_saved.c), which compare.c hands the files to.
 */
#ifndef AB_COMPARE_OPTS_H
#define AB_COMPARE_OPTS_H

#include <popt.h>

/* The most saved results `compare` takes, both sides together. */
#define AB_COMPARE_MAX_FILES 200

/*
 * ab_compare_saved - `allocbench compare` of saved results (compare_saved.c):
 * @files[0..nf) as popt returned them from @argv[0..argc); those after a
 * "--" in @argv are B's, the others A's (without "--": exactly two, the
 * first A's). An exit status.
 */
int ab_compare_saved(int argc, const char **argv, const char **files, int nf);

#endif
