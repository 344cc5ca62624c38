// SPDX-License-Identifier: GPL-2.0-only
/* jsonin.c - reading and checking saved results (see jsonin.h). */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "jsonin.h"
#include "jsonout.h"
#include "textout.h"

/*
 * What a field must hold: the rules are made from
 * schema/allocbench-result.schema.json (scripts/schema-rules.py, into
 * build/gen/jsonin_rules.h): alloc_result_rules, lookup_result_rules and
 * top_rules, each ended by key NULL.
 */
enum jtype {
	J_STR,	  /* a string */
	J_INT,	  /* an integer (5 or 5.0), not below .min */
	J_NUM,	  /* a finite number */
	J_OBJ,	  /* an object whose members follow .sub (ended by key NULL) */
	J_ARR,	  /* an array whose items each follow *.sub */
	J_RESULT, /* an alloc or a lookup result, after its "kind" */
	J_BOOL,	  /* true or false */
};

#define J_REQ  1 /* must be present (the schema's x-reader-required) */
#define J_NULL 2 /* may be null */

/**
 * struct jrule - the rule of one field
 * @key:   the member's name (unused for the items of an array)
 * @type:  enum jtype
 * @flags: J_REQ, J_NULL
 * @min:   J_INT: the smallest value allowed
 * @items: J_ARR: the length it must have, 0 for any
 * @sub:   J_OBJ: the rules of its members; J_ARR: the rule of its items
 */
struct jrule {
	const char *key;
	unsigned char type, flags;
	long long min;
	unsigned int items;
	const struct jrule *sub;
};

#include "jsonin_rules.h"

/* Where the check is: the field's name so far, and the answer. */
struct jcheck {
	char path[256];
	size_t plen;
	char *err;
	size_t len;
};

static int __attribute__((format(printf, 2, 3)))
fault(struct jcheck *c, const char *fmt, ...)
{
	size_t n = 0;
	va_list ap;

	if (c->plen)
		n = (size_t)snprintf(c->err, c->len, "%s: ", c->path);
	if (n < c->len) {
		va_start(ap, fmt);
		vsnprintf(c->err + n, c->len - n, fmt, ap);
		va_end(ap);
	}
	return -EINVAL;
}

/*
 * Appends ".key" ("key" first) or "[i]" to the path; returns the old
 * length, to give back to pop().
 */
static size_t push(struct jcheck *c, const char *key, size_t i)
{
	size_t old = c->plen;
	int n;

	if (key)
		n = snprintf(c->path + old, sizeof(c->path) - old, "%s%s",
			     old ? "." : "", key);
	else
		n = snprintf(c->path + old, sizeof(c->path) - old, "[%zu]", i);
	if (n > 0)
		c->plen = old + (size_t)n < sizeof(c->path)
				  ? old + (size_t)n
				  : sizeof(c->path) - 1;
	return old;
}

static void pop(struct jcheck *c, size_t old)
{
	c->plen = old;
	c->path[old] = '\0';
}

/* What @v is, for a message: "a string", "an array", "NaN", ... */
static const char *what(json_object *v)
{
	switch (json_object_get_type(v)) {
	case json_type_null:
		return "null";
	case json_type_boolean:
		return "a boolean";
	case json_type_string:
		return "a string";
	case json_type_array:
		return "an array";
	case json_type_object:
		return "an object";
	case json_type_double:
		if (isnan(json_object_get_double(v)))
			return "NaN";
		if (isinf(json_object_get_double(v)))
			return "infinite";
		return "a fraction";
	default:
		return "a number";
	}
}

static int check_value(struct jcheck *c, json_object *v, const struct jrule *r);

/* What each enum jtype asks for, in messages. */
static const char *const want[] = { "a string",	 "an integer", "a number",
				    "an object", "an array",   "an object",
				    "a boolean" };

/* Whether @v is of the JSON type @t asks for (null is not). */
static int type_ok(json_object *v, enum jtype t)
{
	switch (t) {
	case J_STR:
		return json_object_is_type(v, json_type_string);
	case J_INT:
	case J_NUM:
		return json_object_is_type(v, json_type_int) ||
		       json_object_is_type(v, json_type_double);
	case J_ARR:
		return json_object_is_type(v, json_type_array);
	case J_BOOL:
		return json_object_is_type(v, json_type_boolean);
	default:
		return json_object_is_type(v, json_type_object);
	}
}

