// SPDX-License-Identifier: GPL-2.0
/*
 * hist.c - log-linear latency histogram (see hist.h for the bucket layout).
 */
#include "hist.h"

#include <math.h>
#include <string.h>

void hist_init(struct hist *h)
{
	memset(h, 0, sizeof(*h));
	h->min = UINT64_MAX;
}

void hist_add_n(struct hist *h, uint64_t v, uint64_t n)
{
	if (!n)
		return;
	h->bucket[hist_index(v)] += n;
	h->count += n;
	h->sum += v * n;
	h->sumsq += (double)v * (double)v * (double)n;
	if (v < h->min)
		h->min = v;
	if (v > h->max)
		h->max = v;
}

void hist_merge(struct hist *dst, const struct hist *src)
{
	unsigned int i;

	if (!src->count)
		return;
	for (i = 0; i < HIST_BUCKETS; i++)
		dst->bucket[i] += src->bucket[i];
	dst->count += src->count;
	dst->sum += src->sum;
	dst->sumsq += src->sumsq;
	if (src->min < dst->min)
		dst->min = src->min;
	if (src->max > dst->max)
		dst->max = src->max;
}

uint64_t hist_bucket_lo(unsigned int i)
{
	unsigned int e, s;

	if (i < HIST_LINEAR)
		return i;
	e = (i - HIST_LINEAR) / HIST_SUB + 7;
	s = (i - HIST_LINEAR) % HIST_SUB;
	return (uint64_t)(HIST_SUB + s) << (e - HIST_SUB_BITS);
}

uint64_t hist_bucket_width(unsigned int i)
{
	unsigned int e;

	if (i < HIST_LINEAR)
		return 1;
	e = (i - HIST_LINEAR) / HIST_SUB + 7;
	return 1ULL << (e - HIST_SUB_BITS);
}

uint64_t hist_percentile_mid(const struct hist *h, double q)
{
	uint64_t rank, seen = 0;
	unsigned int i;

	if (!h->count)
		return 0;
	rank = (uint64_t)ceil(q * (double)h->count);
	if (rank < 1)
		rank = 1;
	for (i = 0; i < HIST_BUCKETS; i++) {
		seen += h->bucket[i];
		if (seen >= rank)
			break;
	}
	if (i == HIST_BUCKETS)
		i = HIST_BUCKETS - 1;
	return hist_bucket_lo(i) + (hist_bucket_width(i) > 1 ? hist_bucket_width(i) / 2 : 0);
}

uint64_t hist_percentile(const struct hist *h, double q)
{
	uint64_t v;

	if (!h->count)
		return 0;
	if (q <= 0)
		return h->min;
	if (q >= 1)
		return h->max;
	v = hist_percentile_mid(h, q);
	if (v < h->min)
		v = h->min;
	if (v > h->max)
		v = h->max;
	return v;
}

double hist_mean(const struct hist *h)
{
	return h->count ? (double)h->sum / (double)h->count : 0.0;
}

double hist_stddev(const struct hist *h)
{
	double mean, var;

	if (h->count < 2)
		return 0.0;
	mean = hist_mean(h);
	/* population variance; clamp the rounding error of E[x^2] - E[x]^2 */
	var = h->sumsq / (double)h->count - mean * mean;
	return var > 0 ? sqrt(var) : 0.0;
}

void hist_get_stats(const struct hist *h, struct hist_stats *st)
{
	st->count = h->count;
	st->min = h->count ? h->min : 0;
	st->max = h->max;
	st->mean = hist_mean(h);
	st->stddev = hist_stddev(h);
	st->p50 = hist_percentile(h, 0.50);
	st->p90 = hist_percentile(h, 0.90);
	st->p99 = hist_percentile(h, 0.99);
	st->p999 = hist_percentile(h, 0.999);
}
