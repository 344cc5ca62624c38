// SPDX-License-Identifier: GPL-2.0-only
/*
 * calib.c - known loops between virtual-PMU markers (common/ab_vpmu.h),
 * run under qemu-x86_64 with the plugin by tests/vpmu/vpmu.sh, which knows
 * what each region must count (the instructions are written here in asm,
 * so the compiler cannot change them):
 *  region 1: mov $N,%ecx; 1: dec %ecx; jnz 1b
 *            1 + 2N instructions, N branches, no memory access
 *  region 2: a loop of N iterations of a load, a store, an add to memory
 *            (a load and a store), dec, jnz: 2 + 5N instructions,
 *            N branches, 2N loads, 2N stores
 *  region 3: mov, jmp, then N calls of a function that pushes, pops and
 *            returns (call, push, pop, ret, dec, jnz): 2 + 6N
 *            instructions, 1 + 3N branches (jmp; call, ret, jnz),
 *            2N loads (pop, ret), 2N stores (call, push)
 * then the dump marker (with model=on the plugin writes its profile: one
 * line per instruction address, their counts adding up to the regions').
 * Prints nothing; N is argv[1] (default 1000).
 */
#include <stdlib.h>

#include "ab_vpmu.h"

static int buf[4];

int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 1000;

	ab_vpmu_mark(1);
	__asm__ __volatile__("mov %0, %%rcx\n"
			     "1: dec %%rcx\n"
			     "jnz 1b\n"
			     :
			     : "r"(n)
			     : "rcx", "cc");
	ab_vpmu_mark(1 | AB_VPMU_END);

	ab_vpmu_mark(2);
	__asm__ __volatile__("mov %0, %%rcx\n"
			     "lea %1, %%rsi\n"
			     "1: mov (%%rsi), %%eax\n"
			     "mov %%eax, 4(%%rsi)\n"
			     "add %%eax, 8(%%rsi)\n"
			     "dec %%rcx\n"
			     "jnz 1b\n"
			     :
			     : "r"(n), "m"(buf)
			     : "rcx", "rsi", "rax", "cc", "memory");
	ab_vpmu_mark(2 | AB_VPMU_END);

	ab_vpmu_mark(3);
	__asm__ __volatile__("mov %0, %%rcx\n"
			     "jmp 2f\n"
			     "3: push %%rax\n"
			     "pop %%rax\n"
			     "ret\n"
			     "2: call 3b\n"
			     "dec %%rcx\n"
			     "jnz 2b\n"
			     :
			     : "r"(n)
			     : "rcx", "rax", "cc", "memory");
	ab_vpmu_mark(3 | AB_VPMU_END);
	/* model=on: the profile of the three regions out */
	ab_vpmu_mark(AB_VPMU_DUMP);
	return 0;
}
