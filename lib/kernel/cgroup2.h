/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * cgroup2.h - the small steps both users of cgroup v2 take (--isolate's
 * cpuset partition, isolate.c; --memcg's memory cgroup, memcg.c): find a
 * mount, read and write an interface file with one sentence on error.
 * Plain reads and writes of the files that the kernel's
 * Documentation/admin-guide/cgroup-v2.rst describes.
 */
#ifndef AB_CGROUP2_H
#define AB_CGROUP2_H

#include <stddef.h>

/* ab_cg_has_word - whether @word is one of the words of @list split at @sep */
int ab_cg_has_word(const char *list, const char *word, const char *sep);

/*
 * ab_cg_path_join - "@dir/@name" into @buf (PATH_MAX bytes). Returns 0 or
 * -ENAMETOOLONG.
 */
int ab_cg_path_join(char *buf, const char *dir, const char *name);

/*
 * ab_cg_find_mount - whether /proc/mounts has a file system of type @type,
 * at @dir unless @dir is NULL, with the mount option @opt unless @opt is
 * NULL. The first one's mount point goes to @out (@len bytes) unless @out
 * is NULL. Returns 1 or 0 (also when /proc/mounts cannot be read).
 */
int ab_cg_find_mount(const char *dir, const char *type, const char *opt,
		     char *out, size_t len);

/*
 * ab_cg_write - @s into @file in one write(2), as a cgroup interface file
 * takes a value. Returns 0 or -errno: the kernel's answer to the write
 * (EINVAL, EBUSY, ...), -EIO for a short write.
 */
int ab_cg_write(const char *file, const char *s);

/*
 * ab_cg_get, ab_cg_put - read the interface file @name of the cgroup
 * directory @dir, one line, into @val (@vlen bytes, without its newline;
 * -EFBIG when longer), or write @val to it. Return 0 or -errno, with one
 * sentence in @err (@len bytes; none when @err is NULL) that starts with
 * @who ("--isolate") and names the file (and the value) and the kernel's
 * reason.
 */
int ab_cg_get(const char *who, const char *dir, const char *name, char *val,
	      size_t vlen, char *err, size_t len);
int ab_cg_put(const char *who, const char *dir, const char *name,
	      const char *val, char *err, size_t len);

#endif
