// SPDX-License-Identifier: GPL-2.0-only
/*
 * mallockat.c - the user backend's known answer, for tests/vpmu/vpmu.sh:
 * the harness's code handed to the plugin as the user backend hands it
 * (this executable, __executable_start to etext), then 11 rounds of 16
 * malloc(64) (region 1 each) and 16 free() (region 2 each), after one
 * pair outside the regions (the PLT's lazy binding). The plugin's sums
 * over the regions must equal callgrind's inclusive instructions of
 * malloc() and free() over the same 176 calls each: the executable's
 * code (the call sites, the PLT) not counted, glibc's all.
 */
#include <stdlib.h>

#include "ab_vpmu.h"

extern const char __executable_start[], etext[];
static void *volatile objs[16];

static __attribute__((noinline)) void rounds(void)
{
	int t, i;

	for (t = 0; t < 11; t++) {
		for (i = 0; i < 16; i++) {
			ab_vpmu_mark(1);
			objs[i] = malloc(64);
			ab_vpmu_mark(1 | AB_VPMU_END);
		}
		for (i = 0; i < 16; i++) {
			ab_vpmu_mark(2);
			free(objs[i]);
			ab_vpmu_mark(2 | AB_VPMU_END);
		}
	}
}

int main(void)
{
	ab_vpmu_mark(AB_VPMU_GATES);
	ab_vpmu_send_u64((unsigned long)__executable_start);
	ab_vpmu_send_u64((unsigned long)etext);
	ab_vpmu_mark(AB_VPMU_HARNESS_END);
	objs[0] = malloc(64);
	free(objs[0]);
	rounds();
	return 0;
}
