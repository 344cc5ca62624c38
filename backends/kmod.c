// SPDX-License-Identifier: GPL-2.0-only
/*
 * kmod.c - the kmod backend: runs strategies inside allocbench.ko through
 * the ioctls of /dev/allocbench, and turns their errors into sentences.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "backend.h"
#include "runlimits.h"
#include "runopts.h"
#include "slabmerge.h"
#include "textout.h"

#define AB_DEV_PATH "/dev/" AB_DEVICE_NAME

static int dev_fd = -1;
/* the module's strategy table, from the last AB_IOC_INFO */
static struct ab_strategy_info *kmod_strategies;
static uint32_t kmod_nr_strategies;

static int kmod_open(char *why, size_t len)
{
	if (dev_fd >= 0)
		return 0;
	dev_fd = open(AB_DEV_PATH, O_RDWR | O_CLOEXEC);
	if (dev_fd >= 0)
		return 0;
	switch (errno) {
	case ENOENT:
	case ENODEV:
	case ENXIO:
		snprintf(
			why, len,
			"%s: module not loaded: `sudo make load`, or try the embedded kernel: `make demo`; or time userspace allocators with --backend=user",
			AB_DEV_PATH);
		return -ENOENT;
	case EACCES:
	case EPERM:
		snprintf(
			why, len,
			"%s: permission denied: the device is mode 0600, run allocbench as root",
			AB_DEV_PATH);
		return -EACCES;
	default:
		snprintf(why, len, "%s: %s", AB_DEV_PATH, strerror(errno));
		return -errno;
	}
}

static int kmod_info(struct ab_backend_info *out, char *why, size_t len)
{
	static struct ab_strategy_info *strategies;
	struct ab_info info = { .size = sizeof(info) };
	int err = kmod_open(why, len);
	uint32_t have;

	if (err)
		return err;
	if (ioctl(dev_fd, AB_IOC_INFO, &info)) {
		snprintf(why, len, "%s: AB_IOC_INFO failed: %s", AB_DEV_PATH,
			 strerror(errno));
		return -errno;
	}
	if (info.abi_version != AB_ABI_VERSION) {
		snprintf(
			why, len,
			"allocbench.ko speaks ABI version %u, this allocbench speaks %u: rebuild and reload the module (`make && sudo make reload`)",
			info.abi_version, AB_ABI_VERSION);
		return -EPROTO;
	}
	free(strategies);
	have = info.nr_strategies;
	strategies = calloc(have ? have : 1, sizeof(*strategies));
	if (!strategies) {
		snprintf(why, len, "out of memory");
		return -ENOMEM;
	}
	info.strategies_len = have;
	info.strategies_ptr = (__u64)(uintptr_t)strategies;
	info.size = sizeof(info);
	if (ioctl(dev_fd, AB_IOC_INFO, &info)) {
		snprintf(why, len, "%s: AB_IOC_INFO failed: %s", AB_DEV_PATH,
			 strerror(errno));
		return -errno;
	}
	err = ab_info_answer_check(&info, strategies, have, why, len);
	if (err)
		return err;
	out->info = info;
	out->strategies = strategies;
	kmod_strategies = strategies;
	kmod_nr_strategies =
		have < info.nr_strategies ? have : info.nr_strategies;
	return 0;
}

static int kmod_probe(char *why, size_t len)
{
	struct ab_backend_info bi;

	return kmod_info(&bi, why, len);
}

/* The run's strategy makes a kmem_cache of its own (AB_PARAM_CACHE). */
static int kmod_has_cache(const struct ab_run *run)
{
	return run->strategy < kmod_nr_strategies &&
	       (kmod_strategies[run->strategy].params & AB_PARAM_CACHE);
}

