// SPDX-License-Identifier: GPL-2.0-only
/*
 * vpmu_insn.c - what the plugin (vpmu/abvpmu.c) reads off an x86-64
 * instruction's bytes when a block is translated: its kind, and whether
 * it is a rep-prefixed string instruction
 */
#include <string.h>

#include "ab_vpmu.h"
#include "vpmu_insn.h"

/*
 * Classifies the instruction @p of @len bytes (x86-64, Intel SDM vol. 2
 * opcode maps ): legacy prefixes and a REX prefix skipped, then the
 * one- or two-byte opcode. *@call is set for CALLs.
 */
enum kind vpmu_classify(const uint8_t *p, size_t len, int *call)
{
	size_t i = 0;
	uint8_t op, reg;

	*call = 0;
	if (len == 8 && p[0] == 0x0f && p[1] == 0x1f && p[2] == 0x84 &&
	    p[3] == 0x00 && p[5] == 0x50 && p[6] == 0x4d && p[7] == 0x56)
		return p[4] & AB_VPMU_END ? K_MARK_END : K_MARK_BEGIN;
	while (i < len &&
	       strchr("\x26\x2e\x36\x3e\x64\x65\x66\x67\xf0\xf2\xf3", p[i]) &&
	       p[i])
		i++;
	if (i < len && (p[i] & 0xf0) == 0x40)
		i++;
	if (i >= len)
		return K_PLAIN;
	op = p[i];
	if ((op >= 0x70 && op <= 0x7f) || (op >= 0xe0 && op <= 0xe3))
		return K_COND;
	switch (op) {
	case 0xe8:
		*call = 1;
		return K_DIRECT;
	case 0xe9:
	case 0xeb:
		return K_DIRECT;
	case 0xc2:
	case 0xc3:
		return K_RET;
	case 0xcf:
		return K_IRET;
	case 0xca:
	case 0xcb:
	case 0xcc:
	case 0xcd:
	case 0xce:
	case 0x9a:
	case 0xea:
		return K_OTHERBR;
	case 0x0f:
		if (i + 1 >= len)
			return K_PLAIN;
		if (p[i + 1] >= 0x80 && p[i + 1] <= 0x8f)
			return K_COND;
		if (p[i + 1] == 0x05 || p[i + 1] == 0x07 || p[i + 1] == 0x34 ||
		    p[i + 1] == 0x35)
			return K_OTHERBR;
		return K_PLAIN;
	case 0xff:
		if (i + 1 >= len)
			return K_PLAIN;
		reg = (p[i + 1] >> 3) & 7;
		if (reg == 2 || reg == 3)
			*call = 1;
		if (reg == 2 || reg == 4)
			return K_INDIRECT;
		if (reg == 3 || reg == 5)
			return K_OTHERBR;
		return K_PLAIN;
	}
	return K_PLAIN;
}

/*
 * A rep-prefixed string instruction (F2 or F3 before MOVS, CMPS, STOS,
 * LODS, SCAS, INS or OUTS): TCG executes it once per iteration, and once
 * more to find rCX zero, as a block of its own that jumps to itself.
 */
int vpmu_is_rep(const uint8_t *p, size_t len)
{
	size_t i = 0;
	int rep = 0;
	uint8_t op;

	while (i < len &&
	       strchr("\x26\x2e\x36\x3e\x64\x65\x66\x67\xf0\xf2\xf3", p[i]) &&
	       p[i]) {
		rep |= p[i] == 0xf2 || p[i] == 0xf3;
		i++;
	}
	if (i < len && (p[i] & 0xf0) == 0x40)
		i++;
	if (!rep || i >= len)
		return 0;
	op = p[i];
	return (op >= 0xa4 && op <= 0xa7) || (op >= 0xaa && op <= 0xaf) ||
	       (op >= 0x6c && op <= 0x6f);
}
