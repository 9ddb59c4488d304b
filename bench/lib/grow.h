/* SPDX-License-Identifier: GPL-2.0 */
/*
 * grow.h - the one growth step of the arrays that grow an element at a time (git's
 * ALLOC_GROW): room for element n, capacity doubling at each power of two.
 */
#ifndef DEFERBENCH_GROW_H
#define DEFERBENCH_GROW_H

#include <stdlib.h>
#include <string.h>

/*
 * grow_array - room for element n of p, an array of elem-size elements that n are in use
 * and that only this function allocates: reallocated to 2n (1 for n = 0) when n is a
 * power of two, the new part zeroed. Returns the array (p itself, or moved), or NULL
 * when out of memory (p is then untouched).
 */
static inline void *grow_array(void *p, size_t n, size_t elem)
{
	void *q;

	if (n && (n & (n - 1)))
		return p;		/* not a power of two: room is there */
	q = realloc(p, (n ? 2 * n : 1) * elem);
	if (q)
		memset((char *)q + n * elem, 0, (n ? n : 1) * elem);
	return q;
}

#endif
