// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_trial.c - the trial loop both backends compile (common/ab_trial.h)
 * and the run check the module, the user backend and the CLI apply
 * (common/ab_run.h), with a clock that advances 10 cycles per read and an
 * allocator that fails where a test says: counts, sample layouts, failures
 * that end their trial, pairs, warm-up, the trial in which a stop arrives
 * (kept), and every kind of refusal.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include <linux/allocbench.h>
#include "ab_compat.h"

/* a clock that advances 10 cycles per read, ab_clock.h's AB_CYCLES() */
static u64 clock_now;
#define AB_CYCLES() (clock_now += 10)
#include "ab_trial.h"
#include "ab_run.h"

/* The test's run: the loop's state, then its own. */
struct test_ctx {
	struct ab_loop loop;
	int live;	/* objects allocated and not freed */
	int calls;	/* allocations tried */
	int fail_at;	/* the allocation that fails (from 1), 0: none */
	int stop_after; /* trials after which next() stops the run, 0: never */
	int trials_seen;
	int put_err;
	int disturb_every; /* every Nth alloc phase sees 3 switches, 0: none */
	int phases;
	int mem_reads;	/* ops.mem calls */
	int mem_before; /* live objects at the last read before a phase */
	struct ab_sample out[64];
};

static struct test_ctx *tc(struct ab_loop *l)
{
	return (struct test_ctx *)((char *)l - offsetof(struct test_ctx, loop));
}

static void *fake_alloc(struct ab_loop *l)
{
	struct test_ctx *c = tc(l);

	if (++c->calls == c->fail_at)
		return NULL;
	c->live++;
	return c;
}

static void fake_free(struct ab_loop *l, void *obj)
{
	tc(l)->live--;
}

/* AB_RUN_WRITE's place in the loops: nothing to write here */
static void fake_write(struct ab_loop *l, void *obj)
{
}

static u32 alloc_phase(struct ab_loop *l, u64 *cycles)
{
	struct test_ctx *c = tc(l);
	u32 n = ab_alloc_loop(l, cycles, fake_alloc, fake_free, fake_write);

	c->phases++;
	if (c->disturb_every && !(c->phases % c->disturb_every))
		ab_phase_note(l, 10, 13, 0, 0, AB_SAMPLE_ALLOC_DISTURBED);
	else
		ab_phase_note(l, 10, 10, 1, 1, AB_SAMPLE_ALLOC_DISTURBED);
	return n;
}

static void free_phase(struct ab_loop *l, u32 n, u64 *cycles)
{
	ab_free_loop(l, n, cycles, fake_free);
}

static void check(struct ab_loop *l, struct ab_run *r, u32 n)
{
	/* the trial's objects are all held here */
	assert_int_equal(tc(l)->live, n);
	r->node_checked += n;
	r->node_hits += n;
}

static int put(struct ab_loop *l, const struct ab_run *r, u64 index,
	       const struct ab_sample *smp, u32 count)
{
	struct test_ctx *c = tc(l);

	assert_true(index + count <= 64);
	memcpy(&c->out[index], smp, count * sizeof(*smp));
	return c->put_err;
}

static int next(struct ab_loop *l)
{
	struct test_ctx *c = tc(l);

	/* every trial ends with nothing held */
	assert_int_equal(c->live, 0);
	return ++c->trials_seen == c->stop_after ? -EINTR : 0;
}

static const struct ab_trial_ops ops = {
	.alloc = alloc_phase,
	.check = check,
	.free = free_phase,
	.put = put,
	.next = next,
};

static void *objs[16];
static u32 perm[16];
static struct ab_sample slots[16];

/* A context for @r with @nr allocations per trial. */
static void ctx_for(struct test_ctx *c, const struct ab_run *r, u32 nr)
{
	memset(c, 0, sizeof(*c));
	c->loop.objs = objs;
	c->loop.free_order = perm;
	c->loop.smp = slots;
	c->loop.nr = nr;
	c->loop.single = r->timing == AB_TIMING_SINGLE;
	c->loop.pair = r->free_pattern == AB_FREE_PAIR;
	memset(slots, 0, sizeof(slots));
}

static struct ab_run run_of(u32 batch, u32 trials, u32 timing, u32 pattern)
{
	struct ab_run r = { .batch = batch,
			    .trials = trials,
			    .timing = timing,
			    .free_pattern = pattern };

	return r;
}

