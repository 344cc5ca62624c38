// SPDX-License-Identifier: GPL-2.0-only
/*
 * reproduce.c - `allocbench reproduce NAME`: one seed experiment exactly as
 * written, printed in the seed's own units beside allocbench's statistics.
 *
 * 2019-scatterlist: Sultan Alsawaf, "[PATCH] scatterlist: Don't allocate sg
 * lists using __get_free_page" (linux-kernel, 2019). A SCHED_FIFO kthread
 * (priority MAX_RT_PRIO - 1; allocbench uses AB_FIFO_PRIORITY, see
 * runner.h) runs 1000 trials; each times 100 allocations
 * of PAGE_SIZE with ktime_get() for a private kmem_cache, __get_free_page
 * and kmalloc, frees them, and times ONE vmalloc(100 * PAGE_SIZE). It
 * prints, per API, the sum over trials of ktime_us_delta() divided by the
 * number of trials: whole microseconds per trial of 100 allocations.
 *
 * 2002-lookup: Manfred Spraul and Nikita Danilov, "[PATCH,RFC] faster
 * kmalloc lookup" (linux-kernel, October 2002). Spraul's slab
 * microbenchmark reported "the fastest time for 100 kmalloc calls in a
 * tight loop (Duron 700). Loop/test overhead subtracted", in CPU ticks, for
 * 32 and 4096 byte allocations with the cache_sizes[] walk, generic_fls and
 * bsrl; Danilov proposed a switch over size ranges. Its figures are per
 * kmalloc call ("~4 cycles for each loop" of the walk).
 */
#include <gsl/gsl_rng.h>
#include <math.h>
#include <popt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lookup_time.h"
#include "options.h"
#include "report.h"
#include "runner.h"
#include "textout.h"
#include "vpmu.h"

/* The seed's rows, in its order, with the names it printed. */
static const char *const seed2019[][2] = {
	{ "get_free_pages", "__get_free_page" },
	{ "kmalloc", "kmalloc" },
	{ "kmem_cache", "kmem_cache_alloc" },
	{ "vmalloc_batch", "vmalloc" },
};

static const char seed2019_differs[] =
	"What differs from the seed: it ran in a kthread at boot and retried failed allocations forever; allocbench runs in the calling thread pinned to one CPU, times with get_cycles() instead of ktime_get(), counts failures instead of retrying, runs each API's 1000 trials in turn instead of interleaving the four in every trial, and gives its own private cache no PAGE_SIZE alignment (4096-byte objects are page-aligned anyway). It runs as SCHED_FIFO too (SCHED_RR on PREEMPT_RT, so that the ktimers and rcuc threads at SCHED_FIFO 1 get their turn), but at priority " AB_FIFO_PRIORITY_STR
	" instead of the seed's 99 (MAX_RT_PRIO - 1): at 99 it starves the kernel's own RT threads, e.g. on PREEMPT_RT the threaded IRQ handlers at 50 (\"irq 4: nobody cared\", the serial port disabled); at " AB_FIFO_PRIORITY_STR
	" no ordinary task preempts it, and IRQ threads still do. The seed's vmalloc row is one vmalloc(100 x 4096) per trial, not 100 allocations: vmalloc_batch keeps that.";

/*
 * The seed's figure from the per-trial alloc-phase cycles: each trial's
 * time truncated to whole us (as ktime_us_delta() does), summed, divided
 * by the trials with integer division. -1 without a TSC rate.
 */
static long long seed_units(const struct ab_row *r)
{
	long long sum = 0;
	size_t i;

	if (!r->run.tsc_khz || !r->nr_smp)
		return -1;
	for (i = 0; i < r->nr_smp; i++)
		sum += (long long)(r->smp[i].alloc_cycles * 1000 /
				   r->run.tsc_khz);
	return sum / (long long)r->nr_smp;
}

/* Objects one trial allocated, on average (per-op figures times it). */
static double objects_per_trial(const struct ab_row *r)
{
	return r->run.trials_done ? (double)r->run.objects / r->run.trials_done
				  : NAN;
}

/* -v or --wide: the full text */
static int wide(void)
{
	return ab_out.wide || ab_out.verbose;
}

