// SPDX-License-Identifier: GPL-2.0-only
/*
 * counters.c - opening and reading the events (see counters.h): groups,
 * perf_event_open(2) through struct ab_pmu, the intervals' reads and
 * their scaling, the re-split of a hardware group that never ran, and
 * `allocbench list events`. Names are encoded by lib/evparse.c, the
 * failures and intervals explained by lib/evnotes.c.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fnmatch.h>
#include <math.h>
#include <perfmon/pfmlib_perf_event.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "counters.h"
#include "dynprobe.h"
#include "parse.h"
#include "vpmu.h"

/* The kernel's perf_event system calls (struct ab_pmu). */
static int sys_open(void *ctx, struct perf_event_attr *attr, int group)
{
	return (int)syscall(__NR_perf_event_open, attr, 0, -1, group, 0);
}

static int sys_ioctl(void *ctx, int fd, unsigned long req)
{
	return ioctl(fd, req, 0);
}

static long sys_read(void *ctx, int fd, void *buf, size_t len)
{
	return (long)read(fd, buf, len);
}

static int sys_close(void *ctx, int fd)
{
	return close(fd);
}

static const struct ab_pmu sys_pmu = {
	.open = sys_open,
	.ioctl = sys_ioctl,
	.read = sys_read,
	.close = sys_close,
};

double ab_counter_scale(uint64_t raw, uint64_t enabled, uint64_t running)
{
	if (!running)
		return NAN;
	if (running >= enabled)
		return (double)raw;
	return (double)raw * (double)enabled / (double)running;
}

static const struct ab_pmu *pmu_of(const struct ab_counters *c)
{
	return c->pmu ? c->pmu : &sys_pmu;
}

/*
 * Whether @e counts on the CPU's PMU and belongs in the hardware group:
 * the generic hardware and cache events, raw codes, and a PMU libpfm4
 * named by its dynamic type. Software events, tracepoints, breakpoints and
 * kprobes form the other group.
 */
static int is_hw(const struct ab_event *e)
{
	if (e->kind != AB_EVENT_PFM)
		return 0;
	return e->attr.type == PERF_TYPE_HARDWARE ||
	       e->attr.type == PERF_TYPE_HW_CACHE ||
	       e->attr.type == PERF_TYPE_RAW || e->attr.type >= PERF_TYPE_MAX;
}

/* Opens @e, in the group of @leader_fd if >= 0; errno on failure. */
static int open_event(const struct ab_pmu *p, struct ab_event *e, int leader_fd)
{
	/* a filtered kprobe: defined before, filtered after (the kernel's) */
	const struct ab_dynprobe *d =
		e->kind == AB_EVENT_DYNPROBE &&
				(p == &sys_pmu || p == &ab_vpmu_pmu)
			? ab_dynprobe_find(e->name)
			: NULL;
	int err = d ? ab_dynprobe_prepare(d, &e->attr) : 0;

	e->attr.disabled = leader_fd < 0;
	e->fd = err ? -1 : p->open(p->ctx, &e->attr, leader_fd);
	if (!err && e->fd < 0)
		err = errno;
	if (!err && d)
		err = ab_dynprobe_filter(d, e->fd);
	if (err && e->fd >= 0) {
		p->close(p->ctx, e->fd);
		e->fd = -1;
	}
	e->virt = !err && p == &ab_vpmu_pmu && ab_vpmu_fd_is_virtual(e->fd);
	if (e->virt && !strstr(e->fstr, "virtual PMU")) {
		int model = 0;

		ab_vpmu_field_of(&e->attr, &model);
		snprintf(e->fstr + strlen(e->fstr),
			 sizeof(e->fstr) - strlen(e->fstr),
			 " on the virtual PMU (QEMU TCG plugin, emulated, %s)",
			 model ? "model" : "exact");
	}
	return err;
}

/* Whether @a and @b count the same thing, whatever their modifiers. */
static int same_event(const struct ab_event *a, const struct ab_event *b)
{
	if (a->kind != b->kind)
		return 0;
	if (a->kind == AB_EVENT_KPROBE || a->kind == AB_EVENT_DYNPROBE)
		return !strcmp(a->name, b->name);
	return a->attr.type == b->attr.type &&
	       a->attr.config == b->attr.config &&
	       (a->kind != AB_EVENT_PFM || a->attr.config1 == b->attr.config1);
}

