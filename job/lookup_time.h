/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * lookup.h - timing size-class lookups, shared by `allocbench lookup` and
 * `allocbench reproduce 2002-lookup`.
 */
#ifndef AB_CMD_LOOKUP_H
#define AB_CMD_LOOKUP_H

#include <stdint.h>

#include "allocbench.h"
#include "counters.h"
#include "jsonout.h"
#include "stats.h"

/**
 * struct ab_lookup_result - one method over one sequence of sizes
 * @method:     enum ab_lookup_method
 * @lookup:     the request and the backend's answer
 * @samples:    cycles of each measured pass, sorted
 * @per_lookup: statistics of per-lookup cycles; for AB_LOOKUP_NONE raw,
 *              for the others minus the none method's median per lookup
 * @fastest:    the 2002 figure: (fastest pass - fastest none pass) /
 *              lookups; raw fastest pass / lookups for AB_LOOKUP_NONE
 * @complete:   every method ran (in results[0])
 * @ev:         per lookup, each event counted around the method's passes
 *              (warm-up passes included)
 */
struct ab_lookup_result {
	uint32_t method;
	struct ab_lookup lookup;
	uint64_t *samples;
	struct ab_stats per_lookup;
	double fastest;
	int complete;
	double ev[AB_MAX_EVENTS];
};

/*
 * ab_lookup_measure - time the none method then each of @methods[0..nm)
 * over @sizes[0..n) in @table. @res has room for nm + 1 results (the none
 * method first). With @c (may be NULL) the open counters run around each
 * method. Returns an exit status: AB_EXIT_RUN also when two methods
 * disagree on the classes (res[0].complete is then still set).
 */
int ab_lookup_measure(const struct ab_backend *be, uint32_t table,
		      const uint32_t *methods, int nm, const uint32_t *sizes,
		      uint32_t n, uint32_t trials, uint32_t warmup,
		      struct ab_counters *c, struct ab_lookup_result *res);

/*
 * ab_lookup_print - one table (or CSV lines) for a measured sequence; with
 * @c, a second table of events per lookup, net of the none method.
 */
void ab_lookup_print(const struct ab_lookup_result *res, int nm, int csv,
		     const char *label, const struct ab_counters *c);

/*
 * ab_lookup_net_note - for method result @r (net of the none method): a
 * note into @buf when its fastest or median per lookup is below zero
 * (the none method's loop took longer than it in the same passes: noise,
 * no negative cost), with the figures, for the text's "note:" lines
 * and the JSON's notes; 1 then, else 0.
 */
int ab_lookup_net_note(const struct ab_lookup_result *r, char *buf, size_t len);

/* ab_lookup_json - append one JSON result per method to @results. */
void ab_lookup_json(const struct ab_lookup_result *res, int nm,
		    const char *label, const struct ab_counters *c,
		    json_object *results);

void ab_lookup_results_free(struct ab_lookup_result *res, int nm);

#endif
