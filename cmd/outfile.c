// SPDX-License-Identifier: GPL-2.0-only
/* outfile.c - the files a command is asked to write (see outfile.h). */
#define _GNU_SOURCE /* asprintf, mkostemp */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "outfile.h"

/* A temporary beside @f->target: 0, 1 when none can be made there, -1 */
static int open_temp(struct ab_outfile *f, const struct stat *st)
{
	const char *slash = strrchr(f->target, '/');
	int dir = slash ? (int)(slash - f->target + 1) : 0;
	mode_t mask;

	if (asprintf(&f->temp, "%.*s.%s.XXXXXX", dir, f->target,
		     f->target + dir) < 0) {
		f->temp = NULL;
		return -1;
	}
	f->fd = mkostemp(f->temp, O_CLOEXEC);
	if (f->fd < 0) {
		free(f->temp);
		f->temp = NULL;
		return 1;
	}
	if (st) {
		(void)!fchown(f->fd, st->st_uid, st->st_gid);
		(void)!fchmod(f->fd, st->st_mode & 07777);
	} else {
		mask = umask(0);
		umask(mask);
		(void)!fchmod(f->fd, 0666 & ~mask);
	}
	return 0;
}

int ab_outfile_open(struct ab_outfile *f, const char *path)
{
	struct stat st;
	int exists, ret;

	*f = (struct ab_outfile){ .fd = -1 };
	exists = !stat(path, &st);
	/* a regular file, or a free name (not a dangling symlink) */
	if (exists ? S_ISREG(st.st_mode)
		   : errno == ENOENT && lstat(path, &st)) {
		f->target = exists ? realpath(path, NULL) : strdup(path);
		if (!f->target)
			return -1;
		ret = open_temp(f, exists ? &st : NULL);
		if (ret <= 0) {
			if (ret < 0) {
				free(f->target);
				f->target = NULL;
			}
			return ret;
		}
		free(f->target);
		f->target = NULL;
	}
	f->fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOCTTY,
		     0666);
	if (f->fd >= 0)
		f->created = 1;
	else if (errno == EEXIST)
		f->fd = open(path, O_WRONLY | O_CLOEXEC | O_NOCTTY);
	if (f->fd < 0)
		return -1;
	f->regular = !fstat(f->fd, &st) && S_ISREG(st.st_mode);
	if (f->created)
		f->target = strdup(path);
	return 0;
}

int ab_outfile_end(struct ab_outfile *f, int keep)
{
	off_t end;
	int ret = 0, e = 0;

	if (f->temp) {
		if (keep && rename(f->temp, f->target)) {
			e = errno;
			ret = -1;
		}
		if (!keep || ret)
			unlink(f->temp);
	} else if (f->created && !keep) {
		if (f->target)
			unlink(f->target);
	} else if (f->regular) {
		/* a pipe or a device has no length to set */
		end = lseek(f->fd, 0, SEEK_CUR);
		if (end >= 0 && ftruncate(f->fd, end)) {
			e = errno;
			ret = -1;
		}
	}
	free(f->temp);
	free(f->target);
	f->temp = f->target = NULL;
	errno = e;
	return ret;
}
