// SPDX-License-Identifier: GPL-2.0-only
/* sizes.c - sequences of request sizes (see sizes.h). */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ab_free_order.h"
#include "parse.h"
#include "sizes.h"

/* "A-B" into @lo and @hi, each a size below 2^32 with A >= 1, A <= B. */
static int parse_range(char *s, uint64_t *lo, uint64_t *hi)
{
	char *dash = strchr(s, '-');

	if (!dash)
		return -EINVAL;
	*dash = '\0';
	if (ab_parse_size(s, lo) || ab_parse_size(dash + 1, hi))
		return -EINVAL;
	if (!*lo || *lo > *hi || *hi > UINT32_MAX)
		return -ERANGE;
	return 0;
}

int ab_sizes_dist(const char *spec, uint32_t n, uint64_t seed, uint32_t *out,
		  char *err, size_t len)
{
	uint64_t state = ab_splitmix64(seed) | 1, lo = 0, hi = 0, v;
	char buf[128], *colon;
	int kind, ret = 0;
	uint32_t i;

	snprintf(buf, sizeof(buf), "%s", spec);
	colon = strchr(buf, ':');
	if (colon)
		*colon++ = '\0';
	kind = !strcmp(buf, "const")	    ? 0
	       : !strcmp(buf, "uniform")    ? 1
	       : !strcmp(buf, "loguniform") ? 2
					    : -1;
	if (kind < 0 || !colon) {
		snprintf(
			err, len,
			"--dist=%s: unknown distribution (allowed: const:N, uniform:A-B, loguniform:A-B)",
			spec);
		return -EINVAL;
	}
	if (kind == 0) {
		ret = ab_parse_size(colon, &lo);
		if (!ret && lo > UINT32_MAX)
			ret = -ERANGE;
		hi = lo;
	} else {
		ret = parse_range(colon, &lo, &hi);
	}
	if (ret) {
		snprintf(
			err, len,
			"--dist=%s: %s (sizes from %s to 4294967295 bytes, K/M/G allowed; A-B with A <= B)",
			spec, ret == -ERANGE ? "out of range" : "not a size",
			kind ? "1" : "0");
		return -EINVAL;
	}
	for (i = 0; i < n; i++) {
		if (kind == 0) {
			v = lo;
		} else if (kind == 1) {
			v = lo + ab_xorshift64s(&state) % (hi - lo + 1);
		} else {
			/* 53 random bits as a double in [0, 1) */
			double u = (double)(ab_xorshift64s(&state) >> 11) /
				   9007199254740992.0;
			double l2 = log2((double)lo), h2 = log2((double)hi + 1);

			v = (uint64_t)exp2(l2 + u * (h2 - l2));
			v = v < lo ? lo : v > hi ? hi : v;
		}
		out[i] = (uint32_t)v;
	}
	return 0;
}

/* The size on one line: 1 found, 0 nothing to take, -1 an error. */
static int parse_line(char *line, uint64_t *v, const char **why)
{
	char *p = strstr(line, "bytes_req="), *end, *rest;

	*why = "no size (a number of bytes, or an ftrace kmem:kmalloc line with bytes_req=)";
	if (p) {
		p += strlen("bytes_req=");
		end = p + strspn(p, "-0123456789");
	} else {
		p = line + strspn(line, " \t");
		if (!*p || *p == '\n' || *p == '\r' || *p == '#')
			return 0;
		end = p + strcspn(p, " \t\r\n");
		rest = end + strspn(end, " \t\r\n");
		if (*rest)
			return -1;
	}
	*end = '\0';
	if (*p == '-') {
		*why = "a negative size";
		return -1;
	}
	switch (ab_parse_u64(p, 0, UINT32_MAX, v)) {
	case 0:
		return 1;
	case -ERANGE:
		*why = "a size above 4294967295 bytes";
		return -1;
	default:
		return -1;
	}
}

