// SPDX-License-Identifier: GPL-2.0-only
/*
 * ioctl_test.c - drives /dev/allocbench with raw ioctls inside the embedded
 * kernel (cmocka, TAP output). Every validation path of AB_IOC_INFO and
 * AB_IOC_RUN is rejected with its errno; every strategy on sizes from 8
 * bytes to its maximum gives positive cycles and frees everything; *_node
 * strategies pinned to each node's CPU find all objects on that node; a
 * signal during a long run ends it within a second with nothing left
 * outstanding. Asserts relations and invariants only, never times of
 * allocations.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <sched.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <cmocka.h>
#include <linux/allocbench.h>
#include <linux/perf_event.h>
#include <linux/capability.h>

/*
 * Untimed node-check trials of a run of @t measured trials: one before
 * every 16 measured ones (AB_CHECK_EVERY, common/ab_trial.h).
 */
#define CHECK_TRIALS(t) (((uint64_t)(t) + 15) / 16)
#include "ab_run.h"
#include <sys/syscall.h>
#include <sys/utsname.h>

/*
 * The uapi layout is the same for 32-bit and 64-bit callers (the kernel's
 * compat_ioctl is compat_ptr_ioctl: no translation): every struct padded
 * explicitly, 64-bit fields at multiples of 8 (i386 aligns __u64 to 4 in
 * structs, so a missing pad would move them). Checked here in both builds;
 * pahole of the two binaries gave the same offsets for all five structs.
 */
_Static_assert(sizeof(struct ab_info) == AB_INFO_SIZE_VER3, "ab_info");
_Static_assert(sizeof(struct ab_strategy_info) == 152, "ab_strategy_info");
_Static_assert(sizeof(struct ab_sample) == 24, "ab_sample");
_Static_assert(sizeof(struct ab_run) == AB_RUN_SIZE_VER4, "ab_run");
_Static_assert(sizeof(struct ab_lookup) == AB_LOOKUP_SIZE_VER0, "ab_lookup");
_Static_assert(offsetof(struct ab_info, strategies_ptr) == 16 &&
		       offsetof(struct ab_info, version) == 72 &&
		       offsetof(struct ab_info, kernel_flags) == 136,
	       "ab_info offsets");
_Static_assert(offsetof(struct ab_strategy_info, max_size) == 8 &&
		       offsetof(struct ab_strategy_info, name) == 24,
	       "ab_strategy_info offsets");
_Static_assert(offsetof(struct ab_run, obj_size) == 8 &&
		       offsetof(struct ab_run, seed) == 64 &&
		       offsetof(struct ab_run, samples_ptr) == 72 &&
		       offsetof(struct ab_run, align) == 96 &&
		       offsetof(struct ab_run, objects) == 136 &&
		       offsetof(struct ab_run, clock_cycles) == 176 &&
		       offsetof(struct ab_run, mem_objects) ==
			       AB_RUN_SIZE_VER0 &&
		       offsetof(struct ab_run, cache_name) == AB_RUN_SIZE_VER1,
	       "ab_run offsets");
_Static_assert(offsetof(struct ab_lookup, sizes_ptr) == 16 &&
		       offsetof(struct ab_lookup, samples_ptr) == 32 &&
		       offsetof(struct ab_lookup, checksum) == 88 &&
		       offsetof(struct ab_lookup, clock_cycles) == 112,
	       "ab_lookup offsets");

static int fd = -1;
static struct ab_info info;
static struct ab_strategy_info strat[64];

static int xioctl(unsigned long cmd, void *arg)
{
	return ioctl(fd, cmd, arg) ? errno : 0;
}

static const struct ab_strategy_info *find(const char *name)
{
	unsigned int i;

	for (i = 0; i < info.nr_strategies; i++)
		if (!strcmp(strat[i].name, name))
			return &strat[i];
	fail_msg("strategy %s missing", name);
	return NULL;
}

static uint64_t outstanding(void)
{
	struct ab_info i = { .size = sizeof(i) };

	assert_int_equal(xioctl(AB_IOC_INFO, &i), 0);
	return i.outstanding;
}

static int setup_all(void **state)
{
	fd = open("/dev/" AB_DEVICE_NAME, O_RDWR);
	if (fd < 0)
		return -1;
	info.size = sizeof(info);
	info.strategies_ptr = (uintptr_t)strat;
	info.strategies_len = 64;
	return xioctl(AB_IOC_INFO, &info) ? -1 : 0;
}

/* A valid request for @name with the smallest sizes, no samples. */
static struct ab_run req(const char *name)
{
	const struct ab_strategy_info *s = find(name);
	struct ab_run r = { .size = sizeof(r),
			    .strategy = s->id,
			    .batch = 2,
			    .trials = 2,
			    .node = -1 };

	if (s->params & AB_PARAM_SIZE)
		r.obj_size = 64;
	return r;
}

/* ---- INFO ---- */

static void test_info_reports(void **state)
{
	unsigned int i;

	assert_int_equal(info.abi_version, AB_ABI_VERSION);
	assert_true(info.nr_strategies > 0 && info.nr_strategies <= 64);
	assert_int_equal(info.size, sizeof(info));
	assert_true(info.max_batch > 0 && info.max_trials > 0);
	assert_true(info.max_bytes > 0);
	assert_int_equal(info.outstanding, 0);
	assert_true(info.page_size >= 4096);
	for (i = 0; i < info.nr_strategies; i++) {
		assert_int_equal(strat[i].id, i);
		assert_true(strat[i].name[0] && strat[i].desc[0]);
		if (strat[i].params & AB_PARAM_SIZE)
			assert_true(strat[i].max_size >= 8);
	}
	find("none");
	find("kmalloc");
	find("vmalloc_batch");
}

/*
 * Strategy flags: only known bits; "none" alone is the baseline (allocates
 * nothing), vmalloc_batch is timed per trial.
 */
static void test_info_strategy_flags(void **state)
{
	unsigned int i, baselines = 0;

	for (i = 0; i < info.nr_strategies; i++) {
		assert_int_equal(strat[i].flags & ~AB_STRATEGY_FLAGS_ALL, 0);
		baselines += !!(strat[i].flags & AB_STRATEGY_BASELINE);
		if (strat[i].flags & AB_STRATEGY_BASELINE)
			assert_int_equal(strat[i].params & (AB_PARAM_SIZE |
							    AB_PARAM_ORDER),
					 0);
	}
	assert_int_equal(baselines, 1);
	assert_true(find("none")->flags & AB_STRATEGY_BASELINE);
	assert_true(find("vmalloc_batch")->flags & AB_STRATEGY_PER_TRIAL);
	assert_false(find("kmalloc")->flags & AB_STRATEGY_PER_TRIAL);
	assert_true(find("kmem_cache_bulk")->flags & AB_STRATEGY_IRQS_ON);
	assert_true(find("alloc_pages_bulk")->flags & AB_STRATEGY_PER_TRIAL);
	assert_int_equal(find("alloc_pages_bulk")->max_order, 0);
	/* how each allocator's memory is counted (common/ab_footprint.h) */
	assert_int_equal(find("get_free_pages")->flags & AB_STRATEGY_MEM_MASK,
			 AB_STRATEGY_MEM_EXACT);
	assert_int_equal(find("kmalloc")->flags & AB_STRATEGY_MEM_MASK,
			 AB_STRATEGY_MEM_KMALLOC);
	assert_int_equal(find("kmem_cache")->flags & AB_STRATEGY_MEM_MASK,
			 AB_STRATEGY_MEM_CACHE);
	assert_int_equal(find("vmalloc_node")->flags & AB_STRATEGY_MEM_MASK,
			 AB_STRATEGY_MEM_VMALLOC);
	assert_int_equal(find("kvmalloc_node")->flags & AB_STRATEGY_MEM_MASK,
			 AB_STRATEGY_MEM_KVMALLOC);
	assert_true(find("vmalloc_batch")->flags & AB_STRATEGY_ONE_OBJECT);
	assert_false(find("vmalloc_node")->flags & AB_STRATEGY_ONE_OBJECT);
	assert_false(find("kfree_bulk")->flags & AB_STRATEGY_ONE_OBJECT);
}

static void test_info_count_only(void **state)
{
	struct ab_info i = { .size = sizeof(i) };

	assert_int_equal(xioctl(AB_IOC_INFO, &i), 0);
	assert_int_equal(i.nr_strategies, info.nr_strategies);
}

/* Whether uname -v holds the word @word (the kernel's own build flags). */
static int uname_says(const char *word)
{
	struct utsname u;
	size_t n = strlen(word);
	const char *p;

	if (uname(&u))
		return 0;
	for (p = u.version; (p = strstr(p, word)); p += n)
		if ((p == u.version || p[-1] == ' ') && (p[n] == ' ' || !p[n]))
			return 1;
	return 0;
}

static int kernel_is_rt(void)
{
	return uname_says("PREEMPT_RT");
}

/* "y" when /boot/config-RELEASE sets CONFIG_@sym=y, -1 without the file. */
static int config_has(const char *sym)
{
	char path[256], line[512], want[128];
	struct utsname u;
	int found = 0;
	FILE *f;

	if (uname(&u))
		return -1;
	snprintf(path, sizeof(path), "/boot/config-%s", u.release);
	f = fopen(path, "r");
	if (!f)
		return -1;
	snprintf(want, sizeof(want), "CONFIG_%s=y\n", sym);
	while (fgets(line, sizeof(line), f))
		found |= !strcmp(line, want);
	fclose(f);
	return found;
}

/*
 * kernel_flags: only known bits, each the kernel's own config (and uname
 * -v agrees on PREEMPT_RT).
 */
static void test_info_kernel_flags(void **state)
{
	static const struct {
		uint64_t flag;
		const char *sym;
	} flags[] = {
		{ AB_KERNEL_PREEMPT_RT, "PREEMPT_RT" },
		{ AB_KERNEL_PREEMPT_DYNAMIC, "PREEMPT_DYNAMIC" },
		{ AB_KERNEL_RANDOM_KMALLOC_CACHES, "RANDOM_KMALLOC_CACHES" },
		{ AB_KERNEL_SLAB_BUCKETS, "SLAB_BUCKETS" },
	};
	size_t k;
	int y;

	assert_int_equal(info.size, AB_INFO_SIZE_VER3);
	assert_int_equal(info.run_flags, AB_RUN_FLAGS_ALL);
	/* KMALLOC_MAX_SIZE is PAGE_SIZE << MAX_PAGE_ORDER, the largest order */
	assert_int_equal(info.kmalloc_max_size,
			 (uint64_t)info.page_size
				 << find("get_free_pages")->max_order);
	assert_int_equal(info.kernel_flags & ~AB_KERNEL_FLAGS_ALL, 0);
	assert_int_equal(!!(info.kernel_flags & AB_KERNEL_PREEMPT_RT),
			 kernel_is_rt());
	for (k = 0; k < sizeof(flags) / sizeof(flags[0]); k++) {
		y = config_has(flags[k].sym);
		if (y < 0)
			continue;
		if (!!(info.kernel_flags & flags[k].flag) != y)
			fail_msg("kernel_flags says %s=%d, the config %d",
				 flags[k].sym,
				 !!(info.kernel_flags & flags[k].flag), y);
	}
}

/* A version-0 caller gets version 0 back: the appended fields untouched. */
static void test_info_ver0(void **state)
{
	struct ab_info i;

	memset(&i, 0, sizeof(i));
	i.size = AB_INFO_SIZE_VER0;
	i.kernel_flags = 0x5a5a; /* beyond the caller's size: not read */
	assert_int_equal(xioctl(AB_IOC_INFO, &i), 0);
	assert_int_equal(i.size, AB_INFO_SIZE_VER0);
	assert_int_equal(i.abi_version, AB_ABI_VERSION);
	assert_int_equal(i.kernel_flags, 0x5a5a);
}