static void test_batch_counts(void **state)
{
	struct ab_run r = run_of(4, 3, AB_TIMING_BATCH, AB_FREE_FIFO);
	struct test_ctx c;
	int i;

	r.warmup = 2;
	ctx_for(&c, &r, 4);
	assert_int_equal(ab_run_trials(&ops, &c.loop, &r), 0);
	assert_int_equal(r.trials_done, 3);
	assert_int_equal(r.objects, 12);
	assert_int_equal(r.failed, 0);
	/* checked in one untimed check trial after the warm-up only */
	assert_int_equal(r.node_checked, 4);
	assert_int_equal(c.calls, 24);
	for (i = 0; i < 3; i++) {
		assert_int_equal(c.out[i].nr_objs, 4);
		assert_int_equal(c.out[i].flags, 0);
		/* one clock pair per phase: one tick of the fake clock */
		assert_int_equal(c.out[i].alloc_cycles, 10);
		assert_int_equal(c.out[i].free_cycles, 10);
	}
}

/* A failure ends its trial, is counted once, and what it held is freed. */
static void test_failure_ends_trial(void **state)
{
	struct ab_run r = run_of(4, 3, AB_TIMING_BATCH, AB_FREE_LIFO);
	struct test_ctx c;

	ctx_for(&c, &r, 4);
	/* the third allocation of the second measured trial (the first
	 * trial is the check trial)
	 */
	c.fail_at = 11;
	assert_int_equal(ab_run_trials(&ops, &c.loop, &r), 0);
	assert_int_equal(r.objects, 4 + 2 + 4);
	assert_int_equal(r.failed, 1);
	assert_int_equal(c.out[1].nr_objs, 2);
	assert_int_equal(c.out[1].flags, AB_SAMPLE_FAILED);
	assert_int_equal(c.out[2].flags, 0);
}

/*
 * Single timing: one sample per slot, trial-major; the slot that failed
 * flagged with its cycles, the slots after it zeroed.
 */
static void test_single_layout(void **state)
{
	struct ab_run r = run_of(3, 2, AB_TIMING_SINGLE, AB_FREE_SHUFFLE);
	struct test_ctx c;
	int i;

	r.seed = 7;
	ctx_for(&c, &r, 3);
	c.fail_at = 8; /* the second slot of the second measured trial */
	assert_int_equal(ab_run_trials(&ops, &c.loop, &r), 0);
	for (i = 0; i < 3; i++) {
		assert_int_equal(c.out[i].nr_objs, 1);
		assert_int_equal(c.out[i].alloc_cycles, 10);
		assert_int_equal(c.out[i].free_cycles, 10);
	}
	assert_int_equal(c.out[3].nr_objs, 1);
	assert_int_equal(c.out[4].nr_objs, 0);
	assert_int_equal(c.out[4].flags, AB_SAMPLE_FAILED);
	assert_int_equal(c.out[4].alloc_cycles, 10);
	assert_int_equal(c.out[4].free_cycles, 0);
	assert_int_equal(c.out[5].nr_objs, 0);
	assert_int_equal(c.out[5].flags, 0);
	assert_int_equal(c.out[5].alloc_cycles, 0);
	assert_int_equal(r.objects, 4);
	assert_int_equal(r.failed, 1);
}

/* Pairs hold nothing between phases: no node check, no free phase. */
static void test_pairs(void **state)
{
	struct ab_run r = run_of(4, 2, AB_TIMING_BATCH, AB_FREE_PAIR);
	struct test_ctx c;

	ctx_for(&c, &r, 4);
	assert_int_equal(ab_run_trials(&ops, &c.loop, &r), 0);
	assert_int_equal(r.node_checked, 0);
	assert_int_equal(r.objects, 8);
	assert_int_equal(c.out[0].free_cycles, 0);
	r = run_of(4, 2, AB_TIMING_SINGLE, AB_FREE_PAIR);
	ctx_for(&c, &r, 4);
	assert_int_equal(ab_run_trials(&ops, &c.loop, &r), 0);
	assert_int_equal(c.out[7].alloc_cycles, 10);
	assert_int_equal(c.out[7].free_cycles, 10);
}

/*
 * A stop seen after the second trial ends the run there, with both
 * trials recorded: the one in which it arrived ran to its end.
 */
