/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * vpmu.h - the virtual PMU as the counters see it: where no hardware PMU
 * opens and the embedded kernel was booted with the plugin (vm-run.sh
 * VPMU=exact|model), perf's generic events that the plugin counts open on
 * it instead, through the same struct ab_pmu calls as the kernel's.
 *
 * The plugin (vpmu/abvpmu.c) appends one line per closed region to a
 * stream the guest reads as memory, an ivshmem device's (vpmushm.h), or,
 * where there is none or $AB_VPMU_FILE is set, as a file (AB_VPMU_FILE,
 * over virtio-9p with vm-run.sh VPMU_CHANNEL=9p):
 *	R vcpu phase instructions branches loads stores irets
 *	  branch-misses L1-dcache-load-misses L1-icache-load-misses
 *	  LLC-load-misses interrupts
 * after a first line "# abvpmu 2 vcpus=N model=on|off". The external
 * interrupts and IPIs the module handed the plugin the gates of
 * (kmod/vpmu.c) are taken out of a region's counts whole ("interrupts"
 * says how many); "irets" counts the handlers left in (an exception, an
 * interrupt whose return the plugin could not match). A virtual event
 * counts the regions that close between its RESET and a read: the
 * region's field summed over the regions that hold no handler (irets 0),
 * read as perf reads a count, {value, time enabled, time running} with
 * "enabled" the regions closed and "running" those that hold no handler;
 * so the counters' scaling (ab_counter_scale()) estimates the whole from
 * them as it does for a multiplexed event, and an interval whose every
 * region holds a handler reads as not counted.
 * Only the regions of the vCPU the calling thread is pinned to count (all
 * when it is not pinned to one CPU).
 *
 * The regions are the run's timed phases, only in a run that asks for
 * markers (AB_RUN_VPMU), so a virtual count covers the timed loops and
 * nothing of the ioctl around them, unlike a hardware count: see
 * ab_vpmu_events_open().
 */
#ifndef AB_VPMU_LIB_H
#define AB_VPMU_LIB_H

#include <stdint.h>
#include <stdio.h>
#include <perfmon/pfmlib_perf_event.h>

#define AB_VPMU_FILE "/ab/vpmu/counts"

/* The fields of a region line after vcpu and phase, in order. */
enum ab_vpmu_field {
	AB_VPMU_INSTRUCTIONS,
	AB_VPMU_BRANCHES,
	AB_VPMU_LOADS,
	AB_VPMU_STORES,
	AB_VPMU_IRETS,
	AB_VPMU_BRANCH_MISSES,
	AB_VPMU_L1D_LOAD_MISSES,
	AB_VPMU_L1I_LOAD_MISSES,
	AB_VPMU_LLC_LOAD_MISSES,
	AB_VPMU_INTERRUPTS,
	AB_VPMU_NFIELDS
};

/**
 * struct ab_vpmu_region - one line of the plugin's file
 * @vcpu:  the vCPU that ran it (QEMU's index: the guest's CPU number)
 * @phase: enum ab_vpmu_phase of common/ab_vpmu.h
 * @count: the counts, indexed by enum ab_vpmu_field
 */
struct ab_vpmu_region {
	unsigned int vcpu, phase;
	uint64_t count[AB_VPMU_NFIELDS];
};

/*
 * ab_vpmu_parse - @line (one line of the file, with or without its
 * newline) into *@r: 0, or -1 when it is not a whole region line.
 */
int ab_vpmu_parse(const char *line, struct ab_vpmu_region *r);

/*
 * ab_vpmu_present - whether the plugin's file is readable here: 0 no,
 * 1 yes, in exact mode, 2 yes, with its model (model=on).
 */
int ab_vpmu_present(void);

/*
 * ab_vpmu_field_of - the field that counts what @attr asks for
 * (instructions, branches / branch-instructions, L1-dcache-loads,
 * L1-dcache-stores exactly; branch-misses, L1-dcache-load-misses,
 * L1-icache-load-misses, LLC-load-misses in the model), or -1. *@model
 * (may be NULL) is set when the field is the model's.
 */
