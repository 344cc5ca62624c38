// SPDX-License-Identifier: GPL-2.0
/*
 * condition.c - AB_IOC_CONDITION: the memory states a run is measured in
 * (linux/allocbench_condition.h): fragmented free memory, free memory held
 * near the min watermark, and a broken-up vmap space. One condition
 * exists at a time, owned by the open file that built it; its pages are
 * kept on a list through their own page->lru (nothing is allocated to
 * track them, so a TiB node costs no array) and given back by the undo,
 * by the file's release, or page by page to direct reclaim through a
 * shrinker, so that no allocation of the machine's meets the OOM killer
 * because of it. Every loop is bounded by the node's free pages and calls
 * cond_resched(); a signal stops a build and undoes it.
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/gfp.h>
#include <linux/jiffies.h>
#include <linux/ktime.h>
#include <linux/log2.h>
#include <linux/mm.h>
#include <linux/mmzone.h>
#include <linux/mutex.h>
#include <linux/notifier.h>
#include <linux/oom.h>
#include <linux/sched.h>
#include <linux/sched/signal.h>
#include <linux/shrinker.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/swap.h>
#include <linux/vmalloc.h>
#include <linux/vmstat.h>
#include "ab_internal.h"

/* The one condition of the machine; @lock orders build, undo and release. */
static DEFINE_MUTEX(ab_cond_lock);
/* @held and the counts, against the shrinker, which runs beside them */
static DEFINE_SPINLOCK(ab_cond_pages_lock);
/*
 * The held pages by how far their return would let the free order grow:
 * a held block of 2^k pages sits in the order-(k + 1) region j = pfn >>
 * (k + 1), whose other half is free. Given back, a block with j odd makes
 * a free block of order k + 1 whose neighbours' regions stay held; only
 * with every j = 2 mod 4 given back too do blocks of order k + 2 form, and
 * so on. Bucket b holds the blocks with b trailing zero bits in j, and the
 * shrinker empties the buckets from 0 up, so that direct reclaim takes the
 * most pages for the least growth of the free order (from the list's head,
 * in address order, 128 pages gave back whole order-8 runs: order 9
 * succeeded in an 8 GiB guest's "fragmented" memory).
 */
#define AB_COND_BUCKETS (AB_MAX_PAGE_ORDER + 2)

static struct {
	struct ab_file *owner;
	u32 frag_order; /* k above: the held blocks' order */
	struct list_head held[AB_COND_BUCKETS];
	unsigned long held_pages;
	unsigned long movable_pages;
	unsigned long reclaimed_pages;
	unsigned long oom_pages;
	void **vmap;
	u32 nr_vmap;
	struct shrinker *shrinker;
	bool oom_notifier;
	struct zone *pressed;
	struct ab_condition out;
} ab_cond;

/* Takes only what is free: no reclaim, no compaction, no reserves. */
#define AB_COND_GFP                                                  \
	(__GFP_THISNODE | __GFP_NOWARN | __GFP_NOMEMALLOC | __GFP_NORETRY)
#define AB_COND_UNMOVABLE ((GFP_KERNEL & ~__GFP_RECLAIM) | AB_COND_GFP)
#define AB_COND_MOVABLE \
	((GFP_HIGHUSER_MOVABLE & ~(__GFP_RECLAIM | __GFP_HIGHMEM)) | AB_COND_GFP)

static unsigned int ab_cond_bucket(struct page *page)
{
	unsigned long j = page_to_pfn(page) >> (ab_cond.frag_order + 1);

	return j ? min_t(unsigned int, __ffs(j), AB_COND_BUCKETS - 1) :
		   AB_COND_BUCKETS - 1;
}

static void ab_cond_hold(struct page *page, bool movable)
{
	unsigned int b = ab_cond_bucket(page);

	spin_lock(&ab_cond_pages_lock);
	list_add_tail(&page->lru, &ab_cond.held[b]);
	ab_cond.held_pages++;
	ab_cond.movable_pages += movable;
	spin_unlock(&ab_cond_pages_lock);
}

/*
 * The held page to give back first (ab_cond_pages_lock held), or NULL:
 * from the lowest bucket for reclaim, from the highest for the undo. The
 * undo's last pages then come from bucket 0 in the order they were taken,
 * a few blocks' worth of neighbours, so that what the per-CPU lists keep
 * of them at the end splits few blocks (lowest first, the last ones were
 * spread over the whole zone: max free order 7 after the undo, 10 before).
 */
