// SPDX-License-Identifier: GPL-2.0-only
/*
 * plot_gp.c - the text of `allocbench plot`'s gnuplot scripts: string
 * constants that are data whatever they hold, the terminal, and the
 * titles array of a picture's series or bars.
 */
#include <stdlib.h>
#include <string.h>

#include "jsonout.h"
#include "plot.h"
#include "textout.h"

/*
 * @s as a gnuplot string constant: '"', then one octal escape "\ooo" per
 * byte, then '"'. Every text of the script (titles, axis labels, and the
 * labels, strategy names and file names read from the result) goes
 * through here, which makes it data whatever it holds: the script line
 * holds nothing but '"', '\' and octal digits for it, so no byte of the
 * text can end the string, start a command, or be a backquote (gnuplot's
 * command substitution, done on the raw line, even inside double quotes)
 * or an '@' (a macro); gnuplot turns the escapes back into the bytes when
 * it reads the constant, and never parses a string's value as a command.
 * Bytes that are not UTF-8, and control characters (which SVG cannot
 * hold), are drawn as U+FFFD.
 */
void gp_str(FILE *g, const char *s)
{
	const char *bad;
	size_t n;

	fputc('"', g);
	while (*s) {
		n = ab_utf8_seq(s);
		if (!n || (unsigned char)*s < 0x20 || *s == 0x7f) {
			for (bad = AB_UTF8_REPLACEMENT; *bad; bad++)
				fprintf(g, "\\%03o", (unsigned char)*bad);
			s += n ? n : 1;
			continue;
		}
		while (n--)
			fprintf(g, "\\%03o", (unsigned char)*s++);
	}
	fputc('"', g);
}

void gp_printf(FILE *g, const char *fmt, const char *text)
{
	const char *q = strstr(fmt, "%q");

	fwrite(fmt, 1, q ? (size_t)(q - fmt) : strlen(fmt), g);
	if (q) {
		gp_str(g, text);
		gp_printf(g, q + 2, text);
	}
}

const char *plot_text(json_object *o, const char *key)
{
	json_object *v = ab_json_get(o, key);

	return json_object_is_type(v, json_type_string)
		       ? json_object_get_string(v)
		       : "";
}

size_t plot_chars(const char *s)
{
	size_t n, chars = 0;

	while (*s) {
		n = ab_utf8_seq(s);
		s += n ? n : 1;
		chars++;
	}
	return chars;
}

void plot_terminal(FILE *g, int png, int w, int h)
{
	fprintf(g, "set terminal %s size %d,%d noenhanced\nset grid\n",
		png ? "pngcairo" : "svg", w, h);
}

size_t title_add(struct titles *t, const char *s)
{
	char **v = realloc(t->v, (t->n + 1) * sizeof(*v));
	size_t w;

	if (!v)
		return 0;
	t->v = v;
	t->v[t->n] = strdup(s);
	if (!t->v[t->n])
		return 0;
	w = plot_chars(s);
	if (w > t->width)
		t->width = w;
	return ++t->n;
}

size_t title_find(const struct titles *t, const char *s)
{
	size_t i;

	for (i = 0; i < t->n; i++)
		if (!strcmp(t->v[i], s))
			return i + 1;
	return 0;
}

void titles_free(struct titles *t)
{
	size_t i;

	for (i = 0; i < t->n; i++)
		free(t->v[i]);
	free(t->v);
	t->v = NULL;
	t->n = 0;
	t->width = 0;
}

void titles_emit(FILE *g, struct titles *t)
{
	size_t i;

	fprintf(g, "array T[%zu]\n", t->n ? t->n : 1);
	for (i = 0; i < t->n; i++) {
		fprintf(g, "T[%zu] = ", i + 1);
		gp_str(g, t->v[i]);
		fputc('\n', g);
	}
	titles_free(t);
}