static void test_stop_keeps_its_trial(void **state)
{
	struct ab_run r = run_of(2, 5, AB_TIMING_BATCH, AB_FREE_FIFO);
	struct test_ctx c;

	ctx_for(&c, &r, 2);
	c.stop_after = 3; /* the check trial, then two measured */
	assert_int_equal(ab_run_trials(&ops, &c.loop, &r), -EINTR);
	assert_int_equal(r.trials_done, 2);
	assert_int_equal(r.objects, 4);
	assert_int_equal(c.out[1].nr_objs, 2);
	assert_int_equal(c.out[2].nr_objs, 0);
	/* a stop during warm-up: nothing recorded */
	r = run_of(2, 5, AB_TIMING_BATCH, AB_FREE_FIFO);
	r.warmup = 3;
	ctx_for(&c, &r, 2);
	c.stop_after = 2;
	assert_int_equal(ab_run_trials(&ops, &c.loop, &r), -EINTR);
	assert_int_equal(r.trials_done, 0);
}

/*
 * Node checks run in untimed trials (AB_CHECK_EVERY): one after the
 * warm-up and one before every 16 measured trials, never in a measured
 * one; their samples are not recorded. None with AB_RUN_NO_NODE_CHECK.
 */
static void test_check_trials(void **state)
{
	struct ab_run r = run_of(2, 33, AB_TIMING_BATCH, AB_FREE_FIFO);
	struct test_ctx c;

	r.warmup = 1;
	ctx_for(&c, &r, 2);
	assert_int_equal(ab_run_trials(&ops, &c.loop, &r), 0);
	assert_int_equal(r.trials_done, 33);
	assert_int_equal(r.objects, 66);
	assert_int_equal(r.node_checked, 3 * 2);
	assert_int_equal(c.calls, (1 + 3 + 33) * 2);
	r = run_of(2, 33, AB_TIMING_BATCH, AB_FREE_FIFO);
	r.flags = AB_RUN_NO_NODE_CHECK;
	ctx_for(&c, &r, 2);
	assert_int_equal(ab_run_trials(&ops, &c.loop, &r), 0);
	assert_int_equal(r.node_checked, 0);
	assert_int_equal(c.calls, 33 * 2);
}

/*
 * The memory reads (ops->mem) bracket the alloc phase of each check trial:
 * one read before it with nothing of the trial held, one after it with
 * every object held, and none in measured trials or with pairs.
 */
static void mem(struct ab_loop *l, struct ab_run *r, u32 n, bool held)
{
	struct test_ctx *c = tc(l);

	c->mem_reads++;
	if (!held) {
		c->mem_before = c->live;
		return;
	}
	assert_int_equal(c->live, n);
	assert_int_equal(c->mem_before, 0);
	r->mem_objects += n;
	r->mem_trials++;
}

static void test_mem_reads(void **state)
{
	struct ab_trial_ops mops = ops;
	struct ab_run r = run_of(2, 33, AB_TIMING_BATCH, AB_FREE_FIFO);
	struct test_ctx c;

	mops.mem = mem;
	r.warmup = 1;
	ctx_for(&c, &r, 2);
	assert_int_equal(ab_run_trials(&mops, &c.loop, &r), 0);
	assert_int_equal(c.mem_reads, 3 * 2);
	assert_int_equal(r.mem_trials, 3);
	assert_int_equal(r.mem_objects, r.node_checked);
	r = run_of(2, 33, AB_TIMING_BATCH, AB_FREE_PAIR);
	ctx_for(&c, &r, 2);
	assert_int_equal(ab_run_trials(&mops, &c.loop, &r), 0);
	assert_int_equal(c.mem_reads, 0);
	assert_int_equal(r.mem_objects, 0);
}

/*
 * Disturbances (ab_phase_note()) are counted for measured trials only and
 * marked in the samples' flags only with AB_RUN_MARK_DISTURBED; a CPU
 * change counts as one migration.
 */
