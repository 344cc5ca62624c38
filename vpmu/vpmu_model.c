// SPDX-License-Identifier: GPL-2.0-only
/*
 * vpmu_model.c - the virtual PMU's caches and branch predictor (see
 * vpmu_model.h; the figures and their sources in abvpmu.c's header).
 */
#include <stddef.h>
#include <stdlib.h>

#include "vpmu_model.h"

int cache_init(struct cache *c, unsigned int bytes, unsigned int ways)
{
	c->ways = ways;
	c->sets = bytes >> LINE_SHIFT;
	c->sets /= ways;
	c->tag = calloc((size_t)c->sets * ways, sizeof(*c->tag));
	c->age = calloc((size_t)c->sets * ways, sizeof(*c->age));
	return c->tag && c->age ? 0 : -1;
}

int cache_access(struct cache *c, uint64_t addr)
{
	uint64_t line = addr >> LINE_SHIFT;
	size_t base = (size_t)(line % c->sets) * c->ways;
	unsigned int w, victim = 0;

	c->clock++;
	for (w = 0; w < c->ways; w++) {
		if (c->tag[base + w] == line + 1) {
			c->age[base + w] = c->clock;
			return 1;
		}
		if (c->age[base + w] < c->age[base + victim])
			victim = w;
	}
	c->tag[base + victim] = line + 1;
	c->age[base + victim] = c->clock;
	return 0;
}

int predictor_miss(struct predictor *p, unsigned int kind, int call,
		   uint64_t vaddr, uint64_t next, uint64_t pc)
{
	unsigned int i = (unsigned int)(vaddr % BP_SIZE);
	int miss = 0, taken;

	switch (kind) {
	case K_COND:
		taken = pc != next;
		miss = (p->bimodal[i] >= 2) != taken;
		if (taken && p->bimodal[i] < 3)
			p->bimodal[i]++;
		else if (!taken && p->bimodal[i] > 0)
			p->bimodal[i]--;
		break;
	case K_INDIRECT:
		miss = p->btb[i] != pc;
		p->btb[i] = pc;
		break;
	case K_RET:
		p->rsb_top = (p->rsb_top + RSB_SIZE - 1) % RSB_SIZE;
		miss = p->rsb[p->rsb_top] != pc;
		break;
	}
	if (call) {
		p->rsb[p->rsb_top] = next;
		p->rsb_top = (p->rsb_top + 1) % RSB_SIZE;
	}
	return miss;
}
