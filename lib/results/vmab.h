/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * vmab.h - "is kernel B faster than kernel A": the same allocbench command
 * run in several boots of each kernel (`allocbench vm`), compared with the
 * boot as the experimental unit. Trials within one boot share that boot's
 * page layout, cache placement and drift, so they are not independent
 * evidence about the kernel; each boot contributes one number per result
 * row and phase (its median ns/op), and the kernels are compared on those.
 * The statistics (Welch's t on the logs, the detectable change, the
 * rounds needed, AB_VM_ALPHA) are lib/compare.c's (compare.h, included
 * here); Holm's correction is lib/stats.c's (ab_holm()).
 */
#ifndef AB_VMAB_H
#define AB_VMAB_H

#include <stddef.h>
#include <json-c/json.h>

#include "compare.h"

/* Kernels one `allocbench vm` compares: A and up to three others. */
#define AB_VM_MAX_KERNELS 4

/* How one boot ended (what scripts/vm/vm-run.sh and the command said). */
enum ab_vm_status {
	AB_VM_OK = 0,	   /* booted, the command succeeded, its result read */
	AB_VM_FAILED,	   /* the command exited with a failure status */
	AB_VM_KERNEL,	   /* the kernel log reported a problem (vm-run 125) */
	AB_VM_NOSTATUS,	   /* no boot, a crash or the timeout (vm-run 126) */
	AB_VM_BADOUTPUT,   /* it ran, but its result was missing or invalid */
	AB_VM_NOTRUN,	   /* never booted: the run was interrupted, or its
			      command refused */
	AB_VM_INTERRUPTED, /* ended by a signal (Ctrl-C) while it ran */
};

/* "ok", "command failed", ... for enum ab_vm_status @s. */
const char *ab_vm_status_name(int s);

/**
 * struct ab_vm_boot - one boot of one kernel
 * @kernel:  index of its kernel (0 is A)
 * @round:   its round, from 1
 * @status:  enum ab_vm_status
 * @exit:    vm-run.sh's exit status (the command's own, or 125, 126)
 * @seconds: wall time of the boot, from qemu's start to its exit
 * @result:  the command's checked JSON result (AB_VM_OK only), owned
 * @why:     one line saying why a boot is left out (malloc'ed), or NULL
 * @seed:    the seed its kernel command line carried (vm --deterministic:
 *           its round), 0 for none: boots of two kernels with one seed
 *           are compared as a pair
 */
struct ab_vm_boot {
	int kernel;
	int round;
	int seed;
	int status;
	int exit;
	double seconds;
	json_object *result;
	char *why;
};

/*
 * ab_vm_kernel_of - the kernel of boot @i (from 0) when @nk kernels boot
 * in rounds: round r boots 0, 1, ..., nk - 1 when r is even and the
 * reverse when odd (A B, B A, A B, ...), so that a drift over the run
 * (thermal, the host's load, the page cache filling) falls on every
 * kernel alike, each boot of one kernel paired with a neighbour of the
 * other (the ABBA design: D. R. Cox, "Planning of Experiments", Wiley
 * 1958, ch. 13).
 */
int ab_vm_kernel_of(int i, int nk);

/*
 * ab_vm_compare - compare every kernel k >= 1 with kernel 0 on the good
 * boots of @boots[0..n), @nk kernels named @names[] (as the user named
 * them). Every result row found in a good boot of A (its identity:
 * lib/resultrow.h, ab_result_row_key(); named by ab_result_row_name()) is
 * compared in each of its phases (alloc, free; lookup) on the boots' medians
 * with ab_welch(). @threshold_pct > 0 (the user's --threshold): whether a
 * change that large would have been detected, and the rounds that would need.
 * Returns the JSON array of comparisons, one per kernel after A:
 *   { "a": name, "b": name, "rows": [ { "label", "phase", "a_ns",
 *     "b_ns", "boots_a", "boots_b", "ratio", "ci95": [lo, hi], "p",
 *     "df", "p_adjusted", "verdict", "detectable_pct", "threshold_pct",
 *     "threshold_detectable", "rounds_needed", "counters": [ { "event",
 *     "a", "b", "delta" } ] } ], "correction": { ... } }
 * "p" is each test's own; "p_adjusted" Holm's over every row, phase and
 * kernel of the array (ab_vm_adjust()), and "verdict" is "faster",
 * "slower" (p_adjusted < AB_VM_ALPHA), "no significant difference" or
 * "cannot conclude" (fewer than two good boots of either kernel, or a
 * median that is not positive). NULL without memory.
 */
json_object *ab_vm_compare(const struct ab_vm_boot *boots, size_t n, int nk,
			   const char *const *names, double threshold_pct);

/*
 * ab_vm_adjust - one family of tests: every row of every comparison in
 * @cmps (ab_vm_compare()'s array). Each row's "p_adjusted" becomes
 * Holm's adjustment of its "p" over all of them (ab_holm(): the chance of
 * any false verdict in the report stays under AB_VM_ALPHA, against about
 * 1 - 0.95^m for m tests each at 5%), its "verdict" is set from that,
 * and each comparison gets "correction": { "method": "holm", "alpha",
 * "tests": m }. Each row's detectable_pct, threshold_detectable and
 * rounds_needed are set at Holm's first level, AB_VM_ALPHA / m (from its
 * log_sd, boots_a, boots_b and threshold_pct; AB_VM_ALPHA when m is 0).
 * Returns m (the rows with a p), 0 when there is none or no memory (rows
 * then keep p_adjusted = p).
 */
size_t ab_vm_adjust(json_object *cmps);

/* The checks of saved documents (vmcheck.c): */

/*
 * ab_vm_check - check a document `allocbench vm --json` wrote (schema
 * "allocbench-vm", version 1) as far as plot reads it. 0, or -EINVAL with
 * "FIELD: what is wrong" in @err.
 */
int ab_vm_check(json_object *root, char *err, size_t len);

/*
 * ab_saved_check - check any document a command saved with --json: an
 * `allocbench vm` document (ab_vm_check()), a comparison of saved files
 * (`compare OLD.json NEW.json`: comparisons, no results; checked by
 * @comparisons, or let through when it is NULL, for a caller that refuses
 * it itself) or a result (ab_json_check_result()). For
 * ab_json_read_checked()'s callbacks (plot, export). 0, or -EINVAL with
 * "FIELD: what is wrong" in @err.
 */
int ab_saved_check(json_object *root,
		   int (*comparisons)(json_object *, char *, size_t), char *err,
		   size_t len);

#endif
