/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ab_trial.h - the timed trial loop of AB_IOC_RUN, compiled into
 * allocbench.ko (kmod/) and the user backend (backends/user_alloc.c), so
 * both time identical code; each side keeps only its driver: the run's
 * context, accounting, node checks, remote frees, signals, rescheduling
 * and where the samples go.
 *
 * What the loops share of a run is struct ab_loop, which each side embeds
 * in its own run context; the per-object functions (ab_alloc_fn,
 * ab_free_fn, ab_write_fn) and the driver's ops (struct ab_trial_ops) get
 * the struct ab_loop and reach that context with container_of(). The
 * clock and the operand barrier are ab_clock.h's: an includer defines
 * nothing.
 *
 * The phase loops take the per-object functions as arguments; they are
 * __always_inline, so with functions known at compile time (the module's
 * strategy table) the allocator call inlines into the timed loop, and with
 * pointers (the user backend's dlopen'ed allocators) it is one indirect
 * call per object, as for the "none" baseline there. The choice between
 * batch and single timing, and between a free phase and pairs, is made
 * once per phase, outside the timed region.
 */
#ifndef AB_TRIAL_H
#define AB_TRIAL_H

#ifdef __KERNEL__
#include <linux/types.h>
#include <linux/compiler.h>
#else
#include "ab_compat.h"
#endif
#include <linux/allocbench.h>
#include "ab_clock.h"
#include "ab_free_order.h"
#include "ab_vpmu.h"

/**
 * struct ab_loop - what the timed loops and ab_run_trials() use of a run
 * @objs:           the objects of the current trial, @nr slots
 * @free_order:     the order the trial frees them in: indexes into @objs
 * @smp:            single timing: the current trial's samples, @nr of them
 * @nr:             allocations per trial
 * @single:         AB_TIMING_SINGLE
 * @pair:           AB_FREE_PAIR
 * @per_trial:      AB_STRATEGY_PER_TRIAL: one sample per trial, @smp[0],
 *                  whatever the timing
 * @mark_disturbed: AB_RUN_MARK_DISTURBED
 * @vpmu:           AB_RUN_VPMU: the timed regions are bracketed by the
 *                  virtual PMU's markers (ab_vpmu.h), just inside the
 *                  clock reads
 * @disturb:        AB_SAMPLE_ALLOC_DISTURBED and AB_SAMPLE_FREE_DISTURBED,
 *                  ORed in by ab_phase_note() for each phase of the current
 *                  trial that saw a context switch or a CPU change
 * @unmet:          AB_SAMPLE_COND_UNMET when @before said the current
 *                  trial began without its memory condition, else 0
 * @switches:       the context switches those phases saw
 * @migrations:     the phases of the current trial that changed CPU
 * @elsewhere:      remote frees of the current trial run off
 *                  ab_run.free_cpu (the module's driver counts them)
 * @reserve:        elements of a mempool's reserve the current trial's
 *                  alloc phase took (the mempool strategies' own phase)
 * @yield:          optional; called between two chunks of AB_YIELD_EVERY
 *                  objects of one phase, outside the clock reads and the
 *                  markers: the module reschedules there (a long phase
 *                  must not lock its CPU up) and returns true when a
 *                  signal is pending, which ends an alloc phase there (a
 *                  free phase frees on: its objects must go back)
 * @stopped:        set when @yield ended a phase, or a strategy's
 *                  allocation refused to start at a pending signal (cma,
 *                  kmod/strategies_big.c): ab_run_trials() then returns
 *                  -EINTR without recording the trial
 *
 * Embedded in each side's run context (struct ab_ctx of kmod/ab_internal.h
 * and of backends/user_alloc.c). ab_run_trials() adds @switches to
 * @reserve to the run's counts after a measured trial and clears them
 * after every trial.
 */
struct ab_loop {
	void **objs;
	u32 *free_order;
	struct ab_sample *smp;
	u32 nr;
	bool single;
	bool pair;
	bool per_trial;
	bool mark_disturbed;
	bool vpmu;
	u32 disturb;
	u32 unmet;
	u64 switches;
	u32 migrations;
	u32 elsewhere;
	u64 reserve;
	bool (*yield)(struct ab_loop *l);
	bool stopped;
};

