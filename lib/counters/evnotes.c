// SPDX-License-Identifier: GPL-2.0-only
/*
 * evnotes.c - what is said about events (see evnotes.h): the reason an
 * event did not open, from perf_event_open()'s errno, perf_event_paranoid,
 * /proc/kallsyms and tracefs; and the notes on its intervals, from the
 * tallies lib/counters.c keeps (never ran, scaled, unread).
 */
#include <errno.h>
#include <limits.h>
#include <string.h>

#include "counters.h"
#include "dynprobe.h"
#include "kfile.h"
#include "textout.h"
#include "vpmu.h"

int ab_perf_paranoid(void)
{
	long long v;

	if (ab_kfile_int(&v, "/proc/sys/kernel/perf_event_paranoid") ||
	    v < INT_MIN || v > INT_MAX)
		return -100;
	return (int)v;
}

void ab_counters_explain_open_error(const char *name, int err, int par,
				    char *buf, size_t len)
{
	switch (err) {
	case ENOENT:
	case ENODEV:
	case EOPNOTSUPP:
		snprintf(
			buf, len,
			"counter %s: hardware counters are unavailable here (%s: no PMU, e.g. a VM without a virtual PMU); software events such as task-clock still work",
			name, strerror(err));
		break;
	case EACCES:
	case EPERM:
		snprintf(
			buf, len,
			"counter %s: not permitted (kernel.perf_event_paranoid is %d): counting kernel work needs perf_event_paranoid <= 1, or root or CAP_PERFMON",
			name, par);
		break;
	case EINVAL:
		snprintf(
			buf, len,
			"counter %s: the kernel refused its encoding (EINVAL); see `allocbench list events` for what opens here",
			name);
		break;
	default:
		snprintf(buf, len, "counter %s: perf_event_open: %s", name,
			 strerror(err));
		break;
	}
}

/*
 * Why a kprobe did not open: the function is not in /proc/kallsyms
 * (inlined, renamed, or static and gone), it is on the kprobe blacklist,
 * or the kernel's own error.
 */
static void explain_kprobe(const struct ab_event *e, int err, char *buf,
			   size_t len)
{
	const char *fn = e->name + strlen("kprobe:");
	int known = ab_kallsyms_has(fn);

	if (known == 0)
		snprintf(
			buf, len,
			"counter %s: this kernel has no function %s to probe (not in /proc/kallsyms: inlined, renamed or absent in this version); the run goes on without it",
			e->name, fn);
	else if (err == EACCES || err == EPERM)
		ab_counters_explain_open_error(e->name, err, ab_perf_paranoid(),
					       buf, len);
	else
		snprintf(
			buf, len,
			"counter %s: the kernel refused a kprobe on %s (%s: e.g. on the kprobe blacklist, /sys/kernel/debug/kprobes/blacklist, or a notrace function); the run goes on without it",
			e->name, fn, strerror(err));
}

void ab_counter_explain_open(const struct ab_event *e, int err, char *why,
			     size_t len)
{
	int model = 0;

	if (e->kind == AB_EVENT_KPROBE)
		explain_kprobe(e, err, why, len);
	else if (e->kind == AB_EVENT_DYNPROBE)
		ab_dynprobe_explain(ab_dynprobe_find(e->name), err, why, len);
	else if (ab_vpmu_present() && ab_vpmu_field_of(&e->attr, &model) >= 0 &&
		 ab_vpmu_modifier_refused(&e->attr))
		snprintf(
			why, len,
			"counter %s: the virtual PMU counts every instruction of the timed regions, user and kernel mode alike: it cannot honour the modifier %s; drop it",
			e->name,
			strrchr(e->name, ':') ? strrchr(e->name, ':') : "");
	else if (ab_vpmu_present() == 1 &&
		 ab_vpmu_field_of(&e->attr, &model) >= 0 && model)
		snprintf(
			why, len,
			"counter %s: no hardware PMU here, and the virtual PMU was booted without its model (exact counts only: instructions, branches, loads, stores); boot with VPMU=model (allocbench vm --vpmu=model) for its modelled branch and cache misses",
			e->name);
	else
		ab_counters_explain_open_error(e->name, err, ab_perf_paranoid(),
					       why, len);
}

int ab_counters_warn_kernel(const struct ab_counters *c, FILE *f)
{
	int i, n = 0;

	for (i = 0; i < c->n; i++)
		if (c->ev[i].attr.exclude_kernel) {
			fprintf(f,
				"warning: counter %s excludes kernel mode, where this backend runs the allocations: it counts the CLI's own user-mode work only (drop :u to count the allocator)\n",
				c->ev[i].name);
			n++;
		}
	return n;
}

