/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * vpmu_irq.h - interrupts taken out of a region, and the gates' and the
 * harness's hand-offs (vpmu/vpmu_irq.c)
 */
#ifndef AB_VPMU_IRQ_H
#define AB_VPMU_IRQ_H

#include <stdint.h>

#include "vpmu_vcpu.h"

/* vpmu_is_gate - whether a block at @vaddr is an interrupt's entry */
int vpmu_is_gate(uint64_t vaddr);

/* vpmu_in_harness - whether @vaddr is in the harness's code ranges */
int vpmu_in_harness(uint64_t vaddr);

/* vpmu_has_ranges - whether the harness's ranges were handed over */
int vpmu_has_ranges(void);

/* vpmu_irq_enter - an interrupt enters @v's open region */
void vpmu_irq_enter(struct vcpu *v);

/* vpmu_irq_match - @v's IRETQ loads @vaddr: ends the interrupt it frames */
void vpmu_irq_match(struct vcpu *v, uint64_t vaddr);

/* vpmu_irq_frame - the innermost interrupt's entry stores at @vaddr first */
void vpmu_irq_frame(struct vcpu *v, uint64_t vaddr);

/*
 * vpmu_gates_rx - the marker @xx on @v, if it is one of the hand-offs'
 * (AB_VPMU_GATES ... AB_VPMU_GATES_END): 1, else 0
 */
int vpmu_gates_rx(struct vcpu *v, unsigned int xx);

#endif