static struct page *ab_cond_first(bool reclaim)
{
	unsigned int i, b;

	for (i = 0; i < AB_COND_BUCKETS; i++) {
		b = reclaim ? i : AB_COND_BUCKETS - 1 - i;
		if (!list_empty(&ab_cond.held[b]))
			return list_first_entry(&ab_cond.held[b], struct page,
						lru);
	}
	return NULL;
}

/* Gives back up to @nr held pages (ab_cond_first()); returns how many. */
static unsigned long ab_cond_give_back(unsigned long nr, bool reclaim)
{
	unsigned long done = 0;
	struct page *page;

	while (done < nr) {
		spin_lock(&ab_cond_pages_lock);
		page = ab_cond_first(reclaim);
		if (page) {
			list_del(&page->lru);
			ab_cond.held_pages--;
		}
		spin_unlock(&ab_cond_pages_lock);
		if (!page)
			break;
		__free_page(page);
		if (!(++done & 255))
			cond_resched();
	}
	return done;
}

/*
 * The free pages of @z an unmovable allocation can take: those of a CMA
 * area serve movable allocations alone (booted with cma=SIZE, pressure
 * counted them as free, took the rest down to the min watermark, and the
 * next GFP_KERNEL allocation woke the OOM killer on 7.3).
 */
static unsigned long ab_zone_free(struct zone *z)
{
	unsigned long free = zone_page_state_snapshot(z, NR_FREE_PAGES);
	unsigned long cma = zone_page_state_snapshot(z, NR_FREE_CMA_PAGES);

	return free > cma ? free - cma : 0;
}

/*
 * Pressure's aim in @z: halfway from the min watermark to the low one, as
 * they are now. The kernel's wmark helpers add zone->watermark_boost,
 * which fragmentation events raise (mm/page_alloc.c boost_watermark(): a
 * pageblock at a time, up to watermark_boost_factor of the high
 * watermark) and kswapd lowers again: an aim fixed at the build fell
 * below a boosted min watermark (DMA32 free 60280 kB, boost 16384 kB, min
 * 60724 kB on 7.3), where reclaim's retry check, which does not count the
 * held pages, gave up to the OOM killer.
 */
static unsigned long ab_pressure_target(struct zone *z)
{
	unsigned long min = min_wmark_pages(z), low = low_wmark_pages(z);

	return min + (low > min ? (low - min) / 2 : 0);
}

/* Pages @z lacks to reach ab_pressure_target(), 0 without pressure. */
static unsigned long ab_pressure_deficit(void)
{
	struct zone *z = READ_ONCE(ab_cond.pressed);
	unsigned long free, target;

	if (!z)
		return 0;
	free = ab_zone_free(z);
	target = ab_pressure_target(z);
	return free < target ? target - free : 0;
}

static unsigned long ab_cond_count(struct shrinker *s,
				   struct shrink_control *sc)
{
	unsigned long n = READ_ONCE(ab_cond.held_pages);

	return n ? n : SHRINK_EMPTY;
}

/*
 * Direct reclaim takes pages back; kswapd does not (it would undo the
 * condition to its high watermark as soon as a trial woke it). The pages
 * are counted as reclaimed, as slab shrinkers' freed pages are
 * (reclaim_state: reclaimed_slab up to 6.4, reclaimed since, which kmod/Kbuild
 * finds in the kernel's swap.h), so that the
 * allocator sees progress and retries instead of calling the OOM killer.
 * With pressure, at least what the zone lacks to pressure's aim at the
 * watermarks as they are now (their boost included) is given back: the
 * retry check after reclaim wants the min watermark met from free and
 * LRU pages alone.
 */
static unsigned long ab_cond_scan(struct shrinker *s,
				  struct shrink_control *sc)
{
	unsigned long n;

	if (current_is_kswapd())
		return SHRINK_STOP;
	n = ab_cond_give_back(max(sc->nr_to_scan, ab_pressure_deficit()),
			      true);
	spin_lock(&ab_cond_pages_lock);
	ab_cond.reclaimed_pages += n;
	spin_unlock(&ab_cond_pages_lock);
	if (current->reclaim_state)
#ifdef AB_HAVE_RECLAIMED_SLAB
		current->reclaim_state->reclaimed_slab += n;
#else
		current->reclaim_state->reclaimed += n;
#endif
	return n ? n : SHRINK_STOP;
}