/* A struct larger than the module's: zero tail accepted, nonzero -E2BIG. */
static void test_info_tail(void **state)
{
	struct {
		struct ab_info i;
		uint64_t newer_field;
	} big = { .i.size = sizeof(big) };

	assert_int_equal(xioctl(AB_IOC_INFO, &big), 0);
	assert_int_equal(big.i.size, sizeof(struct ab_info));
	big.i.size = sizeof(big);
	big.newer_field = 1;
	assert_int_equal(xioctl(AB_IOC_INFO, &big), E2BIG);
}

/*
 * A rejection: set the field at @off (@len bytes) of an otherwise valid
 * request to a value, expect errno @err. The value is @value, plus a limit
 * from AB_IOC_INFO when @base says so.
 */
enum base { FIXED, NR_NODE_IDS, MAX_BATCH, MAX_TRIALS, KMALLOC_MAX };

struct reject {
	const char *what;
	int err;
	size_t off, len;
	enum base base;
	int64_t value;
};

#define INFO_FIELD(f) \
	offsetof(struct ab_info, f), sizeof(((struct ab_info *)0)->f)
#define RUN_FIELD(f) offsetof(struct ab_run, f), sizeof(((struct ab_run *)0)->f)

static void apply(void *arg, const struct reject *rj)
{
	int64_t v = rj->value;
	uint64_t u;
	uint32_t w;

	switch (rj->base) {
	case NR_NODE_IDS:
		v += info.nr_node_ids;
		break;
	case MAX_BATCH:
		v += (int64_t)info.max_batch;
		break;
	case MAX_TRIALS:
		v += (int64_t)info.max_trials;
		break;
	case KMALLOC_MAX:
		v += (int64_t)find("kmalloc")->max_size;
		break;
	case FIXED:
		break;
	}
	u = (uint64_t)v;
	w = (uint32_t)v;
	memcpy((char *)arg + rj->off, rj->len == 8 ? (void *)&u : (void *)&w,
	       rj->len);
}

static const struct reject info_rejects[] = {
	{ "info: size below version 0", EINVAL, INFO_FIELD(size), FIXED,
	  AB_INFO_SIZE_VER0 - 8 },
	{ "info: size above PAGE_SIZE", E2BIG, INFO_FIELD(size), FIXED,
	  1 << 20 },
	{ "info: reserved0 set", EINVAL, INFO_FIELD(reserved0), FIXED, 1 },
	{ "info: reserved[3] set", EINVAL, INFO_FIELD(reserved[3]), FIXED, 1 },
	{ "info: reserved3 set", EINVAL, INFO_FIELD(reserved3), FIXED, 1 },
	{ "info: strategies_len without pointer", EINVAL,
	  INFO_FIELD(strategies_len), FIXED, 4 },
};

static void test_info_reject(void **state)
{
	const struct reject *rj = *state;
	struct ab_info i = { .size = sizeof(i) };

	apply(&i, rj);
	assert_int_equal(xioctl(AB_IOC_INFO, &i), rj->err);
}

static void test_info_bad_pointer(void **state)
{
	struct ab_info i = { .size = sizeof(i) };

	i.strategies_len = 4;
	i.strategies_ptr = 16;
	assert_int_equal(xioctl(AB_IOC_INFO, &i), EFAULT);
}

static void test_unknown_command(void **state)
{
	struct ab_run r = req("none");

	assert_int_equal(xioctl(_IOWR(AB_IOC_MAGIC, 0x1f, struct ab_run), &r),
			 ENOTTY);
	assert_int_equal(xioctl(_IOR(AB_IOC_MAGIC, 0x01, struct ab_run), &r),
			 ENOTTY);
	assert_int_equal(
		xioctl(_IOWR(AB_IOC_MAGIC + 1, 0x01, struct ab_run), &r),
		ENOTTY);
	assert_int_equal(xioctl(_IO(AB_IOC_MAGIC, 0x00), NULL), ENOTTY);
}

/* ---- RUN rejections ---- */

static const struct reject run_rejects[] = {
	{ "run: unknown strategy", EINVAL, RUN_FIELD(strategy), FIXED, 9999 },
	{ "run: unknown flag", EINVAL, RUN_FIELD(flags), FIXED, 1U << 31 },
	{ "run: NOMERGE on a strategy without a cache", EINVAL,
	  RUN_FIELD(flags), FIXED, AB_RUN_NOMERGE },
	{ "run: lookup_table given to a strategy without lookups", EINVAL,
	  RUN_FIELD(lookup_table), FIXED, AB_TABLE_2002 },
	{ "run: lookup_method given to a strategy without lookups", EINVAL,
	  RUN_FIELD(lookup_method), FIXED, AB_LOOKUP_WALK },
	{ "run: unknown lookup table", EINVAL, RUN_FIELD(lookup_table), FIXED,
	  AB_TABLE_NR },
	{ "run: unknown lookup method", EINVAL, RUN_FIELD(lookup_method), FIXED,
	  AB_LOOKUP_NR },
	{ "run: reserved[1] set", EINVAL, RUN_FIELD(reserved[1]), FIXED, 1 },
	{ "run: align given to a kernel strategy", EINVAL, RUN_FIELD(align),
	  FIXED, 64 },
	{ "run: reserved1 set", EINVAL, RUN_FIELD(reserved1), FIXED, 1 },
	{ "run: unknown flag bit 6", EINVAL, RUN_FIELD(flags), FIXED, 1 << 6 },
	{ "run: unknown flag bit 31", EINVAL, RUN_FIELD(flags), FIXED,
	  1U << 31 },
	{ "run: seed without the shuffle pattern", EINVAL, RUN_FIELD(seed),
	  FIXED, 42 },
	{ "run: unknown timing mode", EINVAL, RUN_FIELD(timing), FIXED,
	  AB_TIMING_NR },
	{ "run: unknown free pattern", EINVAL, RUN_FIELD(free_pattern), FIXED,
	  AB_FREE_NR },
	{ "run: unknown context", EINVAL, RUN_FIELD(context), FIXED,
	  AB_CTX_NR },
	{ "run: preemption off with GFP_KERNEL", EINVAL, RUN_FIELD(context),
	  FIXED, AB_CTX_PREEMPT_OFF },
	{ "run: IRQs off with GFP_KERNEL", EINVAL, RUN_FIELD(context), FIXED,
	  AB_CTX_IRQ_OFF },
	{ "run: unknown gfp", EINVAL, RUN_FIELD(gfp), FIXED, AB_GFP_NR },
	{ "run: node -2", EINVAL, RUN_FIELD(node), FIXED, -2 },
	{ "run: node nr_node_ids", EINVAL, RUN_FIELD(node), NR_NODE_IDS, 0 },
	{ "run: node 2^30", EINVAL, RUN_FIELD(node), FIXED, 1 << 30 },
	{ "run: node given to a strategy without one", EINVAL, RUN_FIELD(node),
	  FIXED, 0 },
	{ "run: batch 0", EINVAL, RUN_FIELD(batch), FIXED, 0 },
	{ "run: trials 0", EINVAL, RUN_FIELD(trials), FIXED, 0 },
	{ "run: batch above max_batch", E2BIG, RUN_FIELD(batch), MAX_BATCH, 1 },
	{ "run: trials above max_trials", E2BIG, RUN_FIELD(trials), MAX_TRIALS,
	  1 },
	{ "run: warmup above max_trials", E2BIG, RUN_FIELD(warmup), MAX_TRIALS,
	  1 },
	{ "run: obj_size 0", EINVAL, RUN_FIELD(obj_size), FIXED, 0 },
	{ "run: order given to a size strategy", EINVAL, RUN_FIELD(order),
	  FIXED, 1 },
	{ "run: obj_size above the strategy's max", E2BIG, RUN_FIELD(obj_size),
	  KMALLOC_MAX, 1 },
	{ "run: size below version 0", EINVAL, RUN_FIELD(size), FIXED,
	  AB_RUN_SIZE_VER0 - 8 },
	{ "run: size above PAGE_SIZE", E2BIG, RUN_FIELD(size), FIXED, 1 << 20 },
	{ "run: samples_len without pointer", EINVAL, RUN_FIELD(samples_len),
	  FIXED, 2 },
	{ "run: samples pointer without length", EINVAL, RUN_FIELD(samples_ptr),
	  FIXED, 4096 },
};

/*
 * The AB_LIMIT_* a run reject above a limit names in ab_run.limit (the
 * limit its base is), AB_LIMIT_NR for one the module must not write.
 */
static uint32_t reject_limit(const struct reject *rj)
{
	if (rj->err != E2BIG)
		return AB_LIMIT_NR;
	switch (rj->base) {
	case MAX_BATCH:
		return AB_LIMIT_BATCH;
	case MAX_TRIALS:
		return AB_LIMIT_TRIALS;
	case KMALLOC_MAX:
		return AB_LIMIT_OBJECT;
	default:
		return AB_LIMIT_NR; /* the struct's size: not the run's */
	}
}

/*
 * Each rejection is applied to a valid kmalloc request. A refusal for a
 * limit names it in ab_run.limit, the one field it writes; any other
 * leaves the struct as it was (here a value no limit has).
 */
static void test_run_reject(void **state)
{
	const struct reject *rj = *state;
	struct ab_run r = req("kmalloc");

	assert_int_equal(xioctl(AB_IOC_RUN, &r), 0);
	assert_int_equal(r.limit, AB_LIMIT_NONE);
	apply(&r, rj);
	r.limit = AB_LIMIT_NR;
	assert_int_equal(xioctl(AB_IOC_RUN, &r), rj->err);
	assert_int_equal(r.limit, reject_limit(rj));
	assert_int_equal(outstanding(), 0);
}

static void test_run_reject_params(void **state)
{
	struct ab_run r;

	static struct ab_sample one[1];

	/* batch x size above the bytes held at once */
	r = req("kmalloc");
	r.obj_size = 1 << 20;
	r.batch = (uint32_t)(info.max_bytes >> 20) + 1;
	assert_int_equal(xioctl(AB_IOC_RUN, &r), E2BIG);
	assert_int_equal(r.limit, AB_LIMIT_BUDGET);
	/* fewer samples than trials */
	r = req("kmalloc");
	r.samples_ptr = (uintptr_t)one;
	r.samples_len = 1;
	assert_int_equal(xioctl(AB_IOC_RUN, &r), EINVAL);
	/* samples at an address the caller cannot write */
	r = req("kmalloc");
	r.samples_ptr = 16;
	r.samples_len = 2;
	assert_int_equal(xioctl(AB_IOC_RUN, &r), EFAULT);
	/* a size given to an order strategy */
	r = req("get_free_pages");
	r.obj_size = 4096;
	assert_int_equal(xioctl(AB_IOC_RUN, &r), EINVAL);
	/* an order above the page allocator's */
	r = req("get_free_pages");
	r.order = find("get_free_pages")->max_order + 1;
	assert_int_equal(xioctl(AB_IOC_RUN, &r), E2BIG);
	assert_int_equal(r.limit, AB_LIMIT_OBJECT);
	/* a GFP choice given to a strategy that takes none */
	r = req("vmalloc_node");
	r.gfp = AB_GFP_ATOMIC;
	assert_int_equal(xioctl(AB_IOC_RUN, &r), EINVAL);
	/* none takes neither size nor order */
	r = req("none");
	r.obj_size = 8;
	assert_int_equal(xioctl(AB_IOC_RUN, &r), EINVAL);
	/* a newer caller's nonzero tail */
	{
		struct {
			struct ab_run r;
			uint64_t newer;
		} big = { .r = req("kmalloc"), .newer = 1 };

		big.r.size = sizeof(big);
		assert_int_equal(xioctl(AB_IOC_RUN, &big), E2BIG);
		big.newer = 0;
		big.r.size = sizeof(big);
		assert_int_equal(xioctl(AB_IOC_RUN, &big), 0);
		assert_int_equal(big.r.size, sizeof(struct ab_run));
	}
	assert_int_equal(outstanding(), 0);
}

