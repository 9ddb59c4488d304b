// SPDX-License-Identifier: GPL-2.0
/*
 * cumhist.c - cumulative histograms of units, and percentiles of weighted merges
 * (cumhist.h).
 */
#include "cumhist.h"

#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

void cumhist_range(const struct hb_rep *reps, uint32_t n, uint32_t *lo, uint32_t *hi)
{
	uint32_t u, i;

	for (u = 0; u < n; u++)
		for (i = 0; i < reps[u].n; i++) {
			const struct hb_ival *iv = &reps[u].iv[i];

			if (!iv->n)
				continue;
			if (iv->idx[0] < *lo)
				*lo = iv->idx[0];
			if (iv->idx[iv->n - 1] + 1 > *hi)
				*hi = iv->idx[iv->n - 1] + 1;
		}
}

int cumhist_build(struct cumhist *ch, const struct hb_rep *reps, uint32_t n, uint32_t lo,
		  uint32_t hi)
{
	uint32_t u, i, k;

	memset(ch, 0, sizeof(*ch));
	cumhist_range(reps, n, &lo, &hi);
	if (lo >= hi)
		lo = hi = 0;
	ch->lo = lo;
	ch->w = hi - lo;
	ch->n = n;
	ch->total = calloc(n ? n : 1, sizeof(*ch->total));
	ch->nz_off = calloc((size_t)n + 1, sizeof(*ch->nz_off));
	ch->acc = calloc(ch->w ? ch->w : 1, sizeof(*ch->acc));
	if (!ch->total || !ch->nz_off || !ch->acc)
		goto nomem;
	for (u = 0; u < n; u++)
		for (ch->nz_off[u + 1] = ch->nz_off[u], i = 0; i < reps[u].n; i++)
			ch->nz_off[u + 1] += reps[u].iv[i].n;
	ch->nz_x = malloc((ch->nz_off[n] ? ch->nz_off[n] : 1) * sizeof(*ch->nz_x));
	ch->nz_c = malloc((ch->nz_off[n] ? ch->nz_off[n] : 1) * sizeof(*ch->nz_c));
	if (!ch->nz_x || !ch->nz_c)
		goto nomem;
	for (u = 0; u < n; u++) {
		uint64_t z = ch->nz_off[u];

		for (i = 0; i < reps[u].n; i++) {
			const struct hb_ival *iv = &reps[u].iv[i];

			for (k = 0; k < iv->n; k++, z++) {
				ch->nz_x[z] = iv->idx[k] - lo;
				ch->nz_c[z] = iv->cnt[k];
			}
			ch->total[u] += iv->total;
		}
	}
	return 0;
nomem:
	cumhist_free(ch);
	return -ENOMEM;
}

int cumhist_dense(struct cumhist *ch)
{
	size_t n = ch->n;
	uint64_t *c, z;
	uint32_t u, x;

	if (ch->c)
		return 0;
	c = calloc((size_t)(ch->w ? ch->w : 1) * (n ? n : 1), sizeof(*c));
	if (!c)
		return -ENOMEM;
	/* counts first, then a running sum down each unit's column */
	for (u = 0; u < ch->n; u++)
		for (z = ch->nz_off[u]; z < ch->nz_off[u + 1]; z++)
			c[(size_t)ch->nz_x[z] * n + u] += ch->nz_c[z];
	for (x = 1; x < ch->w; x++)
		for (u = 0; u < ch->n; u++)
			c[(size_t)x * n + u] += c[(size_t)(x - 1) * n + u];
	ch->c = c;
	return 0;
}

uint64_t cumhist_unit_below(struct cumhist *ch, uint32_t u, uint32_t x)
{
	uint64_t s = 0, z;

	if (ch->c)
		return ch->c[(size_t)x * ch->n + u];
	for (z = ch->nz_off[u]; z < ch->nz_off[u + 1]; z++)
		if (ch->nz_x[z] <= x)
			s += ch->nz_c[z];
	return s;
}

void cumhist_free(struct cumhist *ch)
{
	free(ch->c);
	free(ch->total);
	free(ch->nz_off);
	free(ch->nz_x);
	free(ch->nz_c);
	free(ch->acc);
	memset(ch, 0, sizeof(*ch));
}

uint64_t cumhist_below(struct cumhist *ch, const uint32_t *wt, const uint32_t *on,
		       uint32_t non, uint32_t x)
{
	const uint64_t *row;
	uint64_t s = 0;
	uint32_t i;

	if (cumhist_dense(ch)) {	/* no memory: from the buckets */
		for (i = 0; i < non; i++)
			s += cumhist_unit_below(ch, on[i], x) * wt[on[i]];
		return s;
	}
	row = ch->c + (size_t)x * ch->n;
	for (i = 0; i < non; i++)
		s += row[on[i]] * wt[on[i]];
	return s;
}

/*
 * sparse_cheaper - adding non drawn units' buckets (the average unit's count of them
 * each) and scanning the range costs less than log2(range) passes over them
 */
static bool sparse_cheaper(const struct cumhist *ch, uint32_t non)
{
	double per_unit = ch->n ? (double)ch->nz_off[ch->n] / ch->n : 0;
	double steps = ceil(log2((double)ch->w + 1));

	return per_unit * non + ch->w < steps * non;
}

/* sparse_quantile - the same percentile from the drawn units' own buckets */
static uint32_t sparse_quantile(const struct cumhist *ch, const uint32_t *wt,
				const uint32_t *on, uint32_t non, uint64_t rank)
{
	uint64_t s = 0, z;
	uint32_t i, x;

	for (i = 0; i < non; i++)
		for (z = ch->nz_off[on[i]]; z < ch->nz_off[on[i] + 1]; z++)
			ch->acc[ch->nz_x[z]] += ch->nz_c[z] * wt[on[i]];
	for (x = 0; x < ch->w && (s += ch->acc[x]) < rank; x++)
		;
	memset(ch->acc, 0, (size_t)ch->w * sizeof(*ch->acc));
	return ch->lo + (x < ch->w ? x : ch->w - 1);
}

uint32_t cumhist_quantile(struct cumhist *ch, const uint32_t *wt, const uint32_t *on,
			  uint32_t non, double q)
{
	uint64_t total = 0, rank;
	uint32_t i, a = 0, b;

	for (i = 0; i < non; i++)
		total += ch->total[on[i]] * wt[on[i]];
	if (!total || !ch->w)
		return UINT32_MAX;
	rank = (uint64_t)ceil(q * (double)total);
	if (rank < 1)
		rank = 1;
	if (sparse_cheaper(ch, non) || cumhist_dense(ch))
		return sparse_quantile(ch, wt, on, non, rank);
	/* the smallest x whose merged count at or below it reaches the rank */
	b = ch->w - 1;
	while (a < b) {
		uint32_t m = a + (b - a) / 2;

		if (cumhist_below(ch, wt, on, non, m) >= rank)
			b = m;
		else
			a = m + 1;
	}
	return ch->lo + a;
}
