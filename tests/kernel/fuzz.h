/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * fuzz.h - the ioctl fuzzer's shared state and the parts of it each of
 * its files holds (fuzz.c says what the fuzzer does): the module's facts
 * and the process's state (fuzz_common.c), one thread's memory
 * (fuzz_arena.c), the calls built from a seed (fuzz_build.c, with the
 * fields and their edge values of fuzz_edge.c), the oracle
 * (fuzz_oracle.c), the storm of threads and children (fuzz_storm.c), the
 * watchdog (fuzz_watchdog.c), --kill-phases (fuzz_kill.c) and the checks
 * after a storm (fuzz_checks.c).
 */
#ifndef FUZZ_H
#define FUZZ_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include <time.h>
#include <linux/allocbench.h>

#define PAGE	      4096UL
#define MAX_STRAT     64
#define SAMPLES_BYTES (256UL << 10) /* per thread, RW, a guard after */
#define SIZES_BYTES   (64UL << 10)  /* per thread, read-only, a guard after */
#define NERR	      256
#define NFAIL	      8

enum { C_INFO, C_RUN, C_LOOKUP, C_UNKNOWN, C_NR };
enum { S_TIMER, S_INT, S_STOP, S_CONT, S_KILL, S_NR };

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

/* ---- fuzz_common.c: the module's facts, the process's state ---- */

extern struct stats *st;
extern struct ab_info info;
extern struct ab_strategy_info strat[MAX_STRAT];
extern unsigned int nstrat;
/* CPUs online, nodes with memory (bit N: CPU or node N) */
extern uint64_t cpu_online_mask, node_mem_mask;
/* the descriptor the threads share; each thread has its own besides */
extern int shared_fd;
extern volatile int stop_storm;
/* a child process (--child): its calls are counted apart */
extern int is_child;
/* --max-batch: the largest batch a mutation sets (0: the module's) */
extern uint64_t max_batch;
/* --budget-mb: max_outstanding_mb during the storm (0: left as it is) */
extern unsigned int budget_mb;
/* each class's struct size in this build (0 for unknown numbers) */
extern const size_t ksizes[C_NR];

static inline void add(uint64_t *p, uint64_t n)
{
	__atomic_fetch_add(p, n, __ATOMIC_RELAXED);
}

/* splitmix64 (Steele, Lea, Flood, OOPSLA 2014): seeds and streams */
static inline uint64_t mix(uint64_t x)
{
	x += 0x9e3779b97f4a7c15ULL;
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
	x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
	return x ^ (x >> 31);
}

struct rng {
	uint64_t s;
};

static inline uint64_t rnd(struct rng *r)
{
	r->s += 0x9e3779b97f4a7c15ULL;
	return mix(r->s);
}

/* A number below @n (0 when @n is 0). */
static inline uint64_t below(struct rng *r, uint64_t n)
{
	return n ? rnd(r) % n : 0;
}