/*
 * AB_YIELD_EVERY - objects of one phase between two calls of
 * ab_loop.yield. The timed loops run in chunks of this many: the inner
 * loop's code per object is what it was without chunks, and a chunk's
 * end costs a few instructions, counted alike in the none baseline's
 * phases. 4096 objects are milliseconds of kmalloc() on hardware; under
 * TCG on a loaded host, with slub_debug, a batch of 10^6 ran past the
 * soft-lockup watchdog's 20 s without a yield.
 */
#define AB_YIELD_EVERY 4096U

/* The end of the chunk that begins at @i, of @nr objects. */
static __always_inline u32 ab_chunk_end(u32 i, u32 nr)
{
	return nr - i > AB_YIELD_EVERY ? i + AB_YIELD_EVERY : nr;
}

/* Single timing: whether object @i ends a chunk that others follow. */
static __always_inline bool ab_chunk_last(u32 i, u32 nr)
{
	return !((i + 1) & (AB_YIELD_EVERY - 1)) && i + 1 < nr;
}

/* ab_yield - l->yield, if any: true when the phase is to end */
static inline bool ab_yield(struct ab_loop *l)
{
	if (!l->yield || !l->yield(l))
		return false;
	l->stopped = true;
	return true;
}

/*
 * The per-object functions of a strategy: one allocation (the object, or
 * NULL on failure), one free, and what is done to each object right after
 * it is allocated, inside the timed region (AB_RUN_WRITE's write, or
 * nothing).
 */
typedef void *(*ab_alloc_fn)(struct ab_loop *l);
typedef void (*ab_free_fn)(struct ab_loop *l, void *obj);
typedef void (*ab_write_fn)(struct ab_loop *l, void *obj);

/*
 * ab_mark - a virtual-PMU marker when @mark, a constant in each inlined
 * copy of a loop (the loops below are compiled with and without markers,
 * and the choice is made once per phase, outside the timed region, as
 * between batch and single timing): a run without AB_RUN_VPMU times the
 * same code as before the markers existed.
 */
static __always_inline void ab_mark(const bool mark, const unsigned int xx)
{
	if (mark)
		ab_vpmu_mark(xx);
}

/*
 * ab_pause - between two chunks of a batch-timed phase: the region and
 * the clock stopped (the cycles so far added to *@cycles), ab_yield(),
 * then both started again; returns ab_yield()'s answer.
 */
static __always_inline bool ab_pause(struct ab_loop *l, const bool mark,
				     const unsigned int phase, u64 *start,
				     u64 *cycles)
{
	bool stop;

	ab_mark(mark, phase | AB_VPMU_END);
	*cycles += AB_CYCLES() - *start;
	stop = ab_yield(l);
	*start = AB_CYCLES();
	ab_mark(mark, phase);
	return stop;
}

/* Batch timing: one clock pair around each chunk of the alloc loop. */
static __always_inline u32 ab_alloc_batch_m(struct ab_loop *l, u64 *cycles,
					    ab_alloc_fn alloc_one,
					    ab_write_fn write_one,
					    const bool mark)
{
	void **objs = l->objs;
	u32 end, i = 0, nr = l->nr;
	u64 start;

	*cycles = 0;
	start = AB_CYCLES();
	ab_mark(mark, AB_VPMU_ALLOC);
	for (;;) {
		for (end = ab_chunk_end(i, nr); i < end; i++) {
			objs[i] = alloc_one(l);
			if (unlikely(!objs[i]))
				goto out;
			write_one(l, objs[i]);
		}
		if (i == nr || ab_pause(l, mark, AB_VPMU_ALLOC, &start, cycles))
			break;
	}
out:
	ab_mark(mark, AB_VPMU_ALLOC | AB_VPMU_END);
	*cycles += AB_CYCLES() - start;
	return i;
}

