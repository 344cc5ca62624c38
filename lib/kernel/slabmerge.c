// SPDX-License-Identifier: GPL-2.0-only
/*
 * slabmerge.c - whether a run's kmem_cache was merged, from SLUB's sysfs
 * (see slabmerge.h for what the entries mean).
 */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <linux/allocbench.h>

#include "slabmerge.h"

static int cmp_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

void ab_slab_snap_free(struct ab_slab_snap *snap)
{
	size_t i;

	for (i = 0; i < snap->n; i++)
		free(snap->names[i]);
	free(snap->names);
	memset(snap, 0, sizeof(*snap));
}

void ab_slab_snapshot(const char *root, struct ab_slab_snap *snap)
{
	size_t cap = 0;
	struct dirent *d;
	DIR *dir;
	char **grown;

	memset(snap, 0, sizeof(*snap));
	dir = opendir(root);
	if (!dir)
		return;
	snap->ok = 1;
	while ((d = readdir(dir))) {
		/* sysfs fills d_type: the caches' directories, not the links */
		if (d->d_type != DT_DIR || d->d_name[0] == '.')
			continue;
		if (snap->n == cap) {
			cap = cap ? cap * 2 : 256;
			grown = realloc(snap->names, cap * sizeof(*grown));
			if (!grown)
				break;
			snap->names = grown;
		}
		snap->names[snap->n] = strdup(d->d_name);
		if (!snap->names[snap->n])
			break;
		snap->n++;
	}
	closedir(dir);
	if (snap->n)
		qsort(snap->names, snap->n, sizeof(*snap->names), cmp_name);
}

static int snap_has(const struct ab_slab_snap *snap, const char *name)
{
	const char *key = name;

	return snap->n && bsearch(&key, snap->names, snap->n,
				  sizeof(*snap->names), cmp_name) != NULL;
}

unsigned int ab_slab_merged(const char *root, const struct ab_slab_snap *before,
			    const char *name, unsigned int module, int kept)
{
	char path[PATH_MAX], target[PATH_MAX];
	const char *base;
	struct stat st;
	ssize_t len;

	if (module != AB_MERGED_UNKNOWN && module != AB_MERGED_LATER)
		return module;
	if (!before->ok || !name[0] || strchr(name, '/') ||
	    strnlen(name, AB_CACHE_NAME_LEN) == AB_CACHE_NAME_LEN)
		return module;
	snprintf(path, sizeof(path), "%s/%s", root, name);
	if (lstat(path, &st)) {
		if (errno != ENOENT || module == AB_MERGED_LATER)
			return module;
		return AB_MERGED_NO;
	}
	/*
	 * A cache of that name still lives under its own directory: the run's
	 * own unmergeable cache (slab_nomerge, or flags that forbid merging)
	 * when the run kept it (AB_RUN_KEEP_CACHE), else nothing to go by.
	 */
	if (!S_ISLNK(st.st_mode))
		return kept && module == AB_MERGED_UNKNOWN ? AB_MERGED_NO
							   : module;
	len = readlink(path, target, sizeof(target) - 1);
	if (len <= 0)
		return module;
	target[len] = '\0';
	base = strrchr(target, '/');
	base = base ? base + 1 : target;
	/*
	 * A link to nothing: the cache it named is gone (the module's LATER,
	 * another run merged in and gone before it, stands).
	 */
	if (stat(path, &st) || !S_ISDIR(st.st_mode))
		return module == AB_MERGED_LATER ? module : AB_MERGED_NO;
	if (snap_has(before, base))
		return AB_MERGED_YES;
	/* made during the run, and alive because the run kept it */
	if (kept && module == AB_MERGED_UNKNOWN)
		return AB_MERGED_NO;
	return AB_MERGED_LATER;
}