/* Index of an open event counting what @e does, in the same modes, or -1. */
static int open_twin(const struct ab_counters *c, const struct ab_event *e)
{
	int i;

	for (i = 0; i < c->n; i++)
		if (same_event(&c->ev[i], e) &&
		    c->ev[i].attr.exclude_user == e->attr.exclude_user &&
		    c->ev[i].attr.exclude_kernel == e->attr.exclude_kernel)
			return i;
	return -1;
}

static int open_list(struct ab_counters *c, const char *list, FILE *f,
		     int quiet_hw)
{
	const struct ab_pmu *p = pmu_of(c);
	char buf[2048], *items[AB_MAX_EVENTS], why[320];
	int i, n, err, opened = 0, hw_failed = 0, nfail = 0;
	struct {
		struct ab_event e;
		int err;
	} fail[AB_MAX_EVENTS];

	if (strlen(list) >= sizeof(buf)) {
		fprintf(f,
			"counters: --events: a list of %zu characters is too long (at most %zu); no counters\n",
			strlen(list), sizeof(buf) - 1);
		return 0;
	}
	snprintf(buf, sizeof(buf), "%s", list);
	n = ab_split_list(buf, items, AB_MAX_EVENTS - c->n);
	if (n < 0) {
		fprintf(f, "counters: --events=%s: %s; no counters\n", list,
			n == -E2BIG ? "more than " AB_MAX_EVENTS_STR " events"
				    : "an empty name");
		return 0;
	}
	for (i = 0; i < n; i++) {
		struct ab_event *e = &c->ev[c->n];
		int *leader;

		if (ab_counter_encode(e, items[i], f))
			continue;
		if (open_twin(c, e) >= 0) {
			/* --events=cycles,cpu-cycles: one count, shown once */
			fprintf(f,
				"counter %s: the same event as %s, counted once\n",
				e->name, c->ev[open_twin(c, e)].name);
			continue;
		}
		leader = is_hw(e) ? &c->hw_leader : &c->sw_leader;
		err = open_event(p, e, *leader >= 0 ? c->ev[*leader].fd : -1);
		if (err && *leader >= 0) {
			/* the group refused it: count it on its own */
			int in_group = err;

			err = open_event(p, e, -1);
			if (!err)
				fprintf(f,
					"counter %s: the kernel would not add it to the group of %s (%s); it counts on its own, over intervals of its own\n",
					e->name, c->ev[*leader].name,
					strerror(in_group));
			e->group = -1;
		} else if (!err) {
			if (*leader < 0)
				*leader = c->n;
			e->group = *leader;
		}
		e->was_group = e->group;
		if (err) {
			if (quiet_hw) {
				/* told below: one line, or one per event */
				hw_failed = err;
				fail[nfail].e = *e;
				fail[nfail++].err = err;
				continue;
			}
			ab_counter_explain_open(e, err, why, sizeof(why));
			fprintf(f, "%s\n", why);
			continue;
		}
		/* the kprobe's name is read at open only: keep it anyway */
		c->n++;
		opened++;
	}
	if (quiet_hw && hw_failed && !opened) {
		/* no PMU at all: one line for the set */
		ab_counters_explain_open_error("cycles", hw_failed,
					       ab_perf_paranoid(), why,
					       sizeof(why));
		fprintf(f, "%s\n", why);
	} else {
		/* a partial failure of the default set: each, with its reason
		 */
		for (i = 0; i < nfail; i++) {
			ab_counter_explain_open(&fail[i].e, fail[i].err, why,
						sizeof(why));
			fprintf(f, "%s\n", why);
		}
	}
	return opened;
}

