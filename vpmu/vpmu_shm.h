/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * vpmu_shm.h - the plugin's shared-memory channel (vpmu/vpmu_shm.c)
 */
#ifndef AB_VPMU_SHM_PLUGIN_H
#define AB_VPMU_SHM_PLUGIN_H

#include <stddef.h>

/*
 * vpmu_shm_open - maps @path and lays out struct ab_vpmu_shm with @hello
 * as its first line: 0, or -1 with the reason in @why
 */
int vpmu_shm_open(const char *path, const char *hello, char *why,
		  size_t whylen);

/* vpmu_shm_put - @len bytes of @line to the ring (nothing without shm=) */
void vpmu_shm_put(const char *line, size_t len);

#endif
