// SPDX-License-Identifier: GPL-2.0-only
/*
 * objmem.c - the memory one object takes, as the kernel states it (see
 * objmem.h): SLUB's sysfs for slab objects, the order for page blocks,
 * common/ab_footprint.h's vmalloc rule for vmalloc areas.
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ab_run.h"
#include "kfile.h"
#include "objmem.h"

/*
 * ab_slab_geom_read - @root/@name's geometry into @g (@root is
 * AB_SLAB_SYSFS, or a copy laid out the same way in the tests).
 * Return: 0, or -errno (-ENOENT: no such cache, -EINVAL: a file that does
 * not hold a number, or a slab that holds no object; -ERANGE: a number
 * beyond 64 bits), as lib/kfile.h reads the files.
 */
static int ab_slab_geom_read(const char *root, const char *name,
			     struct ab_slab_geom *g)
{
	char path[PATH_MAX], target[PATH_MAX];
	const char *base = name;
	uint64_t objs, order;
	ssize_t n;
	int err;

	memset(g, 0, sizeof(*g));
	if (!name[0] || strchr(name, '/') || !strcmp(name, ".") ||
	    !strcmp(name, ".."))
		return -EINVAL;
	snprintf(path, sizeof(path), "%s/%s", root, name);
	n = readlink(path, target, sizeof(target) - 1);
	if (n > 0) {
		target[n] = '\0';
		base = strrchr(target, '/');
		base = base ? base + 1 : target;
	}
	snprintf(g->cache, sizeof(g->cache), "%.63s", base);
	err = ab_kfile_u64(&g->object_size, "%s/%s/object_size", root, name);
	if (!err)
		err = ab_kfile_u64(&g->slab_size, "%s/%s/slab_size", root,
				   name);
	if (!err)
		err = ab_kfile_u64(&objs, "%s/%s/objs_per_slab", root, name);
	if (!err)
		err = ab_kfile_u64(&order, "%s/%s/order", root, name);
	if (err)
		return err;
	/* SLUB's orders stay below MAX_PAGE_ORDER; a slab holds an object */
	if (!objs || objs > UINT_MAX || order > 20 || !g->slab_size)
		return -EINVAL;
	g->objs_per_slab = (unsigned int)objs;
	g->order = (unsigned int)order;
	g->sheaf_capacity = -1;
	if (!ab_kfile_u64(&objs, "%s/%s/sheaf_capacity", root, name) &&
	    objs <= INT_MAX)
		g->sheaf_capacity = (int)objs;
	return 0;
}

/* "kmalloc-" then digits and an optional "k": a KMALLOC_NORMAL cache. */
static int kmalloc_normal_name(const char *s)
{
	if (strncmp(s, "kmalloc-", 8))
		return 0;
	s += 8;
	if (!isdigit((unsigned char)*s))
		return 0;
	while (isdigit((unsigned char)*s))
		s++;
	if (*s == 'k')
		s++;
	return *s == '\0';
}

int ab_kmalloc_cache(const char *root, uint64_t size, char *name, size_t len,
		     struct ab_slab_geom *g)
{
	struct ab_slab_geom cur;
	struct dirent *d;
	int found = 0, any = 0;
	DIR *dir;

	dir = opendir(root);
	if (!dir)
		return -ENODEV;
	while ((d = readdir(dir))) {
		if (!kmalloc_normal_name(d->d_name) ||
		    ab_slab_geom_read(root, d->d_name, &cur))
			continue;
		any = 1;
		if (cur.object_size < size ||
		    (found && cur.object_size >= g->object_size))
			continue;
		*g = cur;
		snprintf(name, len, "%s", d->d_name);
		found = 1;
	}
	closedir(dir);
	return found ? 0 : any ? -ENOENT : -ENODEV;
}

/* A block of @bytes pages from the page allocator, its order. */
static void pages_of(struct ab_obj_mem *m, uint64_t bytes, uint32_t page)
{
	unsigned int order = 0;

	while (((uint64_t)page << order) < bytes && order < 63)
		order++;
	m->kind = AB_OBJ_PAGES;
	m->order = order;
	m->bytes = (double)((uint64_t)page << order);
}

/* A kmalloc of @size bytes: its cache's share of a slab, or its pages. */
static void kmalloc_of(const char *root, struct ab_obj_mem *m, uint64_t size,
		       uint32_t page)
{
	int err = ab_kmalloc_cache(root, size, m->name, sizeof(m->name),
				   &m->slab);

	if (!err) {
		m->kind = AB_OBJ_SLAB;
		m->bytes = (double)((uint64_t)page << m->slab.order) /
			   m->slab.objs_per_slab;
	} else if (err == -ENOENT) {
		/* above the largest cache: kmalloc_large(), get_order() */
		pages_of(m, size, page);
	} else {
		snprintf(m->why, sizeof(m->why),
			 "no kmalloc cache to read in %s", root);
	}
}