int ab_sizes_file(const char *path, uint32_t **out, size_t *n, char *err,
		  size_t len)
{
	size_t cap = 1024, used = 0, lineno = 0;
	char line[4096], shown[48];
	uint32_t *v = malloc(cap * sizeof(*v)), *nv;
	const char *why = NULL;
	uint64_t size;
	FILE *f;
	int r;

	f = fopen(path, "r");
	if (!f || !v) {
		snprintf(err, len, "%s: %s", path, strerror(errno));
		free(v);
		if (f)
			fclose(f);
		return -errno;
	}
	while (fgets(line, sizeof(line), f)) {
		lineno++;
		/* a NUL inside a line: binary data, not a size list */
		if (strlen(line) < sizeof(line) - 1 && !strchr(line, '\n') &&
		    !feof(f)) {
			snprintf(err, len, "%s:%zu: binary data, not sizes",
				 path, lineno);
			fclose(f);
			free(v);
			return -EINVAL;
		}
		if (used > AB_SIZES_FILE_MAX) {
			snprintf(err, len, "%s: more than %u sizes", path,
				 AB_SIZES_FILE_MAX);
			fclose(f);
			free(v);
			return -E2BIG;
		}
		snprintf(shown, sizeof(shown), "%.*s",
			 (int)strcspn(line, "\r\n"), line);
		r = parse_line(line, &size, &why);
		if (r < 0) {
			snprintf(err, len, "%s:%zu: %s in '%s'", path, lineno,
				 why, shown);
			fclose(f);
			free(v);
			return -EINVAL;
		}
		if (!r)
			continue;
		if (used == cap) {
			nv = realloc(v, 2 * cap * sizeof(*v));
			if (!nv) {
				snprintf(err, len, "%s: out of memory", path);
				fclose(f);
				free(v);
				return -ENOMEM;
			}
			v = nv;
			cap *= 2;
		}
		v[used++] = (uint32_t)size;
	}
	fclose(f);
	if (!used) {
		snprintf(
			err, len,
			"%s: no sizes in it (one number of bytes per line, or ftrace kmem:kmalloc lines with bytes_req=)",
			path);
		free(v);
		return -EINVAL;
	}
	*out = v;
	*n = used;
	return 0;
}

int ab_sizes_range(const char *spec, uint64_t *out, int max, char *err,
		   size_t len)
{
	char buf[256], *items[64], *colon, *dash;
	uint64_t a, b, step, v;
	int n = 0, i, k;

	snprintf(buf, sizeof(buf), "%s", spec);
	colon = strchr(buf, ':');
	if (!colon) {
		k = ab_split_list(buf, items, 64);
		for (i = 0; i < k && n < max; i++) {
			if (ab_parse_size(items[i], &v) || !v ||
			    v > (1ULL << 40))
				goto bad;
			out[n++] = v;
		}
		if (k <= 0 || k > max)
			goto bad;
		return n;
	}
	*colon++ = '\0';
	dash = strchr(buf, '-');
	if (!dash)
		goto bad;
	*dash = '\0';
	if (ab_parse_size(buf, &a) || ab_parse_size(dash + 1, &b) || !a ||
	    a > b || b > (1ULL << 40) || (*colon != 'x' && *colon != '+') ||
	    ab_parse_size(colon + 1, &step) ||
	    (*colon == 'x' ? step < 2 : !step))
		goto bad;
	for (v = a; v <= b; v = *colon == 'x' ? v * step : v + step) {
		/* the next step would wrap around 64 bits: this is the last */
		int last = *colon == 'x' ? v > UINT64_MAX / step
					 : v > UINT64_MAX - step;

		if (n == max) {
			snprintf(err, len, "--sizes=%s: more than %d sizes",
				 spec, max);
			return -EINVAL;
		}
		out[n++] = v;
		if (last)
			break;
	}
	return n;
bad:
	snprintf(
		err, len,
		"--sizes=%s: not a list or range of sizes (e.g. 64,4K,1M or 8-64K:x2 or 4K-64K:+4K; sizes 1 to 1024G)",
		spec);
	return -EINVAL;
}