int ab_counters_open_pmu(struct ab_counters *c, const char *list, FILE *f,
			 const struct ab_pmu *pmu)
{
	memset(c, 0, sizeof(*c));
	c->hw_leader = c->sw_leader = -1;
	c->pmu = pmu;
	if (strcmp(list, "default"))
		return open_list(c, list, f, 0);
	open_list(c, AB_DEFAULT_HW_EVENTS, f, 1);
	open_list(c, AB_DEFAULT_SW_EVENTS, f, 0);
	return c->n;
}

int ab_counters_open(struct ab_counters *c, const char *list, FILE *f)
{
	/* the kernel's calls, falling back to the virtual PMU where booted */
	return ab_counters_open_pmu(c, list, f,
				    ab_vpmu_present() ? &ab_vpmu_pmu : NULL);
}

const char *ab_counter_source(const struct ab_event *e)
{
	int model = 0;

	if (!e->virt)
		return "kernel";
	ab_vpmu_field_of(&e->attr, &model);
	return model ? "virtual-model" : "virtual-exact";
}

int ab_counters_virtual(const struct ab_counters *c)
{
	int i, n = 0;

	for (i = 0; i < c->n; i++)
		n += c->ev[i].virt;
	return n;
}

void ab_counters_suspend(struct ab_counters *c)
{
	const struct ab_pmu *p = pmu_of(c);
	int i;

	for (i = c->n - 1; i >= 0; i--)
		if (c->ev[i].fd >= 0) {
			p->close(p->ctx, c->ev[i].fd);
			c->ev[i].fd = -1;
		}
	for (i = 0; i < c->n; i++)
		c->ev[i].parked = 0;
	c->suspended = 1;
}

void ab_counters_resume_some(struct ab_counters *c, int virt)
{
	const struct ab_pmu *p = pmu_of(c);
	int i, g, err, tries;

	if (!c->suspended)
		return;
	for (i = 0; i < c->n; i++) {
		struct ab_event *e = &c->ev[i];

		if (virt >= 0 && e->virt != virt) {
			e->parked = 1;
			continue;
		}
		g = e->group;
		/*
		 * a leader, or alone; members join their leader's fd. It
		 * opened before, so a failure now is passing (EINTR: a signal
		 * in perf_event_open()'s interruptible lock; EBUSY, EAGAIN):
		 * tried again, after 1, 2, ... 7 ms (room for what holds it up
		 * to pass in a loaded guest), and its errno kept for the note
		 */
		for (tries = 0; tries < 8; tries++) {
			if (tries)
				usleep(1000 * tries);
			err = open_event(p, e,
					 g >= 0 && g != i && c->ev[g].fd >= 0
						 ? c->ev[g].fd
						 : -1);
			if (err != EINTR && err != EBUSY && err != EAGAIN)
				break;
		}
		if (err)
			e->fd = -1;
		e->reopen_err = err;
	}
	c->suspended = 0;
}

void ab_counters_resume(struct ab_counters *c)
{
	ab_counters_resume_some(c, -1);
}

int ab_counters_named(const struct ab_counters *c, const char *name)
{
	int i;

	for (i = 0; i < c->n; i++)
		if (!strcmp(c->ev[i].name, name))
			return i;
	return -1;
}

int ab_counters_find(const struct ab_counters *c, const char *name)
{
	struct ab_event want;
	FILE *quiet = fopen("/dev/null", "w");
	int i, ret;

	ret = ab_counter_encode(&want, name, quiet ? quiet : stderr);
	if (quiet)
		fclose(quiet);
	if (ret)
		return -1;
	for (i = 0; i < c->n; i++)
		if (same_event(&c->ev[i], &want))
			return i;
	return -1;
}

/* Index of the generic hardware event @config, or -1. */
static int find_hw(const struct ab_counters *c, uint64_t config)
{
	int i;

	for (i = 0; i < c->n; i++)
		if (c->ev[i].kind == AB_EVENT_PFM &&
		    c->ev[i].attr.type == PERF_TYPE_HARDWARE &&
		    (c->ev[i].attr.config & 0xffffffffULL) == config)
			return i;
	return -1;
}

