// SPDX-License-Identifier: GPL-2.0-only
/*
 * fuzz.c - an ioctl fuzzer for /dev/allocbench, run inside the embedded
 * kernel (TAP lines; tests/kernel/guest.sh and tests/run-all.sh run it).
 *
 *   fuzz [--seed=N] [--calls=N] [--threads=N] [--children=N]
 *        [--budget-mb=N] [--max-batch=N] [--deadline=S] [--rmmod]
 *        [--storm-only]
 *   fuzz --replay=CALLSEED [--budget-mb=N]
 *   fuzz --kill-phases=N
 *
 * --max-batch=N lowers the largest batch a mutation sets (max - 1, max,
 * max + 1) from the module's ab_info.max_batch to N. The module's limit
 * was 2^20 objects, whose phase held a CPU for 23 s under slub_debug in
 * the TCG guest (a soft lockup, found by this fuzzer); it is 2^16 now.
 * Children take the same --max-batch; without one, a kernel booted with
 * slub_debug (kmalloc-64's store_user reads 1) gets 65536.
 *
 * --storm-only skips the checks after the storm (for several fuzzers at
 * once, tests/kernel/lifecycle.sh). --kill-phases=N forks N children that
 * each start a long run and get SIGKILL at one point of its life in turn:
 * before the ioctl, inside it with nothing held, with objects held, after
 * it returned; nothing may be outstanding after any of them.
 *
 * Every ioctl number (AB_IOC_INFO, AB_IOC_RUN, AB_IOC_LOOKUP, the known
 * numbers with other sizes and directions, and unknown ones), arguments
 * built three ways (random bytes; a valid struct with one field set to an
 * edge value: 0, 1, max - 1, max, max + 1, all ones, each flag bit,
 * nonzero reserved bytes, sizes around each struct version and PAGE_SIZE;
 * a valid struct as is), placed at aligned, unaligned, read-only,
 * unmapped, kernel and non-canonical addresses or across the end of a
 * mapping, with inner pointers of the same kinds and into the struct
 * itself. --threads threads call at once; each call arms a per-thread
 * timer whose SIGUSR1 (a handler, no SA_RESTART) interrupts it at a
 * random point. --children child processes (this program again, with two
 * threads each) fuzz beside them and get SIGINT (handled in some
 * children, fatal in others), SIGSTOP then SIGCONT, or SIGKILL at random
 * points; a dead child is replaced.
 *
 * Each call is built from its own 64-bit seed (derived from --seed, the
 * process and the thread), so a failing call is printed with a command
 * that replays it alone: fuzz --replay=SEED. The same --seed with
 * --threads=1 --children=0 repeats a storm call for call.
 *
 * The oracle: for every argument the module's answer follows from the
 * uapi header (include/uapi/linux/allocbench.h: copy_struct_from_user()
 * semantics, reserved fields, limits) and from ab_run_check() and
 * ab_lookup_check() (common/), which the module and the CLI apply: a
 * refused request must be refused with exactly that errno; an accepted
 * one may only succeed or end with EBUSY (the budget is in use), ENOMEM,
 * EINTR (a signal) or EFAULT (an output it cannot write); unknown
 * numbers give ENOTTY. A success must write back the outputs (size, ABI
 * version, trials done).
 *
 * After the storm: nothing outstanding (ab_info.outstanding 0), no
 * allocbench kmem_cache left in /sys/kernel/slab, unreclaimable slab and
 * free memory (/proc/meminfo, after dropping caches) within
 * TOL_SLAB_KB and TOL_FREE_KB of the same reading after a warm-up, and
 * with --rmmod the module unloads (then it is loaded again from
 * /lib/modules/allocbench.ko). The figures go to three "# fuzz:" lines:
 * the calls (--calls=N counts this process's threads' calls, exactly N;
 * the children's, made beside them until they end, are counted apart),
 * seed and duration; the errno values reached per ioctl; the signals
 * delivered. --help says what each option does. Exit status 0 if every
 * line is ok, 2 for a bad option.
 *
 * --budget-mb (default 64) sets the module parameter max_outstanding_mb
 * for the storm and restores it after: valid runs mutated to the largest
 * sizes then hold at most 64 MiB at once over all callers, which the
 * 1 GiB guest holds beside the harness arrays.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dirent.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <linux/allocbench.h>
#include "ab_run.h"
/* only ab_lookup_check() is used here: the timed passes need no clock */
#define AB_CYCLES()  0ULL
#define AB_HIDE(var) __asm__ __volatile__("" : "+r"(var))
#include "ab_lookup_pass.h"

/*
 * Tolerances after the storm, in KiB, against the reading after the
 * warm-up (both after drop_caches): per-CPU slab caches and the slabs of
 * kmalloc caches the storm grew may stay; objects the module leaked would
 * show in ab_info.outstanding first. Measured over storms of 10000 to
 * 20000 calls on 6.1, 6.12-rt and 6.1 with slub_debug: SUnreclaim grew by
 * 96 to 960 KiB; MemFree ended between 17.8 MiB lower and 12 MiB higher
 * (per-CPU page lists, page cache, the children's page tables), but 48 MiB
 * lower when run at the end of guest.sh, whose other processes and files
 * took it: so the check is on MemFree + Buffers + Cached + AnonPages
 * (free_kb()), which such use leaves alone; that sum still fell by up to
 * 35 MiB in one of six 20000-call storms on 6.12 (and rose by 20 MiB over
 * three others), hence 48 MiB at first. In make check's two-node boots
 * of 6.1 (512 MiB per node) the sum then fell by 53 to 58 MiB after a
 * 12000-call storm, with no other /proc/meminfo field moving by 2 MiB
 * (free pages held outside the free lists, e.g. per-CPU page lists of four
 * zones); not a leak: a second storm in the same boot brought MemFree
 * back to 9 MiB below the start, and compaction or rmmod changed nothing.
 * Hence 96 MiB, about a tenth of the guest's RAM. Leaks of objects the
 * module counts show in ab_info.outstanding, which must be 0; this check
 * is the coarse net for memory it does not count.
 */
#define TOL_SLAB_KB 4096
#define TOL_FREE_KB 98304

#define PAGE	      4096UL
#define MAX_STRAT     64
#define SAMPLES_BYTES (256UL << 10) /* per thread, RW, a guard after */
#define SIZES_BYTES   (64UL << 10)  /* per thread, read-only, a guard after */
#define NERR	      256
#define NFAIL	      8

enum { C_INFO, C_RUN, C_LOOKUP, C_UNKNOWN, C_NR };
static const char *const cname[C_NR] = { "INFO", "RUN", "LOOKUP", "unknown" };
enum { S_TIMER, S_INT, S_STOP, S_CONT, S_KILL, S_NR };
static const char *const sname[S_NR] = { "timer SIGUSR1", "SIGINT", "SIGSTOP",
					 "SIGCONT", "SIGKILL" };

/* Shared by the parent and its children (a memfd mapped in each). */
struct stats {
	uint64_t calls;	      /* this process's threads' (--calls) */
	uint64_t child_calls; /* the children's, beside them */
	uint64_t by[C_NR][NERR];
	uint64_t sig[S_NR];
	uint64_t failures;
	uint64_t children;
	char fail[NFAIL][320];
};

static struct stats *st;
static struct ab_info info;
static struct ab_strategy_info strat[MAX_STRAT];
static unsigned int nstrat;
static uint64_t cpu_online_mask, node_mem_mask;
static const char *dev = "/dev/allocbench";
static int shared_fd = -1;
static volatile int stop_storm;
/* a child process (--child): its calls are counted apart */
static int is_child;
/* --max-batch: the largest batch a mutation sets (0: the module's) */
static uint64_t max_batch;
/* --budget-mb: max_outstanding_mb during the storm (0: left as it is) */
static unsigned int budget_mb = 64;

static void add(uint64_t *p, uint64_t n)
{
	__atomic_fetch_add(p, n, __ATOMIC_RELAXED);
}

/* splitmix64 (Steele, Lea, Flood, OOPSLA 2014): seeds and streams */
static uint64_t mix(uint64_t x)
{
	x += 0x9e3779b97f4a7c15ULL;
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
	x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
	return x ^ (x >> 31);
}

struct rng {
	uint64_t s;
};

static uint64_t rnd(struct rng *r)
{
	r->s += 0x9e3779b97f4a7c15ULL;
	return mix(r->s);
}

static uint64_t below(struct rng *r, uint64_t n)
{
	return n ? rnd(r) % n : 0;
}

/* One thread's memory: every address a call may use comes from here. */
struct arena {
	unsigned char *rw;	/* 2 pages RW, then a PROT_NONE guard page */
	unsigned char *ro;	/* 2 pages PROT_READ (written between calls) */
	unsigned char *none;	/* 1 page PROT_NONE */
	unsigned char *samples; /* SAMPLES_BYTES RW, then a guard page */
	unsigned char *sizes;	/* SIZES_BYTES read-only, then a guard */
	int fd;
	timer_t timer;
	int has_timer;
};

