// SPDX-License-Identifier: GPL-2.0-only
/*
 * runanswer.c - the checks of the module's answers (see runanswer.h):
 * AB_IOC_INFO, AB_IOC_RUN and AB_IOC_LOOKUP, each against what was asked,
 * before anything of the answer is read.
 */
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "ab_nodes.h"
#include "runanswer.h"

int ab_info_answer_check(struct ab_info *info, struct ab_strategy_info *si,
			 uint32_t have, char *why, size_t len)
{
	uint32_t i;

	info->version[sizeof(info->version) - 1] = '\0';
	if (!info->page_size || (info->page_size & (info->page_size - 1))) {
		snprintf(
			why, len,
			"the module's AB_IOC_INFO answer makes no sense: page size %u",
			info->page_size);
		return -EPROTO;
	}
	/* never more strategies than the caller made room for */
	if (info->nr_strategies > have)
		info->nr_strategies = have;
	for (i = 0; si && i < info->nr_strategies; i++) {
		si[i].name[sizeof(si[i].name) - 1] = '\0';
		si[i].desc[sizeof(si[i].desc) - 1] = '\0';
	}
	return 0;
}

/*
 * The output fields of an answer, from byte @out of the @size bytes of
 * @ans on: those of @got, the answer as it came, unless @err is -EPROTO (a
 * bad answer is not used at all: its outputs stay zero). Returns @err.
 */
static int answer_outputs(void *ans, const void *got, size_t out, size_t size,
			  int err)
{
	if (err != -EPROTO)
		memcpy((char *)ans + out, (const char *)got + out, size - out);
	else
		memset((char *)ans + out, 0, size - out);
	return err;
}

/* One inconsistency of a run's answer into @why; -EPROTO. */
static int bad_answer(char *why, size_t len, const char *what,
		      unsigned long long got, unsigned long long most)
{
	snprintf(
		why, len,
		"the module's answer makes no sense: %s %llu, at most %llu possible; nothing of this run is used",
		what, got, most);
	return -EPROTO;
}

/*
 * ab_run.obj_node of @got against its rules: most first, -1 past the last
 * (with no objects), at most node_checked in all with the spread ones, and
 * without a node asked for the target and hits those of its first entry.
 * 0, or -EPROTO with the reason in @why.
 */
static int obj_nodes_check(const struct ab_run *req, const struct ab_run *got,
			   char *why, size_t len)
{
	uint64_t sum = got->obj_spread;
	int i;

	for (i = 0; i < AB_RUN_OBJ_NODES; i++) {
		if (got->obj_node[i] < 0
			    ? got->obj_node_objs[i] ||
				      (i + 1 < AB_RUN_OBJ_NODES &&
				       got->obj_node[i + 1] >= 0)
			    : !got->obj_node_objs[i] ||
				      (i && got->obj_node_objs[i] >
						    got->obj_node_objs[i - 1]))
			return bad_answer(
				why, len,
				"objects of a node in the list of nodes",
				got->obj_node_objs[i],
				i ? got->obj_node_objs[i - 1] : 0);
		sum += got->obj_node_objs[i];
	}
	if (sum > got->node_checked)
		return bad_answer(why, len, "objects the list of nodes names",
				  sum, got->node_checked);
	if (req->node < 0 && got->obj_node[0] >= 0 &&
	    (got->target_node != got->obj_node[0] ||
	     got->node_hits != got->obj_node_objs[0]))
		return bad_answer(why, len, "node hits on the node named",
				  got->node_hits, got->obj_node_objs[0]);
	return 0;
}

