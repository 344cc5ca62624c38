// SPDX-License-Identifier: GPL-2.0-only
/*
 * user_alloc.c - the user backend's allocators and their timed loops: the
 * same runs as allocbench.ko's (struct ab_run in, per-trial or per-op
 * samples out, the same free orders from common/ab_free_order.h), on userspace
 * allocators, in this process, without root.
 *
 * Strategies: none (the loop alone), glibc malloc, calloc and
 * posix_memalign, mmap/munmap of whole pages populated at once (the
 * userspace counterpart of the page allocator), numa_alloc_onnode, and
 * jemalloc, tcmalloc and mimalloc loaded with dlopen from Debian's packages
 * when installed. Each allocation and free goes through a function pointer
 * (as the dlopen'ed ones must); the none strategy pays the same call, so
 * net values subtract it. The node of every page of every object is read
 * with move_pages(2), between the phases; blocks with no page in memory
 * yet are not counted.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <numa.h>
#include <numaif.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <stdbool.h>
#include <stddef.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <unistd.h>

#include "ab_nodes.h"
#include "ab_run.h"
#include "ab_trial.h"
#include "backend.h"
#include "user.h"

/**
 * struct ab_ctx - one run: what common/ab_trial.h's loops need, then the
 * user backend's own
 * @loop:     the loops' part (struct ab_loop); the per-object functions
 *            and the driver's ops reach the rest with uctx()
 * @write:    AB_RUN_WRITE
 * @size:     bytes per object
 * @align:    posix_memalign's alignment
 * @node:     numa_alloc_onnode's node, -1 for the local one
 * @lib_alloc, @lib_free: a dlopen'ed allocator's entry points
 * @strategy: the strategy
 * @node_objs: the node check's objects per node, @nr_nodes of them
 */
struct ab_ctx {
	struct ab_loop loop;
	bool write;
	size_t size;
	size_t align;
	int node;
	void *(*lib_alloc)(size_t size);
	void (*lib_free)(void *p);
	const struct ustrat *strategy;
	uint64_t *node_objs;
	int nr_nodes;
};

/* The run whose loop @l is (container_of()). */
static inline struct ab_ctx *uctx(struct ab_loop *l)
{
	return (struct ab_ctx *)((char *)l - offsetof(struct ab_ctx, loop));
}

/* AB_RUN_WRITE: each object written whole right after its allocation. */
static inline void user_write(struct ab_loop *l, void *obj)
{
	struct ab_ctx *c = uctx(l);

	if (c->write)
		memset(obj, 0x5a, c->size);
}

/**
 * struct ustrat - one userspace strategy
 * @name, @desc: as `allocbench list` shows them
 * @params:   AB_PARAM_* bits
 * @flags:    AB_STRATEGY_* bits
 * @alloc, @free: one object
 * @lib, @pkg: for the optional allocators: the shared object to dlopen and
 *            the Debian package that has it
 * @alloc_sym, @free_sym: their entry points
 * @alloc_fp, @free_fp: those entry points once loaded
 * @why:      dlopen's error when it could not be loaded
 */
struct ustrat {
	const char *name;
	const char *desc;
	unsigned int params;
	unsigned int flags;
	ab_alloc_fn alloc;
	ab_free_fn free;
	const char *lib, *pkg, *alloc_sym, *free_sym;
	void *(*alloc_fp)(size_t size);
	void (*free_fp)(void *p);
	char why[160];
};

/*
 * The virtual PMU's harness (common/ab_vpmu.h, AB_VPMU_HARNESS_END): this
 * executable's code, from its first byte to etext (the timed loops, the
 * strategies' wrappers and the PLT they jump through), which the plugin
 * then does not count in an allocation region: what counts is the
 * allocator's library and the kernel code its system calls run, as
 * valgrind counts malloc's own instructions; none counts nothing.
 */
extern const char __executable_start[], etext[];

static void vpmu_harness(void)
{
	ab_vpmu_mark(AB_VPMU_GATES);
	ab_vpmu_send_u64((unsigned long)__executable_start);
	ab_vpmu_send_u64((unsigned long)etext);
	ab_vpmu_mark(AB_VPMU_HARNESS_END);
}

static void *none_alloc(struct ab_loop *l)
{
	return l;
}

static void none_free(struct ab_loop *l, void *p)
{
}

static void *malloc_alloc(struct ab_loop *l)
{
	return malloc(uctx(l)->size);
}

static void *calloc_alloc(struct ab_loop *l)
{
	return calloc(1, uctx(l)->size);
}

static void *memalign_alloc(struct ab_loop *l)
{
	struct ab_ctx *c = uctx(l);
	void *p;

	return posix_memalign(&p, c->align, c->size) ? NULL : p;
}

