// SPDX-License-Identifier: GPL-2.0-only
/*
 * vpmu_shm.c - the virtual PMU's synchronous channel to the guest: the
 * plugin's lines written into a file that qemu maps as an ivshmem-plain
 * device's BAR 2 (struct ab_vpmu_shm, common/ab_vpmu.h). The plugin writes
 * from the vCPU's thread while the marker executes, so the line is in the
 * guest's memory before the guest's next instruction.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ab_vpmu.h"
#include "vpmu_shm.h"

/* the shared memory's head and ring (NULL: no shm=) */
static struct ab_vpmu_shm *shm;
static char *shm_ring;

/*
 * Maps @path (made by vm-run.sh, mapped by qemu's memory-backend-file as
 * well) and lays out its head; the magic comes last, once the line
 * @hello is in.
 */
int vpmu_shm_open(const char *path, const char *hello, char *why, size_t whylen)
{
	struct stat st;
	void *m;
	int fd = open(path, O_RDWR | O_CLOEXEC);

	if (fd < 0 || fstat(fd, &st)) {
		snprintf(why, whylen, "shm=%s: %s", path, strerror(errno));
		if (fd >= 0)
			close(fd);
		return -1;
	}
	if (st.st_size < AB_VPMU_SHM_RING + 64) {
		snprintf(why, whylen, "shm=%s: %lld bytes, under %u", path,
			 (long long)st.st_size, AB_VPMU_SHM_RING + 64);
		close(fd);
		return -1;
	}
	m = mmap(NULL, (size_t)st.st_size, PROT_READ | PROT_WRITE, MAP_SHARED,
		 fd, 0);
	close(fd);
	if (m == MAP_FAILED) {
		snprintf(why, whylen, "shm=%s: mmap: %s", path,
			 strerror(errno));
		return -1;
	}
	shm = m;
	shm->magic = 0;
	shm->size = (uint64_t)st.st_size - AB_VPMU_SHM_RING;
	shm->ring = AB_VPMU_SHM_RING;
	shm->head = 0;
	snprintf(shm->hello, sizeof(shm->hello), "%.95s", hello);
	shm_ring = (char *)m + AB_VPMU_SHM_RING;
	__atomic_store_n(&shm->magic, AB_VPMU_SHM_MAGIC, __ATOMIC_RELEASE);
	return 0;
}

/* @len bytes to the shared ring, then the head that covers them */
void vpmu_shm_put(const char *line, size_t len)
{
	uint64_t head, at;
	size_t first;

	if (!shm)
		return;
	head = shm->head;
	while (len) {
		at = head % shm->size;
		first = len < shm->size - at ? len : (size_t)(shm->size - at);
		memcpy(shm_ring + at, line, first);
		line += first;
		len -= first;
		head += first;
	}
	__atomic_store_n(&shm->head, head, __ATOMIC_RELEASE);
}
