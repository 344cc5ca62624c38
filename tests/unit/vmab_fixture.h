/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * vmab_fixture.h - what the tests of kernels compared boot by boot share
 * (test_vmab.c, test_vmab_success.c): a boot's result, a row's verdict,
 * the boots' results freed.
 */
#ifndef AB_TEST_VMAB_FIXTURE_H
#define AB_TEST_VMAB_FIXTURE_H

#include <stdio.h>
#include <string.h>

#include "jsonout.h"
#include "vmab.h"

/* The start of a boot's result whose one row is kmalloc 4096, up to its
 * counters: alloc 100 ns/op, free 50 */
#define AB_TEST_KMALLOC_4K                                                      \
	"{\"results\": ["                                                       \
	"{\"kind\": \"alloc\", \"label\": \"kmalloc\", \"object_bytes\": 4096," \
	" \"cpu_start\": 0, \"node\": -1, \"free_cpu\": null,"                  \
	" \"alloc\": {\"ns\": {\"median\": 100}}, \"free\": {\"ns\": {\"median\": 50}},"

/* A boot's result: one alloc row and one lookup row. */
static inline json_object *result(double alloc, double freed, double lookup,
				  double pages, int cpu)
{
	char text[1024];

	snprintf(
		text, sizeof(text),
		"{\"results\": ["
		"{\"kind\": \"alloc\", \"label\": \"kmalloc\", \"object_bytes\": 4096,"
		" \"cpu_start\": %d, \"node\": -1, \"free_cpu\": null,"
		" \"alloc\": {\"ns\": {\"median\": %g}}, \"free\": {\"ns\": {\"median\": %g}},"
		" \"counters\": [{\"event\": \"kmem:mm_page_alloc\", \"per_op\": %g}]},"
		"{\"kind\": \"lookup\", \"method\": \"fls\", \"table\": \"kmalloc\","
		" \"sizes\": \"32\", \"median_ns\": %g}]}",
		cpu, alloc, freed, pages, lookup);
	return json_tokener_parse(text);
}

static inline const char *verdict(json_object *r)
{
	return json_object_get_string(ab_json_get(r, "verdict"));
}

/* @n good boots of 2 kernels, alternating as vm boots them, no result */
static inline void good_boots(struct ab_vm_boot *b, int n)
{
	int i;

	memset(b, 0, (size_t)n * sizeof(*b));
	for (i = 0; i < n; i++) {
		b[i].kernel = ab_vm_kernel_of(i, 2);
		b[i].round = i / 2 + 1;
		b[i].status = AB_VM_OK;
	}
}

static inline void free_boots(struct ab_vm_boot *b, int n)
{
	int i;

	for (i = 0; i < n; i++)
		json_object_put(b[i].result);
}

#endif