static void *map(size_t len, size_t guard)
{
	unsigned char *p = mmap(NULL, len + guard, PROT_READ | PROT_WRITE,
				MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED) {
		perror("fuzz: mmap");
		exit(1);
	}
	if (guard)
		mprotect(p + len, guard, PROT_NONE);
	return p;
}

/* SIGUSR1 from a call's timer, and SIGINT in children that handle it */
static void on_sig(int sig)
{
	if (sig == SIGUSR1)
		add(&st->sig[S_TIMER], 1);
}

static void arena_init(struct arena *a)
{
	struct sigevent ev = { 0 };
	uint32_t *z;
	size_t i;

	a->rw = map(2 * PAGE, PAGE);
	a->ro = map(2 * PAGE, 0);
	mprotect(a->ro, 2 * PAGE, PROT_READ);
	a->none = map(PAGE, 0);
	mprotect(a->none, PAGE, PROT_NONE);
	a->samples = map(SAMPLES_BYTES, PAGE);
	a->sizes = map(SIZES_BYTES, PAGE);
	z = (uint32_t *)a->sizes;
	for (i = 0; i < SIZES_BYTES / 4; i++)
		z[i] = (uint32_t)(mix(i) % 300000);
	mprotect(a->sizes, SIZES_BYTES, PROT_READ);
	a->fd = open(dev, O_RDWR);
	ev.sigev_notify = SIGEV_THREAD_ID;
	ev.sigev_signo = SIGUSR1;
	ev._sigev_un._tid = (pid_t)syscall(SYS_gettid);
	a->has_timer = !timer_create(CLOCK_MONOTONIC, &ev, &a->timer);
}

static void arena_free(struct arena *a)
{
	munmap(a->rw, 3 * PAGE);
	munmap(a->ro, 2 * PAGE);
	munmap(a->none, PAGE);
	munmap(a->samples, SAMPLES_BYTES + PAGE);
	munmap(a->sizes, SIZES_BYTES + PAGE);
	if (a->fd >= 0)
		close(a->fd);
	if (a->has_timer)
		timer_delete(a->timer);
}

/* Bytes readable and writable from user address @p in @a's mappings. */
static uint64_t in(uint64_t p, const void *base, uint64_t len)
{
	uint64_t b = (uintptr_t)base;

	return p >= b && p < b + len ? b + len - p : 0;
}

static uint64_t rlen(const struct arena *a, uint64_t p)
{
	uint64_t n = in(p, a->rw, 2 * PAGE);

	if (!n)
		n = in(p, a->ro, 2 * PAGE);
	if (!n)
		n = in(p, a->samples, SAMPLES_BYTES);
	if (!n)
		n = in(p, a->sizes, SIZES_BYTES);
	return n;
}

static uint64_t wlen(const struct arena *a, uint64_t p)
{
	uint64_t n = in(p, a->rw, 2 * PAGE);

	return n ? n : in(p, a->samples, SAMPLES_BYTES);
}

/* x86-64 access_ok(): the range lies below TASK_SIZE_MAX (4-level). */
static int access_ok_user(uint64_t p, uint64_t len)
{
	const uint64_t task_size_max = (1ULL << 47) - PAGE;

	return len <= task_size_max && p <= task_size_max - len;
}

/* An address that is never mapped, of a random kind. */
static uint64_t bad_ptr(struct rng *r, const struct arena *a)
{
	switch (below(r, 7)) {
	case 0:
		return 0;
	case 1:
		return (uintptr_t)a->none + below(r, PAGE);
	case 2: /* below mmap_min_addr (65536 on Debian) */
		return 4096 + below(r, 60000);
	case 3: /* the direct map, kernel text */
		return below(r, 2) ? 0xffff888000000000ULL
				   : 0xffffffff81000000ULL;
	case 4: /* non-canonical */
		return 0x0000800000000000ULL + below(r, 1ULL << 40);
	case 5:
		return ~0ULL - below(r, 64);
	default: /* just past the top of user space */
		return (1ULL << 47) - 8 + below(r, 16);
	}
}

/* A pointer for an inner field: good, bad, read-only, or into the arg. */
static uint64_t any_ptr(struct rng *r, const struct arena *a, uint64_t self,
			uint64_t good, uint64_t span)
{
	switch (below(r, 8)) {
	case 0:
	case 1:
		return bad_ptr(r, a);
	case 2:
		return (uintptr_t)a->ro + below(r, 64);
	case 3:
		return self + below(r, 160);
	case 4: /* unaligned */
		return good + 1 + below(r, 7);
	case 5: /* near the end of the mapping */
		return good ? good + span - 8 * below(r, 4) - 1 : 0;
	default:
		return good;
	}
}

/* A random 64-bit value that is never a mapped user address. */
static uint64_t safe_ptr(uint64_t v)
{
	if (v >= 65536 && v < (1ULL << 47))
		v |= 1ULL << 63;
	return v;
}

/* ---- the call: command, argument image, placement ---- */

enum { P_ALIGNED, P_UNALIGNED, P_STRADDLE, P_RO, P_BAD, P_NR };
static const char *const pname[P_NR] = { "aligned", "unaligned",
					 "across the guard page", "read-only",
					 "unmapped" };
enum { M_VALID, M_MUTATE, M_RANDOM };
static const char *const mname[] = { "valid", "mutated", "random" };

struct call {
	uint64_t seed;
	int cls, mode, place;
	unsigned long cmd;
	uint64_t arg;
	char what[96];
	union {
		unsigned char b[2 * PAGE];
		struct ab_info info;
		struct ab_run run;
		struct ab_lookup lookup;
	} img;
	size_t len; /* bytes of img at arg */
};

/* one field of a struct, for mutations */
struct field {
	const char *name;
	size_t off, width;
	int kind; /* 0 value, 1 pointer, 2 reserved, 3 size, 4 flags */
};

#define F(s, m, k)                                                       \
	{                                                                \
#m, offsetof(struct s, m), sizeof(((struct s *)0)->m), k \
	}
static const struct field info_fields[] = {
	F(ab_info, size, 3),	       F(ab_info, abi_version, 0),
	F(ab_info, strategies_len, 0), F(ab_info, nr_strategies, 0),
	F(ab_info, strategies_ptr, 1), F(ab_info, max_batch, 0),
	F(ab_info, outstanding, 0),    F(ab_info, reserved0, 2),
	F(ab_info, version, 0),	       F(ab_info, reserved, 2),
	F(ab_info, kernel_flags, 4),   F(ab_info, kmalloc_max_size, 0),
	F(ab_info, run_flags, 4),      F(ab_info, reserved3, 2),
};

static const struct field run_fields[] = {
	F(ab_run, size, 3),	     F(ab_run, strategy, 0),
	F(ab_run, obj_size, 0),	     F(ab_run, order, 0),
	F(ab_run, batch, 0),	     F(ab_run, trials, 0),
	F(ab_run, warmup, 0),	     F(ab_run, node, 0),
	F(ab_run, gfp, 0),	     F(ab_run, flags, 4),
	F(ab_run, timing, 0),	     F(ab_run, free_pattern, 0),
	F(ab_run, context, 0),	     F(ab_run, lookup_table, 0),
	F(ab_run, lookup_method, 0), F(ab_run, seed, 0),
	F(ab_run, samples_ptr, 1),   F(ab_run, samples_len, 0),
	F(ab_run, free_cpu, 0),	     F(ab_run, reserved1, 2),
	F(ab_run, align, 0),	     F(ab_run, reserved, 2),
	F(ab_run, trials_done, 0),   F(ab_run, objects, 0),
	F(ab_run, limit, 0),	     F(ab_run, mem_objects, 0),
	F(ab_run, out_reserved2, 0), F(ab_run, limit_others, 0),
};

static const struct field lookup_fields[] = {
	F(ab_lookup, size, 3),	      F(ab_lookup, method, 0),
	F(ab_lookup, table, 0),	      F(ab_lookup, nr_sizes, 0),
	F(ab_lookup, sizes_ptr, 1),   F(ab_lookup, trials, 0),
	F(ab_lookup, warmup, 0),      F(ab_lookup, samples_ptr, 1),
	F(ab_lookup, samples_len, 0), F(ab_lookup, flags, 4),
	F(ab_lookup, reserved0, 2),   F(ab_lookup, reserved, 2),
	F(ab_lookup, checksum, 0),    F(ab_lookup, out_reserved, 0),
};
#undef F

static uint64_t get_field(const unsigned char *b, const struct field *f)
{
	uint64_t v = 0;

	memcpy(&v, b + f->off, f->width < 8 ? f->width : 8);
	return v;
}

static void set_field(unsigned char *b, const struct field *f, uint64_t v)
{
	memcpy(b + f->off, &v, f->width < 8 ? f->width : 8);
}

