/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * vmpaths.h - the fast path's B - A of `allocbench vm --paths`
 * (vmpaths.c), which vmab.c puts in each row's comparison per phase.
 */
#ifndef AB_VMPATHS_H
#define AB_VMPATHS_H

#include <stddef.h>
#include <json-c/json.h>

struct ab_vpmu_len;

/* The pooled lengths a kernel's side of the comparison lists. */
#define AB_VM_PATHS_LIST 8

/*
 * ab_vm_paths_diff - one row's phase @phase ("alloc" or "free") of
 * `run --paths` on each kernel's boots, @ra[0..na) A's saved rows (one a
 * boot), @rb[0..nb) B's: per kernel the path lengths pooled over its boots
 * (the ops of each length summed), the fast path (the length most ops
 * ran, of equal ops the shorter) and each boot's own; B - A of the
 * fast paths, in instructions of one op, exact, and whether every boot of
 * each kernel ran the same fast path (then every pair of boots gives that
 * B - A: no spread); @paired adds each pair's (round i of A and of B,
 * vm --deterministic). NULL when either kernel has no boot with paths.
 */
json_object *ab_vm_paths_diff(json_object **ra, size_t na, json_object **rb,
			      size_t nb, const char *phase, int paired);

/*
 * ab_json_path_lengths - @len[0..@n) as the JSON both documents hold
 * them in, [{"instructions", "ops"}, ...] (run --paths' "lengths", vm
 * --paths' "lengths_a" and "lengths_b"); ab_vm_paths_diff() reads them
 * back
 */
json_object *ab_json_path_lengths(const struct ab_vpmu_len *len, size_t n);

#endif