int ab_counters_ipc(const struct ab_counters *c, int *cyc, int *ins)
{
	const struct perf_event_attr *a, *b;

	*cyc = find_hw(c, PERF_COUNT_HW_CPU_CYCLES);
	*ins = find_hw(c, PERF_COUNT_HW_INSTRUCTIONS);
	if (*cyc < 0 || *ins < 0)
		return 0;
	a = &c->ev[*cyc].attr;
	b = &c->ev[*ins].attr;
	if (c->ev[*cyc].group < 0 || c->ev[*cyc].group != c->ev[*ins].group ||
	    a->exclude_user != b->exclude_user ||
	    a->exclude_kernel != b->exclude_kernel ||
	    a->exclude_hv != b->exclude_hv)
		return -1;
	return 1;
}

void ab_counters_start(struct ab_counters *c)
{
	const struct ab_pmu *p = pmu_of(c);
	int i;

	/* fd -1: an event a re-split could not open again (resplit()) */
	for (i = 0; i < c->n; i++)
		if (c->ev[i].fd >= 0)
			p->ioctl(p->ctx, c->ev[i].fd, PERF_EVENT_IOC_RESET);
	/* the reset leaves the times as they were: the base of the interval */
	for (i = 0; i < c->n; i++) {
		struct ab_event *e = &c->ev[i];

		if (e->fd < 0 ||
		    p->read(p->ctx, e->fd, e->base, sizeof(e->base)) !=
			    (long)sizeof(e->base))
			memset(e->base, 0, sizeof(e->base));
	}
	for (i = 0; i < c->n; i++)
		if (c->ev[i].fd >= 0 && c->ev[i].attr.disabled)
			p->ioctl(p->ctx, c->ev[i].fd, PERF_EVENT_IOC_ENABLE);
}

/*
 * A hardware group of several events that never got the PMU in an
 * interval (time_running 0: more events than free counters, or the NMI
 * watchdog holding one) is split: each of its events is opened again on
 * its own, so from the next interval the kernel can rotate them through
 * the counters it has (multiplexing, scaled by enabled / running). The
 * interval that never ran stays unmeasured (its note says so).
 */
static void resplit(struct ab_counters *c)
{
	const struct ab_pmu *p = pmu_of(c);
	int i, lead = c->hw_leader, members = 0;

	if (lead < 0 || c->ev[lead].running || !c->ev[lead].enabled)
		return;
	for (i = 0; i < c->n; i++)
		members += c->ev[i].group == lead;
	if (members < 2)
		return;
	for (i = c->n - 1; i >= 0; i--)
		if (c->ev[i].group == lead && c->ev[i].fd >= 0)
			p->close(p->ctx, c->ev[i].fd);
	for (i = 0; i < c->n; i++) {
		struct ab_event *e = &c->ev[i];

		if (e->group != lead)
			continue;
		if (open_event(p, e, -1))
			e->fd = -1;
		e->group = -1;
	}
	c->hw_leader = -1;
	c->resplit++;
}

/* @now - @then, 0 if the counter went backwards. */
static uint64_t delta(uint64_t now, uint64_t then)
{
	return now >= then ? now - then : 0;
}

void ab_counters_stop(struct ab_counters *c)
{
	const struct ab_pmu *p = pmu_of(c);
	uint64_t v[3];
	int i;

	for (i = 0; i < c->n; i++)
		if (c->ev[i].fd >= 0 && c->ev[i].attr.disabled)
			p->ioctl(p->ctx, c->ev[i].fd, PERF_EVENT_IOC_DISABLE);
	for (i = 0; i < c->n; i++) {
		struct ab_event *e = &c->ev[i];
		double share;

		if (e->parked)
			continue;
		e->intervals++;
		e->last = 0;
		if (e->fd < 0 ||
		    p->read(p->ctx, e->fd, v, sizeof(v)) != (long)sizeof(v)) {
			e->raw = e->enabled = e->running = 0;
			e->value = NAN;
			e->unread++;
			e->last = 'u';
			continue;
		}
		e->raw = delta(v[0], e->base[0]);
		e->enabled = delta(v[1], e->base[1]);
		e->running = delta(v[2], e->base[2]);
		/*
		 * A software event, tracepoint or kprobe never waits for a
		 * counter: the kernel schedules it with the task whenever it
		 * is enabled (the software context), so its count is whole,
		 * never multiplexed, whatever the times say. Their
		 * time_running read 0 in loaded TCG guests, where a short pass
		 * can end before the perf clock moves; taken for "not
		 * counted", a kmalloc 64 --explain figure came out null.
		 */
		if (!e->virt && !is_hw(e)) {
			e->value = (double)e->raw;
			continue;
		}
		/* a virtual event's value is its estimate (lib/vpmu.c) */
		e->value = e->virt ? (e->running ? (double)e->raw : NAN)
				   : ab_counter_scale(e->raw, e->enabled,
						      e->running);
		if (!e->running) {
			e->unrun++;
			e->last = 'n';
			continue;
		}
		if (e->running >= e->enabled)
			continue;
		share = (double)e->running / (double)e->enabled;
		if (!e->scaled || share < e->min_share)
			e->min_share = share;
		e->scaled++;
		e->last = 's';
	}
	resplit(c);
}