/*
 * @m: a vmalloc area of @size bytes, the budget's rule (ab_footprint.h),
 * its pages whole pages of @huge bytes from @huge up when @huge is nonzero
 */
static void vmalloc_of(struct ab_obj_mem *m, uint64_t size, uint32_t page,
		       uint64_t huge)
{
	uint64_t total = ab_vmalloc_bytes(size, page, huge);

	m->kind = AB_OBJ_VMALLOC;
	m->pages = ab_round_up(size, huge && size >= huge ? huge : page);
	m->meta = AB_VMALLOC_META_BYTES;
	m->array = total - m->pages - m->meta;
	m->bytes = (double)total;
}

void ab_obj_mem_state(const char *root, const struct ab_run *run,
		      const struct ab_strategy_info *si,
		      const struct ab_info *info, const struct ab_footprint *fp,
		      struct ab_obj_mem *m)
{
	uint32_t page = info->page_size;
	uint64_t size = fp->alloc_bytes;
	int err;

	memset(m, 0, sizeof(*m));
	m->via = "";
	if (!size || !page || (si->flags & AB_STRATEGY_BASELINE)) {
		snprintf(m->why, sizeof(m->why), "allocates nothing");
		return;
	}
	switch (si->flags & AB_STRATEGY_MEM_MASK) {
	case AB_STRATEGY_MEM_KMALLOC:
		kmalloc_of(root, m, size, page);
		break;
	case AB_STRATEGY_MEM_KVMALLOC:
		/*
		 * Above KMALLOC_MAX_SIZE kmalloc cannot serve it, so with a
		 * GFP mask that may block it is vmalloc's (mm/util.c
		 * kvmalloc_node(); 8 MiB read "an order-11 block of pages")
		 */
		if (info->kmalloc_max_size && size > info->kmalloc_max_size &&
		    ab_gfp_may_block(run->gfp)) {
			vmalloc_of(m, size, page, 0);
			break;
		}
		/* kvmalloc_node() tries kmalloc first; its fallback not known
		 */
		kmalloc_of(root, m, size, page);
		if (size > page && ab_gfp_may_block(run->gfp))
			m->via = "kmalloc";
		break;
	case AB_STRATEGY_MEM_CACHE:
		snprintf(m->name, sizeof(m->name), "%s", run->cache_name);
		err = ab_slab_geom_read(root, run->cache_name, &m->slab);
		if (err) {
			snprintf(
				m->why, sizeof(m->why),
				"its cache %s is not in %s (%s; a module without AB_RUN_KEEP_CACHE destroys it with the run)",
				run->cache_name[0] ? run->cache_name
						   : "(unnamed)",
				root, strerror(-err));
			memset(m->name, 0, sizeof(m->name));
			return;
		}
		m->kind = AB_OBJ_SLAB;
		m->bytes = (double)((uint64_t)page << m->slab.order) /
			   m->slab.objs_per_slab;
		break;
	case AB_STRATEGY_MEM_VMALLOC:
		vmalloc_of(m, size, page, 0);
		break;
	case AB_STRATEGY_MEM_VMALLOC_HUGE:
		vmalloc_of(m, size, page, ab_huge_vmap_bytes(page));
		break;
	case AB_STRATEGY_MEM_BUCKETS:
		/* no file tells: the run's caches went with it */
		snprintf(
			m->why, sizeof(m->why),
			"its bucket caches were made for the run and destroyed with it");
		break;
	case AB_STRATEGY_MEM_MEMPOOL:
		/* an element is a kmalloc object (mempool_kmalloc()) */
		kmalloc_of(root, m, size, page);
		break;
	case AB_STRATEGY_MEM_PERCPU:
		/* pcpu_alloc(): aligned, in every possible CPU's unit */
		m->kind = AB_OBJ_PERCPU;
		m->unit = ab_round_up(size, run->align > AB_PCPU_ALIGN
						    ? run->align
						    : AB_PCPU_ALIGN);
		m->cpus = info->possible_cpus ? info->possible_cpus : 1;
		m->bytes = (double)m->unit * m->cpus;
		break;
	case AB_STRATEGY_MEM_FRAG:
		/* page_frag_alloc(): fragments of a 32 KiB page, none across */
		m->kind = AB_OBJ_FRAG;
		m->unit = size <= AB_FRAG_PAGE_BYTES ? AB_FRAG_PAGE_BYTES / size
						     : 1;
		m->bytes = (double)AB_FRAG_PAGE_BYTES / (double)m->unit;
		break;
	default:
		/* the page allocator: PAGE_SIZE << order */
		pages_of(m, size, page);
		break;
	}
}

