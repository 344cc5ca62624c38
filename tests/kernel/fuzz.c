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
 *
 * This file holds the options, the storm's course and its figures; the
 * parts are in fuzz_*.c (fuzz.h names them).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>
#include "ab_testlib.h"
#include "fuzz.h"

static const char *const sname[S_NR] = { "timer SIGUSR1", "SIGINT", "SIGSTOP",
					 "SIGCONT", "SIGKILL" };

/* SLUB's owner tracking on kmalloc-64: booted with slub_debug (U) */
static int slub_debug_on(void)
{
	FILE *f = fopen("/sys/kernel/slab/kmalloc-64/store_user", "r");
	int on = f && fgetc(f) == '1';

	if (f)
		fclose(f);
	return on;
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
	int child = -1, do_rmmod = 0, storm_only = 0, have_seed = 0,
	    have_replay = 0, fails = 0;
	struct mem_reading before;
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
	shared_fd = ab_open();
	if (shared_fd < 0) {
		printf("not ok - fuzz: open %s: %s\n", AB_DEV_PATH,
		       strerror(errno));
		return 1;
	}
	cpu_online_mask = read_mask("/sys/devices/system/cpu/online");
	node_mem_mask = read_mask("/sys/devices/system/node/has_memory");
	ab_budget_read(old, sizeof(old));
	snprintf(buf, sizeof(buf), "%u", budget_mb);
	if (budget_mb && ab_budget_write(buf))
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
		ab_budget_write(old);
		return fails;
	}
	if (kills) {
		fails = kill_phases(kills, seed);
		ab_budget_write(old);
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
	read_memory(&before);
	memset(st, 0, sizeof(*st));

	step = "storm";
	t0 = ab_now();
	kids.n = children;
	kids.argv0 = argv[0];
	kids.seed = seed;
	for (i = 0; i < children; i++)
		spawn(&kids, i);
	pthread_create(&sig_tid, NULL, signaller, &kids);
	run_workers(seed, threads, calls);
	stop_storm = 1;
	pthread_join(sig_tid, NULL);
	figures(seed, threads, children, ab_now() - t0);

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
		ab_budget_write(old);
		return fails ? 1 : 0;
	}
	fails += after_storm(&before, old, do_rmmod);
	return fails ? 1 : 0;
}
