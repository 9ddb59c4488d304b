/* SPDX-License-Identifier: GPL-2.0 */
/*
 * result.h - what one capture produced: the matcher's histograms and counters, the
 * loss counters of every CPU, and the metadata every output file carries. The live
 * capture and offline analysis (deferbench analyze) fill the same struct; output.c
 * prints the table and result_files.h writes the files from it.
 */
#ifndef DEFERBENCH_RESULT_H
#define DEFERBENCH_RESULT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "match.h"
#include "symtab.h"

/* Per-CPU ring-buffer counters, from per_cpu/cpuN/stats at the end of the capture. */
struct cpu_loss {
	uint64_t entries;		/* events still in the buffer (0 after a full read) */
	uint64_t overrun;		/* overwritten (overwrite mode; deferbench turns it off) */
	uint64_t commit_overrun;	/* lost while nested writers filled the page */
	uint64_t dropped;		/* not written: buffer full with overwrite off */
	uint64_t read_events;
	uint64_t missed_in_band;	/* "missed events" markers seen while reading */
};

struct result_meta {
	char kernel[128];
	char hostname[128];
	char started[32];		/* ISO 8601 UTC, metadata only */
	char command[1024];
	char trace_clock[16];
	unsigned int buffer_kb;
	uint64_t interval_ns;
	double capture_cpu_s;		/* CPU time of the reader and analysis threads */
	char sched_events[16];		/* "deferred" (filtered), "all", "off"; "": not said */
	bool missing[EV_NR];		/* events the running kernel lacks */
	/* record -- COMMAND: how the command ended (cmd_ended false: no command ran) */
	bool cmd_ended;
	int cmd_exit;			/* its exit status, or -1 when a signal ended it */
	int cmd_signal;			/* the signal that ended it, or 0 */
	bool cmd_stopped;		/* deferbench ended it: the duration was over, or Ctrl-C */
	/* what was kept beyond the histograms (detail.h); 0: nothing */
	uint32_t slowest;		/* the N slowest events per group */
	unsigned int stack_vecs;	/* kernel stacks of these vectors' entries */
	uint64_t keep_worst_ns;		/* sub-buffers kept around the worst delays */
	unsigned int worst_vecs;
};

struct result {
	struct matcher m;
	int ncpus;
	uint64_t start_ts;		/* trace clock (mono) at capture start */
	uint64_t end_ts;
	struct cpu_loss *loss;		/* [ncpus] */
	uint64_t lost_events;		/* sum over CPUs (kernel counters, or in-band if larger) */
	bool lossy;
	struct symtab syms;
	struct result_meta meta;
};

/* result_init - zeroed result for ncpus CPUs, with the matcher set up; 0 / -ENOMEM */
int result_init(struct result *r, int ncpus, uint64_t start_ts, uint64_t interval_ns,
		ival_cb cb, void *cb_ctx);
void result_free(struct result *r);
/*
 * result_cpu_loss_parse - the counters of one CPU's per_cpu/cpuN/stats text ("overrun: 3"
 * lines) into l; counters the text lacks are left as they were; the text may go on
 * with the next CPU's ("CPU: N", as in a trace.dat), which is not read
 */
void result_cpu_loss_parse(const char *text, struct cpu_loss *l);
/* result_finish - close matching, sum losses, decide lossy */
void result_finish(struct result *r);
/*
 * result_detail - set up the matcher's detail (detail.h) as r->meta says: slowest events,
 * stacks, the worst delays followed; 0 (also when meta asks for nothing) or -ENOMEM
 */
int result_detail(struct result *r);
/* result_duration_s - seconds from capture start to end */
double result_duration_s(const struct result *r);

/* how the terminal table prints (record, analyze) */
struct table_opts {
	bool ns;			/* times in whole ns (default: us, one decimal) */
	unsigned int min_count;		/* rows of fewer samples fold into one "other" row */
};
/* below this many samples a row's p90 and up are its largest sample */
#define TABLE_MIN_COUNT 10

/*
 * output_print - the terminal table (output.c), as o says (NULL: us, rows folded below
 * TABLE_MIN_COUNT); the files are in result_files.h and hold every row
 */
void output_print(const struct result *r, FILE *f, const struct table_opts *o);

#endif
