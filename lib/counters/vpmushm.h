/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * vpmushm.h - the guest's side of the virtual PMU's shared memory (struct
 * ab_vpmu_shm, common/ab_vpmu.h): the plugin's stream of lines read as
 * plain memory, with no request, no interrupt and no allocation.
 */
#ifndef AB_VPMUSHM_H
#define AB_VPMUSHM_H

#include <stdint.h>
#include <sys/types.h>

/*
 * ab_vpmu_shm_fd - a descriptor of the shared memory, mapped on the first
 * call: $AB_VPMU_SHM (a file laid out as the device's memory, as the
 * plugin's shm= writes it), else BAR 2 of the ivshmem-plain device
 * (AB_VPMU_SHM_VENDOR:AB_VPMU_SHM_DEVICE) found under
 * /sys/bus/pci/devices; -1 where there is none or it does not hold the
 * plugin's magic. Never closed (dup() it for a descriptor of one's own).
 */
int ab_vpmu_shm_fd(void);

/* ab_vpmu_shm_hello - the stream's first line ("# abvpmu 2 ..."), or NULL */
const char *ab_vpmu_shm_hello(void);

/* ab_vpmu_shm_head - the stream's length: where a reader starts */
uint64_t ab_vpmu_shm_head(void);

/* ab_vpmu_shm_size - the ring's bytes: how far back a reader can start */
uint64_t ab_vpmu_shm_size(void);

/*
 * ab_vpmu_shm_read - copies up to @len bytes of the stream from byte @pos
 * into @buf: their number (0 at the head), or -1 with errno EOVERFLOW when
 * the ring no longer holds byte @pos (more than its size was written
 * since), or ENODEV without the shared memory
 */
ssize_t ab_vpmu_shm_read(uint64_t pos, char *buf, size_t len);

#endif