/* The largest value a field may take, as the module's limits say. */
static uint64_t field_max(int cls, const char *name,
			  const struct ab_strategy_info *si)
{
	if (!strcmp(name, "strategy"))
		return nstrat - 1;
	if (!strcmp(name, "obj_size"))
		return si ? si->max_size : 0;
	if (!strcmp(name, "order"))
		return si ? si->max_order : 0;
	if (!strcmp(name, "batch"))
		return max_batch && max_batch < info.max_batch ? max_batch
							       : info.max_batch;
	if (!strcmp(name, "trials") || !strcmp(name, "warmup"))
		return info.max_trials;
	if (!strcmp(name, "node"))
		return info.nr_node_ids - 1;
	if (!strcmp(name, "gfp"))
		return AB_GFP_NR - 1;
	if (!strcmp(name, "timing"))
		return AB_TIMING_NR - 1;
	if (!strcmp(name, "free_pattern"))
		return AB_FREE_NR - 1;
	if (!strcmp(name, "context"))
		return AB_CTX_NR - 1;
	if (!strcmp(name, "lookup_table") || !strcmp(name, "table"))
		return AB_TABLE_NR - 1;
	if (!strcmp(name, "lookup_method") || !strcmp(name, "method"))
		return AB_LOOKUP_NR - 1;
	if (!strcmp(name, "nr_sizes"))
		return AB_LOOKUP_MAX_SIZES;
	if (!strcmp(name, "free_cpu"))
		return 63 - __builtin_clzll(cpu_online_mask);
	if (!strcmp(name, "strategies_len"))
		return nstrat;
	return cls == C_RUN && !strcmp(name, "samples_len") ? SAMPLES_BYTES / 24
							    : 64;
}

static const size_t ksizes[C_NR] = { sizeof(struct ab_info),
				     sizeof(struct ab_run),
				     sizeof(struct ab_lookup), 0 };
static const size_t ver0s[C_NR] = { AB_INFO_SIZE_VER0, AB_RUN_SIZE_VER0,
				    AB_LOOKUP_SIZE_VER0, 0 };

/* A size field: around each version, the struct's own size and a page. */
static uint64_t edge_size(struct rng *r, int cls)
{
	/* every version the header names (a new one is added here) */
	static const uint32_t vers[] = {
		AB_INFO_SIZE_VER0,  AB_INFO_SIZE_VER1, AB_INFO_SIZE_VER2,
		AB_INFO_SIZE_VER3,  AB_RUN_SIZE_VER0,  AB_RUN_SIZE_VER1,
		AB_RUN_SIZE_VER2,   AB_RUN_SIZE_VER3,  AB_RUN_SIZE_VER4,
		AB_LOOKUP_SIZE_VER0
	};
	uint64_t v;

	switch (below(r, 5)) {
	case 0:
		v = vers[below(r, sizeof(vers) / sizeof(vers[0]))];
		break;
	case 1:
		v = ksizes[cls];
		break;
	case 2:
		v = PAGE;
		break;
	case 3:
		return below(r, 2) ? 0 : 0xffffffffU - below(r, 2);
	default:
		v = below(r, 2 * PAGE);
		return v;
	}
	return v + below(r, 3) - 1 + (below(r, 4) ? 0 : 8);
}

static uint64_t edge(struct rng *r, uint64_t max, size_t width)
{
	uint64_t ones = width >= 8 ? ~0ULL : (1ULL << (8 * width)) - 1;

	switch (below(r, 7)) {
	case 0:
		return 0;
	case 1:
		return 1;
	case 2:
		return max - 1;
	case 3:
		return max;
	case 4:
		return max + 1;
	case 5:
		return ones;
	default:
		return rnd(r) & ones;
	}
}

static const struct ab_strategy_info *pick_strategy(struct rng *r)
{
	return &strat[below(r, nstrat)];
}

/* A run the module accepts (ab_run_check() agrees), small and quick. */
static void valid_run(struct rng *r, const struct arena *a, struct ab_run *run)
{
	static const uint64_t sizes[] = {
		1, 8, 64, 100, 512, 4096, 4097, 8192
	};
	const struct ab_strategy_info *si = pick_strategy(r);
	const char *why;
	int tries;

	for (tries = 0; tries < 20; tries++) {
		memset(run, 0, sizeof(*run));
		run->size = sizeof(*run);
		run->strategy = si->id;
		if (si->params & AB_PARAM_SIZE) {
			run->obj_size = sizes[below(r, 8)];
			if (run->obj_size > si->max_size)
				run->obj_size = si->max_size;
		}
		if (si->params & AB_PARAM_ORDER)
			run->order = below(
				r, (si->max_order < 3 ? si->max_order : 3) + 1);
		run->batch = 1 + below(r, 16);
		run->trials = 1 + below(r, 4);
		run->warmup = below(r, 3);
		run->node = -1;
		if ((si->params & AB_PARAM_NODE) && below(r, 2))
			run->node = __builtin_ctzll(node_mem_mask);
		if (si->params & AB_PARAM_GFP)
			run->gfp = below(r, AB_GFP_NR);
		run->flags = rnd(r) & info.run_flags & AB_RUN_FLAGS_ALL;
		if (!(si->params & AB_PARAM_CACHE))
			run->flags &= ~AB_RUN_NOMERGE;
		run->timing = below(r, AB_TIMING_NR);
		run->free_pattern = below(r, AB_FREE_NR);
		if (run->free_pattern == AB_FREE_PAIR)
			run->flags &= ~AB_RUN_REMOTE_FREE;
		if (run->flags & AB_RUN_REMOTE_FREE)
			do
				run->free_cpu = below(r, 64);
			while (!(cpu_online_mask >> run->free_cpu & 1));
		if (below(r, 4) == 0)
			run->context = 1 + below(r, AB_CTX_NR - 1);
		if (si->params & AB_PARAM_LOOKUP) {
			run->lookup_table = below(r, AB_TABLE_NR);
			run->lookup_method = below(r, AB_LOOKUP_NR);
		}
		if (run->free_pattern == AB_FREE_SHUFFLE)
			run->seed = rnd(r);
		if (si->params & AB_PARAM_ALIGN)
			run->align = 8ULL << below(r, 4);
		if (below(r, 2)) {
			run->samples_ptr = (uintptr_t)a->samples;
			run->samples_len =
				(uint64_t)run->trials *
				ab_run_samples_per_trial(run, si->flags);
		}
		if (!ab_run_check(run, &info, si, &why))
			return;
		if (tries > 10) { /* the plainest run of this strategy */
			run->context = AB_CTX_NORMAL;
			run->flags = 0;
			run->free_cpu = 0;
		}
	}
}

static void valid_info(struct rng *r, const struct arena *a, struct ab_info *in)
{
	static const uint32_t vers[] = { AB_INFO_SIZE_VER0, AB_INFO_SIZE_VER1,
					 AB_INFO_SIZE_VER2, AB_INFO_SIZE_VER3 };

	memset(in, 0, sizeof(*in));
	in->size = vers[below(r, 4)];
	if (below(r, 2)) {
		in->strategies_ptr = (uintptr_t)a->samples;
		in->strategies_len = below(r, nstrat + 2);
	}
}

static void valid_lookup(struct rng *r, const struct arena *a,
			 struct ab_lookup *l)
{
	memset(l, 0, sizeof(*l));
	l->size = sizeof(*l);
	l->method = below(r, AB_LOOKUP_NR);
	l->table = below(r, AB_TABLE_NR);
	l->nr_sizes = 1 + below(r, 256);
	l->sizes_ptr = (uintptr_t)a->sizes + 4 * below(r, 64);
	l->trials = 1 + below(r, 8);
	l->warmup = below(r, 3);
	if (below(r, 2)) {
		l->samples_ptr = (uintptr_t)a->samples;
		l->samples_len = l->trials + below(r, 3);
	}
}

/* Vary the ioctl number's size and direction bits, or the number. */
static unsigned long unknown_cmd(struct rng *r)
{
	/* type bytes the VFS answers itself for every file (fs/ioctl.c) */
	static const unsigned char vfs[] = { 0x00, 0x15, 'T', 'X', 'f', 0x94 };
	unsigned int dir = below(r, 4), size = below(r, 1 << 14), nr, type;
	size_t i;

	switch (below(r, 3)) {
	case 0: /* known number, other direction */
		nr = below(r, 3);
		if (dir == (_IOC_READ | _IOC_WRITE))
			dir = _IOC_NONE;
		return _IOC(dir, AB_IOC_MAGIC, nr, size);
	case 1: /* unknown number of allocbench's type */
		return _IOC(dir, AB_IOC_MAGIC, 3 + below(r, 253), size);
	default:
		do {
			type = below(r, 256);
			for (i = 0; i < sizeof(vfs); i++)
				if (type == vfs[i])
					type = AB_IOC_MAGIC;
		} while (type == AB_IOC_MAGIC);
		return _IOC(dir, type, below(r, 256), size);
	}
}