int ab_counters_unrun_last(const struct ab_counters *c)
{
	int i, n = 0;

	for (i = 0; i < c->n; i++)
		n += !c->ev[i].parked && !c->ev[i].virt && c->ev[i].fd >= 0 &&
		     c->ev[i].last == 'n';
	return n;
}

void ab_counters_forget_last(struct ab_counters *c)
{
	int i;

	for (i = 0; i < c->n; i++) {
		struct ab_event *e = &c->ev[i];

		if (e->parked || !e->intervals)
			continue;
		e->intervals--;
		e->unread -= e->last == 'u';
		e->unrun -= e->last == 'n';
		e->scaled -= e->last == 's';
		e->last = 0;
	}
}

void ab_counters_close(struct ab_counters *c)
{
	const struct ab_pmu *p = pmu_of(c);
	int i;

	for (i = c->n - 1; i >= 0; i--)
		if (c->ev[i].fd >= 0)
			p->close(p->ctx, c->ev[i].fd);
	c->n = 0;
	c->hw_leader = c->sw_leader = -1;
	ab_dynprobe_remove_all();
}

/*
 * One line of `list events`: whether @name opens on this machine, or why
 * not. An encoding refusal is the line's reason (a memory stream takes
 * the message), so listing writes nothing to stderr on any CPU model.
 */
static void list_one(FILE *f, const char *name)
{
	struct ab_event e;
	char *why = NULL;
	size_t len = 0;
	FILE *msg = open_memstream(&why, &len);
	int err = -1;

	if (msg && !ab_counter_encode(&e, name, msg)) {
		err = open_event(&sys_pmu, &e, -1);
		if (!err)
			close(e.fd);
	}
	if (msg)
		fclose(msg);
	if (err < 0 && why && len) {
		/* "counter NAME: reason\n" -> "reason" */
		const char *r = strstr(why, ": ") ? strstr(why, ": ") + 2 : why;

		why[strcspn(why, "\n;")] = '\0';
		fprintf(f, "  %-44s cannot be encoded: %s\n", name, r);
	} else {
		fprintf(f, "  %-44s %s\n", name,
			err == 0  ? "opens"
			: err < 0 ? "cannot be encoded"
				  : strerror(err));
	}
	free(why);
}

/*
 * Whether `list events GLOB` lists @name: GLOB (fnmatch(3), case
 * ignored) matches the whole name (PMU::EVENT[:UMASK]) or what follows
 * its PMU:: prefix; no GLOB lists every event.
 */
static int list_keeps(const char *glob, const char *name)
{
	const char *ev = strstr(name, "::");

	return !glob || !fnmatch(glob, name, FNM_CASEFOLD) ||
	       (ev && !fnmatch(glob, ev + 2, FNM_CASEFOLD));
}

/* A PMU's listing: its line printed before the first event kept. */
struct list_pmu {
	FILE *f;
	const char *glob;
	const pfm_pmu_info_t *pmu;
	int listed;
};

/* @name listed, when the glob keeps it. Returns 1 when listed, else 0. */
static int list_kept(struct list_pmu *l, const char *name)
{
	if (!list_keeps(l->glob, name))
		return 0;
	if (!l->listed++)
		fprintf(l->f, "pmu %s: %s\n", l->pmu->name, l->pmu->desc);
	list_one(l->f, name);
	return 1;
}

