/*
 * uf.h - union-find over the indexes 0..n-1 of a caller's array of
 * parents (each index its own parent at first): the mail index's
 * threads, review's versions of a patch and its series.
 */
#ifndef MS_UF_H
#define MS_UF_H

#include <stdint.h>

/* The root of i's set (halving the path to it on the way). */
static inline uint32_t ms_uf_find(uint32_t *parent, uint32_t i)
{
	while (parent[i] != i) {
		parent[i] = parent[parent[i]];
		i = parent[i];
	}
	return i;
}

/* Join the sets of a and b; the smaller root stays the root (a stable
 * answer: the older record). */
static inline void ms_uf_union(uint32_t *parent, uint32_t a, uint32_t b)
{
	a = ms_uf_find(parent, a);
	b = ms_uf_find(parent, b);
	if (a < b)
		parent[b] = a;
	else if (b < a)
		parent[a] = b;
}

#endif