/* Builds call @c from its seed alone (and the module's INFO). */
static void build(struct call *c, const struct arena *a)
{
	const struct field *fs = NULL, *f;
	const struct ab_strategy_info *si = NULL;
	struct rng r = { c->seed };
	size_t nf = 0, usize, off;
	uint64_t v, self;
	int cmdsize;

	memset(&c->img, 0, sizeof(c->img));
	c->what[0] = 0;
	c->cls = below(&r, 10) < 2  ? C_INFO
		 : below(&r, 8) < 5 ? C_RUN
				    : C_LOOKUP;
	if (below(&r, 5) == 0)
		c->cls = C_UNKNOWN;
	c->mode = below(&r, 10) < 7 ? M_MUTATE
		  : below(&r, 3)    ? M_RANDOM
				    : M_VALID;
	c->place = below(&r, 10) < 6 ? P_ALIGNED : 1 + below(&r, P_NR - 1);
	/* where the struct goes decides what pointers into itself are */
	switch (c->place) {
	case P_UNALIGNED:
		off = 1 + below(&r, 7);
		break;
	case P_STRADDLE:
		off = 2 * PAGE - 1 - below(&r, ksizes[C_RUN] + 16);
		break;
	default:
		off = 0;
	}
	self = (uintptr_t)(c->place == P_RO ? a->ro : a->rw) + off;
	cmdsize = below(&r, 4) ? -1 : (int)below(&r, 1 << 14);
	switch (c->cls) {
	case C_INFO:
		valid_info(&r, a, &c->img.info);
		fs = info_fields;
		nf = sizeof(info_fields) / sizeof(*fs);
		c->cmd = cmdsize < 0 ? AB_IOC_INFO
				     : _IOC(_IOC_READ | _IOC_WRITE,
					    AB_IOC_MAGIC, 0, cmdsize);
		break;
	case C_RUN:
		valid_run(&r, a, &c->img.run);
		si = &strat[c->img.run.strategy];
		fs = run_fields;
		nf = sizeof(run_fields) / sizeof(*fs);
		c->cmd = cmdsize < 0 ? AB_IOC_RUN
				     : _IOC(_IOC_READ | _IOC_WRITE,
					    AB_IOC_MAGIC, 1, cmdsize);
		break;
	case C_LOOKUP:
		valid_lookup(&r, a, &c->img.lookup);
		fs = lookup_fields;
		nf = sizeof(lookup_fields) / sizeof(*fs);
		c->cmd = cmdsize < 0 ? AB_IOC_LOOKUP
				     : _IOC(_IOC_READ | _IOC_WRITE,
					    AB_IOC_MAGIC, 2, cmdsize);
		break;
	default:
		c->cmd = unknown_cmd(&r);
		c->mode = M_RANDOM;
	}

	if (c->mode == M_RANDOM) {
		size_t n = below(&r, 2) ? 512 : below(&r, 2 * PAGE);

		for (size_t i = 0; i < n; i++)
			c->img.b[i] = rnd(&r);
		if (below(&r, 2) && c->cls != C_UNKNOWN)
			*(uint32_t *)c->img.b = edge_size(&r, c->cls);
		for (size_t i = 0; i < nf; i++)
			if (fs[i].kind == 1)
				set_field(
					c->img.b, &fs[i],
					safe_ptr(get_field(c->img.b, &fs[i])));
		snprintf(c->what, sizeof(c->what), "random bytes");
	} else if (c->mode == M_MUTATE) {
		f = &fs[below(&r, nf)];
		switch (f->kind) {
		case 1:
			v = below(&r, 3) ? any_ptr(&r, a, self,
						   get_field(c->img.b, f),
						   strcmp(f->name, "sizes_ptr")
							   ? SAMPLES_BYTES
							   : SIZES_BYTES)
					 : safe_ptr(edge(&r, 0, 8));
			set_field(c->img.b, f, v);
			break;
		case 2: /* a nonzero byte somewhere in the reserved field */
			c->img.b[f->off + below(&r, f->width)] =
				1 + below(&r, 255);
			v = 0;
			break;
		case 3:
			v = edge_size(&r, c->cls);
			set_field(c->img.b, f, v);
			break;
		case 4: /* each flag bit, or all of them */
			v = below(&r, 4) ? 1ULL << below(&r, 8 * f->width)
					 : edge(&r, 0, f->width);
			v |= get_field(c->img.b, f);
			set_field(c->img.b, f, v);
			break;
		default:
			v = edge(&r, field_max(c->cls, f->name, si), f->width);
			if (!strcmp(f->name, "version")) /* a char array */
				memset(c->img.b + f->off, (int)v, f->width);
			else
				set_field(c->img.b, f, v);
		}
		snprintf(c->what, sizeof(c->what), "%s = %#" PRIx64, f->name,
			 v);
	} else {
		snprintf(c->what, sizeof(c->what), "as built");
	}
	/* a bigger size than the struct: a zero tail, or a nonzero one */
	if (c->cls != C_UNKNOWN && c->mode != M_RANDOM &&
	    *(uint32_t *)c->img.b > ksizes[c->cls] &&
	    *(uint32_t *)c->img.b <= 2 * PAGE - 8 && below(&r, 2)) {
		usize = *(uint32_t *)c->img.b;
		c->img.b[ksizes[c->cls] + below(&r, usize - ksizes[c->cls])] =
			1 + below(&r, 255);
	}

	c->len = 2 * PAGE - off;
	switch (c->place) {
	case P_BAD:
		c->arg = bad_ptr(&r, a);
		c->len = 0;
		break;
	default:
		c->arg = self;
	}
}

/* Copies the image to where the call's argument lives. */
static void place(const struct call *c, struct arena *a)
{
	if (c->place == P_BAD)
		return;
	if (c->place == P_RO) {
		mprotect(a->ro, 2 * PAGE, PROT_READ | PROT_WRITE);
		memcpy(a->ro, c->img.b, c->len);
		mprotect(a->ro, 2 * PAGE, PROT_READ);
	} else {
		memcpy((void *)(uintptr_t)c->arg, c->img.b, c->len);
	}
}

/* ---- the oracle ---- */

/* bit e of the allowed set: errno e (0: success) */
/*
 * A set of errnos as a bit mask: bit e for errno e below 63, bit 63 for
 * EOPNOTSUPP (95; errno 63, ENOSR, is never an answer here).
 */
static uint64_t bitof(int e)
{
	if (e == EOPNOTSUPP)
		return 1ULL << 63;
	return e >= 0 && e < 63 ? 1ULL << e : 0;
}

#define OK(e) bitof(e)

/*
 * copy_struct_from_user() of the argument: the errno it ends with, or 0
 * and the module's view of the struct in @k (tail zeroed).
 */
static int copy_in(const struct call *c, const struct arena *a, void *k)
{
	uint64_t rd = rlen(a, c->arg), usize = 0, ks = ksizes[c->cls], i;

	if (rd < 4)
		return EFAULT;
	memcpy(&usize, c->img.b, 4);
	if (usize < ver0s[c->cls])
		return EINVAL;
	if (usize > PAGE)
		return E2BIG;
	if (usize > ks) { /* check_zeroed_user() reads up, stops at a fault */
		for (i = ks; i < usize && i < rd; i++)
			if (c->img.b[i])
				return E2BIG;
	}
	if (rd < usize)
		return EFAULT;
	memset(k, 0, ks);
	memcpy(k, c->img.b, usize < ks ? usize : ks);
	return 0;
}

static uint64_t out_ok(const struct call *c, const struct arena *a,
		       uint64_t usize)
{
	uint64_t n = usize < ksizes[c->cls] ? usize : ksizes[c->cls];

	return wlen(a, c->arg) >= n;
}

/*
 * What a refusal of an AB_IOC_RUN call must name in ab_run.limit, set by
 * allowed(): the AB_LIMIT_* of its E2BIG (ab_run_check_limit()), and
 * whether the module can write the field (the struct writable).
 */
static __thread uint32_t want_limit;
static __thread int limit_writable;