/* ---- runs ---- */

/* Objects one trial of @r allocates. */
static uint32_t per_trial(const struct ab_run *r)
{
	return strcmp(strat[r->strategy].name, "vmalloc_batch") ? r->batch : 1;
}

/*
 * Samples one trial of @r writes: one per object in single timing, but one
 * for strategies timed per trial (AB_STRATEGY_PER_TRIAL).
 */
static uint32_t samples_per_trial(const struct ab_run *r)
{
	if (r->timing != AB_TIMING_SINGLE ||
	    (strat[r->strategy].flags & AB_STRATEGY_PER_TRIAL))
		return 1;
	return per_trial(r);
}

/*
 * Runs @r with samples; checks the invariants every run must keep: all
 * trials done, nothing failed, the samples account for every object, the
 * phases took cycles (with @want_cycles; the free phase of the pair
 * pattern in batch timing is empty), the clock cost was measured, and the
 * module holds nothing afterwards.
 */
static void run_ok(struct ab_run *r, int want_cycles)
{
	/* one sample per object: single timing, not a per-trial strategy */
	int single = r->timing == AB_TIMING_SINGLE &&
		     !(strat[r->strategy].flags & AB_STRATEGY_PER_TRIAL);
	int pair = r->free_pattern == AB_FREE_PAIR;
	uint32_t per = per_trial(r);
	size_t len = (size_t)r->trials * samples_per_trial(r);
	struct ab_sample *s = calloc(len, sizeof(*s));
	size_t i;
	int err;

	assert_non_null(s);
	r->samples_ptr = (uintptr_t)s;
	r->samples_len = len;
	err = xioctl(AB_IOC_RUN, r);
	if (err)
		fail_msg("%s, size %llu, order %u, batch %u: %s",
			 strat[r->strategy].name,
			 (unsigned long long)r->obj_size, r->order, r->batch,
			 strerror(err));
	assert_int_equal(r->trials_done, r->trials);
	assert_int_equal(r->failed, 0);
	assert_int_equal(r->objects, (uint64_t)per * r->trials);
	assert_true(r->clock_cycles > 0);
	if (pair)
		assert_int_equal(r->node_checked, 0);
	for (i = 0; i < len; i++) {
		assert_int_equal(s[i].nr_objs, single ? 1 : per);
		assert_int_equal(s[i].flags, 0);
		if (want_cycles) {
			assert_true(s[i].alloc_cycles > 0);
			if (pair && r->timing == AB_TIMING_BATCH)
				assert_int_equal(s[i].free_cycles, 0);
			else
				assert_true(s[i].free_cycles > 0);
		}
	}
	assert_int_equal(outstanding(), 0);
	free(s);
}

/* Two objects of @sz, or one when two exceed the module's budget. */
static void run_size(const char *name, uint64_t sz)
{
	struct ab_run r = req(name);

	r.obj_size = sz;
	if (r.batch > info.max_bytes / sz)
		r.batch = 1;
	run_ok(&r, 1);
}

static void test_every_strategy_every_size(void **state)
{
	unsigned int i;

	for (i = 0; i < info.nr_strategies; i++) {
		const struct ab_strategy_info *s = &strat[i];
		struct ab_run r = req(s->name);

		if (s->params & AB_PARAM_SIZE) {
			uint64_t sz, max = s->max_size;

			/* vmalloc_batch allocates batch x size at once */
			if (!strcmp(s->name, "vmalloc_batch"))
				max /= r.batch;
			for (sz = 8; sz < max; sz *= 4)
				run_size(s->name, sz);
			run_size(s->name, max);
		} else if (s->params & AB_PARAM_ORDER) {
			uint32_t o;

			for (o = 0; o <= s->max_order; o++) {
				r = req(s->name);
				r.order = o;
				r.batch = 1;
				run_ok(&r, 1);
			}
		} else {
			r.batch = 64;
			run_ok(&r, 1);
		}
	}
}

static void test_warmup_not_recorded(void **state)
{
	struct ab_run r = req("kmalloc");

	r.warmup = 5;
	r.trials = 3;
	run_ok(&r, 1);
}

static void test_every_gfp(void **state)
{
	uint32_t g;

	for (g = 0; g < AB_GFP_NR; g++) {
		struct ab_run r = req("kmalloc_node");

		r.gfp = g;
		run_ok(&r, 1);
		r = req("alloc_pages_node");
		r.gfp = g;
		run_ok(&r, 1);
	}
}

/*
 * The module opens no files (issue 16, part 5e): it says NO for a cache
 * made unmergeable, UNKNOWN for a mergeable one (the CLI reads
 * /sys/kernel/slab/<cache_name>, lib/slabmerge.c), and names the cache;
 * the name is an entry of SLUB's sysfs (a link for a mergeable cache,
 * left after the run: mm/slub.c removes it only when the name is reused).
 * A version-1 caller gets no name written.
 */
/*
 * Whether SLUB merges caches in this boot: not with slab_nomerge, nor
 * with slub_debug flags, which are in SLAB_NEVER_MERGE (mm/slab_common.c).
 */
static int kernel_merges(void)
{
	char line[4096] = "";
	FILE *f = fopen("/proc/cmdline", "r");

	if (f) {
		if (!fgets(line, sizeof(line), f))
			line[0] = 0;
		fclose(f);
	}
	return !strstr(line, "slab_nomerge") && !strstr(line, "slub_nomerge") &&
	       !strstr(line, "slub_debug");
}

static void test_cache_merge_report(void **state)
{
	struct ab_run r = req("kmem_cache");
	char path[128];
	struct stat st;

	r.flags = AB_RUN_NOMERGE;
	run_ok(&r, 1);
	assert_int_equal(r.cache_merged, AB_MERGED_NO);
	assert_int_equal(strncmp(r.cache_name, "allocbench-", 11), 0);
	r = req("kmem_cache");
	r.obj_size = 4096;
	run_ok(&r, 1);
	assert_int_equal(r.cache_merged, AB_MERGED_UNKNOWN);
	assert_int_equal(strncmp(r.cache_name, "allocbench-4096-", 16), 0);
	assert_non_null(memchr(r.cache_name, 0, sizeof(r.cache_name)));
	snprintf(path, sizeof(path), "/sys/kernel/slab/%s", r.cache_name);
	if (stat("/sys/kernel/slab", &st) == 0 && kernel_merges()) {
		/* merged: a link to the shared cache, left after the run */
		assert_int_equal(lstat(path, &st), 0);
		assert_true(S_ISLNK(st.st_mode));
	} else if (stat("/sys/kernel/slab", &st) == 0) {
		/* a cache of its own: its directory went with it */
		assert_int_equal(lstat(path, &st), -1);
		assert_int_equal(errno, ENOENT);
	}
	r = req("kmem_cache");
	r.size = AB_RUN_SIZE_VER1;
	memset(r.cache_name, 'x', sizeof(r.cache_name));
	assert_int_equal(xioctl(AB_IOC_RUN, &r), 0);
	assert_int_equal(r.size, AB_RUN_SIZE_VER1);
	assert_int_equal(r.cache_name[0], 'x');
	r = req("kmalloc");
	run_ok(&r, 1);
	assert_int_equal(r.cache_merged, AB_MERGED_NA);
	assert_int_equal(r.cache_name[0], 0);
}

/* Whether @name is an entry of /sys/kernel/slab: 1, 0, or -1 without it. */
static int slab_entry(const char *name)
{
	char path[128];
	struct stat st;

	if (stat("/sys/kernel/slab", &st))
		return -1;
	snprintf(path, sizeof(path), "/sys/kernel/slab/%s/objs_per_slab", name);
	return stat(path, &st) == 0;
}

/*
 * AB_RUN_KEEP_CACHE (issue 21): a cache of its own (--nomerge), which
 * kmem_cache_destroy() takes out of /sys/kernel/slab with its geometry,
 * stays after its run, empty, until the same thread's next run on the
 * same file begins or the file is closed; another thread's run leaves
 * it. Without the flag it goes with the run, as before. A run of a
 * strategy without a cache ignores the flag.
 */
static void test_cache_kept_for_its_geometry(void **state)
{
	struct ab_run r = req("kmem_cache");
	char name[AB_CACHE_NAME_LEN];
	int fd2, saved = fd, st;
	pid_t pid;

	if (slab_entry("kmalloc-64") < 0)
		skip();
	r.flags = AB_RUN_NOMERGE | AB_RUN_KEEP_CACHE;
	r.obj_size = 4096;
	run_ok(&r, 1);
	assert_int_equal(r.cache_merged, AB_MERGED_NO);
	memcpy(name, r.cache_name, sizeof(name));
	assert_int_equal(slab_entry(name), 1);
	assert_int_equal(outstanding(), 0);
	/* another thread's run on the same file leaves it */
	pid = fork();
	assert_true(pid >= 0);
	if (!pid) {
		struct ab_run k = req("kmalloc");

		_exit(ioctl(fd, AB_IOC_RUN, &k) ? 1 : 0);
	}
	assert_int_equal(waitpid(pid, &st, 0), pid);
	assert_true(WIFEXITED(st) && WEXITSTATUS(st) == 0);
	assert_int_equal(slab_entry(name), 1);
	/* the next run of this thread on the file destroys it first */
	r = req("kmalloc");
	r.flags = AB_RUN_KEEP_CACHE;
	run_ok(&r, 1);
	assert_int_equal(r.cache_name[0], 0);
	assert_int_equal(slab_entry(name), 0);
	/* without the flag: gone with the run */
	r = req("kmem_cache");
	r.flags = AB_RUN_NOMERGE;
	run_ok(&r, 1);
	assert_int_equal(slab_entry(r.cache_name), 0);
	/* closing the file destroys what its runs kept */
	fd2 = open("/dev/" AB_DEVICE_NAME, O_RDWR);
	assert_true(fd2 >= 0);
	fd = fd2;
	r = req("kmem_cache");
	r.flags = AB_RUN_NOMERGE | AB_RUN_KEEP_CACHE;
	run_ok(&r, 1);
	fd = saved;
	memcpy(name, r.cache_name, sizeof(name));
	assert_int_equal(slab_entry(name), 1);
	/* a run on another file leaves it */
	r = req("kmalloc");
	run_ok(&r, 1);
	assert_int_equal(slab_entry(name), 1);
	assert_int_equal(close(fd2), 0);
	assert_int_equal(slab_entry(name), 0);
}

/*
 * Two runs' caches of one size at once (issue 13, item 22): the second is
 * merged into the first (YES), and the first, a cache of its own when it
 * was created, says so at its end (LATER), not NO. 2728 bytes: no kernel
 * cache is within the 8 bytes SLUB merges across (find_mergeable()), so
 * the first is a cache of its own unless the kernel merges nothing.
 */
