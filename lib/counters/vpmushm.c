// SPDX-License-Identifier: GPL-2.0-only
/*
 * vpmushm.c - the virtual PMU's shared memory, read (see vpmushm.h): the
 * ivshmem-plain device's BAR 2 mapped through sysfs, read as memory.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ab_vpmu.h"
#include "vpmushm.h"

#define PCI_DEVICES "/sys/bus/pci/devices"

static int shm_fd = -2; /* -2: not looked for yet */
static const volatile struct ab_vpmu_shm *shm;
static size_t shm_len;

/* the number in /sys/bus/pci/devices/@dev/@what ("0x1af4"), or -1 */
static long pci_attr(const char *dev, const char *what)
{
	char path[512], buf[32];
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), PCI_DEVICES "/%s/%s", dev, what);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return -1;
	buf[n] = '\0';
	return strtol(buf, NULL, 0);
}

/* the device's memory decoding on (firmware leaves it on as a rule) */
static void pci_enable(const char *dev)
{
	char path[512];
	int fd;

	if (pci_attr(dev, "enable") != 0)
		return;
	snprintf(path, sizeof(path), PCI_DEVICES "/%s/enable", dev);
	fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return;
	if (write(fd, "1", 1) != 1)
		errno = 0;
	close(fd);
}

/* @path mapped read-only if it holds the plugin's head: 0, else -1 */
static int shm_map(const char *path)
{
	const struct ab_vpmu_shm *m;
	struct stat st;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return -1;
	if (fstat(fd, &st) || st.st_size < AB_VPMU_SHM_RING + 64) {
		close(fd);
		return -1;
	}
	m = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_SHARED, fd, 0);
	if (m == MAP_FAILED) {
		close(fd);
		return -1;
	}
	if (__atomic_load_n(&m->magic, __ATOMIC_ACQUIRE) != AB_VPMU_SHM_MAGIC ||
	    m->ring < sizeof(*m) || !m->size ||
	    m->ring + m->size > (uint64_t)st.st_size) {
		munmap((void *)m, (size_t)st.st_size);
		close(fd);
		return -1;
	}
	shm = m;
	shm_len = (size_t)st.st_size;
	shm_fd = fd;
	return 0;
}

/* the ivshmem-plain device's BAR 2, if one holds the plugin's head */
static void shm_find_pci(void)
{
	char path[512];
	struct dirent *d;
	DIR *dir = opendir(PCI_DEVICES);

	if (!dir)
		return;
	while (shm_fd < 0 && (d = readdir(dir))) {
		if (d->d_name[0] == '.' ||
		    pci_attr(d->d_name, "vendor") != AB_VPMU_SHM_VENDOR ||
		    pci_attr(d->d_name, "device") != AB_VPMU_SHM_DEVICE)
			continue;
		pci_enable(d->d_name);
		snprintf(path, sizeof(path), PCI_DEVICES "/%s/resource2",
			 d->d_name);
		shm_map(path);
	}
	closedir(dir);
}

int ab_vpmu_shm_fd(void)
{
	const char *env;

	if (shm_fd != -2)
		return shm_fd;
	shm_fd = -1;
	env = getenv("AB_VPMU_SHM");
	if (env && *env)
		shm_map(env);
	else
		shm_find_pci();
	return shm_fd;
}

const char *ab_vpmu_shm_hello(void)
{
	if (ab_vpmu_shm_fd() < 0)
		return NULL;
	return (const char *)shm->hello;
}

uint64_t ab_vpmu_shm_head(void)
{
	if (ab_vpmu_shm_fd() < 0)
		return 0;
	return __atomic_load_n(&shm->head, __ATOMIC_ACQUIRE);
}

uint64_t ab_vpmu_shm_size(void)
{
	return ab_vpmu_shm_fd() < 0 ? 0 : shm->size;
}

ssize_t ab_vpmu_shm_read(uint64_t pos, char *buf, size_t len)
{
	const volatile char *ring;
	uint64_t head, size, at, done = 0, first;

	if (ab_vpmu_shm_fd() < 0) {
		errno = ENODEV;
		return -1;
	}
	ring = (const volatile char *)shm + shm->ring;
	size = shm->size;
	head = __atomic_load_n(&shm->head, __ATOMIC_ACQUIRE);
	if (pos > head || head - pos > size) {
		errno = EOVERFLOW;
		return -1;
	}
	if (len > head - pos)
		len = (size_t)(head - pos);
	while (done < len) {
		at = (pos + done) % size;
		first = len - done < size - at ? len - done : size - at;
		memcpy(buf + done, (const char *)ring + at, (size_t)first);
		done += first;
	}
	/* a writer on another vCPU may have wrapped over what was copied */
	head = __atomic_load_n(&shm->head, __ATOMIC_ACQUIRE);
	if (head - pos > size) {
		errno = EOVERFLOW;
		return -1;
	}
	return (ssize_t)len;
}
