/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * slabmerge.h - whether the kernel merged a run's kmem_cache, read from
 * SLUB's sysfs by the CLI (allocbench.ko opens no files: it reports the
 * name it created the cache with, ab_run.cache_name, and what it knows
 * itself, ab_run.cache_merged).
 *
 * What /sys/kernel/slab holds (mm/slub.c, sysfs_slab_add() and
 * sysfs_slab_alias(), Linux 6.1 and 6.12): a cache that can never be
 * merged is a directory under its own name, removed when the cache is
 * destroyed. A mergeable cache is a directory under a unique id (":0002728")
 * plus a symbolic link from its name; a cache that kmem_cache_create()
 * aliased to an existing one is only a link from its name to that one's
 * directory. kmem_cache_destroy() of an alias only drops a reference, and
 * no link is removed until the name is used again, so after the run:
 *
 *   no entry, or a link to nothing     the cache was its own and is gone: NO
 *   a link to a directory that existed before the run: an alias from the
 *                                       start: YES
 *   a link to a directory made during the run: the run's own cache, kept
 *                                       alive by a user merged into it
 *                                       meanwhile: LATER
 */
#ifndef AB_SLABMERGE_H
#define AB_SLABMERGE_H

#include <stddef.h>

#define AB_SLAB_SYSFS "/sys/kernel/slab"

/**
 * struct ab_slab_snap - the cache directories of the slab sysfs root
 * @names: their names, sorted, @n of them (NULL when the root is missing)
 * @ok:    the root could be read
 */
struct ab_slab_snap {
	char **names;
	size_t n;
	int ok;
};

/* ab_slab_snapshot - the directories of @root now (links left out). */
void ab_slab_snapshot(const char *root, struct ab_slab_snap *snap);

void ab_slab_snap_free(struct ab_slab_snap *snap);

/*
 * ab_slab_merged - AB_MERGED_* of a run whose cache was named @name, from
 * the module's own verdict @module (ab_run.cache_merged) and @root after
 * the run against @before (taken before it). The module's NO and YES
 * stand (it knows them); UNKNOWN is decided from the entry as above, and
 * LATER (another run merged into the cache) becomes YES when the entry
 * shows the cache was an alias from the start; without a readable root or
 * a name, @module stands. @kept: the run kept its cache (AB_RUN_KEEP_CACHE),
 * so a link to a directory made during the run is that cache, alive
 * because it was kept: UNKNOWN then becomes NO (a kernel user's cache
 * merged into it during the run is not seen), as it does when a kept cache
 * is a directory of its name (unmergeable: slab_nomerge, or its flags).
 */
unsigned int ab_slab_merged(const char *root, const struct ab_slab_snap *before,
			    const char *name, unsigned int module, int kept);

#endif
