// SPDX-License-Identifier: GPL-2.0-only
/*
 * vpmu.c - the interrupt gates handed to allocbench's virtual PMU
 * (vpmu/abvpmu.c, a QEMU TCG plugin), so that it can take each external
 * interrupt and IPI out of the region it came in, instead of the region
 * being left out of the counts.
 *
 * The plugin cannot read guest memory or registers (QEMU 7.2's plugin API
 * 1), so the addresses travel as markers (common/ab_vpmu.h): the entry
 * point of every present gate of vectors FIRST_EXTERNAL_VECTOR to
 * NR_VECTORS - 1 but the int 0x80 system call, as the IDT that SIDT names
 * holds it (Intel SDM vol. 3A, 6.14.1 "64-Bit Mode IDT": offset bits
 * 0-15, 16-31 and 32-63 of a 16-byte gate; the kernel's gate_offset()).
 * Exceptions (vectors 0-31) are not handed over: a fault or a kprobe's
 * int3 inside a region is the op's own, and such a region stays out.
 */
#include <linux/preempt.h>
#include <asm/desc.h>
#include <asm/irq_vectors.h>

#include "ab_internal.h"
#include "ab_vpmu.h"

#ifdef CONFIG_X86_64
/**
 * ab_vpmu_send_gates - hand the plugin the interrupt gates of this CPU's
 * IDT (one IDT serves every CPU on x86-64 Linux), on one CPU: about 14,000
 * marker NOPs, each an ordinary NOP without the plugin. Called before a
 * run's regions when the run asks for markers (AB_RUN_VPMU,
 * AB_LOOKUP_VPMU); the plugin keeps the last whole set. Then the range of
 * the none baseline's bodies (strategies.c), the harness's code, which the
 * plugin does not count in an allocation phase's regions.
 */
void ab_vpmu_send_gates(void)
{
	struct desc_ptr idt;
	const gate_desc *g;
	unsigned int v, n;

	preempt_disable();
	asm volatile("sidt %0" : "=m"(idt));
	g = (const gate_desc *)idt.address;
	n = min_t(unsigned int, NR_VECTORS, (idt.size + 1U) / sizeof(*g));
	ab_vpmu_mark(AB_VPMU_GATES);
	for (v = FIRST_EXTERNAL_VECTOR; v < n; v++)
		if (v != IA32_SYSCALL_VECTOR && g[v].bits.p)
			ab_vpmu_send_u64(gate_offset(&g[v]));
	ab_vpmu_mark(AB_VPMU_GATES_END);
	ab_vpmu_mark(AB_VPMU_GATES);
	ab_vpmu_send_u64((unsigned long)ab_none_text);
	ab_vpmu_send_u64((unsigned long)ab_none_text_end);
	ab_vpmu_mark(AB_VPMU_HARNESS_END);
	preempt_enable();
}
#else
void ab_vpmu_send_gates(void)
{
}
#endif
