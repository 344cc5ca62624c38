// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_counters.c - lib/counters.c against a fake PMU (struct ab_pmu):
 * the fake keeps, per event, the kernel's three numbers (count, time
 * enabled, time running, cumulative since open; PERF_EVENT_IOC_RESET
 * zeroes the count only, as kernel/events/core.c _perf_event_reset()
 * does) and refuses opens as the test asks. Each test feeds a sequence a
 * real PMU can produce and checks the scaled counts, the groups and the
 * notes against answers worked by hand. Encoding goes through the real
 * libpfm4, which needs no PMU.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sched.h>
#include <unistd.h>
#include <cmocka.h>

#include "counters.h"

#define FAKE_FDS    32
#define FAKE_BASE   100 /* fd of the first event opened */
#define FAKE_NOTYPE 0xffffffffu

struct fake_event {
	struct perf_event_attr attr;
	int group_fd, enabled, closed, unreadable;
	uint64_t count, ena, run;
};

/**
 * struct fake - the fake PMU
 * @hw_errno:    errno for every hardware event's open (0: they open)
 * @refuse_type, @refuse_config: an event the kernel will not put in a
 *               group (EINVAL when group_fd >= 0), as a PMU does for an
 *               event that cannot share the group's counters
 * @fail_type, @fail_config: an event that does not open at all
 *               (EOPNOTSUPP), as one the PMU lacks
 * @eintr:       opens still to fail with EINTR (a signal in
 *               perf_event_open()'s interruptible lock), one each
 * @resets, @enables, @disables: the ioctls seen
 */
struct fake {
	struct fake_event ev[FAKE_FDS];
	int n;
	int hw_errno;
	uint32_t refuse_type;
	uint64_t refuse_config;
	uint32_t fail_type;
	uint64_t fail_config;
	int eintr;
	int resets, enables, disables;
};

static struct fake_event *fd_event(struct fake *k, int fd)
{
	assert_true(fd >= FAKE_BASE && fd < FAKE_BASE + k->n);
	return &k->ev[fd - FAKE_BASE];
}

static int fake_open(void *ctx, struct perf_event_attr *attr, int group_fd)
{
	struct fake *k = ctx;
	int hw = attr->type == PERF_TYPE_HARDWARE ||
		 attr->type == PERF_TYPE_HW_CACHE ||
		 attr->type == PERF_TYPE_RAW;

	if (hw && k->hw_errno) {
		errno = k->hw_errno;
		return -1;
	}
	if (k->eintr > 0) {
		k->eintr--;
		errno = EINTR;
		return -1;
	}
	if (attr->type == k->fail_type && attr->config == k->fail_config) {
		errno = EOPNOTSUPP;
		return -1;
	}
	if (group_fd >= 0 && attr->type == k->refuse_type &&
	    attr->config == k->refuse_config) {
		errno = EINVAL;
		return -1;
	}
	assert_true(k->n < FAKE_FDS);
	memset(&k->ev[k->n], 0, sizeof(k->ev[k->n]));
	k->ev[k->n].attr = *attr;
	k->ev[k->n].group_fd = group_fd;
	return FAKE_BASE + k->n++;
}

static int fake_ioctl(void *ctx, int fd, unsigned long req)
{
	struct fake *k = ctx;
	struct fake_event *e = fd_event(k, fd);

	if (req == PERF_EVENT_IOC_RESET) {
		e->count = 0; /* the times stay */
		k->resets++;
	} else if (req == PERF_EVENT_IOC_ENABLE) {
		e->enabled = 1;
		k->enables++;
	} else if (req == PERF_EVENT_IOC_DISABLE) {
		e->enabled = 0;
		k->disables++;
	}
	return 0;
}

static long fake_read(void *ctx, int fd, void *buf, size_t len)
{
	struct fake_event *e = fd_event(ctx, fd);
	uint64_t v[3] = { e->count, e->ena, e->run };

	if (e->unreadable)
		return 0; /* an event in error state reads as end of file */
	assert_true(len >= sizeof(v));
	memcpy(buf, v, sizeof(v));
	return (long)sizeof(v);
}