/* ab_alloc_batch - ab_alloc_batch_m(), with markers when l->vpmu */
static __always_inline u32 ab_alloc_batch(struct ab_loop *l, u64 *cycles,
					  ab_alloc_fn alloc_one,
					  ab_write_fn write_one)
{
	return l->vpmu ? ab_alloc_batch_m(l, cycles, alloc_one, write_one, true) :
			 ab_alloc_batch_m(l, cycles, alloc_one, write_one, false);
}

/*
 * Single timing: one clock pair around each allocation (and its write).
 * The object is stored into l->objs after the end stamp, so the timed
 * interval holds the call and nothing of the harness.
 */
static __always_inline u32 ab_alloc_single(struct ab_loop *l,
					   ab_alloc_fn alloc_one,
					   ab_write_fn write_one,
					   const bool mark)
{
	void **objs = l->objs;
	u32 i, nr = l->nr;
	u64 start, end;
	void *obj;

	for (i = 0; i < nr; i++) {
		start = AB_CYCLES();
		ab_mark(mark, AB_VPMU_ALLOC);
		obj = alloc_one(l);
		if (likely(obj))
			write_one(l, obj);
		ab_mark(mark, AB_VPMU_ALLOC | AB_VPMU_END);
		end = AB_CYCLES();
		objs[i] = obj;
		l->smp[i].alloc_cycles = end - start;
		if (unlikely(!obj))
			break;
		if (unlikely(ab_chunk_last(i, nr)) && ab_yield(l))
			return i + 1;
	}
	return i;
}

/* Pair pattern, batch timing: one clock pair around each chunk of pairs. */
static __always_inline u32 ab_pair_batch(struct ab_loop *l, u64 *cycles,
					 ab_alloc_fn alloc_one,
					 ab_free_fn free_one,
					 ab_write_fn write_one,
					 const bool mark)
{
	u32 end, i = 0, nr = l->nr;
	u64 start;
	void *obj;

	*cycles = 0;
	start = AB_CYCLES();
	ab_mark(mark, AB_VPMU_PAIR);
	for (;;) {
		for (end = ab_chunk_end(i, nr); i < end; i++) {
			obj = alloc_one(l);
			if (unlikely(!obj))
				goto out;
			write_one(l, obj);
			free_one(l, obj);
		}
		if (i == nr || ab_pause(l, mark, AB_VPMU_PAIR, &start, cycles))
			break;
	}
out:
	ab_mark(mark, AB_VPMU_PAIR | AB_VPMU_END);
	*cycles += AB_CYCLES() - start;
	return i;
}

/* Pair pattern, single timing: the allocation and the free each timed. */
static __always_inline u32 ab_pair_single(struct ab_loop *l,
					  ab_alloc_fn alloc_one,
					  ab_free_fn free_one,
					  ab_write_fn write_one,
					  const bool mark)
{
	u32 i, nr = l->nr;
	u64 start, mid, end;
	void *obj;

	for (i = 0; i < nr; i++) {
		start = AB_CYCLES();
		ab_mark(mark, AB_VPMU_ALLOC);
		obj = alloc_one(l);
		if (likely(obj))
			write_one(l, obj);
		ab_mark(mark, AB_VPMU_ALLOC | AB_VPMU_END);
		mid = AB_CYCLES();
		if (unlikely(!obj)) {
			l->smp[i].alloc_cycles = mid - start;
			break;
		}
		ab_mark(mark, AB_VPMU_FREE);
		free_one(l, obj);
		ab_mark(mark, AB_VPMU_FREE | AB_VPMU_END);
		end = AB_CYCLES();
		l->smp[i].alloc_cycles = mid - start;
		l->smp[i].free_cycles = end - mid;
		if (unlikely(ab_chunk_last(i, nr)) && ab_yield(l))
			return i + 1;
	}
	return i;
}

/*
 * ab_vpmu_at - a marker in a strategy's own timed phase (the bulk
 * strategies), when the run asked for them (AB_RUN_VPMU); @xx a constant
 */
static __always_inline void ab_vpmu_at(struct ab_loop *l, const unsigned int xx)
{
	if (unlikely(l->vpmu))
		ab_vpmu_mark(xx);
}