#ifndef AB_HAVE_SHRINKER_ALLOC
static struct shrinker ab_cond_shrinker_6_1 = {
	.count_objects = ab_cond_count,
	.scan_objects = ab_cond_scan,
	.seeks = DEFAULT_SEEKS,
};

static int ab_cond_shrinker_on(void)
{
	int err = register_shrinker(&ab_cond_shrinker_6_1,
				    "allocbench-condition");

	if (!err)
		ab_cond.shrinker = &ab_cond_shrinker_6_1;
	return err;
}

static void ab_cond_shrinker_off(void)
{
	if (ab_cond.shrinker)
		unregister_shrinker(ab_cond.shrinker);
	ab_cond.shrinker = NULL;
}
#else
static int ab_cond_shrinker_on(void)
{
	struct shrinker *s = shrinker_alloc(0, "allocbench-condition");

	if (!s)
		return -ENOMEM;
	s->count_objects = ab_cond_count;
	s->scan_objects = ab_cond_scan;
	s->seeks = DEFAULT_SEEKS;
	shrinker_register(s);
	ab_cond.shrinker = s;
	return 0;
}

static void ab_cond_shrinker_off(void)
{
	if (ab_cond.shrinker)
		shrinker_free(ab_cond.shrinker);
	ab_cond.shrinker = NULL;
}
#endif

/*
 * The last resort before the OOM killer picks a task (out_of_memory()
 * calls its notifiers first and kills nothing when they freed pages):
 * every held page given back, counted as reclaimed. The next trial's
 * restore takes them again.
 */
static int ab_cond_oom(struct notifier_block *nb, unsigned long unused,
		       void *parm)
{
	unsigned long n = ab_cond_give_back(ULONG_MAX, true);

	spin_lock(&ab_cond_pages_lock);
	ab_cond.reclaimed_pages += n;
	ab_cond.oom_pages += n;
	spin_unlock(&ab_cond_pages_lock);
	*(unsigned long *)parm += n;
	return NOTIFY_OK;
}

static struct notifier_block ab_cond_oom_nb = {
	.notifier_call = ab_cond_oom,
};

/* Everything the condition holds given back (ab_cond_lock held). */
static void ab_cond_free_all(void)
{
	u32 i;

	/* the shrinker and the notifier first: neither runs once gone */
	ab_cond_shrinker_off();
	if (ab_cond.oom_notifier)
		unregister_oom_notifier(&ab_cond_oom_nb);
	ab_cond.oom_notifier = false;
	ab_cond.pressed = NULL;
	ab_cond_give_back(ULONG_MAX, false);
	for (i = 0; ab_cond.vmap && i < AB_COND_VMAP_AREAS; i++) {
		vfree(ab_cond.vmap[i]);
		if (!(i & 31))
			cond_resched();
	}
	kvfree(ab_cond.vmap);
	ab_cond.vmap = NULL;
	ab_cond.nr_vmap = 0;
	ab_cond.held_pages = 0;
	ab_cond.movable_pages = 0;
	ab_cond.reclaimed_pages = 0;
	ab_cond.oom_pages = 0;
	ab_cond.owner = NULL;
}

/* The zone the node's GFP_KERNEL allocations try first, or NULL. */
static struct zone *ab_cond_zone(int node)
{
	struct zone *z = node_zonelist(node, GFP_KERNEL)->_zonerefs[0].zone;

	return z && zone_to_nid(z) == node ? z : NULL;
}

/* The highest order with a free block in @z's lists (racy read), or -1. */
static int ab_max_free_order(struct zone *z)
{
	int o;

	for (o = AB_MAX_PAGE_ORDER; o >= 0; o--)
		/* a statistic: read without zone->lock, it may be stale */
		if (data_race(READ_ONCE(z->free_area[o].nr_free)))
			return o;
	return -1;
}

/*
 * Takes the free blocks of order @o, both migratetypes in turn, until
 * both fail in a row: of each aligned run of 2^@k pages every other one
 * kept. A yield before each try, a failed one's too: init_on_alloc zeroes
 * what is taken (in a TCG guest on a loaded host one allocation here took
 * up to 2.3 s, and once a vCPU zeroed one page for minutes, a stall no
 * yield between blocks can break). Returns the blocks taken, or -EINTR.
 */
