// SPDX-License-Identifier: GPL-2.0-only
/*
 * cgroup2.c - the cgroup v2 steps that --isolate and --memcg share (see
 * cgroup2.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "cgroup2.h"
#include "kfile.h"

int ab_cg_has_word(const char *list, const char *word, const char *sep)
{
	size_t n = strlen(word), w;

	for (list += strspn(list, sep); *list; list += strspn(list, sep)) {
		w = strcspn(list, sep);
		if (w == n && !strncmp(list, word, n))
			return 1;
		list += w;
	}
	return 0;
}

int ab_cg_path_join(char *buf, const char *dir, const char *name)
{
	int n = snprintf(buf, PATH_MAX, "%s/%s", dir, name);

	return n < 0 || n >= PATH_MAX ? -ENAMETOOLONG : 0;
}

int ab_cg_find_mount(const char *dir, const char *type, const char *opt,
		     char *out, size_t len)
{
	char line[4096], mdir[PATH_MAX], mtype[64], mopts[1024];
	FILE *f = ab_kfile_open("/proc/mounts");
	int found = 0;

	if (!f)
		return 0;
	while (!found && fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%*s %4095s %63s %1023s", mdir, mtype,
			   mopts) != 3 ||
		    strcmp(mtype, type) || (dir && strcmp(mdir, dir)) ||
		    (opt && !ab_cg_has_word(mopts, opt, ",")))
			continue;
		if (out)
			snprintf(out, len, "%s", mdir);
		found = 1;
	}
	fclose(f);
	return found;
}

int ab_cg_write(const char *file, const char *s)
{
	int fd = open(file, O_WRONLY | O_CLOEXEC), ret = 0;
	size_t n = strlen(s);
	ssize_t w;

	if (fd < 0)
		return -errno;
	w = write(fd, s, n);
	if (w < 0)
		ret = -errno;
	else if ((size_t)w != n)
		ret = -EIO;
	close(fd);
	return ret;
}

int ab_cg_get(const char *who, const char *dir, const char *name, char *val,
	      size_t vlen, char *err, size_t len)
{
	char file[PATH_MAX];
	int ret;

	ret = ab_cg_path_join(file, dir, name);
	if (!ret)
		ret = ab_kfile_line(val, vlen, "%s", file);
	if (ret < 0 && err)
		snprintf(err, len, "%s: cannot read %s: %s", who, file,
			 strerror(-ret));
	return ret < 0 ? ret : 0;
}

int ab_cg_put(const char *who, const char *dir, const char *name,
	      const char *val, char *err, size_t len)
{
	char file[PATH_MAX];
	int ret;

	ret = ab_cg_path_join(file, dir, name);
	if (!ret)
		ret = ab_cg_write(file, val);
	if (ret && err)
		snprintf(err, len, "%s: cannot write %s to %s: %s", who, val,
			 file, strerror(-ret));
	return ret;
}
