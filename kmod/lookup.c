// SPDX-License-Identifier: GPL-2.0
/*
 * lookup.c - AB_IOC_LOOKUP: time kmalloc size-class lookups (the methods of
 * common/ab_lookup.h) over a sequence of sizes copied in before timing.
 *
 * The timed loops are common/ab_lookup_pass.h, shared with the user
 * backend: one pass function per (method, table) pair.
 */

#include <linux/kernel.h>
#include <linux/mm.h>
#include <linux/slab.h>
#include <linux/uaccess.h>
#include <linux/sched.h>
#include <linux/sched/signal.h>
#include <linux/timex.h>
#include "ab_internal.h"
#include "ab_lookup.h"
#include "ab_lookup_pass.h"

static int ab_validate_lookup(const struct ab_lookup *l)
{
	int err = ab_lookup_check(l, AB_MAX_TRIALS);

	if (err)
		return err;
	if (l->samples_ptr &&
	    (l->samples_len > U64_MAX / sizeof(u64) ||
	     !access_ok(u64_to_user_ptr(l->samples_ptr),
			l->samples_len * sizeof(u64))))
		return -EFAULT;
	return 0;
}

static int ab_put_pass(struct ab_lookup *l, u32 index, u64 cycles)
{
	u64 __user *usamples = u64_to_user_ptr(l->samples_ptr);

	if (usamples && put_user(cycles, &usamples[index]))
		return -EFAULT;
	return 0;
}

/* A pending signal ends the passes: -EINTR. */
static int ab_next_pass(void)
{
	if (signal_pending(current))
		return -EINTR;
	cond_resched();
	return 0;
}

long ab_ioctl_lookup(void __user *uarg)
{
	struct ab_lookup l;
	long usize, ret = 0;
	u32 *sizes;

	usize = ab_copy_in(&l, sizeof(l), AB_LOOKUP_SIZE_VER0, uarg);
	if (usize < 0)
		return usize;
	ret = ab_validate_lookup(&l);
	if (ret)
		return ret;
	/* charged to the caller's memory cgroup, as the run's arrays */
	sizes = kvmalloc_array(l.nr_sizes, sizeof(*sizes), GFP_KERNEL_ACCOUNT);
	if (!sizes)
		return -ENOMEM;
	if (copy_from_user(sizes, u64_to_user_ptr(l.sizes_ptr),
			   l.nr_sizes * sizeof(*sizes))) {
		kvfree(sizes);
		return -EFAULT;
	}

	l.out_reserved0 = 0;
	memset(l.out_reserved, 0, sizeof(l.out_reserved));
	l.tsc_khz = ab_tsc_khz();
	l.clock_cycles = ab_clock_pair();
	l.cpu = raw_smp_processor_id();
	if (l.flags & AB_LOOKUP_VPMU)
		ab_vpmu_send_gates();
	ret = ab_lookup_passes(&l, sizes, ab_put_pass, ab_next_pass);
	kvfree(sizes);
	if ((ret == 0 || ret == -EINTR) &&
	    ab_copy_out(uarg, &l, sizeof(l), usize))
		ret = -EFAULT;
	return ret;
}