static long ab_take_order(int node, u32 k, int o, unsigned long *nth)
{
	long taken = 0;
	int fails = 0;

	while (fails < 2) {
		bool movable = (*nth)++ & 1;
		struct page *page;
		unsigned long i;

		cond_resched();
		if (signal_pending(current))
			return -EINTR;
		page = alloc_pages_node(node, movable ? AB_COND_MOVABLE :
					AB_COND_UNMOVABLE, o);
		if (!page) {
			fails++;
			continue;
		}
		fails = 0;
		split_page(page, o);
		for (i = 0; i < 1UL << o; i++) {
			if ((page_to_pfn(page + i) >> k) & 1)
				ab_cond_hold(page + i, movable);
			else
				__free_page(page + i);
		}
		taken++;
	}
	return taken;
}

/*
 * One pass of the fragmented build: every free block above @k taken,
 * 2^(@k + 1) pages at a time (the buddy allocator splits the larger ones:
 * the same end state as taking them whole, with no more zeroed between
 * two yields than that), then what the per-CPU lists keep above @k,
 * which only a request of its own order finds (orders up to
 * PAGE_ALLOC_COSTLY_ORDER, and pageblock_order with THP: a trial's freed
 * order-9 blocks served the next trial's allocations); both migratetypes
 * each time, since a per-CPU list of one type is found only by a request
 * of that type. Returns the blocks taken, or -EINTR.
 */
static long ab_fragment_pass(int node, u32 k, unsigned long *nth)
{
	long n, taken = 0;
	int o;

	for (o = k + 1; o <= AB_MAX_PAGE_ORDER; o++) {
		if (o > k + 1 && o > PAGE_ALLOC_COSTLY_ORDER &&
		    o != pageblock_order)
			continue;
		n = ab_take_order(node, k, o, nth);
		if (n < 0)
			return n;
		taken += n;
	}
	return taken;
}

/*
 * Fragmented: passes until one takes nothing (each gives back half of
 * what it took, in blocks of 2^@k, so the big blocks shrink geometrically;
 * bounded at 64 passes). Pages other CPUs' lists or deferred frees give
 * back afterwards can still merge into a block above @k (seen on 6.12-rt):
 * while one shows in @node's zone, a short sleep lets them come and one
 * more pass takes them (at most 8 times; drain_all_pages() is not
 * exported to modules).
 */
static int ab_fragment(int node, u32 k, int settles)
{
	struct zone *z = node >= 0 ? ab_cond_zone(node) : NULL;
	unsigned long nth = 0;
	int pass, settle = 0;
	long n;

	for (pass = 0; pass < 64; pass++) {
		n = ab_fragment_pass(node, k, &nth);
		if (n < 0)
			return n;
		if (n)
			continue;
		if (!z || ab_max_free_order(z) <= (int)k || settle++ == settles)
			break;
		if (schedule_timeout_interruptible(msecs_to_jiffies(10)))
			return -EINTR;
	}
	return 0;
}

/*
 * Pressure: @z's free pages brought to its aim now, ab_pressure_target(),
 * into *@aim. Above it, taken down the largest first, in blocks of at
 * most PAGE_ALLOC_COSTLY_ORDER + 1 (a yield after each: what is taken is
 * zeroed, ab_take_order()): the smallest order the per-CPU lists do not
 * keep, so that the zone's free count falls with each block taken until
 * the last few pages (orders up to 3 come from a per-CPU list, refilled
 * from the zone a batch at a time, which the free count no longer counts:
 * taken so far from the target, 7.3's OOM killer ran). Below it (the
 * watermarks were boosted since), held pages are given back up to it.
 */
static int ab_pressure(int node, struct zone *z, u64 *aim, u32 *stopped)
{
	unsigned long free, target = ab_pressure_target(z);
	int o = PAGE_ALLOC_COSTLY_ORDER + 1;

	*aim = target;
	free = ab_zone_free(z);
	if (free < target)
		ab_cond_give_back(target - free, true);
	while ((free = ab_zone_free(z)) > target) {
		struct page *page;
		unsigned long i;

		if (signal_pending(current))
			return -EINTR;
		o = min_t(int, o, ilog2(free - target));
		page = alloc_pages_node(node, AB_COND_UNMOVABLE, o);
		if (!page) {
			if (!o) {
				*stopped = AB_COND_NO_MEMORY;
				break;
			}
			o--;
			continue;
		}
		if (o)
			split_page(page, o);
		for (i = 0; i < 1UL << o; i++)
			ab_cond_hold(page + i, false);
		cond_resched();
	}
	return 0;
}