static void test_disturbed(void **state)
{
	struct ab_run r = run_of(2, 8, AB_TIMING_BATCH, AB_FREE_FIFO);
	struct test_ctx c;
	int i, marked = 0;

	r.flags = AB_RUN_NO_NODE_CHECK;
	ctx_for(&c, &r, 2);
	c.disturb_every = 2; /* measured trials 1, 3, 5, 7 */
	assert_int_equal(ab_run_trials(&ops, &c.loop, &r), 0);
	assert_int_equal(r.disturbed, 4);
	assert_int_equal(r.switches, 12);
	assert_int_equal(r.migrations, 0);
	for (i = 0; i < 8; i++)
		assert_int_equal(c.out[i].flags, 0);
	r = run_of(2, 8, AB_TIMING_BATCH, AB_FREE_FIFO);
	r.flags = AB_RUN_NO_NODE_CHECK | AB_RUN_MARK_DISTURBED;
	ctx_for(&c, &r, 2);
	c.loop.mark_disturbed = true;
	c.disturb_every = 2;
	assert_int_equal(ab_run_trials(&ops, &c.loop, &r), 0);
	for (i = 0; i < 8; i++) {
		assert_int_equal(c.out[i].flags,
				 i % 2 ? AB_SAMPLE_ALLOC_DISTURBED : 0);
		marked += !!c.out[i].flags;
	}
	assert_int_equal(marked, r.disturbed);
	/* a CPU change: a migration, and disturbed */
	ctx_for(&c, &r, 2);
	ab_phase_note(&c.loop, 5, 5, 0, 1, AB_SAMPLE_FREE_DISTURBED);
	assert_int_equal(c.loop.migrations, 1);
	assert_int_equal(c.loop.switches, 0);
	assert_int_equal(c.loop.disturb, AB_SAMPLE_FREE_DISTURBED);
}

/* Samples that cannot be stored end the run with that error. */
static void test_put_error(void **state)
{
	struct ab_run r = run_of(2, 5, AB_TIMING_BATCH, AB_FREE_FIFO);
	struct test_ctx c;

	ctx_for(&c, &r, 2);
	c.put_err = -EFAULT;
	assert_int_equal(ab_run_trials(&ops, &c.loop, &r), -EFAULT);
	assert_int_equal(r.trials_done, 1);
}

/* A per-trial strategy writes one sample per trial in single timing. */
static void test_per_trial_single(void **state)
{
	struct ab_run r = run_of(5, 2, AB_TIMING_SINGLE, AB_FREE_FIFO);
	struct test_ctx c;
	struct ab_sample one;
	const struct ab_sample *smp;

	ctx_for(&c, &r, 5);
	c.loop.per_trial = true;
	slots[0].alloc_cycles = 70;
	slots[0].free_cycles = 30;
	assert_int_equal(ab_trial_samples(&c.loop, 5, 1, 2, &one, &smp), 1);
	assert_ptr_equal(smp, &one);
	assert_int_equal(one.alloc_cycles, 70);
	assert_int_equal(one.free_cycles, 30);
	assert_int_equal(one.nr_objs, 5);
	assert_int_equal(one.flags, 0);
	assert_int_equal(ab_trial_samples(&c.loop, 0, 1, 2, &one, &smp), 1);
	assert_int_equal(one.free_cycles, 0);
	assert_int_equal(one.flags, AB_SAMPLE_FAILED);
	assert_int_equal(ab_run_samples_per_trial(&r, AB_STRATEGY_PER_TRIAL),
			 1);
	assert_int_equal(ab_run_samples_per_trial(&r, 0), 5);
	r.timing = AB_TIMING_BATCH;
	assert_int_equal(ab_run_samples_per_trial(&r, 0), 1);
}

static void test_clock_pair(void **state)
{
	assert_int_equal(ab_clock_pair(), 10);
}

/* ---- the run check ---- */

static const struct ab_info limits = {
	.max_batch = 1024,
	.max_trials = 1000,
	.max_bytes = 1 << 20,
	.nr_node_ids = 2,
	.page_size = 4096,
};

static const struct ab_strategy_info slab = {
	.params = AB_PARAM_SIZE | AB_PARAM_GFP | AB_PARAM_NODE,
	.max_size = 8192,
};
static const struct ab_strategy_info pages = {
	.params = AB_PARAM_ORDER | AB_PARAM_GFP,
	.max_order = 3,
};
static const struct ab_strategy_info none = { .flags = AB_STRATEGY_BASELINE };
static const struct ab_strategy_info rcu = {
	.params = AB_PARAM_SIZE | AB_PARAM_GFP,
	.flags = AB_STRATEGY_RCU,
	.max_size = 8192,
};
static const struct ab_strategy_info nolock = {
	.params = AB_PARAM_SIZE,
	.flags = AB_STRATEGY_ANY_CONTEXT,
	.max_size = 8192,
};
static const struct ab_strategy_info gone = {
	.params = AB_PARAM_SIZE | AB_PARAM_GFP,
	.flags = AB_STRATEGY_UNAVAILABLE,
	.max_size = 8192,
};
static const struct ab_strategy_info cache = {
	.params = AB_PARAM_SIZE | AB_PARAM_GFP | AB_PARAM_NODE | AB_PARAM_CACHE,
	.max_size = 8192,
};
static const struct ab_strategy_info mempool = {
	.params = AB_PARAM_SIZE | AB_PARAM_GFP | AB_PARAM_POOL,
	.flags = AB_STRATEGY_MEM_MEMPOOL,
	.max_size = 8192,
};
static const struct ab_strategy_info reserve = {
	.params = AB_PARAM_SIZE | AB_PARAM_POOL,
	.flags = AB_STRATEGY_MEM_MEMPOOL,
	.max_size = 8192,
};
static const struct ab_strategy_info percpu = {
	.params = AB_PARAM_SIZE | AB_PARAM_GFP | AB_PARAM_ALIGN,
	.flags = AB_STRATEGY_MEM_PERCPU,
	.max_size = 8192,
};