static void libc_free(struct ab_loop *l, void *p)
{
	free(p);
}

/* Whole pages, populated at once: every page is allocated by mmap. */
static void *mmap_alloc(struct ab_loop *l)
{
	void *p = mmap(NULL, uctx(l)->size, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE, -1, 0);

	return p == MAP_FAILED ? NULL : p;
}

static void mmap_free(struct ab_loop *l, void *p)
{
	munmap(p, uctx(l)->size);
}

static void *onnode_alloc(struct ab_loop *l)
{
	struct ab_ctx *c = uctx(l);

	return c->node < 0 ? numa_alloc_local(c->size)
			   : numa_alloc_onnode(c->size, c->node);
}

static void numa_release(struct ab_loop *l, void *p)
{
	numa_free(p, uctx(l)->size);
}

static void *lib_alloc(struct ab_loop *l)
{
	struct ab_ctx *c = uctx(l);

	return c->lib_alloc(c->size);
}

static void lib_free(struct ab_loop *l, void *p)
{
	uctx(l)->lib_free(p);
}

#define SZ AB_PARAM_SIZE
#define USTRAT(n, d, p, a, f)                                            \
	{                                                                \
		.name = n, .desc = d, .params = p, .alloc = a, .free = f \
	}
#define DLSTRAT(n, d, l, pk, as, fs)                                    \
	{                                                               \
		.name = n, .desc = d, .params = SZ, .alloc = lib_alloc, \
		.free = lib_free, .lib = l, .pkg = pk, .alloc_sym = as, \
		.free_sym = fs                                          \
	}

static struct ustrat all[] = {
	{ .name = "none",
	  .desc = "no allocation: the same timed loops, for loop and clock overhead",
	  .flags = AB_STRATEGY_BASELINE,
	  .alloc = none_alloc,
	  .free = none_free },
	USTRAT("malloc", "glibc malloc() / free()", SZ, malloc_alloc,
	       libc_free),
	USTRAT("calloc", "glibc calloc(1, size) / free()", SZ, calloc_alloc,
	       libc_free),
	USTRAT("posix_memalign", "glibc posix_memalign(--align) / free()",
	       SZ | AB_PARAM_ALIGN, memalign_alloc, libc_free),
	USTRAT("mmap", "mmap(MAP_POPULATE) / munmap() of whole pages", SZ,
	       mmap_alloc, mmap_free),
	USTRAT("numa_alloc_onnode",
	       "libnuma numa_alloc_onnode(size, node) / numa_free()",
	       SZ | AB_PARAM_NODE, onnode_alloc, numa_release),
	DLSTRAT("jemalloc", "jemalloc malloc() / free(), loaded with dlopen",
		"libjemalloc.so.2", "libjemalloc2", "malloc", "free"),
	DLSTRAT("tcmalloc",
		"tcmalloc tc_malloc() / tc_free(), loaded with dlopen",
		"libtcmalloc_minimal.so.4", "libtcmalloc-minimal4", "tc_malloc",
		"tc_free"),
	DLSTRAT("mimalloc",
		"mimalloc mi_malloc() / mi_free(), loaded with dlopen",
		"libmimalloc.so.2", "libmimalloc2.0", "mi_malloc", "mi_free"),
};

#define NR_ALL (sizeof(all) / sizeof(all[0]))

static struct ab_strategy_info infos[NR_ALL];
static struct ustrat *usable[NR_ALL];
static unsigned int nr_usable;

/* Loads @s's library if it has one; 0 when the strategy is usable. */
static int load(struct ustrat *s)
{
	void *h;

	if (!s->lib)
		return 0;
	h = dlopen(s->lib, RTLD_NOW | RTLD_LOCAL);
	if (!h) {
		snprintf(s->why, sizeof(s->why), "%s", dlerror());
		return -1;
	}
	*(void **)&s->alloc_fp = dlsym(h, s->alloc_sym);
	*(void **)&s->free_fp = dlsym(h, s->free_sym);
	return s->alloc_fp && s->free_fp ? 0 : -1;
}

const struct ab_strategy_info *ab_user_strategies(unsigned int *n)
{
	uint64_t ram = (uint64_t)sysconf(_SC_PHYS_PAGES) *
		       (uint64_t)sysconf(_SC_PAGESIZE);
	unsigned int i;

	if (!nr_usable) {
		for (i = 0; i < NR_ALL; i++) {
			struct ab_strategy_info *si = &infos[nr_usable];

			if (load(&all[i]))
				continue;
			memset(si, 0, sizeof(*si));
			si->id = nr_usable;
			si->params = all[i].params;
			si->flags = all[i].flags;
			si->max_size = all[i].params & SZ ? ram / 4 : 0;
			snprintf(si->name, sizeof(si->name), "%s", all[i].name);
			snprintf(si->desc, sizeof(si->desc), "%s", all[i].desc);
			usable[nr_usable++] = &all[i];
		}
	}
	*n = nr_usable;
	return infos;
}

