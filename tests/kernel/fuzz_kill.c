// SPDX-License-Identifier: GPL-2.0-only
/*
 * fuzz_kill.c - --kill-phases=N: N children each start a long run and get
 * SIGKILL at one point of its life in turn (before the ioctl, inside it
 * with nothing held, with objects held, after it returned); nothing may
 * be outstanding after any of them.
 */
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <sys/ioctl.h>
#include <sys/wait.h>
#include <unistd.h>
#include "ab_testlib.h"
#include "fuzz.h"

enum { K_BEFORE, K_ALLOC, K_HELD, K_AFTER, K_NR };
static const char *const kname[K_NR] = {
	"before the ioctl",
	"in the run with nothing held (allocating, or between trials)",
	"with objects held (after an alloc phase, or freeing)",
	"after the ioctl returned"
};

/* ab_info.outstanding now, or all ones when AB_IOC_INFO fails. */
static uint64_t outstanding_now(void)
{
	uint64_t n;

	return ab_outstanding(shared_fd, &n) ? ~0ULL : n;
}

/*
 * The run a killed child makes: @k picks kmalloc (4 KiB objects written,
 * so the alloc phase is the long one), vmalloc_node (a slow free phase) or
 * kmalloc freed on the other CPU (the caller waits for the work item).
 */
static void kill_run(unsigned int k, struct ab_run *r)
{
	const char *want = k % 3 == 1 ? "vmalloc_node" : "kmalloc";
	const struct ab_strategy_info *s =
		ab_strategy_named(strat, nstrat, want);

	ab_run_init(r, s ? s : &strat[0]);
	r->obj_size = 4096;
	r->batch = k % 3 == 1 ? 256 : 2048;
	r->trials = 100000;
	r->flags = k % 3 == 0 ? AB_RUN_WRITE : 0;
	if (k % 3 == 2 && (cpu_online_mask & 2))
		r->flags = AB_RUN_REMOTE_FREE, r->free_cpu = 1;
}

/* @n children each killed at one point (in turn); outstanding 0 after each */
int kill_phases(unsigned int n, uint64_t seed)
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
			int fd = ab_open();

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
