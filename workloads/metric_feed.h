/* SPDX-License-Identifier: GPL-2.0 */
/*
 * metric_feed.h - a service's latency read live while a run goes: a file being appended
 * (a log), a FIFO, or the standard output of a command (tune `--latency-cmd 'ping -D ...'`),
 * line by line through mstream.h into samples handed to the caller as they arrive.
 *
 * One reader thread per feed. A line without a timestamp is stamped when it is read
 * (CLOCK_MONOTONIC): at once from a FIFO or a pipe, within FEED_FILE_POLL_NS of being
 * written to a regular file (which gives no wakeup); a line with its own timestamp is
 * placed by it. A regular file that is there when the feed starts is read from its end
 * (its old lines are the past); one that appears later is read from its start (fio
 * writes its logs when its job ends). A file truncated or replaced (log rotation) is
 * read again from its start.
 *
 * Failures go to opts.fail once, from the reader thread, with a message that says what
 * to do: the stream stopped (samples came, then none for the stall time), nothing came
 * within first_ns, the metric command exited (even with status 0: the stream ended
 * before the run did). metric_feed_stop drains what is still
 * there (the file's last lines, the command's output until it ends) before it returns.
 *
 * Return convention: NULL + errno with errbuf, 0 or -errno.
 */
#ifndef DEFERBENCH_METRIC_FEED_H
#define DEFERBENCH_METRIC_FEED_H

#include <stdint.h>

#include "mstream.h"

#define FEED_FILE_POLL_NS (50ULL * 1000 * 1000)
#define FEED_STALL_MIN_NS (5ULL * 1000 * 1000 * 1000)

struct metric_feed_opts {
	const char *path;	/* a file or FIFO; NULL with cmd */
	const char *cmd;	/* a shell command whose standard output is the stream */
	enum mstream_fmt fmt;
	/*
	 * nothing at all within first_ns of the start is a failure (0: no limit - a file
	 * its writer may fill only when it ends); once samples came, none for the longer
	 * of FEED_STALL_MIN_NS and ten mean gaps between them is one
	 */
	uint64_t first_ns;
	uint64_t stall_min_ns;	/* 0: FEED_STALL_MIN_NS */
	/* each sample, from the reader thread; a non-zero return is a failure (not kept) */
	int (*sample)(const struct mstream_sample *s, const char *metric, void *ctx);
	void (*fail)(void *ctx, int err, const char *msg);
	void *ctx;
};

struct metric_feed;

/* metric_feed_start - open the source (start the command) and its reader thread */
struct metric_feed *metric_feed_start(const struct metric_feed_opts *o, char *errbuf);
/*
 * metric_feed_stop - read what is left (a command: SIGTERM to its group, its output to
 * the end, bounded by 2 s), stop the reader; 0 or the failure already reported. The
 * stream's counts stay readable (metric_feed_stream) until metric_feed_free.
 */
int metric_feed_stop(struct metric_feed *f);
const struct mstream *metric_feed_stream(const struct metric_feed *f);
/* metric_feed_free - stops first if needed (the command killed, the thread joined) */
void metric_feed_free(struct metric_feed *f);

#endif