int ab_vpmu_field_of(const struct perf_event_attr *attr, int *model);

/*
 * ab_vpmu_modifier_refused - whether @attr asks for a privilege or
 * virtualization filter (perf's :u, :k, :G modifiers, exclude_idle) that the
 * virtual PMU cannot apply: it counts every instruction of a marked
 * region, user and kernel mode alike (a syscall inside malloc's region
 * too), so such an event is refused there (EINVAL) rather than counted
 * unfiltered under a name that says otherwise.
 */
int ab_vpmu_modifier_refused(const struct perf_event_attr *attr);

/*
 * ab_vpmu_pmu - the calls the counters use: the kernel's perf_event_open
 * first, and only where it fails for an event the plugin counts, a virtual
 * event (an fd on the file). Read, ioctl and close go to the kernel for
 * every other fd.
 */
struct ab_pmu;
extern const struct ab_pmu ab_vpmu_pmu;

/*
 * Functions a profile keeps by name (the rest summed as "other"): more
 * than an op's paths run, so that a differential profile of two kernels
 * (`allocbench vm --profile`) finds every function by its name (with 48,
 * 6.1's kmalloc 4096 under init_on_alloc cut three that its profile
 * without zeroing named, and they read "b only"); the text report prints
 * AB_VPMU_PROF_SHOW of them.
 */
#define AB_VPMU_PROF_TOP  256
#define AB_VPMU_PROF_SHOW 8

/**
 * struct ab_vpmu_prof - a profile: where the instructions of the counting
 * pass went, by function, from the plugin's model (model=on)
 * @n:       functions in @fn, the most instructions first
 * @fn:      name (as /proc/kallsyms has it; "(user space)" below the
 *           kernel's text, "(unknown)" outside every symbol) and
 *           instructions, per op once ab_vpmu_prof_scale() ran
 * @total:   instructions in all, @other: those of the functions after
 *           @fn's
 * @dropped: addresses the plugin's table could not hold (their counts
 *           are missing)
 * @valid:   a profile was read
 */
struct ab_vpmu_prof {
	int n;
	struct {
		char name[64];
		double count;
	} fn[AB_VPMU_PROF_TOP];
	double total, other;
	uint64_t dropped;
	int valid;
};

/*
 * ab_vpmu_profile - has the plugin write out and clear the profile of the
 * calling thread's vCPU (the dump marker, common/ab_vpmu.h), reads it and
 * sums it by function: 0, or -1 when no profile came (no model, or not
 * pinned to one CPU). Call it before a counting pass (to clear) and after.
 */
int ab_vpmu_profile(struct ab_vpmu_prof *p);

/* ab_vpmu_prof_scale - every count of @p divided by @ops */
void ab_vpmu_prof_scale(struct ab_vpmu_prof *p, double ops);

/*
 * Path lengths a phase of struct ab_vpmu_paths keeps by name: the JSON
 * holds them all, so that `vm --paths` pools each boot's lengths over
 * more than the text shows
 */
#define AB_VPMU_PATHS 32

/**
 * struct ab_vpmu_len - a path length: @insns instructions in one op, run
 * by @ops ops
 */
struct ab_vpmu_len {
	uint64_t insns, ops;
};

/*
 * ab_vpmu_len_cmp - qsort()'s order of struct ab_vpmu_len that names the
 * fast path: the most ops first, of equal ops the shorter (run --paths
 * and vm --paths' pooled lengths alike)
 */
int ab_vpmu_len_cmp(const void *a, const void *b);

