// SPDX-License-Identifier: GPL-2.0-only
/*
 * fuzz_oracle.c - the answers the module may give a call: for every
 * argument they follow from the uapi header (copy_struct_from_user()
 * semantics, reserved fields, limits) and from ab_run_check() and
 * ab_lookup_check() (common/), which the module and the CLI apply; what
 * a success must have written back, the limit a refusal must name, and
 * the failures kept with the command that replays them.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include "ab_run.h"
/* only ab_lookup_check() is used here: the timed passes need no clock */
#define AB_CYCLES()  0ULL
#define AB_HIDE(var) __asm__ __volatile__("" : "+r"(var))
#include "ab_lookup_pass.h"
#include "fuzz.h"

static const size_t ver0s[C_NR] = { AB_INFO_SIZE_VER0, AB_RUN_SIZE_VER0,
				    AB_LOOKUP_SIZE_VER0, 0 };

/* bit e of the allowed set: errno e (0: success) */
/*
 * A set of errnos as a bit mask: bit e for errno e below 63, bit 63 for
 * EOPNOTSUPP (95; errno 63, ENOSR, is never an answer here).
 */
uint64_t bitof(int e)
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
uint64_t allowed(const struct call *c, const struct arena *a)
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
		if (k.i.reserved0 || k.i.reserved[0] || k.i.reserved[1] ||
		    k.i.reserved[2] || k.i.reserved[3])
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
		/* the fuzzer's files hold no condition to restore */
		if (k.r.flags & AB_RUN_COND_EACH_TRIAL)
			return OK(ENOENT);
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

const char *errname(int e)
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

void describe_set(uint64_t set, char *buf, size_t len)
{
	size_t o = 0;
	int e;

	buf[0] = 0;
	for (e = 0; e < 64 && o < len; e++)
		if (set >> e & 1)
			o += snprintf(buf + o, len - o, "%s%s", o ? "|" : "",
				      errname(e == 63 ? EOPNOTSUPP : e));
}

void record_failure(const struct call *c, int got, uint64_t set,
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
 * What the module wrote back that it must not have: a success's outputs
 * (check_output()), a refused run's limit (check_limit()).
 */
const char *check_answer(const struct call *c, int got, uint64_t usize)
{
	if (!got && c->cls != C_UNKNOWN)
		return check_output(c, usize);
	if (c->cls == C_RUN && limit_writable && (got == E2BIG || got == EBUSY))
		return check_limit(c, got);
	return NULL;
}