static int check_members(struct jcheck *c, json_object *o,
			 const struct jrule *rules)
{
	const struct jrule *r;
	json_object *v;
	size_t old;
	int err = 0;

	for (r = rules; r->key && !err; r++) {
		old = push(c, r->key, 0);
		if (!json_object_object_get_ex(o, r->key, &v))
			err = r->flags & J_REQ ? fault(c, "missing") : 0;
		else
			err = check_value(c, v, r);
		pop(c, old);
	}
	return err;
}

/* The object @v, checked as the kind of result its "kind" says. */
static int check_result(struct jcheck *c, json_object *v)
{
	json_object *k = ab_json_get(v, "kind");
	const char *kind = json_object_is_type(k, json_type_string)
				   ? json_object_get_string(k)
				   : "";
	size_t old;
	int err;

	if (!strcmp(kind, "alloc"))
		return check_members(c, v, alloc_result_rules);
	if (!strcmp(kind, "lookup"))
		return check_members(c, v, lookup_result_rules);
	old = push(c, "kind", 0);
	err = k ? fault(c, "%s, neither \"alloc\" nor \"lookup\"", what(k))
		: fault(c, "missing");
	pop(c, old);
	return err;
}

/* The number @v: finite; for J_INT integral and not below the minimum. */
static int check_number(struct jcheck *c, json_object *v, const struct jrule *r)
{
	double d = json_object_get_double(v);
	int64_t i = json_object_get_int64(v);

	if (!isfinite(d))
		return fault(c, "%s, not a finite number", what(v));
	if (r->type != J_INT)
		return 0;
	if (json_object_is_type(v, json_type_double)) {
		if (d != floor(d) || fabs(d) > 9007199254740992.0)
			return fault(c, "%g, not an integer", d);
		i = (int64_t)d;
	}
	if (i < r->min)
		return fault(c, "%lld, below the minimum %lld", (long long)i,
			     r->min);
	return 0;
}

static int check_value(struct jcheck *c, json_object *v, const struct jrule *r)
{
	size_t i, n, old;
	int err = 0;

	if (json_object_is_type(v, json_type_null))
		return r->flags & J_NULL
			       ? 0
			       : fault(c, "null, not %s", want[r->type]);
	if (!type_ok(v, r->type))
		return fault(c, "%s, not %s", what(v), want[r->type]);
	switch (r->type) {
	case J_INT:
	case J_NUM:
		return check_number(c, v, r);
	case J_OBJ:
		return check_members(c, v, r->sub);
	case J_RESULT:
		return check_result(c, v);
	case J_ARR:
		n = json_object_array_length(v);
		if (r->items && n != r->items)
			return fault(c, "%zu %s, not %u", n,
				     ab_noun(n, "item", "items"), r->items);
		for (i = 0; i < n && !err; i++) {
			old = push(c, NULL, i);
			err = check_value(c, json_object_array_get_idx(v, i),
					  r->sub);
			pop(c, old);
		}
		return err;
	default:
		return 0;
	}
}

int ab_json_check_result(json_object *root, char *err, size_t len)
{
	struct jcheck c = { .err = err, .len = len };
	int64_t version;
	int ret;

	if (!json_object_is_type(root, json_type_object))
		return fault(&c, "%s, not an allocbench result (an object)",
			     what(root));
	if (!strcmp(json_object_get_string(ab_json_get(root, "schema")) ?: "",
		    "allocbench-vm"))
		return fault(
			&c,
			"an allocbench vm document, not one run's result: its comparisons are in it already (allocbench plot draws them), and each boot's result is under boots[].result");
	if (strcmp(json_object_get_string(ab_json_get(root, "schema")) ?: "",
		   "allocbench-result"))
		return fault(
			&c,
			"not an allocbench result (no \"schema\": \"allocbench-result\"; save one with --json -o FILE)");
	ret = check_members(&c, root, top_rules);
	if (ret)
		return ret;
	version = json_object_get_int64(ab_json_get(root, "schema_version"));
	if (version != AB_JSON_SCHEMA_VERSION)
		return fault(
			&c,
			"schema_version: %lld, this allocbench reads version %d",
			(long long)version, AB_JSON_SCHEMA_VERSION);
	return 0;
}

/* Line of byte @off of @buf, counting from @line at @buf[0]. */
static unsigned long line_at(const char *buf, size_t off, unsigned long line)
{
	size_t i;

	for (i = 0; i < off; i++)
		line += buf[i] == '\n';
	return line;
}

