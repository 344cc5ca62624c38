/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * hwpmu.h - what the virtual PMU's tests (test_vpmu.c, test_vpmushm.c)
 * share: whether this machine's kernel opens a hardware count, where the
 * counters never fall back to the virtual PMU.
 */
#ifndef AB_TEST_HWPMU_H
#define AB_TEST_HWPMU_H

/* struct perf_event_attr: counters.h's (libpfm4's perf_event.h), first */
#include <sys/syscall.h>
#include <unistd.h>

/* whether the kernel opens a hardware instructions count here */
static int hardware_pmu(void)
{
	struct perf_event_attr a = { .type = PERF_TYPE_HARDWARE,
				     .size = sizeof(a),
				     .config = PERF_COUNT_HW_INSTRUCTIONS,
				     .disabled = 1 };
	int fd = (int)syscall(__NR_perf_event_open, &a, 0, -1, -1, 0);

	if (fd < 0)
		return 0;
	close(fd);
	return 1;
}

#endif