/* The errnos the module may answer @c with (bit 0: success). */
static uint64_t allowed(const struct call *c, const struct arena *a)
{
	union {
		struct ab_info i;
		struct ab_run r;
		struct ab_lookup l;
	} k;
	const struct ab_strategy_info *si;
	uint64_t set, n, need;
	const char *why;
	int e;

	want_limit = AB_LIMIT_NONE;
	limit_writable = 0;
	if (c->cls == C_UNKNOWN)
		return OK(ENOTTY);
	e = copy_in(c, a, &k);
	if (e)
		return bitof(e);
	switch (c->cls) {
	case C_INFO:
		if (k.i.reserved0 || k.i.reserved3 || k.i.reserved[0] ||
		    k.i.reserved[1] || k.i.reserved[2] || k.i.reserved[3])
			return OK(EINVAL);
		if (!k.i.strategies_ptr && k.i.strategies_len)
			return OK(EINVAL);
		n = k.i.strategies_len < nstrat ? k.i.strategies_len : nstrat;
		if (n && wlen(a, k.i.strategies_ptr) <
				 n * sizeof(struct ab_strategy_info))
			return OK(EFAULT);
		return out_ok(c, a, k.i.size) ? OK(0) : OK(EFAULT);
	case C_RUN:
		if (k.r.strategy >= nstrat)
			return OK(EINVAL);
		si = &strat[k.r.strategy];
		e = -ab_run_check_limit(&k.r, &info, si, &why, &want_limit);
		limit_writable = out_ok(c, a, k.r.size);
		if (e)
			return bitof(e);
		if ((k.r.flags & AB_RUN_REMOTE_FREE) &&
		    (k.r.free_cpu >= 64 ||
		     !(cpu_online_mask >> k.r.free_cpu & 1)))
			return OK(EINVAL);
		if (k.r.node != -1 && !(node_mem_mask >> k.r.node & 1))
			return OK(EINVAL);
		if (k.r.samples_ptr &&
		    (k.r.samples_len > UINT64_MAX / sizeof(struct ab_sample) ||
		     !access_ok_user(k.r.samples_ptr,
				     k.r.samples_len *
					     sizeof(struct ab_sample))))
			return OK(EFAULT);
		set = OK(EBUSY) | OK(ENOMEM) | OK(EINTR);
		need = (uint64_t)k.r.trials *
		       ab_run_samples_per_trial(&k.r, si->flags) *
		       sizeof(struct ab_sample);
		if (!out_ok(c, a, k.r.size) ||
		    (k.r.samples_ptr && wlen(a, k.r.samples_ptr) < need))
			return set | OK(EFAULT);
		return set | OK(0);
	default:
		e = -ab_lookup_check(&k.l, info.max_trials);
		if (e)
			return bitof(e);
		if (k.l.samples_ptr &&
		    (k.l.samples_len > UINT64_MAX / 8 ||
		     !access_ok_user(k.l.samples_ptr, k.l.samples_len * 8)))
			return OK(EFAULT);
		if (rlen(a, k.l.sizes_ptr) < (uint64_t)k.l.nr_sizes * 4)
			return OK(EFAULT) | OK(ENOMEM);
		set = OK(ENOMEM) | OK(EINTR);
		if (!out_ok(c, a, k.l.size) ||
		    (k.l.samples_ptr &&
		     wlen(a, k.l.samples_ptr) < k.l.trials * 8))
			return set | OK(EFAULT);
		return set | OK(0);
	}
}

/* What a success must have written back; NULL when it did. */
static const char *check_output(const struct call *c, uint64_t usize)
{
	const unsigned char *p = (const unsigned char *)(uintptr_t)c->arg;
	uint64_t n = usize < ksizes[c->cls] ? usize : ksizes[c->cls];
	uint32_t size;

	memcpy(&size, p, 4);
	if (size != n)
		return "size not written back as min(size, the module's)";
	if (c->cls == C_INFO) {
		const struct ab_info *i = (const void *)p;

		if (i->abi_version != AB_ABI_VERSION ||
		    i->nr_strategies != nstrat)
			return "ABI version or strategy count not written";
	} else if (c->cls == C_RUN) {
		struct ab_run r = { 0 };

		memcpy(&r, p, n);
		if (r.trials_done != r.trials || r.limit)
			return "trials_done differs from trials, or limit set";
		if (r.objects + r.failed > (uint64_t)r.trials * r.batch)
			return "more objects than trials x batch";
	} else {
		struct ab_lookup l = { 0 };

		memcpy(&l, p, n);
		if (l.trials_done != l.trials)
			return "trials_done differs from trials";
	}
	return NULL;
}

static const char *errname(int e)
{
	static const struct {
		int e;
		const char *n;
	} t[] = { { 0, "0" },
		  { EFAULT, "EFAULT" },
		  { EINVAL, "EINVAL" },
		  { E2BIG, "E2BIG" },
		  { ENOTTY, "ENOTTY" },
		  { EBUSY, "EBUSY" },
		  { ENOMEM, "ENOMEM" },
		  { EINTR, "EINTR" },
		  { EOPNOTSUPP, "EOPNOTSUPP" },
		  { EPERM, "EPERM" } };
	static __thread char buf[16];
	size_t i;

	for (i = 0; i < sizeof(t) / sizeof(t[0]); i++)
		if (t[i].e == e)
			return t[i].n;
	snprintf(buf, sizeof(buf), "errno %d", e);
	return buf;
}

static void describe_set(uint64_t set, char *buf, size_t len)
{
	size_t o = 0;
	int e;

	buf[0] = 0;
	for (e = 0; e < 64 && o < len; e++)
		if (set >> e & 1)
			o += snprintf(buf + o, len - o, "%s%s", o ? "|" : "",
				      errname(e == 63 ? EOPNOTSUPP : e));
}

static void record_failure(const struct call *c, int got, uint64_t set,
			   const char *why)
{
	uint64_t i = __atomic_fetch_add(&st->failures, 1, __ATOMIC_RELAXED);
	char want[80];

	if (i >= NFAIL)
		return;
	describe_set(set, want, sizeof(want));
	snprintf(st->fail[i], sizeof(st->fail[i]),
		 "%s cmd %#lx, %s (%s), arg %s %#" PRIx64
		 ": got %s, %s %s; replay: /ab/fuzz --replay=%#" PRIx64
		 " --max-batch=%" PRIu64 " --budget-mb=%u",
		 cname[c->cls], c->cmd, mname[c->mode], c->what,
		 pname[c->place], c->arg, errname(got), why ? "but" : "allowed",
		 why ? why : want, c->seed, max_batch, budget_mb);
}

/*
 * The limit a refused run names (ab_run.limit): the one ab_run_check()
 * found for an E2BIG, the budget or the atomic limit for an EBUSY; NULL
 * when it is.
 */
static const char *check_limit(const struct call *c, int got)
{
	uint32_t limit;

	memcpy(&limit,
	       (const char *)(uintptr_t)c->arg + offsetof(struct ab_run, limit),
	       sizeof(limit));
	if (got == E2BIG && want_limit != AB_LIMIT_NONE && limit != want_limit)
		return "E2BIG naming another limit than ab_run_check()'s";
	if (got == EBUSY && limit != AB_LIMIT_BUDGET &&
	    limit != AB_LIMIT_ATOMIC)
		return "EBUSY naming neither the budget nor the atomic limit";
	return NULL;
}

/*
 * One call: build, place, arm the timer (half the calls at a random
 * point within 20 ms, the rest at 250 ms, then every 250 ms until the
 * call returns, which also bounds valid runs mutated to their largest
 * counts), call, judge. The repeat matters: a first signal that lands
 * before the ioctl enters the kernel (a thread preempted between
 * timer_settime() and ioctl(), which a busy TCG host does) is handled in
 * user space and interrupts nothing; with a one-shot timer the run it
 * left, of max_trials trials, outlasted the watchdog's 240 s (6.1, seed
 * 158620922: the thread in ab_drv_next(), no signal pending).
 */
static int one_call(struct arena *a, struct rng *r, uint64_t seed, int verbose)
{
	static __thread struct call c;
	struct itimerspec its = { 0 };
	uint64_t set, usize = 0;
	const char *why = NULL;
	int fd, own = 0, got;

	c.seed = seed;
	build(&c, a);
	place(&c, a);
	set = allowed(&c, a);
	memcpy(&usize, c.img.b, 4);
	fd = a->fd >= 0 ? a->fd : shared_fd;
	switch (below(r, 10)) {
	case 0:
		fd = shared_fd;
		break;
	case 1:
		own = open(dev, O_RDWR);
		fd = own >= 0 ? own : fd;
		break;
	}
	if (a->has_timer) {
		its.it_value.tv_nsec =
			below(r, 2) ? (long)below(r, 20000000) : 250000000L;
		/* never 0, which would disarm it */
		its.it_value.tv_nsec += !its.it_value.tv_nsec;
		its.it_interval.tv_nsec = 250000000L;
		timer_settime(a->timer, 0, &its, NULL);
	}
	got = ioctl(fd, c.cmd, (void *)(uintptr_t)c.arg) ? errno : 0;
	if (a->has_timer) {
		its.it_value.tv_nsec = 0;
		its.it_interval.tv_nsec = 0;
		timer_settime(a->timer, 0, &its, NULL);
	}
	if (own > 0)
		close(own);
	add(is_child ? &st->child_calls : &st->calls, 1);
	add(&st->by[c.cls][got < NERR ? got : NERR - 1], 1);
	if (!got && c.cls != C_UNKNOWN)
		why = check_output(&c, usize);
	else if (c.cls == C_RUN && limit_writable &&
		 (got == E2BIG || got == EBUSY))
		why = check_limit(&c, got);
	if (!(bitof(got) & set) || why) {
		record_failure(&c, got, set, why);
		if (verbose)
			printf("# %s\n", st->fail[0]);
		return 1;
	}
	if (verbose) {
		char want[80];

		describe_set(set, want, sizeof(want));
		printf("# %s cmd %#lx, %s (%s), arg %s %#" PRIx64
		       ": got %s, allowed %s\n",
		       cname[c.cls], c.cmd, mname[c.mode], c.what,
		       pname[c.place], c.arg, errname(got), want);
	}
	return 0;
}

struct worker {
	pthread_t tid;
	uint64_t seed;
	uint64_t calls; /* 0: until stop_storm */
};

static void *work(void *p)
{
	struct worker *w = p;
	struct arena a;
	struct rng r = { mix(w->seed ^ 0x5eed) };
	uint64_t i;

	arena_init(&a);
	for (i = 0; (!w->calls || i < w->calls) && !stop_storm; i++)
		one_call(&a, &r, mix(w->seed + i), 0);
	arena_free(&a);
	return NULL;
}

