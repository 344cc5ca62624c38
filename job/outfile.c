// SPDX-License-Identifier: GPL-2.0-only
/* outfile.c - the files a command is asked to write (see outfile.h). */
#define _GNU_SOURCE /* asprintf, mkostemp */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/xattr.h>
#include <unistd.h>

#include "outfile.h"

/*
 * The temporaries open now (-o, and plot's --script): a signal that would
 * end the process removes them (on_signal()) where no command handles it.
 */
#define MAX_TEMPS 4
static char *volatile temps[MAX_TEMPS];

static void remove_temps(void)
{
	int i;

	for (i = 0; i < MAX_TEMPS; i++)
		if (temps[i])
			unlink(temps[i]);
}

static void on_signal(int sig)
{
	remove_temps();
	signal(sig, SIG_DFL);
	raise(sig);
}

static void temp_track(char *name, int add)
{
	static const int sigs[] = { SIGINT, SIGTERM, SIGHUP, SIGXFSZ };
	static int at_exit;
	struct sigaction sa;
	unsigned int i;

	for (i = 0; i < MAX_TEMPS; i++)
		if (add ? !temps[i] : temps[i] == name) {
			temps[i] = add ? name : NULL;
			break;
		}
	if (!add)
		return;
	/* an exit() on an error path too */
	if (!at_exit)
		at_exit = !atexit(remove_temps);
	/* only where the command leaves the signal to end the process */
	for (i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++)
		if (!sigaction(sigs[i], NULL, &sa) && sa.sa_handler == SIG_DFL)
			signal(sigs[i], on_signal);
}

/*
 * A temporary beside @f->target (".NAME.XXXXXX", or ".allocbench.XXXXXX"
 * where that name would be too long), with the mode and owner of @st (a
 * new file: 0666 less the umask): 0, 1 when none can be made there or the
 * owner cannot be kept (write in place), -1.
 */
static int open_temp(struct ab_outfile *f, const struct stat *st)
{
	const char *slash = strrchr(f->target, '/');
	int dir = slash ? (int)(slash - f->target + 1) : 0;
	const char *base = f->target + dir;
	mode_t mask;

	if (strlen(base) + 9 > NAME_MAX)
		base = "allocbench";
	if (asprintf(&f->temp, "%.*s.%s.XXXXXX", dir, f->target, base) < 0) {
		f->temp = NULL;
		free(f->target);
		f->target = NULL;
		return -1;
	}
	f->fd = mkostemp(f->temp, O_CLOEXEC);
	if (f->fd < 0) {
		free(f->temp);
		f->temp = NULL;
		return 1;
	}
	if (st) {
		if (fchown(f->fd, st->st_uid, st->st_gid) &&
		    (st->st_uid != geteuid() || st->st_gid != getegid())) {
			/* another's file stays theirs: written in place */
			close(f->fd);
			unlink(f->temp);
			free(f->temp);
			f->temp = NULL;
			f->fd = -1;
			return 1;
		}
		(void)!fchmod(f->fd, st->st_mode & 07777);
	} else {
		mask = umask(0);
		umask(mask);
		(void)!fchmod(f->fd, 0666 & ~mask);
	}
	temp_track(f->temp, 1);
	return 0;
}

