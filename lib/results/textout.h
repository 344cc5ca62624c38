/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * textout.h - text that leaves allocbench whatever bytes went in: UTF-8
 * repair (for JSON documents and gnuplot labels) and CSV fields as RFC 4180
 * writes them. One copy of each rule, shared by every writer.
 */
#ifndef AB_TEXTOUT_H
#define AB_TEXTOUT_H

#include <stddef.h>
#include <stdio.h>

/*
 * ab_noun - @one when @n is 1, else @many: the noun after a count printed
 * beside it ("1 switch", "2 switches", "0 switches"). One rule for every
 * count a message shows, irregular plurals included.
 */
const char *ab_noun(unsigned long long n, const char *one, const char *many);

/* U+FFFD REPLACEMENT CHARACTER in UTF-8: what stands for a bad byte. */
#define AB_UTF8_REPLACEMENT "\xef\xbf\xbd"

/*
 * ab_utf8_seq - the length in bytes (1 to 4) of the well-formed UTF-8
 * sequence @s starts with (RFC 3629: no overlong form, no surrogate,
 * nothing above U+10FFFF), or 0 when the byte at @s does not start one, or
 * @s points at the terminating NUL. Never reads past a NUL.
 */
size_t ab_utf8_seq(const char *s);

/*
 * ab_utf8_fputs - write the NUL-terminated @s to @f, each byte that is not
 * part of a well-formed UTF-8 sequence replaced by U+FFFD, so that what is
 * written is valid UTF-8 for any input. Returns the number of bytes
 * replaced (0: @s was written unchanged); write errors stay in ferror(@f).
 */
size_t ab_utf8_fputs(const char *s, FILE *f);

/**
 * struct ab_csv_row - one CSV record being written
 * @f:      where it goes
 * @fields: fields written so far (the next one is preceded by a comma)
 *
 * Fields follow RFC 4180: one holding a comma, a double quote, CR or LF is
 * enclosed in double quotes, with each quote in it doubled; an undefined
 * value (NaN, infinity, NULL) is an empty field. Records end in "\n".
 * Start a record with `struct ab_csv_row r = { stdout, 0 };`.
 */
struct ab_csv_row {
	FILE *f;
	unsigned int fields;
};

/* ab_csv_str - append the text field @s; NULL is an empty field. */
void ab_csv_str(struct ab_csv_row *r, const char *s);

/*
 * ab_csv_num - append @v printed with the printf format @fmt (one double
 * conversion, e.g. "%.3f"), or an empty field when @v is NaN or infinite.
 */
void ab_csv_num(struct ab_csv_row *r, const char *fmt, double v);

/*
 * ab_csv_printf - append one field made by printf(@fmt, ...), quoted as a
 * text field when it needs to be (for integers and other values that are
 * always defined).
 */
void ab_csv_printf(struct ab_csv_row *r, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* ab_csv_end - end the record: "\n"; @r can then start the next one. */
void ab_csv_end(struct ab_csv_row *r);

/*
 * ab_p_text - a p-value as the tables print it, into @buf: "n/a" for NAN,
 * "<0.001" below 0.001, else three decimals ("0.042"). Returns @buf.
 */
const char *ab_p_text(double p, char *buf, size_t len);

/*
 * ab_holm_text - what the verdicts of a report of @tests tests rest on, for
 * a table's title, into @buf: "verdict on Holm's adjusted p (p adj) over the
 * 3 tests of this report", or with none "no verdict: no test in this report
 * (a test needs @need)", never a family of 0 tests. Returns @buf.
 */
const char *ab_holm_text(int tests, const char *need, char *buf, size_t len);

/*
 * ab_print_cell - one table cell on stdout: @v printed with @fmt (a width
 * conversion and a double, e.g. " %*.1f") at @width, or "n/a" right-aligned
 * at @width (after one space) when @v is NaN or infinite (undefined).
 */
void ab_print_cell(double v, const char *fmt, int width);

/*
 * ab_num_text - @v printed with the printf format @fmt (one double
 * conversion, e.g. "%.1f") into @buf, or "n/a" when @v is NaN or infinite:
 * a number inside a line of text. Returns @buf.
 */
const char *ab_num_text(double v, const char *fmt, char *buf, size_t len);

/*
 * ab_sig_text - @v in four significant digits ("%.4g") below 10000 and
 * whole from there on ("%.0f": %.4g would write 12345.6 as 1.235e+04), or
 * "n/a" when NaN or infinite, into @buf: a figure inside a line of text or
 * a label. Returns @buf.
 */
const char *ab_sig_text(double v, char *buf, size_t len);

/*
 * The default text's bounds (issue 42; allocbench-run(1), NOTES): a table
 * fits AB_TABLE_COLS columns, a note line AB_NOTE_COLS.
 */
#define AB_TABLE_COLS 120
#define AB_NOTE_COLS  100

/*
 * ab_print_note - "@prefix: @text" on stdout in at most AB_NOTE_COLS
 * columns: whole when it fits, else cut at the last clause boundary that
 * does (": ", "; ", ", ", " (" or a space) and ended with " (-v)", which
 * gives it whole, as the JSON always does.
 */
void ab_print_note(const char *prefix, const char *text);

#endif
