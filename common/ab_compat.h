/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * ab_compat.h - what the shared headers in common/ take from the kernel,
 * for user space: the kernel's fixed-width type names, bool, NULL and
 * size_t, likely()/unlikely() and __always_inline (glibc's <sys/cdefs.h>
 * has it). Included by the common/ headers only outside the kernel, so it
 * lives beside them.
 */
#ifndef AB_COMPAT_H
#define AB_COMPAT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/cdefs.h>

typedef uint8_t u8;
typedef int8_t s8;
typedef uint32_t u32;
typedef int32_t s32;
typedef uint64_t u64;
typedef int64_t s64;

#define likely(x) __builtin_expect(!!(x), 1)
#define unlikely(x) __builtin_expect(!!(x), 0)

#endif
