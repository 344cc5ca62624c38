// SPDX-License-Identifier: GPL-2.0-only
/*
 * ioctl_lookup.c - size-class lookups: AB_IOC_LOOKUP's methods against a
 * reference written here for every size of both tables, its refusals, and
 * the kmalloc_class strategy (a lookup before each kmalloc).
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include "ab_testlib.h"
#include "ioctl_suite.h"

/* The class of @size in @sizes (ascending, @nr of them), -1 if none. */
static int ref_class(const uint32_t *sizes, int nr, uint32_t size)
{
	int i;

	for (i = 0; size && i < nr; i++)
		if (size <= sizes[i])
			return i;
	return -1;
}

static const uint32_t kmalloc_sizes[] = { 8,   16,  32,	  64,	96,   128, 192,
					  256, 512, 1024, 2048, 4096, 8192 };
static const uint32_t sizes_2002[] = { 32,   64,    96,	   128,	  192,
				       256,  512,   1024,  2048,  4096,
				       8192, 16384, 32768, 65536, 131072 };

/* A valid lookup of @n @sizes by @method in @table, 3 passes. */
static struct ab_lookup lreq(uint32_t method, uint32_t table,
			     const uint32_t *sizes, uint32_t n)
{
	struct ab_lookup l;

	ab_lookup_init(&l, method, table, sizes, n, 3);
	return l;
}

/*
 * In the kernel every method finds the same classes as a reference
 * written here, for every size 0 .. largest + 1 (the class sum over the
 * sequence), and every pass takes cycles.
 */
void test_lookup_methods_agree(void **state)
{
	static uint32_t all[131074];
	uint64_t cyc[3];
	uint32_t table, m, n, i;

	for (table = 0; table < AB_TABLE_NR; table++) {
		const uint32_t *cls = table ? sizes_2002 : kmalloc_sizes;
		int nr = table ? 15 : 13;
		int64_t want = 0;

		n = cls[nr - 1] + 2;
		for (i = 0; i < n; i++) {
			all[i] = i;
			want += ref_class(cls, nr, i);
		}
		for (m = AB_LOOKUP_WALK; m < AB_LOOKUP_NR; m++) {
			struct ab_lookup l = lreq(m, table, all, n);

			l.samples_ptr = (uintptr_t)cyc;
			l.samples_len = 3;
			assert_int_equal(xioctl(AB_IOC_LOOKUP, &l), 0);
			if (l.checksum != want)
				fail_msg(
					"table %u method %u: class sum %lld, want %lld",
					table, m, (long long)l.checksum,
					(long long)want);
			assert_int_equal(l.trials_done, 3);
			assert_true(cyc[0] > 0 && cyc[1] > 0 && cyc[2] > 0);
			assert_true(l.clock_cycles > 0);
		}
	}
}

void test_lookup_rejects(void **state)
{
	static uint32_t sz[4] = { 1, 2, 3, 4 };
	uint64_t cyc[3];
	struct ab_lookup l;

#define LREJ(stmt, want)                                           \
	do {                                                       \
		l = lreq(AB_LOOKUP_WALK, AB_TABLE_KMALLOC, sz, 4); \
		stmt;                                              \
		assert_int_equal(xioctl(AB_IOC_LOOKUP, &l), want); \
	} while (0)
	LREJ((void)0, 0);
	LREJ(l.method = AB_LOOKUP_NR, EINVAL);
	LREJ(l.table = AB_TABLE_NR, EINVAL);
	/* AB_LOOKUP_VPMU only adds marker NOPs; any other bit is refused */
	LREJ(l.flags = AB_LOOKUP_VPMU, 0);
	LREJ(l.flags = AB_LOOKUP_FLAGS_ALL + 1, EINVAL);
	LREJ(l.flags = 1U << 31, EINVAL);
	LREJ(l.reserved0 = 1, EINVAL);
	LREJ(l.reserved[1] = 1, EINVAL);
	LREJ(l.nr_sizes = 0, EINVAL);
	LREJ(l.sizes_ptr = 0, EINVAL);
	LREJ(l.trials = 0, EINVAL);
	LREJ(l.nr_sizes = AB_LOOKUP_MAX_SIZES + 1, E2BIG);
	LREJ(l.trials = (uint32_t)info.max_trials + 1, E2BIG);
	LREJ(l.warmup = (uint32_t)info.max_trials + 1, E2BIG);
	LREJ(l.samples_len = 3, EINVAL);
	LREJ((l.samples_ptr = (uintptr_t)cyc, l.samples_len = 2), EINVAL);
	LREJ(l.sizes_ptr = 16, EFAULT);
	LREJ((l.samples_ptr = 16, l.samples_len = 3), EFAULT);
	LREJ(l.size = AB_LOOKUP_SIZE_VER0 - 8, EINVAL);
	LREJ(l.size = 1 << 20, E2BIG);
#undef LREJ
}

/* kmalloc_class: every method and table, sizes up to kmalloc-8k. */
void test_kmalloc_class(void **state)
{
	static const uint64_t sizes[] = { 1,   8,   33,	  96,  100,
					  192, 200, 4096, 8192 };
	uint32_t table, m;
	size_t k;

	for (table = 0; table < AB_TABLE_NR; table++)
		for (m = 0; m < AB_LOOKUP_NR; m++)
			for (k = 0; k < sizeof(sizes) / sizeof(sizes[0]); k++) {
				struct ab_run r = req("kmalloc_class");

				r.obj_size = sizes[k];
				r.lookup_table = table;
				r.lookup_method = m;
				r.batch = 8;
				run_ok(&r, 1);
				assert_int_equal(r.node_checked,
						 CHECK_TRIALS(r.trials) *
							 r.batch);
			}
	{
		struct ab_run r = req("kmalloc_class");

		r.obj_size = 8193;
		assert_int_equal(xioctl(AB_IOC_RUN, &r), E2BIG);
	}
}
