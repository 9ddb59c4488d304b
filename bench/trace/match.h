/* SPDX-License-Identifier: GPL-2.0 */
/*
 * match.h - turn softirq and workqueue trace events into latency histograms.
 *
 * The matcher is fed decoded events in timestamp order (the capture merges the
 * per-CPU buffers first) and keeps only bounded state: pending raises per CPU and
 * vector, work items queued but not yet executed, items running, and the histograms.
 * It never formats anything; the output layer reads struct matcher.
 *
 * What the latencies are (all on trace_clock "mono", i.e. CLOCK_MONOTONIC, in ns):
 *   softirq delay    softirq_entry minus the earliest softirq_raise of that vector on
 *                    that CPU since the vector's previous softirq_entry on that CPU
 *   softirq runtime  softirq_exit minus softirq_entry
 *   wq activate wait workqueue_activate_work minus workqueue_queue_work; 0 when the
 *                    item was activated inside queue_work (no max_active hold-back)
 *   wq worker wait   workqueue_execute_start minus workqueue_activate_work
 *   wq delay         workqueue_execute_start minus workqueue_queue_work
 *   wq runtime       workqueue_execute_end minus workqueue_execute_start, same worker
 *   thread wakeup    sched_switch to a kworker or ksoftirqd thread minus the
 *                    sched_wakeup of that thread: how long the scheduler kept
 *                    deferred work's own threads waiting for a CPU
 */
#ifndef DEFERBENCH_MATCH_H
#define DEFERBENCH_MATCH_H

#include <stdbool.h>
#include <stdint.h>

#include "hist.h"
#include "map.h"

enum softirq_vec {
	SIRQ_HI, SIRQ_TIMER, SIRQ_NET_TX, SIRQ_NET_RX, SIRQ_BLOCK, SIRQ_IRQ_POLL,
	SIRQ_TASKLET, SIRQ_SCHED, SIRQ_HRTIMER, SIRQ_RCU, NR_SOFTIRQS
};
extern const char *const softirq_names[NR_SOFTIRQS];
/* softirq_vec_from_name - "NET_RX" -> SIRQ_NET_RX, -1 if unknown */
int softirq_vec_from_name(const char *name);

/* The event kinds deferbench decodes. */
enum ev_kind {
	EV_SOFTIRQ_RAISE, EV_SOFTIRQ_ENTRY, EV_SOFTIRQ_EXIT,
	EV_WQ_QUEUE, EV_WQ_ACTIVATE, EV_WQ_START, EV_WQ_END,
	EV_SCHED_SWITCH, EV_SCHED_WAKEUP,
	EV_NR
};
/* The one table of their names: tracefs system and event, and "system:event" for files */
struct ev_name {
	const char *system;	/* "irq" */
	const char *name;	/* "softirq_raise" */
	const char *id;		/* "irq:softirq_raise" */
};
extern const struct ev_name ev_names[EV_NR];

/* Worker pool, from the worker's comm or the execution context. */
enum pool_kind {
	POOL_UNKNOWN,	/* worker never seen in sched_switch nor in /proc at start */
	POOL_PERCPU,	/* kworker/N:M */
	POOL_PERCPU_HI,	/* kworker/N:MH */
	POOL_UNBOUND,	/* kworker/uN:M, N is the pool id */
	POOL_BH,	/* executed in softirq context on CPU N (BH workqueue) */
	POOL_RESCUER,	/* kworker/R-name, or a rescuer named after its workqueue */
};
#define POOL_ID(kind, num) (((uint32_t)(kind) << 24) | ((uint32_t)(num) & 0xffffff))
#define POOL_KIND(id) ((enum pool_kind)((id) >> 24))
#define POOL_NUM(id) ((id) & 0xffffff)
/* pool_name - "cpu0", "cpu0H", "unbound3", "bh0", "rescuer", "unknown" */
const char *pool_name(uint32_t pool, char *buf, size_t len);
/* What a task's comm says about the thread: which ones run deferred work. */
enum comm_kind {
	COMM_OTHER,		/* not a thread of deferred work */
	COMM_KWORKER,		/* a workqueue worker or rescuer: *pool is set */
	COMM_KSOFTIRQD,		/* ksoftirqd/N: *cpu is set */
};
enum comm_kind comm_classify(const char *comm, uint32_t *pool, int *cpu);