static void test_cache_merged_during_run(void **state)
{
	struct ab_run a = req("kmem_cache");
	int st;
	pid_t pid;

	a.obj_size = 2728;
	a.batch = 64;
	a.trials = 30000;
	pid = fork();
	assert_true(pid >= 0);
	if (!pid) {
		struct ab_run b = req("kmem_cache");

		b.obj_size = 2728;
		usleep(300000);
		_exit(ioctl(fd, AB_IOC_RUN, &b) ? 100 : (int)b.cache_merged);
	}
	assert_int_equal(xioctl(AB_IOC_RUN, &a), 0);
	assert_int_equal(waitpid(pid, &st, 0), pid);
	assert_true(WIFEXITED(st));
	if (a.cache_merged == AB_MERGED_NO)
		fail_msg(
			"the first run's cache stayed NO while the second's (cache_merged %d; 100: failed) ran; LATER expected",
			WEXITSTATUS(st));
	if (a.cache_merged == AB_MERGED_LATER)
		assert_int_equal(WEXITSTATUS(st), AB_MERGED_YES);
	else
		assert_true(a.cache_merged == AB_MERGED_YES ||
			    a.cache_merged == AB_MERGED_UNKNOWN);
}

static void pin(int cpu);

/*
 * A run sharing its CPU with a busy process is preempted inside its phases:
 * the switches are counted, the disturbed trials are at most the trials,
 * and with AB_RUN_MARK_DISTURBED exactly the disturbed trials' samples
 * carry a disturbed bit; without it none does.
 */
static void test_disturbed_counted(void **state)
{
	static struct ab_sample s[400];
	struct ab_run r;
	int mark, k, marked;
	pid_t pid;

	pin(0);
	pid = fork();
	assert_true(pid >= 0);
	if (!pid) {
		for (;;)
			;
	}
	for (mark = 0; mark < 2; mark++) {
		r = req("vmalloc_node");
		r.obj_size = 16384;
		r.batch = 32;
		r.trials = 400;
		r.samples_ptr = (uintptr_t)s;
		r.samples_len = 400;
		r.flags = mark ? AB_RUN_MARK_DISTURBED : 0;
		memset(s, 0, sizeof(s));
		assert_int_equal(xioctl(AB_IOC_RUN, &r), 0);
		assert_true(r.disturbed <= r.trials_done);
		assert_true(r.switches >= r.disturbed || r.migrations);
		for (k = 0, marked = 0; k < 400; k++)
			marked += !!(s[k].flags & (AB_SAMPLE_ALLOC_DISTURBED |
						   AB_SAMPLE_FREE_DISTURBED));
		assert_int_equal(marked, mark ? r.disturbed : 0);
		if (mark && !r.disturbed)
			fail_msg(
				"400 trials sharing CPU 0 with a busy process: no switch seen");
	}
	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
}

static int node_has_memory(int node)
{
	char path[96];
	FILE *f;
	long kb = 0;
	char line[160];

	snprintf(path, sizeof(path), "/sys/devices/system/node/node%d/meminfo",
		 node);
	f = fopen(path, "r");
	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "Node %*d MemTotal: %ld kB", &kb) == 1)
			break;
	fclose(f);
	return kb > 0;
}

/* First CPU of @node, from sysfs, or -1. */
static int node_first_cpu(int node)
{
	char path[96];
	int cpu;

	for (cpu = 0; cpu < CPU_SETSIZE; cpu++) {
		snprintf(path, sizeof(path),
			 "/sys/devices/system/node/node%d/cpu%d", node, cpu);
		if (!access(path, F_OK))
			return cpu;
	}
	return -1;
}

static void pin(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	assert_int_equal(sched_setaffinity(0, sizeof(set), &set), 0);
}

/* Pinned to a CPU of each node, every *_node strategy hits the node. */
static void test_node_hits(void **state)
{
	static const char *const node_strats[] = {
		"alloc_pages_node", "kmalloc_node",  "kmem_cache_node",
		"vmalloc_node",	    "kvmalloc_node",
	};
	int node, cpu, nodes = 0;
	unsigned int i;

	for (node = 0; node < (int)info.nr_node_ids; node++) {
		if (!node_has_memory(node))
			continue;
		cpu = node_first_cpu(node);
		if (cpu < 0)
			continue;
		pin(cpu);
		nodes++;
		for (i = 0; i < sizeof(node_strats) / sizeof(node_strats[0]);
		     i++) {
			struct ab_run r = req(node_strats[i]);

			r.node = node;
			r.batch = 32;
			r.trials = 4;
			if (r.obj_size)
				r.obj_size = 4096;
			run_ok(&r, 1);
			assert_int_equal(r.target_node, node);
			assert_int_equal(r.cpu_start, cpu);
			assert_int_equal(r.cpu_end, cpu);
			assert_int_equal(r.node_checked,
					 CHECK_TRIALS(r.trials) * r.batch);
			if (r.node_hits != r.node_checked)
				fail_msg(
					"%s on node %d: %llu of %llu objects on the node",
					node_strats[i], node,
					(unsigned long long)r.node_hits,
					(unsigned long long)r.node_checked);
		}
		/* with no node, hits are counted against the local node */
		{
			struct ab_run r = req("kmalloc");

			run_ok(&r, 1);
			assert_int_equal(r.target_node, node);
		}
	}
	print_message("node hits checked on %d node(s)\n", nodes);
	assert_true(nodes >= 1);
}

/* ---- timing modes, free patterns, writes, loop contexts ---- */

static const char *const allocating[] = {
	"get_free_pages",  "alloc_pages_node", "kmalloc",
	"kmalloc_node",	   "kmem_cache",       "kmem_cache_node",
	"vmalloc_node",	   "vmalloc_batch",    "kvmalloc_node",
	"kmem_cache_bulk", "kfree_bulk",       "alloc_pages_bulk",
};
#define NR_ALLOCATING (sizeof(allocating) / sizeof(allocating[0]))

static void test_every_mode_and_pattern(void **state)
{
	uint32_t timing, pattern;
	size_t k;

	for (k = 0; k < NR_ALLOCATING; k++)
		for (timing = 0; timing < AB_TIMING_NR; timing++)
			for (pattern = 0; pattern < AB_FREE_NR; pattern++) {
				struct ab_run r = req(allocating[k]);

				r.batch = 8;
				r.trials = 3;
				r.timing = timing;
				r.free_pattern = pattern;
				if (pattern == AB_FREE_SHUFFLE)
					r.seed = 0x5eed;
				run_ok(&r, 1);
			}
}

static void test_write_every_strategy(void **state)
{
	size_t k;

	for (k = 0; k < NR_ALLOCATING; k++) {
		struct ab_run r = req(allocating[k]);

		r.flags = AB_RUN_WRITE;
		if (r.obj_size)
			r.obj_size = 4096;
		run_ok(&r, 1);
		r.timing = AB_TIMING_SINGLE;
		run_ok(&r, 1);
	}
}

static const char *const atomic_ok[] = {
	"none",		"get_free_pages",   "alloc_pages_node", "kmalloc",
	"kmalloc_node", "kmem_cache",	    "kmem_cache_node",	"kvmalloc_node",
	"kfree_bulk",	"alloc_pages_bulk",
};

#define NR_ATOMIC_OK (sizeof(atomic_ok) / sizeof(atomic_ok[0]))

/*
 * Everything that takes a GFP choice runs with preemption or IRQs off
 * (not on PREEMPT_RT: test_rt_refuses_atomic_contexts).
 */
static void test_atomic_contexts(void **state)
{
	uint32_t ctx, gfp;
	size_t k;

	if (kernel_is_rt()) {
		/* (cmocka's skip() prints a "not ok" TAP line) */
		print_message(
			"# PREEMPT_RT: test_rt_refuses_atomic_contexts\n");
		return;
	}
	for (ctx = AB_CTX_PREEMPT_OFF; ctx < AB_CTX_NR; ctx++)
		for (k = 0; k < NR_ATOMIC_OK; k++)
			for (gfp = AB_GFP_ATOMIC; gfp <= AB_GFP_NOWAIT; gfp++) {
				struct ab_run r = req(atomic_ok[k]);

				r.context = ctx;
				if (strcmp(atomic_ok[k], "none"))
					r.gfp = gfp;
				r.batch = 16;
				run_ok(&r, 1);
				r.timing = AB_TIMING_SINGLE;
				r.free_pattern = AB_FREE_LIFO;
				run_ok(&r, 1);
			}
}

/*
 * PREEMPT_RT: the allocators take sleeping locks, so an atomic context
 * around an allocation is refused with EOPNOTSUPP, even with GFP_ATOMIC,
 * for every strategy that allocates and in every timing; "none" still
 * runs. Elsewhere test_atomic_contexts checks that they run.
 */
static void test_rt_refuses_atomic_contexts(void **state)
{
	uint32_t ctx, gfp;
	size_t k;

	if (!kernel_is_rt()) {
		assert_false(info.kernel_flags & AB_KERNEL_PREEMPT_RT);
		print_message("# not PREEMPT_RT: test_atomic_contexts\n");
		return;
	}
	assert_true(info.kernel_flags & AB_KERNEL_PREEMPT_RT);
	for (ctx = AB_CTX_PREEMPT_OFF; ctx < AB_CTX_NR; ctx++)
		for (k = 0; k < NR_ATOMIC_OK; k++)
			for (gfp = AB_GFP_ATOMIC; gfp <= AB_GFP_NOWAIT; gfp++) {
				struct ab_run r = req(atomic_ok[k]);

				r.context = ctx;
				r.batch = 16;
				if (!strcmp(atomic_ok[k], "none")) {
					run_ok(&r, 1);
					continue;
				}
				r.gfp = gfp;
				assert_int_equal(xioctl(AB_IOC_RUN, &r),
						 EOPNOTSUPP);
				r.timing = AB_TIMING_SINGLE;
				assert_int_equal(xioctl(AB_IOC_RUN, &r),
						 EOPNOTSUPP);
				/* the same run in process context is fine */
				r.context = AB_CTX_NORMAL;
				r.timing = AB_TIMING_BATCH;
				run_ok(&r, 1);
			}
	assert_int_equal(outstanding(), 0);
}

static void test_atomic_context_rejects(void **state)
{
	struct ab_run r;

	/* vmalloc may sleep: no GFP choice, no atomic context */
	r = req("vmalloc_node");
	r.context = AB_CTX_IRQ_OFF;
	assert_int_equal(xioctl(AB_IOC_RUN, &r), EINVAL);
	/* GFP_KERNEL|__GFP_ZERO may sleep too */
	r = req("kmalloc");
	r.context = AB_CTX_PREEMPT_OFF;
	r.gfp = AB_GFP_KERNEL_ZERO;
	assert_int_equal(xioctl(AB_IOC_RUN, &r), EINVAL);
	/* more than AB_ATOMIC_MAX_BYTES in one trial with IRQs off */
	r = req("kmalloc");
	r.context = AB_CTX_IRQ_OFF;
	r.gfp = AB_GFP_ATOMIC;
	r.obj_size = 1 << 20;
	r.batch = (uint32_t)(AB_ATOMIC_MAX_BYTES >> 20) + 1;
	if ((uint64_t)r.batch << 20 <= info.max_bytes)
		assert_int_equal(xioctl(AB_IOC_RUN, &r), E2BIG);
	/* single timing needs a sample per object */
	r = req("kmalloc");
	r.timing = AB_TIMING_SINGLE;
	{
		struct ab_sample few[3];

		r.samples_ptr = (uintptr_t)few;
		r.samples_len = 3; /* 2 trials x 2 objects = 4 */
		assert_int_equal(xioctl(AB_IOC_RUN, &r), EINVAL);
	}
	assert_int_equal(outstanding(), 0);
}

/* Single timing: the samples of a failed trial say which slot failed. */
/*
 * The bulk strategies: one sample per trial in single timing too, holding
 * the call's objects; order-0 pages only; kmem_cache_alloc_bulk() never
 * with IRQs off (it enables them), with preemption off it runs.
 */
