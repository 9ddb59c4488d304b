/* SPDX-License-Identifier: GPL-2.0 */
/*
 * mstream.h - a service's latency as it writes it, read line by line into samples on
 * CLOCK_MONOTONIC: deferbench's line format, fio's latency logs and ping's output
 * (docs/tune.md, "Your latency, your format").
 *
 *   line   one sample a line, "[TIMESTAMP] LATENCY[UNIT]": TIMESTAMP in seconds
 *          (optional, may be in brackets), UNIT ns, us, ms or s (none: ns); '#' starts
 *          a comment. "12.5ms", "4113.250113 870us", "[1700000000.5] 0.9 ms".
 *   fio    fio's --write_lat_log files: "time_ms, value_ns, ddir, bs[, offset][, prio]",
 *          one metric per data direction (read, write, trim).
 *   ping   ping's output, with -D ("[1700000000.123456] 64 bytes from ...: icmp_seq=1
 *          ttl=64 time=0.045 ms") or without; replies that never came are counted.
 *
 * Every sample is one operation that completed: its instant (the line's timestamp, or
 * when the line arrived if it has none) is when it ended, and that instant minus the
 * latency is when it began - the instant deferbench assigns it to a phase by, as its
 * own workloads assign an operation by the instant it was due. A timestamp is seconds on
 * CLOCK_MONOTONIC (the trace clock `mono`), or Unix time (CLOCK_REALTIME) when it is
 * 1e9 s or more - no machine has been up 31 years - converted with the offset between
 * the two clocks that mstream_clock_sync() measured (ping -D prints Unix time).
 *
 * A line that is not a sample is counted and skipped, by reason (mstream_skips() says
 * how many and the first of each); nothing is ever read as 0. Pure but for
 * mstream_clock_sync(): the caller feeds bytes with the instant they arrived.
 */
#ifndef DEFERBENCH_MSTREAM_H
#define DEFERBENCH_MSTREAM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum mstream_fmt { MSF_AUTO, MSF_LINE, MSF_FIO, MSF_PING, MSF_NR };
extern const char *const mstream_fmt_names[MSF_NR];

/* Why a line gave no sample. */
enum mstream_skip {
	MSK_GARBAGE,	/* not a sample in the stream's format */
	MSK_NEGATIVE,	/* a negative latency */
	MSK_ABSURD,	/* a latency of MSTREAM_MAX_NS or more */
	MSK_FUTURE,	/* stamped later than it arrived: not CLOCK_MONOTONIC nor Unix time */
	MSK_BEFORE,	/* stamped before the stream was opened: old, or another clock */
	MSK_LOST,	/* ping: a request that got no reply (no latency to record) */
	MSK_DUP,	/* ping: a duplicate reply */
	MSK_NR
};
extern const char *const mstream_skip_names[MSK_NR];

/* the histograms' range (hist.h: 2^40 ns, about 18 minutes): a latency beyond is absurd */
#define MSTREAM_MAX_NS (1ULL << 40)
/* how far a timestamp may lie after the line's arrival (two clocks read apart) */
#define MSTREAM_SLACK_NS (1000ULL * 1000 * 1000)
#define MSTREAM_LINE_MAX 512
#define MSTREAM_METRICS 3	/* fio: read, write, trim */

struct mstream_sample {
	uint64_t begin_ns;	/* CLOCK_MONOTONIC: when the operation began (end - value) */
	uint64_t end_ns;	/* when it ended: its timestamp, or the line's arrival */
	uint64_t value_ns;	/* its latency */
	bool stamped;		/* end_ns is the line's own timestamp */
	int metric;		/* index for mstream_metric_name() */
};

struct mstream {
	enum mstream_fmt fmt;		/* MSF_AUTO until a line of one format decides it */
	uint64_t open_ns;		/* CLOCK_MONOTONIC: when reading began */
	int64_t rt_off_ns;		/* CLOCK_REALTIME - CLOCK_MONOTONIC */
	uint64_t lines;			/* lines read, blank and comments included */
	uint64_t samples;		/* lines that gave a sample */
	uint64_t ignored;		/* blank, comments, ping's header and summary */
	uint64_t stamped;		/* samples with their own timestamp */
	uint64_t skipped[MSK_NR];
	uint64_t skip_line[MSK_NR];	/* the first line skipped for each reason */
	char skip_text[MSK_NR][64];	/* and its text, escaped */
	uint64_t last_ns;		/* arrival of the last sample (0: none yet) */
	char part[MSTREAM_LINE_MAX + 1];	/* a line not complete yet */
	size_t plen;
	bool overlong;			/* the line being read is longer than MSTREAM_LINE_MAX */
};

/*
 * mstream_init - a stream of format fmt (MSF_AUTO: decided by its first sample line),
 * opened at open_ns (CLOCK_MONOTONIC); the clock offset is 0 until mstream_clock_sync
 */
void mstream_init(struct mstream *s, enum mstream_fmt fmt, uint64_t open_ns);
/* mstream_fmt_parse - "auto", "line", "fio" or "ping"; -EINVAL naming the choices */
int mstream_fmt_parse(const char *name, enum mstream_fmt *fmt, char *errbuf);
/* mstream_clock_sync - measure CLOCK_REALTIME - CLOCK_MONOTONIC now (Unix timestamps) */
void mstream_clock_sync(struct mstream *s);

/*
 * mstream_line - one complete line (no newline) that arrived at arrival_ns: 1 and the
 * sample in *out, or 0 (counted: ignored or skipped with its reason)
 */
int mstream_line(struct mstream *s, const char *line, uint64_t arrival_ns,
		 struct mstream_sample *out);

/* a sample to its consumer: 0 to go on, or -errno to stop mstream_feed with it */
typedef int (*mstream_fn)(const struct mstream_sample *smp, void *ctx);
/*
 * mstream_feed - n bytes as read (lines may be cut anywhere), arrived at arrival_ns:
 * each complete line through mstream_line, each sample to fn. 0 or fn's error.
 * mstream_finish - the stream ended: its last line even without a newline.
 */
int mstream_feed(struct mstream *s, const char *buf, size_t n, uint64_t arrival_ns,
		 mstream_fn fn, void *ctx);
int mstream_finish(struct mstream *s, uint64_t arrival_ns, mstream_fn fn, void *ctx);

/* mstream_metric_name - "latency" (line), "rtt" (ping), "read"/"write"/"trim" (fio) */
const char *mstream_metric_name(const struct mstream *s, int metric);
/* mstream_nskipped - every line skipped, whatever the reason */
uint64_t mstream_nskipped(const struct mstream *s);
/*
 * mstream_skips - what was skipped, for a message: "3 lines skipped: 2 not a sample
 * (first: line 4 'abc'), 1 negative (line 9 '-3ms')"; "" when none. Returns buf.
 */
char *mstream_skips(const struct mstream *s, char *buf, size_t len);
/*
 * mstream_verdict - why the stream could not be judged, or NULL: no line at all, lines
 * but not one sample, or samples that all lay outside the stream's time (then which
 * clock the timestamps must be on)
 */
const char *mstream_verdict(const struct mstream *s, char *buf, size_t len);

#endif