/*
 * The unit masks of libpfm4's event @idx when it needs one (none is the
 * default: libpfm4 refuses the bare name with PFM_ERR_UMASK), each listed
 * as PMU::EVENT:UMASK. Returns how many were listed, or -1 when the
 * event takes its bare name.
 */
static int list_umasks(struct list_pmu *l, const char *name, int idx,
		       int nattrs)
{
	pfm_event_attr_info_t a;
	char full[320];
	int k, n = 0, masks = 0, dfl = 0;

	for (k = 0; k < nattrs; k++) {
		memset(&a, 0, sizeof(a));
		a.size = sizeof(a);
		if (pfm_get_event_attr_info(idx, k, PFM_OS_PERF_EVENT_EXT,
					    &a) == PFM_SUCCESS &&
		    a.type == PFM_ATTR_UMASK && a.is_dfl)
			dfl = 1;
	}
	if (dfl)
		return -1;
	for (k = 0; k < nattrs; k++) {
		memset(&a, 0, sizeof(a));
		a.size = sizeof(a);
		if (pfm_get_event_attr_info(idx, k, PFM_OS_PERF_EVENT_EXT,
					    &a) != PFM_SUCCESS ||
		    a.type != PFM_ATTR_UMASK)
			continue;
		snprintf(full, sizeof(full), "%s:%s", name, a.name);
		n += list_kept(l, full);
		masks++;
	}
	return masks ? n : -1;
}

/*
 * Whether libpfm4 refuses @name for want of a unit mask: an event of the
 * model's table none of whose masks applies to this model (snb's
 * MEM_LOAD_UOPS_LLC_MISS_RETIRED). Such an event cannot be counted here,
 * so it is not listed.
 */
static int needs_umask(const char *name)
{
	struct perf_event_attr attr;
	pfm_perf_encode_arg_t arg;

	memset(&attr, 0, sizeof(attr));
	attr.size = sizeof(attr);
	memset(&arg, 0, sizeof(arg));
	arg.attr = &attr;
	arg.size = sizeof(arg);
	arg.cpu = -1;
	return pfm_get_os_event_encoding(name, PFM_PLM0 | PFM_PLM3,
					 PFM_OS_PERF_EVENT_EXT,
					 &arg) == PFM_ERR_UMASK;
}

int ab_counters_list(FILE *f, const char *glob)
{
	pfm_event_info_t info;
	pfm_pmu_info_t pinfo;
	struct list_pmu l = { .f = f, .glob = glob, .pmu = &pinfo };
	char name[256];
	int p, i, m, n;

	n = ab_vpmu_list(f, list_keeps, glob);
	if (ab_pfm_ready() != PFM_SUCCESS) {
		fprintf(f, "libpfm4 did not initialize: %s\n",
			pfm_strerror(ab_pfm_ready()));
		return n;
	}
	pfm_for_all_pmus(p)
	{
		memset(&pinfo, 0, sizeof(pinfo));
		pinfo.size = sizeof(pinfo);
		if (pfm_get_pmu_info(p, &pinfo) != PFM_SUCCESS ||
		    !pinfo.is_present)
			continue;
		/* every PMU's line when listing everything, as before */
		l.listed = !glob;
		if (!glob)
			fprintf(f, "pmu %s: %s\n", pinfo.name, pinfo.desc);
		for (i = pinfo.first_event; i != -1;
		     i = pfm_get_event_next(i)) {
			memset(&info, 0, sizeof(info));
			info.size = sizeof(info);
			if (pfm_get_event_info(i, PFM_OS_PERF_EVENT_EXT,
					       &info) != PFM_SUCCESS)
				continue;
			snprintf(name, sizeof(name), "%s::%s", pinfo.name,
				 info.name);
			m = list_umasks(&l, name, i, info.nattrs);
			if (m < 0 && list_keeps(glob, name) &&
			    !needs_umask(name))
				m = list_kept(&l, name);
			n += m > 0 ? m : 0;
		}
	}
	return n;
}