/*
 * ab_phase_note - what a driver saw around one phase of a trial: the
 * context switches of the thread that ran it (@sw0, @sw1: its nvcsw +
 * nivcsw just before the first stamp and just after the last) and the
 * CPU it began and ended on. Adds them to the trial's counts and marks the
 * phase (@bit: AB_SAMPLE_ALLOC_DISTURBED or AB_SAMPLE_FREE_DISTURBED) when
 * either shows the phase was not run whole on one CPU.
 */
static inline void ab_phase_note(struct ab_loop *l, u64 sw0, u64 sw1,
				 int cpu0, int cpu1, u32 bit)
{
	l->switches += sw1 - sw0;
	l->migrations += cpu0 != cpu1;
	if (sw1 != sw0 || cpu0 != cpu1)
		l->disturb |= bit;
}

/*
 * ab_alloc_loop - the alloc phase of one trial: up to l->nr objects into
 * l->objs, stopping at the first failure; returns how many. Each object
 * gets @write_one right after its allocation, in the timed region. Batch
 * timing: the phase's cycles in *@cycles; single timing: each object's in
 * l->smp. With l->pair each object is freed right after it is allocated.
 */
static __always_inline u32 ab_alloc_loop_m(struct ab_loop *l, u64 *cycles,
					   ab_alloc_fn alloc_one,
					   ab_free_fn free_one,
					   ab_write_fn write_one,
					   const bool mark)
{
	if (l->pair)
		return l->single ?
		       ab_pair_single(l, alloc_one, free_one, write_one, mark) :
		       ab_pair_batch(l, cycles, alloc_one, free_one,
				     write_one, mark);
	return l->single ? ab_alloc_single(l, alloc_one, write_one, mark) :
			   ab_alloc_batch_m(l, cycles, alloc_one, write_one,
					    mark);
}

static __always_inline u32 ab_alloc_loop(struct ab_loop *l, u64 *cycles,
					 ab_alloc_fn alloc_one,
					 ab_free_fn free_one,
					 ab_write_fn write_one)
{
	return l->vpmu ? ab_alloc_loop_m(l, cycles, alloc_one, free_one,
					 write_one, true) :
			 ab_alloc_loop_m(l, cycles, alloc_one, free_one,
					 write_one, false);
}

/*
 * ab_free_loop - the free phase: l->objs[l->free_order[i]] for i in
 * [0, @n); one clock pair in all, or one per free. In single timing the
 * free order and the object pointer are loaded before the start stamp
 * (AB_OPERAND, then an ordered clock read), so a cache or TLB miss on the
 * harness's own arrays is not charged to the allocator (issue 13, item 18:
 * worst with shuffled frees of large batches).
 */
static __always_inline void ab_free_loop_m(struct ab_loop *l, u32 n,
					   u64 *cycles, ab_free_fn free_one,
					   const bool mark)
{
	void **objs = l->objs;
	u32 *perm = l->free_order;
	u64 start, end;
	u32 i, j, last;
	void *obj;

	if (l->single) {
		for (i = 0; i < n; i++) {
			j = perm[i];
			obj = AB_OPERAND(objs[j]);
			start = AB_CYCLES();
			ab_mark(mark, AB_VPMU_FREE);
			free_one(l, obj);
			ab_mark(mark, AB_VPMU_FREE | AB_VPMU_END);
			end = AB_CYCLES();
			l->smp[j].free_cycles = end - start;
			if (unlikely(ab_chunk_last(i, n)))
				ab_yield(l);
		}
		return;
	}
	*cycles = 0;
	start = AB_CYCLES();
	ab_mark(mark, AB_VPMU_FREE);
	for (i = 0;;) {
		for (last = ab_chunk_end(i, n); i < last; i++)
			free_one(l, objs[perm[i]]);
		if (i == n)
			break;
		/* the objects must go back: a signal does not end a free */
		ab_pause(l, mark, AB_VPMU_FREE, &start, cycles);
	}
	ab_mark(mark, AB_VPMU_FREE | AB_VPMU_END);
	*cycles += AB_CYCLES() - start;
}

