// SPDX-License-Identifier: GPL-2.0
/*
 * map.c - open-addressing u64 -> value hash map (see map.h).
 */
#include "map.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

static int map_alloc(struct map *m, size_t cap)
{
	size_t i;

	m->keys = malloc(cap * sizeof(*m->keys));
	m->vals = calloc(cap, m->vsize);
	if (!m->keys || !m->vals) {
		free(m->keys);
		free(m->vals);
		m->keys = NULL;
		m->vals = NULL;
		return -ENOMEM;
	}
	for (i = 0; i < cap; i++)
		m->keys[i] = MAP_EMPTY;
	m->mask = cap - 1;
	m->used = 0;
	return 0;
}

int map_init(struct map *m, size_t vsize, size_t hint)
{
	size_t cap = 16;

	while (cap < hint * 2)
		cap <<= 1;
	memset(m, 0, sizeof(*m));
	m->vsize = vsize;
	return map_alloc(m, cap);
}

void map_free(struct map *m)
{
	free(m->keys);
	free(m->vals);
	memset(m, 0, sizeof(*m));
}

void map_clear(struct map *m)
{
	size_t i;

	if (!m->keys)
		return;
	for (i = 0; i <= m->mask; i++)
		m->keys[i] = MAP_EMPTY;
	memset(m->vals, 0, (m->mask + 1) * m->vsize);
	m->used = 0;
}

static inline size_t slot_of(const struct map *m, uint64_t key)
{
	return hash64(key) & m->mask;
}

void *map_get(const struct map *m, uint64_t key)
{
	size_t i = slot_of(m, key);

	for (;;) {
		uint64_t k = m->keys[i];

		if (k == key)
			return m->vals + i * m->vsize;
		if (k == MAP_EMPTY)
			return NULL;
		i = (i + 1) & m->mask;
	}
}

static int map_grow(struct map *m)
{
	struct map old = *m;
	size_t i;

	if (map_alloc(m, (old.mask + 1) * 2)) {
		*m = old;
		return -ENOMEM;
	}
	for (i = 0; i <= old.mask; i++) {
		if (old.keys[i] != MAP_EMPTY) {
			size_t j = slot_of(m, old.keys[i]);

			while (m->keys[j] != MAP_EMPTY)
				j = (j + 1) & m->mask;
			m->keys[j] = old.keys[i];
			memcpy(m->vals + j * m->vsize, old.vals + i * m->vsize, m->vsize);
			m->used++;
		}
	}
	free(old.keys);
	free(old.vals);
	return 0;
}

void *map_put(struct map *m, uint64_t key, int *created)
{
	size_t i;

	if (created)
		*created = 0;
	if ((m->used + 1) * 2 > m->mask + 1 && map_grow(m)) {
		errno = ENOMEM;
		return NULL;
	}
	i = slot_of(m, key);
	for (;;) {
		uint64_t k = m->keys[i];

		if (k == key)
			return m->vals + i * m->vsize;
		if (k == MAP_EMPTY)
			break;
		i = (i + 1) & m->mask;
	}
	m->keys[i] = key;
	memset(m->vals + i * m->vsize, 0, m->vsize);
	m->used++;
	if (created)
		*created = 1;
	return m->vals + i * m->vsize;
}

int map_del(struct map *m, uint64_t key)
{
	size_t i = slot_of(m, key), j;

	while (m->keys[i] != key) {
		if (m->keys[i] == MAP_EMPTY)
			return -ENOENT;
		i = (i + 1) & m->mask;
	}
	/* backward-shift: move later members of the probe run into the hole */
	j = i;
	for (;;) {
		size_t home;

		j = (j + 1) & m->mask;
		if (m->keys[j] == MAP_EMPTY)
			break;
		home = slot_of(m, m->keys[j]);
		/* can the entry at j move to i? only if its home is not in (i, j] */
		if ((j > i && (home <= i || home > j)) || (j < i && (home <= i && home > j))) {
			m->keys[i] = m->keys[j];
			memcpy(m->vals + i * m->vsize, m->vals + j * m->vsize, m->vsize);
			i = j;
		}
	}
	m->keys[i] = MAP_EMPTY;
	m->used--;
	return 0;
}

void *map_next(const struct map *m, size_t *pos, uint64_t *key)
{
	for (; *pos <= m->mask; (*pos)++) {
		if (m->keys[*pos] != MAP_EMPTY) {
			size_t i = (*pos)++;

			if (key)
				*key = m->keys[i];
			return m->vals + i * m->vsize;
		}
	}
	return NULL;
}