/* Whether every member of @leader's group never ran in any interval. */
static int group_never_ran(const struct ab_counters *c, int leader)
{
	int i, members = 0;

	for (i = 0; i < c->n; i++) {
		if (c->ev[i].was_group != leader)
			continue;
		if (c->ev[i].unrun != c->ev[i].intervals)
			return 0;
		members++;
	}
	return members > 1;
}

/*
 * A virtual PMU event's intervals (lib/vpmu.h): "enabled" is the timed
 * regions that closed, "running" those that hold no handler; the plugin
 * takes interrupts out, and a region holding one it could not take out
 * (an exception's, an IRET matching no entry) is left out.
 */
static int virtual_note(const struct ab_event *ev, char *buf, size_t len)
{
	size_t at = 0;

	if (ev->unrun)
		at = (size_t)snprintf(
			buf, len,
			"counter %s (virtual PMU) counted no timed region in %u of %u %s (every region of a phase held a handler the plugin could not take out, such as an exception's, or the run marked none): no count for those (n/a)",
			ev->name, ev->unrun, ev->intervals,
			ab_noun(ev->intervals, "interval", "intervals"));
	if (ev->scaled && at < len)
		snprintf(
			buf + at, len - at,
			"%scounter %s (virtual PMU): code the plugin could not take out (an exception's handler, an IRET matching no interrupt's entry, a task switched in, an interrupt in a user-space region) ran in some timed regions of %u of %u %s, which are left out (the worst interval kept %.0f%% of its regions); the count is scaled from the other regions of the same phase by that phase's regions closed / regions kept",
			at ? "; " : "", ev->name, ev->scaled, ev->intervals,
			ab_noun(ev->intervals, "interval", "intervals"),
			100.0 * ev->min_share);
	return ev->unrun || ev->scaled;
}

int ab_counters_note(const struct ab_counters *c, int e, char *buf, size_t len)
{
	const struct ab_event *ev = &c->ev[e];
	size_t at = 0;
	int i;

	buf[0] = '\0';
	if (!ev->intervals)
		return 0;
	if (ev->unread && ev->reopen_err) {
		snprintf(
			buf, len,
			"counter %s could not be opened again for a counting pass (perf_event_open: %s), unread in %u of %u %s: no count there (n/a)",
			ev->name, strerror(ev->reopen_err), ev->unread,
			ev->intervals,
			ab_noun(ev->intervals, "interval", "intervals"));
		return 1;
	}
	if (ev->unread) {
		snprintf(
			buf, len,
			"counter %s could not be read in %u of %u %s (the kernel put it in an error state): no count there (n/a)",
			ev->name, ev->unread, ev->intervals,
			ab_noun(ev->intervals, "interval", "intervals"));
		return 1;
	}
	if (ev->unrun == ev->intervals && ev->was_group >= 0 &&
	    group_never_ran(c, ev->was_group)) {
		if (ev->was_group != e) {
			snprintf(
				buf, len,
				"counter %s never ran (time_running 0), with its group led by %s: no count (n/a)",
				ev->name, c->ev[ev->was_group].name);
			return 1;
		}
		at = (size_t)snprintf(buf, len, "counter group {");
		for (i = 0; i < c->n && at < len; i++)
			if (c->ev[i].was_group == e)
				at += (size_t)snprintf(
					buf + at, len - at, "%s%s",
					i == e ? "" : ", ", c->ev[i].name);
		if (at < len)
			snprintf(
				buf + at, len - at,
				"} never ran (time_running 0): it never had all the hardware counters it needs at once (more events than free counters, or the NMI watchdog holds one: kernel.nmi_watchdog=0 frees it); no counts (n/a); ask for fewer hardware events at once");
		return 1;
	}
	if (ev->virt)
		return virtual_note(ev, buf, len);
	if (ev->unrun == ev->intervals) {
		snprintf(
			buf, len,
			"counter %s never ran (time_running 0: no free counter for it in any interval): no count (n/a), nothing scaled",
			ev->name);
		return 1;
	}
	if (ev->unrun)
		at = (size_t)snprintf(
			buf, len,
			"counter %s never ran in %u of %u %s (time_running 0: no free counter then): no count for those (n/a)",
			ev->name, ev->unrun, ev->intervals,
			ab_noun(ev->intervals, "interval", "intervals"));
	if (ev->scaled && at < len)
		snprintf(
			buf + at, len - at,
			"%scounter %s ran as little as %.0f%% of the time in %u of %u %s (multiplexed) and is scaled by enabled/running",
			at ? "; " : "", ev->name, 100.0 * ev->min_share,
			ev->scaled, ev->intervals,
			ab_noun(ev->intervals, "interval", "intervals"));
	return ev->unrun || ev->scaled;
}
