/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * metrics.h - a saved result (run, sweep, compare, lookup, reproduce, or
 * an `allocbench vm` document) as flat metrics for the engines that
 * export writes (LKP, mmtests, KCIDB, Fastpath): one named number a
 * statistic of a row, with its unit, its direction and its sample.
 *
 * A metric's key comes from the row's identity alone, never from its
 * label or position, so the same command gives the same keys on every
 * run (tests/export/keys-user.golden):
 *
 *   STRATEGY[.VARIANT...].SIZE.NODE.CPU.PHASE.STAT_UNIT
 *   kmalloc.64B.nodelocal.cpu0.alloc.median_ns
 *   alloc_pages_node.cond_fragmented.gfp_noretry.order9.node0.cpu0.success_rate
 *   lookup.fls.kmalloc.64.median_cycles
 *
 * VARIANT: sheaves_MODE, lookup_METHOD, cond_CONDITION (not quiet),
 * gfp_MODE (not GFP_KERNEL), timing_single, freecpuN; SIZE: NB, or orderN
 * for the page strategies; NODE: nodeN, or nodelocal without --node. Any
 * other character than [A-Za-z0-9_-] in a part becomes '_'. A counter is
 * ROW.EVENT_per_op, EVENT a filtered kprobe's tag (lib/dynprobe.c:
 * slab_refill) or the event's name with each run of characters other than
 * [A-Za-z0-9] one '_', none first or last (kprobe:__slab_free:
 * kprobe_slab_free); two events of a row that key alike are refused.
 *
 * Samples: the unit of repetition each engine repeats on. A run, sweep
 * or lookup document is one sample (1) of every statistic of its rows; a
 * compare document one sample per round (its rounds' medians: the
 * independent units of its verdict); a vm document one sample per good
 * boot of each kernel (the kernel in @factor), numbered from 1 per kernel.
 */
#ifndef AB_METRICS_H
#define AB_METRICS_H

#include <stddef.h>
#include <json-c/json.h>

#define AB_METRIC_KEY 512

/* Directions: which way is better (LKP's index files: 1 and -1). */
enum ab_metric_dir {
	AB_DIR_NONE = 0,   /* a count that explains, no verdict (counters) */
	AB_DIR_LOWER = -1, /* ns, cycles */
	AB_DIR_HIGHER = 1, /* success rate */
};

/**
 * struct ab_metric - one number
 * @key:    the row's identity, the statistic and its unit (above)
 * @value:  as saved (never rounded here)
 * @unit:   "ns", "cycles", "%" or "per_op"
 * @dir:    enum ab_metric_dir
 * @sample: 1-based; see above
 * @factor: the kernel of a vm document's boot ("6.1:init_on_alloc=0";
 *          points into struct ab_metrics' kernels), "" otherwise
 * @kernel: that kernel's index in the document, -1 otherwise
 * @stat:   the statistic alone ("median", "p99", an event name)
 * @failed: of a success rate, the share of calls that failed (the row's
 *          failed / its attempts, as counted): the same figure with lower
 *          better, for an engine that compares every metric one way
 *          (mmtests); NAN for any other metric
 */
struct ab_metric {
	char key[AB_METRIC_KEY];
	double value;
	const char *unit;
	int dir;
	int sample;
	const char *factor;
	int kernel;
	char stat[256];
	double failed;
};

/**
 * struct ab_metrics - the metrics of one document
 * @metric, @n: the metrics, in the document's order
 * @samples:   the most samples of any key (1 for run, sweep, lookup)
 * @command:   the document's command ("run", "compare", "vm", ...)
 * @kernels:   a vm document's kernels, in order ("" otherwise), @nkernels;
 *             a name the document gives twice (an A/A run) gets "#N",
 *             its place from 1, the second time ("6.1", "6.1#2")
 * @kernel:    set by the caller: a vm document's boots of that kernel only
 * @base:      the samples of the documents read before this one (each
 *             document's samples follow theirs)
 * @cur_kernel: the kernel of the boot being read, -1 outside a vm one
 * @negative:  times (ns, cycles) below zero left out: net figures whose
 *             raw value was below what they subtract, no latency;
 *             @negative_key and @negative_value name the first
 * @bad_event: a counter's event that gives no key (for the error)
 */
struct ab_metrics {
	struct ab_metric *metric;
	size_t n, cap;
	int samples;
	int base;
	int cur_kernel;
	const char *kernel;
	char command[32];
	char kernels[4][272];
	int nkernels;
	int negative;
	char negative_key[AB_METRIC_KEY];
	double negative_value;
	const char *bad_event;
};

/*
 * ab_metrics_of - the metrics of checked document @doc (jsonin.h's
 * checks passed) added to @ms (zeroed by the caller, its @kernel set;
 * ab_metrics_free() after). Documents added one after another are
 * samples one after another: three run documents of one command are
 * samples 1, 2 and 3 (an mmtests iteration each). 0, or -EINVAL with one
 * line in @err: a document export cannot carry (a comparison of saved
 * files, which holds ratios, not samples; a vm document with no good
 * boot, or without the kernel @kernel, or after another document;
 * documents of two commands; two rows of the same identity; a key
 * longer than AB_METRIC_KEY - 1); -EBADMSG with one line for a document
 * that is not what allocbench writes (a vm boot's result that is no
 * valid result, a field of the wrong type); or -ENOMEM.
 */
int ab_metrics_of(json_object *doc, struct ab_metrics *ms, char *err,
		  size_t len);

/* ab_metrics_free - release what ab_metrics_of() allocated. */
void ab_metrics_free(struct ab_metrics *ms);

/* ab_metric_dir_name - "lower", "higher" or "none". */
const char *ab_metric_dir_name(int dir);

#endif
