// SPDX-License-Identifier: GPL-2.0-only
/*
 * fuzz_build.c - a call built from its 64-bit seed alone (and the
 * module's INFO), so that a failure replays: its ioctl number (the three
 * known ones, with other sizes and directions, and unknown ones), its
 * argument (a valid struct, one field of it mutated, or random bytes) and
 * where the argument lives (aligned, unaligned, across the guard page,
 * read-only, unmapped).
 */
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include "ab_run.h"
#include "ab_testlib.h"
#include "fuzz.h"

const char *const cname[C_NR] = { "INFO", "RUN", "LOOKUP", "unknown" };
const char *const pname[P_NR] = { "aligned", "unaligned",
				  "across the guard page", "read-only",
				  "unmapped" };
const char *const mname[] = { "valid", "mutated", "random" };

static const struct ab_strategy_info *pick_strategy(struct rng *r)
{
	return &strat[below(r, nstrat)];
}

/* A run the module accepts (ab_run_check() agrees), small and quick. */
static void valid_run(struct rng *r, const struct arena *a, struct ab_run *run)
{
	static const uint64_t sizes[] = {
		1, 8, 64, 100, 512, 4096, 4097, 8192
	};
	const struct ab_strategy_info *si = pick_strategy(r);
	const char *why;
	int tries;

	for (tries = 0; tries < 20; tries++) {
		ab_run_init(run, si);
		if (si->params & AB_PARAM_SIZE) {
			run->obj_size = sizes[below(r, 8)];
			if (run->obj_size > si->max_size)
				run->obj_size = si->max_size;
		}
		if (si->params & AB_PARAM_ORDER)
			run->order = below(
				r, (si->max_order < 3 ? si->max_order : 3) + 1);
		run->batch = 1 + below(r, 16);
		run->trials = 1 + below(r, 4);
		run->warmup = below(r, 3);
		if ((si->params & AB_PARAM_NODE) && below(r, 2))
			run->node = __builtin_ctzll(node_mem_mask);
		if (si->params & AB_PARAM_GFP)
			run->gfp = below(r, AB_GFP_NR);
		run->flags = rnd(r) & info.run_flags & AB_RUN_FLAGS_ALL;
		if (!(si->params & AB_PARAM_CACHE))
			run->flags &= ~AB_RUN_NOMERGE;
		run->timing = below(r, AB_TIMING_NR);
		run->free_pattern = below(r, AB_FREE_NR);
		if (run->free_pattern == AB_FREE_PAIR)
			run->flags &= ~AB_RUN_REMOTE_FREE;
		if (run->flags & AB_RUN_REMOTE_FREE)
			do
				run->free_cpu = below(r, 64);
			while (!(cpu_online_mask >> run->free_cpu & 1));
		if (below(r, 4) == 0)
			run->context = 1 + below(r, AB_CTX_NR - 1);
		if (si->params & AB_PARAM_LOOKUP) {
			run->lookup_table = below(r, AB_TABLE_NR);
			run->lookup_method = below(r, AB_LOOKUP_NR);
		}
		if (run->free_pattern == AB_FREE_SHUFFLE)
			run->seed = rnd(r);
		if (si->params & AB_PARAM_ALIGN)
			run->align = 8ULL << below(r, 4);
		if (below(r, 2)) {
			run->samples_ptr = (uintptr_t)a->samples;
			run->samples_len =
				(uint64_t)run->trials *
				ab_run_samples_per_trial(run, si->flags);
		}
		if (!ab_run_check(run, &info, si, &why))
			return;
		if (tries > 10) { /* the plainest run of this strategy */
			run->context = AB_CTX_NORMAL;
			run->flags = 0;
			run->free_cpu = 0;
		}
	}
}

static void valid_info(struct rng *r, const struct arena *a, struct ab_info *in)
{
	static const uint32_t vers[] = { AB_INFO_SIZE_VER0, AB_INFO_SIZE_VER1,
					 AB_INFO_SIZE_VER2, AB_INFO_SIZE_VER3,
					 AB_INFO_SIZE_VER4 };

	memset(in, 0, sizeof(*in));
	in->size = vers[below(r, 5)];
	if (below(r, 2)) {
		in->strategies_ptr = (uintptr_t)a->samples;
		in->strategies_len = below(r, nstrat + 2);
	}
}

static void valid_lookup(struct rng *r, const struct arena *a,
			 struct ab_lookup *l)
{
	uint32_t method = below(r, AB_LOOKUP_NR);
	uint32_t table = below(r, AB_TABLE_NR);
	uint32_t nr_sizes = 1 + below(r, 256);
	const uint32_t *sizes = (const uint32_t *)a->sizes + below(r, 64);
	uint32_t trials = 1 + below(r, 8);

	ab_lookup_init(l, method, table, sizes, nr_sizes, trials);
	l->warmup = below(r, 3);
	if (below(r, 2)) {
		l->samples_ptr = (uintptr_t)a->samples;
		l->samples_len = l->trials + below(r, 3);
	}
}

