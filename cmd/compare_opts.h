/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * compare_opts.h - the options of `allocbench compare` beyond run's
 * (defined in compare.c; cmd/run.c parses them with run's for compare),
 * and its comparison of saved results (compare_saved.c).
 */
#ifndef AB_COMPARE_OPTS_H
#define AB_COMPARE_OPTS_H

#include <popt.h>

/* --rounds=N: the interleaved rounds of A and B (see compare.c) */
extern struct poptOption ab_compare_table[];

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
