// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_explain.c - lib/explain.c: the events --explain asks for (an event
 * also named by --events is counted once, a list naming one event twice is
 * found), a path counted as one event's calls less another's, and the
 * notes that go with a row's figures (none that its figures contradict).
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "counters.h"
#include "explain.h"

/* A kernel with every spelling of every path. */
static int has_all(const char *event)
{
	return 1;
}

/* 6.1: no _noprof names */
static int has_61(const char *event)
{
	return !strstr(event, "_noprof") && !strstr(event, ".constprop");
}

static int count_of(const char *list, const char *name)
{
	const char *p = list;
	size_t n = strlen(name);
	int k = 0;

	while (p && *p) {
		if (!strncmp(p, name, n) && (p[n] == ',' || !p[n]))
			k++;
		p = strchr(p, ',');
		p = p ? p + 1 : NULL;
	}
	return k;
}

static void test_twice(void **state)
{
	char dup[64] = "";

	assert_int_equal(
		ab_events_twice("cycles,instructions", dup, sizeof(dup)), 0);
	assert_int_equal(
		ab_events_twice("task-clock,task-clock", dup, sizeof(dup)), 1);
	assert_string_equal(dup, "task-clock");
	assert_int_equal(
		ab_events_twice("kprobe:__slab_free,cycles,kprobe:__slab_free",
				dup, sizeof(dup)),
		1);
	assert_string_equal(dup, "kprobe:__slab_free");
	/* a prefix of another name is another event */
	assert_int_equal(
		ab_events_twice("kprobe:__slab_free,kprobe:__slab_free_x", dup,
				sizeof(dup)),
		0);
	assert_int_equal(ab_events_twice("cycles,cycles:u", dup, sizeof(dup)),
			 0);
	/* issue 21: a PMU event in two cases is one event (libpfm4 and
	 * perf's generic names ignore case); a kernel symbol's case counts */
	assert_int_equal(ab_events_twice("cycles,CYCLES", dup, sizeof(dup)), 1);
	assert_string_equal(dup, "cycles");
	assert_int_equal(ab_events_twice("cycles:u,Cycles:U", dup, sizeof(dup)),
			 1);
	assert_int_equal(
		ab_events_twice("kprobe:foo,kprobe:FOO", dup, sizeof(dup)), 0);
	assert_int_equal(
		ab_events_twice("kmem:kmalloc,kmem:KMALLOC", dup, sizeof(dup)),
		0);
}

/* --explain --events=kprobe:__slab_free: one __slab_free in the list */
static void test_explain_merges_user_event(void **state)
{
	struct ab_explain ex;
	char buf[2048];

	ab_explain_select(&ex, AB_FAMILY_SLAB, has_all);
	assert_int_equal(
		ab_explain_events(&ex, "kprobe:__slab_free", buf, sizeof(buf)),
		0);
	assert_int_equal(count_of(buf, "kprobe:__slab_free"), 1);
	assert_int_equal(count_of(buf, "kprobe:___slab_alloc"), 1);
	assert_int_equal(ab_events_twice(buf, buf + 1024, 64), 0);
	/* every family at once: each event once */
	ab_explain_select(&ex,
			  AB_FAMILY_SLAB | AB_FAMILY_PAGE | AB_FAMILY_VMALLOC |
				  AB_FAMILY_KVMALLOC,
			  has_all);
	assert_int_equal(ab_explain_events(&ex, NULL, buf, sizeof(buf)), 0);
	assert_int_equal(ab_events_twice(buf, buf + 1500, 64), 0);
}

/* the refill is its own path, on every kernel that can count it */
static void test_refill_path(void **state)
{
	struct ab_explain ex;
	int k, refill = -1, slow = -1;

	ab_explain_select(&ex, AB_FAMILY_SLAB, has_61);
	for (k = 0; k < ex.n; k++) {
		if (!strcmp(ex.path[k].label, "slab refill"))
			refill = k;
		if (!strcmp(ex.path[k].label, "slab slow path"))
			slow = k;
	}
	assert_true(refill >= 0 && slow >= 0);
	assert_string_equal(ex.path[refill].event,
			    "kprobe:___slab_alloc(c->freelist==NULL)");
	assert_string_equal(ex.path[slow].event, "kprobe:___slab_alloc");
}

