/* SPDX-License-Identifier: GPL-2.0 */
/*
 * map.h - open-addressing hash map from a 64-bit key to a fixed-size value.
 *
 * Linear probing with backward-shift deletion (no tombstones), so a table that sees
 * millions of insert/delete pairs (work items queued and executed) does not degrade.
 * UINT64_MAX is reserved as the empty key. Values live inside the table: pointers
 * returned by map_get/map_put are valid until the next map_put or map_del.
 */
#ifndef DEFERBENCH_MAP_H
#define DEFERBENCH_MAP_H

#include <stddef.h>
#include <stdint.h>

#define MAP_EMPTY UINT64_MAX

struct map {
	uint64_t *keys;
	unsigned char *vals;
	size_t vsize;
	size_t mask;		/* capacity - 1; capacity is a power of two */
	size_t used;
};

int map_init(struct map *m, size_t vsize, size_t capacity_hint);
void map_free(struct map *m);
/* map_get - the value for key, or NULL */
void *map_get(const struct map *m, uint64_t key);
/* map_put - the value for key, inserted zeroed if absent (*created set); NULL on ENOMEM */
void *map_put(struct map *m, uint64_t key, int *created);
/* map_del - remove key; returns 0, or -ENOENT */
int map_del(struct map *m, uint64_t key);
/* map_clear - remove every key, keep the table */
void map_clear(struct map *m);
/* map_next - iterate: start with *pos = 0; returns the value and key, NULL at the end */
void *map_next(const struct map *m, size_t *pos, uint64_t *key);

static inline uint64_t hash64(uint64_t x)
{
	/* stats_splitmix64 finaliser: every input bit affects every output bit */
	x ^= x >> 30;
	x *= 0xbf58476d1ce4e5b9ULL;
	x ^= x >> 27;
	x *= 0x94d049bb133111ebULL;
	x ^= x >> 31;
	return x;
}

/* map_hash_str - FNV-1a of len bytes: a key for names */
static inline uint64_t map_hash_str(const char *s, unsigned int len)
{
	uint64_t h = 0xcbf29ce484222325ULL;

	while (len--) {
		h ^= (unsigned char)*s++;
		h *= 0x100000001b3ULL;
	}
	return h;
}

#endif