int ab_outfile_open(struct ab_outfile *f, const char *path)
{
	struct stat st;
	int exists, ret;

	*f = (struct ab_outfile){ .fd = -1, .place = -1 };
	/* no file: rename() would refuse it only at the end */
	if (!*path) {
		errno = ENOENT;
		return -1;
	}
	exists = !stat(path, &st);
	if (exists && S_ISREG(st.st_mode)) {
		/* the file must be writable by this user, as before: opened
		 * (not emptied) now, and written in place when the temporary
		 * cannot replace it (hard links, another's file, a bind mount)
		 */
		f->place = open(path, O_WRONLY | O_CLOEXEC | O_NOCTTY);
		if (f->place < 0)
			return -1;
		/* kept above the standard descriptors, which stay theirs */
		if (f->place <= STDERR_FILENO) {
			ret = fcntl(f->place, F_DUPFD_CLOEXEC,
				    STDERR_FILENO + 1);
			close(f->place);
			f->place = ret;
			if (ret < 0)
				return -1;
		}
		/* hard links and extended attributes (ACLs among them) stay
		 * the file's: written in place */
		if (st.st_nlink == 1 && flistxattr(f->place, NULL, 0) <= 0) {
			f->target = realpath(path, NULL);
			ret = f->target ? open_temp(f, &st) : -1;
			if (!ret)
				return 0;
			if (ret < 0) {
				close(f->place);
				f->place = -1;
				return -1;
			}
			free(f->target);
			f->target = NULL;
		}
		f->fd = f->place;
		f->place = -1;
		f->regular = 1;
		return 0;
	}
	/* a free name (not a dangling symlink) */
	if (!exists && errno == ENOENT && lstat(path, &st)) {
		f->target = strdup(path);
		if (!f->target)
			return -1;
		ret = open_temp(f, NULL);
		if (ret <= 0)
			return ret;
		free(f->target);
		f->target = NULL;
	}
	/* a device, a FIFO, a free name in a directory that takes no
	 * temporary: in place */
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

int ab_write_all(int fd, const char *buf, size_t len)
{
	ssize_t w;

	while (len) {
		w = write(fd, buf, len);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return -1;
		buf += w;
		len -= (size_t)w;
	}
	return 0;
}

/* The temporary's bytes into @f->place, in place of what it held: 0, or -1
 * with errno (the file then holds part of them: @f->damaged) */
static int copy_into_place(struct ab_outfile *f)
{
	char buf[65536];
	ssize_t n;
	int e, in = open(f->temp, O_RDONLY | O_CLOEXEC);

	if (in < 0)
		return -1;
	f->damaged = 1;
	n = ftruncate(f->place, 0) || lseek(f->place, 0, SEEK_SET) ? -1 : 1;
	while (n > 0) {
		n = read(in, buf, sizeof(buf));
		if (n < 0 && errno == EINTR)
			n = 1;
		else if (n > 0 && ab_write_all(f->place, buf, (size_t)n))
			n = -1;
	}
	e = errno;
	close(in);
	if (n) {
		errno = e;
		return -1;
	}
	f->damaged = 0;
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
			/* a bind mount, a sticky directory: copied in place */
			if (f->place >= 0) {
				ret = copy_into_place(f);
				e = errno;
			}
		}
		unlink(f->temp);
		temp_track(f->temp, 0);
	} else if (f->created && !keep) {
		if (f->target)
			unlink(f->target);
	} else if (f->regular && keep) {
		/* a pipe or a device has no length to set */
		end = lseek(f->fd, 0, SEEK_CUR);
		if (end >= 0 && ftruncate(f->fd, end)) {
			e = errno;
			ret = -1;
		}
	}
	if (f->place >= 0)
		close(f->place);
	f->place = -1;
	free(f->temp);
	free(f->target);
	f->temp = f->target = NULL;
	errno = ret ? e : 0;
	return ret;
}

int ab_outfile_is_stdout_file(const char *path)
{
	struct stat so, sp;

	return !fstat(STDOUT_FILENO, &so) && !stat(path, &sp) &&
	       so.st_dev == sp.st_dev && so.st_ino == sp.st_ino;
}

/* Whether @a and @b name one existing file. */
static int same_file(const char *a, const char *b)
{
	struct stat sa, sb;

	return !stat(a, &sa) && !stat(b, &sb) && sa.st_dev == sb.st_dev &&
	       sa.st_ino == sb.st_ino;
}

/* An input's file: "-" is the one standard input was redirected from. */
static const char *input_path(const char *in)
{
	return strcmp(in, "-") ? in : "/dev/stdin";
}

int ab_outfile_is_input(const char *out, const char *in)
{
	return same_file(out, input_path(in));
}

int ab_inputs_named_twice(const char *const *files, size_t n, size_t *i,
			  size_t *j)
{
	for (*i = 0; *i < n; ++*i)
		for (*j = *i + 1; *j < n; ++*j)
			if (!strcmp(files[*i], files[*j]) ||
			    same_file(input_path(files[*i]),
				      input_path(files[*j])))
				return 1;
	return 0;
}
