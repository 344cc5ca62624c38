/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * evparse.h - an event's name into the perf_event_attr that counts it
 * (lib/evparse.c): libpfm4's names, perf's kprobe:FUNC and SUBSYS:EVENT
 * (a tracepoint), and the filtered kprobes of lib/dynprobe.h; on a hybrid
 * machine, a hardware event on the core PMU of the CPU the thread is
 * pinned to. Nothing here opens an event: lib/counters.c does
 * (counters.h, which includes this header and defines struct ab_event).
 */
#ifndef AB_EVPARSE_H
#define AB_EVPARSE_H

#include <stdio.h>

struct ab_event;

/*
 * ab_pfm_ready - libpfm4 initialized, once per process
 * (pfm_initialize()): PFM_SUCCESS, or its error, the same on every call.
 */
int ab_pfm_ready(void);

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

/*
 * ab_counters_sysfs - where sysfs is ("/sys"; tests point it at a tree of
 * their own): the hybrid core PMUs are read from there.
 */
extern const char *ab_counters_sysfs;

#endif