static int fake_close(void *ctx, int fd)
{
	fd_event(ctx, fd)->closed = 1;
	return 0;
}

static struct fake fk;
static const struct ab_pmu fake_pmu = {
	.open = fake_open,
	.ioctl = fake_ioctl,
	.read = fake_read,
	.close = fake_close,
	.ctx = &fk,
};

/* What the run printed while opening. */
static char out[4096];

static int open_fake(struct ab_counters *c, const char *list)
{
	FILE *f = fmemopen(out, sizeof(out), "w");
	int n;

	assert_non_null(f);
	n = ab_counters_open_pmu(c, list, f, &fake_pmu);
	fclose(f);
	return n;
}

static int setup(void **state)
{
	memset(&fk, 0, sizeof(fk));
	fk.refuse_type = FAKE_NOTYPE;
	fk.fail_type = FAKE_NOTYPE;
	memset(out, 0, sizeof(out));
	return 0;
}

/* The fake event behind counter @i. */
static struct fake_event *fev(const struct ab_counters *c, int i)
{
	return fd_event(&fk, c->ev[i].fd);
}

/*
 * One interval: start, then the PMU adds @d[i] = { count, ns enabled, ns
 * running } to counter i (what the hardware did while the run ran), stop.
 */
static void interval(struct ab_counters *c, const uint64_t (*d)[3])
{
	int i;

	ab_counters_start(c);
	for (i = 0; i < c->n; i++) {
		fev(c, i)->count += d[i][0];
		fev(c, i)->ena += d[i][1];
		fev(c, i)->run += d[i][2];
	}
	ab_counters_stop(c);
}

static void test_scale(void **state)
{
	/* ran 1/4 of the time: 300 * 1000 / 250 = 1200 */
	assert_float_equal(ab_counter_scale(300, 1000, 250), 1200, 0);
	/* ran all of it, or (rounding) a little more: the count itself */
	assert_float_equal(ab_counter_scale(300, 1000, 1000), 300, 0);
	assert_float_equal(ab_counter_scale(300, 1000, 1001), 300, 0);
	/* ran, counted nothing: 0, not "never ran" */
	assert_float_equal(ab_counter_scale(0, 1000, 10), 0, 0);
	/* never ran, or never enabled: no count at all */
	assert_true(isnan(ab_counter_scale(0, 1000, 0)));
	assert_true(isnan(ab_counter_scale(0, 0, 0)));
}

/* One counter that ran the whole interval: its count, no note. */
static void test_full_interval(void **state)
{
	struct ab_counters c;
	const uint64_t d[][3] = { { 1000, 500, 500 } };
	char note[512];

	assert_int_equal(open_fake(&c, "cycles"), 1);
	interval(&c, d);
	assert_float_equal(c.ev[0].value, 1000, 0);
	assert_int_equal(c.ev[0].raw, 1000);
	assert_int_equal(c.ev[0].enabled, 500);
	assert_int_equal(c.ev[0].running, 500);
	assert_int_equal(ab_counters_note(&c, 0, note, sizeof(note)), 0);
	assert_string_equal(note, "");
	ab_counters_close(&c);
	assert_true(fk.ev[0].closed);
}

/* Multiplexed: 300 counted in 250 of 1000 ns is 1200, and said so. */
static void test_multiplexed(void **state)
{
	struct ab_counters c;
	const uint64_t d[][3] = { { 300, 1000, 250 } };
	char note[512];

	assert_int_equal(open_fake(&c, "cycles"), 1);
	interval(&c, d);
	assert_float_equal(c.ev[0].value, 1200, 0);
	assert_int_equal(ab_counters_note(&c, 0, note, sizeof(note)), 1);
	assert_non_null(strstr(note, "ran as little as 25% of the time"));
	assert_non_null(strstr(note, "1 of 1 interval (multiplexed)"));
	assert_non_null(strstr(note, "scaled by enabled/running"));
}