static void test_bulk(void **state)
{
	static const char *const bulk[] = { "kmem_cache_bulk", "kfree_bulk",
					    "alloc_pages_bulk" };
	struct ab_sample s[4];
	struct ab_run r;
	size_t k;

	for (k = 0; k < 3; k++) {
		r = req(bulk[k]);
		r.batch = 32;
		r.trials = 4;
		r.timing = AB_TIMING_SINGLE;
		r.samples_ptr = (uintptr_t)s;
		r.samples_len = 4; /* one sample per trial */
		assert_int_equal(xioctl(AB_IOC_RUN, &r), 0);
		assert_int_equal(r.objects, 4 * 32);
		assert_int_equal(s[3].nr_objs, 32);
		assert_true(s[3].alloc_cycles > 0 && s[3].free_cycles > 0);
		assert_int_equal(r.node_checked, CHECK_TRIALS(4) * 32);
	}
	r = req("alloc_pages_bulk");
	r.order = 1;
	assert_int_equal(xioctl(AB_IOC_RUN, &r), E2BIG);
	r = req("kmem_cache_bulk");
	r.gfp = AB_GFP_ATOMIC;
	r.context = AB_CTX_IRQ_OFF;
	assert_int_equal(xioctl(AB_IOC_RUN, &r), EINVAL);
	r.context = AB_CTX_PREEMPT_OFF;
	assert_int_equal(xioctl(AB_IOC_RUN, &r),
			 kernel_is_rt() ? EOPNOTSUPP : 0);
	assert_int_equal(outstanding(), 0);
}

static void test_single_timing_layout(void **state)
{
	struct ab_run r = req("vmalloc_batch");
	struct ab_sample s[3];

	r.timing = AB_TIMING_SINGLE;
	r.trials = 3;
	r.samples_ptr = (uintptr_t)s;
	r.samples_len = 3; /* one allocation per trial */
	assert_int_equal(xioctl(AB_IOC_RUN, &r), 0);
	assert_int_equal(r.objects, 3);
	assert_int_equal(s[2].nr_objs, 1);
}

/* ---- size-class lookups ---- */

/* The class of @size in @sizes (ascending, @nr of them), -1 if none. */
static int ref_class(const uint32_t *sizes, int nr, uint32_t size)
{
	int i;

	for (i = 0; size && i < nr; i++)
		if (size <= sizes[i])
			return i;
	return -1;
}

static const uint32_t kmalloc_sizes[] = { 8,   16,  32,	  64,	96,   128, 192,
					  256, 512, 1024, 2048, 4096, 8192 };
static const uint32_t sizes_2002[] = { 32,   64,    96,	   128,	  192,
				       256,  512,   1024,  2048,  4096,
				       8192, 16384, 32768, 65536, 131072 };

static struct ab_lookup lreq(uint32_t method, uint32_t table,
			     const uint32_t *sizes, uint32_t n)
{
	struct ab_lookup l = { .size = sizeof(l),
			       .method = method,
			       .table = table,
			       .nr_sizes = n,
			       .sizes_ptr = (uintptr_t)sizes,
			       .trials = 3 };
	return l;
}

/*
 * In the kernel every method finds the same classes as a reference
 * written here, for every size 0 .. largest + 1 (the class sum over the
 * sequence), and every pass takes cycles.
 */
static void test_lookup_methods_agree(void **state)
{
	static uint32_t all[131074];
	uint64_t cyc[3];
	uint32_t table, m, n, i;

	for (table = 0; table < AB_TABLE_NR; table++) {
		const uint32_t *cls = table ? sizes_2002 : kmalloc_sizes;
		int nr = table ? 15 : 13;
		int64_t want = 0;

		n = cls[nr - 1] + 2;
		for (i = 0; i < n; i++) {
			all[i] = i;
			want += ref_class(cls, nr, i);
		}
		for (m = AB_LOOKUP_WALK; m < AB_LOOKUP_NR; m++) {
			struct ab_lookup l = lreq(m, table, all, n);

			l.samples_ptr = (uintptr_t)cyc;
			l.samples_len = 3;
			assert_int_equal(xioctl(AB_IOC_LOOKUP, &l), 0);
			if (l.checksum != want)
				fail_msg(
					"table %u method %u: class sum %lld, want %lld",
					table, m, (long long)l.checksum,
					(long long)want);
			assert_int_equal(l.trials_done, 3);
			assert_true(cyc[0] > 0 && cyc[1] > 0 && cyc[2] > 0);
			assert_true(l.clock_cycles > 0);
		}
	}
}

static void test_lookup_rejects(void **state)
{
	static uint32_t sz[4] = { 1, 2, 3, 4 };
	uint64_t cyc[3];
	struct ab_lookup l;

#define LREJ(stmt, want)                                           \
	do {                                                       \
		l = lreq(AB_LOOKUP_WALK, AB_TABLE_KMALLOC, sz, 4); \
		stmt;                                              \
		assert_int_equal(xioctl(AB_IOC_LOOKUP, &l), want); \
	} while (0)
	LREJ((void)0, 0);
	LREJ(l.method = AB_LOOKUP_NR, EINVAL);
	LREJ(l.table = AB_TABLE_NR, EINVAL);
	LREJ(l.flags = 1, EINVAL);
	LREJ(l.reserved0 = 1, EINVAL);
	LREJ(l.reserved[1] = 1, EINVAL);
	LREJ(l.nr_sizes = 0, EINVAL);
	LREJ(l.sizes_ptr = 0, EINVAL);
	LREJ(l.trials = 0, EINVAL);
	LREJ(l.nr_sizes = AB_LOOKUP_MAX_SIZES + 1, E2BIG);
	LREJ(l.trials = (uint32_t)info.max_trials + 1, E2BIG);
	LREJ(l.warmup = (uint32_t)info.max_trials + 1, E2BIG);
	LREJ(l.samples_len = 3, EINVAL);
	LREJ((l.samples_ptr = (uintptr_t)cyc, l.samples_len = 2), EINVAL);
	LREJ(l.sizes_ptr = 16, EFAULT);
	LREJ((l.samples_ptr = 16, l.samples_len = 3), EFAULT);
	LREJ(l.size = AB_LOOKUP_SIZE_VER0 - 8, EINVAL);
	LREJ(l.size = 1 << 20, E2BIG);
#undef LREJ
}

/* kmalloc_class: every method and table, sizes up to kmalloc-8k. */
static void test_kmalloc_class(void **state)
{
	static const uint64_t sizes[] = { 1,   8,   33,	  96,  100,
					  192, 200, 4096, 8192 };
	uint32_t table, m;
	size_t k;

	for (table = 0; table < AB_TABLE_NR; table++)
		for (m = 0; m < AB_LOOKUP_NR; m++)
			for (k = 0; k < sizeof(sizes) / sizeof(sizes[0]); k++) {
				struct ab_run r = req("kmalloc_class");

				r.obj_size = sizes[k];
				r.lookup_table = table;
				r.lookup_method = m;
				r.batch = 8;
				run_ok(&r, 1);
				assert_int_equal(r.node_checked,
						 CHECK_TRIALS(r.trials) *
							 r.batch);
			}
	{
		struct ab_run r = req("kmalloc_class");

		r.obj_size = 8193;
		assert_int_equal(xioctl(AB_IOC_RUN, &r), E2BIG);
	}
}

/* ---- remote frees ---- */

static void test_remote_free(void **state)
{
	uint32_t other = sysconf(_SC_NPROCESSORS_ONLN) > 1 ? 1 : 0;
	struct ab_run r;
	size_t k;

	for (k = 0; k < NR_ALLOCATING; k++) {
		r = req(allocating[k]);
		r.flags = AB_RUN_REMOTE_FREE;
		r.free_cpu = other;
		r.batch = 16;
		run_ok(&r, 1);
		r.timing = AB_TIMING_SINGLE;
		r.free_pattern = AB_FREE_SHUFFLE;
		run_ok(&r, 1);
	}
	r = req("kmalloc");
	r.free_cpu = other ? other : 1;
	assert_int_equal(xioctl(AB_IOC_RUN, &r), EINVAL); /* no flag */
	r = req("kmalloc");
	r.flags = AB_RUN_REMOTE_FREE;
	r.free_cpu = 1U << 20;
	assert_int_equal(xioctl(AB_IOC_RUN, &r), EINVAL); /* no such CPU */
	r = req("kmalloc");
	r.flags = AB_RUN_REMOTE_FREE;
	r.free_pattern = AB_FREE_PAIR;
	assert_int_equal(xioctl(AB_IOC_RUN, &r), EINVAL); /* pairs free here */
	assert_int_equal(outstanding(), 0);
}

/* ---- counters ---- */

/*
 * task-clock counted around a RUN ioctl (kernel mode included) is close to
 * the ioctl's wall time: the work runs in the calling thread.
 */
/*
 * Memory per object (ab_run.mem_*), read around the alloc phase of the
 * check trials: relations only. kmalloc(4097) takes at least its size
 * per object from the free pages, and the slab counter grows by what the
 * free pages lose to it; __get_free_pages order 2 takes 16 KiB per object
 * from the free pages and nothing from slabs. The counters are the
 * node's, so a page the rest of the guest frees in the same phase lowers
 * the figure: 5% of slack. A version-0 caller gets none of it written,
 * and runs that hold nothing between phases read nothing.
 */
static void test_memory_per_object(void **state)
{
	struct ab_run r = req("kmalloc"), v0;

	r.obj_size = 4097;
	r.batch = 1000;
	r.trials = 16;
	run_ok(&r, 0);
	assert_int_equal(r.mem_trials, 1);
	assert_int_equal(r.mem_objects, r.node_checked);
	assert_true(r.mem_free_bytes >= (int64_t)(r.mem_objects * 4097));
	assert_true(r.mem_slab_bytes >= (int64_t)(r.mem_objects * 4097));
	assert_true(r.mem_slab_bytes <=
		    r.mem_free_bytes + r.mem_free_bytes / 20);
	assert_int_equal(r.out_reserved2, 0);
	/* one check trial: its spread is that trial */
	assert_true(r.mem_free_min == r.mem_free_bytes &&
		    r.mem_free_max == r.mem_free_bytes);
	r.trials = 48;
	run_ok(&r, 0);
	assert_int_equal(r.mem_trials, 3);
	assert_true(r.mem_free_min <= r.mem_free_max);
	assert_true(r.mem_free_min * 3 <= r.mem_free_bytes &&
		    r.mem_free_bytes <= r.mem_free_max * 3);

	r = req("get_free_pages");
	r.order = 2;
	r.batch = 256;
	r.trials = 16;
	run_ok(&r, 0);
	assert_int_equal(r.mem_objects, 256);
	assert_true(r.mem_free_bytes >=
		    (int64_t)(r.mem_objects * 16384 * 95 / 100));
	assert_true(r.mem_slab_bytes < (int64_t)(r.mem_objects * 16384 / 20));

	r = req("kmalloc");
	r.free_pattern = AB_FREE_PAIR;
	run_ok(&r, 0);
	assert_int_equal(r.mem_objects, 0);
	assert_int_equal(r.mem_trials, 0);
	r = req("none");
	run_ok(&r, 0);
	assert_int_equal(r.mem_objects, 0);

	/* a version-0 caller: the module writes no byte past its struct */
	v0 = req("kmalloc");
	v0.size = AB_RUN_SIZE_VER0;
	v0.mem_objects = 12345;
	v0.mem_trials = 7;
	assert_int_equal(xioctl(AB_IOC_RUN, &v0), 0);
	assert_int_equal(v0.size, AB_RUN_SIZE_VER0);
	assert_int_equal(v0.mem_objects, 12345);
	assert_int_equal(v0.mem_trials, 7);
	/* a version-2 caller: nothing of version 3 (the spread) written */
	v0 = req("kmalloc");
	v0.size = AB_RUN_SIZE_VER2;
	v0.mem_free_min = 12345;
	v0.mem_free_max = 7;
	assert_int_equal(xioctl(AB_IOC_RUN, &v0), 0);
	assert_int_equal(v0.size, AB_RUN_SIZE_VER2);
	assert_true(v0.mem_objects > 0);
	assert_true(v0.mem_free_min == 12345 && v0.mem_free_max == 7);
	assert_int_equal(outstanding(), 0);
}