static int kmod_run(struct ab_run *run, char *why, size_t len)
{
	struct ab_slab_snap slabs = { 0 };
	struct ab_run req;
	int err;

	if (kmod_open(why, len))
		return -ENOENT;
	run->size = sizeof(*run);
	req = *run;
	/*
	 * The caches before the run, to tell afterwards whether the run's was
	 * an alias of one of them (lib/slabmerge.h): untimed, outside the
	 * ioctl.
	 */
	if (kmod_has_cache(run))
		ab_slab_snapshot(AB_SLAB_SYSFS, &slabs);

	/*
	 * A Ctrl-C whose handler already ran is no longer pending when the
	 * ioctl starts, and the module would run every trial: the stop flag
	 * is read first. (One that lands between this test and the
	 * syscall's entry still waits for the run.)
	 */
	err = ab_stop_requested		       ? EINTR
	      : ioctl(dev_fd, AB_IOC_RUN, run) ? errno
					       : 0;
	if (err == EPROTO)
		err = EIO; /* EPROTO below is this side's verdict */
	err = -ab_run_answer_check(&req, run, -err, why, len);
	if ((!err || err == EINTR) && kmod_has_cache(run))
		run->cache_merged = ab_slab_merged(
			AB_SLAB_SYSFS, &slabs, run->cache_name,
			run->cache_merged, !!(req.flags & AB_RUN_KEEP_CACHE));
	ab_slab_snap_free(&slabs);
	switch (err) {
	case 0:
	case EPROTO:
		break;
	case EINTR:
		snprintf(why, len, "interrupted after %u of %u %s",
			 run->trials_done, run->trials,
			 ab_noun(run->trials, "trial", "trials"));
		break;
	case E2BIG:
	case EBUSY:
		/*
		 * the one limit the module names (ab_run.limit): the job's
		 * runner says it, with the request's footprint
		 * (ab_limit_refusal())
		 */
		snprintf(why, len, "the module refused the run: above %s",
			 ab_limit_name(run->limit));
		break;
	case ENOMEM:
		snprintf(why, len,
			 "the module could not set the run up: out of memory");
		break;
	case EINVAL:
		snprintf(why, len,
			 "the module rejected the run parameters (EINVAL)");
		break;
	case EPERM:
		snprintf(
			why, len,
			"the module refused the run: AB_IOC_RUN needs CAP_SYS_ADMIN (run allocbench as root)");
		break;
	case EOPNOTSUPP:
		snprintf(
			why, len,
			"the module refused the run: this kernel is PREEMPT_RT, where allocations may sleep, so none may run with preemption or IRQs off (--context=normal works)");
		break;
	default:
		snprintf(why, len, "AB_IOC_RUN failed: %s", strerror(err));
		break;
	}
	return -err;
}

static int kmod_lookup(struct ab_lookup *l, char *why, size_t len)
{
	struct ab_lookup req;
	int err;

	if (kmod_open(why, len))
		return -ENOENT;
	l->size = sizeof(*l);
	req = *l;
	err = ab_stop_requested			? EINTR
	      : ioctl(dev_fd, AB_IOC_LOOKUP, l) ? errno
						: 0;
	if (err == EPROTO)
		err = EIO;
	err = -ab_lookup_answer_check(&req, l, -err, why, len);
	if (!err || err == EPROTO)
		return -err;
	if (err == EINTR)
		snprintf(why, len, "interrupted after %u of %u %s",
			 l->trials_done, l->trials,
			 ab_noun(l->trials, "pass", "passes"));
	else if (err == EPERM)
		snprintf(
			why, len,
			"the module refused the lookups: AB_IOC_LOOKUP needs CAP_SYS_ADMIN (run allocbench as root)");
	else
		snprintf(why, len, "AB_IOC_LOOKUP failed: %s", strerror(err));
	return -err;
}

/*
 * AB_IOC_CONDITION: build, read or undo the memory condition this process's
 * open /dev/allocbench holds (closing it, even by being killed, undoes it).
 */
static int kmod_condition(struct ab_condition *c, char *why, size_t len)
{
	int err;

	if (kmod_open(why, len))
		return -ENOENT;
	c->size = sizeof(*c);
	err = ioctl(dev_fd, AB_IOC_CONDITION, c) ? errno : 0;
	switch (err) {
	case 0:
		break;
	case EBUSY:
		snprintf(
			why, len,
			"the module holds a memory condition already (another allocbench is running one; one exists at a time)");
		break;
	case EINTR:
		snprintf(
			why, len,
			"interrupted while building the memory condition (all of it was given back)");
		break;
	case EPERM:
		snprintf(
			why, len,
			"the module refused the condition: AB_IOC_CONDITION needs CAP_SYS_ADMIN (run allocbench as root)");
		break;
	case ENOTTY:
		snprintf(
			why, len,
			"this allocbench.ko has no AB_IOC_CONDITION: load the module built with this allocbench");
		break;
	default:
		snprintf(why, len, "AB_IOC_CONDITION failed: %s",
			 strerror(err));
		break;
	}
	return -err;
}

const struct ab_backend ab_backend_kmod = {
	.name = "kmod",
	.flags = AB_BACKEND_MODULE | AB_BACKEND_REMOTE_FREE,
	.default_run = "kmalloc",
	.default_sweep = "kmalloc_node",
	.desc = "allocbench.ko through /dev/allocbench: kernel allocators",
	.probe = kmod_probe,
	.info = kmod_info,
	.run = kmod_run,
	.lookup = kmod_lookup,
	.condition = kmod_condition,
};