/* Vary the ioctl number's size and direction bits, or the number. */
static unsigned long unknown_cmd(struct rng *r)
{
	/* type bytes the VFS answers itself for every file (fs/ioctl.c) */
	static const unsigned char vfs[] = { 0x00, 0x15, 'T', 'X', 'f', 0x94 };
	unsigned int dir = below(r, 4), size = below(r, 1 << 14), nr, type;
	size_t i;

	switch (below(r, 3)) {
	case 0: /* known number, other direction */
		nr = below(r, 4);
		if (dir == (_IOC_READ | _IOC_WRITE))
			dir = _IOC_NONE;
		return _IOC(dir, AB_IOC_MAGIC, nr, size);
	case 1: /* unknown number of allocbench's type (3: AB_IOC_CONDITION) */
		return _IOC(dir, AB_IOC_MAGIC, 4 + below(r, 252), size);
	default:
		do {
			type = below(r, 256);
			for (i = 0; i < sizeof(vfs); i++)
				if (type == vfs[i])
					type = AB_IOC_MAGIC;
		} while (type == AB_IOC_MAGIC);
		return _IOC(dir, type, below(r, 256), size);
	}
}

/* Builds call @c from its seed alone (and the module's INFO). */
void build(struct call *c, const struct arena *a)
{
	const struct ab_strategy_info *si = NULL;
	struct rng r = { c->seed };
	size_t usize, off;
	uint64_t self;
	int cmdsize;

	memset(&c->img, 0, sizeof(c->img));
	c->what[0] = 0;
	c->cls = below(&r, 10) < 2  ? C_INFO
		 : below(&r, 8) < 5 ? C_RUN
				    : C_LOOKUP;
	if (below(&r, 5) == 0)
		c->cls = C_UNKNOWN;
	c->mode = below(&r, 10) < 7 ? M_MUTATE
		  : below(&r, 3)    ? M_RANDOM
				    : M_VALID;
	c->place = below(&r, 10) < 6 ? P_ALIGNED : 1 + below(&r, P_NR - 1);
	/* where the struct goes decides what pointers into itself are */
	switch (c->place) {
	case P_UNALIGNED:
		off = 1 + below(&r, 7);
		break;
	case P_STRADDLE:
		off = 2 * PAGE - 1 - below(&r, ksizes[C_RUN] + 16);
		break;
	default:
		off = 0;
	}
	self = (uintptr_t)(c->place == P_RO ? a->ro : a->rw) + off;
	cmdsize = below(&r, 4) ? -1 : (int)below(&r, 1 << 14);
	switch (c->cls) {
	case C_INFO:
		valid_info(&r, a, &c->img.info);
		c->cmd = cmdsize < 0 ? AB_IOC_INFO
				     : _IOC(_IOC_READ | _IOC_WRITE,
					    AB_IOC_MAGIC, 0, cmdsize);
		break;
	case C_RUN:
		valid_run(&r, a, &c->img.run);
		si = &strat[c->img.run.strategy];
		c->cmd = cmdsize < 0 ? AB_IOC_RUN
				     : _IOC(_IOC_READ | _IOC_WRITE,
					    AB_IOC_MAGIC, 1, cmdsize);
		break;
	case C_LOOKUP:
		valid_lookup(&r, a, &c->img.lookup);
		c->cmd = cmdsize < 0 ? AB_IOC_LOOKUP
				     : _IOC(_IOC_READ | _IOC_WRITE,
					    AB_IOC_MAGIC, 2, cmdsize);
		break;
	default:
		c->cmd = unknown_cmd(&r);
		c->mode = M_RANDOM;
	}

	if (c->mode == M_RANDOM)
		randomize(c, &r);
	else if (c->mode == M_MUTATE)
		mutate(c, &r, a, self, si);
	else
		snprintf(c->what, sizeof(c->what), "as built");
	/* a bigger size than the struct: a zero tail, or a nonzero one */
	if (c->cls != C_UNKNOWN && c->mode != M_RANDOM &&
	    *(uint32_t *)c->img.b > ksizes[c->cls] &&
	    *(uint32_t *)c->img.b <= 2 * PAGE - 8 && below(&r, 2)) {
		usize = *(uint32_t *)c->img.b;
		c->img.b[ksizes[c->cls] + below(&r, usize - ksizes[c->cls])] =
			1 + below(&r, 255);
	}

	c->len = 2 * PAGE - off;
	switch (c->place) {
	case P_BAD:
		c->arg = bad_ptr(&r, a);
		c->len = 0;
		break;
	default:
		c->arg = self;
	}
}

/* Copies the image to where the call's argument lives. */
void place(const struct call *c, struct arena *a)
{
	if (c->place == P_BAD)
		return;
	if (c->place == P_RO) {
		mprotect(a->ro, 2 * PAGE, PROT_READ | PROT_WRITE);
		memcpy(a->ro, c->img.b, c->len);
		mprotect(a->ro, 2 * PAGE, PROT_READ);
	} else {
		memcpy((void *)(uintptr_t)c->arg, c->img.b, c->len);
	}
}