static void test_task_clock_matches_wall_time(void **state)
{
	struct perf_event_attr attr = { .size = sizeof(attr),
					.type = PERF_TYPE_SOFTWARE,
					.config = PERF_COUNT_SW_TASK_CLOCK,
					.disabled = 1 };
	struct ab_run r = req("vmalloc_node");
	struct timespec t0, t1;
	uint64_t task_ns;
	double wall_ns;
	int pfd;

	pfd = (int)syscall(__NR_perf_event_open, &attr, 0, -1, -1, 0);
	assert_true(pfd >= 0);
	r.obj_size = 65536;
	r.batch = 16;
	r.trials = 200;
	ioctl(pfd, PERF_EVENT_IOC_ENABLE, 0);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	assert_int_equal(xioctl(AB_IOC_RUN, &r), 0);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	ioctl(pfd, PERF_EVENT_IOC_DISABLE, 0);
	assert_int_equal(read(pfd, &task_ns, sizeof(task_ns)), sizeof(task_ns));
	close(pfd);
	wall_ns = (double)(t1.tv_sec - t0.tv_sec) * 1e9 +
		  (double)(t1.tv_nsec - t0.tv_nsec);
	print_message("# task-clock %.1f ms, wall %.1f ms\n", task_ns / 1e6,
		      wall_ns / 1e6);
	assert_true(task_ns > 0.5 * wall_ns);
	/*
	 * task-clock comes from sched_clock (the TSC) and the wall time from
	 * CLOCK_MONOTONIC (hpet under TCG, the TSC being marked unstable):
	 * two clocks that drift apart by several percent under emulation
	 * (60.9 ms against 56.9 ms seen on 6.12). Counting outside the run
	 * would be far more.
	 */
	assert_true(task_ns < 1.25 * wall_ns + 1e6);
}

/* ---- failures ---- */

/* Writes the module parameter; returns 0 or the errno of the write. */
static int set_param(const char *value)
{
	int pfd = open("/sys/module/allocbench/parameters/max_outstanding_mb",
		       O_WRONLY);
	int err = 0;

	assert_true(pfd >= 0);
	if (write(pfd, value, strlen(value)) < 0)
		err = errno;
	close(pfd);
	return err;
}

static uint64_t ram_mb(void)
{
	long pages = sysconf(_SC_PHYS_PAGES), psz = sysconf(_SC_PAGESIZE);

	return (uint64_t)pages * (uint64_t)psz >> 20;
}

/* The budget may be raised up to the size of RAM, not above. */
static void test_param_capped_at_ram(void **state)
{
	char v[32];

	snprintf(v, sizeof(v), "%llu", (unsigned long long)ram_mb() + 1);
	assert_int_equal(set_param(v), EINVAL);
	assert_int_equal(set_param("4294967295"), EINVAL);
	assert_int_equal(set_param("junk"), EINVAL);
	snprintf(v, sizeof(v), "%llu", (unsigned long long)ram_mb());
	assert_int_equal(set_param(v), 0);
	assert_int_equal(set_param("0"), 0);
}

/*
 * Issue 16, part 5a: no phase allocates more than AB_PHASE_MAX_BYTES, whatever
 * the budget (a phase is not rescheduled: 512 MiB zeroed is well under the
 * soft-lockup and RCU-stall timeouts). The guest's default budget (a
 * quarter of RAM) is below it, so the budget is raised for the test: a
 * request inside the budget but above the cap is refused (E2BIG) with
 * nothing allocated, and no strategy reports a largest object above it.
 */
static void test_phase_cap(void **state)
{
	struct ab_info i = { .size = sizeof(i) };
	struct ab_strategy_info si[64];
	uint64_t want_mb = (AB_PHASE_MAX_BYTES >> 20) + 128;
	struct ab_run r;
	char v[32];
	unsigned int k;

	if (ram_mb() < want_mb + 64) {
		print_message(
			"# test_phase_cap: %llu MiB of RAM, too little to raise the budget above AB_PHASE_MAX_BYTES\n",
			(unsigned long long)ram_mb());
		return;
	}
	snprintf(v, sizeof(v), "%llu", (unsigned long long)want_mb);
	assert_int_equal(set_param(v), 0);
	i.strategies_ptr = (uintptr_t)si;
	i.strategies_len = 64;
	assert_int_equal(xioctl(AB_IOC_INFO, &i), 0);
	assert_true(i.max_bytes > AB_PHASE_MAX_BYTES);
	for (k = 0; k < i.nr_strategies && k < 64; k++)
		assert_true(si[k].max_size <= AB_PHASE_MAX_BYTES);
	/* 16 KiB kmallocs: 512 MiB + 16 KiB in one phase (within max_batch) */
	r = req("kmalloc");
	r.obj_size = 16384;
	r.batch = (uint32_t)(AB_PHASE_MAX_BYTES / 16384) + 1;
	r.trials = 1;
	assert_true(r.batch <= i.max_batch);
	assert_true((uint64_t)r.batch * 16384 <= i.max_bytes);
	assert_int_equal(xioctl(AB_IOC_RUN, &r), E2BIG);
	assert_int_equal(r.limit, AB_LIMIT_PHASE);
	r = req("vmalloc_batch");
	r.obj_size = AB_PHASE_MAX_BYTES;
	r.batch = 1;
	assert_int_equal(xioctl(AB_IOC_RUN, &r), E2BIG);
	/* above its largest object, which the phase cap bounds */
	assert_int_equal(r.limit, AB_LIMIT_OBJECT);
	assert_int_equal(set_param("0"), 0);
	assert_int_equal(outstanding(), 0);
}

/*
 * Private caches created and destroyed by several runs at once, of one
 * size, some mergeable, some not, for 2 s: every run succeeds and the
 * kernel log stays clean (before the fix, 3 s showed it on 6.12). Before the
 * module destroyed its caches under its own lock, a create racing a destroy of
 * the same merged name made SLUB print "sysfs: cannot create duplicate filename
 * '/kernel/slab/:0000008'" with a stack dump and fail the create (6.12, found
 * by the fuzzer).
 */
static void test_caches_created_and_destroyed_at_once(void **state)
{
	pid_t pid[4];
	int k, st;

	for (k = 0; k < 4; k++) {
		pid[k] = fork();
		assert_true(pid[k] >= 0);
		if (!pid[k]) {
			struct ab_run r = req("kmem_cache");
			time_t end = time(NULL) + 2;
			int bad = 0;

			r.obj_size = 8;
			r.trials = 1;
			if (k < 2)
				r.flags |= AB_RUN_NOMERGE;
			while (time(NULL) < end && !bad)
				bad = xioctl(AB_IOC_RUN, &r);
			_exit(bad ? 1 : 0);
		}
	}
	for (k = 0; k < 4; k++) {
		assert_true(waitpid(pid[k], &st, 0) == pid[k]);
		assert_true(WIFEXITED(st) && WEXITSTATUS(st) == 0);
	}
	assert_int_equal(outstanding(), 0);
}

/*
 * Issue 21: two GFP_KERNEL runs of 5 MiB each under a budget of 8 MiB, at
 * once: the second is refused with EBUSY naming the budget alone
 * (ab_run.limit), not "the budget or the atomic limit".
 */
static void test_budget_busy_names_it(void **state)
{
	struct ab_run r;
	pid_t pid;
	int st, k, err;

	assert_int_equal(set_param("8"), 0);
	pid = fork();
	assert_true(pid >= 0);
	if (!pid) {
		struct ab_run c = req("kmalloc");

		c.obj_size = 1 << 20;
		c.batch = 5;
		c.trials = (uint32_t)info.max_trials;
		_exit(ioctl(fd, AB_IOC_RUN, &c) && errno == EINTR ? 0 : 1);
	}
	for (k = 0; k < 1000 && outstanding() == 0; k++)
		usleep(10000);
	r = req("kmalloc");
	r.obj_size = 1 << 20;
	r.batch = 5;
	r.trials = 1;
	err = xioctl(AB_IOC_RUN, &r);
	/* the other run ended and the budget restored before any verdict */
	assert_int_equal(kill(pid, SIGINT), 0);
	assert_int_equal(waitpid(pid, &st, 0), pid);
	assert_true(WIFSIGNALED(st) || WIFEXITED(st));
	assert_int_equal(set_param("0"), 0);
	assert_int_equal(err, EBUSY);
	assert_int_equal(r.limit, AB_LIMIT_BUDGET);
	/* and what the other run held of it: its 5 MiB of objects and its
	 * arrays, within the 8 MiB it was admitted under */
	assert_in_range(r.limit_others, 5 << 20, 8 << 20);
	assert_int_equal(outstanding(), 0);
	run_ok(&r, 1);
	assert_int_equal(r.limit, AB_LIMIT_NONE);
}

/*
 * Part 5b: AB_ATOMIC_MAX_BYTES bounds a trial whenever the GFP choice may
 * not reclaim (atomic, nowait), in process context too, and the atomic
 * bytes of all runs in progress together (EBUSY for the one that would
 * pass it); GFP_KERNEL is bounded by the budget alone.
 */
static void test_atomic_gfp_capped(void **state)
{
	uint32_t mib = (uint32_t)(AB_ATOMIC_MAX_BYTES >> 20);
	uint32_t gfp, half = mib / 2 + 8;
	struct ab_run r;
	pid_t pid;
	int st, k;

	if ((uint64_t)(mib + 1) << 20 > info.max_bytes) {
		print_message(
			"# test_atomic_gfp_capped: budget below AB_ATOMIC_MAX_BYTES\n");
		return;
	}
	for (gfp = AB_GFP_ATOMIC; gfp <= AB_GFP_NOWAIT; gfp++) {
		r = req("kmalloc");
		r.gfp = gfp;
		r.obj_size = 1 << 20;
		r.batch = mib + 1;
		assert_int_equal(xioctl(AB_IOC_RUN, &r), E2BIG);
		assert_int_equal(r.limit, AB_LIMIT_ATOMIC);
		r = req("alloc_pages_node");
		r.gfp = gfp;
		r.order = 8; /* 1 MiB blocks */
		r.batch = mib + 1;
		assert_int_equal(xioctl(AB_IOC_RUN, &r), E2BIG);
		assert_int_equal(r.limit, AB_LIMIT_ATOMIC);
	}
	r = req("kmalloc");
	r.obj_size = 1 << 20;
	r.batch = mib + 1;
	r.trials = 1;
	run_ok(&r, 1); /* GFP_KERNEL: the budget alone */
	if ((uint64_t)2 * half << 20 > info.max_bytes || kernel_is_rt()) {
		print_message(
			"# test_atomic_gfp_capped: no room for two atomic runs\n");
		return;
	}
	/* two atomic runs of more than half the limit each: not at once */
	pid = fork();
	assert_true(pid >= 0);
	if (!pid) {
		struct ab_run c = req("kmalloc");

		c.gfp = AB_GFP_ATOMIC;
		c.obj_size = 1 << 20;
		c.batch = half;
		c.trials = (uint32_t)info.max_trials;
		_exit(ioctl(fd, AB_IOC_RUN, &c) && errno == EINTR ? 0 : 1);
	}
	for (k = 0; k < 1000 && outstanding() == 0; k++)
		usleep(10000);
	r = req("kmalloc");
	r.gfp = AB_GFP_ATOMIC;
	r.obj_size = 1 << 20;
	r.batch = half;
	assert_int_equal(xioctl(AB_IOC_RUN, &r), EBUSY);
	/* the one limit it is above: the atomic one, not the budget */
	if (r.limit != AB_LIMIT_ATOMIC || r.limit_others != (uint64_t)half
								    << 20)
		kill(pid, SIGKILL); /* no run left behind a failure */
	assert_int_equal(r.limit, AB_LIMIT_ATOMIC);
	/* the other run's atomic objects, exactly: half MiB of 1 MiB */
	assert_int_equal(r.limit_others, (uint64_t)half << 20);
	r.gfp = AB_GFP_KERNEL;
	r.trials = 1;
	run_ok(&r, 1); /* not atomic: the budget has room */
	assert_int_equal(kill(pid, SIGINT), 0);
	assert_int_equal(waitpid(pid, &st, 0), pid);
	assert_true(WIFSIGNALED(st) || WIFEXITED(st));
	assert_int_equal(outstanding(), 0);
	/* and once it is gone, the same atomic run goes */
	r.gfp = AB_GFP_ATOMIC;
	run_ok(&r, 1);
}