int ab_run_answer_check(const struct ab_run *req, struct ab_run *ans, int err,
			char *why, size_t len)
{
	const size_t out = offsetof(struct ab_run, trials_done);
	struct ab_run got = *ans;

	/* the request stays the caller's own, whatever came back */
	*ans = *req;
	/* a module before version 7 names no list: none, not node 0 */
	if (got.size < AB_RUN_SIZE_VER7)
		ab_nodes_clear(&got);
	if (err && err != -EINTR) {
		memset((char *)ans + out, 0, sizeof(*ans) - out);
		/* a refusal's limit, the one field written then */
		if (err != -E2BIG && err != -EBUSY)
			return err;
		if (got.limit >= AB_LIMIT_NR ||
		    (err == -EBUSY && got.limit != AB_LIMIT_NONE &&
		     got.limit != AB_LIMIT_BUDGET &&
		     got.limit != AB_LIMIT_ATOMIC))
			return bad_answer(why, len,
					  err == -EBUSY ? "limit of an EBUSY"
							: "limit of an E2BIG",
					  got.limit,
					  err == -EBUSY ? AB_LIMIT_ATOMIC
							: AB_LIMIT_NR - 1);
		ans->limit = got.limit;
		/* and with an EBUSY, what the other runs held under it */
		if (err == -EBUSY)
			ans->limit_others = got.limit_others;
		return err;
	}
	if (got.limit != AB_LIMIT_NONE)
		err = bad_answer(why, len, "limit of a run done", got.limit,
				 AB_LIMIT_NONE);
	else if (got.limit_others)
		err = bad_answer(why, len,
				 "bytes of other runs named by a run done",
				 got.limit_others, 0);
	else if (got.trials_done > req->trials)
		err = bad_answer(why, len, "trials done", got.trials_done,
				 req->trials);
	else if (!err && got.trials_done != req->trials)
		err = bad_answer(
			why, len,
			"trials done by a finished run (fewer than asked)",
			got.trials_done, req->trials);
	else if (got.objects > (uint64_t)got.trials_done * req->batch)
		err = bad_answer(why, len, "objects", got.objects,
				 (uint64_t)got.trials_done * req->batch);
	else if (got.failed > got.trials_done)
		err = bad_answer(why, len, "failed allocations", got.failed,
				 got.trials_done);
	/* check trials: one, then one per 16 measured (common/ab_trial.h) */
	else if (got.node_checked >
		 ((uint64_t)got.trials_done / 16 + 1) * req->batch)
		err = bad_answer(why, len, "objects checked for their node",
				 got.node_checked,
				 ((uint64_t)got.trials_done / 16 + 1) *
					 req->batch);
	else if (got.node_hits > got.node_checked)
		err = bad_answer(why, len, "node hits", got.node_hits,
				 got.node_checked);
	/* the mapping check reads the objects the node check reads */
	else if (got.map_areas > got.node_checked)
		err = bad_answer(why, len,
				 "vmalloc areas checked for their mapping",
				 got.map_areas, got.node_checked);
	else if (!got.map_areas &&
		 (got.map_pages[AB_MAP_4K] || got.map_pages[AB_MAP_2M] ||
		  got.map_pages[AB_MAP_1G]))
		err = bad_answer(why, len, "mapping entries of no area",
				 got.map_pages[AB_MAP_4K] +
					 got.map_pages[AB_MAP_2M] +
					 got.map_pages[AB_MAP_1G],
				 0);
	else if (got.disturbed > got.trials_done)
		err = bad_answer(why, len, "disturbed trials", got.disturbed,
				 got.trials_done);
	else if (got.migrations > 2ULL * got.trials_done)
		err = bad_answer(why, len, "phases that changed CPU",
				 got.migrations, 2ULL * got.trials_done);
	else if (got.free_elsewhere > got.trials_done)
		err = bad_answer(why, len, "free phases off free_cpu",
				 got.free_elsewhere, got.trials_done);
	/* the longest wait for RCU is one of those summed */
	/* a phase takes at most the whole reserve, and only a pool's */
	else if (got.pool_from_reserve >
		 (uint64_t)got.trials_done * req->pool_min)
		err = bad_answer(why, len, "elements from the reserve",
				 got.pool_from_reserve,
				 (uint64_t)got.trials_done * req->pool_min);
	else if (got.pool_reserve_unmet > got.pool_from_reserve)
		err = bad_answer(why, len,
				 "elements from the reserve in unmet trials",
				 got.pool_reserve_unmet, got.pool_from_reserve);
	else if (got.drain_late > got.trials_done)
		err = bad_answer(why, len, "trials late back from RCU",
				 got.drain_late, got.trials_done);
	else if (got.cond_unmet > got.trials_done)
		err = bad_answer(why, len,
				 "trials that began without the condition",
				 got.cond_unmet, got.trials_done);
	/* a trial that met a fragmented condition saw no block above it */
	else if ((req->flags & AB_RUN_COND_EACH_TRIAL) &&
		 got.cond_max_order > (int32_t)AB_COND_MAX_FRAG_ORDER)
		err = bad_answer(why, len, "free order a trial began with",
				 (uint64_t)got.cond_max_order,
				 AB_COND_MAX_FRAG_ORDER);
	else if (got.drain_max_cycles > got.drain_cycles)
		err = bad_answer(why, len, "cycles of the longest RCU wait",
				 got.drain_max_cycles, got.drain_cycles);
	/* the memory reads are those of the check trials */
	else if (got.mem_trials > (uint64_t)got.trials_done / 16 + 1)
		err = bad_answer(why, len, "trials of the memory reads",
				 got.mem_trials,
				 (uint64_t)got.trials_done / 16 + 1);
	else if (got.mem_objects > (uint64_t)got.mem_trials * req->batch)
		err = bad_answer(why, len, "objects of the memory reads",
				 got.mem_objects,
				 (uint64_t)got.mem_trials * req->batch);
	else if (got.mem_trials && got.mem_free_min > got.mem_free_max) {
		snprintf(
			why, len,
			"the module's answer makes no sense: the least free memory one check trial took, %lld bytes, above the most, %lld; nothing of this run is used",
			(long long)got.mem_free_min,
			(long long)got.mem_free_max);
		err = -EPROTO;
	} else if (obj_nodes_check(req, &got, why, len)) {
		err = -EPROTO;
	} else if (strnlen(got.cache_name, sizeof(got.cache_name)) ==
		   sizeof(got.cache_name))
		err = bad_answer(why, len, "cache name length",
				 sizeof(got.cache_name),
				 sizeof(got.cache_name) - 1);
	err = answer_outputs(ans, &got, out, sizeof(*ans), err);
	/* the module's own size: which outputs it wrote (pool_reserve_unmet) */
	if (err != -EPROTO && got.size && got.size < ans->size)
		ans->size = got.size;
	return err;
}

int ab_lookup_answer_check(const struct ab_lookup *req, struct ab_lookup *ans,
			   int err, char *why, size_t len)
{
	const size_t out = offsetof(struct ab_lookup, checksum);
	struct ab_lookup got = *ans;

	*ans = *req;
	if (err && err != -EINTR) {
		memset((char *)ans + out, 0, sizeof(*ans) - out);
		return err;
	}
	if (got.trials_done > req->trials)
		err = bad_answer(why, len, "lookup passes done",
				 got.trials_done, req->trials);
	else if (!err && got.trials_done != req->trials)
		err = bad_answer(
			why, len,
			"lookup passes done by a finished run (fewer than asked)",
			got.trials_done, req->trials);
	return answer_outputs(ans, &got, out, sizeof(*ans), err);
}
