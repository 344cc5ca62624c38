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
 * The first event that opens leads a group the others join, so they count
 * over the same intervals; an event the group refuses counts on its own.
 * Each is read with PERF_FORMAT_TOTAL_TIME_ENABLED and _RUNNING, and
 * scaled by enabled / running when the kernel multiplexed it (perf's own
 * estimate, tools/perf/util/evsel.c). A failure is one explanatory line
 * and the event is left out; nothing aborts the run.
 */
#ifndef AB_COUNTERS_H
#define AB_COUNTERS_H

#include <stdint.h>
#include <stdio.h>
#include <perfmon/pfmlib_perf_event.h>

#define AB_MAX_EVENTS	  16
#define AB_MAX_EVENTS_STR "16"

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
};

/**
 * struct ab_event - one counter
 * @name:    as asked for ("cycles", "cycles:u", a PMU-qualified name,
 *           "kprobe:___slab_alloc", "kmem:mm_page_alloc")
 * @kind:    enum ab_event_kind
 * @fstr:    libpfm4's full name of the encoding
 * @attr:    the perf_event_attr libpfm4 built
 * @fd:      perf_event_open() file descriptor, -1 if not open
 * @raw:     count of the last interval
 * @enabled, @running: ns the event was enabled and actually counting
 * @value:   @raw scaled by @enabled / @running (the estimate when
 *           multiplexed); NAN when it never ran
 */
struct ab_event {
	char name[64];
	int kind;
	char fstr[192];
	struct perf_event_attr attr;
	int fd;
	uint64_t raw, enabled, running;
	double value;
};

struct ab_counters {
	struct ab_event ev[AB_MAX_EVENTS];
	int n;
	int leader; /* index of the group leader, -1 if none */
};

/*
 * ab_counters_open - open the events of the comma-separated @list; with
 * @list "default", the hardware default set if the PMU opens (one line
 * saying why not otherwise) plus the software set. One line on @f for each
 * event that fails, saying why and what to do. Returns the number open.
 */
int ab_counters_open(struct ab_counters *c, const char *list, FILE *f);

/*
 * ab_counter_encode - @name into @e (not opened): kprobe:FUNC, a
 * tracepoint SUBSYS:EVENT whose subsystem tracefs has, else through
 * libpfm4. 0, or -1 after one line on @f naming what is wrong.
 */
int ab_counter_encode(struct ab_event *e, const char *name, FILE *f);

/*
 * ab_counter_exists - 1 when the running kernel can count @name as
 * kprobe:FUNC (a kprobe PMU and FUNC in /proc/kallsyms) or as a
 * tracepoint SUBSYS:EVENT (in tracefs), else 0. Other names: 0.
 */
int ab_counter_exists(const char *name);

/* ab_counters_start - zero and enable every open event. */
void ab_counters_start(struct ab_counters *c);

/* ab_counters_stop - disable and read every open event. */
void ab_counters_stop(struct ab_counters *c);

void ab_counters_close(struct ab_counters *c);

/*
 * ab_counter_scale - @raw * @enabled / @running: the count estimated for
 * the whole interval when the event ran only part of it; NAN if it never
 * ran, @raw when it ran all the time.
 */
double ab_counter_scale(uint64_t raw, uint64_t enabled, uint64_t running);

/*
 * ab_counters_explain_open_error - the sentence for perf_event_open()'s
 * @err on event @name, with the perf_event_paranoid value @paranoid (or
 * -100 if unknown). Writes into @buf.
 */
void ab_counters_explain_open_error(const char *name, int err, int paranoid,
				    char *buf, size_t len);

/*
 * ab_counters_list - print every event libpfm4 knows on the PMUs it
 * detected, marking whether each opens here. Returns the number listed.
 */
int ab_counters_list(FILE *f);

#endif
