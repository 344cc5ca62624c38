/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * vpmu_insn.h - an instruction's kind and rep prefix (vpmu/vpmu_insn.c)
 */
#ifndef AB_VPMU_INSN_H
#define AB_VPMU_INSN_H

#include <stddef.h>
#include <stdint.h>

#include "vpmu_model.h"

/*
 * vpmu_classify - the kind of the instruction @p of @len bytes (a marker,
 * a branch of some kind, or plain); *@call set for CALLs
 */
enum kind vpmu_classify(const uint8_t *p, size_t len, int *call);

/* vpmu_is_rep - whether @p is a rep-prefixed string instruction */
int vpmu_is_rep(const uint8_t *p, size_t len);

#endif
