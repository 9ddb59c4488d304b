/* SPDX-License-Identifier: GPL-2.0 */
/*
 * capture.h - system-wide softirq/workqueue capture in a private tracefs instance.
 *
 * Lifecycle (one owner, like rtla's run_tool):
 *   capture_new()   check privileges, mount tracefs if needed, create the instance
 *                   "deferbench-<pid>" with tracing off, trace_clock mono, overwrite off,
 *                   the buffer size, and the events enabled
 *   capture_start() start one reader thread per CPU and the analysis thread, tracing on
 *   capture_stop()  tracing off, wake the readers, flush partial sub-buffers, read the
 *                   per-CPU stats, finish matching
 *   capture_free()  destroy the instance; safe at any stage and twice
 * On error each step leaves the capture in a state capture_free() cleans.
 */
#ifndef DEFERBENCH_CAPTURE_H
#define DEFERBENCH_CAPTURE_H

#include <stdbool.h>
#include <stdint.h>

#include "result.h"

/* Ring buffer per CPU (KiB) and per-interval statistics: defaults and bounds. */
#define CAPTURE_DEFAULT_BUFFER_KB 4096
#define CAPTURE_MIN_BUFFER_KB 64
#define CAPTURE_MAX_BUFFER_KB (1024 * 1024)
#define CAPTURE_DEFAULT_INTERVAL_NS 1000000000ULL
#define CAPTURE_MIN_INTERVAL_NS 10000000ULL	/* 10 ms */

struct capture_opts {
	unsigned int buffer_kb;		/* per CPU */
	uint64_t interval_ns;		/* per-interval histograms; 0 = none */
	const char *raw_dir;		/* keep raw sub-buffers and formats here, or NULL */
	bool no_sched;			/* leave sched_switch/sched_wakeup off */
	bool sched_all;			/* every switch and wakeup, not only those of the
					 * threads that run deferred work (SCHED_FILTER) */
	const char *cpus;		/* CPU list the reader and analysis threads run on
					 * (away from the measured CPUs), or NULL: any */
	const char *intervals_csv;	/* write per-interval statistics here, or NULL */
	const char *command;		/* recorded in the metadata */
	bool align_intervals;		/* intervals at multiples of interval_ns on the trace
					 * clock (interval 0 is then partial), so that
					 * captures side by side have the same intervals */
	ival_end_cb on_interval_end;	/* called in the analysis thread at each interval's
					 * end, with the matcher (see match.h) */
	void *interval_ctx;
	uint64_t long_work_ns;		/* count work items that ran longer, per interval */
	/* beyond the histograms (detail.h), all off by default */
	uint32_t slowest;		/* keep the N slowest events of each group; 0: none */
	unsigned int stack_vecs;	/* a kernel stack at each entry of these vectors (a
					 * bit per vector; the stacktrace trigger); 0: none */
	uint64_t keep_worst_ns;		/* keep the sub-buffers this long around the worst
					 * delay of each worst_vecs vector; 0: none */
	unsigned int worst_vecs;
	const char *worst_dir;		/* where: worst_dir/VECTOR/raw (with keep_worst_ns) */
};

struct capture;

/* capture_new - returns NULL and fills errbuf (ERRBUF_LEN) on failure */
struct capture *capture_new(const struct capture_opts *opts, char *errbuf);
int capture_start(struct capture *c);
int capture_stop(struct capture *c);
/*
 * capture_free - 0, or -errno when the instance stays (an error said; the journal keeps
 * it for 'deferbench restore')
 */
int capture_free(struct capture *c);
/*
 * capture_note_command - record -- COMMAND: how the command ended (a wait status), and
 * whether deferbench ended it; kept in the results. Before capture_stop().
 */
void capture_note_command(struct capture *c, int wait_status, bool stopped);
/*
 * capture_pause - every event of the capture off (its tracepoints disabled, so that the
 * workload runs as untraced: the capture-off arm of an alternating run); capture_resume
 * - back on, and the matcher drops whatever was pending across the pause (match_gap).
 * Between capture_start and capture_stop, from one thread; 0 or -errno.
 */
int capture_pause(struct capture *c);
int capture_resume(struct capture *c);
/* capture_result - valid after capture_stop() until capture_free() */
struct result *capture_result(struct capture *c);
/*
 * capture_live_result - the result being filled, for on_interval_end only (it runs in the
 * analysis thread, the only one that writes it): symbols, metadata, loss counters
 */
const struct result *capture_live_result(const struct capture *c);
/*
 * capture_kernel_lost - events the kernel dropped so far, from the per-CPU stats files
 * (overrun + commit overrun + dropped), read now; 0 or -errno when a file is unreadable
 */
int capture_kernel_lost(struct capture *c, uint64_t *lost);

#endif