#define SIRQ_LONG_NS (2 * 1000000ULL)	/* MAX_SOFTIRQ_TIME: runs longer are counted */

struct sirq_group {
	uint64_t entries;	/* handler runs seen (with or without a matched raise) */
	struct hist delay;
	struct hist runtime;
	uint64_t ksoftirqd;	/* entries that ran in ksoftirqd/N rather than inline */
	uint64_t long_runs;	/* runtime > SIRQ_LONG_NS */
};

struct wq_group {
	uint32_t wq;		/* index into matcher.wq_names */
	uint32_t func;		/* index into matcher.funcs */
	uint32_t pool;		/* POOL_ID */
	struct hist delay;		/* queue -> execute_start */
	struct hist activate_wait;	/* queue -> activate */
	struct hist worker_wait;	/* activate -> execute_start */
	struct hist runtime;		/* execute_start -> execute_end */
	struct hist *ival_delay;	/* current interval, allocated on first use */
	struct hist *ival_runtime;
	bool ival_dirty;
};

/* Unmatched and in-flight counts: printed beside every figure. */
struct match_counts {
	uint64_t events[EV_NR];
	uint64_t events_total;		/* set by matcher_finish() */
	/* unmatched: one side of a pair is missing inside the capture */
	uint64_t sirq_entry_no_raise;	/* raised before the capture, or after a loss */
	uint64_t sirq_exit_no_entry;
	uint64_t wq_start_no_queue;	/* queued before the capture (or a flush barrier) */
	uint64_t wq_activate_no_queue;
	uint64_t wq_end_no_start;
	uint64_t wq_start_no_end;	/* the worker started another item first */
	/* neither unmatched nor loss: work that legitimately has no partner */
	uint64_t wq_barriers;		/* flush_work() barriers: run without queue_work */
	uint64_t wq_superseded;		/* queued again before running (cancelled or
					 * grabbed by mod_delayed_work), or a lost start */
	uint64_t sirq_entry_no_exit;	/* another entry came first on that CPU */
	/* in flight when the capture ended: the partner comes after the end */
	uint64_t sirq_raise_open;
	uint64_t sirq_entry_open;
	uint64_t wq_queued_open;
	uint64_t wq_running_open;
	/* loss seen inside the stream */
	uint64_t missed_events;		/* sum of in-band "missed events" counts */
	uint64_t missed_unknown;	/* sub-buffers that lost an unknown number */
	uint64_t late_events;		/* arrived behind the merge watermark (live only) */
};

/* Per-interval callback: kind 0 softirq (key = vector), 1 workqueue (key = group index). */
enum ival_kind { IVAL_SOFTIRQ, IVAL_WQ };
typedef void (*ival_cb)(void *ctx, uint64_t interval, enum ival_kind kind, uint32_t key,
			const struct hist *delay, const struct hist *runtime);

struct sirq_cpu {
	uint64_t raise_ts[NR_SOFTIRQS];	/* earliest pending raise, 0 = none */
	uint64_t entry_ts;		/* in-progress handler start, 0 = none */
	int entry_vec;
	uint64_t last_queued_work;	/* see match_wq_activate */
	int ksoftirqd_pid;		/* -1 until known */
};

/* Wakeup-to-running latency of the threads that run deferred work. */
struct wake_group {
	uint32_t pool;		/* POOL_ID of the kworkers, or the CPU of a ksoftirqd */
	struct hist wake;
};

struct func_info {
	uint64_t addr;
	uint64_t unmatched_starts;
};

