/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * evnotes.h - the sentences about events (lib/evnotes.c): why one did
 * not open and what to do, what its intervals show (it never ran, its
 * group never got the hardware, it was multiplexed and scaled), and what
 * an event without kernel mode misses. They write into a buffer or a
 * stream and count nothing; counters.h includes this header and defines
 * the structs.
 */
#ifndef AB_EVNOTES_H
#define AB_EVNOTES_H

#include <stddef.h>
#include <stdio.h>

struct ab_counters;
struct ab_event;

/*
 * ab_perf_paranoid - kernel.perf_event_paranoid
 * (/proc/sys/kernel/perf_event_paranoid), or -100 when it cannot be read.
 */
int ab_perf_paranoid(void);

/*
 * ab_counters_explain_open_error - the sentence for perf_event_open()'s
 * @err on event @name, with the perf_event_paranoid value @paranoid (or
 * -100 if unknown). Writes into @buf.
 */
void ab_counters_explain_open_error(const char *name, int err, int paranoid,
				    char *buf, size_t len);

/*
 * ab_counter_explain_open - the sentence for event @e failing to open
 * with errno @err (no newline) into @why: for a kprobe, whether the
 * kernel has the function at all; for a filtered kprobe, tracefs's
 * part (lib/dynprobe.h); else ab_counters_explain_open_error().
 */
void ab_counter_explain_open(const struct ab_event *e, int err, char *why,
			     size_t len);

/*
 * ab_counters_warn_kernel - for a backend that runs the allocations in the
 * kernel: one line on @f for each open event that excludes kernel mode
 * (cycles:u), since it misses the work measured. Returns how many.
 */
int ab_counters_warn_kernel(const struct ab_counters *c, FILE *f);

/*
 * ab_counters_note - the note for event @e after its intervals (no
 * "note: " prefix, no newline) into @buf: that it never ran, that its
 * group never got the hardware (naming the group), that it did not run in
 * some intervals, or that it ran part of the time and was scaled. 0 and
 * an empty @buf when it ran all the time.
 */
int ab_counters_note(const struct ab_counters *c, int e, char *buf, size_t len);

#endif
