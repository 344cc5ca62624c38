/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * outfile.h - the files a command is asked to write (-o for every command,
 * plot's picture and --script): written to a temporary file beside the
 * file, renamed over it at the end, so that a command that fails, or a
 * write that fails part way (a full disk, a file size limit), leaves the
 * file as it was. Where no temporary can be made (a device, a FIFO, a
 * directory that takes no new file) the file is written in place, never
 * emptied before the end.
 */
#ifndef AB_OUTFILE_H
#define AB_OUTFILE_H

struct ab_outfile {
	int fd;	      /* where to write */
	char *target; /* the file a rename replaces (a symlink followed) */
	char *temp;   /* the temporary beside it; NULL: written in place */
	int created;  /* in place: the file did not exist before */
	int regular;  /* in place: a regular file, whose length is set */
};

/*
 * ab_outfile_open - open @path for writing as above: a temporary with
 * @path's mode and owner (a new file: 0666 less the umask), or @path
 * itself. Returns 0, or -1 with errno (nothing created).
 */
int ab_outfile_open(struct ab_outfile *f, const char *path);

/*
 * ab_outfile_end - @keep: what was written through @f->fd (up to its
 * offset) replaces the file; else the file is left as it was (a file
 * created in place is removed; one written in place keeps what was
 * written, its only copy). Does not close @f->fd. Returns 0, or -1 with
 * errno (the file as it was: the temporary is removed).
 */
int ab_outfile_end(struct ab_outfile *f, int keep);

#endif