/*
 * The reset zeroes the count, not the times: a second interval's times
 * are its own. First interval whole (1000 in 1000 of 1000 ns), second
 * multiplexed (300 in 250 of 1000 ns): 1200. Times taken since open would
 * give 300 * 2000 / 1250 = 480.
 */
static void test_reset_keeps_times(void **state)
{
	struct ab_counters c;
	const uint64_t whole[][3] = { { 1000, 1000, 1000 } };
	const uint64_t mux[][3] = { { 300, 1000, 250 } };

	assert_int_equal(open_fake(&c, "cycles"), 1);
	interval(&c, whole);
	assert_float_equal(c.ev[0].value, 1000, 0);
	interval(&c, mux);
	assert_int_equal(c.ev[0].raw, 300);
	assert_int_equal(c.ev[0].enabled, 1000);
	assert_int_equal(c.ev[0].running, 250);
	assert_float_equal(c.ev[0].value, 1200, 0);
	/* and back to whole: 1000 again, the tallies kept */
	interval(&c, whole);
	assert_float_equal(c.ev[0].value, 1000, 0);
	assert_int_equal(c.ev[0].intervals, 3);
	assert_int_equal(c.ev[0].scaled, 1);
	assert_int_equal(c.ev[0].unrun, 0);
	/* each start reset every counter and enabled the leader only */
	assert_int_equal(fk.resets, 3);
	assert_int_equal(fk.enables, 3);
	assert_int_equal(fk.disables, 3);
}

/* Times that moved between intervals (a member of a disabled group). */
static void test_times_between_intervals(void **state)
{
	struct ab_counters c;
	const uint64_t d[][3] = { { 500, 1000, 1000 }, { 800, 1000, 500 } };

	assert_int_equal(open_fake(&c, "cycles,instructions"), 2);
	fev(&c, 1)->ena = 7000; /* enabled, not running, before the start */
	fev(&c, 1)->count = 42; /* and a count the reset clears */
	interval(&c, d);
	assert_float_equal(c.ev[0].value, 500, 0);
	/* 800 in 500 of 1000 ns: 1600 */
	assert_float_equal(c.ev[1].value, 1600, 0);
}

/* An event that never ran: no count, and a note that says so. */
static void test_never_ran(void **state)
{
	struct ab_counters c;
	const uint64_t d[][3] = { { 0, 1000, 0 } };
	char note[512];

	assert_int_equal(open_fake(&c, "cycles"), 1);
	interval(&c, d);
	assert_true(isnan(c.ev[0].value));
	assert_int_equal(ab_counters_note(&c, 0, note, sizeof(note)), 1);
	assert_non_null(strstr(note, "counter cycles never ran"));
	assert_null(strstr(note, "multiplexed"));
	assert_null(strstr(note, "scaled by"));
}

/*
 * A software event's time_running of 0 (seen in loaded TCG guests) is no
 * "never ran": the kernel's software context never leaves one out, so its
 * count stands (a kmalloc 64 --explain figure read null before), while a
 * hardware event beside it with the same times has no count.
 */
static void test_software_never_multiplexed(void **state)
{
	struct ab_counters c;
	const uint64_t d[][3] = { { 7, 0, 0 }, { 0, 0, 0 }, { 9, 1000, 0 } };
	char note[512];

	assert_int_equal(open_fake(&c, "task-clock,page-faults,cycles"), 3);
	interval(&c, d);
	assert_float_equal(c.ev[0].value, 7, 0);
	assert_float_equal(c.ev[1].value, 0, 0);
	assert_int_equal(c.ev[0].unrun + c.ev[1].unrun, 0);
	assert_int_equal(ab_counters_note(&c, 0, note, sizeof(note)), 0);
	assert_true(isnan(c.ev[2].value));
	assert_int_equal(c.ev[2].unrun, 1);
}

