// SPDX-License-Identifier: GPL-2.0-only
/*
 * vpmucat.c - the virtual PMU's stream of lines, for tests/kernel/vpmu.sh
 * in the guest: from the ivshmem device's memory (lib/counters/vpmushm.c)
 * or, where the guest has none (vm-run.sh VPMU_CHANNEL=9p), the counts
 * file (AB_VPMU_FILE).
 *
 *	vpmucat -p	the stream's length in bytes: where a later read starts
 *	vpmucat [POS]	the stream from byte POS (default: the oldest the ring
 *			still holds) to its end
 *
 * Exits 1 with a line on stderr when there is no stream, or POS is gone.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ab_vpmu.h"
#include "vpmu.h"
#include "vpmushm.h"

static int cat_shm(const char *arg)
{
	uint64_t head = ab_vpmu_shm_head(), pos, size = ab_vpmu_shm_size();
	char buf[65536];
	ssize_t n;

	if (arg && !strcmp(arg, "-p")) {
		printf("%" PRIu64 "\n", head);
		return 0;
	}
	pos = arg ? strtoull(arg, NULL, 10) : head > size ? head - size : 0;
	while ((n = ab_vpmu_shm_read(pos, buf, sizeof(buf))) > 0) {
		fwrite(buf, 1, (size_t)n, stdout);
		pos += (uint64_t)n;
	}
	if (n < 0) {
		fprintf(stderr, "vpmucat: byte %" PRIu64 ": %s\n", pos,
			strerror(errno));
		return 1;
	}
	return 0;
}

static int cat_file(const char *arg)
{
	const char *path = getenv("AB_VPMU_FILE");
	char buf[65536];
	off_t pos = 0;
	ssize_t n;
	int fd;

	fd = open(path && *path ? path : AB_VPMU_FILE, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		fprintf(stderr,
			"vpmucat: no virtual PMU here (no ivshmem device with its memory, no %s)\n",
			path && *path ? path : AB_VPMU_FILE);
		return 1;
	}
	if (arg && !strcmp(arg, "-p")) {
		printf("%lld\n", (long long)lseek(fd, 0, SEEK_END));
		return 0;
	}
	if (arg)
		pos = (off_t)strtoll(arg, NULL, 10);
	while ((n = pread(fd, buf, sizeof(buf), pos)) > 0) {
		fwrite(buf, 1, (size_t)n, stdout);
		pos += n;
	}
	close(fd);
	return 0;
}

int main(int argc, char **argv)
{
	const char *arg = argc > 1 ? argv[1] : NULL;
	const char *file = getenv("AB_VPMU_FILE");

	if (!(file && *file) && ab_vpmu_shm_fd() >= 0)
		return cat_shm(arg);
	return cat_file(arg);
}
