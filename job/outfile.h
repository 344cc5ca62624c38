/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * outfile.h - the files a command is asked to write (-o for every command,
 * plot's picture and --script): written to a temporary file beside the
 * file, renamed over it at the end, so that a command that fails, or a
 * write that fails part way (a full disk, a file size limit), leaves the
 * file as it was. An existing file must be writable by the user, as for
 * any write. It is written in place instead, never emptied before the
 * end, where no temporary can replace it: a device, a FIFO, a directory
 * that takes no new file, a file with hard links (they stay one file) or
 * one whose owner this user cannot give the temporary; where the rename
 * itself fails (a bind-mounted file, a sticky directory) the temporary is
 * copied into the file. A file with hard links or extended attributes
 * (ACLs) is written in place, so they stay its own. A signal that ends the
 * process (SIGINT, SIGTERM, SIGHUP, SIGXFSZ, where the command does not
 * handle it) and exit() remove the temporaries; SIGKILL leaves one,
 * ".NAME.XXXXXX" (".allocbench.XXXXXX" for a name too long for that) beside the
 * file.
 */
#ifndef AB_OUTFILE_H
#define AB_OUTFILE_H

#include <stddef.h>

struct ab_outfile {
	int fd;	      /* where to write */
	char *target; /* the file a rename replaces (a symlink followed) */
	char *temp;   /* the temporary beside it; NULL: written in place */
	int place;    /* the existing file, opened when a temporary is used */
	int created;  /* in place: the file did not exist before */
	int regular;  /* in place: a regular file, whose length is set */
	int damaged;  /* ab_outfile_end() failed copying into the file: it
		       * holds part of the new output */
};

/*
 * ab_outfile_open - open @path for writing as above: a temporary with
 * @path's mode and owner (a new file: 0666 less the umask), or @path
 * itself. Returns 0, or -1 with errno (nothing created; EACCES for a file
 * this user may not write, ENOENT for an empty @path).
 */
int ab_outfile_open(struct ab_outfile *f, const char *path);

/*
 * ab_outfile_end - @keep: what was written through @f->fd (up to its
 * offset) replaces the file; else the file is left as it was (a file
 * created in place is removed; one written in place keeps what was
 * written over it, and its length). Does not close @f->fd. Returns 0, or
 * -1 with errno (the file as it was: the temporary is removed).
 */
int ab_outfile_end(struct ab_outfile *f, int keep);

/*
 * ab_write_all - write(2) all of @len bytes of @buf to @fd, again after
 * EINTR: 0, or -1 with errno.
 */
int ab_write_all(int fd, const char *buf, size_t len);

/*
 * ab_outfile_is_stdout_file - whether @path names the file standard output
 * already is (/dev/stdout, or a log >>-appended to): written there as it
 * was opened, not replaced.
 */
int ab_outfile_is_stdout_file(const char *path);

/*
 * ab_outfile_is_input - whether the output @out and the input @in name one
 * existing file (hard and symbolic links included), so that writing @out
 * would replace what is being read. An @in of "-" is standard input: the
 * file it was redirected from.
 */
int ab_outfile_is_input(const char *out, const char *in);

/*
 * ab_inputs_named_twice - whether two of the @n input files @files name one
 * file, by name or through a link (the same device and inode; "-" is the
 * file standard input was redirected from): 1 with the first such pair's
 * indexes in *@i < *@j, else 0. Saved files given together count each as
 * one sample or run: a file given twice would count twice.
 */
int ab_inputs_named_twice(const char *const *files, size_t n, size_t *i,
			  size_t *j);

#endif
