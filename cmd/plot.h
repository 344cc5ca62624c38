/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * plot.h - what the pictures of `allocbench plot` share: the script text
 * helpers (plot_gp.c) and one function per kind of picture (plot_sweep.c:
 * curves against object size and histograms; plot_bars.c: medians, lookups
 * and the B / A ratios of compare and vm). plot.c reads the result, picks
 * the kind and hands the script to gnuplot.
 */
#ifndef AB_PLOT_H
#define AB_PLOT_H

#include <stddef.h>
#include <stdio.h>
#include <json-c/json.h>

/*
 * gp_str - @s as a gnuplot string constant made of octal escapes, one per
 * byte ("\ooo"): data whatever it holds (see plot_gp.c).
 */
void gp_str(FILE *g, const char *s);

/* gp_printf - writes @fmt as it is, but each "%q" as gp_str(@text). */
void gp_printf(FILE *g, const char *fmt, const char *text);

/* plot_text - the string member @key of @o ("" when it is absent). */
const char *plot_text(json_object *o, const char *key);

/*
 * plot_chars - the characters @s draws (UTF-8 sequences count one; a byte
 * that is not UTF-8 is one U+FFFD), for margins computed from labels.
 */
size_t plot_chars(const char *s);

/*
 * plot_terminal - "set terminal" for @png (pngcairo) or SVG, @w x @h
 * pixels, enhanced text off (every text is drawn as it is), and a grid.
 * The picture goes to gnuplot's standard output: there is no "set output".
 */
void plot_terminal(FILE *g, int png, int w, int h);

/*
 * Pixels per character of the terminals' default font (10 to 12 point
 * sans), rounded up: a margin of n characters is at most n * this wide.
 */
#define PLOT_CHAR_PX 9

/**
 * struct titles - the texts of a picture's series or bars, numbered from 1
 * as the gnuplot array T[] the script defines from them
 * @v:     the texts, malloc'ed
 * @n:     how many
 * @width: the widest, in characters (plot_chars())
 */
struct titles {
	char **v;
	size_t n, width;
};

/* title_add - adds a copy of @s; its index from 1 (0: out of memory). */
size_t title_add(struct titles *t, const char *s);
/* title_find - the index from 1 of @s in @t, or 0. */
size_t title_find(const struct titles *t, const char *s);
/* titles_emit - "array T[n]" and each T[i] in the script; frees them. */
void titles_emit(FILE *g, struct titles *t);
/* titles_free - frees the texts without writing them. */
void titles_free(struct titles *t);

/*
 * Each kind writes the whole script for the checked document @root
 * (terminal included) and returns how many series or bars it draws (0:
 * nothing, no picture).
 */
size_t plot_sweep(FILE *g, json_object *root, int png);
/* a sweep of page orders under a condition (plot_orders.c) */
size_t plot_orders(FILE *g, json_object *root, int png);
/*
 * plot_is_order_sweep - whether @root is a sweep whose rows are all page
 * orders, under a memory condition or with single timing: drawn by
 * plot_orders() (latency percentiles and success against the order).
 */
int plot_is_order_sweep(json_object *root);
size_t plot_histograms(FILE *g, json_object *root, int png);
size_t plot_medians(FILE *g, json_object *root, int png);
size_t plot_lookup(FILE *g, json_object *root, int png);
size_t plot_vm(FILE *g, json_object *root, int png);
/* compare: `compare --alloc=A,B` (its "compare") or of saved files
 * (its "comparisons"): B / A per phase */
size_t plot_compare(FILE *g, json_object *root, int png);

/*
 * plot_check_comparisons - checks the document `allocbench compare
 * OLD.json NEW.json --json` writes (schema allocbench-result, no
 * "results", a "comparisons" array of { "a", "b", "phases": [{ "phase",
 * "ratio", ... }] }): the fields the picture reads are of their type and
 * finite (or null). Returns 0, or -EINVAL with "FIELD: what is wrong" in
 * @err.
 */
int plot_check_comparisons(json_object *root, char *err, size_t len);

#endif
