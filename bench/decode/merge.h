/* SPDX-License-Identifier: GPL-2.0 */
/*
 * merge.h - merge the per-CPU ring-buffer streams into one timestamp-ordered stream.
 *
 * Workqueue items are queued on one CPU and run on another, so events must reach the
 * matcher in global time order. Each CPU's sub-buffers come from a page source (the
 * live readers' queues, or a raw capture file). merger_run() hands the matcher every
 * event older than a watermark in (timestamp, cpu) order, so a live run and an offline
 * analysis of the same sub-buffers see the same sequence.
 *
 * The rule that keeps the order right while CPUs are read independently: a CPU that
 * has a record at hand will never produce an older one (each CPU's buffer is in time
 * order), so only CPUs with nothing at hand hold the merge back, and only up to their
 * horizon: the time before which their reader has queued everything.
 */
#ifndef DEFERBENCH_MERGE_H
#define DEFERBENCH_MERGE_H

#include <stdatomic.h>
#include <stdint.h>

#include "decode.h"
#include "result.h"

struct kbuffer;

struct page_src {
	/* next sub-buffer of cpu, or NULL if none is available yet */
	void *(*get)(void *ctx, int cpu);
	/* the merger is done with a sub-buffer returned by get */
	void (*put)(void *ctx, int cpu, void *page);
	/*
	 * every record of cpu older than the returned time has been queued (UINT64_MAX
	 * when the source is complete); read before get() is tried
	 */
	uint64_t (*horizon)(void *ctx, int cpu);
	void *ctx;
	unsigned int size;		/* bytes of one sub-buffer */
	uint64_t ts_lo, ts_hi;		/* every record's timestamp lies in [ts_lo, ts_hi] */
	/*
	 * strict (a file): the first bad sub-buffer or record stops the merge with
	 * merger.err; otherwise (live) it is skipped and counted as lost events
	 */
	bool strict;
};

struct merge_cpu {
	struct kbuffer *kbuf;
	void *page;
	void *rec;		/* current record, NULL when the page is used up */
	uint64_t ts;
	uint64_t pages;		/* sub-buffers taken from the source so far */
	uint64_t records;	/* events handed to the decoder */
};

/* Where the merge found a sub-buffer or record it would not read. */
struct merge_bad {
	int cpu;
	uint64_t subbuf;	/* index in the CPU's stream (a file: offset / size) */
	unsigned int offset;	/* byte within the sub-buffer */
	char what[160];
};

struct merger {
	int ncpus;
	struct decoder *dec;
	struct result *res;
	struct page_src src;
	struct merge_cpu *cpu;
	uint64_t last_ts;
	uint64_t first_ts;	/* of the first record merged; 0: none yet */
	uint64_t max_gap;	/* the longest time between two records in merged order */
	uint64_t bad_subbufs;	/* sub-buffers skipped (live) */
	uint64_t bad_records;	/* records skipped (live) */
	struct merge_bad first_bad;
	int err;		/* -EPROTO: a strict source is damaged at first_bad */
	/*
	 * gap_at - the capture's events came back on at this time after a pause
	 * (merger_gap); before the first record at or after it the matcher drops what
	 * was pending (match_gap). UINT64_MAX: none pending. Set from another thread.
	 */
	_Atomic uint64_t gap_at;
};

/* merger_init - src->size must be set; 0 or -errno */
int merger_init(struct merger *mg, int ncpus, struct decoder *dec, struct result *res,
		const struct page_src *src);
void merger_free(struct merger *mg);
/* merger_run - process every record that is provably next in time order */
void merger_run(struct merger *mg);
/* merger_gap - the events are back on since ts (any thread): see gap_at */
void merger_gap(struct merger *mg, uint64_t ts);

#endif
