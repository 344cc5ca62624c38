// SPDX-License-Identifier: GPL-2.0
/*
 * uaccess.c - what every ioctl of allocbench.ko shares with the caller:
 * its struct copied in with copy_struct_from_user() rules and the part
 * both sides know copied back (include/uapi/linux/allocbench.h), and the
 * clock's rate the results are converted with.
 */

#include <linux/kernel.h>
#include <linux/mm.h>
#include <linux/uaccess.h>
#ifdef CONFIG_X86
#include <asm/tsc.h>
#endif
#include "ab_internal.h"

u32 ab_tsc_khz(void)
{
#ifdef CONFIG_X86
	return tsc_khz;
#else
	return 0;
#endif
}

/*
 * Reads a struct that starts with its own __u32 size, with
 * copy_struct_from_user() semantics (see the uapi header). Returns the
 * caller's size, or -errno.
 */
long ab_copy_in(void *karg, size_t ksize, size_t ver0, void __user *uarg)
{
	u32 usize;
	int err;

	if (get_user(usize, (u32 __user *)uarg))
		return -EFAULT;
	if (usize < ver0)
		return -EINVAL;
	if (usize > PAGE_SIZE)
		return -E2BIG;
	err = copy_struct_from_user(karg, ksize, uarg, usize);
	if (err)
		return err;
	return usize;
}

/* Writes back the part of @karg both sides know; *size says how much. */
int ab_copy_out(void __user *uarg, void *karg, size_t ksize, u32 usize)
{
	u32 n = min_t(u32, usize, ksize);

	*(u32 *)karg = n;
	return copy_to_user(uarg, karg, n) ? -EFAULT : 0;
}
