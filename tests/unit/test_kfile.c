// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_kfile.c - the reader of the kernel's small files (lib/kfile.h) on
 * a tree of its own: each error (missing file, empty, too long, not a
 * number, no such key, a path too long) and the truncation rule, then
 * the real /proc once.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "kfile.h"

static char root[64];

/* the fake files, written by setup() and removed by teardown() */
static const struct {
	const char *name;
	const char *text;
} files[] = {
	{ "empty", "" },
	{ "online", "1\n" },
	{ "lines", "first line\nsecond\n" },
	{ "nonl", "no newline" },
	{ "paranoid", "-1\n" },
	{ "padded", "  42 \t\n" },
	{ "big", "18446744073709551615\n" },
	{ "huge", "18446744073709551616\n" },
	{ "word", "cpu_core\n" },
	{ "trailing", "12abc\n" },
	{ "hex", "0x10\n" },
	{ "long", "012345678901234567890123456789012345678901234567890123456789"
		  "0123456789\n" },
	{ "meminfo", "MemTotal:       16307196 kB\n"
		     "MemFree:          123456 kB\n"
		     "MemAvailable:    8000000 kB\n"
		     "HugePages_Total:       7\n"
		     "Bad:              12 MB\n"
		     "Word:             many\n"
		     "Overflow: 18446744073709551615 kB\n" },
};

#define NFILES (sizeof(files) / sizeof(files[0]))

static int setup(void **state)
{
	char p[256];
	size_t i, n;
	int fd;

	snprintf(root, sizeof(root), "/tmp/ab-kfile-XXXXXX");
	if (!mkdtemp(root))
		return -1;
	for (i = 0; i < NFILES; i++) {
		snprintf(p, sizeof(p), "%s/%s", root, files[i].name);
		fd = open(p, O_WRONLY | O_CREAT | O_EXCL, 0644);
		n = strlen(files[i].text);
		if (fd < 0 || write(fd, files[i].text, n) != (ssize_t)n)
			return -1;
		close(fd);
	}
	return 0;
}

static int teardown(void **state)
{
	char p[256];
	size_t i;

	for (i = 0; i < NFILES; i++) {
		snprintf(p, sizeof(p), "%s/%s", root, files[i].name);
		unlink(p);
	}
	return rmdir(root);
}

/*
 * Every reader on the file @name: ab_kfile_read() and ab_kfile_line()
 * return @text (leaving "" on an error), the number readers @num and the
 * field reader @field (leaving the number as it was on an error)
 */
static void every_reader(const char *name, int text, int num, int field)
{
	char buf[16] = "x";
	long long v = 5;
	uint64_t u = 5;

	assert_int_equal(ab_kfile_read(buf, sizeof(buf), "%s/%s", root, name),
			 text);
	assert_string_equal(buf, "");
	strcpy(buf, "x");
	assert_int_equal(ab_kfile_line(buf, sizeof(buf), "%s/%s", root, name),
			 text);
	assert_string_equal(buf, "");
	assert_int_equal(ab_kfile_int(&v, "%s/%s", root, name), num);
	assert_int_equal(v, 5);
	assert_int_equal(ab_kfile_u64(&u, "%s/%s", root, name), num);
	assert_int_equal(ab_kfile_field(&u, "MemTotal", "%s/%s", root, name),
			 field);
	assert_int_equal(u, 5);
}

/* a missing file: open(2)'s -ENOENT from every reader, nothing stored */
static void test_missing(void **state)
{
	char buf[16];

	every_reader("none", -ENOENT, -ENOENT, -ENOENT);
	assert_null(ab_kfile_open("%s/none", root));
	assert_int_equal(errno, ENOENT);
	/* a directory is no file to read */
	assert_int_equal(ab_kfile_read(buf, sizeof(buf), "%s", root), -EISDIR);
}

/* an empty file: no text (0), but no number and no key */
static void test_empty(void **state)
{
	every_reader("empty", 0, -EINVAL, -ENODATA);
}

/* whole files and first lines, as they are */
static void test_text(void **state)
{
	char buf[64];

	assert_int_equal(ab_kfile_read(buf, sizeof(buf), "%s/lines", root), 18);
	assert_string_equal(buf, "first line\nsecond\n");
	assert_int_equal(ab_kfile_line(buf, sizeof(buf), "%s/lines", root), 10);
	assert_string_equal(buf, "first line");
	assert_int_equal(ab_kfile_line(buf, sizeof(buf), "%s/nonl", root), 10);
	assert_string_equal(buf, "no newline");
	assert_int_equal(
		ab_kfile_line(buf, sizeof(buf), "%s/%s", root, "online"), 1);
	assert_string_equal(buf, "1");
	/* a bad buffer size */
	assert_int_equal(ab_kfile_read(buf, 0, "%s/lines", root), -EINVAL);
}

/*
 * Too long for the buffer: -EFBIG with the first len - 1 bytes kept; a
 * text of exactly len - 1 bytes fits, and so does a first line of that
 * length whatever follows its newline
 */
static void test_too_long(void **state)
{
	char buf[11];

	assert_int_equal(ab_kfile_read(buf, sizeof(buf), "%s/lines", root),
			 -EFBIG);
	assert_string_equal(buf, "first line");
	assert_int_equal(ab_kfile_read(buf, sizeof(buf), "%s/nonl", root), 10);
	assert_string_equal(buf, "no newline");
	assert_int_equal(ab_kfile_line(buf, sizeof(buf), "%s/lines", root), 10);
	assert_string_equal(buf, "first line");
	assert_int_equal(ab_kfile_line(buf, 6, "%s/lines", root), -EFBIG);
	assert_string_equal(buf, "first");
	assert_int_equal(ab_kfile_line(buf, 1, "%s/lines", root), -EFBIG);
	assert_string_equal(buf, "");
	assert_int_equal(ab_kfile_line(buf, 1, "%s/empty", root), 0);
}