static __always_inline void ab_free_loop(struct ab_loop *l, u32 n,
					 u64 *cycles, ab_free_fn free_one)
{
	if (l->vpmu)
		ab_free_loop_m(l, n, cycles, free_one, true);
	else
		ab_free_loop_m(l, n, cycles, free_one, false);
}

/**
 * struct ab_trial_ops - one side's driver of ab_run_trials()
 * @alloc: runs the timed alloc phase (ab_alloc_loop() or the strategy's
 *         own) in the run's context; returns the objects allocated
 * @check: optional; between the phases of an untimed check trial (not
 *         with AB_FREE_PAIR or AB_RUN_NO_NODE_CHECK; see AB_CHECK_EVERY):
 *         counts the node hits of l->objs[0..n) into ab_run.node_hits
 *         and node_checked
 * @mem:   optional; in the same untimed check trials, called with
 *         @held false just before the alloc phase and with @held true
 *         just after it (before @check), @n the objects then held: reads
 *         the memory counters (ab_run.mem_*)
 * @free:  runs the timed free phase of @n objects in l->free_order
 * @drain: optional; after it (AB_FREE_PAIR: after the alloc phase), waits
 *         for the objects the frees handed to RCU; returns the cycles,
 *         *@late set when it gave up before they were back
 * @put:   stores @count samples of a measured trial at element @index of
 *         the run's samples; 0 or -errno (then the run ends)
 * @next:  between trials, after the trial is recorded: 0 to go on, or
 *         -errno to end the run there (-EINTR for a stop request)
 * @before: optional; before each trial's alloc phase, outside the timed
 *         phases (AB_RUN_COND_EACH_TRIAL: the memory condition restored):
 *         0 when the state the trial is to meet holds, 1 when it does not
 *         (a measured trial is then counted in ab_run.cond_unmet and its
 *         samples get AB_SAMPLE_COND_UNMET), or -errno to end the run
 */
struct ab_trial_ops {
	u32 (*alloc)(struct ab_loop *l, u64 *cycles);
	void (*check)(struct ab_loop *l, struct ab_run *r, u32 n);
	void (*mem)(struct ab_loop *l, struct ab_run *r, u32 n, bool held);
	void (*free)(struct ab_loop *l, u32 n, u64 *cycles);
	u64 (*drain)(struct ab_loop *l, bool *late);
	int (*put)(struct ab_loop *l, const struct ab_run *r, u64 index,
		   const struct ab_sample *smp, u32 count);
	int (*next)(struct ab_loop *l);
	int (*before)(struct ab_loop *l, bool measured);
};

/*
 * ab_trial_samples - the samples of a measured trial that allocated @n
 * objects, as struct ab_sample (uapi) says, into *@smp; returns how many.
 * Batch timing, and per-trial strategies in either timing: one sample,
 * @one, with the phases' cycles (per-trial strategies in single timing:
 * l->smp[0]'s), @n objects and the failure flag. Single timing: the
 * trial's slots in l->smp, the one that failed flagged, the unused ones
 * after it zeroed. With l->mark_disturbed each gets the trial's
 * disturbed bits (l->disturb).
 */
static inline u32 ab_trial_samples(struct ab_loop *l, u32 n, u64 alloc_cycles,
				   u64 free_cycles, struct ab_sample *one,
				   const struct ab_sample **smp)
{
	u32 i, marks = (l->mark_disturbed ? l->disturb : 0) | l->unmet;

	if (!l->single || l->per_trial) {
		one->alloc_cycles = l->single ? l->smp[0].alloc_cycles :
				    alloc_cycles;
		if (l->single)
			one->free_cycles = n ? l->smp[0].free_cycles : 0;
		else
			one->free_cycles = free_cycles;
		one->nr_objs = n;
		one->flags = (n < l->nr ? AB_SAMPLE_FAILED : 0) | marks;
		*smp = one;
		return 1;
	}
	for (i = 0; i < l->nr; i++) {
		l->smp[i].nr_objs = i < n;
		l->smp[i].flags = (i == n ? AB_SAMPLE_FAILED : 0) | marks;
		if (i > n)
			l->smp[i].alloc_cycles = 0;
		if (i >= n)
			l->smp[i].free_cycles = 0;
	}
	*smp = l->smp;
	return l->nr;
}