/* Never ran in one interval of two: only those lack a count. */
static void test_never_ran_once(void **state)
{
	struct ab_counters c;
	const uint64_t none[][3] = { { 0, 1000, 0 } };
	const uint64_t half[][3] = { { 400, 1000, 500 } };
	char note[512];

	assert_int_equal(open_fake(&c, "cycles"), 1);
	interval(&c, none);
	assert_true(isnan(c.ev[0].value));
	interval(&c, half);
	assert_float_equal(c.ev[0].value, 800, 0);
	assert_int_equal(ab_counters_note(&c, 0, note, sizeof(note)), 1);
	assert_non_null(strstr(note, "never ran in 1 of 2 intervals"));
	assert_non_null(strstr(note, "50% of the time in 1 of 2"));
}

/*
 * An interval that never ran, measured again (the runner's counting pass,
 * job/runner.c): it is named, then taken out of the tallies, and the note
 * says nothing of it
 */
static void test_forget_unrun(void **state)
{
	struct ab_counters c;
	const uint64_t none[][3] = { { 0, 1000, 0 } };
	const uint64_t full[][3] = { { 400, 1000, 1000 } };
	char note[512];

	assert_int_equal(open_fake(&c, "cycles"), 1);
	interval(&c, none);
	assert_int_equal(ab_counters_unrun_last(&c), 1);
	ab_counters_forget_last(&c);
	assert_int_equal(c.ev[0].intervals, 0);
	assert_int_equal(c.ev[0].unrun, 0);
	interval(&c, full);
	assert_int_equal(ab_counters_unrun_last(&c), 0);
	assert_float_equal(c.ev[0].value, 400, 0);
	assert_int_equal(c.ev[0].intervals, 1);
	assert_int_equal(ab_counters_note(&c, 0, note, sizeof(note)), 0);
}

/*
 * A hardware group that never gets its counters (more events than
 * counters, the NMI watchdog holding one): all its members have no count,
 * the group is named once, and the software events, in a group of their
 * own, count as usual.
 */
static void test_group_never_ran(void **state)
{
	struct ab_counters c;
	const uint64_t d[][3] = { { 0, 1000, 0 },
				  { 0, 1000, 0 },
				  { 0, 1000, 0 },
				  { 1000, 1000, 1000 },
				  { 3, 1000, 1000 } };
	char note[1024];

	assert_int_equal(
		open_fake(
			&c,
			"cycles,instructions,branch-misses,task-clock,page-faults"),
		5);
	/* two groups: hardware led by cycles, software by task-clock */
	assert_int_equal(c.hw_leader, 0);
	assert_int_equal(c.sw_leader, 3);
	assert_int_equal(fev(&c, 0)->group_fd, -1);
	assert_int_equal(fev(&c, 1)->group_fd, c.ev[0].fd);
	assert_int_equal(fev(&c, 2)->group_fd, c.ev[0].fd);
	assert_int_equal(fev(&c, 3)->group_fd, -1);
	assert_int_equal(fev(&c, 4)->group_fd, c.ev[3].fd);
	interval(&c, d);
	assert_true(isnan(c.ev[0].value));
	assert_true(isnan(c.ev[1].value));
	assert_true(isnan(c.ev[2].value));
	assert_float_equal(c.ev[3].value, 1000, 0);
	assert_float_equal(c.ev[4].value, 3, 0);
	/* two leaders enabled, nobody else */
	assert_int_equal(fk.enables, 2);
	assert_int_equal(ab_counters_note(&c, 0, note, sizeof(note)), 1);
	assert_non_null(strstr(
		note,
		"counter group {cycles, instructions, branch-misses} never ran (time_running 0)"));
	assert_non_null(strstr(note, "NMI watchdog"));
	assert_int_equal(ab_counters_note(&c, 1, note, sizeof(note)), 1);
	assert_non_null(strstr(note, "with its group led by cycles"));
	assert_int_equal(ab_counters_note(&c, 3, note, sizeof(note)), 0);
	assert_int_equal(ab_counters_note(&c, 4, note, sizeof(note)), 0);
	/*
	 * re-split: the three now count on their own, so the next interval
	 * multiplexes them (half the time each: scaled x2); the software
	 * group is as it was
	 */
	assert_int_equal(c.resplit, 1);
	assert_int_equal(c.hw_leader, -1);
	assert_int_equal(fev(&c, 0)->group_fd, -1);
	assert_int_equal(fev(&c, 1)->group_fd, -1);
	assert_int_equal(fev(&c, 2)->group_fd, -1);
	assert_int_equal(fev(&c, 4)->group_fd, c.ev[3].fd);
	{
		const uint64_t d2[][3] = { { 500, 1000, 500 },
					   { 900, 1000, 500 },
					   { 7, 1000, 500 },
					   { 1000, 1000, 1000 },
					   { 2, 1000, 1000 } };

		interval(&c, d2);
		assert_float_equal(c.ev[0].value, 1000, 0);
		assert_float_equal(c.ev[1].value, 1800, 0);
		assert_float_equal(c.ev[2].value, 14, 0);
		assert_float_equal(c.ev[4].value, 2, 0);
	}
	assert_int_equal(c.resplit, 1);
}

