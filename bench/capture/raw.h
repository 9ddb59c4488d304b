/* SPDX-License-Identifier: GPL-2.0 */
/*
 * raw.h - the files a raw capture keeps (record --raw) and offline analysis reads.
 *
 * DIR/raw/
 *   capture.json        schema deferbench-raw/1: CPUs, sub-buffer size, start/end
 *                       timestamps, interval, metadata, per-CPU loss counters; what
 *                       was kept beyond the histograms (slowest, stacks, keep_worst),
 *                       and for an excerpt of record --keep-worst the delay it is around
 *   header_page         the ring buffer's sub-buffer header format
 *   formats/SYS/EVENT   the format file of every event that was enabled (and of
 *                       ftrace/kernel_stack with record --stacks)
 *   cpuN.dat            CPU N's sub-buffers as read from trace_pipe_raw, each
 *                       exactly sub-buffer-size bytes, in reading order
 *   comms               "pid comm" of kernel workers and ksoftirqd at capture start, then
 *                       of the tasks named during it (those that held bottom halves off)
 *   symbols             "addr T name" of every work function and stack frame seen
 */
#ifndef DEFERBENCH_RAW_H
#define DEFERBENCH_RAW_H

#include <stddef.h>

#include "match.h"
#include "result.h"

#define RAW_SCHEMA "deferbench-raw/1"

struct comm_entry {
	int pid;
	char comm[16];
};

int raw_save_formats(const char *rawdir, const char *header, size_t hlen,
		     char *const formats[EV_NR]);
/* raw_load_formats - formats[k] NULL when the event was not enabled; caller frees */
int raw_load_formats(const char *rawdir, char **header, size_t *hlen, char *formats[EV_NR],
		     char *errbuf);
int raw_save_comms(const char *rawdir, const struct comm_entry *c, size_t n);
/* raw_add_comms - names learnt during the capture, after those of its start */
int raw_add_comms(const char *rawdir, const struct comm_entry *c, size_t n);
/*
 * raw_load_comms - the comms file: "pid comm" lines; *c is malloc'ed (caller frees).
 * raw_parse_comms parses len bytes of text (modified in place), path names it in
 * messages. Both: 0 or -EINVAL with the file and line in errbuf.
 */
int raw_load_comms(const char *rawdir, struct comm_entry **c, size_t *n, char *errbuf);
int raw_parse_comms(char *text, size_t len, const char *path, struct comm_entry **c,
		    size_t *n, char *errbuf);

/*
 * raw_save_symbols - the symbols file: the symbol of every work function, of
 * wq_barrier_func and of every stack frame r saw, each once; 0 or -errno
 */
int raw_save_symbols(const char *rawdir, const struct result *r);
/* raw_save_meta - capture.json, after the capture stopped */
int raw_save_meta(const char *rawdir, const struct result *r, unsigned int subbuf_size);
/*
 * An excerpt (record --keep-worst): the sub-buffers around one vector's worst delay,
 * a raw capture of its own whose capture.json says so ("excerpt") and spans only them.
 */
struct raw_excerpt {
	uint64_t start_ts, end_ts;	/* the span of its records, with the margin */
	uint64_t origin_ns;		/* the capture's intervals, moved before start_ts */
	char vector[16];
	uint64_t delay_ns, raise_ns, entry_ns;	/* the worst delay: raise -> entry */
	int cpu;
	uint64_t margin_ns;
	uint64_t *records;		/* [cpu]: the records its cpuN.dat holds */
};
int raw_save_excerpt_meta(const char *rawdir, const struct result *r, unsigned int subbuf_size,
			  const struct raw_excerpt *ex);

struct raw_meta {
	int ncpus;
	unsigned int subbuf_size;
	uint64_t start_ts, end_ts, interval_ns;
	uint64_t interval_origin_ns;	/* interval 0 begins here (start_ts, or before it) */
	struct result_meta meta;	/* with what was kept beyond the histograms */
	struct cpu_loss *loss;		/* [ncpus], caller frees */
	bool is_excerpt;		/* record --keep-worst's excerpt: */
	struct raw_excerpt excerpt;	/* around which delay */
};
/*
 * raw_load_meta - capture.json of rawdir, checked (a power-of-two sub-buffer size, a
 * loss entry per CPU, ...); raw_parse_meta the same from text, path naming it in
 * messages. 0 or -EINVAL with the reason in errbuf; rm->loss is the caller's to free.
 */
int raw_load_meta(const char *rawdir, struct raw_meta *rm, char *errbuf);
int raw_parse_meta(const char *text, size_t len, const char *path, struct raw_meta *rm,
		   char *errbuf);

#endif
