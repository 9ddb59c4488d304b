/* SPDX-License-Identifier: GPL-2.0 */
/*
 * top_snap.h - one interval of the live view (deferbench top), taken from the matcher
 * when the interval ends: the workqueues (grouped per workqueue, per function or per
 * pool), the softirq vectors per context, and the other execution contexts. Only
 * numbers: bench/cli/top_view.c formats them.
 *
 * Per workqueue row (items that started or ended in the interval):
 *   items        execute_start of an item whose queue_work was seen
 *   in_flight    queued or running at the interval's end (per pool: running only, a
 *                queued item has no pool yet)
 *   cpu_ns       the runtimes (execute_start -> end) of the items that ended
 *   over_thresh  of those, the ones that ran longer than cpu_intensive_thresh_us (wall
 *                clock: an upper bound of the kernel's count, which is of CPU time)
 *   rescued      items executed by a rescuer thread
 *   delay        queue_work -> execute_start: p50, p99, max
 */
#ifndef DEFERBENCH_TOP_SNAP_H
#define DEFERBENCH_TOP_SNAP_H

#include <stdint.h>

#include "result.h"
#include "rundata.h"

enum top_group { TOP_BY_WQ, TOP_BY_FUNC, TOP_BY_POOL, TOP_GROUP_NR };
extern const char *const top_group_names[TOP_GROUP_NR];	/* "workqueue", ... */

struct top_wq {
	char wq[NAME_LEN];
	char func[FUNC_LEN];		/* "" per workqueue */
	char pool[NAME_LEN];		/* "" unless per pool */
	uint64_t items, in_flight, cpu_ns, over_thresh, rescued;
	uint64_t delay_p50, delay_p99, delay_max;
	uint32_t folded;		/* the "other" row: how many rows it holds; else 0 */
};

struct top_ctx {
	char context[NAME_LEN];		/* "softirq", "napi_thread", ... */
	char name[FUNC_LEN];		/* vector, device, thread, function */
	char where[NAME_LEN];
	uint64_t runs, delays;
	double ksoftirqd_share;		/* softirq: of the vector's runs (all contexts) */
	uint64_t delay_p50, delay_p99, delay_max, runtime_p99, long_runs;
};

struct top_snap {
	uint64_t interval;		/* index on the trace clock grid */
	uint64_t start_ns, end_ns;	/* trace clock mono */
	uint64_t events;		/* decoded in the interval */
	uint64_t lost_in_band;		/* missed-event markers so far (the kernel's
					 * counters are read by the caller) */
	uint64_t unattributed;		/* items started without a seen queue_work, so far */
	struct top_wq *wq;
	size_t nwq;
	struct top_ctx *ctx;		/* softirq rows first, then the other contexts */
	size_t nctx;
};

/*
 * top_snap_take - the interval that ends now, from r->m (called from the matcher's
 * ival_end_cb); events_before is the event total at the previous interval's end, and is
 * updated. Workqueue rows of fewer than min_count items and none in flight are folded
 * into one "other" row (wq "other", folded > 0) when there are two or more; 0 or 1
 * folds none. Returns NULL on ENOMEM.
 */
struct top_snap *top_snap_take(const struct result *r, uint64_t interval,
			       enum top_group group, unsigned int min_count,
			       uint64_t *events_before);
void top_snap_free(struct top_snap *s);

#endif