static void print_seed_table(const struct ab_job *job)
{
	int i;

	if (!wide())
		printf("%-18s %-18s %12s %12s %12s\n", "seed's row", "strategy",
		       "seed's us", "mean us", "median us");
	else
		printf("\nin the seed's units: alloc time per trial of %u allocations (vmalloc: of one call), microseconds\n",
		       job->run_opts.batch);
	if (wide())
		printf("%-18s %-18s %12s %12s %12s\n", "seed's row", "strategy",
		       "seed's us", "mean us", "median us");
	for (i = 0; i < job->nrows; i++) {
		const struct ab_row *r = &job->rows[i];
		double per = objects_per_trial(r);

		if (!r->ran)
			continue;
		printf("%-18s %-18s %12lld", seed2019[i][1], r->si->name,
		       seed_units(r));
		ab_print_cell(r->raw[0].ns.mean * per / 1000, " %*.2f", 12);
		ab_print_cell(r->raw[0].ns.median * per / 1000, " %*.2f", 12);
		printf("\n");
	}
	if (!wide()) {
		/* the run's own notes, then what every 2019 reproduction says
		 * (allocbench-reproduce(1), NOTES) in a line each */
		ab_job_print_notes_short(job);
		printf("note: alloc time per trial of %u allocations (vmalloc: one call); seed's us as it printed them\n",
		       job->run_opts.batch);
		printf("note: what differs from the seed (SCHED_FIFO %s, not 99; ...): -v, and NOTES\n",
		       AB_FIFO_PRIORITY_STR);
		return;
	}
	printf("\nseed's us: as the seed printed it (each trial truncated to whole us, summed, integer-divided by the trials); mean and median us: the same trials unrounded.\n");
	printf("%s\n", seed2019_differs);
}

static void json_2019(const struct ab_job *job)
{
	json_object *root = ab_job_json(job), *units = json_object_new_array();
	int i;

	for (i = 0; i < job->nrows; i++) {
		const struct ab_row *r = &job->rows[i];
		double per = objects_per_trial(r);
		json_object *o = json_object_new_object();
		long long su = seed_units(r);

		json_object_object_add(o, "seed_row",
				       json_object_new_string(seed2019[i][1]));
		json_object_object_add(o, "strategy",
				       json_object_new_string(r->si->name));
		json_object_object_add(o, "seed_us",
				       su < 0 ? NULL
					      : json_object_new_int64(su));
		json_object_object_add(
			o, "mean_us",
			ab_json_num(r->raw[0].ns.mean * per / 1000));
		json_object_object_add(
			o, "median_us",
			ab_json_num(r->raw[0].ns.median * per / 1000));
		json_object_array_add(units, o);
	}
	json_object_object_add(root, "seed_units", units);
	json_object_object_add(root, "differences",
			       json_object_new_string(seed2019_differs));
	ab_json_print(root, stdout);
}

/*
 * Whether every step of experiment @exp can run on backend @name, checked
 * before anything is printed: each of the @n strategies @strats that
 * @what times, and with @lookup the backend's size-class lookups (part 2
 * of 2002-lookup). AB_EXIT_OK, or the exit status after one line naming
 * the experiment and why (the backend's own line when it cannot open).
 */
static int check_steps(const char *exp, const char *name, const char *what,
		       const char *const *strats, size_t n, int lookup)
{
	const struct ab_strategy_info *si;
	const struct ab_backend *be;
	struct ab_backend_info bi;
	size_t i;
	int ret;

	ret = ab_backend_open(name, &be, &bi);
	if (ret)
		return ret;
	for (i = 0; i < n; i++) {
		si = ab_strategy_find(&bi, strats[i]);
		if (si && !(si->flags & AB_STRATEGY_UNAVAILABLE))
			continue;
		if (si)
			ab_err("reproduce %s: %s times %s, which this kernel does not have (%s)",
			       exp, what, strats[i], si->desc);
		else
			ab_err("reproduce %s: %s times %s, which the %s backend does not have (`allocbench list`); run it on the module, --backend=kmod",
			       exp, what, strats[i], be->name);
		return AB_EXIT_USAGE;
	}
	if (lookup && !be->lookup) {
		ab_err("reproduce %s: part 2 times size-class lookups, which the %s backend does not",
		       exp, be->name);
		return AB_EXIT_USAGE;
	}
	return AB_EXIT_OK;
}

