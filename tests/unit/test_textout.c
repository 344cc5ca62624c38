// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_textout.c - text that leaves allocbench whatever bytes went in: the
 * UTF-8 check and repair (RFC 3629's well-formed sequences), JSON documents
 * that stay valid UTF-8 with any string, and CSV fields quoted as RFC 4180
 * says, with empty fields for undefined values.
 */
#define _GNU_SOURCE /* open_memstream */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "jsonout.h"
#include "textout.h"

/* A stream into memory: open with cap_open(), read with cap_close(). */
struct capture {
	char *buf;
	size_t len;
	FILE *f;
};

static FILE *cap_open(struct capture *c)
{
	c->f = open_memstream(&c->buf, &c->len);
	assert_non_null(c->f);
	return c->f;
}

/* What was written, malloc'ed. */
static char *cap_close(struct capture *c)
{
	assert_int_equal(fclose(c->f), 0);
	return c->buf;
}

static void test_utf8_seq(void **state)
{
	static const struct {
		const char *s;
		size_t n;
	} cases[] = {
		/* well-formed: ASCII, 2, 3 and 4 bytes, at each range's ends */
		{ "a", 1 },
		{ "\x7f", 1 },
		{ "\xc2\x80", 2 },	   /* U+0080 */
		{ "\xdf\xbf", 2 },	   /* U+07FF */
		{ "\xe0\xa0\x80", 3 },	   /* U+0800 */
		{ "\xed\x9f\xbf", 3 },	   /* U+D7FF */
		{ "\xef\xbf\xbd", 3 },	   /* U+FFFD */
		{ "\xf0\x90\x80\x80", 4 }, /* U+10000 */
		{ "\xf4\x8f\xbf\xbf", 4 }, /* U+10FFFF */
		/* not: the end, stray and impossible bytes, overlong forms,
		 * surrogates, above U+10FFFF, sequences cut short */
		{ "", 0 },
		{ "\xff", 0 },
		{ "\x80", 0 },
		{ "\xc0\x80", 0 },
		{ "\xc1\xbf", 0 },
		{ "\xe0\x9f\xbf", 0 },
		{ "\xed\xa0\x80", 0 },
		{ "\xf0\x8f\xbf\xbf", 0 },
		{ "\xf4\x90\x80\x80", 0 },
		{ "\xf5\x80\x80\x80", 0 },
		{ "\xe2\x82", 0 },
		{ "\xe2\x82x", 0 },
	};
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		if (ab_utf8_seq(cases[i].s) != cases[i].n) {
			print_error("case %zu: %zu, wanted %zu\n", i,
				    ab_utf8_seq(cases[i].s), cases[i].n);
			fail();
		}
}

static void test_utf8_fputs(void **state)
{
	struct capture c;
	char *out;

	assert_int_equal(ab_utf8_fputs("caf\xc3\xa9", cap_open(&c)), 0);
	out = cap_close(&c);
	assert_string_equal(out, "caf\xc3\xa9");
	free(out);
	/* each bad byte is one U+FFFD; what follows is kept */
	assert_int_equal(ab_utf8_fputs("a\xff"
				       "b\xe2\x82\xc3\xa9\x80",
				       cap_open(&c)),
			 4);
	out = cap_close(&c);
	assert_string_equal(out,
			    "a\xef\xbf\xbd"
			    "b\xef\xbf\xbd\xef\xbf\xbd\xc3\xa9\xef\xbf\xbd");
	free(out);
}

/* A JSON document with bytes that are not UTF-8 in a string. */
static void test_json_print_repairs_strings(void **state)
{
	json_object *o = json_object_new_object(), *back;
	struct capture c;
	char *out;
	size_t i;

	json_object_object_add(o, "sizes",
			       json_object_new_string("/tmp/s\xff,\"q\".txt"));
	json_object_object_add(o, "ok", json_object_new_string("\xc3\xa9"));
	ab_json_print(o, cap_open(&c));
	out = cap_close(&c);
	for (i = 0; out[i]; i += ab_utf8_seq(out + i))
		assert_int_not_equal(ab_utf8_seq(out + i), 0);
	back = json_tokener_parse(out);
	assert_non_null(back);
	assert_string_equal(json_object_get_string(ab_json_get(back, "sizes")),
			    "/tmp/s\xef\xbf\xbd,\"q\".txt");
	assert_string_equal(json_object_get_string(ab_json_get(back, "ok")),
			    "\xc3\xa9");
	json_object_put(back);
	free(out);
}

static void test_csv_fields(void **state)
{
	struct capture c;
	struct ab_csv_row r = { cap_open(&c), 0 };
	char *out;

	ab_csv_str(&r, "plain");
	ab_csv_str(&r, "a,b");
	ab_csv_str(&r, "say \"hi\"");
	ab_csv_str(&r, "two\nlines");
	ab_csv_str(&r, "cr\r");
	ab_csv_str(&r, NULL);
	ab_csv_str(&r, "");
	ab_csv_num(&r, "%.3f", 1.5);
	ab_csv_num(&r, "%.3f", NAN);
	ab_csv_num(&r, "%.3f", INFINITY);
	ab_csv_num(&r, "%.3f", -INFINITY);
	ab_csv_printf(&r, "%u", 42U);
	ab_csv_printf(&r, "%s,%d", "x", 1);
	ab_csv_end(&r);
	ab_csv_str(&r, "next");
	ab_csv_end(&r);
	out = cap_close(&c);
	assert_string_equal(
		out,
		"plain,\"a,b\",\"say \"\"hi\"\"\",\"two\nlines\",\"cr\r\",,,"
		"1.500,,,,42,\"x,1\"\nnext\n");
	free(out);
}

/* A field longer than ab_csv_printf()'s own buffer is whole. */
static void test_csv_long_field(void **state)
{
	char big[1000], *out;
	struct capture c;
	struct ab_csv_row r = { cap_open(&c), 0 };

	memset(big, 'x', sizeof(big) - 1);
	big[sizeof(big) - 1] = '\0';
	ab_csv_printf(&r, "%s", big);
	ab_csv_end(&r);
	out = cap_close(&c);
	assert_int_equal(strlen(out), sizeof(big));
	assert_memory_equal(out, big, sizeof(big) - 1);
	free(out);
}

/*
 * ab_sig_text: four significant digits below 10000, whole from there (a
 * label once read "A 1.235e+04"), n/a when not a number.
 */
static void test_sig_text(void **state)
{
	char buf[32];

	assert_string_equal(ab_sig_text(6.25, buf, sizeof(buf)), "6.25");
	assert_string_equal(ab_sig_text(6224.3054, buf, sizeof(buf)), "6224");
	assert_string_equal(ab_sig_text(12345.6, buf, sizeof(buf)), "12346");
	assert_string_equal(ab_sig_text(-12345.6, buf, sizeof(buf)), "-12346");
	assert_string_equal(ab_sig_text(NAN, buf, sizeof(buf)), "n/a");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_utf8_seq),
		cmocka_unit_test(test_utf8_fputs),
		cmocka_unit_test(test_json_print_repairs_strings),
		cmocka_unit_test(test_csv_fields),
		cmocka_unit_test(test_csv_long_field),
		cmocka_unit_test(test_sig_text),
	};

	return cmocka_run_group_tests_name("textout", tests, NULL, NULL);
}
