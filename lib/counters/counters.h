/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * counters.h - hardware and software event counts around a run, through
 * libpfm4 (event names to perf_event_attr) and perf_event_open(2).
 *
 * Events are opened on the calling thread (pid 0, any CPU), counting user
 * and kernel mode unless an event says :u or :k, disabled until started.
 * Besides libpfm4's names, perf's spelling of software-defined probes:
 * kprobe:FUNC (a kprobe on FUNC's entry, through the kprobe PMU) and
 * SUBSYS:EVENT (a tracepoint, by its tracefs id), counted like the others
 * on the calling thread; they need no PMU.
 * Hardware events form one group and the others (software, kprobes,
 * tracepoints) a second, so the hardware events count over the same
 * intervals and a hardware group that never gets its counters cannot take
 * the software events with it. An event a group refuses counts on its own,
 * with one line saying so. Each is read with PERF_FORMAT_TOTAL_TIME_ENABLED
 * and _RUNNING; PERF_EVENT_IOC_RESET zeroes the count but not those times
 * (kernel/events/core.c, _perf_event_reset()), so an interval's times are
 * the difference of a read at start and one at stop, as perf stat takes
 * them (tools/perf/util/evsel.c, evsel__compute_deltas()), and the count is
 * scaled by enabled / running when the kernel multiplexed it (perf's own
 * estimate, tools/lib/perf/evsel.c, perf_counts_values__scale()). A
 * failure is one explanatory line and the event is left out; nothing
 * aborts the run, and nothing is printed while counting.
 *
 * Three files, as perf keeps them apart: lib/evparse.c encodes a name
 * (evparse.h), lib/counters.c opens and reads the events (this header),
 * lib/evnotes.c says what went wrong or what the intervals show
 * (evnotes.h). This header includes the other two, so its includers see
 * the whole API.
 */
#ifndef AB_COUNTERS_H
#define AB_COUNTERS_H

#include <stdint.h>
#include <stdio.h>
#include <perfmon/pfmlib_perf_event.h>

#include "evnotes.h"
#include "evparse.h"

#define AB_MAX_EVENTS	  48
#define AB_MAX_EVENTS_STR "48"

/* The hardware events used by --events with no list, when a PMU opens. */
#define AB_DEFAULT_HW_EVENTS \
	"cycles,instructions,branch-misses,cache-misses,dTLB-load-misses"
/* The software events, which need no PMU (root, or perf_event_paranoid). */
#define AB_DEFAULT_SW_EVENTS \
	"task-clock,page-faults,context-switches,cpu-migrations"

/* What encoded an event (struct ab_event.kind). */
enum ab_event_kind {
	AB_EVENT_PFM = 0,	 /* libpfm4: hardware, software, PMU::event */
	AB_EVENT_KPROBE = 1,	 /* kprobe:FUNC, the kprobe PMU */
	AB_EVENT_TRACEPOINT = 2, /* SUBSYS:EVENT, PERF_TYPE_TRACEPOINT */
	AB_EVENT_DYNPROBE = 3,	 /* a filtered kprobe (lib/dynprobe.h) */
};

/**
 * struct ab_pmu - the perf_event system calls, replaceable by a fake PMU in
 * tests (NULL in ab_counters_open_pmu(): the kernel's own)
 * @open:  perf_event_open(@attr, pid 0, cpu -1, @group_fd, 0): an fd, or -1
 *         with errno set
 * @ioctl: ioctl(@fd, @req, 0) for PERF_EVENT_IOC_RESET, _ENABLE, _DISABLE
 * @read:  read(@fd, @buf, @len): the bytes read, -1 with errno
 * @close: close(@fd)
 * @ctx:   passed to each
 */
struct ab_pmu {
	int (*open)(void *ctx, struct perf_event_attr *attr, int group_fd);
	int (*ioctl)(void *ctx, int fd, unsigned long req);
	long (*read)(void *ctx, int fd, void *buf, size_t len);
	int (*close)(void *ctx, int fd);
	void *ctx;
};

/**
 * struct ab_event - one counter
 * @name:    as asked for ("cycles", "cycles:u", a PMU-qualified name,
 *           "kprobe:___slab_alloc", "kmem:mm_page_alloc")
 * @kind:    enum ab_event_kind
 * @fstr:    libpfm4's full name of the encoding
 * @attr:    the perf_event_attr libpfm4 built
 * @fd:      perf_event_open() file descriptor, -1 if not open
 * @was_group: @group as opened, kept when a re-split (resplit() in
 *           counters.c) moves the event out of a group that never ran,
 *           for the notes about that group
 * @group:   index in struct ab_counters.ev of its group's leader (itself
 *           for a leader), -1 when it counts on its own
 * @base:    count, time enabled and time running (ns) read at start
 * @raw:     count of the last interval
 * @enabled, @running: ns the event was enabled and actually counting in
 *           the last interval (the read at stop minus @base)
 * @value:   @raw scaled by @enabled / @running (the estimate when
 *           multiplexed); NAN when it never ran or could not be read
 * @intervals: intervals read since the event opened (start/stop pairs)
 * @unrun:   of those, intervals it was enabled but never ran (running 0)
 * @scaled:  of those, intervals it ran only part of (0 < running < enabled)
 * @unread:  of those, intervals it could not be read
 * @reopen_err: errno of the last failed reopen by
 *           ab_counters_resume_some() (its intervals are @unread), 0
 * @min_share: the smallest running / enabled of the @scaled intervals
 * @virt:    opened on the virtual PMU (lib/vpmu.h): "enabled" and
 *           "running" are then timed regions closed and regions holding
 *           no handler, the count covers the timed regions only, and the
 *           read value is already the estimate (scaled phase by phase),
 *           not scaled again
 * @parked:  left closed by ab_counters_resume_some(): no interval until
 *           the next suspend, its last value kept
 * @last:    how the last interval went: 0 read in full, 'u' unread, 'n'
 *           never ran, 's' scaled (ab_counters_forget_last())
 */
struct ab_event {
	char name[128];
	int kind;
	char fstr[192];
	struct perf_event_attr attr;
	int fd;
	int group;
	int was_group;
	uint64_t base[3];
	uint64_t raw, enabled, running;
	double value;
	unsigned int intervals, unrun, scaled, unread;
	int reopen_err;
	double min_share;
	int virt;
	int parked;
	int last;
};

/**
 * struct ab_counters - the open events
 * @ev, @n:    the events that opened, in the order asked for
 * @hw_leader: index of the hardware group's leader, -1 if none
 * @sw_leader: index of the other group's leader (software, kprobes,
 *             tracepoints), -1 if none
 * @pmu:       the system calls (NULL: the kernel's)
 * @resplit:   times a hardware group that never ran was split into events
 *             of their own (ab_counters_stop())
 * @suspended: ab_counters_suspend() closed the events (kept: names,
 *             encodings, groups and tallies)
 */
struct ab_counters {
	struct ab_event ev[AB_MAX_EVENTS];
	int n;
	int hw_leader, sw_leader;
	int resplit;
	int suspended;
	const struct ab_pmu *pmu;
};

/*
 * ab_counters_open - open the events of the comma-separated @list; with
 * @list "default", the hardware default set if the PMU opens (one line
 * saying why not otherwise) plus the software set. One line on @f for each
 * event that fails, saying why and what to do. Returns the number open.
 */
int ab_counters_open(struct ab_counters *c, const char *list, FILE *f);

/*
 * ab_counters_open_pmu - ab_counters_open() through @pmu's system calls
 * (a fake PMU in tests; NULL: the kernel's).
 */
int ab_counters_open_pmu(struct ab_counters *c, const char *list, FILE *f,
			 const struct ab_pmu *pmu);

/*
 * ab_counters_virtual - how many of @c's events are open on the virtual
 * PMU (lib/vpmu.h): a run that counts with them must ask the module for
 * its markers (AB_RUN_VPMU), and their counts cover its timed regions.
 */
int ab_counters_virtual(const struct ab_counters *c);

/*
 * ab_counter_source - what counts @e: "kernel" (perf_event_open: a
 * hardware PMU, software events, kprobes, tracepoints), "virtual-exact"
 * or "virtual-model" (the virtual PMU's exact counts or its model)
 */
const char *ab_counter_source(const struct ab_event *e);

/*
 * ab_counters_named - index of the open event asked for as @name, spelled
 * exactly so (the events --explain added itself), or -1 when it did not
 * open. Unlike ab_counters_find() it encodes nothing.
 */
int ab_counters_named(const struct ab_counters *c, const char *name);

/*
 * ab_counters_find - index of the open event that counts what @name
 * encodes (same type and config, whatever the spelling or modifiers:
 * "cpu-cycles" finds "cycles:u"; kprobes and tracepoints by name), or -1.
 */
int ab_counters_find(const struct ab_counters *c, const char *name);

/*
 * ab_counters_ipc - *@cyc and *@ins, the indices of CPU cycles and
 * instructions counted in one group with the same privilege levels: 1.
 * 0 when either is not open; -1 when both are but not in one group (an
 * event fell out of the group) or with different modifiers, so their
 * ratio would compare different intervals or modes.
 */
int ab_counters_ipc(const struct ab_counters *c, int *cyc, int *ins);

/*
 * ab_counters_suspend - close every event's file descriptor, keeping the
 * events (names, encodings, groups, the tallies the notes use). A kprobe
 * or tracepoint is armed from perf_event_open() to close(), enabled or
 * not (its handler runs, and finds no active event), so a timed pass runs
 * with the counters suspended: nothing armed.
 */
void ab_counters_suspend(struct ab_counters *c);

/*
 * ab_counters_resume - open the suspended events again, in their groups,
 * quietly (one that does not open reads as n/a). Exported for
 * test_counters.c alone: the runner resumes only some
 * (ab_counters_resume_some()); this is the same with every event.
 */
void ab_counters_resume(struct ab_counters *c);

/*
 * ab_counters_resume_some - ab_counters_resume() of the virtual PMU's
 * events alone (@virt 1), of the others alone (0) or of all (-1); the rest
 * stay closed and parked: start and stop pass them by, keeping their
 * values, until the next suspend. A kprobe's handler runs in the regions
 * the virtual PMU counts, so a run counts each kind in a pass of its own.
 */
void ab_counters_resume_some(struct ab_counters *c, int virt);

/*
 * ab_counters_start - zero every open event, read its times (the base of
 * the interval) and enable it.
 */
void ab_counters_start(struct ab_counters *c);

/*
 * ab_counters_stop - disable and read every open event: the interval's
 * count, ns enabled and running, the scaled value, and the tallies of
 * intervals that did not run or were scaled.
 */
void ab_counters_stop(struct ab_counters *c);

/*
 * ab_counters_unrun_last - the open kernel events (not the virtual PMU's)
 * that were enabled but never ran (time_running 0) in the last interval
 */
int ab_counters_unrun_last(const struct ab_counters *c);

/*
 * ab_counters_forget_last - the last interval taken out of every open
 * event's tallies (intervals, unread, unrun, scaled; @min_share stays at
 * most what it was), for an interval measured again
 */
void ab_counters_forget_last(struct ab_counters *c);

/*
 * ab_counters_close - close every open event and remove the filtered
 * kprobes defined for them (lib/dynprobe.h); @c holds no event after.
 */
void ab_counters_close(struct ab_counters *c);

/*
 * ab_counter_scale - @raw * @enabled / @running (times in ns): the count
 * estimated for the whole interval when the event ran only part of it; NAN
 * if it never ran (running 0, as perf's "<not counted>"), @raw when it ran
 * all the time.
 */
double ab_counter_scale(uint64_t raw, uint64_t enabled, uint64_t running);

/*
 * ab_counters_list - print the virtual PMU's events, then every event
 * libpfm4 knows on the PMUs it detected, marking whether each opens here
 * (or why not: nothing goes to stderr). An event that needs a unit mask is
 * listed once per mask (PMU::EVENT:UMASK); one none of whose masks applies
 * to the model is left out. With @glob (not NULL), only the events it
 * matches (fnmatch(3), case ignored, on the whole name or on what follows
 * PMU::), and only the PMUs that have one: each listed event is opened
 * once to say whether it opens, about 10-40 ms an event in a TCG guest,
 * whose CPU model's table holds ~1400. Returns the number listed.
 */
int ab_counters_list(FILE *f, const char *glob);

#endif
