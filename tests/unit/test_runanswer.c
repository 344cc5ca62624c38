// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_runanswer.c - the module's answers checked against their requests
 * (lib/runanswer.c): counts that cannot be, a request the answer tries to
 * change, the limit a refusal names, and the INFO and LOOKUP answers.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "ab_nodes.h"
#include "ab_run.h"
#include "runlimits.h"
#include "runopts.h"
#include "runopts_fixture.h"

/* A consistent answer to @req: @done trials of @req->batch objects. */
static struct ab_run answer(const struct ab_run *req, uint32_t done)
{
	struct ab_run a = *req;

	a.trials_done = done;
	a.objects = (uint64_t)done * req->batch;
	/* one untimed check trial per 16 measured (common/ab_trial.h) */
	a.node_checked = ((uint64_t)done + 15) / 16 * req->batch;
	a.node_hits = a.node_checked;
	/* all of them on node 0, where the hits are counted (no --node) */
	ab_nodes_clear(&a);
	a.target_node = 0;
	if (a.node_checked) {
		a.obj_node[0] = 0;
		a.obj_node_objs[0] = a.node_checked;
	}
	a.tsc_khz = 1000000;
	a.clock_cycles = 20;
	return a;
}

/*
 * Module answers that do not fit their request are refused before the
 * CLI reads them (no samples past what was allocated, no unmeasured
 * counts), and the request itself cannot be changed by the answer.
 */
