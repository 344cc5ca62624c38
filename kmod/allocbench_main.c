// SPDX-License-Identifier: GPL-2.0
/*
 * allocbench_main.c - /dev/allocbench, the device of allocbench.ko: its
 * open files, the ioctls handed to the files that serve them, and the
 * module's load (its self-checks) and unload.
 *
 * AB_IOC_INFO (info.c) reports the ABI version, the limits and the
 * strategy table. AB_IOC_RUN (run.c) validates every field of struct
 * ab_run, then runs the strategy in the calling thread (driver.c):
 * warm-up trials, then measured trials, each an alloc phase and a free
 * phase timed with the ordered cycle counter (common/ab_clock.h), and an
 * untimed node-check trial after the warm-up and before every
 * AB_CHECK_EVERY measured trials. Every object allocated in a trial is
 * freed in the same trial, on every path; ab_outstanding (driver.c)
 * counts the objects held between the two phases and is 0 whenever no run
 * is active.
 * AB_IOC_LOOKUP (lookup.c) times size-class lookups. AB_IOC_CONDITION
 * (condition.c) builds and undoes the memory state runs are measured in.
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/module.h>
#include <linux/miscdevice.h>
#include <linux/fs.h>
#include <linux/slab.h>
#include <linux/mm.h>
#include <linux/vmalloc.h>
#include <linux/capability.h>
#include "ab_internal.h"
#include "ab_footprint.h"
#include "ab_lookup.h"

/*
 * The footprint rule of common/ab_footprint.h against the kernel it runs
 * in: kmalloc_size_roundup() of every size up to KMALLOC_MAX_CACHE_SIZE
 * and of each page order's edges up to KMALLOC_MAX_SIZE (SLUB and SLAB;
 * SLOB rounds otherwise and is left unchecked). Returns 0, or the first
 * size where they differ.
 */
static u64 ab_footprint_selfcheck(void)
{
	u64 size, fp;
	unsigned int order;

	/* the constants ab_footprint.h takes from x86_64 */
	BUILD_BUG_ON(sizeof(struct page *) != AB_PAGE_PTR_BYTES);
	BUILD_BUG_ON(sizeof(struct vm_struct) > AB_VMALLOC_META_BYTES / 2 ||
		     sizeof(struct vmap_area) > AB_VMALLOC_META_BYTES / 2);
#ifdef PMD_SIZE
	if (ab_huge_vmap_bytes(PAGE_SIZE) != PMD_SIZE)
		return PMD_SIZE;
#endif
	if (IS_ENABLED(CONFIG_SLOB))
		return 0;
	for (size = 1; size <= KMALLOC_MAX_CACHE_SIZE; size++)
		if (ab_kmalloc_bytes(size, PAGE_SIZE) !=
		    kmalloc_size_roundup(size))
			return size;
	for (order = 0; order <= AB_MAX_PAGE_ORDER; order++) {
		size = (u64)PAGE_SIZE << order;
		fp = ab_kmalloc_bytes(size + 1, PAGE_SIZE);
		if (ab_kmalloc_bytes(size, PAGE_SIZE) !=
		    kmalloc_size_roundup(size))
			return size;
		if (size + 1 <= KMALLOC_MAX_SIZE &&
		    fp != kmalloc_size_roundup(size + 1))
			return size + 1;
	}
	return 0;
}

/* Each open file's state: the caches its runs kept (AB_RUN_KEEP_CACHE). */
static int ab_open(struct inode *inode, struct file *file)
{
	struct ab_file *f = kzalloc(sizeof(*f), GFP_KERNEL);

	if (!f)
		return -ENOMEM;
	INIT_LIST_HEAD(&f->kept);
	file->private_data = f;
	return nonseekable_open(inode, file);
}

static int ab_release(struct inode *inode, struct file *file)
{
	struct ab_file *f = file->private_data;

	ab_cond_release(f);
	ab_caches_release(&f->kept, true);
	kfree(f);
	return 0;
}