int ab_user_unavailable(char *buf, size_t len)
{
	unsigned int i, n;
	size_t used = 0;
	int count = 0;

	ab_user_strategies(&n);
	buf[0] = '\0';
	for (i = 0; i < NR_ALL && used < len; i++) {
		if (!all[i].lib || all[i].alloc_fp)
			continue;
		if (strstr(all[i].why, "static TLS"))
			used += (size_t)snprintf(
				buf + used, len - used,
				"  %s: %s cannot be loaded with dlopen here (it needs static TLS); run allocbench with GLIBC_TUNABLES=glibc.rtld.optional_static_tls=16384\n",
				all[i].name, all[i].lib);
		else
			used += (size_t)snprintf(
				buf + used, len - used,
				"  %s: not installed (%s: apt-get install %s)\n",
				all[i].name, all[i].lib, all[i].pkg);
		count++;
	}
	return count;
}

/*
 * Where the pages of [p, p + size) are, asked with move_pages(2) in query
 * mode, which (unlike get_mempolicy) faults nothing in: the node every page
 * that has memory is on, -2 if they are on more than one, -1 if no page has
 * memory yet (an untouched malloc'ed block: nothing to count).
 */
static int obj_node(const void *p, size_t size)
{
	long page = sysconf(_SC_PAGESIZE);
	uintptr_t c = (uintptr_t)p & ~(uintptr_t)(page - 1);
	int status[64], node = -1, i, n;
	void *pages[64];

	while (c < (uintptr_t)p + size) {
		for (n = 0; n < 64 && c < (uintptr_t)p + size; n++, c += page)
			pages[n] = (void *)c;
		if (move_pages(0, (unsigned long)n, pages, NULL, status, 0))
			return -1;
		for (i = 0; i < n; i++) {
			if (status[i] < 0)
				continue;
			if (node >= 0 && status[i] != node)
				return -2;
			node = status[i];
		}
	}
	return node;
}

/*
 * The node check between the phases: move_pages(2), per object, counted per
 * node in c->node_objs (common/ab_nodes.h makes the run's list of them).
 */
static void user_check(struct ab_loop *l, struct ab_run *r, uint32_t n)
{
	struct ab_ctx *c = uctx(l);
	uint32_t i;
	int on;

	for (i = 0; i < n; i++) {
		on = obj_node(l->objs[i], c->size);
		if (on == -1)
			continue;
		r->node_checked++;
		if (on >= 0 && on < c->nr_nodes)
			c->node_objs[on]++;
		else
			r->obj_spread++;
	}
}

/* This thread's context switches so far, voluntary or not. */
static uint64_t thread_switches(void)
{
	struct rusage ru;

	if (getrusage(RUSAGE_THREAD, &ru))
		return 0;
	return (uint64_t)ru.ru_nvcsw + (uint64_t)ru.ru_nivcsw;
}

/* Each phase between two looks at the switches and the CPU (ab_trial.h). */
static uint32_t user_alloc_phase(struct ab_loop *l, uint64_t *cycles)
{
	const struct ustrat *s = uctx(l)->strategy;
	uint64_t sw = thread_switches();
	int cpu = sched_getcpu();
	uint32_t n = ab_alloc_loop(l, cycles, s->alloc, s->free, user_write);

	ab_phase_note(l, sw, thread_switches(), cpu, sched_getcpu(),
		      AB_SAMPLE_ALLOC_DISTURBED);
	return n;
}

static void user_free_phase(struct ab_loop *l, uint32_t n, uint64_t *cycles)
{
	uint64_t sw = thread_switches();
	int cpu = sched_getcpu();

	ab_free_loop(l, n, cycles, uctx(l)->strategy->free);
	ab_phase_note(l, sw, thread_switches(), cpu, sched_getcpu(),
		      AB_SAMPLE_FREE_DISTURBED);
}

/* The samples go straight to the caller's buffer (the same process). */
static int user_put(struct ab_loop *l, const struct ab_run *r, uint64_t index,
		    const struct ab_sample *smp, uint32_t count)
{
	if (r->samples_ptr)
		memcpy((struct ab_sample *)(uintptr_t)r->samples_ptr + index,
		       smp, count * sizeof(*smp));
	return 0;
}

