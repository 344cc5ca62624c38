/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * ioctl_suite.h - the raw-ioctl suite's shared state and helpers
 * (ioctl_suite.c), and the tests each of its files holds, for the list in
 * ioctl_test.c. Every helper that checks something fails the running
 * cmocka test; none is called outside one but setup_all().
 */
#ifndef IOCTL_SUITE_H
#define IOCTL_SUITE_H

#include <stddef.h>
#include <stdint.h>
#include <linux/allocbench.h>

struct CMUnitTest;

/*
 * Untimed node-check trials of a run of @t measured trials: one before
 * every 16 measured ones (AB_CHECK_EVERY, common/ab_trial.h).
 */
#define CHECK_TRIALS(t) (((uint64_t)(t) + 15) / 16)

/* ---- ioctl_suite.c ---- */

/* The device the tests call (a test may swap in another descriptor). */
extern int fd;
/* The module's AB_IOC_INFO and its strategies, read by setup_all(). */
extern struct ab_info info;
extern struct ab_strategy_info strat[64];

/* ioctl(fd, @cmd, @arg): 0 or the errno. */
int xioctl(unsigned long cmd, void *arg);
/* The strategy @name; fails the test when the module has none. */
const struct ab_strategy_info *find(const char *name);
/* ab_info.outstanding now; fails the test when AB_IOC_INFO does. */
uint64_t outstanding(void);
/* cmocka group setup: opens the device and fills info and strat. */
int setup_all(void **state);
/* A valid request for @name with the smallest sizes, no samples. */
struct ab_run req(const char *name);
/*
 * Runs @r with samples and checks what every run keeps (ioctl_suite.c);
 * @want_cycles: each sample's phases took cycles.
 */
void run_ok(struct ab_run *r, int want_cycles);
/* Whether uname -v says PREEMPT_RT. */
int kernel_is_rt(void);
/* Pins the calling thread to CPU @cpu; fails the test when it cannot. */
void pin(int cpu);
/*
 * Writes @value (MiB) to max_outstanding_mb: 0 or the errno of the write;
 * fails the test when the parameter does not open.
 */
int set_param(const char *value);
/* The machine's RAM, in MiB. */
uint64_t ram_mb(void);

/* ---- ioctl_info.c: AB_IOC_INFO ---- */
void test_info_reports(void **state);
void test_info_strategy_flags(void **state);
void test_info_count_only(void **state);
void test_info_kernel_flags(void **state);
void test_info_ver0(void **state);
void test_info_tail(void **state);
void test_info_bad_pointer(void **state);
void test_unknown_command(void **state);

/* ---- ioctl_reject.c: each field's refusal ---- */
/*
 * Appends a test per rejection of its tables (AB_IOC_INFO's, then
 * AB_IOC_RUN's), each named by what it sets, to @tests, which holds @n of
 * @max: the new count, or 0 when @max is too few.
 */
size_t reject_tests(struct CMUnitTest *tests, size_t n, size_t max);
void test_run_reject_params(void **state);

/* ---- ioctl_runs.c: runs of every strategy, nodes, counters ---- */
void test_every_strategy_every_size(void **state);
void test_warmup_not_recorded(void **state);
void test_every_gfp(void **state);
void test_disturbed_counted(void **state);
void test_node_hits(void **state);
void test_memory_per_object(void **state);
void test_task_clock_matches_wall_time(void **state);

/* ---- ioctl_caches.c: the private kmem_caches ---- */
void test_cache_merge_report(void **state);
void test_cache_kept_for_its_geometry(void **state);
void test_cache_sheaves(void **state);
void test_rcu_and_nolock(void **state);
void test_cache_merged_during_run(void **state);
void test_caches_created_and_destroyed_at_once(void **state);

/* ---- ioctl_modes.c: timings, free patterns, contexts, remote frees ---- */
void test_every_mode_and_pattern(void **state);
void test_write_every_strategy(void **state);
void test_atomic_contexts(void **state);
void test_rt_refuses_atomic_contexts(void **state);
void test_atomic_context_rejects(void **state);
void test_bulk(void **state);
void test_single_timing_layout(void **state);
void test_remote_free(void **state);

/* ---- ioctl_lookup.c: size-class lookups ---- */
void test_lookup_methods_agree(void **state);
void test_lookup_rejects(void **state);
void test_kmalloc_class(void **state);

/* ---- ioctl_limits.c: the budget, the phase, atomic and IRQ-off caps ---- */
void test_param_capped_at_ram(void **state);
void test_phase_cap(void **state);
void test_budget_busy_names_it(void **state);
void test_atomic_gfp_capped(void **state);
void test_irq_off_bounded(void **state);
void test_budget_counts_real_footprint(void **state);
void test_budget_one_rule(void **state);
void test_never_allocates_refused(void **state);
void test_cma_area_cap(void **state);

/* ---- ioctl_failures.c: failed allocations, permissions, signals ---- */
void test_failed_allocations_end_trials(void **state);
void test_non_root_refused(void **state);
void test_run_needs_cap_sys_admin(void **state);
void test_sigint_default(void **state);
void test_sigint_caught(void **state);

/* ---- ioctl_condition.c: AB_IOC_CONDITION ---- */
void test_condition_rejects(void **state);
void test_condition_lifecycle(void **state);
void test_condition_fragmented(void **state);
void test_condition_each_trial(void **state);

#endif /* IOCTL_SUITE_H */
