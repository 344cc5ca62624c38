// SPDX-License-Identifier: GPL-2.0-only
/*
 * fuzz_arena.c - one fuzzing thread's memory: the mappings every address
 * a call uses comes from (read-write, read-only, none, each with a guard
 * page after it), the bytes readable or writable from an address in them,
 * and the addresses a call is given: never mapped, unaligned, read-only,
 * into the argument itself, near the end of a mapping.
 */
#define _GNU_SOURCE
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>
#include "ab_testlib.h"
#include "fuzz.h"

static void *map(size_t len, size_t guard)
{
	unsigned char *p = mmap(NULL, len + guard, PROT_READ | PROT_WRITE,
				MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED) {
		perror("fuzz: mmap");
		exit(1);
	}
	if (guard)
		mprotect(p + len, guard, PROT_NONE);
	return p;
}

void arena_init(struct arena *a)
{
	struct sigevent ev = { 0 };
	uint32_t *z;
	size_t i;

	a->rw = map(2 * PAGE, PAGE);
	a->ro = map(2 * PAGE, 0);
	mprotect(a->ro, 2 * PAGE, PROT_READ);
	a->none = map(PAGE, 0);
	mprotect(a->none, PAGE, PROT_NONE);
	a->samples = map(SAMPLES_BYTES, PAGE);
	a->sizes = map(SIZES_BYTES, PAGE);
	z = (uint32_t *)a->sizes;
	for (i = 0; i < SIZES_BYTES / 4; i++)
		z[i] = (uint32_t)(mix(i) % 300000);
	mprotect(a->sizes, SIZES_BYTES, PROT_READ);
	a->fd = ab_open();
	ev.sigev_notify = SIGEV_THREAD_ID;
	ev.sigev_signo = SIGUSR1;
	ev._sigev_un._tid = (pid_t)syscall(SYS_gettid);
	a->has_timer = !timer_create(CLOCK_MONOTONIC, &ev, &a->timer);
}

void arena_free(struct arena *a)
{
	munmap(a->rw, 3 * PAGE);
	munmap(a->ro, 2 * PAGE);
	munmap(a->none, PAGE);
	munmap(a->samples, SAMPLES_BYTES + PAGE);
	munmap(a->sizes, SIZES_BYTES + PAGE);
	if (a->fd >= 0)
		close(a->fd);
	if (a->has_timer)
		timer_delete(a->timer);
}

/* Bytes readable and writable from user address @p in @a's mappings. */
static uint64_t in(uint64_t p, const void *base, uint64_t len)
{
	uint64_t b = (uintptr_t)base;

	return p >= b && p < b + len ? b + len - p : 0;
}

uint64_t rlen(const struct arena *a, uint64_t p)
{
	uint64_t n = in(p, a->rw, 2 * PAGE);

	if (!n)
		n = in(p, a->ro, 2 * PAGE);
	if (!n)
		n = in(p, a->samples, SAMPLES_BYTES);
	if (!n)
		n = in(p, a->sizes, SIZES_BYTES);
	return n;
}

uint64_t wlen(const struct arena *a, uint64_t p)
{
	uint64_t n = in(p, a->rw, 2 * PAGE);

	return n ? n : in(p, a->samples, SAMPLES_BYTES);
}

/* x86-64 access_ok(): the range lies below TASK_SIZE_MAX (4-level). */
int access_ok_user(uint64_t p, uint64_t len)
{
	const uint64_t task_size_max = (1ULL << 47) - PAGE;

	return len <= task_size_max && p <= task_size_max - len;
}

/* An address that is never mapped, of a random kind. */
uint64_t bad_ptr(struct rng *r, const struct arena *a)
{
	switch (below(r, 7)) {
	case 0:
		return 0;
	case 1:
		return (uintptr_t)a->none + below(r, PAGE);
	case 2: /* below mmap_min_addr (65536 on Debian) */
		return 4096 + below(r, 60000);
	case 3: /* the direct map, kernel text */
		return below(r, 2) ? 0xffff888000000000ULL
				   : 0xffffffff81000000ULL;
	case 4: /* non-canonical */
		return 0x0000800000000000ULL + below(r, 1ULL << 40);
	case 5:
		return ~0ULL - below(r, 64);
	default: /* just past the top of user space */
		return (1ULL << 47) - 8 + below(r, 16);
	}
}

/* A pointer for an inner field: good, bad, read-only, or into the arg. */
uint64_t any_ptr(struct rng *r, const struct arena *a, uint64_t self,
		 uint64_t good, uint64_t span)
{
	switch (below(r, 8)) {
	case 0:
	case 1:
		return bad_ptr(r, a);
	case 2:
		return (uintptr_t)a->ro + below(r, 64);
	case 3:
		return self + below(r, 160);
	case 4: /* unaligned */
		return good + 1 + below(r, 7);
	case 5: /* near the end of the mapping */
		return good ? good + span - 8 * below(r, 4) - 1 : 0;
	default:
		return good;
	}
}

/* A random 64-bit value that is never a mapped user address. */
uint64_t safe_ptr(uint64_t v)
{
	if (v >= 65536 && v < (1ULL << 47))
		v |= 1ULL << 63;
	return v;
}
