// SPDX-License-Identifier: GPL-2.0-only
/*
 * vpmu_irq.c - the plugin's (vpmu/abvpmu.c) interrupts taken out of an
 * open region, and what the module hands it over markers: the IDT's
 * gates, where interrupts enter, and the harness's code ranges, which the
 * allocation phases do not count. The rules are abvpmu.c's header's
 * ("interrupts", "the harness").
 */
#include <stdlib.h>
#include <string.h>

#include "ab_vpmu.h"
#include "vpmu_irq.h"

/* the gates the module handed over, sorted: where interrupts enter */
static uint64_t gates[MAX_GATES];
static unsigned int ngates;

/*
 * the harness's code (AB_VPMU_HARNESS_END): [lo, hi) ranges whose
 * instructions and accesses an allocation region (phases AB_VPMU_ALLOC,
 * _FREE, _PAIR) does not count: the none baseline's per-object bodies in
 * the module, the whole executable in the user backend
 */
static uint64_t hr_lo[MAX_RANGES], hr_hi[MAX_RANGES];
static unsigned int nranges;

int vpmu_in_harness(uint64_t vaddr)
{
	unsigned int i;

	for (i = 0; i < nranges; i++)
		if (vaddr >= hr_lo[i] && vaddr < hr_hi[i])
			return 1;
	return 0;
}

/* whether @vaddr is a gate the module handed over (none before it did) */
int vpmu_is_gate(uint64_t vaddr)
{
	unsigned int lo = 0, hi = ngates;

	while (lo < hi) {
		unsigned int mid = (lo + hi) / 2;

		if (gates[mid] == vaddr)
			return 1;
		if (gates[mid] < vaddr)
			lo = mid + 1;
		else
			hi = mid;
	}
	return 0;
}

/*
 * An interrupt enters the open region of @v: its counts saved, and the
 * model's last instruction, whose verdict waits for the return; or the
 * region holds a handler from now on (irets). Only a kernel region's
 * interrupts are taken out: one that comes in user mode leaves its frame
 * at the top of the CPU's entry stack, where every task's return to user
 * mode through it reads a frame too (the entry trampoline), so an IRETQ
 * there cannot say whose interrupt it ends.
 */
void vpmu_irq_enter(struct vcpu *v)
{
	struct irq *q;

	if (!v->kernel || v->nirq == MAX_NEST) {
		v->c[EV_IRETS]++;
		v->want_frame = 0;
		return;
	}
	q = &v->irq[v->nirq++];
	memcpy(q->saved, v->c, sizeof(v->c));
	q->frame = 0;
	q->prev = v->prev;
	v->prev = NULL;
	v->want_frame = 1;
}

/*
 * The IRETQ of @v loads from @vaddr: if that is an open interrupt's frame,
 * the interrupt (and any nested in it) is taken out of the region.
 */
void vpmu_irq_match(struct vcpu *v, uint64_t vaddr)
{
	unsigned int k = v->nirq;
	uint64_t n;

	while (k--) {
		if (v->irq[k].frame != vaddr)
			continue;
		n = v->c[EV_IRQS] + 1;
		memcpy(v->c, v->irq[k].saved, sizeof(v->c));
		v->c[EV_IRQS] = n;
		/* the model judges the interrupted branch by where it resumes
		 */
		v->prev = v->irq[k].prev;
		v->nirq = k;
		v->in_iret = 0;
		v->drop_mem = 1;
		return;
	}
}

/*
 * The innermost open interrupt's entry stores at @vaddr first (its push of
 * the vector): the CPU's frame is 8 bytes above. The CPU's delivery came
 * before the gate's first instruction, inside the region: QEMU's
 * do_interrupt64() reads the gate (3 loads, 4 bytes apart) and the code
 * segment's descriptor (2), then pushes SS, RSP, RFLAGS, CS and RIP
 * (5 stores, RIP at the frame). Where the region's last accesses are
 * those, they are taken out with the interrupt (from its saved counts).
 */
void vpmu_irq_frame(struct vcpu *v, uint64_t vaddr)
{
	struct irq *q = &v->irq[v->nirq - 1];
	uint64_t f = vaddr + 8, l[RING];
	unsigned int i, k;

	q->frame = f;
	v->want_frame = 0;
	if (v->st_pos < RING || v->ld_pos < RING)
		return;
	for (i = 0; i < RING; i++) { /* i: newest first */
		k = (v->st_pos - 1 - i) % RING;
		if (v->st_ring[k] != f + 8 * i || !v->st_cnt[k])
			return;
		k = (v->ld_pos - 1 - i) % RING;
		if (!v->ld_cnt[k])
			return;
		l[i] = v->ld_ring[k];
	}
	/* newest first: CS descriptor + 4, + 0; the gate + 8, + 4, + 0 */
	if (l[1] + 4 != l[0] || l[4] + 4 != l[3] || l[3] + 4 != l[2])
		return;
	if (q->saved[EV_LOADS] < RING || q->saved[EV_STORES] < RING)
		return;
	q->saved[EV_LOADS] -= RING;
	q->saved[EV_STORES] -= RING;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/*
 * The gates' hand-off (AB_VPMU_GATES ... AB_VPMU_GATES_END), bit by bit on
 * the vCPU that sends it: 1 while it is one, 0 for another marker.
 */
int vpmu_gates_rx(struct vcpu *v, unsigned int xx)
{
	switch (xx) {
	case AB_VPMU_GATES:
		v->rx = 0;
		v->rxbits = v->rxn = 0;
		v->rxbad = 0;
		return 1;
	case AB_VPMU_BIT0:
	case AB_VPMU_BIT1:
		v->rx = v->rx << 1 | (xx == AB_VPMU_BIT1);
		v->rxbits++;
		return 1;
	case AB_VPMU_GATE:
		if (v->rxbits != 64 || v->rxn == MAX_GATES)
			v->rxbad = 1;
		else
			v->rxg[v->rxn++] = v->rx;
		v->rx = 0;
		v->rxbits = 0;
		return 1;
	case AB_VPMU_HARNESS_END:
		if (!v->rxbad && !v->rxbits && !(v->rxn & 1)) {
			unsigned int i;

			for (i = 0; i < v->rxn / 2; i++) {
				hr_lo[i] = v->rxg[2 * i];
				hr_hi[i] = v->rxg[2 * i + 1];
			}
			nranges = v->rxn / 2;
		}
		v->rxbad = 1;
		return 1;
	case AB_VPMU_GATES_END:
		if (!v->rxbad && !v->rxbits && v->rxn) {
			memcpy(gates, v->rxg, v->rxn * sizeof(gates[0]));
			ngates = v->rxn;
			qsort(gates, ngates, sizeof(gates[0]), cmp_u64);
		}
		v->rxbad = 1;
		return 1;
	}
	return 0;
}

int vpmu_has_ranges(void)
{
	return nranges != 0;
}