static void test_run_answers(void **state)
{
	struct ab_run_opts o;
	struct ab_run req, a;

	ab_run_opts_init(&o);
	o.trials = 10;
	o.batch = 4;
	assert_int_equal(
		ab_run_prepare(&o, &info, &kmalloc_si, &req, err, sizeof(err)),
		0);
	req.samples_ptr = 0x1000;
	req.samples_len = 10;

	a = answer(&req, 10);
	assert_int_equal(ab_run_answer_check(&req, &a, 0, err, sizeof(err)), 0);
	assert_int_equal(a.trials_done, 10);
	assert_int_equal(a.objects, 40);
	/* an interrupted run: a partial answer is fine */
	a = answer(&req, 3);
	assert_int_equal(
		ab_run_answer_check(&req, &a, -EINTR, err, sizeof(err)),
		-EINTR);
	assert_int_equal(a.trials_done, 3);
	/*
	 * interrupted before the module wrote an answer: the buffer is the
	 * request as sent, which names no node (Ctrl-C between two rows gave
	 * status 1, "objects of a node in the list of nodes 0")
	 */
	a = req;
	assert_int_equal(
		ab_run_answer_check(&req, &a, -EINTR, err, sizeof(err)),
		-EINTR);
	assert_int_equal(a.trials_done, 0);
	/* more trials than asked: would read past the samples */
	a = answer(&req, 11);
	assert_int_equal(
		ab_run_answer_check(&req, &a, -EINTR, err, sizeof(err)),
		-EPROTO);
	assert_non_null(strstr(err, "trials done 11, at most 10"));
	assert_int_equal(a.trials_done, 0);
	assert_int_equal(a.objects, 0);
	/* success with fewer trials than asked */
	a = answer(&req, 9);
	assert_int_equal(ab_run_answer_check(&req, &a, 0, err, sizeof(err)),
			 -EPROTO);
	assert_int_equal(a.trials_done, 0);
	/* counts that do not fit each other */
	a = answer(&req, 10);
	a.objects = 41;
	assert_int_equal(ab_run_answer_check(&req, &a, 0, err, sizeof(err)),
			 -EPROTO);
	a = answer(&req, 10);
	a.failed = 11;
	assert_int_equal(ab_run_answer_check(&req, &a, 0, err, sizeof(err)),
			 -EPROTO);
	a = answer(&req, 10);
	a.node_hits = 5;
	assert_int_equal(ab_run_answer_check(&req, &a, 0, err, sizeof(err)),
			 -EPROTO);
	/* 10 trials: one check trial, so at most 4 objects checked */
	a = answer(&req, 10);
	a.node_checked = 5;
	a.node_hits = 0;
	assert_int_equal(ab_run_answer_check(&req, &a, 0, err, sizeof(err)),
			 -EPROTO);
	/*
	 * where the objects were: a mixed list is fine; a list out of order,
	 * naming more than were checked, or whose first node is not the one
	 * the hits name (no --node) is refused; a module before version 7
	 * (its answer's size) names none, not node 0
	 */
	a = answer(&req, 10);
	a.obj_node[0] = 2;
	a.obj_node_objs[0] = 3;
	a.obj_node[1] = 0;
	a.obj_node_objs[1] = 1;
	a.target_node = 2;
	a.node_hits = 3;
	assert_int_equal(ab_run_answer_check(&req, &a, 0, err, sizeof(err)), 0);
	assert_int_equal(a.obj_node[1], 0);
	a = answer(&req, 10);
	a.obj_node[1] = 2;
	a.obj_node_objs[1] = 5;
	assert_int_equal(ab_run_answer_check(&req, &a, 0, err, sizeof(err)),
			 -EPROTO);
	a = answer(&req, 10);
	a.obj_spread = 1;
	assert_int_equal(ab_run_answer_check(&req, &a, 0, err, sizeof(err)),
			 -EPROTO);
	assert_non_null(strstr(err, "objects the list of nodes names 5"));
	a = answer(&req, 10);
	a.target_node = 1;
	assert_int_equal(ab_run_answer_check(&req, &a, 0, err, sizeof(err)),
			 -EPROTO);
	a = answer(&req, 10);
	a.size = AB_RUN_SIZE_VER6;
	memset(a.obj_node, 0, sizeof(a.obj_node));
	memset(a.obj_node_objs, 0, sizeof(a.obj_node_objs));
	assert_int_equal(ab_run_answer_check(&req, &a, 0, err, sizeof(err)), 0);
	assert_int_equal(a.obj_node[0], -1);
	assert_int_equal(a.target_node, 0);
	/* disturbances: at most one per trial, two CPU changes per trial */
	a = answer(&req, 10);
	a.disturbed = 10;
	a.switches = 1000;
	a.migrations = 20;
	assert_int_equal(ab_run_answer_check(&req, &a, 0, err, sizeof(err)), 0);
	a = answer(&req, 10);
	a.disturbed = 11;
	assert_int_equal(ab_run_answer_check(&req, &a, 0, err, sizeof(err)),
			 -EPROTO);
	a = answer(&req, 10);
	a.migrations = 21;
	assert_int_equal(ab_run_answer_check(&req, &a, 0, err, sizeof(err)),
			 -EPROTO);
	/* the spread of the memory reads: the least is not above the most */
	a = answer(&req, 10);
	a.mem_trials = 1;
	a.mem_objects = 4;
	a.mem_free_min = -4096;
	a.mem_free_max = -4096;
	assert_int_equal(ab_run_answer_check(&req, &a, 0, err, sizeof(err)), 0);
	assert_true(a.mem_free_min == -4096);
	a = answer(&req, 10);
	a.mem_trials = 1;
	a.mem_objects = 4;
	a.mem_free_min = 8192;
	a.mem_free_max = 4096;
	assert_int_equal(ab_run_answer_check(&req, &a, 0, err, sizeof(err)),
			 -EPROTO);
	assert_non_null(strstr(err, "8192 bytes, above the most, 4096"));
	a = answer(&req, 10);
	a.free_elsewhere = 11;
	assert_int_equal(ab_run_answer_check(&req, &a, 0, err, sizeof(err)),
			 -EPROTO);
	/* the answer cannot move the samples or change the request */
	a = answer(&req, 10);
	a.samples_ptr = 0xdead0000;
	a.trials = 1000000;
	assert_int_equal(ab_run_answer_check(&req, &a, 0, err, sizeof(err)), 0);
	assert_int_equal(a.samples_ptr, 0x1000);
	assert_int_equal(a.trials, 10);
	/* no answer (an error): stale outputs are cleared */
	a = answer(&req, 10);
	assert_int_equal(
		ab_run_answer_check(&req, &a, -EBUSY, err, sizeof(err)),
		-EBUSY);
	assert_int_equal(a.trials_done, 0);
	assert_int_equal(a.objects, 0);
	assert_int_equal(a.clock_cycles, 0);
}

/*
 * A refusal names one limit: the module's ab_run.limit survives the answer
 * check when it is one E2BIG or EBUSY may name, and becomes the sentence.
 */