const char *ab_obj_kind_name(int kind)
{
	switch (kind) {
	case AB_OBJ_SLAB:
		return "slab";
	case AB_OBJ_PAGES:
		return "pages";
	case AB_OBJ_VMALLOC:
		return "vmalloc";
	case AB_OBJ_PERCPU:
		return "percpu";
	case AB_OBJ_FRAG:
		return "frag";
	default:
		return "unknown";
	}
}

void ab_obj_mem_how(const struct ab_obj_mem *m, char *buf, size_t len)
{
	const char *via = m->via && m->via[0] ? " if kmalloc served it" : "";

	char sheaf[48] = "";

	switch (m->kind) {
	case AB_OBJ_SLAB:
		if (m->slab.sheaf_capacity > 0)
			snprintf(sheaf, sizeof(sheaf), "; sheaves of %d",
				 m->slab.sheaf_capacity);
		else if (!m->slab.sheaf_capacity)
			snprintf(sheaf, sizeof(sheaf), "; no sheaves");
		snprintf(
			buf, len,
			"%s%s%s%s: an order-%u slab holds %u objects of slab_size %llu%s%s",
			m->name,
			strcmp(m->name, m->slab.cache) ? " (sysfs " : "",
			strcmp(m->name, m->slab.cache) ? m->slab.cache : "",
			strcmp(m->name, m->slab.cache) ? ")" : "",
			m->slab.order, m->slab.objs_per_slab,
			(unsigned long long)m->slab.slab_size, sheaf, via);
		break;
	case AB_OBJ_PAGES:
		snprintf(buf, len, "an order-%u block of pages%s", m->order,
			 via);
		break;
	case AB_OBJ_VMALLOC:
		snprintf(
			buf, len,
			"pages %llu + page array %llu + vm_struct and vmap_area at most %llu",
			(unsigned long long)m->pages,
			(unsigned long long)m->array,
			(unsigned long long)m->meta);
		break;
	case AB_OBJ_PERCPU:
		snprintf(
			buf, len,
			"%llu bytes in the unit of each of %u possible CPUs (pcpu_alloc(), mm/percpu.c)",
			(unsigned long long)m->unit, m->cpus);
		break;
	case AB_OBJ_FRAG:
		snprintf(
			buf, len,
			"a share of a page_frag_cache's 32 KiB page, which holds %llu (order 0 when order 3 fails)",
			(unsigned long long)m->unit);
		break;
	default:
		snprintf(buf, len, "not stated: %s", m->why);
		break;
	}
}

/* Checked objects of @run on no node its list names (nor spread). */
uint64_t ab_obj_elsewhere(const struct ab_run *run)
{
	uint64_t named = run->obj_spread;
	int i;

	for (i = 0; i < AB_RUN_OBJ_NODES && run->obj_node[i] >= 0; i++)
		named += run->obj_node_objs[i];
	return run->node_checked > named ? run->node_checked - named : 0;
}

/*
 * The nodes @run's checked objects were on (ab_run.obj_node, most first):
 * "0,2", with @counts "node 0: 150, node 2: 50" and those spread over
 * several nodes or on nodes not named; an answer without the list (an
 * older module) names its target_node. 1 when more than one node (or a
 * spread object) is in it.
 */
int ab_obj_nodes(const struct ab_run *run, int counts, char *buf, size_t len)
{
	size_t used = 0;
	int i;

	if (run->obj_node[0] < 0) {
		snprintf(buf, len, "%d", run->target_node);
		return 0;
	}
	buf[0] = '\0';
	for (i = 0; i < AB_RUN_OBJ_NODES && run->obj_node[i] >= 0 && used < len;
	     i++)
		used += (size_t)snprintf(
			buf + used, len - used,
			counts ? "%snode %d: %llu" : "%s%d",
			i ? (counts ? ", " : ",") : "", run->obj_node[i],
			(unsigned long long)run->obj_node_objs[i]);
	if (counts && run->obj_spread && used < len)
		used += (size_t)snprintf(buf + used, len - used,
					 ", over several nodes: %llu",
					 (unsigned long long)run->obj_spread);
	if (counts && ab_obj_elsewhere(run) && used < len)
		snprintf(buf + used, len - used, ", on other nodes: %llu",
			 (unsigned long long)ab_obj_elsewhere(run));
	return i > 1 || run->obj_spread || ab_obj_elsewhere(run);
}