/*
 * An event the group refuses counts alone, and says so; then cycles and
 * instructions are not in one group and IPC is not theirs to give.
 */
static void test_falls_out_of_group(void **state)
{
	struct ab_counters c;
	int cyc, ins;

	fk.refuse_type = PERF_TYPE_HARDWARE;
	fk.refuse_config = PERF_COUNT_HW_INSTRUCTIONS;
	assert_int_equal(open_fake(&c, "cycles,instructions,branch-misses"), 3);
	assert_non_null(strstr(
		out,
		"counter instructions: the kernel would not add it to the group of cycles"));
	assert_non_null(strstr(out, "counts on its own"));
	assert_int_equal(c.ev[1].group, -1);
	assert_int_equal(fev(&c, 1)->group_fd, -1);
	assert_true(fev(&c, 1)->attr.disabled); /* enabled by itself */
	assert_int_equal(c.ev[2].group, 0);
	assert_int_equal(ab_counters_ipc(&c, &cyc, &ins), -1);
	ab_counters_start(&c);
	assert_int_equal(fk.enables, 2); /* cycles' group, instructions */
}

static void test_ipc_pairs(void **state)
{
	struct ab_counters c;
	int cyc, ins;

	/* in one group, found by type and config whatever the spelling */
	assert_int_equal(open_fake(&c, "task-clock,cpu-cycles,instructions"),
			 3);
	assert_int_equal(ab_counters_ipc(&c, &cyc, &ins), 1);
	assert_int_equal(cyc, 1);
	assert_int_equal(ins, 2);
	setup(state);
	/* user-mode cycles against all instructions: not a ratio */
	assert_int_equal(open_fake(&c, "cycles:u,instructions"), 2);
	assert_int_equal(ab_counters_ipc(&c, &cyc, &ins), -1);
	setup(state);
	assert_int_equal(open_fake(&c, "cycles,task-clock"), 2);
	assert_int_equal(ab_counters_ipc(&c, &cyc, &ins), 0);
}

/* Identity by type and config, not by the name's letters. */
static void test_find(void **state)
{
	struct ab_counters c;

	assert_int_equal(open_fake(&c, "cycles:u,perf::INSTRUCTIONS,faults"),
			 3);
	assert_int_equal(ab_counters_find(&c, "cycles"), 0);
	assert_int_equal(ab_counters_find(&c, "cpu-cycles"), 0);
	assert_int_equal(ab_counters_find(&c, "instructions"), 1);
	assert_int_equal(ab_counters_find(&c, "page-faults"), 2);
	assert_int_equal(ab_counters_find(&c, "cache-misses"), -1);
	assert_int_equal(ab_counters_find(&c, "no-such-event"), -1);
	setup(state);
	/* a prefix is not the event: cycles is not cycles-ct or the like */
	assert_int_equal(open_fake(&c, "instructions"), 1);
	assert_int_equal(ab_counters_find(&c, "cycles"), -1);
}

/*
 * An event named twice in other spellings (cycles, cpu-cycles) is one
 * count, shown once; cycles:u is another count (user mode only).
 */
