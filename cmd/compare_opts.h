/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * compare_opts.h - the options of `allocbench compare` beyond run's
 * (defined in compare.c; cmd/run.c parses them with run's for compare).
 */
#ifndef AB_COMPARE_OPTS_H
#define AB_COMPARE_OPTS_H

#include <popt.h>

/* --rounds=N: the interleaved rounds of A and B (see compare.c) */
extern struct poptOption ab_compare_table[];

#endif