/* numbers: signs, blanks, 64 bits; anything else is not one */
static void test_numbers(void **state)
{
	static const char *const bad[] = { "word", "trailing", "hex", "lines",
					   "long" };
	long long v = 0;
	uint64_t u = 0;
	size_t i;

	assert_int_equal(ab_kfile_int(&v, "%s/online", root), 0);
	assert_int_equal(v, 1);
	assert_int_equal(ab_kfile_int(&v, "%s/paranoid", root), 0);
	assert_int_equal(v, -1);
	assert_int_equal(ab_kfile_int(&v, "%s/padded", root), 0);
	assert_int_equal(v, 42);
	assert_int_equal(ab_kfile_u64(&u, "%s/padded", root), 0);
	assert_int_equal(u, 42);
	assert_int_equal(ab_kfile_u64(&u, "%s/big", root), 0);
	assert_true(u == UINT64_MAX);
	assert_int_equal(ab_kfile_int(&v, "%s/big", root), -ERANGE);
	assert_int_equal(ab_kfile_u64(&u, "%s/huge", root), -ERANGE);
	assert_true(u == UINT64_MAX);
	/* no sign for an unsigned number */
	assert_int_equal(ab_kfile_u64(&u, "%s/paranoid", root), -EINVAL);
	v = u = 7;
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		assert_int_equal(ab_kfile_int(&v, "%s/%s", root, bad[i]),
				 -EINVAL);
		assert_int_equal(ab_kfile_u64(&u, "%s/%s", root, bad[i]),
				 -EINVAL);
	}
	assert_int_equal(v, 7);
	assert_int_equal(u, 7);
}

/* "Key: value kB" lines: bytes for kB, the number for a count */
static void test_field(void **state)
{
	uint64_t v = 0;

	assert_int_equal(ab_kfile_field(&v, "MemTotal", "%s/meminfo", root), 0);
	assert_true(v == 16307196ULL * 1024);
	assert_int_equal(ab_kfile_field(&v, "MemAvailable", "%s/meminfo", root),
			 0);
	assert_true(v == 8000000ULL * 1024);
	assert_int_equal(
		ab_kfile_field(&v, "HugePages_Total", "%s/meminfo", root), 0);
	assert_int_equal(v, 7);
	/* a key is the whole name before the colon */
	assert_int_equal(ab_kfile_field(&v, "Mem", "%s/meminfo", root),
			 -ENODATA);
	assert_int_equal(ab_kfile_field(&v, "Cached", "%s/meminfo", root),
			 -ENODATA);
	assert_int_equal(ab_kfile_field(&v, "Bad", "%s/meminfo", root),
			 -EINVAL);
	assert_int_equal(ab_kfile_field(&v, "Word", "%s/meminfo", root),
			 -EINVAL);
	assert_int_equal(ab_kfile_field(&v, "Overflow", "%s/meminfo", root),
			 -ERANGE);
	assert_int_equal(v, 7);
}

/* a path that does not fit in PATH_MAX */
static void test_path_too_long(void **state)
{
	char *name = malloc(PATH_MAX + 1), buf[8];
	long long v;
	uint64_t u;

	assert_non_null(name);
	memset(name, 'a', PATH_MAX);
	name[PATH_MAX] = '\0';
	assert_int_equal(ab_kfile_read(buf, sizeof(buf), "/%s", name),
			 -ENAMETOOLONG);
	assert_int_equal(ab_kfile_line(buf, sizeof(buf), "/%s", name),
			 -ENAMETOOLONG);
	assert_int_equal(ab_kfile_int(&v, "/%s", name), -ENAMETOOLONG);
	assert_int_equal(ab_kfile_u64(&u, "/%s", name), -ENAMETOOLONG);
	assert_int_equal(ab_kfile_field(&u, "MemTotal", "/%s", name),
			 -ENAMETOOLONG);
	assert_null(ab_kfile_open("/%s", name));
	assert_int_equal(errno, ENAMETOOLONG);
	free(name);
}

/* the real /proc: a seq_file read in pieces, a stream, a field */
static void test_proc(void **state)
{
	char buf[8], line[256];
	uint64_t total = 0;
	long long pid = 0;
	FILE *f;

	assert_int_equal(ab_kfile_field(&total, "MemTotal", "/proc/meminfo"),
			 0);
	assert_true(total > 0 && total % 1024 == 0);
	assert_int_equal(ab_kfile_int(&pid, "/proc/sys/kernel/pid_max"), 0);
	assert_true(pid > 0);
	/* /proc/meminfo is longer than 7 bytes */
	assert_int_equal(ab_kfile_read(buf, sizeof(buf), "/proc/meminfo"),
			 -EFBIG);
	assert_int_equal(strlen(buf), 7);
	f = ab_kfile_open("%s/stat", "/proc");
	assert_non_null(f);
	assert_non_null(fgets(line, sizeof(line), f));
	assert_int_equal(strncmp(line, "cpu ", 4), 0);
	fclose(f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_missing),
		cmocka_unit_test(test_empty),
		cmocka_unit_test(test_text),
		cmocka_unit_test(test_too_long),
		cmocka_unit_test(test_numbers),
		cmocka_unit_test(test_field),
		cmocka_unit_test(test_path_too_long),
		cmocka_unit_test(test_proc),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
