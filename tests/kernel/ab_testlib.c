// SPDX-License-Identifier: GPL-2.0-only
/*
 * ab_testlib.c - the device, its ioctls, default requests, the budget
 * parameter and /proc/meminfo for the in-guest test programs (see
 * ab_testlib.h).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>
#include "ab_testlib.h"

int ab_open(void)
{
	return open(AB_DEV_PATH, O_RDWR);
}

int ab_ioctl(int fd, unsigned long cmd, void *arg)
{
	return ioctl(fd, cmd, arg) ? errno : 0;
}

int ab_info_load(int fd, struct ab_info *info, struct ab_strategy_info *strat,
		 uint32_t len)
{
	memset(info, 0, sizeof(*info));
	info->size = sizeof(*info);
	info->strategies_len = len;
	info->strategies_ptr = (uintptr_t)strat;
	return ab_ioctl(fd, AB_IOC_INFO, info);
}

int ab_outstanding(int fd, uint64_t *n)
{
	struct ab_info i = { .size = sizeof(i) };
	int err = ab_ioctl(fd, AB_IOC_INFO, &i);

	if (!err)
		*n = i.outstanding;
	return err;
}

const struct ab_strategy_info *
ab_strategy_named(const struct ab_strategy_info *strat, unsigned int n,
		  const char *name)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		if (!strcmp(strat[i].name, name))
			return &strat[i];
	return NULL;
}

void ab_run_init(struct ab_run *r, const struct ab_strategy_info *s)
{
	memset(r, 0, sizeof(*r));
	r->size = sizeof(*r);
	r->strategy = s->id;
	r->batch = 2;
	r->trials = 2;
	r->node = -1;
	if (s->params & AB_PARAM_SIZE)
		r->obj_size = 64;
	/* a mempool's reserve: room for the batches the tests hold */
	if (s->params & AB_PARAM_POOL)
		r->pool_min = 256;
}

void ab_lookup_init(struct ab_lookup *l, uint32_t method, uint32_t table,
		    const uint32_t *sizes, uint32_t nr_sizes, uint32_t trials)
{
	memset(l, 0, sizeof(*l));
	l->size = sizeof(*l);
	l->method = method;
	l->table = table;
	l->nr_sizes = nr_sizes;
	l->sizes_ptr = (uintptr_t)sizes;
	l->trials = trials;
}

int ab_budget_write(const char *mb)
{
	int fd = open(AB_BUDGET_PARAM, O_WRONLY);
	size_t len = strlen(mb);
	ssize_t n;
	int err = 0;

	if (fd < 0)
		return -1;
	n = write(fd, mb, len);
	if (n < 0)
		err = errno;
	else if ((size_t)n != len)
		err = EIO;
	close(fd);
	return err;
}

void ab_budget_read(char *buf, size_t len)
{
	FILE *f = fopen(AB_BUDGET_PARAM, "r");

	snprintf(buf, len, "0");
	if (f) {
		if (!fgets(buf, len, f))
			snprintf(buf, len, "0");
		buf[strcspn(buf, "\n")] = 0;
		fclose(f);
	}
}

long ab_meminfo_kb(const char *key)
{
	char line[128];
	long v = -1;
	size_t n = strlen(key);
	FILE *f = fopen("/proc/meminfo", "r");

	while (f && fgets(line, sizeof(line), f))
		if (!strncmp(line, key, n) && line[n] == ':')
			v = strtol(line + n + 1, NULL, 10);
	if (f)
		fclose(f);
	return v;
}

double ab_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}