static void test_twin_counted_once(void **state)
{
	struct ab_counters c;

	assert_int_equal(open_fake(&c, "cycles,cpu-cycles,task-clock,cycles:u"),
			 3);
	assert_string_equal(c.ev[0].name, "cycles");
	assert_string_equal(c.ev[1].name, "task-clock");
	assert_string_equal(c.ev[2].name, "cycles:u");
}

/* cycles:u on the kernel backend misses the allocator's work. */
static void test_warn_kernel(void **state)
{
	struct ab_counters c;
	char buf[1024] = "";
	FILE *f = fmemopen(buf, sizeof(buf), "w");

	assert_int_equal(open_fake(&c, "cycles:u,instructions,cycles:k"), 3);
	assert_int_equal(ab_counters_warn_kernel(&c, f), 1);
	fclose(f);
	assert_non_null(
		strstr(buf, "warning: counter cycles:u excludes kernel mode"));
	assert_null(strstr(buf, "instructions"));
}

/* No PMU: the default set keeps the software events, one line for the rest. */
static void test_no_pmu(void **state)
{
	struct ab_counters c;

	fk.hw_errno = ENOENT;
	assert_int_equal(open_fake(&c, "default"), 4);
	assert_non_null(strstr(
		out, "counter cycles: hardware counters are unavailable here"));
	assert_int_equal(c.hw_leader, -1);
	assert_int_equal(c.sw_leader, 0);
	assert_string_equal(c.ev[0].name, "task-clock");
}

/*
 * The default set where the PMU lacks one event (branch-misses): the
 * others count, and that one is named with its reason (it used to be
 * silent whenever any hardware event opened).
 */
static void test_default_partial(void **state)
{
	struct ab_counters c;

	fk.fail_type = PERF_TYPE_HARDWARE;
	fk.fail_config = PERF_COUNT_HW_BRANCH_MISSES;
	assert_int_equal(open_fake(&c, "default"), 8);
	assert_non_null(strstr(out, "counter branch-misses:"));
	assert_null(strstr(out, "counter cycles:"));
	assert_true(c.hw_leader >= 0);
}

/* A fake sysfs with two core PMUs: cpu_core (type 8) on CPU 0, cpu_atom
 * (type 10) on CPU 1, as a hybrid Intel CPU has them. */
static char hybrid_root[64];

static void write_file(const char *dir, const char *pmu, const char *file,
		       const char *text)
{
	char path[256], cmd[320];
	FILE *fp;

	snprintf(path, sizeof(path), "%s/bus/event_source/devices/%s", dir,
		 pmu);
	snprintf(cmd, sizeof(cmd), "mkdir -p '%s'", path);
	assert_int_equal(system(cmd), 0);
	snprintf(path + strlen(path), sizeof(path) - strlen(path), "/%s", file);
	fp = fopen(path, "w");
	assert_non_null(fp);
	fputs(text, fp);
	fclose(fp);
}

static void pin_to(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	assert_int_equal(sched_setaffinity(0, sizeof(set), &set), 0);
}

/*
 * Hybrid CPUs: a hardware event carries the pinned CPU's core PMU type in
 * config's top 32 bits; an unpinned thread gets one line, no event;
 * software events are untouched.
 */
static void test_hybrid(void **state)
{
	struct ab_event e;
	cpu_set_t all;
	char err[512] = "";
	FILE *f = fmemopen(err, sizeof(err), "w");

	if (sysconf(_SC_NPROCESSORS_ONLN) < 2)
		skip();
	snprintf(hybrid_root, sizeof(hybrid_root), "/tmp/ab-sysfs-%d",
		 (int)getpid());
	write_file(hybrid_root, "cpu_core", "cpus", "0\n");
	write_file(hybrid_root, "cpu_core", "type", "8\n");
	write_file(hybrid_root, "cpu_atom", "cpus", "1\n");
	write_file(hybrid_root, "cpu_atom", "type", "10\n");
	assert_int_equal(sched_getaffinity(0, sizeof(all), &all), 0);
	ab_counters_sysfs = hybrid_root;
	pin_to(0);
	assert_int_equal(ab_counter_encode(&e, "cycles", f), 0);
	assert_int_equal(e.attr.config >> 32, 8);
	pin_to(1);
	assert_int_equal(ab_counter_encode(&e, "cycles", f), 0);
	assert_int_equal(e.attr.config >> 32, 10);
	assert_int_equal(ab_counter_encode(&e, "task-clock", f), 0);
	assert_int_equal(e.attr.config >> 32, 0);
	assert_int_equal(sched_setaffinity(0, sizeof(all), &all), 0);
	assert_int_equal(ab_counter_encode(&e, "cycles", f), -1);
	fclose(f);
	assert_non_null(strstr(err, "pin the run to one CPU"));
	ab_counters_sysfs = "/sys";
	{
		char cmd[128];

		snprintf(cmd, sizeof(cmd), "rm -rf '%s'", hybrid_root);
		assert_int_equal(system(cmd), 0);
	}
}

