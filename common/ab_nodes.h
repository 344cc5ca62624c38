/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ab_nodes.h - where a run's checked objects were (struct ab_run's
 * obj_node, obj_node_objs, obj_spread, and without a node asked for its
 * target_node and node_hits), from the counts of the node check, and two
 * runs' lists added together (a resumed run's parts, a comparison's
 * rounds): the module, the user backend and the CLI alike.
 */
#ifndef AB_NODES_H
#define AB_NODES_H

#ifdef __KERNEL__
#include <linux/types.h>
#else
#include "ab_compat.h"
#endif
#include <linux/allocbench.h>

/*
 * ab_nodes_put - @objs checked objects on node @nid into the most-first
 * list of @r (obj_node, obj_node_objs): added to @nid's entry, or a new
 * entry; when the list is full the node with the fewest is left out (its
 * objects then count as on other nodes). Ties keep the lower node first.
 */
static inline void ab_nodes_put(struct ab_run *r, s32 nid, u64 objs)
{
	int i, n = AB_RUN_OBJ_NODES - 1;
	s32 tn;
	u64 to;

	for (i = 0; i < AB_RUN_OBJ_NODES; i++) {
		if (r->obj_node[i] == nid || r->obj_node[i] < 0) {
			n = i;
			break;
		}
	}
	if (r->obj_node[n] == nid) {
		r->obj_node_objs[n] += objs;
	} else if (r->obj_node[n] < 0 || objs > r->obj_node_objs[n]) {
		r->obj_node[n] = nid;
		r->obj_node_objs[n] = objs;
	} else {
		return;
	}
	/* up to its place: most first, the lower node first in a tie */
	for (i = n; i > 0; i--) {
		if (r->obj_node_objs[i] < r->obj_node_objs[i - 1] ||
		    (r->obj_node_objs[i] == r->obj_node_objs[i - 1] &&
		     r->obj_node[i] > r->obj_node[i - 1]))
			break;
		tn = r->obj_node[i];
		to = r->obj_node_objs[i];
		r->obj_node[i] = r->obj_node[i - 1];
		r->obj_node_objs[i] = r->obj_node_objs[i - 1];
		r->obj_node[i - 1] = tn;
		r->obj_node_objs[i - 1] = to;
	}
}

/* ab_nodes_clear - no node named in @r's list, no object spread */
static inline void ab_nodes_clear(struct ab_run *r)
{
	int i;

	for (i = 0; i < AB_RUN_OBJ_NODES; i++) {
		r->obj_node[i] = -1;
		r->obj_node_objs[i] = 0;
	}
	r->obj_spread = 0;
}

/*
 * ab_nodes_local - without a node asked for (ab_run.node -1) and with a
 * list, @r's target_node is the node the most checked objects were on and
 * node_hits the checked objects on it; otherwise both are left as they are
 * (an empty list: no object was checked on one node, or an older module's
 * answer, which has none).
 */
static inline void ab_nodes_local(struct ab_run *r)
{
	if (r->node >= 0 || r->obj_node[0] < 0)
		return;
	r->target_node = r->obj_node[0];
	r->node_hits = r->obj_node_objs[0];
}

/*
 * ab_nodes_from - @r's list from @count[0..@nr): the checked objects all of
 * whose pages were on node i, counted for every node, so the list is exact
 * for the nodes it names; then the target and hits: ab_nodes_local(), or
 * with a node asked for its own count.
 */
static inline void ab_nodes_from(struct ab_run *r, const u64 *count, int nr)
{
	int nid;

	for (nid = 0; nid < nr; nid++)
		if (count[nid])
			ab_nodes_put(r, nid, count[nid]);
	if (r->node >= 0)
		r->node_hits = r->node < nr ? count[r->node] : 0;
	ab_nodes_local(r);
}

/*
 * ab_nodes_add - @src's checked objects added to @dst's: the two lists
 * summed node by node (a node that one list left out counts as on other
 * nodes there, so the sum may name it with fewer than it held), the spread
 * objects, node_checked and node_hits summed, then ab_nodes_local() of the
 * sum.
 */
static inline void ab_nodes_add(struct ab_run *dst, const struct ab_run *src)
{
	int i;

	for (i = 0; i < AB_RUN_OBJ_NODES; i++)
		if (src->obj_node[i] >= 0)
			ab_nodes_put(dst, src->obj_node[i],
				     src->obj_node_objs[i]);
	dst->obj_spread += src->obj_spread;
	dst->node_checked += src->node_checked;
	dst->node_hits += src->node_hits;
	ab_nodes_local(dst);
}

#endif
