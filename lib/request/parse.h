/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * parse.h - strict parsers for command-line values. Each returns 0 on
 * success or a negative errno: -EINVAL for text that is not of the expected
 * form, -ERANGE for a well-formed value outside the allowed range.
 */
#ifndef AB_PARSE_H
#define AB_PARSE_H

#include <stddef.h>
#include <stdint.h>

/*
 * ab_parse_size - bytes, optionally with a K, M or G suffix (powers of 1024,
 * case-insensitive, an optional trailing "B" or "iB" accepted: 4K, 4KiB).
 * No sign, no fraction, no spaces. Overflow of 64 bits is -ERANGE.
 */
int ab_parse_size(const char *s, uint64_t *out);

/* ab_parse_u64 - decimal integer in [min, max]; no sign, no suffix. */
int ab_parse_u64(const char *s, uint64_t min, uint64_t max, uint64_t *out);

/*
 * ab_split_list - split a comma-separated list in place. Stores up to @max
 * pointers into @s in @items. Returns the number of items, -EINVAL for an
 * empty list or an empty item ("a,,b", "a,"), -E2BIG for more than @max.
 */
int ab_split_list(char *s, char **items, int max);

/* ab_format_size - "4096", "4K", "1M": exact 1024-power form if one exists. */
void ab_format_size(uint64_t bytes, char *buf, size_t len);

/*
 * ab_format_object - how every report names a row's object, the one
 * place that rules it: "order N" for a page-order strategy's row (@order
 * >= 0), which `run` shows in its object column and saved-result reports
 * (compare of saved files, vm) append to the strategy; else its @bytes,
 * as --size spells them ("4K"), or with @exact as "4096 B".
 */
void ab_format_object(int order, uint64_t bytes, int exact, char *buf,
		      size_t len);

#endif