static void run_workers(uint64_t seed, unsigned int threads, uint64_t calls)
{
	struct worker *w = calloc(threads, sizeof(*w));
	unsigned int i;

	for (i = 0; i < threads; i++) {
		w[i].seed = mix(seed * 1000003 + i);
		w[i].calls =
			calls ? calls / threads + (i < calls % threads) : 0;
		pthread_create(&w[i].tid, NULL, work, &w[i]);
	}
	for (i = 0; i < threads; i++)
		pthread_join(w[i].tid, NULL);
	free(w);
}

/* ---- the module's facts, the machine's memory ---- */

static int load_info(void)
{
	memset(&info, 0, sizeof(info));
	info.size = sizeof(info);
	info.strategies_len = MAX_STRAT;
	info.strategies_ptr = (uintptr_t)strat;
	if (ioctl(shared_fd, AB_IOC_INFO, &info))
		return -1;
	nstrat =
		info.nr_strategies < MAX_STRAT ? info.nr_strategies : MAX_STRAT;
	return 0;
}

static uint64_t read_mask(const char *path)
{
	char buf[256], *s = buf;
	uint64_t m = 0;
	unsigned long lo, hi;
	FILE *f = fopen(path, "r");

	if (!f || !fgets(buf, sizeof(buf), f)) {
		if (f)
			fclose(f);
		return 1;
	}
	fclose(f);
	while (sscanf(s, "%lu", &lo) == 1) {
		hi = lo;
		s += strspn(s, "0123456789");
		if (*s == '-')
			hi = strtoul(s + 1, &s, 10);
		for (; lo <= hi && lo < 64; lo++)
			m |= 1ULL << lo;
		if (*s != ',')
			break;
		s++;
	}
	return m;
}

static long meminfo_kb(const char *key)
{
	char line[128];
	long v = -1;
	size_t n = strlen(key);
	FILE *f = fopen("/proc/meminfo", "r");

	while (f && fgets(line, sizeof(line), f))
		if (!strncmp(line, key, n) && line[n] == ':')
			v = strtol(line + n + 1, NULL, 10);
	if (f)
		fclose(f);
	return v;
}

/*
 * Memory that is free or held by user space (MemFree + Buffers + Cached +
 * AnonPages, in KiB; each in @f): what the rest of the test suite's
 * processes and files take moves between these terms, what the kernel
 * keeps for itself (a leak among it) lowers the sum.
 */
static long free_kb(long f[4])
{
	static const char *const key[4] = { "MemFree", "Buffers", "Cached",
					    "AnonPages" };
	long sum = 0;
	int i;

	for (i = 0; i < 4; i++)
		sum += f[i] = meminfo_kb(key[i]);
	return sum;
}

static void drop_caches(void)
{
	int fd = open("/proc/sys/vm/drop_caches", O_WRONLY);

	sync();
	if (fd >= 0) {
		if (write(fd, "3\n", 2) < 0)
			perror("fuzz: drop_caches");
		close(fd);
	}
}

/*
 * Entries of /sys/kernel/slab the module's private caches made: a cache
 * of its own is a directory, removed by kmem_cache_destroy(); a cache
 * merged into an existing one is a symlink to it, which SLUB never
 * removes (mm/slub.c: sysfs_slab_alias() has no counterpart), counted in
 * @links.
 */
static int module_caches(char *first, size_t len, int *links)
{
	DIR *d = opendir("/sys/kernel/slab");
	struct dirent *e;
	int n = 0;

	*links = 0;
	while (d && (e = readdir(d))) {
		if (strncmp(e->d_name, "allocbench", 10))
			continue;
		if (e->d_type == DT_LNK)
			++*links;
		else if (!n++)
			snprintf(first, len, "%.48s", e->d_name);
	}
	if (d)
		closedir(d);
	return n;
}

static int write_param(const char *val)
{
	int fd = open("/sys/module/allocbench/parameters/max_outstanding_mb",
		      O_WRONLY);
	int ok;

	if (fd < 0)
		return -1;
	ok = write(fd, val, strlen(val)) == (ssize_t)strlen(val);
	close(fd);
	return ok ? 0 : -1;
}

static void read_param(char *buf, size_t len)
{
	FILE *f = fopen("/sys/module/allocbench/parameters/max_outstanding_mb",
			"r");

	snprintf(buf, len, "0");
	if (f) {
		if (!fgets(buf, len, f))
			snprintf(buf, len, "0");
		buf[strcspn(buf, "\n")] = 0;
		fclose(f);
	}
}

/* SLUB's owner tracking on kmalloc-64: booted with slub_debug (U) */
static int slub_debug_on(void)
{
	FILE *f = fopen("/sys/kernel/slab/kmalloc-64/store_user", "r");
	int on = f && fgetc(f) == '1';

	if (f)
		fclose(f);
	return on;
}

/* ---- children and signals ---- */

struct kids {
	pid_t pid[16];
	unsigned int n;
	char *argv0;
	int memfd;
	uint64_t seed;
};

/*
 * The watchdog: a storm that is not done after --deadline seconds (a hang
 * once seen on 6.12, not reproduced on demand) prints the step it was in,
 * the seed and every task's kernel stack (/proc/PID/task/TID/stack, and
 * sysrq-w's blocked tasks in the kernel log), kills the children and ends
 * the process, instead of using up the boot's own timeout.
 */
static const char *volatile step = "start";
static unsigned int deadline_s = 300;
static uint64_t wd_seed;

static void print_stacks(pid_t pid)
{
	char path[320], line[256];
	struct dirent *d;
	DIR *dir;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/task", (int)pid);
	dir = opendir(path);
	if (!dir)
		return;
	while ((d = readdir(dir))) {
		if (d->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "/proc/%d/task/%s/stack", (int)pid,
			 d->d_name);
		printf("#   task %d/%s:\n", (int)pid, d->d_name);
		f = fopen(path, "r");
		while (f && fgets(line, sizeof(line), f))
			printf("#     %s", line);
		if (f)
			fclose(f);
	}
	closedir(dir);
}

static void *watchdog(void *arg)
{
	struct kids *k = arg;
	struct timespec ts = { .tv_sec = deadline_s };
	unsigned int i;
	int fd;

	while (clock_nanosleep(CLOCK_MONOTONIC, 0, &ts, &ts) == EINTR)
		;
	printf("not ok - fuzz: not done after %u s (--deadline), in step '%s': /ab/fuzz --seed=%" PRIu64
	       "\n",
	       deadline_s, step, wd_seed);
	print_stacks(getpid());
	for (i = 0; i < k->n; i++)
		if (k->pid[i] > 0)
			print_stacks(k->pid[i]);
	fd = open("/proc/sysrq-trigger", O_WRONLY);
	if (fd >= 0) {
		if (write(fd, "w", 1) < 0)
			perror("fuzz: sysrq-trigger");
		close(fd);
	}
	fflush(stdout);
	for (i = 0; i < k->n; i++)
		if (k->pid[i] > 0)
			kill(k->pid[i], SIGKILL);
	_exit(1);
	return NULL;
}

static pid_t spawn(struct kids *k, unsigned int slot)
{
	char a1[32], a2[48], a3[] = "--threads=2", a4[48];
	char *argv[] = { k->argv0, a1, a2, a3, a4, NULL };
	uint64_t n = __atomic_fetch_add(&st->children, 1, __ATOMIC_RELAXED);
	pid_t p;

	snprintf(a1, sizeof(a1), "--child=%d", k->memfd);
	snprintf(a2, sizeof(a2), "--seed=%" PRIu64, mix(k->seed + 7 * n + 1));
	snprintf(a4, sizeof(a4), "--max-batch=%" PRIu64, max_batch);
	p = fork();
	if (p == 0) {
		execv("/proc/self/exe", argv);
		_exit(127);
	}
	k->pid[slot] = p;
	return p;
}

static void nap_us(uint64_t us)
{
	struct timespec ts = { (time_t)(us / 1000000),
			       (long)(us % 1000000) * 1000 };

	nanosleep(&ts, NULL);
}

/* Until stop_storm: a signal to a random child every 5 to 100 ms. */
static void *signaller(void *p)
{
	struct kids *k = p;
	struct rng r = { mix(k->seed ^ 0x516) };
	unsigned int i, s;
	pid_t pid;
	int status;

	while (!stop_storm) {
		nap_us(5000 + below(&r, 95000));
		for (i = 0; i < k->n; i++)
			if (waitpid(k->pid[i], &status, WNOHANG) == k->pid[i])
				spawn(k, i);
		if (!k->n)
			continue;
		pid = k->pid[below(&r, k->n)];
		s = below(&r, 3);
		if (s == 0) {
			kill(pid, SIGINT);
			add(&st->sig[S_INT], 1);
		} else if (s == 1) {
			kill(pid, SIGSTOP);
			add(&st->sig[S_STOP], 1);
			nap_us(1000 + below(&r, 50000));
			kill(pid, SIGCONT);
			add(&st->sig[S_CONT], 1);
		} else {
			kill(pid, SIGKILL);
			add(&st->sig[S_KILL], 1);
		}
	}
	for (i = 0; i < k->n; i++) {
		kill(k->pid[i], SIGKILL);
		waitpid(k->pid[i], &status, 0);
	}
	return NULL;
}