/* The first byte of @buf[@off..@n) that is not JSON white space, or @n. */
static size_t skip_blank(const char *buf, size_t off, size_t n)
{
	while (off < n && (buf[off] == ' ' || buf[off] == '\t' ||
			   buf[off] == '\r' || buf[off] == '\n'))
		off++;
	return off;
}

/* Parses the open file @fd; NULL with the reason (no file name) in @err. */
static json_object *parse_fd(int fd, char *err, size_t len)
{
	struct json_tokener *tok = json_tokener_new();
	enum json_tokener_error jerr;
	json_object *root = NULL;
	unsigned long line = 1;
	size_t total = 0, off, n;
	int blank = 1;
	char buf[65536];
	ssize_t got;

	if (!tok) {
		snprintf(err, len, "out of memory");
		return NULL;
	}
	for (;;) {
		got = read(fd, buf, sizeof(buf));
		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0) {
			snprintf(err, len, "cannot read: %s", strerror(errno));
			goto fail;
		}
		if (got == 0)
			break;
		n = (size_t)got;
		total += n;
		if (total > AB_JSON_READ_MAX) {
			snprintf(err, len,
				 "larger than %lu bytes: not a result",
				 AB_JSON_READ_MAX);
			goto fail;
		}
		off = 0;
		if (!root) {
			const char *nul = memchr(buf, '\0', n);

			if (nul) { /* json-c would call it the end of data */
				snprintf(
					err, len,
					"not JSON: line %lu: a NUL byte (binary data)",
					line_at(buf, (size_t)(nul - buf),
						line));
				goto fail;
			}
			blank = blank && skip_blank(buf, 0, n) == n;
			root = json_tokener_parse_ex(tok, buf, (int)n);
			jerr = json_tokener_get_error(tok);
			off = json_tokener_get_parse_end(tok);
			if (jerr == json_tokener_continue) {
				line = line_at(buf, n, line);
				continue;
			}
			if (jerr != json_tokener_success) {
				snprintf(err, len, "not JSON: line %lu: %s",
					 line_at(buf, off, line),
					 json_tokener_error_desc(jerr));
				goto fail;
			}
		}
		/* after the document: white space only */
		off = skip_blank(buf, off, n);
		if (off < n) {
			snprintf(
				err, len,
				"not JSON: line %lu: more after the end of the document",
				line_at(buf, off, line));
			goto fail;
		}
		line = line_at(buf, n, line);
	}
	if (!root && !blank) /* a number at the very end waits for more */
		root = json_tokener_parse_ex(tok, "", 1);
	if (!root) {
		if (blank)
			snprintf(err, len, "empty file");
		else
			snprintf(
				err, len,
				"not JSON: line %lu: the document ends early (a truncated file?)",
				line);
		goto fail;
	}
	json_tokener_free(tok);
	return root;
fail:
	json_object_put(root);
	json_tokener_free(tok);
	return NULL;
}

json_object *ab_json_read_checked(const char *path,
				  int (*check)(json_object *, char *, size_t),
				  char *err, size_t len)
{
	json_object *root = NULL;
	char why[512], name[256];
	size_t i;
	int fd;

	/* the name as the message shows it: on one line */
	for (i = 0; path[i] && i < sizeof(name) - 1; i++)
		name[i] = (unsigned char)path[i] < 0x20 || path[i] == 0x7f
				  ? '?'
				  : path[i];
	name[i] = '\0';
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		snprintf(err, len, "%s: cannot read: %s", name,
			 strerror(errno));
		return NULL;
	}
	root = parse_fd(fd, why, sizeof(why));
	close(fd);
	if (root && check(root, why, sizeof(why))) {
		json_object_put(root);
		root = NULL;
	}
	if (!root)
		snprintf(err, len, "%s: %s", name, why);
	return root;
}

json_object *ab_json_read_result(const char *path, char *err, size_t len)
{
	return ab_json_read_checked(path, ab_json_check_result, err, len);
}

double ab_json_counter(json_object *row, const char *event)
{
	json_object *arr = ab_json_array(row, "counters");
	size_t i;

	for (i = 0; arr && i < json_object_array_length(arr); i++) {
		json_object *c = json_object_array_get_idx(arr, i);
		const char *e = json_object_get_string(ab_json_get(c, "event"));

		if (e && !strcmp(e, event))
			return ab_json_double(ab_json_get(c, "per_op"));
	}
	return NAN;
}
