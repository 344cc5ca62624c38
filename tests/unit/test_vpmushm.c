// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_vpmushm.c - the virtual PMU read from its shared memory (struct
 * ab_vpmu_shm, common/ab_vpmu.h; lib/counters/vpmushm.c), a file here
 * ($AB_VPMU_SHM) written as the plugin's shm= writes it (vpmu/vpmu_shm.c):
 * the head's line says the mode, a virtual event counts the lines written
 * after its reset, across the ring's end too, and an interval the ring
 * wrote over is not counted. Skipped where a hardware PMU opens.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <math.h>
#include <sched.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <cmocka.h>

#include "ab_vpmu.h"
#include "counters.h"
#include "hwpmu.h"
#include "vpmu.h"
#include "vpmushm.h"

#define RING 256

static char path[64];
static struct ab_vpmu_shm *shm;

/* @text to the ring, as the plugin writes a line */
static void put(const char *text)
{
	char *ring = (char *)shm + shm->ring;
	size_t i, len = strlen(text);

	for (i = 0; i < len; i++)
		ring[(shm->head + i) % shm->size] = text[i];
	shm->head += len;
}

static int setup(void **state)
{
	int fd;

	snprintf(path, sizeof(path), "/tmp/test_vpmushm.XXXXXX");
	fd = mkstemp(path);
	assert_true(fd >= 0);
	assert_int_equal(ftruncate(fd, AB_VPMU_SHM_RING + RING), 0);
	shm = mmap(NULL, AB_VPMU_SHM_RING + RING, PROT_READ | PROT_WRITE,
		   MAP_SHARED, fd, 0);
	assert_true(shm != MAP_FAILED);
	close(fd);
	shm->size = RING;
	shm->ring = AB_VPMU_SHM_RING;
	snprintf(shm->hello, sizeof(shm->hello),
		 "# abvpmu 2 vcpus=1 model=off\n");
	put(shm->hello);
	shm->magic = AB_VPMU_SHM_MAGIC;
	unsetenv("AB_VPMU_FILE");
	setenv("AB_VPMU_SHM", path, 1);
	return 0;
}

static int teardown(void **state)
{
	unlink(path);
	return 0;
}

static void test_shm(void **state)
{
	struct ab_counters c;
	FILE *quiet = fopen("/dev/null", "w");
	cpu_set_t set;
	char buf[64];
	int i;

	assert_int_equal(ab_vpmu_present(), 1);
	assert_int_equal(ab_vpmu_shm_size(), RING);
	assert_int_equal(ab_vpmu_shm_head(), strlen(shm->hello));
	assert_int_equal(ab_vpmu_shm_read(0, buf, sizeof(buf)),
			 strlen(shm->hello));
	if (hardware_pmu())
		skip();
	CPU_ZERO(&set);
	CPU_SET(0, &set);
	sched_setaffinity(0, sizeof(set), &set);
	assert_int_equal(ab_counters_open(&c, "instructions,stores", quiet), 2);
	assert_int_equal(ab_counters_virtual(&c), 2);

	/* what was there before the start does not count */
	put("R 0 1 999 9 9 9 0 0 0 0 0 0\n");
	ab_counters_start(&c);
	put("R 0 1 100 10 20 30 0 0 0 0 0 0\n"
	    "R 0 1 5000 10 10 10 2 0 0 0 0 0\n");
	ab_counters_stop(&c);
	assert_true(fabs(c.ev[0].value - 200.0) < 1e-9);
	assert_true(fabs(c.ev[1].value - 60.0) < 1e-9);

	/* lines across the ring's end (written a few times over) */
	for (i = 0; i < 20; i++) {
		ab_counters_start(&c);
		put("R 0 1 100 10 20 30 0 0 0 0 0 0\n");
		put("R 0 2 50 5 10 15 0 0 0 0 0 0\n");
		ab_counters_stop(&c);
		assert_true(fabs(c.ev[0].value - 150.0) < 1e-9);
	}

	/* more than the ring holds since the start: not counted */
	ab_counters_start(&c);
	for (i = 0; i < 10; i++)
		put("R 0 1 100 10 20 30 0 0 0 0 0 0\n");
	ab_counters_stop(&c);
	assert_true(isnan(c.ev[0].value));
	assert_int_equal(ab_vpmu_shm_read(0, buf, sizeof(buf)), -1);

	/* and the next interval counts again */
	ab_counters_start(&c);
	put("R 0 1 100 10 20 30 0 0 0 0 0 0\n");
	ab_counters_stop(&c);
	assert_true(fabs(c.ev[0].value - 100.0) < 1e-9);
	ab_counters_close(&c);
	fclose(quiet);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_shm),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
