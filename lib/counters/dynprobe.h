/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * dynprobe.h - filtered kprobes: a kprobe event defined in tracefs
 * (kprobe_events, Documentation/trace/kprobetrace.rst) with one fetched
 * argument, counted through perf as a tracepoint with an ftrace filter on
 * that argument (PERF_EVENT_IOC_SET_FILTER), so that only the calls in
 * which the argument has the value that marks the path are counted. The
 * names are fixed (a table in dynprobe.c), not a syntax: each one is a
 * path --explain needs that no function entry marks on every kernel.
 */
#ifndef AB_DYNPROBE_H
#define AB_DYNPROBE_H

#include <stddef.h>
#include <stdint.h>
#include <perfmon/pfmlib_perf_event.h>

/**
 * struct ab_dynprobe - one filtered kprobe
 * @name:   as --events and --explain spell it
 * @tag:    what export keys its counts by (lib/metrics.c, docs/export.md):
 *          a short name of the path, [a-z0-9_], no two alike, that stays
 *          when the probe's spelling changes
 * @func:   the function probed at its entry (in /proc/kallsyms)
 * @fetch:  the kprobe_events fetch argument, NAME=FETCHARG:TYPE
 * @filter: the ftrace filter on it
 * @why:    what a call that passes the filter is, and the source
 */
struct ab_dynprobe {
	const char *name;
	const char *tag;
	const char *func;
	const char *fetch;
	const char *filter;
	const char *why;
};

/*
 * ab_kallsyms_has - 1 when /proc/kallsyms names a function @fn (type t or
 * T), 0 when it does not, -1 when it cannot be read. The names are read
 * once per process (sorted, then searched).
 */
int ab_kallsyms_has(const char *fn);

/* ab_dynprobe_find - the filtered kprobe named @name, or NULL. */
const struct ab_dynprobe *ab_dynprobe_find(const char *name);

/*
 * ab_dynprobe_exists - 1 when this kernel can count @d: its function in
 * /proc/kallsyms and a writable tracefs kprobe_events (root); else 0.
 */
int ab_dynprobe_exists(const struct ab_dynprobe *d);

/*
 * ab_dynprobe_encode - @d as a perf tracepoint event: @attr's type (its
 * config, the id, comes at open: ab_dynprobe_open()), and the description
 * of the encoding into @fstr.
 */
void ab_dynprobe_encode(const struct ab_dynprobe *d,
			struct perf_event_attr *attr, char *fstr, size_t len);

/*
 * ab_dynprobe_prepare - before perf_event_open() of @attr: defines @d
 * (ab_dynprobe_define()) and sets @attr's config to its id. 0 or an errno.
 */
int ab_dynprobe_prepare(const struct ab_dynprobe *d,
			struct perf_event_attr *attr);

/*
 * ab_dynprobe_filter - after perf_event_open(): sets @d's filter on the
 * event @fd (PERF_EVENT_IOC_SET_FILTER). 0 or an errno.
 */
int ab_dynprobe_filter(const struct ab_dynprobe *d, int fd);

/*
 * ab_dynprobe_explain - the line for @d failing to open with @err, into
 * @buf: what it needs.
 */
void ab_dynprobe_explain(const struct ab_dynprobe *d, int err, char *buf,
			 size_t len);

/*
 * ab_dynprobe_remove_all - remove every event ab_dynprobe_define() made
 * in this process (the kernel refuses while a perf event holds one open:
 * close them first). Also at exit.
 */
void ab_dynprobe_remove_all(void);

#endif