/* vmap-fragmented: lib/test_vmalloc.c full_fit_alloc_test()'s pattern. */
static int ab_vmap_fragment(void)
{
	u32 i;

	ab_cond.vmap = kvcalloc(AB_COND_VMAP_AREAS, sizeof(void *),
				GFP_KERNEL | __GFP_NOWARN);
	if (!ab_cond.vmap)
		return -ENOMEM;
	for (i = 0; i < AB_COND_VMAP_AREAS; i++) {
		if (signal_pending(current))
			return -EINTR;
		ab_cond.vmap[i] = __vmalloc(PAGE_SIZE,
					    GFP_KERNEL | __GFP_NOWARN);
		if (!ab_cond.vmap[i])
			return -ENOMEM;
		if (!(i & 31))
			cond_resched();
	}
	for (i = 1; i < AB_COND_VMAP_AREAS; i += 2) {
		vfree(ab_cond.vmap[i]);
		ab_cond.vmap[i] = NULL;
	}
	ab_cond.nr_vmap = AB_COND_VMAP_AREAS / 2;
	return 0;
}

bool ab_cond_held(struct ab_file *f)
{
	bool held;

	mutex_lock(&ab_cond_lock);
	held = ab_cond.owner == f &&
	       (ab_cond.out.kinds & (AB_COND_FRAGMENTED | AB_COND_PRESSURE));
	mutex_unlock(&ab_cond_lock);
	return held;
}

/*
 * Before a trial (AB_RUN_COND_EACH_TRIAL): what the last trial's frees,
 * compaction or direct reclaim (the shrinker) gave back is taken again,
 * as the build took it, with at most two 10 ms waits for pages still on
 * their way back (the build allows eight). The state then holds when the
 * zone shows no free block above frag_order and, with pressure, its free
 * pages are below the low watermark.
 */
int ab_cond_restore(struct ab_file *f, int *max_order, u64 *pages)
{
	const struct ab_condition *c = &ab_cond.out;
	unsigned long before;
	struct zone *z;
	u32 stopped;
	int err = 0, met = 1;

	mutex_lock(&ab_cond_lock);
	if (ab_cond.owner != f || c->node < 0) {
		mutex_unlock(&ab_cond_lock);
		return -ENOENT;
	}
	z = ab_cond_zone(c->node);
	before = READ_ONCE(ab_cond.held_pages);
	if (c->kinds & AB_COND_FRAGMENTED)
		err = ab_fragment(c->node, c->frag_order, 2);
	if (!err && (c->kinds & AB_COND_PRESSURE))
		err = ab_pressure(c->node, z, &ab_cond.out.target_free,
				  &stopped);
	/* the shrinker may give pages back meanwhile: count what was taken */
	if (READ_ONCE(ab_cond.held_pages) > before)
		*pages += READ_ONCE(ab_cond.held_pages) - before;
	*max_order = -1;
	if (c->kinds & AB_COND_FRAGMENTED) {
		*max_order = ab_max_free_order(z);
		met = *max_order <= (int)c->frag_order;
	}
	if ((c->kinds & AB_COND_PRESSURE) &&
	    ab_zone_free(z) >= low_wmark_pages(z))
		met = 0;
	mutex_unlock(&ab_cond_lock);
	if (err)
		return err;
	return met ? 0 : 1;
}

unsigned long ab_cond_give_back_all(struct ab_file *f)
{
	unsigned long n = 0;

	mutex_lock(&ab_cond_lock);
	if (ab_cond.owner == f)
		n = ab_cond_give_back(ULONG_MAX, false);
	mutex_unlock(&ab_cond_lock);
	return n;
}

/* The outputs from the condition's state now (ab_cond_lock held). */
static void ab_cond_fill(struct ab_condition *c, int node)
{
	struct zone *z = node >= 0 ? ab_cond_zone(node) : NULL;

	spin_lock(&ab_cond_pages_lock);
	c->held_pages = ab_cond.held_pages;
	c->movable_pages = ab_cond.movable_pages;
	c->reclaimed_pages = ab_cond.reclaimed_pages;
	c->oom_pages = ab_cond.oom_pages;
	spin_unlock(&ab_cond_pages_lock);
	c->vmap_areas = ab_cond.nr_vmap;
	c->max_free_order = -1;
	if (!z)
		return;
	c->zone_free = ab_zone_free(z);
	c->zone_min = min_wmark_pages(z);
	c->zone_low = low_wmark_pages(z);
	c->zone_high = high_wmark_pages(z);
	strscpy(c->zone, z->name, sizeof(c->zone));
	c->max_free_order = ab_max_free_order(z);
}