/*
 * kvmalloc_node --size=8M: __vmalloc_node_range() runs twice per op, once
 * for the fallback and once for the page array (through __vmalloc_node());
 * the fallback path is the first less the second: 1, not 2.
 */
static void test_fallback_is_a_difference(void **state)
{
	struct ab_explain ex;
	struct ab_counters c;
	double ev_net[AB_MAX_EVENTS];
	int k, fb = -1;

	ab_explain_select(&ex, AB_FAMILY_KVMALLOC, has_61);
	for (k = 0; k < ex.n; k++)
		if (!strcmp(ex.path[k].label, "vmalloc fallback"))
			fb = k;
	assert_true(fb >= 0);
	assert_string_equal(ex.path[fb].event, "kprobe:__vmalloc_node_range");
	assert_string_equal(ex.path[fb].minus, "kprobe:__vmalloc_node");
	memset(&c, 0, sizeof(c));
	c.n = 2;
	snprintf(c.ev[0].name, sizeof(c.ev[0].name), "%s", ex.path[fb].event);
	snprintf(c.ev[1].name, sizeof(c.ev[1].name), "%s", ex.path[fb].minus);
	ev_net[0] = 2.0;
	ev_net[1] = 1.0;
	assert_true(fabs(ab_explain_net(&ex.path[fb], &c, ev_net) - 1.0) <
		    1e-9);
	/* without the second event there is no figure, not 2 */
	c.n = 1;
	assert_true(isnan(ab_explain_net(&ex.path[fb], &c, ev_net)));
	/* a kernel without __vmalloc_node counts no fallback at all */
	ab_explain_select(&ex, AB_FAMILY_KVMALLOC, has_all);
	for (k = 0; k < ex.n; k++)
		if (!strcmp(ex.path[k].label, "vmalloc fallback"))
			assert_string_equal(ex.path[k].minus,
					    "kprobe:__vmalloc_node_noprof");
}

/*
 * Issue 39.3: with --free-cpu=1 --explain printed "0.00 slow free" for
 * frees that ran in a work item on CPU 1, which this thread's counters
 * never see. Marked as counted elsewhere, the free phase's paths have no
 * figure (NAN: left out); the allocation's keep theirs.
 */
static void test_frees_elsewhere(void **state)
{
	struct ab_explain ex;
	struct ab_counters c;
	double ev_net[AB_MAX_EVENTS] = { 0.13, 0 };
	int k, slow = -1, sfree = -1;

	(void)state;
	ab_explain_select(&ex, AB_FAMILY_SLAB, has_61);
	for (k = 0; k < ex.n; k++) {
		if (!strcmp(ex.path[k].label, "slab slow path"))
			slow = k;
		if (!strcmp(ex.path[k].label, "slow free"))
			sfree = k;
	}
	assert_true(slow >= 0 && sfree >= 0);
	memset(&c, 0, sizeof(c));
	c.n = 2;
	snprintf(c.ev[0].name, sizeof(c.ev[0].name), "%s", ex.path[slow].event);
	snprintf(c.ev[1].name, sizeof(c.ev[1].name), "%s",
		 ex.path[sfree].event);
	assert_float_equal(ab_explain_net(&ex.path[sfree], &c, ev_net), 0, 0);
	/* the slab family's free paths: sheaf full, barn put, sheaf flush,
	 * slow free */
	assert_int_equal(ab_explain_frees_elsewhere(&ex), 4);
	assert_true(isnan(ab_explain_net(&ex.path[sfree], &c, ev_net)));
	assert_float_equal(ab_explain_net(&ex.path[slow], &c, ev_net), 0.13, 0);
	/* the page allocator's: the per-CPU list drain */
	ab_explain_select(&ex, AB_FAMILY_PAGE, has_61);
	assert_int_equal(ab_explain_frees_elsewhere(&ex), 1);
	/* vmalloc's: the lazy purge and its kernel TLB flush */
	ab_explain_select(&ex, AB_FAMILY_VMALLOC, has_61);
	assert_int_equal(ab_explain_frees_elsewhere(&ex), 2);
}