/*
 * Part 5c: with IRQs off a phase takes at most AB_IRQ_OFF_MAX_OBJS objects
 * and AB_IRQ_OFF_MAX_BYTES bytes; at the limits it runs. The longest alloc
 * phase at the limit is printed as a figure (not asserted: no timed
 * assertions).
 */
static void test_irq_off_bounded(void **state)
{
	struct ab_sample smp[64];
	uint64_t most = 0;
	struct ab_run r;
	int k, over = 0;

	if (kernel_is_rt()) {
		print_message(
			"# PREEMPT_RT: no IRQ-off runs (test_rt_refuses_atomic_contexts)\n");
		return;
	}
	r = req("kmalloc");
	r.gfp = AB_GFP_ATOMIC;
	r.context = AB_CTX_IRQ_OFF;
	r.batch = AB_IRQ_OFF_MAX_OBJS + 1;
	assert_int_equal(xioctl(AB_IOC_RUN, &r), E2BIG);
	r.obj_size = 8192;
	r.batch = (uint32_t)(AB_IRQ_OFF_MAX_BYTES / 8192) + 1;
	assert_int_equal(xioctl(AB_IOC_RUN, &r), E2BIG);
	r = req("get_free_pages");
	r.gfp = AB_GFP_NOWAIT;
	r.context = AB_CTX_IRQ_OFF;
	r.order = 8; /* 1 MiB */
	r.batch = 1;
	assert_int_equal(xioctl(AB_IOC_RUN, &r), E2BIG);
	/* preemption off is bounded by AB_ATOMIC_MAX_BYTES only */
	r.context = AB_CTX_PREEMPT_OFF;
	run_ok(&r, 1);
	/* at the limits it runs: 128 x 4096 bytes = 512 KiB */
	r = req("kmalloc");
	r.gfp = AB_GFP_ATOMIC;
	r.context = AB_CTX_IRQ_OFF;
	r.obj_size = AB_IRQ_OFF_MAX_BYTES / AB_IRQ_OFF_MAX_OBJS;
	r.batch = AB_IRQ_OFF_MAX_OBJS;
	r.trials = 64;
	r.flags = AB_RUN_WRITE;
	r.samples_ptr = (uintptr_t)smp;
	r.samples_len = 64;
	assert_int_equal(xioctl(AB_IOC_RUN, &r), 0);
	for (k = 0; k < 64; k++) {
		if (smp[k].alloc_cycles > most)
			most = smp[k].alloc_cycles;
		if (smp[k].alloc_cycles > 1000ULL * r.tsc_khz / 10)
			over++; /* above 100 us */
	}
	if (r.tsc_khz)
		print_message(
			"# figure: IRQs off, %u kmalloc(%llu, GFP_ATOMIC) + write: of 64 alloc phases %d above 100 us, the longest %.1f us\n",
			r.batch, (unsigned long long)r.obj_size, over,
			(double)most * 1000.0 / r.tsc_khz);
	assert_int_equal(outstanding(), 0);
}

/*
 * Memory is counted as the allocator uses it: a 1-byte vmalloc takes a
 * page, so 2^20 of them are far above the budget even though 2^20 bytes
 * are not; sizes whose product would overflow are refused, not wrapped.
 */
static void test_budget_counts_real_footprint(void **state)
{
	struct ab_run r = req("vmalloc_node");

	r.obj_size = 1;
	r.batch = (uint32_t)info.max_batch;
	assert_int_equal(xioctl(AB_IOC_RUN, &r), E2BIG);
	r = req("vmalloc_batch");
	r.obj_size = 1ULL << 44;
	r.batch = (uint32_t)info.max_batch;
	assert_int_equal(xioctl(AB_IOC_RUN, &r), E2BIG);
	r = req("kmalloc");
	r.obj_size = (2ULL << 20) + 1; /* takes a 4 MiB block */
	r.batch = (uint32_t)(info.max_bytes / (3ULL << 20));
	assert_int_equal(xioctl(AB_IOC_RUN, &r), E2BIG);
	assert_int_equal(outstanding(), 0);
}

/*
 * Issue 13, item 10: the module and the CLI apply one rule for the budget,
 * ab_run_held_bytes() of common/ab_run.h: for each kind of allocator the
 * largest batch the rule lets in runs, one more is refused (E2BIG). The
 * issue's inputs among them (vmalloc_node of 1 byte, kmalloc of 3 MiB).
 */
static void test_budget_one_rule(void **state)
{
	static const struct {
		const char *name;
		uint64_t size;
	} c[] = {
		{ "vmalloc_node", 1 },
		{ "kmalloc", 3 << 20 },
		{ "kmalloc", 97 },
		{ "vmalloc_node", 65537 },
		{ "kvmalloc_node", 5 << 20 },
		{ "kvmalloc_node", 100 },
		{ "kmem_cache", 13 },
		/* issue 16, 5d: 10 to a 32 KiB slab, counted whole */
		{ "kmem_cache", 3000 },
		{ "vmalloc_batch", 3 << 20 },
	};
	size_t k;

	for (k = 0; k < sizeof(c) / sizeof(c[0]); k++) {
		const struct ab_strategy_info *s = find(c[k].name);
		struct ab_run r = req(c[k].name);
		uint64_t each, max;

		r.obj_size = c[k].size;
		r.batch = 1;
		r.trials = 1;
		each = ab_run_held_bytes(&r, &info, s);
		assert_true(each >= c[k].size);
		/*
		 * the batch that fits, objects and the harness's arrays
		 * (ab_run_budget_bytes(), which grows with the batch)
		 */
		{
			uint64_t lo = 0, hi = info.max_batch, mid;

			while (lo < hi) {
				mid = hi - (hi - lo) / 2;
				r.batch = (uint32_t)mid;
				if (ab_run_budget_bytes(&r, &info, s) <=
				    info.max_bytes)
					lo = mid;
				else
					hi = mid - 1;
			}
			max = lo;
		}
		if (!max || max >= info.max_batch)
			continue;
		r.batch = (uint32_t)max;
		if (xioctl(AB_IOC_RUN, &r))
			fail_msg(
				"%s size %llu batch %u: refused (%s) within the budget",
				c[k].name, (unsigned long long)c[k].size,
				r.batch, strerror(errno));
		r.batch = (uint32_t)max + 1;
		assert_int_equal(xioctl(AB_IOC_RUN, &r), E2BIG);
	}
	assert_int_equal(outstanding(), 0);
}

/*
 * Issue 13, item 11: a kvmalloc_node whose GFP flags may not block has no
 * vmalloc fallback, so above KMALLOC_MAX_SIZE it can never allocate: such
 * a run is refused (EINVAL), the largest kmalloc itself is not, nor the
 * same size with GFP_KERNEL.
 */
static void test_never_allocates_refused(void **state)
{
	struct ab_run r = req("kvmalloc_node");
	uint32_t gfp;

	for (gfp = AB_GFP_ATOMIC; gfp <= AB_GFP_NOWAIT; gfp++) {
		r = req("kvmalloc_node");
		r.gfp = gfp;
		r.batch = 1;
		r.obj_size = info.kmalloc_max_size + 1;
		assert_int_equal(xioctl(AB_IOC_RUN, &r), EINVAL);
		r.obj_size = 5 << 20; /* the input */
		if (r.obj_size > info.kmalloc_max_size)
			assert_int_equal(xioctl(AB_IOC_RUN, &r), EINVAL);
		r.obj_size = info.kmalloc_max_size;
		if (ab_run_held_bytes(&r, &info, find("kvmalloc_node")) <=
		    info.max_bytes)
			assert_int_equal(xioctl(AB_IOC_RUN, &r), 0);
	}
	r = req("kvmalloc_node");
	r.batch = 1;
	r.obj_size = info.kmalloc_max_size + 1;
	assert_int_equal(xioctl(AB_IOC_RUN, &r), 0);
	assert_int_equal(outstanding(), 0);
}

/*
 * The zones' high watermarks of /proc/zoneinfo, in bytes: what the kernel
 * keeps free before it reclaims; boosted after fragmentation and raised by
 * khugepaged with THP (the 6.1 guest showed min 70 MiB), so a margin of
 * free memory must be counted above them.
 */
static uint64_t high_watermarks(void)
{
	char line[256];
	unsigned long long pages, sum = 0;
	FILE *f = fopen("/proc/zoneinfo", "r");

	if (!f)
		return 256ULL << 20;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, " high %llu", &pages) == 1)
			sum += pages;
	fclose(f);
	return (uint64_t)sum * (uint64_t)sysconf(_SC_PAGESIZE);
}

/* MemFree of /proc/meminfo, in bytes (0 if unreadable). */
static uint64_t mem_free(void)
{
	char line[128];
	unsigned long long kb = 0;
	FILE *f = fopen("/proc/meminfo", "r");

	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "MemFree: %llu kB", &kb) == 1)
			break;
	fclose(f);
	return (uint64_t)kb << 10;
}

/*
 * A failed allocation ends its trial: a child fills free memory with its
 * own touched pages in 4 MiB steps (the guest has no swap) while more than
 * 64 MiB above the zones' high watermarks is free (a fixed margin met the
 * OOM killer: the 6.1 guest's min watermark was 70 MiB, raised for THP and
 * boosted); then 480 MiB in blocks of
 * 2^max_order pages with GFP_KERNEL cannot be allocated, nor reclaimed
 * for, and a costly order never calls the OOM killer
 * (__alloc_pages_may_oom(), mm/page_alloc.c): every trial meets a failed
 * allocation, which ends it; what it allocated is freed; nothing is
 * retried and nothing stays outstanding. (Before issue 16, part 5b, the
 * run asked for all of RAM with GFP_NOWAIT, now refused:
 * AB_ATOMIC_MAX_BYTES; 480 MiB stays below AB_PHASE_MAX_BYTES.)
 */
