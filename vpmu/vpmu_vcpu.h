/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * vpmu_vcpu.h - the plugin's state of each vCPU (vpmu/abvpmu.c), which the
 * interrupts' take-out and the hand-offs (vpmu/vpmu_irq.c) read and change
 */
#ifndef AB_VPMU_VCPU_H
#define AB_VPMU_VCPU_H

#include <stdint.h>

#include "vpmu_model.h"

enum ev {
	EV_INSNS,
	EV_BRANCHES,
	EV_LOADS,
	EV_STORES,
	EV_IRETS,
	EV_BR_MISS,
	EV_L1D_MISS,
	EV_L1I_MISS,
	EV_LLC_MISS,
	EV_IRQS, /* interrupts taken out (not restored with the counts) */
	EV_NR
};

/* model=on: each instrumented instruction's own record */
struct insn {
	uint64_t vaddr;
	uint8_t size;
	uint8_t kind;
	uint8_t call;  /* a CALL: pushes the return stack */
	uint8_t xx;    /* a marker's XX byte */
	uint8_t first; /* the first of its block: where an interrupt enters */
	uint8_t rep;   /* a rep string instruction: counted once */
};

/*
 * model=on also keeps a profile: instructions per guest instruction
 * address, over the regions no interrupt ran in (a region's counts are
 * pending until it closes clean), written out and cleared by the dump
 * marker (AB_VPMU_DUMP) as "P <vcpu> <vaddr hex> <count>" lines and a last
 * "P <vcpu> end <dropped>" (addresses a full table could not hold).
 */
#define PROF_SIZE (1u << 16)
struct prof {
	uint64_t vaddr, committed, pending;
};

#define MAX_NEST   8
#define MAX_GATES  256
#define RING	   5 /* an interrupt's delivery: 5 loads, then 5 stores */
#define MAX_RANGES (MAX_GATES / 2)

/* an interrupt taken in the open region, until its IRETQ */
struct irq {
	uint64_t frame; /* the CPU's frame (saved RIP); 0 before the push */
	uint64_t saved[EV_NR];	 /* the region's counts when it came */
	const struct insn *prev; /* model: the instruction it came after */
};

struct vcpu {
	int open;
	int kernel; /* the open region's markers are kernel code */
	unsigned int phase;
	uint64_t c[EV_NR];
	/* model state */
	const struct insn *prev; /* the instruction executed last */
	struct predictor bp;
	uint64_t iline; /* the instruction line fetched last, + 1 */
	struct cache l1d, l1i;
	/* model=on: the profile, and the slots the open region touched */
	struct prof *prof;
	uint32_t *touched;
	uint32_t ntouched;
	uint64_t dropped;
	/* the interrupts taken in the open region, innermost last */
	struct irq irq[MAX_NEST];
	unsigned int nirq;
	int want_frame; /* the next store is the innermost entry's push */
	int in_iret;	/* an IRETQ of this region executes: its loads */
	int drop_mem;	/* a matched IRETQ's later loads: not counted */
	int ranges;	/* the open region leaves out the harness's code */
	int harness;	/* the block executing is the harness's: not counted */
	int blind;	/* opened before the flush: blocks may lack callbacks */
	/* the rep-prefixed string instruction counted last, at which count */
	uint64_t rep_vaddr, rep_mark;
	/* the last stores and loads of the open region, newest last */
	uint64_t st_ring[RING], ld_ring[RING];
	uint8_t st_cnt[RING], ld_cnt[RING];
	unsigned int st_pos, ld_pos;
	/* the gates being handed over by this vCPU */
	uint64_t rx, rxg[MAX_GATES];
	unsigned int rxbits, rxn;
	int rxbad;
};

#endif