static int reproduce_2019(const char *backend, const char *cpu)
{
	const char *strats[sizeof(seed2019) / sizeof(seed2019[0])];
	struct ab_job *job;
	char list[128] = "";
	size_t i;
	int ret;

	for (i = 0; i < sizeof(seed2019) / sizeof(seed2019[0]); i++)
		strats[i] = seed2019[i][0];
	ret = check_steps("2019-scatterlist", backend, "it", strats, i, 0);
	if (ret)
		return ret;
	job = ab_job_new();
	if (!job)
		return AB_EXIT_RUN;
	job->title = "reproduce 2019-scatterlist";
	/* with the virtual PMU booted, the counts per op come along */
	job->events = ab_vpmu_default_events();
	job->run_opts.size = 4096;
	job->run_opts.size_set = 1;
	job->run_opts.batch = 100;
	job->run_opts.trials = 1000;
	job->fifo = 1;
	for (i = 0; i < sizeof(seed2019) / sizeof(seed2019[0]); i++)
		snprintf(list + strlen(list), sizeof(list) - strlen(list),
			 "%s%s", i ? "," : "", seed2019[i][0]);
	ret = ab_backend_open(backend, &job->session.be, &job->session.bi);
	if (!ret)
		ret = ab_job_add(job, list);
	if (!ret)
		ret = ab_job_place(job, cpu);
	if (!ret) {
		ret = ab_job_run(job);
		if (job->refused)
			; /* its reason is the whole output */
		else if (ab_out.formats & AB_FORMAT_JSON)
			json_2019(job);
		else if (wide()) {
			ab_job_print(job);
			print_seed_table(job);
		} else {
			/* one table: the seed's; the run's is -v's */
			ab_job_print_header_short(job);
			print_seed_table(job);
		}
	}
	ab_job_free(job);
	free(job);
	return ret;
}

static const uint32_t seed2002_sizes[] = { 32, 4096 };
static const uint32_t seed2002_methods[] = { AB_LOOKUP_WALK, AB_LOOKUP_FLS,
					     AB_LOOKUP_BSR, AB_LOOKUP_SWITCH,
					     AB_LOOKUP_KERNEL };
#define SEED2002_NM 5
/* part 2's size mix: uniform over 1..SEED2002_MIX_MAX, drawn with GSL's
 * MT19937 from a fixed seed, so every run looks up the same sequence */
#define SEED2002_MIX_MAX  4096
#define SEED2002_MIX_SEED 2002u

static uint64_t min_alloc_cycles(const struct ab_row *r)
{
	uint64_t m = UINT64_MAX;
	size_t i;

	for (i = 0; i < r->nr_smp; i++)
		if (r->smp[i].nr_objs &&
		    !(r->smp[i].flags & AB_SAMPLE_FAILED) &&
		    r->smp[i].alloc_cycles < m)
			m = r->smp[i].alloc_cycles;
	return m;
}

/*
 * Part 1, the seed's own measurement: 100 kmalloc calls per trial, the
 * class found with each method in the 2002 table, objects from today's
 * kmalloc caches; fastest trial minus the none strategy's fastest trial.
 * Its job for objects of @size, made and placed (before anything is
 * printed) into *@jobp; an exit status.
 */
static int setup_2002_kmalloc(const char *backend, const char *cpu,
			      uint32_t size, struct ab_job **jobp)
{
	struct ab_job *job = ab_job_new();
	char list[160] = "";
	int i, ret;

	*jobp = job;
	if (!job)
		return AB_EXIT_RUN;
	job->title = "reproduce 2002-lookup";
	job->events = ab_vpmu_default_events();
	job->run_opts.size = size;
	job->run_opts.size_set = 1;
	job->run_opts.batch = 100;
	job->run_opts.trials = 100;
	job->run_opts.warmup = 10;
	job->run_opts.lookup_table = AB_TABLE_2002;
	for (i = 0; i < SEED2002_NM; i++)
		snprintf(list + strlen(list), sizeof(list) - strlen(list),
			 "%skmalloc_class", i ? "," : "");
	ret = ab_backend_open(backend, &job->session.be, &job->session.bi);
	if (!ret)
		ret = ab_job_add(job, list);
	for (i = 0; !ret && i < SEED2002_NM; i++)
		job->rows[i].run.lookup_method = seed2002_methods[i];
	if (!ret)
		ret = ab_job_place(job, cpu);
	return ret;
}

/* Runs part 1's @job for objects of @size: a table line, or JSON into
 * @part1, per method. An exit status. */
static int run_2002_kmalloc(struct ab_job *job, uint32_t size,
			    json_object *part1)
{
	int i, ret = ab_job_run(job);

	if (!ret && job->baseline && job->baseline->ran) {
		uint64_t base = min_alloc_cycles(job->baseline);

		for (i = 0; i < SEED2002_NM; i++) {
			const struct ab_row *r = &job->rows[i];

			double fastest =
				((double)min_alloc_cycles(r) - (double)base) /
				r->run.batch;

			if (part1) {
				json_object *o = json_object_new_object();

				json_object_object_add(
					o, "size", json_object_new_int64(size));
				json_object_object_add(
					o, "method",
					json_object_new_string(ab_lookup_name(
						seed2002_methods[i])));
				json_object_object_add(
					o, "fastest_cycles_per_call",
					ab_json_num(fastest));
				json_object_object_add(
					o, "median_cycles_per_call",
					ab_json_num(r->net[0].cycles.median));
				json_object_object_add(
					o, "median_ns_per_call",
					ab_json_num(r->net[0].ns.median));
				json_object_array_add(part1, o);
				continue;
			}
			printf("%-6u %-8s", size,
			       ab_lookup_name(seed2002_methods[i]));
			ab_print_cell(fastest, " %*.1f", 12);
			ab_print_cell(r->net[0].cycles.median, " %*.1f", 12);
			ab_print_cell(r->net[0].ns.median, " %*.1f", 12);
			printf("\n");
		}
	}
	return ret;
}

