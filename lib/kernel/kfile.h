/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * kfile.h - reading the kernel's small text files, /proc and /sys alike:
 * the whole file, its first line, one integer, or one "Key: value kB"
 * line of a /proc/meminfo-like file; and a stream for the large ones
 * (/proc/stat, /proc/kallsyms) read line by line.
 *
 * Paths: every call takes its path as a printf format and its arguments,
 * so a root prefix costs the caller no buffer of its own:
 * ab_kfile_line(buf, len, "%s/proc/cmdline", root), root "" for this
 * machine and a directory laid out the same way in tests. The formatted
 * path holds at most PATH_MAX - 1 bytes.
 *
 * Reading: open(2) with O_RDONLY | O_CLOEXEC, then read(2) until end of
 * file or a full buffer (a seq_file in /proc may answer in pieces;
 * EINTR is retried). The text is NUL-terminated; a NUL byte in the file
 * ends it as a string but not the count of bytes read.
 *
 * Errors are negative errno values, the same in every call:
 *   -ENAMETOOLONG  the formatted path is PATH_MAX bytes or longer
 *   -ENOENT, -EACCES, -EIO, ...
 *                  open(2)'s or read(2)'s own (-ENOENT: no such file, as
 *                  on a kernel without the feature that makes it)
 *   -EFBIG         the text does not fit in the caller's buffer. The
 *                  truncation rule: a cut is never silent, but the
 *                  buffer then holds the first @len - 1 bytes of the text,
 *                  NUL-terminated, for a caller content with a prefix
 *   -EINVAL        a number reader's text is not one number (an empty
 *                  file included); a @len of 0 or above INT_MAX
 *   -ERANGE        a number outside the type's range
 *   -ENODATA       ab_kfile_field() found no line with its key
 * After an error other than -EFBIG a buffer holds "" and a number is left
 * as it was.
 */
#ifndef AB_KFILE_H
#define AB_KFILE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define AB_KFILE_PRINTF(fmt_arg) \
	__attribute__((format(printf, fmt_arg, fmt_arg + 1)))

/*
 * ab_kfile_read - the whole file into @buf (@len bytes, at most
 * INT_MAX), NUL-terminated, newlines kept. Returns the bytes read (at
 * most @len - 1), or a negative errno (-EFBIG: longer than @len - 1
 * bytes, @buf holding the first @len - 1).
 */
int ab_kfile_read(char *buf, size_t len, const char *fmt, ...)
	AB_KFILE_PRINTF(3);

/*
 * ab_kfile_line - the file's first line into @buf (@len bytes, at most
 * INT_MAX), without its newline; what follows the newline is not read.
 * Returns the line's length (0 for an empty file or line), or a negative
 * errno (-EFBIG: a first line longer than @len - 1 bytes, @buf holding
 * the first @len - 1).
 */
int ab_kfile_line(char *buf, size_t len, const char *fmt, ...)
	AB_KFILE_PRINTF(3);

/*
 * ab_kfile_int - the file's first line as one decimal integer into *@v:
 * an optional sign, then digits, blanks around them allowed ("2\n",
 * "-1\n"). Returns 0, or a negative errno (-EINVAL: anything else, an
 * empty file or a first line of 64 bytes or more included; -ERANGE:
 * beyond long long).
 */
int ab_kfile_int(long long *v, const char *fmt, ...) AB_KFILE_PRINTF(2);

/*
 * ab_kfile_u64 - the same as ab_kfile_int() for an unsigned number: no
 * sign (-EINVAL for "-1"), -ERANGE beyond 64 bits.
 */
int ab_kfile_u64(uint64_t *v, const char *fmt, ...) AB_KFILE_PRINTF(2);

/*
 * ab_kfile_field - the value of the line "@key: NUMBER" or
 * "@key: NUMBER kB" of a file of such lines (/proc/meminfo,
 * /proc/self/status; /sys/devices/system/node/nodeN/meminfo with @key
 * "Node N MemFree"), into *@v: in bytes when the file gives kB (the
 * kernel's kB are KiB: times 1024), else the number as written (a count,
 * HugePages_Total). Lines of any length; the first line with @key
 * counts. Returns 0, or a negative errno (-ENODATA: no line with @key;
 * -EINVAL: its value is not a number with an optional kB; -ERANGE: beyond
 * 64 bits, in bytes).
 */
int ab_kfile_field(uint64_t *v, const char *key, const char *fmt, ...)
	AB_KFILE_PRINTF(3);

/*
 * ab_kfile_open - a file too large for one buffer (/proc/stat,
 * /proc/cpuinfo, /proc/kallsyms, /proc/mounts), opened for reading line
 * by line ("re": O_CLOEXEC). Returns the stream, or NULL with errno set
 * (ENAMETOOLONG for the path, else fopen(3)'s).
 */
FILE *ab_kfile_open(const char *fmt, ...) AB_KFILE_PRINTF(1);

/*
 * ab_kallsyms_each - /proc/kallsyms' one reader: @fn(@addr, @name, @ctx)
 * for each function (symbol type t or T) in the file's order, until @fn
 * returns nonzero. Returns that value, 0 at the end, -1 when the file
 * cannot be read. @addr is 0 for a reader without CAP_SYSLOG
 * (kptr_restrict); @name holds at most 255 characters.
 */
int ab_kallsyms_each(int (*fn)(uint64_t addr, const char *name, void *ctx),
		     void *ctx);

#endif
