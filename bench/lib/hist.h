/* SPDX-License-Identifier: GPL-2.0 */
/*
 * hist.h - log-linear latency histogram in nanoseconds.
 *
 * Values below 128 ns are counted exactly. Above, every power of two [2^e, 2^(e+1)) is
 * split into 64 equal buckets, so a bucket is at most 1/64 of its lower bound wide and
 * a value reported at the bucket midpoint is within 1/128 (0.78%) of every value that
 * fell in it. The range reaches 2^40 ns (about 18 minutes); larger values are counted in
 * the last bucket, and min/max/sum stay exact. Memory is fixed (HIST_BUCKETS counters),
 * and histograms merge by adding counters, across CPUs, intervals and runs alike.
 */
#ifndef DEFERBENCH_HIST_H
#define DEFERBENCH_HIST_H

#include <stdbool.h>
#include <stdint.h>

#define HIST_LINEAR 128		/* values 0..127 get a bucket each */
#define HIST_SUB_BITS 6		/* 64 buckets per power of two above that */
#define HIST_SUB (1U << HIST_SUB_BITS)
#define HIST_MAX_EXP 40		/* last octave is [2^39, 2^40) */
#define HIST_BUCKETS (HIST_LINEAR + (HIST_MAX_EXP - 7) * HIST_SUB)

struct hist {
	uint64_t count;
	uint64_t min;
	uint64_t max;
	uint64_t sum;		/* ns; overflows after 584 years of summed latency */
	double sumsq;
	uint64_t bucket[HIST_BUCKETS];
};

/* The figures deferbench reports for every histogram. */
struct hist_stats {
	uint64_t count;
	uint64_t min;
	uint64_t max;
	double mean;
	double stddev;
	uint64_t p50;
	uint64_t p90;
	uint64_t p99;
	uint64_t p999;
};

void hist_init(struct hist *h);
static inline unsigned int hist_index(uint64_t v)
{
	unsigned int e;

	if (v < HIST_LINEAR)
		return (unsigned int)v;
	e = 63 - __builtin_clzll(v);
	if (e >= HIST_MAX_EXP)
		return HIST_BUCKETS - 1;
	return HIST_LINEAR + (e - 7) * HIST_SUB + (unsigned int)((v >> (e - HIST_SUB_BITS)) - HIST_SUB);
}

static inline void hist_add(struct hist *h, uint64_t v)
{
	h->bucket[hist_index(v)]++;
	h->count++;
	h->sum += v;
	h->sumsq += (double)v * (double)v;
	if (v < h->min)
		h->min = v;
	if (v > h->max)
		h->max = v;
}

/* hist_add_n - count the value n times (used when reading histograms back) */
void hist_add_n(struct hist *h, uint64_t v, uint64_t n);
void hist_merge(struct hist *dst, const struct hist *src);
/* Lower bound and width (ns) of bucket i. */
uint64_t hist_bucket_lo(unsigned int i);
uint64_t hist_bucket_width(unsigned int i);
/*
 * hist_percentile - nearest-rank percentile, q in [0, 1]: the bucket holding the
 * ceil(q * count)-th smallest value, reported at its midpoint and clamped to
 * [min, max]. Returns 0 for an empty histogram.
 */
uint64_t hist_percentile(const struct hist *h, double q);
/*
 * hist_percentile_mid - the same, not clamped: the bucket's midpoint, as every verdict
 * reads a pooled percentile (analysis/stats/hboot.h), so that a report or an export
 * shows the very number a verdict used. 0 for an empty histogram.
 */
uint64_t hist_percentile_mid(const struct hist *h, double q);
double hist_mean(const struct hist *h);
double hist_stddev(const struct hist *h);
void hist_get_stats(const struct hist *h, struct hist_stats *st);
static inline bool hist_empty(const struct hist *h)
{
	return h->count == 0;
}

#endif