/*
 * Suspended between counting passes: every fd closed (a kprobe is armed
 * while its fd is open, so the timed pass must run with none), and on
 * resume the same events in the same groups, counting as before.
 */
static void test_suspend_resume(void **state)
{
	struct ab_counters c;
	const uint64_t d[][3] = { { 100, 1000, 1000 },
				  { 300, 1000, 1000 },
				  { 1000, 1000, 1000 } };
	int i, old[3];

	assert_int_equal(open_fake(&c, "cycles,instructions,task-clock"), 3);
	for (i = 0; i < 3; i++)
		old[i] = c.ev[i].fd;
	ab_counters_suspend(&c);
	for (i = 0; i < 3; i++) {
		assert_int_equal(c.ev[i].fd, -1);
		assert_true(fd_event(&fk, old[i])->closed);
	}
	assert_int_equal(c.n, 3);
	ab_counters_resume(&c);
	for (i = 0; i < 3; i++)
		assert_true(c.ev[i].fd >= 0 && c.ev[i].fd != old[i]);
	assert_int_equal(fev(&c, 0)->group_fd, -1);
	assert_int_equal(fev(&c, 1)->group_fd, c.ev[0].fd);
	assert_int_equal(fev(&c, 2)->group_fd, -1);
	interval(&c, d);
	assert_float_equal(c.ev[0].value, 100, 0);
	assert_float_equal(c.ev[1].value, 300, 0);
	assert_float_equal(c.ev[2].value, 1000, 0);
}

/*
 * An event opened again for a counting pass: a passing failure (EINTR)
 * is tried again, and one that stays has no count and a note naming
 * the errno (the kvmalloc_node --explain of a CI run printed "nothing
 * counted" with no word of why).
 */
static void test_reopen_fails(void **state)
{
	struct ab_counters c;
	char note[512];

	assert_int_equal(open_fake(&c, "task-clock,page-faults"), 2);
	ab_counters_suspend(&c);
	fk.eintr = 2;
	ab_counters_resume(&c);
	assert_true(c.ev[0].fd >= 0 && c.ev[1].fd >= 0);
	assert_int_equal(c.ev[0].reopen_err, 0);
	ab_counters_suspend(&c);
	fk.fail_type = PERF_TYPE_SOFTWARE;
	fk.fail_config = PERF_COUNT_SW_PAGE_FAULTS;
	ab_counters_resume(&c);
	assert_true(c.ev[0].fd >= 0);
	assert_int_equal(c.ev[1].fd, -1);
	assert_int_equal(c.ev[1].reopen_err, EOPNOTSUPP);
	ab_counters_start(&c);
	fev(&c, 0)->count += 10;
	fev(&c, 0)->ena += 1000;
	fev(&c, 0)->run += 1000;
	ab_counters_stop(&c);
	assert_float_equal(c.ev[0].value, 10, 0);
	assert_true(isnan(c.ev[1].value));
	assert_int_equal(ab_counters_note(&c, 1, note, sizeof(note)), 1);
	assert_non_null(strstr(note, "could not be opened again"));
	assert_non_null(strstr(note, strerror(EOPNOTSUPP)));
}