static void test_refusal_names_the_limit(void **state)
{
	struct ab_run_opts o;
	struct ab_run req, a;
	struct ab_footprint fp;

	ab_run_opts_init(&o);
	o.trials = 5;
	o.batch = 16000;
	assert_int_equal(ab_opt_gfp("atomic", &o, err, sizeof(err)), 0);
	assert_int_equal(ab_opt_size("4096", &o, err, sizeof(err)), 0);
	assert_int_equal(ab_run_prepare_fp(&o, &info, &kmalloc_si, &req, &fp,
					   err, sizeof(err)),
			 0);
	a = req;
	a.limit = AB_LIMIT_ATOMIC;
	a.trials_done = 3;
	assert_int_equal(
		ab_run_answer_check(&req, &a, -EBUSY, err, sizeof(err)),
		-EBUSY);
	assert_int_equal(a.limit, AB_LIMIT_ATOMIC);
	assert_int_equal(a.trials_done, 0);
	ab_limit_refusal(&a, &info, &kmalloc_si, &fp, -EBUSY, err, sizeof(err));
	assert_non_null(strstr(err, "the atomic limit (AB_ATOMIC_MAX_BYTES)"));
	assert_non_null(strstr(err, "this run holds 65536000 bytes"));
	assert_non_null(strstr(err, "67108864"));
	assert_null(strstr(err, "budget"));
	a = req;
	a.limit = AB_LIMIT_BUDGET;
	assert_int_equal(
		ab_run_answer_check(&req, &a, -EBUSY, err, sizeof(err)),
		-EBUSY);
	ab_limit_refusal(&a, &info, &kmalloc_si, &fp, -EBUSY, err, sizeof(err));
	assert_non_null(strstr(err, "memory budget (max_outstanding_mb)"));
	assert_non_null(strstr(err, "268435456"));
	assert_null(strstr(err, "atomic"));
	a = req;
	a.limit = AB_LIMIT_BATCH;
	assert_int_equal(
		ab_run_answer_check(&req, &a, -E2BIG, err, sizeof(err)),
		-E2BIG);
	ab_limit_refusal(&a, &info, &kmalloc_si, &fp, -E2BIG, err, sizeof(err));
	assert_non_null(strstr(
		err,
		"the batch limit (max_batch): 16000 objects per trial, the limit is 1048576"));
	/* an older module says nothing: both possible limits, so said */
	a = req;
	assert_int_equal(
		ab_run_answer_check(&req, &a, -EBUSY, err, sizeof(err)),
		-EBUSY);
	ab_limit_refusal(&a, &info, &kmalloc_si, &fp, -EBUSY, err, sizeof(err));
	assert_non_null(strstr(err, "does not say which"));
	/* limits EBUSY cannot name, values out of range, on a success */
	a = req;
	a.limit = AB_LIMIT_BATCH;
	assert_int_equal(
		ab_run_answer_check(&req, &a, -EBUSY, err, sizeof(err)),
		-EPROTO);
	a = req;
	a.limit = AB_LIMIT_NR;
	assert_int_equal(
		ab_run_answer_check(&req, &a, -E2BIG, err, sizeof(err)),
		-EPROTO);
	a = answer(&req, 5);
	a.limit = AB_LIMIT_ATOMIC;
	assert_int_equal(ab_run_answer_check(&req, &a, 0, err, sizeof(err)),
			 -EPROTO);
	assert_int_equal(a.trials_done, 0);
	/* other errors carry no limit */
	a = req;
	a.limit = AB_LIMIT_ATOMIC;
	assert_int_equal(
		ab_run_answer_check(&req, &a, -EINVAL, err, sizeof(err)),
		-EINVAL);
	assert_int_equal(a.limit, AB_LIMIT_NONE);
}

static void test_lookup_and_info_answers(void **state)
{
	struct ab_lookup req = { .size = sizeof(req), .trials = 5 }, a;
	struct ab_strategy_info si[2];
	struct ab_info i = info;

	a = req;
	a.trials_done = 5;
	assert_int_equal(ab_lookup_answer_check(&req, &a, 0, err, sizeof(err)),
			 0);
	a = req;
	a.trials_done = 6;
	assert_int_equal(
		ab_lookup_answer_check(&req, &a, -EINTR, err, sizeof(err)),
		-EPROTO);
	assert_int_equal(a.trials_done, 0);
	a = req;
	a.trials_done = 2;
	assert_int_equal(ab_lookup_answer_check(&req, &a, 0, err, sizeof(err)),
			 -EPROTO);

	/* more strategies than room for them; strings without their NUL */
	memset(si, 'x', sizeof(si));
	memset(i.version, 'v', sizeof(i.version));
	i.nr_strategies = 1000;
	assert_int_equal(ab_info_answer_check(&i, si, 2, err, sizeof(err)), 0);
	assert_int_equal(i.nr_strategies, 2);
	assert_int_equal(strlen(i.version), sizeof(i.version) - 1);
	assert_int_equal(strlen(si[1].name), sizeof(si[1].name) - 1);
	assert_int_equal(strlen(si[1].desc), sizeof(si[1].desc) - 1);
	i.page_size = 0;
	assert_int_equal(ab_info_answer_check(&i, si, 2, err, sizeof(err)),
			 -EPROTO);
	i.page_size = 4097;
	assert_int_equal(ab_info_answer_check(&i, si, 2, err, sizeof(err)),
			 -EPROTO);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_run_answers),
		cmocka_unit_test(test_refusal_names_the_limit),
		cmocka_unit_test(test_lookup_and_info_answers),
	};

	return cmocka_run_group_tests_name("runanswer", tests, NULL, NULL);
}
