// SPDX-License-Identifier: GPL-2.0
/*
 * ivhist.c - a histogram per interval of time (see ivhist.h).
 */
#include "ivhist.h"
#include "grow.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

void ivhist_init(struct ivhist *v, uint64_t ival_ns)
{
	memset(v, 0, sizeof(*v));
	v->ival = ival_ns;
}

/* find - the closed interval k, or where it would be inserted (*at) */
static struct ivh_closed *find(const struct ivhist *v, uint64_t k, size_t *at)
{
	size_t a = 0, b = v->n;

	while (a < b) {
		size_t m = a + (b - a) / 2;

		if (v->iv[m].k < k)
			a = m + 1;
		else
			b = m;
	}
	*at = a;
	return a < v->n && v->iv[a].k == k ? &v->iv[a] : NULL;
}

static struct ivh_closed *insert(struct ivhist *v, uint64_t k, size_t at)
{
	struct ivh_closed *c;

	if (GROW(v->iv, v->cap, v->n + 1))
		return NULL;
	memmove(&v->iv[at + 1], &v->iv[at], (v->n - at) * sizeof(*c));
	v->n++;
	c = &v->iv[at];
	memset(c, 0, sizeof(*c));
	c->k = k;
	c->min = UINT64_MAX;
	return c;
}

/* add_bucket - count n in bucket b of c (kept ascending) */
static int add_bucket(struct ivh_closed *c, uint16_t b, uint64_t n)
{
	uint32_t a = 0, z = c->n;
	uint16_t *nb;
	uint64_t *nc;

	while (a < z) {
		uint32_t m = a + (z - a) / 2;

		if (c->b[m] < b)
			a = m + 1;
		else
			z = m;
	}
	if (a < c->n && c->b[a] == b) {
		c->c[a] += n;
		return 0;
	}
	nb = grow_array(c->b, c->n, sizeof(*nb));
	if (!nb)
		return -ENOMEM;
	c->b = nb;
	nc = grow_array(c->c, c->n, sizeof(*nc));
	if (!nc)
		return -ENOMEM;
	c->c = nc;
	memmove(&c->b[a + 1], &c->b[a], (c->n - a) * sizeof(*nb));
	memmove(&c->c[a + 1], &c->c[a], (c->n - a) * sizeof(*nc));
	c->b[a] = b;
	c->c[a] = n;
	c->n++;
	return 0;
}

/* fold - add a full histogram's counts and exact figures into closed interval k */
static int fold(struct ivhist *v, uint64_t k, const struct hist *h)
{
	struct ivh_closed *c;
	unsigned int i;
	size_t at;

	if (!h->count)
		return 0;
	c = find(v, k, &at);
	if (!c && !(c = insert(v, k, at)))
		return -ENOMEM;
	for (i = 0; i < HIST_BUCKETS; i++)
		if (h->bucket[i] && add_bucket(c, (uint16_t)i, h->bucket[i]))
			return -ENOMEM;
	c->count += h->count;
	c->sum += h->sum;
	c->sumsq += h->sumsq;
	if (h->min < c->min)
		c->min = h->min;
	if (h->max > c->max)
		c->max = h->max;
	return 0;
}

static void close_cur(struct ivhist *v)
{
	if (!v->cur || !v->cur->count)
		return;
	if (fold(v, v->cur_k, v->cur))
		v->err = -ENOMEM;
	hist_init(v->cur);
}

void ivhist_add(struct ivhist *v, uint64_t t0, uint64_t t, uint64_t value)
{
	uint64_t k;

	if (!v->ival || v->err)
		return;
	k = t > t0 ? (t - t0) / v->ival : 0;
	if (!v->cur) {
		v->cur = malloc(sizeof(*v->cur));
		if (!v->cur) {
			v->err = -ENOMEM;
			return;
		}
		hist_init(v->cur);
		v->cur_k = k;
	}
	if (k != v->cur_k) {
		if (k < v->cur_k) {
			/* a late sample of a closed interval: rare, kept exactly */
			struct hist one;

			hist_init(&one);
			hist_add(&one, value);
			if (fold(v, k, &one))
				v->err = -ENOMEM;
			return;
		}
		close_cur(v);
		v->cur_k = k;
	}
	hist_add(v->cur, value);
}

int ivhist_finish(struct ivhist *v)
{
	close_cur(v);
	free(v->cur);
	v->cur = NULL;
	return v->err;
}

int ivhist_merge(struct ivhist *dst, const struct ivhist *src)
{
	struct hist *h = malloc(sizeof(*h));
	size_t i;
	int ret = 0;

	if (!h)
		return -ENOMEM;
	for (i = 0; !ret && i < src->n; i++) {
		uint64_t k = ivhist_get(src, i, h);

		ret = fold(dst, k, h);
	}
	free(h);
	if (src->err && !ret)
		ret = src->err;
	if (ret)
		dst->err = ret;
	return ret;
}

uint64_t ivhist_get(const struct ivhist *v, size_t i, struct hist *h)
{
	const struct ivh_closed *c = &v->iv[i];
	uint32_t j;

	hist_init(h);
	for (j = 0; j < c->n; j++)
		h->bucket[c->b[j]] = c->c[j];
	h->count = c->count;
	h->min = c->min;
	h->max = c->max;
	h->sum = c->sum;
	h->sumsq = c->sumsq;
	return c->k;
}

void ivhist_free(struct ivhist *v)
{
	size_t i;

	for (i = 0; i < v->n; i++) {
		free(v->iv[i].b);
		free(v->iv[i].c);
	}
	free(v->iv);
	free(v->cur);
	memset(v, 0, sizeof(*v));
}