/**
 * struct ab_vpmu_paths - --paths: the path lengths of one op (issue 40,
 * "decomposition into paths"), from a pass whose every region is one op
 * (single timing: one allocation, or one free), per phase: each region's
 * instructions (interrupts taken out, as in every count) is one op's
 * path length, so a fast path's length shows apart from how often the
 * slow ones ran (a refill, a new slab), and a patch that changes a path's
 * length shows by it exactly, whatever the slab state did to the mix
 * @ph:          [0] the allocations (phase AB_VPMU_ALLOC), [1] the frees
 *               (AB_VPMU_FREE), of enum ab_vpmu_phase
 * @ph.ops:      regions counted: the ops that held no handler the plugin
 *               could not take out (irets 0)
 * @ph.left_out: regions that held one: not counted
 * @ph.distinct: the distinct lengths among @ph.ops
 * @ph.n:        lengths in @ph.len
 * @ph.len:      a length (instructions in one op) and the ops that ran
 *               it, the most ops first (of equal ops, the shorter): len[0]
 *               is the fast path
 * @ph.other_ops, @ph.other_insns: the ops of the lengths past @ph.len's
 *               and their instructions in all
 * @vcpu:        the vCPU whose regions count (the pinned CPU)
 * @skip:        the regions of each phase not counted, the first ones:
 *               the warm-up trials' (set between begin and end)
 * @pos:         where the pass's regions begin in the stream
 * @lost:        the stream's ring was written over before it was read
 * @intr:        the pass ended early (a signal): nothing counted
 * @valid:       the pass's regions were read
 */
struct ab_vpmu_paths {
	struct ab_vpmu_path_phase {
		uint64_t ops, left_out, other_ops, other_insns;
		uint32_t distinct, n;
		struct ab_vpmu_len len[AB_VPMU_PATHS];
	} ph[2];
	int vcpu;
	uint64_t skip, pos;
	int lost, intr, valid;
};

/*
 * AB_VPMU_PATHS_OPS - the most allocations a --paths pass runs, warm-up
 * included: two regions an op, a line of about 40 bytes each, fit the
 * plugin's ring (AB_VPMU_SHM_SIZE, 16 MiB) whole; a batch above it is
 * refused (the pass cuts trials, never the batch)
 */
#define AB_VPMU_PATHS_OPS 100000U

/*
 * ab_vpmu_paths_begin - before a --paths pass: where its regions will
 * begin; 0, or -1 when the plugin does not run here or the calling
 * thread is not pinned to one CPU (its vCPU's regions are the pass's).
 */
int ab_vpmu_paths_begin(struct ab_vpmu_paths *p);

/*
 * ab_vpmu_paths_end - after the pass: its regions into @p's phases; 0, or
 * -1 when they could not be read (out of memory, the ring written over:
 * @p->lost). Sets @p->valid on success.
 */
int ab_vpmu_paths_end(struct ab_vpmu_paths *p);

/*
 * ab_vpmu_path_lengths - @v[0..@n) (one op's instructions each, reordered
 * here) into @ph's lengths: the distinct values, counted, the most ops
 * first (of equal ops, the shorter); @ph->ops is @n. 0, or -1 when @n is 0.
 */
int ab_vpmu_path_lengths(uint64_t *v, size_t n, struct ab_vpmu_path_phase *ph);

/*
 * ab_vpmu_default_events - the events `reproduce` counts by itself where
 * the plugin runs: its exact four, and with its model branch-misses and
 * L1-dcache-load-misses too; NULL where it does not run
 */
const char *ab_vpmu_default_events(void);

/*
 * ab_vpmu_list - the virtual PMU's events for `allocbench list events`,
 * each marked "emulated, exact" or "emulated, model", and whether the
 * plugin runs here: those @keep(@glob, name) keeps, the PMU's line only
 * when it keeps one. Returns how many were listed.
 */
int ab_vpmu_list(FILE *f, int (*keep)(const char *glob, const char *name),
		 const char *glob);

/* ab_vpmu_fd_is_virtual - whether @fd is one of the virtual events */
int ab_vpmu_fd_is_virtual(int fd);

#endif