/* AB_IOC_INFO on shared_fd into info, strat and nstrat: 0, or -1. */
int load_info(void);
/* The CPU or node list in the sysfs file @path as a mask; 1 unreadable. */
uint64_t read_mask(const char *path);
/* Sleeps @us microseconds. */
void nap_us(uint64_t us);
/* A TAP line "ok - fuzz: ..." or "not ok - ...": 0 when @ok, else 1. */
int tap(int ok, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* ---- fuzz_arena.c: one thread's memory ---- */

/* Every address a call may use comes from here. */
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

/* Maps @a, opens its descriptor, makes its SIGUSR1 timer (this thread). */
void arena_init(struct arena *a);
void arena_free(struct arena *a);
/* Bytes readable (rlen) or writable (wlen) from user address @p in @a. */
uint64_t rlen(const struct arena *a, uint64_t p);
uint64_t wlen(const struct arena *a, uint64_t p);
/* x86-64 access_ok(): the range lies below TASK_SIZE_MAX (4-level). */
int access_ok_user(uint64_t p, uint64_t len);
/* An address that is never mapped, of a random kind. */
uint64_t bad_ptr(struct rng *r, const struct arena *a);
/* A pointer for an inner field: good, bad, read-only, or into the arg. */
uint64_t any_ptr(struct rng *r, const struct arena *a, uint64_t self,
		 uint64_t good, uint64_t span);
/* A random 64-bit value that is never a mapped user address. */
uint64_t safe_ptr(uint64_t v);

/* ---- fuzz_build.c: the call (command, argument image, placement) ---- */

enum { P_ALIGNED, P_UNALIGNED, P_STRADDLE, P_RO, P_BAD, P_NR };
enum { M_VALID, M_MUTATE, M_RANDOM };
extern const char *const cname[C_NR];
extern const char *const pname[P_NR];
extern const char *const mname[];

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

/* Builds call @c from its seed alone (and the module's INFO). */
void build(struct call *c, const struct arena *a);
/* Copies the image to where the call's argument lives. */
void place(const struct call *c, struct arena *a);

/* ---- fuzz_edge.c: each struct's fields and their edge values ---- */

/*
 * Call @c's image (a valid struct of its class, at @self) with one field
 * of it set to an edge value (@si: the run's strategy, NULL for other
 * classes); @c->what says which.
 */
void mutate(struct call *c, struct rng *r, const struct arena *a, uint64_t self,
	    const struct ab_strategy_info *si);
/*
 * Call @c's image as random bytes, its size field perhaps an edge value,
 * its pointer fields never a mapped user address.
 */
void randomize(struct call *c, struct rng *r);

/* ---- fuzz_oracle.c: the answers the ABI allows ---- */

/*
 * A set of errnos as a bit mask: bit e for errno e below 63, bit 63 for
 * EOPNOTSUPP (95; errno 63, ENOSR, is never an answer here).
 */
uint64_t bitof(int e);
/* The errnos the module may answer @c with (bit 0: success). */
uint64_t allowed(const struct call *c, const struct arena *a);
/*
 * After allowed(@c) and the answer @got (the struct's size field
 * @usize): what the module wrote back that it must not have, or NULL.
 */
const char *check_answer(const struct call *c, int got, uint64_t usize);
/* "EINVAL" for EINVAL, "errno N" for one without a name here. */
const char *errname(int e);
/* The errnos of @set as "0|EINTR|...", into @buf (@len bytes). */
void describe_set(uint64_t set, char *buf, size_t len);
/* Keeps the first NFAIL failures in st->fail, with their replay. */
void record_failure(const struct call *c, int got, uint64_t set,
		    const char *why);

/* ---- fuzz_storm.c: calls, threads, children and signals ---- */

struct kids {
	pid_t pid[16];
	unsigned int n;
	char *argv0;
	int memfd;
	uint64_t seed;
};

/* SIGUSR1 (no SA_RESTART) and, with @sigint, SIGINT handled. */
void handlers(int sigint);
/* One call of @seed, judged: 0 allowed, 1 not (told with @verbose). */
int one_call(struct arena *a, struct rng *r, uint64_t seed, int verbose);
/*
 * @threads threads calling at once, @calls calls over all of them (0:
 * until stop_storm), each thread's calls from its seed of @seed.
 */
void run_workers(uint64_t seed, unsigned int threads, uint64_t calls);
/* Starts a child fuzzer (this program, --child) in @k's slot @slot. */
pid_t spawn(struct kids *k, unsigned int slot);
/* The thread signalling @p's (struct kids) children until stop_storm. */
void *signaller(void *p);
/* A child process's life (--child=MEMFD): the exit status. */
int child_main(int memfd, uint64_t seed, unsigned int threads);

/* ---- fuzz_watchdog.c: a storm past its deadline ---- */

/* what the storm is doing, for the watchdog's line */
extern const char *volatile step;
/* --deadline, in seconds (0: no watchdog) */
extern unsigned int deadline_s;
/* the storm's seed, for the watchdog's line */
extern uint64_t wd_seed;
/* The watchdog thread (@arg: the struct kids); ends the process. */
void *watchdog(void *arg);

/* ---- fuzz_kill.c: --kill-phases ---- */

/* @n children each killed at one point (in turn): 0, or 1 on a failure. */
int kill_phases(unsigned int n, uint64_t seed);

/* ---- fuzz_checks.c: after the storm ---- */

/* After drop_caches: SUnreclaim, and free_kb() with its four terms. */
struct mem_reading {
	long slab, free, f[4];
};

/* Drops the caches, then reads @m (KiB). */
void read_memory(struct mem_reading *m);
/*
 * The TAP lines after a storm, against @before (read after the warm-up):
 * nothing outstanding once the storm's file is closed, no cache of the
 * module's own left, slab and free memory back within their tolerances;
 * restores the budget @old; with @do_rmmod the module unloaded and loaded
 * again. Returns how many lines failed (1 when the device does not open
 * again, the budget then left as the storm had it).
 */
int after_storm(const struct mem_reading *before, const char *old,
		int do_rmmod);

#endif /* FUZZ_H */
