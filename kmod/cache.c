// SPDX-License-Identifier: GPL-2.0
/*
 * cache.c - the private kmem_cache of the kmem_cache strategies: created
 * for a run (unmergeable on request, with the sheaves asked for, with
 * SLAB_ACCOUNT for kmem_cache_account), told
 * apart from another run's, destroyed after it or kept empty for its
 * geometry (AB_RUN_KEEP_CACHE).
 */

#include <linux/atomic.h>
#include <linux/list.h>
#include <linux/mutex.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include "ab_internal.h"

static atomic_t ab_cache_seq = ATOMIC_INIT(0);

/*
 * The private caches of the runs in progress, and the lock that makes
 * creating a cache and asking whether it was merged one step: without it
 * another run's cache of the same size could be merged into this one
 * between the two, and this one would read as merged. A cache created
 * while a live run's is the same kmem_cache (kmem_cache_create() returned
 * the existing one, __kmem_cache_alias()) marks that run's cache as
 * shared: it reports AB_MERGED_LATER.
 */
static DEFINE_MUTEX(ab_cache_lock);
static LIST_HEAD(ab_live_caches);

/*
 * kmem_cache_create() of @ctx's cache with @flags and a usercopy region of
 * @usersize bytes, and the sheaves AB_RUN_SHEAVES asks for where the
 * kernel has them (ab_internal.h: AB_HAVE_SHEAF_ARGS, AB_SLAB_NO_SHEAVES).
 */
static struct kmem_cache *ab_cache_create(struct ab_ctx *ctx,
					  slab_flags_t flags,
					  unsigned int usersize)
{
#ifdef AB_HAVE_SHEAF_ARGS
	struct kmem_cache_args args = { .usersize = usersize };

	if (ctx->sheaves && ctx->sheaf_capacity)
		args.sheaf_capacity = ctx->sheaf_capacity;
	else if (ctx->sheaves)
		flags |= AB_SLAB_NO_SHEAVES;
	return kmem_cache_create(ctx->cache_name, ctx->size, &args, flags);
#else
	return kmem_cache_create_usercopy(ctx->cache_name, ctx->size, 0, flags,
					  0, usersize, NULL);
#endif
}

/*
 * Creates the run's cache. Unmergeable on request, and with sheaves of its
 * own (AB_RUN_SHEAVES, so that no other cache shares them): SLAB_NO_MERGE
 * where the kernel has it (6.5+), else a usercopy region, which
 * mm/slab_common.c treats as unmergeable (kmem_cache_create_usercopy()
 * skips __kmem_cache_alias() when usersize != 0) and which costs nothing on
 * the alloc/free paths.
 *
 * Whether it was merged: the module opens no files, and struct kmem_cache
 * (its refcount, whose "aliases" SLUB's sysfs shows) is private to mm/
 * since 6.8, so an unmergeable cache is AB_MERGED_NO, one that another live
 * run's kmem_cache_create() returned too is AB_MERGED_YES, and any other is
 * AB_MERGED_UNKNOWN: the caller, given the name (ab_run.cache_name), reads
 * /sys/kernel/slab itself.
 */
int ab_cache_setup(struct ab_ctx *ctx)
{
	unsigned int usersize = 0;
	slab_flags_t flags = 0;
	struct ab_ctx *other;

	snprintf(ctx->cache_name, sizeof(ctx->cache_name), "allocbench-%zu-%d",
		 ctx->size, atomic_inc_return(&ab_cache_seq));
	if (ctx->nomerge) {
#ifdef SLAB_NO_MERGE
		flags |= SLAB_NO_MERGE;
#else
		usersize = ctx->size;
#endif
	}
	/* charged to the caller's memcg; merges only with accounted caches */
	if (ctx->strategy->flags & AB_STRATEGY_ACCOUNT)
		flags |= SLAB_ACCOUNT;
	mutex_lock(&ab_cache_lock);
	ctx->cache = ab_cache_create(ctx, flags, usersize);
	if (!ctx->cache) {
		mutex_unlock(&ab_cache_lock);
		return -ENOMEM;
	}
	ctx->cache_merged = ctx->nomerge ? AB_MERGED_NO : AB_MERGED_UNKNOWN;
	list_for_each_entry(other, &ab_live_caches, cache_node) {
		if (other->cache == ctx->cache) {
			other->cache_shared = true;
			ctx->cache_merged = AB_MERGED_YES;
		}
	}
	list_add(&ctx->cache_node, &ab_live_caches);
	mutex_unlock(&ab_cache_lock);
	return 0;
}

/*
 * A cache kept after its run (AB_RUN_KEEP_CACHE), on its file's list,
 * with the thread that ran it (threads sharing a file each read their own).
 */
struct ab_kept_cache {
	struct list_head node;
	struct kmem_cache *cache;
	pid_t pid;
};

/*
 * ab_cache_keep - put @cache, empty, on @kept instead of destroying it,
 * so that its /sys/kernel/slab entry stays for the caller to read. Called
 * with ab_cache_lock held. Return: false without memory (the caller then
 * destroys it: the caller reads nothing, the run stands).
 */
static bool ab_cache_keep(struct list_head *kept, struct kmem_cache *cache)
{
	struct ab_kept_cache *k = kmalloc(sizeof(*k), GFP_KERNEL);

	if (!k)
		return false;
	k->cache = cache;
	k->pid = current->pid;
	list_add(&k->node, kept);
	return true;
}

void ab_caches_release(struct list_head *kept, bool all)
{
	struct ab_kept_cache *k, *tmp;

	mutex_lock(&ab_cache_lock);
	list_for_each_entry_safe(k, tmp, kept, node) {
		if (!all && k->pid != current->pid)
			continue;
		list_del(&k->node);
		kmem_cache_destroy(k->cache);
		kfree(k);
	}
	mutex_unlock(&ab_cache_lock);
}

/*
 * Before the cache goes: a cache that another run's was merged into during
 * the run is AB_MERGED_LATER (a kernel user's merged into it is seen by the
 * caller in /sys/kernel/slab, as is a cache that was an alias from the
 * start).
 */
void ab_cache_teardown(struct ab_ctx *ctx)
{
	mutex_lock(&ab_cache_lock);
	list_del(&ctx->cache_node);
	if (ctx->cache_merged == AB_MERGED_UNKNOWN && ctx->cache_shared)
		ctx->cache_merged = AB_MERGED_LATER;
	/*
	 * Destroyed under the lock, so no run of ours creates a cache while
	 * one goes: kmem_cache_destroy() takes the last reference off the
	 * cache lists under slab_mutex but removes its sysfs directory (the
	 * merged name, :0000008) after dropping it (kmem_cache_release(),
	 * mm/slab_common.c), and a create of the same size in between makes
	 * a new cache of that name: "sysfs: cannot create duplicate
	 * filename", a stack dump and -EEXIST (6.12, four runs at once).
	 * The order is always ab_cache_lock, then slab_mutex.
	 */
	if (!ctx->keep || !ab_cache_keep(ctx->keep, ctx->cache))
		kmem_cache_destroy(ctx->cache);
	ctx->cache = NULL;
	mutex_unlock(&ab_cache_lock);
}
