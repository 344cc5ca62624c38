/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * ab_compat.h - what the shared headers in common/ take from the kernel,
 * for user space: the kernel's fixed-width type names and
 * __always_inline. Included by common/ headers only outside the kernel.
 */
#ifndef AB_COMPAT_H
#define AB_COMPAT_H

#include <stdint.h>

typedef uint8_t u8;
typedef int8_t s8;
typedef uint32_t u32;
typedef int32_t s32;
typedef uint64_t u64;
typedef int64_t s64;

#ifndef __always_inline
#define __always_inline inline __attribute__((__always_inline__))
#endif

#endif
