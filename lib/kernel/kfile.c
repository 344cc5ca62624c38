// SPDX-License-Identifier: GPL-2.0-only
/*
 * kfile.c - the one reader of the kernel's small text files in /proc and
 * /sys (see kfile.h): a formatted path, read(2) to the end of the file or
 * of the caller's buffer, and the number and "Key: value kB" parsers on
 * top of it.
 */
#define _GNU_SOURCE
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kfile.h"

/* A number's line: 20 digits and a sign fit; a longer line is no number. */
#define NUM_LINE 64

/*
 * The int @call made with va_list ap holding the variadic arguments
 * after @last: each public call is one of these around its worker.
 */
#define WITH_ARGS(last, call)       \
	({                          \
		va_list ap;         \
		int ret_;           \
		va_start(ap, last); \
		ret_ = (call);      \
		va_end(ap);         \
		ret_;               \
	})

/* @fmt and @ap into @path (PATH_MAX bytes); 0 or -ENAMETOOLONG. */
static int kpath(char *path, const char *fmt, va_list ap)
{
	int n = vsnprintf(path, PATH_MAX, fmt, ap);

	return n < 0 || n >= PATH_MAX ? -ENAMETOOLONG : 0;
}

/* read(2) retried on EINTR: bytes, 0 at end of file, or -errno. */
static ssize_t read_some(int fd, char *buf, size_t len)
{
	ssize_t n;

	do
		n = read(fd, buf, len);
	while (n < 0 && errno == EINTR);
	return n < 0 ? -errno : n;
}

/*
 * The text of @fd into @buf (@len > 0 bytes): to the end of the file, or
 * with @line to the first newline (not stored). The bytes stored, or
 * -EFBIG when more text follows a full buffer, or -errno of read(2).
 */
static int read_fd(int fd, char *buf, size_t len, int line)
{
	size_t got = 0;
	ssize_t n;
	char *nl;
	char more;

	while (got < len - 1) {
		n = read_some(fd, buf + got, len - 1 - got);
		if (n <= 0) {
			buf[n < 0 ? 0 : got] = '\0';
			return n < 0 ? (int)n : (int)got;
		}
		nl = line ? memchr(buf + got, '\n', (size_t)n) : NULL;
		if (nl) {
			*nl = '\0';
			return (int)(nl - buf);
		}
		got += (size_t)n;
	}
	buf[got] = '\0';
	/* a full buffer: the text fits only if nothing (or a newline) follows
	 */
	n = read_some(fd, &more, 1);
	if (n < 0) {
		buf[0] = '\0';
		return (int)n;
	}
	return n == 0 || (line && more == '\n') ? (int)got : -EFBIG;
}

/* ab_kfile_read() and ab_kfile_line() on the formatted path. */
static int read_text(char *buf, size_t len, int line, const char *fmt,
		     va_list ap)
{
	char path[PATH_MAX];
	int fd, ret;

	if (!len || len > INT_MAX)
		return -EINVAL;
	buf[0] = '\0';
	ret = kpath(path, fmt, ap);
	if (ret)
		return ret;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	ret = read_fd(fd, buf, len, line);
	close(fd);
	return ret;
}

int ab_kfile_read(char *buf, size_t len, const char *fmt, ...)
{
	return WITH_ARGS(fmt, read_text(buf, len, 0, fmt, ap));
}

int ab_kfile_line(char *buf, size_t len, const char *fmt, ...)
{
	return WITH_ARGS(fmt, read_text(buf, len, 1, fmt, ap));
}

/* Whether @s holds nothing but white space. */
static int blank(const char *s)
{
	while (isspace((unsigned char)*s))
		s++;
	return !*s;
}

/*
 * @s as one decimal number, blanks around it: signed into *@sv, or with
 * @sv NULL unsigned (no sign) into *@uv. 0, -EINVAL or -ERANGE.
 */
static int parse_num(const char *s, long long *sv, uint64_t *uv)
{
	unsigned long long u = 0;
	long long x = 0;
	char *end;

	while (isspace((unsigned char)*s))
		s++;
	if (!sv && !isdigit((unsigned char)*s))
		return -EINVAL;
	errno = 0;
	if (sv)
		x = strtoll(s, &end, 10);
	else
		u = strtoull(s, &end, 10);
	if (end == s || !blank(end))
		return -EINVAL;
	if (errno == ERANGE)
		return -ERANGE;
	if (sv)
		*sv = x;
	else
		*uv = u;
	return 0;
}

/* The first line of the formatted path as a number (see parse_num()). */
static int read_num(long long *sv, uint64_t *uv, const char *fmt, va_list ap)
{
	char buf[NUM_LINE];
	int ret = read_text(buf, sizeof(buf), 1, fmt, ap);

	if (ret == -EFBIG)
		return -EINVAL;
	return ret < 0 ? ret : parse_num(buf, sv, uv);
}

int ab_kfile_int(long long *v, const char *fmt, ...)
{
	return WITH_ARGS(fmt, read_num(v, NULL, fmt, ap));
}

int ab_kfile_u64(uint64_t *v, const char *fmt, ...)
{
	return WITH_ARGS(fmt, read_num(NULL, v, fmt, ap));
}

/* The value after "KEY:" (@s), a number and an optional kB, in bytes. */
static int field_value(const char *s, uint64_t *v)
{
	unsigned long long x;
	char *end;

	while (isspace((unsigned char)*s))
		s++;
	if (!isdigit((unsigned char)*s))
		return -EINVAL;
	errno = 0;
	x = strtoull(s, &end, 10);
	if (errno == ERANGE)
		return -ERANGE;
	while (*end == ' ' || *end == '\t')
		end++;
	if (!strncmp(end, "kB", 2) && blank(end + 2)) {
		if (x > UINT64_MAX / 1024)
			return -ERANGE;
		*v = (uint64_t)x * 1024;
		return 0;
	}
	if (!blank(end))
		return -EINVAL;
	*v = x;
	return 0;
}

int ab_kfile_field(uint64_t *v, const char *key, const char *fmt, ...)
{
	char path[PATH_MAX], *line = NULL;
	size_t cap = 0, klen = strlen(key);
	int ret = WITH_ARGS(fmt, kpath(path, fmt, ap));
	FILE *f;

	if (ret)
		return ret;
	ret = -ENODATA;
	f = fopen(path, "re");
	if (!f)
		return -errno;
	errno = 0;
	while (ret == -ENODATA && getline(&line, &cap, f) >= 0)
		if (!strncmp(line, key, klen) && line[klen] == ':')
			ret = field_value(line + klen + 1, v);
	if (ret == -ENODATA && ferror(f))
		ret = errno ? -errno : -EIO;
	free(line);
	fclose(f);
	return ret;
}

int ab_kallsyms_each(int (*fn)(uint64_t addr, const char *name, void *ctx),
		     void *ctx)
{
	char line[512], sym[256], type;
	unsigned long long addr;
	FILE *fp = ab_kfile_open("/proc/kallsyms");
	int ret = 0;

	if (!fp)
		return -1;
	while (!ret && fgets(line, sizeof(line), fp))
		if (sscanf(line, "%llx %c %255s", &addr, &type, sym) == 3 &&
		    (type == 't' || type == 'T'))
			ret = fn((uint64_t)addr, sym, ctx);
	fclose(fp);
	return ret;
}

FILE *ab_kfile_open(const char *fmt, ...)
{
	char path[PATH_MAX];
	int ret = WITH_ARGS(fmt, kpath(path, fmt, ap));

	if (ret) {
		errno = -ret;
		return NULL;
	}
	return fopen(path, "re");
}