static void handlers(int sigint)
{
	struct sigaction sa = { 0 };

	sa.sa_handler = on_sig;
	sigaction(SIGUSR1, &sa, NULL); /* no SA_RESTART: the ioctl ends */
	if (sigint)
		sigaction(SIGINT, &sa, NULL);
}

static int child_main(int memfd, uint64_t seed, unsigned int threads)
{
	is_child = 1;
	st = mmap(NULL, sizeof(*st), PROT_READ | PROT_WRITE, MAP_SHARED, memfd,
		  0);
	if (st == MAP_FAILED)
		return 1;
	/* half the children handle SIGINT (the ioctl ends with EINTR), half die
	 */
	handlers(seed & 1);
	shared_fd = open(dev, O_RDWR);
	if (shared_fd < 0 || load_info())
		return 1;
	cpu_online_mask = read_mask("/sys/devices/system/cpu/online");
	node_mem_mask = read_mask("/sys/devices/system/node/has_memory");
	run_workers(seed, threads, 0);
	return 0;
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static int tap(int ok, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static int tap(int ok, const char *fmt, ...)
{
	va_list ap;

	printf("%s - fuzz: ", ok ? "ok" : "not ok");
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	return ok ? 0 : 1;
}

/* ---- --kill-phases: SIGKILL at each point of a run's life ---- */

enum { K_BEFORE, K_ALLOC, K_HELD, K_AFTER, K_NR };
static const char *const kname[K_NR] = {
	"before the ioctl",
	"in the run with nothing held (allocating, or between trials)",
	"with objects held (after an alloc phase, or freeing)",
	"after the ioctl returned"
};

static uint64_t outstanding_now(void)
{
	struct ab_info i = { .size = sizeof(i) };

	return ioctl(shared_fd, AB_IOC_INFO, &i) ? ~0ULL : i.outstanding;
}

/*
 * The run a killed child makes: @k picks kmalloc (4 KiB objects written,
 * so the alloc phase is the long one), vmalloc_node (a slow free phase) or
 * kmalloc freed on the other CPU (the caller waits for the work item).
 */
static void kill_run(unsigned int k, struct ab_run *r)
{
	const char *want = k % 3 == 1 ? "vmalloc_node" : "kmalloc";
	unsigned int i;

	memset(r, 0, sizeof(*r));
	r->size = sizeof(*r);
	for (i = 0; i < nstrat; i++)
		if (!strcmp(strat[i].name, want))
			r->strategy = i;
	r->obj_size = 4096;
	r->batch = k % 3 == 1 ? 256 : 2048;
	r->trials = 100000;
	r->node = -1;
	r->flags = k % 3 == 0 ? AB_RUN_WRITE : 0;
	if (k % 3 == 2 && (cpu_online_mask & 2))
		r->flags = AB_RUN_REMOTE_FREE, r->free_cpu = 1;
}

/* @n children each killed at one point (in turn); outstanding 0 after each */
static int kill_phases(unsigned int n, uint64_t seed)
{
	unsigned int k, hit[K_NR] = { 0 }, bad = 0, tries;
	struct rng r = { mix(seed) };
	int ready[2], go[2], status;
	struct ab_run run;
	uint64_t out;
	char ch;
	pid_t p;

	for (k = 0; k < n; k++) {
		unsigned int want = k % K_NR, got = want;

		kill_run(k, &run);
		if (pipe(ready) || pipe(go))
			return 1;
		p = fork();
		if (p == 0) {
			int fd = open(dev, O_RDWR);

			handlers(1);

			if (write(ready[1], "r", 1) != 1 ||
			    read(go[0], &ch, 1) != 1)
				_exit(1);
			ioctl(fd, AB_IOC_RUN, &run);
			if (write(ready[1], "d", 1) != 1)
				_exit(1);
			pause();
			_exit(0);
		}
		if (read(ready[0], &ch, 1) != 1)
			return 1;
		if (want != K_BEFORE && write(go[1], "g", 1) != 1)
			return 1;
		if (want == K_ALLOC) {
			/* let the run start, then kill while nothing is held */
			nap_us(20000 + below(&r, 200000));
			for (tries = 0; outstanding_now() && tries < 100000;
			     tries++)
				;
		} else if (want == K_HELD) {
			nap_us(below(&r, 100000));
			for (tries = 0; !outstanding_now() && tries < 1000000;
			     tries++)
				;
		} else if (want == K_AFTER) {
			/* SIGINT ends the run (EINTR: the child handles it) */
			nap_us(below(&r, 100000));
			kill(p, SIGINT);
			if (read(ready[0], &ch, 1) != 1)
				return 1;
		}
		out = outstanding_now();
		kill(p, SIGKILL);
		waitpid(p, &status, 0);
		if (want == K_ALLOC && out)
			got = K_HELD;
		if (want == K_HELD && !out)
			got = K_ALLOC;
		hit[got]++;
		add(&st->sig[S_KILL], 1);
		out = outstanding_now();
		if (out) {
			bad++;
			printf("# fuzz: %" PRIu64
			       " objects outstanding after SIGKILL %s\n",
			       out, kname[got]);
		}
		close(ready[0]);
		close(ready[1]);
		close(go[0]);
		close(go[1]);
	}
	printf("# fuzz: SIGKILL %s %u, %s %u, %s %u, %s %u times\n",
	       kname[K_BEFORE], hit[K_BEFORE], kname[K_ALLOC], hit[K_ALLOC],
	       kname[K_HELD], hit[K_HELD], kname[K_AFTER], hit[K_AFTER]);
	tap(!bad,
	    "%u processes killed (SIGKILL) in every phase of a run, nothing outstanding after any",
	    n);
	tap(hit[K_ALLOC] && hit[K_HELD],
	    "the kills landed both inside a run with nothing held and with objects held");
	return bad || !hit[K_ALLOC] || !hit[K_HELD];
}

/* ---- main ---- */

/*
 * The "# fuzz:" lines: the calls (this process's --calls, and the
 * children's beside them until the storm ends), then the answers per
 * ioctl and the signals, each list ended where the line ends.
 */
static void figures(uint64_t seed, unsigned int threads, unsigned int children,
		    double secs)
{
	static const char *const cls[C_NR] = { "AB_IOC_INFO", "AB_IOC_RUN",
					       "AB_IOC_LOOKUP",
					       "unknown ioctl numbers" };
	unsigned int c, e, paths = 0, n;

	printf("# fuzz: %" PRIu64
	       " calls from %u threads (--calls) and %" PRIu64
	       " from %u children at once (%" PRIu64
	       " started) in %.1f s, seed %" PRIu64 " (replay: --seed=%" PRIu64
	       " --threads=1 --children=0)\n",
	       st->calls, threads, st->child_calls, children, st->children,
	       secs, seed, seed);
	printf("# fuzz: answers:");
	for (c = 0; c < C_NR; c++) {
		printf("%s %s", c ? ";" : "", cls[c]);
		for (e = 0, n = 0; e < NERR; e++)
			if (st->by[c][e]) {
				printf("%s %s %" PRIu64, n++ ? "," : "",
				       errname(e), st->by[c][e]);
				paths++;
			}
		if (!n)
			printf(" none");
	}
	printf(" (%u distinct ioctl and errno pairs)\n", paths);
	printf("# fuzz: signals:");
	for (c = 0; c < S_NR; c++)
		printf("%s %s %" PRIu64, c ? "," : "", sname[c], st->sig[c]);
	printf("\n");
}

static void usage(FILE *f)
{
	fprintf(f,
		"usage: fuzz [--seed=N] [--calls=N] [--threads=N] [--children=N] [--budget-mb=N] [--max-batch=N] [--deadline=S] [--rmmod] [--storm-only]\n"
		"       fuzz --replay=CALLSEED [--budget-mb=N]\n"
		"       fuzz --kill-phases=N [--seed=N]\n"
		"The ioctl fuzzer of /dev/allocbench (TAP lines; run as root in the embedded kernel).\n"
		"  --seed=N        seed of the storm (default: random; printed for a replay)\n"
		"  --calls=N       calls made by this process's threads (default 10000); the\n"
		"                  children fuzz beside them until those end, and their calls\n"
		"                  are counted apart\n"
		"  --threads=N     threads calling at once, 1 to 64 (default 4)\n"
		"  --children=N    child processes fuzzing beside, signalled and killed at\n"
		"                  random, 0 to 16 (default 2)\n"
		"  --budget-mb=N   max_outstanding_mb for the storm, restored after (default 64;\n"
		"                  0 leaves it)\n"
		"  --max-batch=N   largest batch a mutation sets (default: the module's)\n"
		"  --deadline=S    give up after S seconds (default 300; 0: never), telling\n"
		"                  the step, the seed and every task's kernel stack\n"
		"  --rmmod         unload and load the module after the storm\n"
		"  --storm-only    skip the checks after the storm\n"
		"  --replay=SEED   one call, from the seed a failure printed, told in full\n"
		"  --kill-phases=N N processes killed in each phase of a run\n"
		"  --help          this text\n"
		"Exit status 0 when every TAP line is ok, 1 otherwise, 2 for a bad option.\n");
}

int main(int argc, char **argv)
{
	uint64_t seed = 0, calls = 10000, replay = 0;
	unsigned int threads = 4, children = 2, kills = 0, i;
	int child = -1, do_rmmod = 0, links, storm_only = 0, have_seed = 0,
	    have_replay = 0, fails = 0;
	long slab0, free0, slab1, free1, fl0[4], fl1[4];
	char old[32], buf[64];
	struct kids kids = { 0 };
	pthread_t sig_tid;
	double t0;

	for (i = 1; i < (unsigned int)argc; i++) {
		const char *s = argv[i];

		if (!strncmp(s, "--seed=", 7)) {
			seed = strtoull(s + 7, NULL, 0);
			have_seed = 1;
		} else if (!strncmp(s, "--calls=", 8)) {
			calls = strtoull(s + 8, NULL, 0);
		} else if (!strncmp(s, "--threads=", 10)) {
			threads = strtoul(s + 10, NULL, 0);
		} else if (!strncmp(s, "--children=", 11)) {
			children = strtoul(s + 11, NULL, 0);
		} else if (!strncmp(s, "--deadline=", 11)) {
			deadline_s = strtoul(s + 11, NULL, 0);
		} else if (!strncmp(s, "--budget-mb=", 12)) {
			budget_mb = strtoul(s + 12, NULL, 0);
		} else if (!strncmp(s, "--replay=", 9)) {
			replay = strtoull(s + 9, NULL, 0);
			have_replay = 1;
		} else if (!strncmp(s, "--child=", 8)) {
			child = atoi(s + 8);
		} else if (!strncmp(s, "--kill-phases=", 14)) {
			kills = strtoul(s + 14, NULL, 0);
		} else if (!strncmp(s, "--max-batch=", 12)) {
			max_batch = strtoull(s + 12, NULL, 0);
		} else if (!strcmp(s, "--storm-only")) {
			storm_only = 1;
		} else if (!strcmp(s, "--rmmod")) {
			do_rmmod = 1;
		} else if (!strcmp(s, "--help") || !strcmp(s, "-h")) {
			usage(stdout);
			return 0;
		} else {
			fprintf(stderr, "fuzz: %s: unknown option\n", s);
			usage(stderr);
			return 2;
		}
	}
	if (child >= 0)
		return child_main(child, seed, threads);
	/* line by line: through a pipe (guest.sh's tee) a hang shows its step
	 */
	setvbuf(stdout, NULL, _IOLBF, 0);
	if (!max_batch && slub_debug_on()) {
		max_batch = 1 << 16;
		printf("# fuzz: slub_debug in force: batches up to %" PRIu64
		       " (--max-batch)\n",
		       max_batch);
	}
	if (threads < 1 || threads > 64 || children > 16) {
		fprintf(stderr, "fuzz: --threads 1..64, --children 0..16\n");
		return 2;
	}
	if (!have_seed) {
		int fd = open("/dev/urandom", O_RDONLY);

		if (fd < 0 || read(fd, &seed, sizeof(seed)) != sizeof(seed))
			seed = (uint64_t)time(NULL);
		if (fd >= 0)
			close(fd);
		seed %= 1000000000;
	}
	kids.memfd = memfd_create("fuzz-stats", 0);
	if (kids.memfd < 0 || ftruncate(kids.memfd, sizeof(*st))) {
		perror("fuzz: memfd");
		return 1;
	}
	st = mmap(NULL, sizeof(*st), PROT_READ | PROT_WRITE, MAP_SHARED,
		  kids.memfd, 0);
	handlers(0);
	shared_fd = open(dev, O_RDWR);
	if (shared_fd < 0) {
		printf("not ok - fuzz: open %s: %s\n", dev, strerror(errno));
		return 1;
	}
	cpu_online_mask = read_mask("/sys/devices/system/cpu/online");
	node_mem_mask = read_mask("/sys/devices/system/node/has_memory");
	read_param(old, sizeof(old));
	snprintf(buf, sizeof(buf), "%u", budget_mb);
	if (budget_mb && write_param(buf))
		fprintf(stderr, "fuzz: cannot set max_outstanding_mb=%u\n",
			budget_mb);
	if (load_info()) {
		printf("not ok - fuzz: AB_IOC_INFO: %s\n", strerror(errno));
		return 1;
	}

	if (have_replay) {
		struct arena a;
		struct rng r = { 1 };

		arena_init(&a);
		a.has_timer = 0;
		fails = one_call(&a, &r, replay, 1);
		arena_free(&a);
		write_param(old);
		return fails;
	}
	if (kills) {
		fails = kill_phases(kills, seed);
		write_param(old);
		return fails;
	}

	wd_seed = seed;
	printf("# fuzz: seed %" PRIu64 "\n", seed);
	if (deadline_s) {
		pthread_t wd_tid;

		pthread_create(&wd_tid, NULL, watchdog, &kids);
		pthread_detach(wd_tid);
	}
	/* warm-up: caches and per-CPU lists the storm would grow anyway */
	step = "warm-up";
	run_workers(mix(seed ^ 0xa11), 1, 300);
	drop_caches();
	slab0 = meminfo_kb("SUnreclaim");
	free0 = free_kb(fl0);
	memset(st, 0, sizeof(*st));

	step = "storm";
	t0 = now_s();
	kids.n = children;
	kids.argv0 = argv[0];
	kids.seed = seed;
	for (i = 0; i < children; i++)
		spawn(&kids, i);
	pthread_create(&sig_tid, NULL, signaller, &kids);
	run_workers(seed, threads, calls);
	stop_storm = 1;
	pthread_join(sig_tid, NULL);
	figures(seed, threads, children, now_s() - t0);

	fails += tap(
		!st->failures && st->calls >= calls,
		"%" PRIu64 " calls (--calls=%" PRIu64 ") and %" PRIu64
		" of the children, every answer one the ABI allows (%" PRIu64
		" not)",
		st->calls, calls, st->child_calls, st->failures);
	for (i = 0; i < NFAIL && i < st->failures; i++)
		printf("#   %s\n", st->fail[i]);
	if (st->failures)
		printf("#   the storm: /ab/fuzz --seed=%" PRIu64
		       " --calls=%" PRIu64 " --threads=%u --children=%u\n",
		       seed, calls, threads, children);
	if (storm_only) {
		write_param(old);
		return fails ? 1 : 0;
	}
	/*
	 * A run with AB_RUN_KEEP_CACHE keeps its private kmem_cache until the
	 * next run on its file or the file's close: the storm's threads share
	 * shared_fd, so its last kept cache goes only with its close (6.12-rt
	 * once read "allocbench-512-391 left" here before this)
	 */
	step = "close of the storm's file";
	close(shared_fd);
	shared_fd = open(dev, O_RDWR);
	if (shared_fd < 0) {
		printf("not ok - fuzz: open %s again: %s\n", dev,
		       strerror(errno));
		return 1;
	}
	fails += tap(
		!load_info() && info.outstanding == 0,
		"nothing outstanding after the storm (ab_info.outstanding %" PRIu64
		")",
		(uint64_t)info.outstanding);
	step = "the caches left";
	i = module_caches(buf, sizeof(buf), &links);
	fails += tap(
		!i,
		"no allocbench kmem_cache of its own left in /sys/kernel/slab (%u%s%s)",
		i, i ? ", e.g. " : "", i ? buf : "");
	printf("# fuzz: %d allocbench-* alias symlinks in /sys/kernel/slab (caches merged into another: SLUB keeps an alias's link after kmem_cache_destroy())\n",
	       links);
	step = "drop_caches after the storm";
	drop_caches();
	slab1 = meminfo_kb("SUnreclaim");
	free1 = free_kb(fl1);
	fails += tap(
		slab1 - slab0 <= TOL_SLAB_KB,
		"unreclaimable slab back within %d KiB (SUnreclaim %ld -> %ld KiB)",
		TOL_SLAB_KB, slab0, slab1);
	fails += tap(
		free0 - free1 <= TOL_FREE_KB,
		"free memory back within %d KiB (MemFree + Buffers + Cached + AnonPages %ld -> %ld KiB; MemFree %ld -> %ld, Cached %ld -> %ld, AnonPages %ld -> %ld)",
		TOL_FREE_KB, free0, free1, fl0[0], fl1[0], fl0[2], fl1[2],
		fl0[3], fl1[3]);
	write_param(old);
	close(shared_fd);
	step = "rmmod";
	if (do_rmmod) {
		int rm = system("rmmod allocbench");

		fails += tap(rm == 0, "rmmod allocbench after the storm");
		fails += tap(system("insmod /lib/modules/allocbench.ko") == 0,
			     "insmod allocbench.ko again");
	}
	return fails ? 1 : 0;
}
