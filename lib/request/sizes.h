/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * sizes.h - sequences of request sizes for `allocbench lookup`: a list, a
 * distribution, or a file (plain numbers, or the text of the ftrace
 * kmem:kmalloc event with its bytes_req= fields, so a real workload's size
 * mix can be replayed).
 */
#ifndef AB_SIZES_H
#define AB_SIZES_H

#include <stddef.h>
#include <stdint.h>

/* Most sizes ab_sizes_file() reads: one pass of AB_IOC_LOOKUP, plus one. */
#define AB_SIZES_FILE_MAX (1U << 20)

/*
 * ab_sizes_dist - @n sizes from @spec: "const:N", "uniform:A-B" (every size
 * in [A, B] equally likely) or "loguniform:A-B" (log2 of the size uniform
 * in [log2 A, log2 B + 1), so every power-of-two range is equally likely),
 * drawn with @seed. A and B are sizes with optional K/M/G, 1 <= A <= B <
 * 2^32. Returns 0, or -EINVAL with "--dist=SPEC: why" in @err.
 */
int ab_sizes_dist(const char *spec, uint32_t n, uint64_t seed, uint32_t *out,
		  char *err, size_t len);

/*
 * ab_sizes_file - read every size of @path into a malloc'ed array. A line
 * is blank, a "#" comment, a plain size in bytes (0 .. 2^32 - 1), or any
 * line holding "bytes_req=N" (ftrace's kmem:kmalloc and kmem:kmalloc_node
 * events: "... kmalloc: call_site=... ptr=... bytes_req=64 bytes_alloc=64
 * gfp_flags=..."). Anything else, a negative or a too large size, or a
 * file without sizes is an error "PATH:LINE: what is wrong" in @err.
 * Returns 0 with *@out (free() it) and *@n set, or -errno.
 */
int ab_sizes_file(const char *path, uint32_t **out, size_t *n, char *err,
		  size_t len);

/*
 * ab_sizes_range - object sizes for a sweep from @spec: a comma-separated
 * list ("64,4K,1M"), or a range with a step, "A-B:xF" (multiply by F, from
 * A while <= B, e.g. "8-64K:x2") or "A-B:+S" (add S). At most @max sizes,
 * each from 1 to 2^40. Returns how many, or -EINVAL with "--sizes=SPEC:
 * why" in @err.
 */
int ab_sizes_range(const char *spec, uint64_t *out, int max, char *err,
		   size_t len);

#endif