/* A read that fails (an event in error state): no count, said so. */
static void test_unreadable(void **state)
{
	struct ab_counters c;
	const uint64_t d[][3] = { { 10, 1000, 1000 }, { 5, 1000, 1000 } };
	char note[512];

	assert_int_equal(open_fake(&c, "task-clock,page-faults"), 2);
	fev(&c, 1)->unreadable = 1;
	interval(&c, d);
	assert_float_equal(c.ev[0].value, 10, 0);
	assert_true(isnan(c.ev[1].value));
	assert_int_equal(ab_counters_note(&c, 1, note, sizeof(note)), 1);
	assert_non_null(strstr(note, "could not be read in 1 of 1"));
}

/* Modifiers: :h honoured; sampling and cpu= refused with one line. */
static void test_modifiers(void **state)
{
	static const char *const refused[][2] = {
		{ "cycles:period=1000", "period=" },
		{ "cycles:freq=100", "freq=" },
		{ "cycles:precise=1", "precise=" },
		{ "cycles:cpu=0", "cpu=" },
	};
	struct ab_event e;
	char buf[512];
	FILE *null = fopen("/dev/null", "w");
	size_t i;

	/*
	 * libpfm4 offers its perf PMU's h modifier only where the kernel
	 * has a cpu PMU (/sys/bus/event_source/devices/cpu); a Firecracker
	 * microVM, seen here, has none and refuses cycles:h (and leaves
	 * exclude_hv clear): then only the refusals below are ours to test
	 */
	assert_non_null(null);
	if (ab_counter_encode(&e, "cycles:h", null) == 0) {
		assert_int_equal(e.attr.exclude_hv, 0);
		assert_int_equal(e.attr.exclude_user, 1);
		assert_int_equal(e.attr.exclude_kernel, 1);
		assert_int_equal(ab_counter_encode(&e, "cycles", stderr), 0);
		assert_int_equal(e.attr.exclude_hv, 1);
	}
	assert_int_equal(ab_counter_encode(&e, "cycles", stderr), 0);
	/* libpfm4 saw the size of the whole structure */
	assert_int_equal(e.attr.size, sizeof(e.attr));
	fclose(null);
	for (i = 0; i < sizeof(refused) / sizeof(refused[0]); i++) {
		FILE *f = fmemopen(buf, sizeof(buf), "w");
		char want[64];

		memset(buf, 0, sizeof(buf));
		assert_int_equal(ab_counter_encode(&e, refused[i][0], f), -1);
		fclose(f);
		snprintf(want, sizeof(want),
			 "the modifier %s is not for counting", refused[i][1]);
		assert_non_null(strstr(buf, want));
		/* one line */
		assert_true(strchr(buf, '\n') == buf + strlen(buf) - 1);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_scale),
		cmocka_unit_test_setup(test_full_interval, setup),
		cmocka_unit_test_setup(test_multiplexed, setup),
		cmocka_unit_test_setup(test_reset_keeps_times, setup),
		cmocka_unit_test_setup(test_times_between_intervals, setup),
		cmocka_unit_test_setup(test_never_ran, setup),
		cmocka_unit_test_setup(test_never_ran_once, setup),
		cmocka_unit_test_setup(test_forget_unrun, setup),
		cmocka_unit_test_setup(test_software_never_multiplexed, setup),
		cmocka_unit_test_setup(test_group_never_ran, setup),
		cmocka_unit_test_setup(test_falls_out_of_group, setup),
		cmocka_unit_test_setup(test_ipc_pairs, setup),
		cmocka_unit_test_setup(test_find, setup),
		cmocka_unit_test_setup(test_twin_counted_once, setup),
		cmocka_unit_test_setup(test_warn_kernel, setup),
		cmocka_unit_test_setup(test_no_pmu, setup),
		cmocka_unit_test_setup(test_default_partial, setup),
		cmocka_unit_test_setup(test_suspend_resume, setup),
		cmocka_unit_test(test_hybrid),
		cmocka_unit_test_setup(test_reopen_fails, setup),
		cmocka_unit_test_setup(test_unreadable, setup),
		cmocka_unit_test_setup(test_modifiers, setup),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