/* SIGINT or SIGTERM (ab_stop_requested) ends the run between trials. */
static int user_next(struct ab_loop *l)
{
	return ab_stop_requested ? -EINTR : 0;
}

/*
 * The run check of common/ab_run.h against this backend's limits, then
 * what this backend cannot do: preemption and IRQs stay on in user space,
 * and objects are freed by the CPU that allocated them.
 */
static int check(const struct ab_run *r, const struct ustrat *s,
		 const struct ab_strategy_info *si, char *why, size_t len)
{
	struct ab_info info;
	const char *bad = NULL;
	int err;

	ab_user_limits(&info);
	err = ab_run_check(r, &info, si, &bad);
	if (!err && r->context != AB_CTX_NORMAL) {
		bad = "preemption or IRQs off, which user space cannot do";
		err = -EINVAL;
	} else if (!err && (r->flags & AB_RUN_REMOTE_FREE)) {
		bad = "remote frees (it frees on the allocating CPU; remote frees need --backend=kmod)";
		err = -EINVAL;
	} else if (!err && (r->flags & AB_RUN_COND_EACH_TRIAL)) {
		bad = "a memory condition restored per trial (it builds none; conditions need --backend=kmod)";
		err = -ENOENT;
	}
	if (err)
		snprintf(why, len, "the user backend's %s refuses the run: %s",
			 s->name, bad);
	return err;
}

int ab_user_run(struct ab_run *r, char *why, size_t len)
{
	struct ab_trial_ops ops = {
		.alloc = user_alloc_phase,
		.free = user_free_phase,
		.put = user_put,
		.next = user_next,
	};
	struct ab_ctx c = { 0 };
	const struct ab_strategy_info *si;
	unsigned int nr;
	int err;

	si = ab_user_strategies(&nr);
	if (r->strategy >= nr) {
		snprintf(why, len, "no user strategy %u", r->strategy);
		return -EINVAL;
	}
	c.strategy = usable[r->strategy];
	err = check(r, c.strategy, &si[r->strategy], why, len);
	if (err)
		return err;
	if (!(c.strategy->flags & AB_STRATEGY_BASELINE))
		ops.check = user_check;
	c.size = r->obj_size;
	c.align = r->align ? r->align : 64;
	c.node = r->node;
	c.lib_alloc = c.strategy->alloc_fp;
	c.lib_free = c.strategy->free_fp;
	c.loop.nr = r->batch;
	c.loop.single = r->timing == AB_TIMING_SINGLE;
	c.loop.pair = r->free_pattern == AB_FREE_PAIR;
	c.loop.per_trial = c.strategy->flags & AB_STRATEGY_PER_TRIAL;
	c.write = r->flags & AB_RUN_WRITE;
	c.loop.mark_disturbed = r->flags & AB_RUN_MARK_DISTURBED;
	c.loop.vpmu = r->flags & AB_RUN_VPMU;
	c.loop.objs = calloc(r->batch, sizeof(*c.loop.objs));
	c.loop.free_order = calloc(r->batch, sizeof(*c.loop.free_order));
	c.loop.smp = calloc(c.loop.single ? r->batch : 1, sizeof(*c.loop.smp));
	c.nr_nodes = numa_available() < 0 ? 1 : numa_max_node() + 1;
	c.node_objs = calloc((size_t)c.nr_nodes, sizeof(*c.node_objs));
	if (!c.loop.objs || !c.loop.free_order || !c.loop.smp || !c.node_objs) {
		snprintf(why, len, "out of memory");
		err = -ENOMEM;
		goto out;
	}
	r->trials_done = 0;
	r->objects = r->failed = r->node_hits = r->node_checked = 0;
	r->switches = 0;
	r->migrations = r->disturbed = r->free_elsewhere = 0;
	r->tsc_khz = ab_user_tsc_khz();
	r->clock_cycles = ab_clock_pair();
	r->cache_merged = AB_MERGED_NA;
	r->cpu_start = (uint32_t)sched_getcpu();
	/* without a node: where the objects were, found by the check */
	r->target_node = r->node;
	ab_nodes_clear(r);
	if (c.loop.vpmu)
		vpmu_harness();
	err = ab_run_trials(&ops, &c.loop, r);
	ab_nodes_from(r, c.node_objs, c.nr_nodes);
	r->cpu_end = (uint32_t)sched_getcpu();
	if (err == -EINTR)
		snprintf(why, len, "interrupted after %u of %u trials",
			 r->trials_done, r->trials);
out:
	free(c.loop.objs);
	free(c.loop.free_order);
	free(c.loop.smp);
	free(c.node_objs);
	return err;
}