/* the lazy purges per op of the rows notes() makes (NAN: not counted) */
static double purge_fig = NAN;

/* The notes for figures @pages, @areas (and @fb) of a row. */
static int notes(unsigned int fam, uint64_t size, double pages, double areas,
		 double fb, char *out, size_t len)
{
	struct ab_explain ex;
	double val[AB_EXPLAIN_MAX];
	FILE *f = fmemopen(out, len, "w");
	int k, n;

	ab_explain_select(&ex, fam, has_all);
	for (k = 0; k < ex.n; k++) {
		val[k] = NAN;
		if (!strcmp(ex.path[k].label, "page allocations"))
			val[k] = pages;
		if (!strcmp(ex.path[k].label, "vmap areas"))
			val[k] = areas;
		if (!strcmp(ex.path[k].label, "vmalloc fallback"))
			val[k] = fb;
		if (!strcmp(ex.path[k].label, "lazy purge"))
			val[k] = purge_fig;
	}
	memset(out, 0, len);
	n = ab_explain_notes(&ex, "row", fam, size, 4096, val, f);
	fclose(f);
	return n;
}

static void test_notes_agree_with_figures(void **state)
{
	char out[2048];

	/* one-page vmalloc_node: its page came one at a time (1.02): no
	 * note that it is not counted */
	assert_int_equal(notes(AB_FAMILY_VMALLOC, 4096, 1.02, 1.0, NAN, out,
			       sizeof(out)),
			 0);
	assert_null(strstr(out, "0.00"));
	/* 8 MiB: no page counted, two vmap areas */
	assert_int_equal(notes(AB_FAMILY_VMALLOC, 8 << 20, 0.0, 2.0, NAN, out,
			       sizeof(out)),
			 2);
	assert_non_null(strstr(
		out, "row: 0.00 page allocations per op for 2048 allocations"));
	assert_non_null(strstr(
		out,
		"row: 2.00 vmap areas per op: the object's and its page array's (2048 pages x 8 B = 16 KiB"));
	/* kvmalloc that fell back once, page array counted 4 pages */
	assert_int_equal(notes(AB_FAMILY_KVMALLOC, 8 << 20, 4.0, 2.0, 1.0, out,
			       sizeof(out)),
			 2);
	assert_non_null(strstr(out, "row: 4.00 page allocations per op"));
	/* kvmalloc served by kmalloc: nothing to say */
	assert_int_equal(notes(AB_FAMILY_KVMALLOC, 4096, 0.05, 0.0, 0.0, out,
			       sizeof(out)),
			 0);
	/* the bulk page allocator: 0 of its 1 allocation per op */
	assert_int_equal(
		notes(AB_FAMILY_PAGE, 4096, 0.0, NAN, NAN, out, sizeof(out)),
		1);
	assert_int_equal(
		notes(AB_FAMILY_PAGE, 4096, 1.0, NAN, NAN, out, sizeof(out)),
		0);
	/* two vmap areas with a page array inside a page: not explained so */
	assert_int_equal(notes(AB_FAMILY_VMALLOC, 16384, 4.0, 2.0, NAN, out,
			       sizeof(out)),
			 0);
	/* no purge on this thread: the kworker's are not counted */
	purge_fig = 0.0;
	assert_int_equal(
		notes(AB_FAMILY_VMALLOC, 4096, 1.0, 1.0, NAN, out, sizeof(out)),
		1);
	assert_non_null(
		strstr(out, "row: 0.00 lazy purges per op on this thread"));
	/* nor for kvmalloc served by kmalloc */
	assert_int_equal(notes(AB_FAMILY_KVMALLOC, 4096, 0.05, 0.0, 0.0, out,
			       sizeof(out)),
			 0);
	purge_fig = 0.02;
	assert_int_equal(
		notes(AB_FAMILY_VMALLOC, 4096, 1.0, 1.0, NAN, out, sizeof(out)),
		0);
	purge_fig = NAN;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_twice),
		cmocka_unit_test(test_explain_merges_user_event),
		cmocka_unit_test(test_refill_path),
		cmocka_unit_test(test_fallback_is_a_difference),
		cmocka_unit_test(test_frees_elsewhere),
		cmocka_unit_test(test_notes_agree_with_figures),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
