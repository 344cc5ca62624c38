// SPDX-License-Identifier: GPL-2.0-only
/*
 * fuzz_storm.c - the storm: one call built, placed, interrupted by its
 * thread's timer and judged; threads calling at once; child processes
 * (this program again) fuzzing beside them, signalled (SIGINT, SIGSTOP
 * then SIGCONT, SIGKILL) at random and replaced when they die.
 */
#define _GNU_SOURCE
#include <inttypes.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>
#include "ab_testlib.h"
#include "fuzz.h"

/* SIGUSR1 from a call's timer, and SIGINT in children that handle it */
static void on_sig(int sig)
{
	if (sig == SIGUSR1)
		add(&st->sig[S_TIMER], 1);
}

void handlers(int sigint)
{
	struct sigaction sa = { 0 };

	sa.sa_handler = on_sig;
	sigaction(SIGUSR1, &sa, NULL); /* no SA_RESTART: the ioctl ends */
	if (sigint)
		sigaction(SIGINT, &sa, NULL);
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
int one_call(struct arena *a, struct rng *r, uint64_t seed, int verbose)
{
	static __thread struct call c;
	struct itimerspec its = { 0 };
	uint64_t set, usize = 0;
	const char *why;
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
		own = ab_open();
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
	got = ab_ioctl(fd, c.cmd, (void *)(uintptr_t)c.arg);
	if (a->has_timer) {
		its.it_value.tv_nsec = 0;
		its.it_interval.tv_nsec = 0;
		timer_settime(a->timer, 0, &its, NULL);
	}
	if (own > 0)
		close(own);
	add(is_child ? &st->child_calls : &st->calls, 1);
	add(&st->by[c.cls][got < NERR ? got : NERR - 1], 1);
	why = check_answer(&c, got, usize);
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

void run_workers(uint64_t seed, unsigned int threads, uint64_t calls)
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

pid_t spawn(struct kids *k, unsigned int slot)
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

/* Until stop_storm: a signal to a random child every 5 to 100 ms. */
void *signaller(void *p)
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

int child_main(int memfd, uint64_t seed, unsigned int threads)
{
	is_child = 1;
	st = mmap(NULL, sizeof(*st), PROT_READ | PROT_WRITE, MAP_SHARED, memfd,
		  0);
	if (st == MAP_FAILED)
		return 1;
	/* half the children handle SIGINT (the ioctl ends with EINTR), half die
	 */
	handlers(seed & 1);
	shared_fd = ab_open();
	if (shared_fd < 0 || load_info())
		return 1;
	cpu_online_mask = read_mask("/sys/devices/system/cpu/online");
	node_mem_mask = read_mask("/sys/devices/system/node/has_memory");
	run_workers(seed, threads, 0);
	return 0;
}
