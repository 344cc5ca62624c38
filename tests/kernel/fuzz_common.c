// SPDX-License-Identifier: GPL-2.0-only
/*
 * fuzz_common.c - the fuzzer's state shared by its files (the statistics
 * mapped in every process, the module's INFO, the machine's CPUs and
 * nodes, the options the children inherit) and its small helpers: INFO
 * loaded, a sysfs list read, a nap, a TAP line.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "ab_testlib.h"
#include "fuzz.h"

struct stats *st;
struct ab_info info;
struct ab_strategy_info strat[MAX_STRAT];
unsigned int nstrat;
uint64_t cpu_online_mask, node_mem_mask;
int shared_fd = -1;
volatile int stop_storm;
int is_child;
uint64_t max_batch;
unsigned int budget_mb = 64;

const size_t ksizes[C_NR] = { sizeof(struct ab_info), sizeof(struct ab_run),
			      sizeof(struct ab_lookup), 0 };

int load_info(void)
{
	if (ab_info_load(shared_fd, &info, strat, MAX_STRAT))
		return -1;
	nstrat =
		info.nr_strategies < MAX_STRAT ? info.nr_strategies : MAX_STRAT;
	return 0;
}

uint64_t read_mask(const char *path)
{
	char buf[256], *s = buf;
	uint64_t m = 0;
	unsigned long lo, hi;
	FILE *f = fopen(path, "r");

	if (!f || !fgets(buf, sizeof(buf), f)) {
		if (f)
			fclose(f);
		return 1;
	}
	fclose(f);
	while (sscanf(s, "%lu", &lo) == 1) {
		hi = lo;
		s += strspn(s, "0123456789");
		if (*s == '-')
			hi = strtoul(s + 1, &s, 10);
		for (; lo <= hi && lo < 64; lo++)
			m |= 1ULL << lo;
		if (*s != ',')
			break;
		s++;
	}
	return m;
}

void nap_us(uint64_t us)
{
	struct timespec ts = { (time_t)(us / 1000000),
			       (long)(us % 1000000) * 1000 };

	nanosleep(&ts, NULL);
}

int tap(int ok, const char *fmt, ...)
{
	va_list ap;

	printf("%s - fuzz: ", ok ? "ok" : "not ok");
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	return ok ? 0 : 1;
}
