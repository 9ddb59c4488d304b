// SPDX-License-Identifier: GPL-2.0
/*
 * bucket.c - bucket lists, the histograms of the result files as read: built, parsed
 * from "lo:count" text, checked against the bucket layout, turned into histograms (see
 * rundata.h).
 */
#include "rundata.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>

#include "grow.h"
#include "msg.h"

int bucketlist_add(struct bucketlist *bl, uint64_t lo, uint64_t hi, uint64_t count)
{
	if (GROW(bl->b, bl->cap, bl->n + 1))
		return -ENOMEM;
	bl->b[bl->n++] = (struct bucket){ lo, hi, count };
	return 0;
}

void bucketlist_free(struct bucketlist *bl)
{
	free(bl->b);
	memset(bl, 0, sizeof(*bl));
}

uint64_t bucketlist_count(const struct bucketlist *bl)
{
	uint64_t n = 0;
	size_t i;

	for (i = 0; i < bl->n; i++)
		n += bl->b[i].count;
	return n;
}

void buckets_to_hist(const struct bucketlist *bl, const struct hist_stats *exact,
		     struct hist *h)
{
	bool was_empty = h->count == 0;
	size_t i;

	for (i = 0; i < bl->n; i++) {
		const struct bucket *b = &bl->b[i];

		hist_add_n(h, b->lo + (b->hi > b->lo ? (b->hi - b->lo) / 2 : 0), b->count);
	}
	if (!exact || !was_empty || exact->count != h->count || !h->count)
		return;
	h->min = exact->min;
	h->max = exact->max;
	h->sum = (uint64_t)llround(exact->mean * (double)exact->count);
	h->sumsq = (exact->stddev * exact->stddev + exact->mean * exact->mean) *
		   (double)exact->count;
}

bool bucket_valid(uint64_t lo, uint64_t hi)
{
	unsigned int i = hist_index(lo);

	if (hist_bucket_lo(i) != lo)
		return false;
	return i == HIST_BUCKETS - 1 || hi == lo + hist_bucket_width(i);
}

int bucketlist_parse(const char *text, struct bucketlist *bl, char *errbuf)
{
	const char *p = text;

	while (*p) {
		unsigned long long lo, n;
		char *end;

		while (*p == ' ')
			p++;
		if (!*p)
			break;
		errno = 0;
		lo = strtoull(p, &end, 10);
		if (end == p || *end != ':' || errno)
			return set_err(errbuf, "'%.40s' is not lo_ns:count", p);
		p = end + 1;
		n = strtoull(p, &end, 10);
		if (end == p || (*end && *end != ' ') || errno)
			return set_err(errbuf, "'%.40s' is not lo_ns:count", p);
		p = end;
		if (!bucket_valid(lo, lo + hist_bucket_width(hist_index(lo))))
			return set_err(errbuf, "%llu is not the lower bound of a histogram bucket", lo);
		if (n && bucketlist_add(bl, lo, lo + hist_bucket_width(hist_index(lo)), n))
			return errno_msg(errbuf, -ENOMEM, "out of memory");
	}
	return 0;
}
