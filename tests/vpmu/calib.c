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
 *  region 5: mov $32,%ecx, lea, xor, rep stosq: 4 instructions (a rep
 *            string instruction counts once, as hardware retires it),
 *            32 stores
 *  region 6: the same with rcx 0: 4 instructions, no access
 * then the dump marker (with model=on the plugin writes its profile: one
 * line per instruction address, their counts adding up to the regions').
 * Prints nothing; N is argv[1] (default 1000).
 *
 * With argv[2] "harness": the harness's code handed over (the range of
 * ab_h_fn, AB_VPMU_HARNESS_END), then the same code in region 1 (an
 * allocation phase: the harness's code not counted) and region 4 (a
 * lookup: counted whole): sub, call ab_h_fn (mov, ret), call ab_f_fn
 * (mov, add, ret), add: region 1 counts 7 instructions, 3 branches,
 * 1 load, 2 stores; region 4 9, 4, 2, 2.
 */
#include <stdlib.h>
#include <string.h>

#include "ab_vpmu.h"

static int buf[4];
static unsigned long qbuf[32];

/* the harness's function (its own range) and another, in known asm */
__asm__(".pushsection .text.abharness, \"ax\"\n"
	"ab_h_begin: int3\n"
	"ab_h_fn: mov %rdi, %rax\n"
	"\tret\n"
	"ab_h_end: int3\n"
	"ab_f_fn: mov %rdi, %rax\n"
	"\tadd $1, %rax\n"
	"\tret\n"
	".popsection\n");
extern const char ab_h_begin[], ab_h_end[];

static void harness(void)
{
	ab_vpmu_mark(AB_VPMU_GATES);
	ab_vpmu_send_u64((unsigned long)ab_h_begin);
	ab_vpmu_send_u64((unsigned long)ab_h_end);
	ab_vpmu_mark(AB_VPMU_HARNESS_END);
	ab_vpmu_mark(1);
	__asm__ __volatile__("sub $128, %%rsp\n"
			     "call ab_h_fn\n"
			     "call ab_f_fn\n"
			     "add $128, %%rsp\n"
			     :
			     :
			     : "rax", "rdi", "cc", "memory");
	ab_vpmu_mark(1 | AB_VPMU_END);
	ab_vpmu_mark(4);
	__asm__ __volatile__("sub $128, %%rsp\n"
			     "call ab_h_fn\n"
			     "call ab_f_fn\n"
			     "add $128, %%rsp\n"
			     :
			     :
			     : "rax", "rdi", "cc", "memory");
	ab_vpmu_mark(4 | AB_VPMU_END);
}

int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 1000;

	if (argc > 2 && !strcmp(argv[2], "harness")) {
		harness();
		return 0;
	}

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

	ab_vpmu_mark(5);
	__asm__ __volatile__("mov $32, %%ecx\n"
			     "lea %0, %%rdi\n"
			     "xor %%eax, %%eax\n"
			     "rep stosq\n"
			     : "=m"(qbuf)
			     :
			     : "rcx", "rdi", "rax", "cc");
	ab_vpmu_mark(5 | AB_VPMU_END);
	ab_vpmu_mark(6);
	__asm__ __volatile__("xor %%ecx, %%ecx\n"
			     "lea %0, %%rdi\n"
			     "xor %%eax, %%eax\n"
			     "rep stosq\n"
			     : "=m"(qbuf)
			     :
			     : "rcx", "rdi", "rax", "cc");
	ab_vpmu_mark(6 | AB_VPMU_END);
	/* model=on: the profile of the three regions out */
	ab_vpmu_mark(AB_VPMU_DUMP);
	return 0;
}
