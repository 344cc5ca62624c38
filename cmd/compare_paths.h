/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * compare_paths.h - `allocbench compare`'s --explain deltas
 * (compare_paths.c), which compare.c prints and writes.
 */
#ifndef AB_COMPARE_PATHS_H
#define AB_COMPARE_PATHS_H

#include <json-c/json.h>

#include "job.h"

/*
 * compare_print_paths - the deltas of @view (A and B, each over all its
 * blocks) whenever --explain ran: counts, not timings. Only when a phase
 * differs significantly (@sig, on the adjusted p) are they said to go
 * with the time difference.
 */
void compare_print_paths(const struct ab_job *view, int sig);

/* compare_paths_json - the same deltas, one object each, into @arr. */
void compare_paths_json(const struct ab_job *view, json_object *arr);

#endif
