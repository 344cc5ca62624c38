// SPDX-License-Identifier: GPL-2.0-only
/*
 * memstate.c - one node's page-allocator state from /proc/buddyinfo,
 * /proc/zoneinfo and /proc/vmstat (see memstate.h).
 *
 * /proc/buddyinfo (mm/vmstat.c frag_show_print()): one line per
 * populated zone, "Node N, zone NAME" then the free blocks of each order.
 * /proc/zoneinfo (zoneinfo_show_print()): a "Node N, zone NAME" header
 * per zone, then "pages free F" and the "min", "low", "high" lines.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kfile.h"
#include "memstate.h"

const char *const ab_vmstat_names[AB_VM_NR] = {
	[AB_VM_COMPACT_STALL] = "compact_stall",
	[AB_VM_COMPACT_SUCCESS] = "compact_success",
	[AB_VM_COMPACT_FAIL] = "compact_fail",
	[AB_VM_ALLOCSTALL] = "allocstall",
	[AB_VM_PGSCAN_DIRECT] = "pgscan_direct",
	[AB_VM_PGSTEAL_DIRECT] = "pgsteal_direct",
	[AB_VM_PGSTEAL_KSWAPD] = "pgsteal_kswapd",
};

/* "Node N, zone NAME" at @line: 1 with *@node and @name filled, else 0 */
static int zone_header(const char *line, int *node, char *name, size_t len)
{
	char z[16];

	if (sscanf(line, "Node %d, zone %15s", node, z) != 2)
		return 0;
	memcpy(name, z, len < sizeof(z) ? len : sizeof(z));
	name[len - 1] = '\0';
	return 1;
}

static int read_buddyinfo(struct ab_memstate *m, const char *root)
{
	FILE *f = ab_kfile_open("%s/proc/buddyinfo", root);
	char line[512];

	if (!f)
		return -errno;
	while (fgets(line, sizeof(line), f) && m->nzones < AB_MEM_ZONES) {
		struct ab_zonestate *z = &m->zone[m->nzones];
		char *p, *end;
		int node;

		if (!zone_header(line, &node, z->name, sizeof(z->name)) ||
		    node != m->node)
			continue;
		p = strstr(line, z->name) + strlen(z->name);
		for (z->orders = 0; z->orders < AB_MEM_ORDERS; z->orders++) {
			unsigned long long v = strtoull(p, &end, 10);

			if (end == p)
				break;
			z->nr_free[z->orders] = v;
			p = end;
		}
		m->nzones++;
	}
	fclose(f);
	return m->nzones ? 0 : -ENODATA;
}

/* "KEY VALUE" with blanks before: 1 and *@v when @line is that key */
static int key_value(const char *line, const char *key, uint64_t *v)
{
	unsigned long long n;
	char k[32];

	if (sscanf(line, " %31s %llu", k, &n) != 2 || strcmp(k, key))
		return 0;
	*v = n;
	return 1;
}

static void read_zoneinfo(struct ab_memstate *m, const char *root)
{
	FILE *f = ab_kfile_open("%s/proc/zoneinfo", root);
	struct ab_zonestate *z = NULL;
	char line[512], name[16];
	uint64_t v;
	int node;

	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		if (zone_header(line, &node, name, sizeof(name))) {
			z = node == m->node
				    ? (struct ab_zonestate *)ab_memstate_zone(
					      m, name)
				    : NULL;
			continue;
		}
		if (!z)
			continue;
		if (sscanf(line, " pages free %llu",
			   (unsigned long long *)&v) == 1)
			z->free = v;
		else if (key_value(line, "min", &v))
			z->min = v;
		else if (key_value(line, "low", &v))
			z->low = v;
		else if (key_value(line, "high", &v))
			z->high = v;
		else if (key_value(line, "count:", &v))
			z->pcp += v;
		else if (key_value(line, "nr_free_cma", &v))
			z->free_cma = v;
	}
	fclose(f);
}

int ab_memstate_read(struct ab_memstate *m, int node, const char *root)
{
	int err;

	memset(m, 0, sizeof(*m));
	m->node = node;
	err = read_buddyinfo(m, root);
	if (err)
		return err;
	read_zoneinfo(m, root);
	return 0;
}

const struct ab_zonestate *ab_memstate_zone(const struct ab_memstate *m,
					    const char *name)
{
	int i;

	for (i = 0; i < m->nzones; i++)
		if (!strcmp(m->zone[i].name, name))
			return &m->zone[i];
	return NULL;
}

int ab_zone_max_order(const struct ab_zonestate *z)
{
	int o;

	for (o = z->orders - 1; o >= 0; o--)
		if (z->nr_free[o])
			return o;
	return -1;
}

long ab_extfrag_index(const struct ab_zonestate *z, unsigned int order)
{
	uint64_t blocks = 0, pages = 0, suitable = 0;
	int o;

	for (o = 0; o < z->orders; o++) {
		blocks += z->nr_free[o];
		pages += z->nr_free[o] << o;
		if ((unsigned int)o >= order)
			suitable += z->nr_free[o] << (o - order);
	}
	if (!blocks)
		return 0;
	if (suitable)
		return -1000;
	return 1000 - (long)((1000 + pages * 1000 / (1ULL << order)) / blocks);
}

int ab_vmstat_read(struct ab_vmstat *s, const char *root)
{
	FILE *f = ab_kfile_open("%s/proc/vmstat", root);
	char line[128], key[64];
	unsigned long long v;
	int i;

	memset(s, 0, sizeof(*s));
	if (!f)
		return -errno;
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%63s %llu", key, &v) != 2)
			continue;
		for (i = 0; i < AB_VM_NR; i++) {
			/* allocstall_dma, _dma32, _normal, _movable: summed */
			if (i == AB_VM_ALLOCSTALL
				    ? !strncmp(key, "allocstall_", 11)
				    : !strcmp(key, ab_vmstat_names[i])) {
				s->count[i] += v;
				s->have |= 1U << i;
				break;
			}
		}
	}
	fclose(f);
	return 0;
}

void ab_mm_settings_read(struct ab_mm_settings *s, const char *root)
{
	char buf[256], *a, *b;

	memset(s, 0, sizeof(*s));
	s->compaction_proactiveness = s->watermark_scale_factor = -1;
	if (ab_kfile_line(buf, sizeof(buf),
			  "%s/sys/kernel/mm/transparent_hugepage/defrag",
			  root) >= 0 &&
	    (a = strchr(buf, '[')) && (b = strchr(a, ']'))) {
		*b = '\0';
		snprintf(s->thp_defrag, sizeof(s->thp_defrag), "%s", a + 1);
	}
	ab_kfile_int(&s->compaction_proactiveness,
		     "%s/proc/sys/vm/compaction_proactiveness", root);
	ab_kfile_int(&s->watermark_scale_factor,
		     "%s/proc/sys/vm/watermark_scale_factor", root);
}