static void free_jobs(struct ab_job **jobs, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (jobs[i]) {
			ab_job_free(jobs[i]);
			free(jobs[i]);
		}
}

#define SEED2002_DIFFERS \
	"What differs from the seed: it timed 2.5.44's slab allocator on a Duron 700, where the lookup was a large share of kmalloc; allocbench times today's SLUB fast path with the class found by each method (kmalloc_class), so the lookup's share is smaller, and part 2 isolates it. The seed's sizes were compile-time constants in its loop; here they are read from memory, so the compiler cannot fold them (Danilov's point: with an inline switch and a constant size the lookup disappears entirely). Today's 6.x method (kernel) is shown beside the 2002 ones."

static int reproduce_2002(const char *backend, const char *cpu)
{
	static const char *const part1_strats[] = { "kmalloc_class" };
	struct ab_lookup_result res[SEED2002_NM + 1];
	struct ab_job *jobs[2] = { NULL, NULL };
	json_object *root = NULL, *part1 = NULL, *results = NULL;
	const struct ab_strategy_info *si;
	const char *note = NULL;
	const struct ab_backend *be;
	char buf[512];
	struct ab_backend_info bi;
	uint32_t seq[100];
	char label[64];
	struct ab_counters c;
	int ret, nc = 0, part2 = (ab_out.formats & AB_FORMAT_JSON) || wide();
	size_t i, k;

	/* every step checked before the first line is printed */
	ret = check_steps("2002-lookup", backend, "part 1", part1_strats, 1, 1);
	for (i = 0; !ret && i < 2; i++)
		ret = setup_2002_kmalloc(backend, cpu, seed2002_sizes[i],
					 &jobs[i]);
	if (ret) {
		free_jobs(jobs, 2);
		return ret;
	}
	if (ab_out.formats & AB_FORMAT_JSON) {
		root = ab_json_envelope("reproduce 2002-lookup",
					(time_t)ab_out.start);
		part1 = json_object_new_array();
		results = json_object_new_array();
	} else if (!wide()) {
		/* the environment, read now for the header (ab_job_run()
		 * reads it again) */
		ab_env_read(&jobs[0]->session.env, "", jobs[0]->session.cpu);
		ab_job_print_header_short(jobs[0]);
		printf("part 1: kmalloc_class, the class found by each method of the 2002 table\n");
		printf("%-6s %-8s %12s %12s %12s\n", "size", "method",
		       "seed's unit", "median", "median ns");
		printf("%-6s %-8s %12s %12s %12s\n", "", "", "cycles/call",
		       "cycles/call", "per call");
	} else {
		printf("allocbench %s reproduce 2002-lookup\n",
		       AB_TOOL_VERSION);
		printf("\npart 1, as the seed measured it: kmalloc of one size, the class found with each method in the 2002 table (objects from today's kmalloc caches); 100 calls per trial, 100 trials after 10 warm-up\n");
		printf("%-6s %-8s %12s %12s %12s\n", "size", "method",
		       "seed's unit", "median", "median ns");
		printf("%-6s %-8s %12s %12s %12s\n", "", "", "cycles/call",
		       "cycles/call", "per call");
	}
	for (i = 0; !ret && i < 2; i++)
		ret = run_2002_kmalloc(jobs[i], seed2002_sizes[i], part1);
	free_jobs(jobs, 2);
	if (ret) {
		json_object_put(root);
		json_object_put(part1);
		json_object_put(results);
		return ret;
	}
	if (!root && wide()) {
		printf("seed's unit: (fastest trial - fastest trial of the none strategy) / 100 calls, the seed's \"fastest time for 100 kmalloc calls ... loop/test overhead subtracted\", per call; median: per-trial cycles per call minus the none strategy's median.\n");
		printf("\npart 2, the lookup alone (allocbench lookup --table=2002), same sizes, then a mix of sizes:\n");
	}
	ret = ab_backend_open(backend, &be, &bi);
	/* with the virtual PMU booted: instructions (and, with its model,
	 * branch misses) per lookup, the thread's claims read off directly */
	if (!ret && part2 && ab_vpmu_default_events())
		nc = ab_counters_open(&c, ab_vpmu_default_events(), stderr);
	/* part 2 is -v's and the JSON's: the default text is part 1's
	 * table alone, and what it does not print it does not measure */
	for (i = 0; !ret && part2 && i < 3; i++) {
		if (i < 2) {
			for (k = 0; k < 100; k++)
				seq[k] = seed2002_sizes[i];
			snprintf(label, sizeof(label), "constant %u",
				 seed2002_sizes[i]);
		} else {
			/* a mix of sizes: predicting each branch is then the
			 * question (Danilov: constant sizes predict perfectly)
			 */
			gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);

			if (!rng)
				break;
			gsl_rng_set(rng, SEED2002_MIX_SEED);
			for (k = 0; k < 100; k++)
				seq[k] = 1 + (uint32_t)gsl_rng_uniform_int(
						     rng, SEED2002_MIX_MAX);
			gsl_rng_free(rng);
			snprintf(label, sizeof(label),
				 "uniform 1-%u (mt19937 seed %u)",
				 SEED2002_MIX_MAX, SEED2002_MIX_SEED);
		}
		ret = ab_lookup_measure(be, AB_TABLE_2002, seed2002_methods,
					SEED2002_NM, seq, 100, 100, 10,
					nc ? &c : NULL, res);
		if (res[0].complete && results)
			ab_lookup_json(res, SEED2002_NM, label, nc ? &c : NULL,
				       results);
		else if (res[0].complete)
			ab_lookup_print(res, SEED2002_NM, 0, label,
					nc ? &c : NULL);
		ab_lookup_results_free(res, SEED2002_NM);
	}
	if (nc)
		ab_counters_close(&c);
	/* part 1's kmalloc_class rows may not time plain kmalloc's cache */
	si = ret ? NULL : ab_strategy_find(&bi, "kmalloc_class");
	if (si && ab_strategy_note(&bi.info, si, buf, sizeof(buf)))
		note = buf;
	if (root) {
		json_object *notes = json_object_new_array();

		if (note)
			json_object_array_add(notes,
					      json_object_new_string(note));
		json_object_object_add(root, "end", ab_json_time(time(NULL)));
		json_object_object_add(root, "seed_kmalloc", part1);
		json_object_object_add(root, "results", results);
		json_object_object_add(root, "notes", notes);
		json_object_object_add(
			root, "differences",
			json_object_new_string(SEED2002_DIFFERS));
		ab_json_print(root, stdout);
	} else if (!wide()) {
		printf("\nnote: part 1's seed's unit: (fastest trial - fastest none trial) / 100 calls\n");
		if (note)
			ab_print_note("note", note);
		printf("note: part 2, the lookup alone (constant and mixed sizes): -v, and --json\n");
		printf("note: what differs from the seed (2.5.44's slab on a Duron 700): -v, and NOTES\n");
	} else {
		if (note)
			printf("\nnote: %s\n", note);
		printf("\n%s\n", SEED2002_DIFFERS);
	}
	return ret;
}