static int ab_cond_check(const struct ab_condition *c)
{
	bool needs_node = c->kinds & (AB_COND_FRAGMENTED | AB_COND_PRESSURE);

	if (c->reserved0 || c->reserved[0] || c->reserved[1])
		return -EINVAL;
	if (c->op != AB_COND_BUILD && c->op != AB_COND_UNDO &&
	    c->op != AB_COND_STATE)
		return -EINVAL;
	if (c->op != AB_COND_BUILD)
		return c->kinds || c->node != -1 || c->frag_order ? -EINVAL : 0;
	if (!c->kinds || (c->kinds & ~AB_COND_KINDS_ALL))
		return -EINVAL;
	if (c->frag_order > AB_COND_MAX_FRAG_ORDER ||
	    (c->frag_order && !(c->kinds & AB_COND_FRAGMENTED)))
		return -EINVAL;
	if (!needs_node)
		return c->node == -1 ? 0 : -EINVAL;
	if (c->node < 0 || c->node >= nr_node_ids ||
	    !node_state(c->node, N_MEMORY) || !ab_cond_zone(c->node))
		return -EINVAL;
	return 0;
}

static int ab_cond_build(struct ab_file *f, struct ab_condition *c)
{
	struct zone *z = c->node >= 0 ? ab_cond_zone(c->node) : NULL;
	u64 t0 = ktime_get_ns();
	u32 stopped = AB_COND_DONE;
	int err, b;

	if (ab_cond.owner)
		return -EBUSY;
	ab_cond.owner = f;
	/* pressure alone: held pages bucketed by order-1 regions */
	ab_cond.frag_order = (c->kinds & AB_COND_FRAGMENTED) ? c->frag_order : 0;
	for (b = 0; b < AB_COND_BUCKETS; b++)
		INIT_LIST_HEAD(&ab_cond.held[b]);
	err = ab_cond_shrinker_on();
	if (!err) {
		err = register_oom_notifier(&ab_cond_oom_nb);
		ab_cond.oom_notifier = !err;
	}
	if (!err && (c->kinds & AB_COND_FRAGMENTED))
		err = ab_fragment(c->node, c->frag_order, 8);
	if (!err && (c->kinds & AB_COND_PRESSURE)) {
		WRITE_ONCE(ab_cond.pressed, z);
		err = ab_pressure(c->node, z, &c->target_free, &stopped);
	}
	if (!err && (c->kinds & AB_COND_VMAP_FRAGMENTED))
		err = ab_vmap_fragment();
	if (err) {
		ab_cond_free_all();
		return err;
	}
	c->build_ns = ktime_get_ns() - t0;
	c->stopped = stopped;
	ab_cond_fill(c, c->node);
	ab_cond.out = *c;
	return 0;
}

long ab_ioctl_condition(struct ab_file *f, void __user *uarg)
{
	struct ab_condition c;
	u64 t0;
	long err;

	err = ab_copy_in(&c, sizeof(c), AB_CONDITION_SIZE_VER0, uarg);
	if (err < 0)
		return err;
	err = ab_cond_check(&c);
	if (err)
		return err;
	/* the outputs start at zero: only the input fields are kept */
	c = (struct ab_condition){ .size = c.size, .op = c.op,
				   .kinds = c.kinds, .node = c.node,
				   .frag_order = c.frag_order };
	mutex_lock(&ab_cond_lock);
	if (c.op == AB_COND_BUILD) {
		err = ab_cond_build(f, &c);
	} else if (ab_cond.owner != f) {
		err = -ENOENT;
	} else {
		struct ab_condition now = ab_cond.out;

		now.size = c.size;
		now.op = c.op;
		ab_cond_fill(&now, now.node);
		if (c.op == AB_COND_UNDO) {
			t0 = ktime_get_ns();
			ab_cond_free_all();
			now.undo_ns = ktime_get_ns() - t0;
		}
		/* the input fields stay as the caller sent them */
		now.kinds = 0;
		now.node = -1;
		now.frag_order = 0;
		c = now;
	}
	mutex_unlock(&ab_cond_lock);
	if (err)
		return err;
	return ab_copy_out(uarg, &c, sizeof(c), c.size);
}

/* The file is closing: its condition, if it holds one, is given back. */
void ab_cond_release(struct ab_file *f)
{
	mutex_lock(&ab_cond_lock);
	if (ab_cond.owner == f)
		ab_cond_free_all();
	mutex_unlock(&ab_cond_lock);
}
