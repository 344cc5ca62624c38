/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * vmprofile.h - the differential profile of `allocbench vm --profile`
 * (vmprofile.c), which vmab.c puts in each row's comparison.
 */
#ifndef AB_VMPROFILE_H
#define AB_VMPROFILE_H

#include <stddef.h>
#include <json-c/json.h>

/*
 * ab_vm_profile_diff - the differential profile of one row, B - A: @ra[0..na)
 * A's saved rows (one a boot), @rb[0..nb) B's, @delta the row's B - A of
 * instructions per op; NULL when either kernel has no boot with a profile.
 */
json_object *ab_vm_profile_diff(json_object **ra, size_t na, json_object **rb,
				size_t nb, double delta);

#endif