static long ab_ioctl(struct file *file, unsigned int cmd, unsigned long arg)
{
	void __user *uarg = (void __user *)arg;

	if (_IOC_TYPE(cmd) != AB_IOC_MAGIC ||
	    _IOC_DIR(cmd) != (_IOC_READ | _IOC_WRITE))
		return -ENOTTY;
	switch (_IOC_NR(cmd)) {
	case _IOC_NR(AB_IOC_INFO):
		return ab_ioctl_info(uarg);
	/*
	 * These run code in the kernel and take its memory: the 0600
	 * node is not enough, as an open descriptor can be passed on.
	 */
	case _IOC_NR(AB_IOC_RUN):
		if (!capable(CAP_SYS_ADMIN))
			return -EPERM;
		return ab_ioctl_run(file->private_data, uarg);
	case _IOC_NR(AB_IOC_LOOKUP):
		if (!capable(CAP_SYS_ADMIN))
			return -EPERM;
		return ab_ioctl_lookup(uarg);
	case _IOC_NR(AB_IOC_CONDITION):
		if (!capable(CAP_SYS_ADMIN))
			return -EPERM;
		return ab_ioctl_condition(file->private_data, uarg);
	default:
		return -ENOTTY;
	}
}

static const struct file_operations ab_fops = {
	.owner = THIS_MODULE,
	.open = ab_open,
	.release = ab_release,
	.unlocked_ioctl = ab_ioctl,
	.compat_ioctl = compat_ptr_ioctl,
};

static struct miscdevice ab_misc = {
	.minor = MISC_DYNAMIC_MINOR,
	.name = AB_DEVICE_NAME,
	.fops = &ab_fops,
	.mode = 0600,
};

static int __init ab_init(void)
{
	u32 method, table, size;
	u64 fp_size;
	int err;

	BUILD_BUG_ON(sizeof(struct ab_info) != AB_INFO_SIZE_VER4);
	BUILD_BUG_ON(sizeof(struct ab_run) != AB_RUN_SIZE_VER10);
	BUILD_BUG_ON(offsetof(struct ab_run, map_pages) != AB_RUN_SIZE_VER8);
	BUILD_BUG_ON(offsetof(struct ab_run, mem_free_min) != AB_RUN_SIZE_VER2);
	BUILD_BUG_ON(offsetof(struct ab_run, mem_objects) != AB_RUN_SIZE_VER0);
	BUILD_BUG_ON(offsetof(struct ab_run, cache_name) != AB_RUN_SIZE_VER1);
	BUILD_BUG_ON(offsetof(struct ab_run, pool_min) != AB_RUN_SIZE_VER7);
	BUILD_BUG_ON(sizeof_field(struct ab_ctx, cache_name) !=
		     AB_CACHE_NAME_LEN);
	BUILD_BUG_ON(sizeof(struct ab_lookup) != AB_LOOKUP_SIZE_VER0);
	/* the lookups must agree with the reference, or nothing is timed */
	size = ab_lookup_selfcheck(&method, &table);
	if (size) {
		pr_err("lookup self-check failed: method %u, table %u, size %u\n",
		       method, table, size == 0xffffffffu ? 0 : size);
		return -EINVAL;
	}
	/* the budget counts kmalloc objects as this kernel rounds them */
	fp_size = ab_footprint_selfcheck();
	if (fp_size) {
		pr_err("footprint self-check failed at %llu bytes: common/ab_footprint.h does not match this kernel (kmalloc_size_roundup(), PMD_SIZE)\n",
		       fp_size);
		return -EINVAL;
	}
	BUILD_BUG_ON(sizeof(struct ab_sample) % 8);
	BUILD_BUG_ON(sizeof(struct ab_strategy_info) % 8);
	err = ab_drv_init();
	if (err)
		return err;
	err = misc_register(&ab_misc);
	if (err)
		ab_drv_exit();
	return err;
}

static void __exit ab_exit(void)
{
	misc_deregister(&ab_misc);
	ab_drv_exit();
}

module_init(ab_init);
module_exit(ab_exit);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("allocbench: kernel allocator microbenchmarks over ioctl");
MODULE_VERSION(AB_MODULE_VERSION);