static void test_failed_allocations_end_trials(void **state)
{
	const struct ab_strategy_info *s = find("get_free_pages");
	uint64_t block = (uint64_t)info.page_size << s->max_order;
	uint64_t want = 480ULL << 20;
	struct ab_sample smp[3];
	struct ab_run r = req("get_free_pages");
	int pipefd[2], st;
	uint32_t t;
	char c, v[32];
	pid_t pid;
	int err;

	if (ram_mb() < 768) {
		print_message(
			"# test_failed_allocations_end_trials: %llu MiB of RAM, too little\n",
			(unsigned long long)ram_mb());
		return;
	}
	assert_int_equal(pipe(pipefd), 0);
	pid = fork();
	assert_true(pid >= 0);
	if (!pid) {
		const size_t step = 4 << 20;
		uint64_t got = 0;
		char *p;

		/* (a 32-bit process has 4 GiB of address space: enough) */
		while (mem_free() > high_watermarks() + (64ULL << 20) + step &&
		       got < (64ULL << 30)) {
			p = mmap(NULL, step, PROT_READ | PROT_WRITE,
				 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
			if (p == MAP_FAILED)
				break;
			memset(p, 1, step);
			got += step;
		}
		c = mem_free() < want / 2 ? 'y' : 'n';
		if (write(pipefd[1], &c, 1) != 1)
			_exit(1);
		pause();
		_exit(0);
	}
	close(pipefd[1]);
	assert_int_equal(read(pipefd[0], &c, 1), 1);
	close(pipefd[0]);
	snprintf(v, sizeof(v), "%llu", (unsigned long long)ram_mb());
	assert_int_equal(set_param(v), 0);
	r.order = s->max_order;
	r.batch = (uint32_t)(want / block);
	r.trials = 3;
	r.samples_ptr = (uintptr_t)smp;
	r.samples_len = 3;
	err = c == 'y' ? xioctl(AB_IOC_RUN, &r) : -1;
	set_param("0");
	kill(pid, SIGKILL);
	assert_int_equal(waitpid(pid, &st, 0), pid);
	assert_int_equal(err, 0);
	assert_int_equal(r.trials_done, 3);
	assert_int_equal(r.failed, 3);
	assert_true(r.objects < 3ULL * r.batch);
	for (t = 0; t < 3; t++) {
		assert_int_equal(smp[t].flags, AB_SAMPLE_FAILED);
		assert_true(smp[t].nr_objs < r.batch);
	}
	/* the one check trial failed too: fewer objects than a batch */
	assert_true(r.node_checked < r.batch);
	assert_int_equal(outstanding(), 0);
}

/* Without root the device does not open: the CLI's EACCES path. */
static void test_non_root_refused(void **state)
{
	int status;
	pid_t pid = fork();

	assert_true(pid >= 0);
	if (pid == 0) {
		if (setgid(65534) || setuid(65534))
			_exit(2);
		_exit(open("/dev/" AB_DEVICE_NAME, O_RDWR) < 0 &&
				      errno == EACCES
			      ? 0
			      : 1);
	}
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status));
	assert_int_equal(WEXITSTATUS(status), 0);
}

/*
 * Part 5g: AB_IOC_RUN and AB_IOC_LOOKUP need CAP_SYS_ADMIN, not only a
 * descriptor of the 0600 node: a root process that dropped the capability
 * (capset(2), the effective set) keeps its descriptor and AB_IOC_INFO, and
 * gets EPERM from the other two, before any argument is read.
 */
static void test_run_needs_cap_sys_admin(void **state)
{
	int status;
	pid_t pid = fork();

	assert_true(pid >= 0);
	if (pid == 0) {
		struct __user_cap_header_struct h = {
			.version = _LINUX_CAPABILITY_VERSION_3
		};
		struct __user_cap_data_struct d[2];
		struct ab_info i = { .size = sizeof(i) };
		struct ab_run r = req("kmalloc");
		uint32_t sz = 64;
		struct ab_lookup l = { .size = sizeof(l),
				       .method = AB_LOOKUP_FLS,
				       .nr_sizes = 1,
				       .sizes_ptr = (uintptr_t)&sz,
				       .trials = 1 };

		if (syscall(SYS_capget, &h, d))
			_exit(2);
		d[CAP_SYS_ADMIN / 32].effective &=
			~(1U << (CAP_SYS_ADMIN % 32));
		if (syscall(SYS_capset, &h, d))
			_exit(3);
		if (xioctl(AB_IOC_INFO, &i))
			_exit(4);
		if (xioctl(AB_IOC_RUN, &r) != EPERM)
			_exit(5);
		if (xioctl(AB_IOC_LOOKUP, &l) != EPERM)
			_exit(6);
		/* EPERM comes first, whatever the argument */
		if (xioctl(AB_IOC_RUN, NULL) != EPERM)
			_exit(7);
		_exit(0);
	}
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status));
	assert_int_equal(WEXITSTATUS(status), 0);
	assert_int_equal(outstanding(), 0);
}

/* ---- signals ---- */

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void on_sig(int sig)
{
}

/*
 * A child starts a run far longer than the test; SIGINT arrives after
 * 300 ms. With @caught the child has a handler: the ioctl must return
 * EINTR with partial output; without, the default action kills it. Either
 * way the child is gone within a second of the signal and the module holds
 * nothing.
 */
static void sigint_case(int caught)
{
	struct ab_run *shared =
		mmap(NULL, sizeof(*shared), PROT_READ | PROT_WRITE,
		     MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	double t0, waited;
	int status;
	pid_t pid;

	assert_true(shared != MAP_FAILED);
	memset(shared, 0, sizeof(*shared));
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		struct ab_run r = req("vmalloc_node");
		int err;

		if (caught) {
			struct sigaction sa = { .sa_handler = on_sig };

			sigaction(SIGINT, &sa, NULL);
		}
		r.obj_size = 65536;
		r.batch = 64;
		r.trials = (uint32_t)info.max_trials;
		err = xioctl(AB_IOC_RUN, &r);
		*shared = r;
		_exit(err == EINTR ? 0 : 1);
	}
	usleep(300000);
	assert_int_equal(kill(pid, SIGINT), 0);
	t0 = now();
	assert_int_equal(waitpid(pid, &status, 0), pid);
	waited = now() - t0;
	if (waited >= 1.0)
		fail_msg("the run took %.2f s to end after SIGINT", waited);
	if (caught) {
		assert_true(WIFEXITED(status));
		assert_int_equal(WEXITSTATUS(status), 0);
		assert_true(shared->trials_done > 0);
		assert_true(shared->trials_done < shared->trials);
		assert_int_equal(shared->objects,
				 (uint64_t)shared->trials_done * 64);
	} else {
		assert_true(WIFSIGNALED(status));
		assert_int_equal(WTERMSIG(status), SIGINT);
	}
	assert_int_equal(outstanding(), 0);
	munmap(shared, sizeof(*shared));
}

static void test_sigint_default(void **state)
{
	sigint_case(0);
}
static void test_sigint_caught(void **state)
{
	sigint_case(1);
}

/* tests[] is sized for every unit test plus both rejection tables. */
#define REJECT_TESTS(table, fn)                                          \
	do {                                                             \
		size_t k;                                                \
		for (k = 0; k < sizeof(table) / sizeof(table[0]); k++) { \
			if (n == sizeof(tests) / sizeof(tests[0]))       \
				return 1;                                \
			tests[n].name = table[k].what;                   \
			tests[n].test_func = fn;                         \
			tests[n].initial_state = (void *)&table[k];      \
			n++;                                             \
		}                                                        \
	} while (0)

/*
 * AB_IOCTL_SKIP=NAME[,NAME...]: the tests named (fnmatch(3) patterns) are
 * not run: guest.sh's focused and numa suites and debug.sh leave out what
 * another boot runs. Returns how many tests are left, in their order.
 */
static size_t skip_tests(struct CMUnitTest *t, size_t n, const char *list)
{
	size_t i, kept = 0;

	for (i = 0; i < n; i++) {
		const char *p = list;
		int skip = 0;

		while (p && *p && !skip) {
			size_t len = strcspn(p, ",");
			char *pat = strndup(p, len);

			skip = pat && !fnmatch(pat, t[i].name, 0);
			free(pat);
			p += len + (p[len] == ',');
		}
		if (!skip)
			t[kept++] = t[i];
	}
	return kept;
}

int main(void)
{
	struct CMUnitTest tests[160] = {
		cmocka_unit_test(test_info_reports),
		cmocka_unit_test(test_info_count_only),
		cmocka_unit_test(test_info_tail),
		cmocka_unit_test(test_info_kernel_flags),
		cmocka_unit_test(test_info_strategy_flags),
		cmocka_unit_test(test_info_ver0),
		cmocka_unit_test(test_budget_one_rule),
		cmocka_unit_test(test_never_allocates_refused),
		cmocka_unit_test(test_info_bad_pointer),
		cmocka_unit_test(test_unknown_command),
		cmocka_unit_test(test_run_reject_params),
		cmocka_unit_test(test_every_strategy_every_size),
		cmocka_unit_test(test_warmup_not_recorded),
		cmocka_unit_test(test_every_gfp),
		cmocka_unit_test(test_cache_merge_report),
		cmocka_unit_test(test_cache_kept_for_its_geometry),
		cmocka_unit_test(test_cache_merged_during_run),
		cmocka_unit_test(test_disturbed_counted),
		cmocka_unit_test(test_node_hits),
		cmocka_unit_test(test_every_mode_and_pattern),
		cmocka_unit_test(test_write_every_strategy),
		cmocka_unit_test(test_atomic_contexts),
		cmocka_unit_test(test_rt_refuses_atomic_contexts),
		cmocka_unit_test(test_atomic_context_rejects),
		cmocka_unit_test(test_single_timing_layout),
		cmocka_unit_test(test_bulk),
		cmocka_unit_test(test_lookup_methods_agree),
		cmocka_unit_test(test_lookup_rejects),
		cmocka_unit_test(test_kmalloc_class),
		cmocka_unit_test(test_remote_free),
		cmocka_unit_test(test_memory_per_object),
		cmocka_unit_test(test_task_clock_matches_wall_time),
		cmocka_unit_test(test_param_capped_at_ram),
		cmocka_unit_test(test_budget_counts_real_footprint),
		cmocka_unit_test(test_failed_allocations_end_trials),
		cmocka_unit_test(test_non_root_refused),
		cmocka_unit_test(test_run_needs_cap_sys_admin),
		cmocka_unit_test(test_phase_cap),
		cmocka_unit_test(test_caches_created_and_destroyed_at_once),
		cmocka_unit_test(test_atomic_gfp_capped),
		cmocka_unit_test(test_budget_busy_names_it),
		cmocka_unit_test(test_irq_off_bounded),
		cmocka_unit_test(test_sigint_default),
		cmocka_unit_test(test_sigint_caught),
	};
	size_t n;

	/* the listed tests, then the table-driven ones after them */
	for (n = 0; tests[n].test_func; n++)
		;
	REJECT_TESTS(info_rejects, test_info_reject);
	REJECT_TESTS(run_rejects, test_run_reject);
	n = skip_tests(tests, n, getenv("AB_IOCTL_SKIP"));
#ifdef __i386__
	/*
	 * Built with -m32 (issue 16, part 3): the same tests through the
	 * kernel's compat ioctl path, their TAP lines named apart.
	 */
	{
		size_t i;
		char *name;

		for (i = 0; i < n; i++)
			if (asprintf(&name, "i386 %s", tests[i].name) > 0)
				tests[i].name = name;
		return _cmocka_run_group_tests("ioctl-i386", tests, n,
					       setup_all, NULL);
	}
#endif
	/* AB_TEST_FILTER=PATTERN runs the tests whose names match (cmocka) */
	if (getenv("AB_TEST_FILTER"))
		cmocka_set_test_filter(getenv("AB_TEST_FILTER"));
	return _cmocka_run_group_tests("ioctl", tests, n, setup_all, NULL);
}
