// SPDX-License-Identifier: GPL-2.0-only
/* parse.c - strict parsers for command-line values (see parse.h). */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "parse.h"

/* Parses leading decimal digits; returns the position after them. */
static const char *parse_digits(const char *s, uint64_t *out, int *err)
{
	uint64_t v = 0;

	*err = 0;
	if (!isdigit((unsigned char)*s)) {
		*err = -EINVAL;
		return s;
	}
	for (; isdigit((unsigned char)*s); s++) {
		unsigned int d = (unsigned int)(*s - '0');

		if (v > (UINT64_MAX - d) / 10)
			*err = -ERANGE;
		else
			v = v * 10 + d;
	}
	*out = v;
	return s;
}

int ab_parse_u64(const char *s, uint64_t min, uint64_t max, uint64_t *out)
{
	const char *end;
	uint64_t v;
	int err;

	if (!s)
		return -EINVAL;
	end = parse_digits(s, &v, &err);
	if (err == -EINVAL || *end)
		return -EINVAL;
	if (err || v < min || v > max)
		return -ERANGE;
	*out = v;
	return 0;
}

int ab_parse_size(const char *s, uint64_t *out)
{
	static const char units[] = "KMG";
	const char *end, *u;
	unsigned int shift = 0;
	uint64_t v;
	int err;

	if (!s)
		return -EINVAL;
	end = parse_digits(s, &v, &err);
	if (err == -EINVAL)
		return -EINVAL;
	if (*end) {
		u = strchr(units, toupper((unsigned char)*end));
		if (!u)
			return -EINVAL;
		shift = 10 * (unsigned int)(u - units + 1);
		end++;
		if (!strcasecmp(end, "iB") || !strcasecmp(end, "B"))
			end += strlen(end);
		if (*end)
			return -EINVAL;
	}
	if (err || (shift && v > (UINT64_MAX >> shift)))
		return -ERANGE;
	*out = v << shift;
	return 0;
}

int ab_split_list(char *s, char **items, int max)
{
	int n = 0;
	char *p;

	if (!s || !*s)
		return -EINVAL;
	for (;;) {
		p = strchr(s, ',');
		if (p)
			*p = '\0';
		if (!*s)
			return -EINVAL;
		if (n == max)
			return -E2BIG;
		items[n++] = s;
		if (!p)
			return n;
		s = p + 1;
	}
}

void ab_format_size(uint64_t bytes, char *buf, size_t len)
{
	static const char units[] = "KMG";
	int i;

	for (i = 2; i >= 0; i--) {
		unsigned int shift = 10 * (unsigned int)(i + 1);

		if (bytes && !(bytes & ((1ULL << shift) - 1))) {
			snprintf(buf, len, "%llu%c",
				 (unsigned long long)(bytes >> shift),
				 units[i]);
			return;
		}
	}
	snprintf(buf, len, "%llu", (unsigned long long)bytes);
}

void ab_format_object(int order, uint64_t bytes, int exact, char *buf,
		      size_t len)
{
	if (order >= 0)
		snprintf(buf, len, "order %d", order);
	else if (exact)
		snprintf(buf, len, "%llu B", (unsigned long long)bytes);
	else
		ab_format_size(bytes, buf, len);
}
