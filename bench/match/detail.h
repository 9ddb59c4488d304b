/* SPDX-License-Identifier: GPL-2.0 */
/*
 * detail.h - what the matcher keeps beyond its histograms when asked (record --slowest,
 * --stacks, --keep-worst): the slowest events of each group, and the kernel stacks of
 * softirq entries with the delay each entry ended.
 *
 * The slowest events: per softirq vector, workqueue group (workqueue, function, pool)
 * and execution context (but the softirq contexts: the vectors are those), the N
 * longest delays and runtimes, each with the trace-clock time of the event that ended
 * it, its CPU, for a softirq delay its split into causes (sirq_wait.c) and the task
 * that held bottom halves off, for a work item the task that queued it, and the kernel
 * stack of the softirq entry where there is one. Every sample also goes to its
 * histogram: a group's slowest event is its histogram's max, and the event's time puts
 * it in the row of intervals.csv whose max it is.
 *
 * Stacks: the stacktrace trigger on irq:softirq_entry (the chosen vectors only) makes
 * the kernel write a kernel_stack record right after the entry, on the same CPU, before
 * the handler runs. A stack joins the CPU's running handler when that is of a chosen
 * vector and has no stack yet (else it counts as unjoined), and is summed under that
 * vector with the handler's delay, the delay's causes and its runtime. Equal stacks
 * (the same return addresses) are stored once.
 */
#ifndef DEFERBENCH_DETAIL_H
#define DEFERBENCH_DETAIL_H

#include <stdbool.h>
#include <stdint.h>

#include "map.h"
#include "match.h"

#define SLOWEST_DEFAULT 10	/* slowest events kept per group and metric */
#define SLOWEST_MAX 1000
#define STACK_DEPTH_MAX 64	/* frames kept, innermost first; deeper ones are cut */
#define STACKS_MAX 65536	/* distinct stacks kept; more count in stack_overflow */

/* The vectors the workloads drive: what --stacks traces when it names none. */
#define STACK_VECS_DEFAULT ((1u << SIRQ_NET_RX) | (1u << SIRQ_BLOCK) | (1u << SIRQ_TIMER))

enum slow_kind { SLOW_SOFTIRQ, SLOW_WQ, SLOW_CTX, SLOW_KIND_NR };
enum slow_metric { SLOW_DELAY, SLOW_RUNTIME, SLOW_METRIC_NR };

struct slow_ev {
	uint64_t ns;			/* the delay or runtime */
	uint64_t ts;			/* trace clock: the event that ended it */
	uint64_t part[WAIT_NR];		/* softirq delays: the split into causes */
	int cpu;			/* -1: unknown */
	uint32_t stack;			/* the entry's stack: id + 1, 0: none */
	char task[TASK_COMM_LEN];	/* held BH off, or queued the work; "": none */
	bool split;			/* part[] is set */
	bool ksoftirqd;			/* a softirq that ran in ksoftirqd */
};

/* The N largest samples so far: a min-heap on ns (ev[0] is the smallest kept). */
struct slow_heap {
	struct slow_ev *ev;		/* N of them, allocated on first use */
	uint32_t n;
};

struct stack {
	uint64_t hash;
	uint32_t off;			/* first frame in detail.frames */
	uint32_t depth;
};

/* The entries of one vector that had one stack. */
struct stack_agg {
	uint32_t vec, stack;
	uint64_t count;			/* entries */
	uint64_t waits, wait_ns;	/* those with a matched raise, and their delays */
	uint64_t part_ns[WAIT_NR];	/* the delays split into causes */
	uint64_t runs, run_ns;		/* those that exited, and their runtimes */
	uint64_t long_runs, long_run_ns;	/* runtime > SIRQ_LONG_NS */
	uint64_t ksoftirqd;		/* ran in ksoftirqd */
};

/* A vector's longest delay so far (record --keep-worst keeps the trace around it). */
struct worst {
	uint64_t ns, raise_ts, entry_ts;
	int cpu;
	uint32_t gen;			/* detail.worst_gen when it was set */
};

struct detail {
	uint32_t slowest;		/* N per group and metric; 0: none kept */
	unsigned int stack_vecs;	/* a bit per vector: stacks expected */
	unsigned int worst_vecs;	/* a bit per vector: its worst delay followed */
	struct slow_heap sirq[NR_SOFTIRQS][SLOW_METRIC_NR];
	struct slow_heap *wq;		/* [group * 2 + metric], grown with the groups */
	uint32_t nwq;
	struct slow_heap *ctx;		/* [context * 2 + metric] */
	uint32_t nctx;
	/* stacks */
	struct stack *st;
	uint32_t nst, st_cap;
	uint64_t *frames;
	size_t nframes, frames_cap;
	struct map st_ids;		/* a stack's hash -> index */
	struct stack_agg *agg;
	uint32_t nagg, agg_cap;
	struct map agg_ids;		/* (stack, vector) -> index */
	uint64_t stack_entries;		/* entries of the chosen vectors */
	uint64_t stack_records;		/* kernel_stack records */
	uint64_t stack_joined;		/* joined to an entry */
	uint64_t stack_unjoined;	/* no entry of a chosen vector waiting for one */
	uint64_t stack_overflow;	/* joined, but beyond STACKS_MAX distinct stacks */
	uint64_t stack_truncated;	/* deeper than STACK_DEPTH_MAX */
	struct worst worst[NR_SOFTIRQS];
	uint32_t worst_gen;		/* bumped at every new worst */
};

/*
 * detail_init - keep the slowest (N per group, 0: none), the stacks of the
 * stack_vecs vectors and the worst delay of the worst_vecs ones; 0 or -ENOMEM
 */
int detail_init(struct matcher *m, uint32_t slowest, unsigned int stack_vecs,
		      unsigned int worst_vecs);
void detail_free(struct matcher *m);
/* detail_heap - a group's slowest of one metric (group: vector, wq or context index) */
const struct slow_heap *detail_heap(const struct detail *d, enum slow_kind kind,
				    uint32_t group, int metric);
/* detail_slow_sorted - the heap's events, longest first (ties: the earlier first); caller frees */
struct slow_ev *detail_slow_sorted(const struct slow_heap *h);
static inline const uint64_t *stack_frames(const struct detail *d, uint32_t id)
{
	return d->frames + d->st[id].off;
}
/* detail_vecs_parse - "NET_RX,BLOCK" (or "all") into a bit per vector; -EINVAL in errbuf */
int detail_vecs_parse(const char *text, unsigned int *vecs, char *errbuf);
/* detail_vecs_format - "NET_RX,BLOCK" (kernel order) into buf */
const char *detail_vecs_format(unsigned int vecs, char *buf, size_t len);

#endif
