// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_metrics.c - a saved result as export's flat metrics (lib/metrics.c):
 * keys from the row's identity (--sheaves, --order, --cpu, --condition and
 * --gfp each a part of it), the saved values exactly, n/a left out, samples
 * per compare round and per good vm boot, and the documents refused with
 * their reason. Documents are written here by hand, as the schema gives
 * them; the CLI's own documents are tests/cli/export.sh's.
 */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "metrics.h"

/* An alloc row: strategy, bytes, order, node, CPU, sheaves, alloc median. */
#define ROW(strat, bytes, order, node, cpu, sheaves, median)                   \
	"{\"kind\": \"alloc\", \"strategy\": \"" strat                         \
	"\", \"label\": \"" strat " " #sheaves "\", \"object_bytes\": " #bytes \
	", \"order\": " #order ", \"node\": " #node                            \
	", \"free_cpu\": null, \"cpu_start\": " #cpu                           \
	", \"sheaves\": " #sheaves ", \"lookup\": null, "                      \
	"\"alloc\": {\"ns\": {\"min\": 1, \"median\": " #median                \
	", \"mean\": 2, \"p90\": 3, \"p99\": 4, \"max\": null},"               \
	" \"cycles\": {\"median\": 9}}}"

static json_object *parse(const char *text)
{
	json_object *o = json_tokener_parse(text);

	assert_non_null(o);
	return o;
}

/* The value of @key in sample @sample (and kernel @factor), or NAN. */
static double value(const struct ab_metrics *ms, const char *key, int sample,
		    const char *factor)
{
	size_t i;

	for (i = 0; i < ms->n; i++)
		if (!strcmp(ms->metric[i].key, key) &&
		    ms->metric[i].sample == sample &&
		    !strcmp(ms->metric[i].factor, factor))
			return ms->metric[i].value;
	return NAN;
}

static int of(const char *text, struct ab_metrics *ms, char *err)
{
	json_object *doc = parse(text);
	int ret = ab_metrics_of(doc, ms, err, 256);

	json_object_put(doc);
	return ret;
}

static void test_keys(void **state)
{
	struct ab_metrics ms = { 0 };
	char err[256] = "";

	/* --sheaves=default,off on one cache: two rows, two identities */
	assert_int_equal(
		of("{\"command\": \"run\", \"parameters\": {\"cpu_given\": true,"
		   " \"gfp\": \"GFP_ATOMIC\", \"timing\": \"batch\"},"
		   " \"results\": [" ROW(
			   "kmem_cache", 64, null, -1, 2, null,
			   123.25) ", " ROW("kmem_cache", 64, null, -1, 2, 0,
					    456.5) ", " ROW("alloc_pages_node",
							    32768, 3, 1, 2,
							    null, 7) "]}",
		   &ms, err),
		0);
	assert_true(
		value(&ms,
		      "kmem_cache.gfp_atomic.64B.nodelocal.cpu2.alloc.median_ns",
		      1, "") == 123.25);
	assert_true(
		value(&ms,
		      "kmem_cache.sheaves_off.gfp_atomic.64B.nodelocal.cpu2.alloc.median_ns",
		      1, "") == 456.5);
	assert_true(
		value(&ms,
		      "alloc_pages_node.gfp_atomic.order3.node1.cpu2.alloc.median_cycles",
		      1, "") == 9);
	/* max is null: n/a, not exported */
	assert_true(isnan(value(
		&ms, "kmem_cache.gfp_atomic.64B.nodelocal.cpu2.alloc.max_ns", 1,
		"")));
	assert_int_equal(ms.samples, 1);
	ab_metrics_free(&ms);
}

static void test_cpu_not_chosen(void **state)
{
	struct ab_metrics ms = { 0 };
	char err[256] = "";

	/* without --cpu the row ran where the CLI started: cpuany */
	assert_int_equal(
		of("{\"command\": \"run\", \"parameters\": "
		   "{\"condition\": \"fragmented\"}, \"results\": [" ROW(
			   "kmalloc", 4096, null, -1, 1, null, 5) "]}",
		   &ms, err),
		0);
	assert_true(
		value(&ms,
		      "kmalloc.cond_fragmented.4096B.nodelocal.cpuany.alloc.median_ns",
		      1, "") == 5);
	ab_metrics_free(&ms);
}

/*
 * Issue 39.3: `export --format=lkp` handed "...alloc.median_ns: -117.69"
 * to an engine where lower is better. A time below zero (a net figure
 * whose raw value was below the baseline it subtracts) is left out,
 * counted and the first named; the row's other statistics stay.
 */
static void test_negative_left_out(void **state)
{
	struct ab_metrics ms = { 0 };
	char err[256] = "";

	(void)state;
	assert_int_equal(of("{\"command\": \"run\", \"parameters\": {},"
			    " \"results\": [" ROW("kmalloc", 64, null, -1, 0,
						  null, -117.69) "]}",
			    &ms, err),
			 0);
	assert_true(isnan(value(
		&ms, "kmalloc.64B.nodelocal.cpuany.alloc.median_ns", 1, "")));
	assert_true(value(&ms, "kmalloc.64B.nodelocal.cpuany.alloc.p90_ns", 1,
			  "") == 3);
	assert_int_equal(ms.negative, 1);
	assert_string_equal(ms.negative_key,
			    "kmalloc.64B.nodelocal.cpuany.alloc.median_ns");
	assert_true(ms.negative_value == -117.69);
	ab_metrics_free(&ms);
}