static struct ab_run ok_run(void)
{
	struct ab_run r = {
		.batch = 4, .trials = 10, .node = -1, .obj_size = 64
	};

	return r;
}

static int check_of(const struct ab_run *r, const struct ab_info *info,
		    const struct ab_strategy_info *si)
{
	const char *why = NULL;
	int err = ab_run_check(r, info, si, &why);

	/* every refusal names its rule */
	assert_true(!err || (why && why[0]));
	return err;
}

#define REFUSED(field_set, si, err)                               \
	do {                                                      \
		struct ab_run r = ok_run();                       \
		field_set;                                        \
		assert_int_equal(check_of(&r, &limits, si), err); \
	} while (0)

static void test_run_check(void **state)
{
	struct ab_run run = ok_run();
	struct ab_info rt = limits;

	assert_int_equal(check_of(&run, &limits, &slab), 0);
	REFUSED(r.flags = 1U << 31, &slab, -EINVAL);
	REFUSED(r.flags = AB_RUN_NOMERGE, &slab, -EINVAL);
	REFUSED(r.reserved[1] = 1, &slab, -EINVAL);
	/*
	 * a mempool's reserve: its own, at least one element; a sleeping
	 * mempool_alloc() holds no more than it (it would wait for a free
	 * only the run makes), unless pairs hold one at a time; the reserve
	 * alone serves no more than it; no __GFP_ZERO
	 */
	REFUSED(r.pool_min = 4, &slab, -EINVAL);
	REFUSED(r.pool_min = 0, &mempool, -EINVAL);
	REFUSED(r.pool_min = 4, &mempool, 0);
	REFUSED(r.pool_min = 3, &mempool, -EINVAL);
	REFUSED((r.pool_min = 3, r.gfp = AB_GFP_NOWAIT), &mempool, 0);
	REFUSED((r.pool_min = 1, r.free_pattern = AB_FREE_PAIR), &mempool, 0);
	REFUSED((r.pool_min = 4, r.gfp = AB_GFP_KERNEL_ZERO), &mempool,
		-EINVAL);
	REFUSED((r.pool_min = 4, r.pool_reserved = 1), &mempool, -EINVAL);
	REFUSED(r.pool_min = 3, &reserve, -EINVAL);
	REFUSED((r.pool_min = 1, r.free_pattern = AB_FREE_PAIR), &reserve, 0);
	REFUSED(r.pool_min = (uint32_t)limits.max_batch + 1, &mempool, -EINVAL);
	/* a per-CPU object's alignment: a page at most */
	REFUSED(r.align = 4096, &percpu, 0);
	REFUSED(r.align = 8192, &percpu, -EINVAL);
	REFUSED(r.sheaf_capacity = 1, &cache, -EINVAL);
	/* an RCU head needs AB_RCU_MIN_SIZE bytes; 16 is enough */
	REFUSED(r.obj_size = AB_RCU_MIN_SIZE - 1, &rcu, -EINVAL);
	REFUSED(r.obj_size = AB_RCU_MIN_SIZE, &rcu, 0);
	/* a strategy the kernel lacks, whatever the request */
	REFUSED(r.obj_size = 64, &gone, -EOPNOTSUPP);
	/* the any-context pair: IRQs off with no GFP choice */
	REFUSED(r.context = AB_CTX_IRQ_OFF, &nolock, 0);
	REFUSED(r.context = AB_CTX_IRQ_OFF, &rcu, -EINVAL);
	REFUSED(r.flags = AB_RUN_SHEAVES, &slab, -EINVAL);
	REFUSED((r.flags = AB_RUN_SHEAVES, r.sheaf_capacity = AB_SHEAF_MAX + 1),
		&cache, -EINVAL);
	REFUSED(r.align = 64, &slab, -EINVAL);
	REFUSED(r.free_cpu = 1, &slab, -EINVAL);
	/* sheaves a kernel without AB_KERNEL_SHEAVES_OFF/SHEAF_CAPACITY lacks
	 */
	REFUSED(r.flags = AB_RUN_SHEAVES, &cache, -EOPNOTSUPP);
	REFUSED((r.flags = AB_RUN_SHEAVES, r.sheaf_capacity = 8), &cache,
		-EOPNOTSUPP);
	run.flags = AB_RUN_SHEAVES;
	rt.kernel_flags = AB_KERNEL_SHEAVES_OFF;
	assert_int_equal(check_of(&run, &rt, &cache), 0);
	run.sheaf_capacity = 8;
	assert_int_equal(check_of(&run, &rt, &cache), -EOPNOTSUPP);
	rt.kernel_flags = AB_KERNEL_SHEAF_CAPACITY;
	assert_int_equal(check_of(&run, &rt, &cache), 0);
	run = ok_run();
	rt = limits;
	REFUSED((r.flags = AB_RUN_REMOTE_FREE, r.free_pattern = AB_FREE_PAIR),
		&slab, -EINVAL);
	REFUSED(r.lookup_method = AB_LOOKUP_FLS, &slab, -EINVAL);
	REFUSED(r.timing = AB_TIMING_NR, &slab, -EINVAL);
	REFUSED(r.seed = 3, &slab, -EINVAL);
	REFUSED(r.gfp = AB_GFP_NR, &slab, -EINVAL);
	REFUSED(r.context = AB_CTX_IRQ_OFF, &slab, -EINVAL);
	REFUSED(r.node = 2, &slab, -EINVAL);
	REFUSED(r.node = 0, &pages, -EINVAL);
	REFUSED(r.batch = 0, &slab, -EINVAL);
	REFUSED(r.batch = 1025, &slab, -E2BIG);
	REFUSED(r.warmup = 1001, &slab, -E2BIG);
	REFUSED(r.obj_size = 8193, &slab, -E2BIG);
	REFUSED(r.obj_size = 0, &slab, -EINVAL);
	REFUSED(r.order = 1, &slab, -EINVAL);
	REFUSED((r.obj_size = 0, r.order = 4), &pages, -E2BIG);
	REFUSED(r.obj_size = 64, &pages, -EINVAL);
	REFUSED(r.obj_size = 8, &none, -EINVAL);
	/* 1024 objects of 4096 bytes: 4 MiB, above the 1 MiB budget */
	REFUSED((r.obj_size = 4096, r.batch = 1024), &slab, -E2BIG);
	REFUSED((r.samples_ptr = 8, r.samples_len = 9), &slab, -EINVAL);
	REFUSED((r.samples_ptr = 8, r.samples_len = 0), &slab, -EINVAL);
	REFUSED((r.timing = AB_TIMING_SINGLE, r.samples_ptr = 8,
		 r.samples_len = 39),
		&slab, -EINVAL);
	run.timing = AB_TIMING_SINGLE;
	run.samples_ptr = 8;
	run.samples_len = 40;
	assert_int_equal(check_of(&run, &limits, &slab), 0);
	/* atomic contexts: with an atomic GFP choice; on RT not at all */
	run = ok_run();
	run.context = AB_CTX_PREEMPT_OFF;
	run.gfp = AB_GFP_ATOMIC;
	assert_int_equal(check_of(&run, &limits, &slab), 0);
	rt.kernel_flags = AB_KERNEL_PREEMPT_RT;
	assert_int_equal(check_of(&run, &rt, &slab), -EOPNOTSUPP);
	run = ok_run();
	run.obj_size = 0;
	run.context = AB_CTX_IRQ_OFF;
	assert_int_equal(check_of(&run, &rt, &none), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_batch_counts),
		cmocka_unit_test(test_failure_ends_trial),
		cmocka_unit_test(test_single_layout),
		cmocka_unit_test(test_pairs),
		cmocka_unit_test(test_stop_keeps_its_trial),
		cmocka_unit_test(test_check_trials),
		cmocka_unit_test(test_mem_reads),
		cmocka_unit_test(test_disturbed),
		cmocka_unit_test(test_put_error),
		cmocka_unit_test(test_per_trial_single),
		cmocka_unit_test(test_clock_pair),
		cmocka_unit_test(test_run_check),
	};

	return cmocka_run_group_tests_name("trial", tests, NULL, NULL);
}