int cmd_reproduce(int argc, const char **argv)
{
	const char *cpu = NULL, *name;
	struct poptOption opts[] = {
		{ "cpu", 'c', POPT_ARG_STRING, &cpu, 0,
		  "CPU to pin to (default: the CPU the command starts on)",
		  "N" },
		{ NULL, 0, POPT_ARG_INCLUDE_TABLE, ab_wide_table, 0, NULL,
		  NULL },
		{ NULL, 0, POPT_ARG_INCLUDE_TABLE, ab_backend_table, 0, NULL,
		  NULL },
		{ NULL, 0, POPT_ARG_INCLUDE_TABLE, ab_output_table, 0,
		  "Output:", NULL },
		POPT_AUTOHELP POPT_TABLEEND
	};
	const char *backend;
	int n;

	/* the experiment's name is the one positional argument */
	n = ab_popt_parse_pos("reproduce", argc, argv, opts, &name, 1);
	if (n < 0)
		return -n;
	if (!n) {
		ab_err("reproduce: which experiment? (2019-scatterlist, 2002-lookup)");
		return AB_EXIT_USAGE;
	}
	backend = ab_run_args.backend;
	if (!strcmp(name, "2019-scatterlist"))
		return reproduce_2019(backend, cpu);
	if (!strcmp(name, "2002-lookup"))
		return reproduce_2002(backend, cpu);
	ab_err("reproduce %s: unknown experiment (known: 2019-scatterlist, 2002-lookup)",
	       name);
	return AB_EXIT_USAGE;
}
