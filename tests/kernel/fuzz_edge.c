// SPDX-License-Identifier: GPL-2.0-only
/*
 * fuzz_edge.c - what the fuzzer sets a field to: each struct's fields
 * (value, pointer, reserved, size, flags), the largest value each may
 * take by the module's limits, and the edge values around it: 0, 1,
 * max - 1, max, max + 1, all ones, each flag bit, nonzero reserved bytes,
 * sizes around each struct version and PAGE_SIZE; and random bytes.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include "fuzz.h"

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
	F(ab_info, run_flags, 4),      F(ab_info, possible_cpus, 0),
	F(ab_info, cma_pages, 0),
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
	F(ab_run, free_cpu, 0),	     F(ab_run, sheaf_capacity, 0),
	F(ab_run, align, 0),	     F(ab_run, reserved, 2),
	F(ab_run, trials_done, 0),   F(ab_run, objects, 0),
	F(ab_run, limit, 0),	     F(ab_run, mem_objects, 0),
	F(ab_run, out_reserved2, 0), F(ab_run, limit_others, 0),
	F(ab_run, pool_min, 0),	     F(ab_run, pool_reserved, 2),
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

/* A size field: around each version, the struct's own size and a page. */
static uint64_t edge_size(struct rng *r, int cls)
{
	/* every version the header names (a new one is added here) */
	static const uint32_t vers[] = {
		AB_INFO_SIZE_VER0, AB_INFO_SIZE_VER1,  AB_INFO_SIZE_VER2,
		AB_INFO_SIZE_VER3, AB_INFO_SIZE_VER4,  AB_RUN_SIZE_VER0,
		AB_RUN_SIZE_VER1,  AB_RUN_SIZE_VER2,   AB_RUN_SIZE_VER3,
		AB_RUN_SIZE_VER4,  AB_RUN_SIZE_VER5,   AB_RUN_SIZE_VER6,
		AB_RUN_SIZE_VER7,  AB_RUN_SIZE_VER8,   AB_RUN_SIZE_VER9,
		AB_RUN_SIZE_VER10, AB_LOOKUP_SIZE_VER0
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

/* The fields of @cls's struct, @nf of them (none for unknown numbers). */
static const struct field *fields_of(int cls, size_t *nf)
{
	switch (cls) {
	case C_INFO:
		*nf = sizeof(info_fields) / sizeof(info_fields[0]);
		return info_fields;
	case C_RUN:
		*nf = sizeof(run_fields) / sizeof(run_fields[0]);
		return run_fields;
	case C_LOOKUP:
		*nf = sizeof(lookup_fields) / sizeof(lookup_fields[0]);
		return lookup_fields;
	default:
		*nf = 0;
		return NULL;
	}
}

/*
 * Random bytes, up to two pages; the size field perhaps an edge value;
 * pointer fields moved off any mapped user address.
 */
void randomize(struct call *c, struct rng *r)
{
	size_t nf;
	const struct field *fs = fields_of(c->cls, &nf);
	size_t n = below(r, 2) ? 512 : below(r, 2 * PAGE);

	for (size_t i = 0; i < n; i++)
		c->img.b[i] = rnd(r);
	if (below(r, 2) && c->cls != C_UNKNOWN)
		*(uint32_t *)c->img.b = edge_size(r, c->cls);
	for (size_t i = 0; i < nf; i++)
		if (fs[i].kind == 1)
			set_field(c->img.b, &fs[i],
				  safe_ptr(get_field(c->img.b, &fs[i])));
	snprintf(c->what, sizeof(c->what), "random bytes");
}

/* One field of the valid struct set to an edge value of its kind. */
void mutate(struct call *c, struct rng *r, const struct arena *a, uint64_t self,
	    const struct ab_strategy_info *si)
{
	size_t nf;
	const struct field *fs = fields_of(c->cls, &nf), *f;
	uint64_t v;

	f = &fs[below(r, nf)];
	switch (f->kind) {
	case 1:
		v = below(r, 3) ? any_ptr(r, a, self, get_field(c->img.b, f),
					  strcmp(f->name, "sizes_ptr")
						  ? SAMPLES_BYTES
						  : SIZES_BYTES)
				: safe_ptr(edge(r, 0, 8));
		set_field(c->img.b, f, v);
		break;
	case 2: /* a nonzero byte somewhere in the reserved field */
		c->img.b[f->off + below(r, f->width)] = 1 + below(r, 255);
		v = 0;
		break;
	case 3:
		v = edge_size(r, c->cls);
		set_field(c->img.b, f, v);
		break;
	case 4: /* each flag bit, or all of them */
		v = below(r, 4) ? 1ULL << below(r, 8 * f->width)
				: edge(r, 0, f->width);
		v |= get_field(c->img.b, f);
		set_field(c->img.b, f, v);
		break;
	default:
		v = edge(r, field_max(c->cls, f->name, si), f->width);
		if (!strcmp(f->name, "version")) /* a char array */
			memset(c->img.b + f->off, (int)v, f->width);
		else
			set_field(c->img.b, f, v);
	}
	snprintf(c->what, sizeof(c->what), "%s = %#" PRIx64, f->name, v);
}
