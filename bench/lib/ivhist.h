/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ivhist.h - one histogram per interval of time, for a latency recorded by one thread:
 * interval k holds the samples whose operation was due in [t0 + k ival, t0 + (k+1) ival)
 * (t0: the measurement window's start). What compare's bootstrap resamples inside a
 * repetition (hboot.h) and what workload-intervals.csv keeps (ivfile.h).
 *
 * The open interval is a full struct hist; an interval is kept sparse (its non-empty
 * buckets and exact count, min, max, sum) once a sample of a later one arrives, so a
 * long run costs memory by the buckets it uses, not 18 KB per interval. A sample due in
 * an interval already closed (a late one) is added to it there. One writer per ivhist;
 * readers after the writer stopped.
 */
#ifndef DEFERBENCH_IVHIST_H
#define DEFERBENCH_IVHIST_H

#include <stddef.h>
#include <stdint.h>

#include "hist.h"

struct ivh_closed {
	uint64_t k;
	uint32_t n;		/* non-empty buckets */
	uint16_t *b;		/* bucket indices, ascending */
	uint64_t *c;
	uint64_t count, min, max, sum;
	double sumsq;
};

struct ivhist {
	uint64_t ival;		/* interval length (ns); 0: no intervals kept */
	struct hist *cur;	/* the open interval, NULL before the first sample */
	uint64_t cur_k;
	struct ivh_closed *iv;	/* ascending k */
	size_t n, cap;
	int err;		/* -ENOMEM once a sample could not be kept; sticky */
};

void ivhist_init(struct ivhist *v, uint64_t ival_ns);
/* ivhist_add - value v of the operation due at t (t0: the window's start) */
void ivhist_add(struct ivhist *v, uint64_t t0, uint64_t t, uint64_t value);
/* ivhist_finish - close the open interval (after the writer stopped); 0 or v->err */
int ivhist_finish(struct ivhist *v);
/* ivhist_merge - add src's intervals into dst (both finished); 0 or -ENOMEM */
int ivhist_merge(struct ivhist *dst, const struct ivhist *src);
/* ivhist_get - closed interval i (of v->n) as a full histogram in h; returns its k */
uint64_t ivhist_get(const struct ivhist *v, size_t i, struct hist *h);
void ivhist_free(struct ivhist *v);

#endif
