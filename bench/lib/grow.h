/* SPDX-License-Identifier: GPL-2.0 */
/*
 * grow.h - the one way an array grows (git's ALLOC_GROW), and the only realloc() of the
 * tree: the capacity doubles (from GROW_MIN) until it holds what is needed, and the new
 * part is zeroed, so that no caller counts bytes or forgets an overflow.
 *
 *	if (GROW(list->row, list->cap, list->n + 1))	   room for one more row
 *		return -ENOMEM;
 *	list->row[list->n++] = row;
 *
 * An array that keeps no capacity, only its count, grows by grow_array() instead.
 */
#ifndef DEFERBENCH_GROW_H
#define DEFERBENCH_GROW_H

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define GROW_MIN 8	/* elements of a first allocation */

/*
 * grow_to - p, holding old elements of elem bytes, reallocated to hold cap of them, the
 * new part zeroed. Returns the array (p itself, or moved), or NULL when out of memory or
 * when cap * elem overflows (p is then untouched).
 */
static inline void *grow_to(void *p, size_t old, size_t cap, size_t elem)
{
	void *q;

	if (elem && cap > SIZE_MAX / elem)
		return NULL;
	q = realloc(p, cap * elem);
	if (q && cap > old)
		memset((char *)q + old * elem, 0, (cap - old) * elem);
	return q;
}

/* grow_cap - the capacity that holds need elements: cap doubled, from GROW_MIN */
static inline size_t grow_cap(size_t cap, size_t need)
{
	size_t c = cap ? cap : GROW_MIN;

	while (c < need && c <= SIZE_MAX / 2)
		c *= 2;
	return c < need ? need : c;
}

/*
 * GROW - room for need elements in the array p whose capacity is cap (0 with p NULL at
 * first): p and cap grown when need > cap. 0, or -ENOMEM with p and cap untouched.
 */
#define GROW(p, cap, need) __extension__ ({					\
	size_t need_ = (size_t)(need), cap_ = (size_t)(cap);			\
	int ret_ = 0;								\
	if (need_ > cap_) {							\
		size_t new_ = grow_cap(cap_, need_);				\
		void *np_ = grow_to((p), cap_, new_, sizeof(*(p)));		\
		if (np_) {							\
			(p) = np_;						\
			(cap) = new_;						\
		} else {							\
			ret_ = -ENOMEM;						\
		}								\
	}									\
	ret_;									\
})

/*
 * grow_array - room for element n of p, an array of elem-size elements that n are in use
 * and that only this function allocates: reallocated to 2n (1 for n = 0) when n is a
 * power of two, the new part zeroed. Returns the array (p itself, or moved), or NULL
 * when out of memory (p is then untouched).
 */
static inline void *grow_array(void *p, size_t n, size_t elem)
{
	if (n && (n & (n - 1)))
		return p;		/* not a power of two: room is there */
	return grow_to(p, n, n ? 2 * n : 1, elem);
}

#endif
