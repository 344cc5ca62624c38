/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * exportfmt.h - the engines' formats `allocbench export` writes, one
 * writer each, from the flat metrics of lib/metrics.h. Each format is
 * written from the engine's own files (the sources in exportfmt.c); the
 * table below is the one list of them (--help, the error for an unknown
 * one, the completions: `allocbench list --values=export-formats`).
 */
#ifndef AB_EXPORTFMT_H
#define AB_EXPORTFMT_H

#include <stdio.h>

#include "metrics.h"

/**
 * struct ab_export_opts - what a format needs beyond the metrics
 * @origin:      KCIDB origin ([a-z0-9_]+; default "allocbench")
 * @build_id:    KCIDB id of the build the result ran on (the submitter's
 *               own, "origin:..."), NULL: one made from the document
 * @checkout_id: KCIDB id of its checkout, NULL: one made likewise
 * @start:       the first document's "start" (ISO 8601), "" when none
 */
struct ab_export_opts {
	const char *origin;
	const char *build_id;
	const char *checkout_id;
	char start[40];
};

/**
 * struct ab_export_fmt - one engine's format
 * @name:       as --format spells it
 * @what:       one line for --help
 * @samples:    the most samples it carries in one export (0: any)
 * @one_kernel: whether one export holds one kernel (the engine compares
 *              kernels as runs of its own: --kernel picks a vm
 *              document's)
 * @write:      writes @ms to @f; 0, or -EINVAL with the reason in @err
 */
struct ab_export_fmt {
	const char *name;
	const char *what;
	int samples;
	int one_kernel;
	int (*write)(const struct ab_metrics *ms,
		     const struct ab_export_opts *o, FILE *f, char *err,
		     size_t len);
};

/* The formats, ended by a NULL name. */
extern const struct ab_export_fmt ab_export_formats[];

/* ab_export_find - the format named @name, or NULL. */
const struct ab_export_fmt *ab_export_find(const char *name);

#endif
