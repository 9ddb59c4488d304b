/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tracedat.h - deferbench's figures from a trace.dat written by trace-cmd (record, or
 * extract of an instance), read with libtracecmd, through the same decoder and matcher
 * as a live capture. The events must be the ones deferbench enables (ev_names); a file
 * that lacks them gets a message naming every missing event and the trace-cmd command
 * that records them.
 */
#ifndef DEFERBENCH_TRACEDAT_H
#define DEFERBENCH_TRACEDAT_H

#include <stdbool.h>
#include <stdint.h>

/* tracedat_is_file - whether path is a file that starts with trace.dat's magic */
bool tracedat_is_file(const char *path);

struct table_opts;

struct tracedat_opts {
	const char *buffer;		/* an instance's buffer by name; NULL: the one with data */
	uint64_t interval_ns;		/* intervals.csv (from the first event on); 0: none */
	uint64_t start_ns, end_ns;	/* only the events in [start, end] (end 0: to the end) */
	const char *outdir;		/* write every result file here, or NULL */
	const struct table_opts *table;	/* how the table prints; NULL: the defaults */
};

/*
 * tracedat_analyze - print the table of path's events to stdout and write the result
 * files into o->outdir. 0 or -errno with a message in errbuf (ERRBUF_LEN).
 */
int tracedat_analyze(const char *path, const struct tracedat_opts *o, char *errbuf);

#endif
