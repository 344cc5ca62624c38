/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * vpmu_model.h - the virtual PMU's model (vpmu/vpmu_model.c), which
 * abvpmu.c feeds with model=on: LRU caches by virtual address and a
 * branch predictor, each a plain state machine; abvpmu.c decides what
 * counts (the open region, the interrupts taken out). The figures and
 * their sources are in abvpmu.c's header (MODEL).
 */
#ifndef AB_VPMU_MODEL_H
#define AB_VPMU_MODEL_H

#include <stdint.h>

/* what an instruction is, decided at translation (abvpmu.c's classify()) */
enum kind {
	K_PLAIN,
	K_COND,	    /* conditional direct branch (Jcc, LOOP, JCXZ) */
	K_DIRECT,   /* unconditional direct JMP, CALL */
	K_INDIRECT, /* indirect JMP, CALL */
	K_RET,
	K_IRET,
	K_OTHERBR, /* SYSCALL, SYSRET, INT, far transfers */
	K_MARK_BEGIN,
	K_MARK_END,
};

#define LINE_SHIFT 6 /* 64-byte lines */

/* a set-associative LRU cache of lines */
struct cache {
	unsigned int sets, ways;
	uint64_t *tag; /* sets * ways, line number + 1 (0: empty) */
	uint64_t *age;
	uint64_t clock;
};

/* @c as @bytes in @ways ways, empty: 0, or -1 out of memory */
int cache_init(struct cache *c, unsigned int bytes, unsigned int ways);

/*
 * Looks @addr's line up in @c, filling it on a miss (LRU victim): 1 on a
 * hit, 0 on a miss.
 */
int cache_access(struct cache *c, uint64_t addr);

#define BP_SIZE	 4096
#define RSB_SIZE 16

/*
 * The predictor: a bimodal table of 2-bit counters for conditional
 * branches, a branch target buffer (last target) for indirect jumps and
 * calls, a return stack for returns; each table indexed by the branch's
 * address. Zeroed is its start.
 */
struct predictor {
	uint8_t bimodal[BP_SIZE];
	uint64_t btb[BP_SIZE];
	uint64_t rsb[RSB_SIZE];
	unsigned int rsb_top;
};

/*
 * The verdict on the branch at @vaddr of @kind (enum kind; @call: it
 * pushes a return address, @next), now that the instruction at @pc runs
 * next: 1 a miss, 0 a hit or not predicted; @p learns it.
 */
int predictor_miss(struct predictor *p, unsigned int kind, int call,
		   uint64_t vaddr, uint64_t next, uint64_t pc);

#endif
