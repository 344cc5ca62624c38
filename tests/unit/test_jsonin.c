// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_jsonin.c - reading saved results: a valid document passes; each
 * kind of fault (missing, empty, truncated, trailing data, NaN, null or
 * string samples, negative counts, fractions, a wrong kind or version, a
 * field not as the schema describes it) is refused with the file and the
 * field named in one line.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "jsonin.h"

static char err[1024];
static char path[] = "/tmp/test_jsonin.XXXXXX";

/*
 * A small valid result: DOC_HEAD, an "alloc" phase (PHASE_OK, or one with
 * a fault), DOC_TAIL.
 */
#define DOC_HEAD                                                        \
	"{\"schema\": \"allocbench-result\", \"schema_version\": 1, "   \
	"\"command\": \"run\", \"argv\": [\"allocbench\"], "            \
	"\"parameters\": {\"timing\": \"batch\"}, \"results\": [{"      \
	"\"kind\": \"alloc\", \"strategy\": \"malloc\", "               \
	"\"label\": \"malloc\", \"object_bytes\": 64, \"batch\": 100, " \
	"\"node\": -1, \"free\": null, \"counters\": [{\"event\": "     \
	"\"cycles\", \"per_op\": null}], \"alloc\": "
#define PHASE_OK                                                        \
	"{\"ns\": {\"n\": 3, \"median\": 2.5, \"ci95_median\": [null, " \
	"null]}, \"histogram\": [{\"lo_ns\": 2, \"hi_ns\": 4, "         \
	"\"count\": 3}], \"per_op_ns_sorted\": [1.5, 2.5, 3]}"
#define DOC_TAIL "}]}"

/* Checks @text; returns 0 or -EINVAL with err set. */
static int check(const char *text)
{
	json_object *root = json_tokener_parse(text);
	int ret;

	assert_non_null(root);
	ret = ab_json_check_result(root, err, sizeof(err));
	json_object_put(root);
	return ret;
}

/* @text with its "alloc" phase replaced by @phase must fail with @msg. */
static void expect_phase_fault(const char *phase, const char *msg)
{
	char doc[2048];

	snprintf(doc, sizeof(doc), "%s%s%s", DOC_HEAD, phase, DOC_TAIL);
	assert_int_equal(check(doc), -EINVAL);
	if (strcmp(err, msg)) {
		print_error("got   '%s'\nwanted '%s'\n", err, msg);
		fail();
	}
}

static void test_valid(void **state)
{
	assert_int_equal(check(DOC_HEAD PHASE_OK DOC_TAIL), 0);
	/* lookups, integral doubles, unknown fields and a baseline */
	assert_int_equal(
		check("{\"schema\": \"allocbench-result\", \"schema_version\": 1.0, "
		      "\"command\": \"lookup\", \"new_field\": [1, \"x\"], "
		      "\"results\": [{\"kind\": \"lookup\", \"sizes\": \"constant 8\", "
		      "\"method\": \"bsr\", \"passes\": 5.0, \"class_sum\": null, "
		      "\"cycles\": {\"n\": 5, \"median\": -0.5}}]}"),
		0);
}

static void test_samples(void **state)
{
	expect_phase_fault(
		"{\"ns\": {\"median\": 1}, \"per_op_ns_sorted\": [1, NaN]}",
		"results[0].alloc.per_op_ns_sorted[1]: NaN, not a finite number");
	expect_phase_fault(
		"{\"ns\": {\"median\": 1}, \"per_op_ns_sorted\": [null]}",
		"results[0].alloc.per_op_ns_sorted[0]: null, not a number");
	expect_phase_fault(
		"{\"ns\": {\"median\": 1}, \"per_op_ns_sorted\": [1, 2, \"3\"]}",
		"results[0].alloc.per_op_ns_sorted[2]: a string, not a number");
	expect_phase_fault(
		"{\"ns\": {\"median\": 1}, \"per_op_ns_sorted\": [-Infinity]}",
		"results[0].alloc.per_op_ns_sorted[0]: infinite, not a finite number");
	expect_phase_fault("{\"ns\": {\"median\": 1}}",
			   "results[0].alloc.per_op_ns_sorted: missing");
	expect_phase_fault(
		"{\"ns\": {\"median\": 1}, \"per_op_ns_sorted\": {}}",
		"results[0].alloc.per_op_ns_sorted: an object, not an array");
}

static void test_statistics_and_counts(void **state)
{
	expect_phase_fault(
		"{\"ns\": {\"median\": NaN}, \"per_op_ns_sorted\": []}",
		"results[0].alloc.ns.median: NaN, not a finite number");
	expect_phase_fault(
		"{\"ns\": {\"n\": -2, \"median\": 1}, \"per_op_ns_sorted\": []}",
		"results[0].alloc.ns.n: -2, below the minimum 0");
	expect_phase_fault(
		"{\"ns\": {\"n\": 2.5, \"median\": 1}, \"per_op_ns_sorted\": []}",
		"results[0].alloc.ns.n: 2.5, not an integer");
	expect_phase_fault("{\"ns\": {\"median\": 1, \"ci95_median\": [1]}, "
			   "\"per_op_ns_sorted\": []}",
			   "results[0].alloc.ns.ci95_median: 1 item, not 2");
	expect_phase_fault("{\"ns\": {\"median\": 1}, \"histogram\": [{"
			   "\"lo_ns\": 1, \"count\": -4}], "
			   "\"per_op_ns_sorted\": []}",
			   "results[0].alloc.histogram[0].count: -4, below "
			   "the minimum 1");
	expect_phase_fault("{\"ns\": {\"median\": 1}, \"histogram\": [{"
			   "\"lo_ns\": 1, \"count\": 0}], "
			   "\"per_op_ns_sorted\": []}",
			   "results[0].alloc.histogram[0].count: 0, below "
			   "the minimum 1");
}