/*
 * AB_CHECK_EVERY - measured trials between two node-check trials. Node
 * checks read struct pages and page tables that the free phase then reads
 * too, so a checked trial's free would look cheaper: the check runs in
 * untimed trials of the same shape instead, the first right after the
 * warm-up and then one after every AB_CHECK_EVERY measured trials (so
 * ceil(trials / 16) of them, about 6% more trials), whose samples are not
 * recorded.
 */
#define AB_CHECK_EVERY 16

/*
 * ab_run_trials - warm-up trials, then measured trials with an untimed
 * node-check trial before each AB_CHECK_EVERY of them (when @ops->check
 * is set; not with AB_FREE_PAIR or AB_RUN_NO_NODE_CHECK). Each trial: the
 * alloc phase (check trials: with the memory counters read before and
 * after it), the node check (check trials), the free order and the free
 * phase (not with AB_FREE_PAIR, whose alloc phase frees), the untimed
 * wait for what the frees handed to RCU (@ops->drain, when set), then the
 * counts and samples of a measured trial. A failed allocation ends its
 * trial, and what the trial holds is freed before anything else happens.
 *
 * A stop (@ops->next) is seen between trials, after the trial it came in
 * has been recorded: that trial ran to its end, every object freed, so
 * its samples are as good as any other's and are kept (both backends
 * alike; the user backend used to drop it). Returns 0, or what @ops->put
 * or @ops->next returned.
 */
static inline int ab_run_trials(const struct ab_trial_ops *ops,
				struct ab_loop *l, struct ab_run *r)
{
	bool checks = ops->check && !l->pair &&
		      !(r->flags & AB_RUN_NO_NODE_CHECK);
	u32 t, n, count, m = 0, since_check = AB_CHECK_EVERY;
	const struct ab_sample *smp;
	struct ab_sample one;
	bool measured, check, late;
	u64 ac, fc, dc;
	int err;

	for (t = 0; m < r->trials; t++) {
		check = checks && t >= r->warmup && since_check == AB_CHECK_EVERY;
		measured = t >= r->warmup && !check;
		since_check = check ? 0 : since_check + measured;
		ac = 0;
		fc = 0;
		if (ops->before) {
			err = ops->before(l, measured);
			if (err < 0)
				return err;
			l->unmet = err ? AB_SAMPLE_COND_UNMET : 0;
		}
		if (check && ops->mem)
			ops->mem(l, r, 0, false);
		n = ops->alloc(l, &ac);
		if (!l->pair) {
			if (check && ops->mem)
				ops->mem(l, r, n, true);
			if (check)
				ops->check(l, r, n);
			ab_free_order(l->free_order, n, r->free_pattern,
				      r->seed, t);
			ops->free(l, n, &fc);
		}
		late = false;
		dc = ops->drain ? ops->drain(l, &late) : 0;
		if (unlikely(l->stopped))
			return -EINTR;
		if (measured) {
			r->drain_late += late;
			r->drain_cycles += dc;
			if (dc > r->drain_max_cycles)
				r->drain_max_cycles = dc;
			r->objects += n;
			r->failed += n < l->nr;
			r->trials_done++;
			r->switches += l->switches;
			r->migrations += l->migrations;
			r->disturbed += !!l->disturb;
			r->cond_unmet += !!l->unmet;
			r->free_elsewhere += l->elsewhere;
			r->pool_from_reserve += l->reserve;
			/* a trial the CLI leaves out: its share apart */
			r->pool_reserve_unmet += l->unmet ? l->reserve : 0;
			count = ab_trial_samples(l, n, ac, fc, &one, &smp);
			err = ops->put(l, r, (u64)m * count, smp, count);
			if (err)
				return err;
			m++;
		}
		l->disturb = 0;
		l->switches = 0;
		l->migrations = 0;
		l->elsewhere = 0;
		l->reserve = 0;
		err = ops->next(l);
		if (err)
			return err;
	}
	return 0;
}

#endif
