// SPDX-License-Identifier: GPL-2.0
/*
 * cumhist.c - cumulative histograms of units, and percentiles of weighted merges
 * (cumhist.h).
 */
#include "cumhist.h"

#include <errno.h>
#include <math.h>
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
	uint32_t u, i, k, x;

	memset(ch, 0, sizeof(*ch));
	cumhist_range(reps, n, &lo, &hi);
	if (lo >= hi)
		lo = hi = 0;
	ch->lo = lo;
	ch->w = hi - lo;
	ch->n = n;
	ch->c = calloc((size_t)(ch->w ? ch->w : 1) * (n ? n : 1), sizeof(*ch->c));
	ch->total = calloc(n ? n : 1, sizeof(*ch->total));
	if (!ch->c || !ch->total) {
		cumhist_free(ch);
		return -ENOMEM;
	}
	/* counts first, then a running sum down each unit's column */
	for (u = 0; u < n; u++)
		for (i = 0; i < reps[u].n; i++) {
			const struct hb_ival *iv = &reps[u].iv[i];

			for (k = 0; k < iv->n; k++)
				ch->c[(size_t)(iv->idx[k] - lo) * n + u] += iv->cnt[k];
			ch->total[u] += iv->total;
		}
	for (x = 1; x < ch->w; x++)
		for (u = 0; u < n; u++)
			ch->c[(size_t)x * n + u] += ch->c[(size_t)(x - 1) * n + u];
	return 0;
}

void cumhist_free(struct cumhist *ch)
{
	free(ch->c);
	free(ch->total);
	memset(ch, 0, sizeof(*ch));
}

uint64_t cumhist_below(const struct cumhist *ch, const uint32_t *wt, const uint32_t *on,
		       uint32_t non, uint32_t x)
{
	const uint64_t *row = ch->c + (size_t)x * ch->n;
	uint64_t s = 0;
	uint32_t i;

	for (i = 0; i < non; i++)
		s += row[on[i]] * wt[on[i]];
	return s;
}

uint32_t cumhist_quantile(const struct cumhist *ch, const uint32_t *wt, const uint32_t *on,
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