static void test_top_level(void **state)
{
	assert_int_equal(check("[1, 2]"), -EINVAL);
	assert_string_equal(err,
			    "an array, not an allocbench result (an object)");
	assert_int_equal(check("{\"schema\": \"other\", \"results\": []}"),
			 -EINVAL);
	assert_non_null(strstr(err, "not an allocbench result"));
	assert_int_equal(check("{\"schema\": \"allocbench-result\", "
			       "\"schema_version\": 2, \"command\": \"run\", "
			       "\"results\": []}"),
			 -EINVAL);
	assert_string_equal(
		err, "schema_version: 2, this allocbench reads version 1");
	assert_int_equal(check("{\"schema\": \"allocbench-result\", "
			       "\"schema_version\": 1, \"command\": \"run\"}"),
			 -EINVAL);
	assert_string_equal(err, "results: missing");
	assert_int_equal(check("{\"schema\": \"allocbench-result\", "
			       "\"schema_version\": 1, \"command\": \"run\", "
			       "\"results\": [{\"kind\": \"free\"}]}"),
			 -EINVAL);
	assert_string_equal(
		err,
		"results[0].kind: a string, neither \"alloc\" nor \"lookup\"");
	assert_int_equal(check("{\"schema\": \"allocbench-result\", "
			       "\"schema_version\": 1, \"command\": \"run\", "
			       "\"results\": [{\"kind\": \"lookup\", "
			       "\"method\": \"bsr\", \"sizes\": 8}]}"),
			 -EINVAL);
	assert_string_equal(err, "results[0].sizes: a number, not a string");
}

/* Writes @text to the temporary file and reads it back. */
static json_object *read_text(const char *text, size_t len)
{
	FILE *f = fopen(path, "w");

	assert_non_null(f);
	assert_int_equal(fwrite(text, 1, len, f), len);
	assert_int_equal(fclose(f), 0);
	return ab_json_read_result(path, err, sizeof(err));
}

/* Reading @text must fail with "PATH: @msg". */
static void expect_read_fault(const char *text, size_t len, const char *msg)
{
	char want[1024];

	assert_null(read_text(text, len));
	snprintf(want, sizeof(want), "%s: %s", path, msg);
	if (strcmp(err, want)) {
		print_error("got   '%s'\nwanted '%s'\n", err, want);
		fail();
	}
}

static void test_files(void **state)
{
	static const char doc[] = DOC_HEAD PHASE_OK DOC_TAIL;
	json_object *root;
	int fd = mkstemp(path);

	assert_true(fd >= 0);
	close(fd);
	root = read_text(doc, strlen(doc));
	assert_non_null(root);
	json_object_put(root);
	expect_read_fault("", 0, "empty file");
	expect_read_fault(" \n\t\n", 4, "empty file");
	expect_read_fault(
		doc, 40,
		"not JSON: line 1: the document ends early (a truncated file?)");
	expect_read_fault(
		"{\"a\": 1}\n\n{}", 12,
		"not JSON: line 3: more after the end of the document");
	expect_read_fault("{\"a\":\n\n x}", 10,
			  "not JSON: line 3: unexpected character");
	expect_read_fault("\0\0\0", 3,
			  "not JSON: line 1: a NUL byte (binary data)");
	expect_read_fault("42", 2,
			  "a number, not an allocbench result (an object)");
	unlink(path);
	assert_null(ab_json_read_result(path, err, sizeof(err)));
	assert_non_null(
		strstr(err, ": cannot read: No such file or directory"));
	/* a name with a newline still makes one line */
	assert_null(ab_json_read_result("/nonexistent/a\nb.json", err,
					sizeof(err)));
	assert_string_equal(
		err,
		"/nonexistent/a?b.json: cannot read: No such file or directory");
}

/* A document whose alloc result holds @member ("key": value) must fail
 * with @msg. */
static void expect_member_fault(const char *member, const char *msg)
{
	char doc[2048];

	snprintf(doc, sizeof(doc), "%s%s, %s%s", DOC_HEAD, PHASE_OK, member,
		 DOC_TAIL);
	assert_int_equal(check(doc), -EINVAL);
	if (strcmp(err, msg)) {
		print_error("got   '%s'\nwanted '%s'\n", err, msg);
		fail();
	}
}

/*
 * The rules come from the schema (scripts/schema-rules.py): a field it
 * describes is checked as it says, booleans and nested objects too.
 */
static void test_schema_fields(void **state)
{
	expect_member_fault("\"charged\": \"yes\"",
			    "results[0].charged: a string, not a boolean");
	expect_member_fault("\"memcg\": {\"before\": {\"slab_bytes\": -1}}",
			    "results[0].memcg.before.slab_bytes: -1, below the "
			    "minimum 0");
	expect_member_fault(
		"\"object_nodes\": {\"nodes\": [{\"node\": 0, "
		"\"objects\": 0}]}",
		"results[0].object_nodes.nodes[0].objects: 0, below "
		"the minimum 1");
	expect_member_fault("\"order\": -1",
			    "results[0].order: -1, below the minimum 0");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_valid),
		cmocka_unit_test(test_samples),
		cmocka_unit_test(test_statistics_and_counts),
		cmocka_unit_test(test_top_level),
		cmocka_unit_test(test_schema_fields),
		cmocka_unit_test(test_files),
	};

	return cmocka_run_group_tests_name("jsonin", tests, NULL, NULL);
}