static void test_samples(void **state)
{
	struct ab_metrics ms = { 0 };
	char err[256] = "";
	const char *run = "{\"command\": \"run\", \"parameters\": {},"
			  " \"results\": [" ROW("kmalloc", 64, null, -1, 0,
						null, 10) "]}";
	const char *vm =
		"{\"schema\": \"allocbench-vm\", \"command\": \"vm\","
		" \"kernels\": [{\"name\": \"6.1\"}, {\"name\": \"6.12\"}],"
		" \"boots\": ["
		"{\"kernel_index\": 0, \"status\": \"ok\", \"result\": {\"command\":"
		" \"run\", \"parameters\": {}, \"results\": [" ROW(
			"kmalloc", 64, null, -1, 0, null,
			11) "]}}, "
			    "{\"kernel_index\": 1, \"status\": \"kernel problem\","
			    " \"result\": null}, "
			    "{\"kernel_index\": 1, \"status\": \"ok\", \"result\": {\"command\":"
			    " \"run\", \"parameters\": {}, \"results\": [" ROW(
				    "kmalloc", 64, null, -1, 0, null,
				    12) "]}}, "
					"{\"kernel_index\": 0, \"status\": \"ok\", \"result\": {\"command\":"
					" \"run\", \"parameters\": {}, \"results\": [" ROW(
						"kmalloc", 64, null, -1, 0,
						null, 13) "]}}]}";
	const char *key = "kmalloc.64B.nodelocal.cpuany.alloc.median_ns";

	/* three documents of one command: samples 1, 2, 3 */
	assert_int_equal(of(run, &ms, err), 0);
	assert_int_equal(of(run, &ms, err), 0);
	assert_int_equal(of(run, &ms, err), 0);
	assert_int_equal(ms.samples, 3);
	assert_true(value(&ms, key, 3, "") == 10);
	ab_metrics_free(&ms);
	memset(&ms, 0, sizeof(ms));
	/* a vm document: each good boot of a kernel a sample, from 1 */
	assert_int_equal(of(vm, &ms, err), 0);
	assert_true(value(&ms, key, 1, "6.1") == 11);
	assert_true(value(&ms, key, 2, "6.1") == 13);
	assert_true(value(&ms, key, 1, "6.12") == 12);
	assert_true(isnan(value(&ms, key, 2, "6.12")));
	ab_metrics_free(&ms);
	memset(&ms, 0, sizeof(ms));
	ms.kernel = "6.12";
	assert_int_equal(of(vm, &ms, err), 0);
	assert_int_equal(ms.samples, 1);
	ab_metrics_free(&ms);
	memset(&ms, 0, sizeof(ms));
	/* an A/A document names one kernel twice: the second is 6.1#2 */
	{
		char *aa = strdup(vm), *p = strstr(aa, "6.12");

		assert_non_null(p);
		memmove(p + 3, p + 4, strlen(p + 4) + 1); /* "6.12" -> "6.1" */
		assert_int_equal(of(aa, &ms, err), 0);
		assert_string_equal(ms.kernels[1], "6.1#2");
		assert_true(value(&ms, key, 1, "6.1#2") == 12);
		ab_metrics_free(&ms);
		memset(&ms, 0, sizeof(ms));
		free(aa);
	}
	ms.kernel = "7.3";
	assert_int_equal(of(vm, &ms, err), -EINVAL);
	assert_non_null(strstr(
		err,
		"--kernel=7.3: not a kernel of this document (its kernels: 6.1 6.12)"));
	ab_metrics_free(&ms);
}

static void test_refused(void **state)
{
	struct ab_metrics ms = { 0 };
	char err[256] = "";

	/* two rows of one identity */
	assert_int_equal(
		of("{\"command\": \"run\", \"parameters\": {},"
		   " \"results\": [" ROW("kmalloc", 64, null, -1, 0, null,
					 1) ", " ROW("kmalloc", 64, null, -1, 1,
						     null, 2) "]}",
		   &ms, err),
		-EINVAL);
	assert_non_null(strstr(
		err,
		"two rows have the identity kmalloc.64B.nodelocal.cpuany"));
	ab_metrics_free(&ms);
	memset(&ms, 0, sizeof(ms));
	/* a comparison of saved files: ratios, not samples */
	assert_int_equal(
		of("{\"command\": \"compare\", \"comparisons\": []}", &ms, err),
		-EINVAL);
	assert_non_null(strstr(err, "ratios of other documents' runs"));
	ab_metrics_free(&ms);
	memset(&ms, 0, sizeof(ms));
	/* nothing measured */
	assert_int_equal(of("{\"command\": \"run\", \"parameters\": {},"
			    " \"results\": []}",
			    &ms, err),
			 -EINVAL);
	assert_non_null(strstr(err, "no measured figure"));
	ab_metrics_free(&ms);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_keys),
		cmocka_unit_test(test_cpu_not_chosen),
		cmocka_unit_test(test_negative_left_out),
		cmocka_unit_test(test_samples),
		cmocka_unit_test(test_refused),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