struct matcher {
	int ncpus;
	struct sirq_cpu *cpu;
	struct sirq_group **sirq;	/* [cpu * NR_SOFTIRQS + vec], allocated on first use */
	struct map pending;		/* work -> struct wq_pending */
	struct map running;		/* pid, or BH key -> struct wq_running */
	struct map comms;		/* pid -> struct comm_info */
	struct map func_ids;		/* function address -> index in funcs */
	struct map group_ids;		/* (wq, func, pool) -> index in groups */
	struct map wq_ids;		/* hash of a workqueue name -> index in wq_names */
	struct func_info *funcs;
	uint32_t nfuncs, funcs_cap;
	char **wq_names;
	uint32_t nwq, wq_cap;
	struct wq_group **groups;
	uint32_t ngroups, groups_cap;
	struct hist **ksoftirqd_wake;	/* [cpu], allocated on first use */
	struct map wake_ids;		/* worker pool -> index in wake */
	struct wake_group **wake;
	uint32_t nwake, wake_cap;
	struct match_counts n;
	/* intervals */
	uint64_t t0;			/* capture start: interval 0 begins here */
	uint64_t ival_ns;		/* 0: no intervals */
	uint64_t ival_cur;
	uint64_t ival_end;		/* first ts of the next interval */
	struct hist *ival_sirq_delay[NR_SOFTIRQS];
	struct hist *ival_sirq_runtime[NR_SOFTIRQS];
	ival_cb on_interval;
	void *ival_ctx;
	uint64_t barrier_func;		/* address of wq_barrier_func, 0 if unknown */
	int enomem;			/* allocation failures: the result is not trustworthy */
};

int matcher_init(struct matcher *m, int ncpus, uint64_t t0, uint64_t ival_ns, ival_cb cb, void *ctx);
void matcher_free(struct matcher *m);
/* matcher_finish - close the last interval and count what is still in flight */
void matcher_finish(struct matcher *m);
/* matcher_unmatched - the total of the unmatched counters */
uint64_t matcher_unmatched(const struct matcher *m);
/* sirq_group_get - the group of (cpu, vec), or NULL if it never ran */
static inline struct sirq_group *sirq_group_get(const struct matcher *m, int cpu, int vec)
{
	return m->sirq[cpu * NR_SOFTIRQS + vec];
}

void match_interval_roll(struct matcher *m, uint64_t ts);
static inline void match_tick(struct matcher *m, uint64_t ts)
{
	if (__builtin_expect(ts >= m->ival_end, 0))
		match_interval_roll(m, ts);
}

/* Event handlers; cpu is the CPU whose buffer held the event. */
void match_softirq_raise(struct matcher *m, int cpu, uint64_t ts, unsigned int vec);
void match_softirq_entry(struct matcher *m, int cpu, uint64_t ts, unsigned int vec, int pid);
void match_softirq_exit(struct matcher *m, int cpu, uint64_t ts, unsigned int vec);
void match_wq_queue(struct matcher *m, int cpu, uint64_t ts, uint64_t work, uint64_t func,
		    const char *wq, unsigned int wqlen);
void match_wq_activate(struct matcher *m, int cpu, uint64_t ts, uint64_t work);
void match_wq_start(struct matcher *m, int cpu, uint64_t ts, int pid, bool in_softirq,
		    uint64_t work, uint64_t func);
void match_wq_end(struct matcher *m, int cpu, uint64_t ts, int pid, bool in_softirq,
		  uint64_t work);
/* match_comm - a task's name (len bytes, NUL-padded), from sched events or /proc */
void match_comm(struct matcher *m, int pid, const char *comm, unsigned int len);
void match_sched_wakeup(struct matcher *m, uint64_t ts, int pid, const char *comm,
			unsigned int len);
void match_sched_switch(struct matcher *m, uint64_t ts, int prev_pid, int next_pid,
			const char *next_comm, unsigned int len);
/* match_missed - the buffer of cpu lost events before this point (-1: count unknown) */
void match_missed(struct matcher *m, int cpu, long missed);

#endif
