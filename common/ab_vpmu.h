/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ab_vpmu.h - the region markers of allocbench's virtual PMU (vpmu/abvpmu.c,
 * a QEMU TCG plugin), for the module, the user backend and the tests.
 *
 * A marker is the 8-byte NOP nopl 0x564d50XX(%rax,%rax,1), bytes
 * 0f 1f 84 00 XX 50 4d 56 ("VMP" in the displacement's high bytes), which
 * the plugin recognises when it translates the code: XX's bit 7 ends a
 * region, its low 7 bits are the region's phase (enum ab_vpmu_phase). On
 * hardware and under KVM it is an ordinary NOP (Intel SDM vol. 2B, NOP:
 * "0F 1F /0 NOP r/m32"), one instruction that the hardware counts; the
 * module emits markers only in a run that asks for them (AB_RUN_VPMU).
 */
#ifndef AB_VPMU_H
#define AB_VPMU_H

/* Phase ids of the regions (XX's low 7 bits) */
enum ab_vpmu_phase {
	AB_VPMU_ALLOC = 1,  /* an alloc phase, or one allocation */
	AB_VPMU_FREE = 2,   /* a free phase, or one free */
	AB_VPMU_PAIR = 3,   /* AB_FREE_PAIR, batch timing: alloc+free pairs */
	AB_VPMU_LOOKUP = 4, /* AB_IOC_LOOKUP's timed loop */
	/*
	 * no region: the interrupt gates handed to the plugin (kmod/vpmu.c):
	 * GATES, then per gate address 64 BIT0/BIT1 markers, most
	 * significant bit first, and GATE; GATES_END makes the set the
	 * plugin's (an incomplete one is dropped)
	 */
	AB_VPMU_GATES = 0x78,
	AB_VPMU_BIT0 = 0x79,
	AB_VPMU_BIT1 = 0x7a,
	AB_VPMU_GATE = 0x7b,
	AB_VPMU_GATES_END = 0x7c,
	/*
	 * no region: GATES, addresses as for the gates, then HARNESS_END:
	 * the addresses are [lo, hi) pairs, the harness's own code, which
	 * the regions of phases ALLOC, FREE and PAIR do not count (the none
	 * baseline's per-object bodies; the user backend's executable)
	 */
	AB_VPMU_HARNESS_END = 0x77,
	AB_VPMU_DUMP = 0x7d, /* no region: the plugin writes out its profile */
	AB_VPMU_TEST = 0x7e /* tests/vpmu/ calibration loops */
};

#define AB_VPMU_END 0x80

#ifdef __KERNEL__
#include <linux/compiler.h>
#else
#include "ab_compat.h"
#endif

/**
 * ab_vpmu_mark - one marker: begins or ends (@xx | AB_VPMU_END) a region
 * @xx: enum ab_vpmu_phase, a compile-time constant once inlined (the "i"
 *      constraint puts it in the instruction, as jump labels put their
 *      keys); a memory clobber, so no access moves across it
 *
 * Empty on other architectures, and in an unoptimised user-space build
 * (where @xx is not a constant): no region is marked there.
 */
static __always_inline void ab_vpmu_mark(const unsigned int xx)
{
#if defined(__x86_64__) && (defined(__KERNEL__) || defined(__OPTIMIZE__))
	__asm__ __volatile__(".byte 0x0f,0x1f,0x84,0x00,%c0,0x50,0x4d,0x56"
			     : : "i"(xx) : "memory");
#else
	__asm__ __volatile__("" : : : "memory");
#endif
}

/**
 * ab_vpmu_send_u64 - @v to the plugin: 64 BIT0/BIT1 markers, most
 * significant bit first, then GATE (between GATES and GATES_END or
 * HARNESS_END; see enum ab_vpmu_phase)
 * @v: a gate's or a harness range's address
 */
static inline void ab_vpmu_send_u64(unsigned long long v)
{
	int i;

	for (i = 63; i >= 0; i--) {
		if ((v >> i) & 1)
			ab_vpmu_mark(AB_VPMU_BIT1);
		else
			ab_vpmu_mark(AB_VPMU_BIT0);
	}
	ab_vpmu_mark(AB_VPMU_GATE);
}

#ifndef __KERNEL__
/*
 * The channel the plugin's lines reach the guest by (vm-run.sh): a file of
 * AB_VPMU_SHM_SIZE bytes on the host, which qemu maps as an ivshmem-plain
 * PCI device's BAR 2 (vendor AB_VPMU_SHM_VENDOR, device AB_VPMU_SHM_DEVICE)
 * and the plugin maps too (shm=FILE). The plugin writes each line from the
 * vCPU's thread while the marker executes, so the guest reads it as plain
 * memory before its next instruction: no interrupt, no request, nothing
 * allocated, nothing timed by the host. At offset 0 struct ab_vpmu_shm;
 * from @ring on, a ring of @size bytes holding the last @size bytes of the
 * stream (byte N of the stream at @ring + N % @size). @head, the stream's
 * length, is stored after the bytes it covers.
 */
#define AB_VPMU_SHM_MAGIC  0x316d68737576706dULL /* "mpvushm1" */
#define AB_VPMU_SHM_SIZE   (16u << 20)
#define AB_VPMU_SHM_RING   4096u
#define AB_VPMU_SHM_VENDOR 0x1af4
#define AB_VPMU_SHM_DEVICE 0x1110

/**
 * struct ab_vpmu_shm - the head of the shared memory
 * @magic: AB_VPMU_SHM_MAGIC, written last: the rest is valid
 * @size:  the ring's bytes
 * @ring:  the ring's offset from this struct (AB_VPMU_SHM_RING)
 * @head:  the bytes written to the stream since the start
 * @hello: the stream's first line ("# abvpmu 2 vcpus=N model=..."), kept
 *         here when the ring has wrapped over it
 */
struct ab_vpmu_shm {
	uint64_t magic;
	uint64_t size;
	uint64_t ring;
	uint64_t head;
	char hello[96];
};
#endif

#endif
