// SPDX-License-Identifier: GPL-2.0-only
/* textout.c - UTF-8 repair and CSV fields (see textout.h). */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "textout.h"

size_t ab_utf8_seq(const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	unsigned char lo = 0x80, hi = 0xbf;
	size_t n, i;

	if (p[0] && p[0] < 0x80)
		return 1;
	if (p[0] >= 0xc2 && p[0] <= 0xdf)
		n = 2;
	else if (p[0] >= 0xe0 && p[0] <= 0xef)
		n = 3;
	else if (p[0] >= 0xf0 && p[0] <= 0xf4)
		n = 4;
	else
		return 0; /* NUL, a continuation byte, C0, C1, F5..FF */
	/* the second byte's range excludes overlong forms, surrogates
	 * (ED A0..BF) and code points above U+10FFFF (F4 90..) */
	if (p[0] == 0xe0)
		lo = 0xa0;
	else if (p[0] == 0xed)
		hi = 0x9f;
	else if (p[0] == 0xf0)
		lo = 0x90;
	else if (p[0] == 0xf4)
		hi = 0x8f;
	for (i = 1; i < n; i++, lo = 0x80, hi = 0xbf)
		if (p[i] < lo || p[i] > hi)
			return 0; /* also stops at a NUL */
	return n;
}

size_t ab_utf8_fputs(const char *s, FILE *f)
{
	size_t bad = 0, n, run;

	while (*s) {
		/* the longest well-formed run, written as it is */
		for (run = 0; (n = ab_utf8_seq(s + run)); run += n)
			;
		fwrite(s, 1, run, f);
		s += run;
		if (*s) {
			fputs(AB_UTF8_REPLACEMENT, f);
			s++;
			bad++;
		}
	}
	return bad;
}

static void csv_sep(struct ab_csv_row *r)
{
	if (r->fields++)
		fputc(',', r->f);
}

void ab_csv_str(struct ab_csv_row *r, const char *s)
{
	csv_sep(r);
	if (!s)
		return;
	if (!s[strcspn(s, ",\"\r\n")]) {
		fputs(s, r->f);
		return;
	}
	fputc('"', r->f);
	for (; *s; s++) {
		if (*s == '"')
			fputc('"', r->f);
		fputc(*s, r->f);
	}
	fputc('"', r->f);
}

void ab_csv_num(struct ab_csv_row *r, const char *fmt, double v)
{
	if (isfinite(v))
		ab_csv_printf(r, fmt, v);
	else
		ab_csv_str(r, NULL);
}

void ab_csv_printf(struct ab_csv_row *r, const char *fmt, ...)
{
	char buf[128], *p = buf;
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	if (n >= (int)sizeof(buf)) {
		p = malloc((size_t)n + 1);
		if (p) {
			va_start(ap, fmt);
			vsnprintf(p, (size_t)n + 1, fmt, ap);
			va_end(ap);
		}
	}
	ab_csv_str(r, n < 0 || !p ? NULL : p);
	if (p != buf)
		free(p);
}

void ab_csv_end(struct ab_csv_row *r)
{
	fputc('\n', r->f);
	r->fields = 0;
}

const char *ab_p_text(double p, char *buf, size_t len)
{
	if (isnan(p))
		snprintf(buf, len, "n/a");
	else if (p < 0.001)
		snprintf(buf, len, "<0.001");
	else
		snprintf(buf, len, "%.3f", p);
	return buf;
}

const char *ab_holm_text(int tests, const char *need, char *buf, size_t len)
{
	if (tests > 0)
		snprintf(
			buf, len,
			"verdict on Holm's adjusted p (p adj) over the %d %s of this report",
			tests, ab_noun((unsigned)tests, "test", "tests"));
	else
		snprintf(buf, len,
			 "no verdict: no test in this report (a test needs %s)",
			 need);
	return buf;
}

void ab_print_cell(double v, const char *fmt, int width)
{
	if (!isfinite(v))
		printf(" %*s", width, "n/a");
	else
		printf(fmt, width, v);
}

const char *ab_num_text(double v, const char *fmt, char *buf, size_t len)
{
	if (!isfinite(v))
		snprintf(buf, len, "n/a");
	else
		snprintf(buf, len, fmt, v);
	return buf;
}

const char *ab_sig_text(double v, char *buf, size_t len)
{
	return ab_num_text(v, fabs(v) < 1e4 ? "%.4g" : "%.0f", buf, len);
}

const char *ab_noun(unsigned long long n, const char *one, const char *many)
{
	return n == 1 ? one : many;
}

void ab_print_note(const char *prefix, const char *text)
{
	size_t room = AB_NOTE_COLS - strlen(prefix) - 2, n = strlen(text);
	size_t i, clause = 0, space = 0;

	if (n <= room) {
		printf("%s: %s\n", prefix, text);
		return;
	}
	room -= strlen(" (-v)");
	for (i = 1; i < room; i++) {
		if (text[i] != ' ')
			continue;
		space = i;
		if (strchr(":;,", text[i - 1]))
			clause = i - 1;
		else if (text[i + 1] == '(')
			clause = i;
	}
	/* a clause that keeps most of the room, else the last word */
	if (clause < room / 2)
		clause = space ? space : room;
	printf("%s: %.*s (-v)\n", prefix, (int)clause, text);
}
