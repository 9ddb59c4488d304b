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
 * and, per execution context (match_ctx.c, the table in ctx_kind below), the delay and
 * runtime of deferred work in each place the kernel ran it; per softirq vector, each
 * delay split into its causes (sirq_wait.c).
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

/*
 * The event kinds deferbench decodes. The first nine are the core: without them there
 * is nothing to measure. The rest add execution contexts and the causes of softirq
 * delay; a kernel that lacks one (or gives it another layout) loses only the figures
 * that need it (ev_optional).
 */
enum ev_kind {
	EV_SOFTIRQ_RAISE, EV_SOFTIRQ_ENTRY, EV_SOFTIRQ_EXIT,
	EV_WQ_QUEUE, EV_WQ_ACTIVATE, EV_WQ_START, EV_WQ_END,
	EV_SCHED_SWITCH, EV_SCHED_WAKEUP,
	EV_TASKLET_ENTRY, EV_TASKLET_EXIT,
	EV_IRQ_ENTRY, EV_IRQ_EXIT,
	EV_TIMER_IRQ_ENTRY, EV_TIMER_IRQ_EXIT,
	EV_NAPI_POLL,
	EV_KERNEL_STACK,
	EV_NR
};
#define EV_FIRST_OPTIONAL EV_TASKLET_ENTRY
static inline bool ev_optional(int k)
{
	return k >= EV_FIRST_OPTIONAL;
}
/*
 * ev_by_trigger - ftrace:kernel_stack is no tracepoint: the stacktrace trigger of
 * softirq_entry writes it (record --stacks, detail.h), and only then is it read
 */
static inline bool ev_by_trigger(int k)
{
	return k == EV_KERNEL_STACK;
}
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
	POOL_BH,	/* executed in softirq context on CPU N (BH workqueue): from the
			 * TASKLET softirq, or a softirq run that was not seen */
	POOL_BH_HI,	/* ... from the HI softirq: the BH-highpri pool (kick_bh_pool()) */
	POOL_RESCUER,	/* kworker/R-name, or a rescuer named after its workqueue */
};
#define POOL_ID(kind, num) (((uint32_t)(kind) << 24) | ((uint32_t)(num) & 0xffffff))
#define POOL_KIND(id) ((enum pool_kind)((id) >> 24))
#define POOL_NUM(id) ((id) & 0xffffff)
/* match_pool_name - "cpu0", "cpu0H", "unbound3", "bh0", "bh0H", "rescuer", "unknown" */
const char *match_pool_name(uint32_t pool, char *buf, size_t len);
/* What a task's comm says about the thread: which ones run deferred work. */
enum comm_kind {
	COMM_OTHER,		/* not a thread of deferred work */
	COMM_KWORKER,		/* a workqueue worker or rescuer: *pool is set */
	COMM_KSOFTIRQD,		/* ksoftirqd/N: *cpu is set */
	COMM_NAPI,		/* napi/DEV-ID: threaded NAPI */
	COMM_IRQ_THREAD,	/* irq/N-name: a threaded interrupt handler */
	/* per-CPU threads of PREEMPT_RT (and of threadirqs / thread_backlog_napi) */
	COMM_BACKLOG_NAPI,	/* backlog_napi/N: the backlog NAPI of CPU N (6.10) */
	COMM_KTIMERS,		/* ktimers/N: timer softirqs of forced-threaded kernels */
	COMM_RCUC,		/* rcuc/N: RCU core work when use_softirq is off (RT) */
	COMM_IRQ_WORK,		/* irq_work/N: lazy irq_work items on PREEMPT_RT */
};
enum comm_kind match_comm_classify(const char *comm, uint32_t *pool, int *cpu);
/* comm_is_thread_ctx - a thread whose wakeups and runs are an execution context */
static inline bool comm_is_thread_ctx(enum comm_kind k)
{
	return k >= COMM_NAPI;
}

#define SIRQ_LONG_NS (2 * 1000000ULL)	/* MAX_SOFTIRQ_TIME: runs longer are counted */

/*
 * The context bits of every trace entry's common_flags (the kernel's enum
 * trace_flag_type, set by tracing_gen_ctx() from the preempt count when the event
 * fired). BH_OFF is set while softirq_count() holds disable bits, i.e. inside
 * local_bh_disable() (also when a hard interrupt arrived there); older kernels never set
 * it (5.17 and later do: tracing_gen_ctx_irq_test()). On PREEMPT_RT softirq_count() is
 * the task's own count (current->softirq_disable_cnt), so both bits mean the same there.
 */
#define TRACE_FL_HARDIRQ	0x08
#define TRACE_FL_SOFTIRQ	0x10	/* in_serving_softirq() */
#define TRACE_FL_NMI		0x40
#define TRACE_FL_BH_OFF		0x80

struct sirq_group {
	uint64_t entries;	/* handler runs seen (with or without a matched raise) */
	struct hist delay;
	struct hist runtime;
	uint64_t ksoftirqd;	/* entries that ran in ksoftirqd/N rather than inline */
	uint64_t long_runs;	/* runtime > SIRQ_LONG_NS */
};

/*
 * Execution contexts: every place the kernel ran deferred work, each with a delay
 * (from the event that asked for the work to the one that shows it running) and a
 * runtime, on trace_clock mono:
 *
 *   context      name             where               delay                      runtime
 *   softirq      vector           inline, ksoftirqd,  softirq_raise -> entry     entry -> exit
 *                                 ktimers, irq_thread
 *   tasklet      function         HI, TASKLET         the raise the enclosing    tasklet_entry
 *                                                     softirq consumed ->        -> exit
 *                                                     tasklet_entry
 *   napi_poll    device           softirq, ksoftirqd, (none: no event asks for   see below
 *                                 thread, busy_poll,   a poll)
 *                                 backlog_napi
 *   napi_thread  napi/DEV-ID      -                   sched_wakeup -> switch in  switch in -> out
 *   irq_thread   irq/N-name       -                   sched_wakeup -> switch in  switch in -> out
 *   backlog_napi backlog_napi/N   -                   sched_wakeup -> switch in  switch in -> out
 *   ktimers      ktimers/N        -                   sched_wakeup -> switch in  switch in -> out
 *   rcuc         rcuc/N           -                   sched_wakeup -> switch in  switch in -> out
 *   irq_work     irq_work/N       -                   sched_wakeup -> switch in  switch in -> out
 *   hardirq      N:name, or       -                   (none)                     irq_handler_entry
 *                local_timer                                                     -> exit
 *   workqueue    pool kind        -                   queue_work -> start        start -> end
 *
 * A napi_poll event comes after the poll returned; its runtime is measured from the
 * last mark on that CPU in the same task: the NET_RX softirq_entry, the previous
 * napi_poll, a softirq_exit, or the napi thread's switch-in (busy polls only from a
 * previous poll). It is an upper bound that includes the loop around the poll.
 * Workqueue contexts are the workqueue groups merged by pool kind (at output time).
 *
 * A softirq runs where its softirq_entry's task is: ksoftirqd/N, ktimers/N (the TIMER and
 * HRTIMER softirqs of a forced-threaded kernel, run_ktimerd(); any vector pending then
 * runs with them), an irq/ thread (the softirqs its handler raised, run at the
 * local_bh_enable() of irq_forced_thread_fn()), or else "inline" (irq exit, or the
 * local_bh_enable() of any other task). The PREEMPT_RT threads (backlog_napi/, ktimers/,
 * rcuc/, irq_work/) are contexts of their own like the napi/ and irq/ threads; a NAPI
 * poll in a backlog_napi/ thread (napi_threaded_poll_loop() with BH disabled, not in a
 * softirq) is "backlog_napi", not a busy poll.
 */
enum ctx_kind {
	CTX_SOFTIRQ, CTX_TASKLET, CTX_NAPI_POLL, CTX_NAPI_THREAD, CTX_BACKLOG_NAPI,
	CTX_IRQ_THREAD, CTX_KTIMERS, CTX_RCUC, CTX_IRQ_WORK, CTX_HARDIRQ, CTX_WORKQUEUE, CTX_NR
};
extern const char *const ctx_kind_names[CTX_NR];	/* "softirq", ... */
/* ctx_kind_from_name - "napi_poll" -> CTX_NAPI_POLL, -1 if unknown */
int ctx_kind_from_name(const char *name);

enum ctx_where {
	WHERE_NONE, WHERE_INLINE, WHERE_KSOFTIRQD, WHERE_SOFTIRQ, WHERE_THREAD,
	WHERE_BUSY_POLL, WHERE_HI, WHERE_TASKLET, WHERE_KTIMERS, WHERE_IRQ_THREAD,
	WHERE_BACKLOG, WHERE_NR
};
/* The softirq contexts' places, in the order of matcher.sirq_ctx */
enum sirq_place { SP_INLINE, SP_KSOFTIRQD, SP_KTIMERS, SP_IRQ_THREAD, SP_NR };
extern const char *const ctx_where_names[WHERE_NR];	/* "", "inline", ... */

struct ctx_group {
	uint8_t kind;		/* enum ctx_kind */
	uint8_t where;		/* enum ctx_where */
	uint32_t name;		/* CTX_TASKLET: index into funcs; else into matcher.strs */
	uint32_t id;		/* its index in matcher.ctx */
	uint64_t count;		/* runs, polls, wakeups, handler calls */
	uint64_t long_runs;	/* runtime > SIRQ_LONG_NS */
	uint64_t work;		/* napi_poll: packets, summed */
	uint64_t budget_full;	/* napi_poll: polls that used their whole budget */
	uint32_t budget;	/* napi_poll: the last budget seen */
	struct hist delay;
	struct hist runtime;
	/* the current interval, allocated on first use */
	struct hist *ival_delay, *ival_runtime;
	uint64_t ival_count, ival_long;
	bool ival_dirty;
};

/*
 * Why a softirq waited (sirq_wait.c): each delay, raise -> entry on one CPU, is cut
 * into parts that add up to it exactly (docs/figures.md defines each for users).
 * While the vector was pending the CPU was
 *   WAIT_HARDIRQ      in a hard interrupt handler (irq_handler_entry/exit, and the
 *                     local timer interrupt where the kernel traces it)
 *   WAIT_RAISED_IN    in the rest of the softirq handler that was running at the raise
 *                     (a handler is never interrupted by another vector: the raise
 *                     waits for it to end, whatever its priority; a vector raised in
 *                     its own handler waits for that run here)
 *   WAIT_SIRQ_HIGHER  in a higher-priority vector's handler (lower number) that started
 *                     after the raise: the normal order
 *   WAIT_SIRQ_LOWER   in a lower-priority vector's handler that started after the raise
 *                     (the loop ran it first, e.g. after the vector re-raised itself)
 *   WAIT_KSOFTIRQD_RUN  when the vector ran in ksoftirqd: ksoftirqd on the CPU running
 *                     other vectors' handlers, or its own code between them
 *   and the rest of the time, outside every handler, is
 *   WAIT_BH_DISABLED  before the first softirq handler on the CPU, when the raise came
 *                     from a task holding local_bh_disable() (or from an interrupt of
 *                     it): the rest of the section, up to local_bh_enable(), while the
 *                     holder ran; the task is named
 *   WAIT_BH_PREEMPTED the same section while its holder was off the CPU: on PREEMPT_RT
 *                     a BH-disabled task can be preempted (or block on a sleeping lock);
 *                     from the holder's sched_switch out to its switch back in, as far
 *                     as the capture's sched events show them (hard irqs taken out).
 *                     Always 0 where BH-disabled sections cannot be preempted.
 *   WAIT_KSOFTIRQD_WAIT  when the vector ran in ksoftirqd: waiting for ksoftirqd to get
 *                     the CPU (woken, or preempted, while other tasks ran)
 *   WAIT_OWN          when the vector ran inline in one of deferbench's own threads
 *                     (comm "deferbench": the capture, not the workloads' db-* threads):
 *                     the CPU was running deferbench when the wait ended
 *   WAIT_OTHER        everything else: irq exit, the softirq loop between handlers,
 *                     other tasks, interrupts not traced
 * Where it was raised comes from the raise event's common_flags.
 */
enum sirq_cause {
	WAIT_HARDIRQ, WAIT_RAISED_IN, WAIT_SIRQ_HIGHER, WAIT_SIRQ_LOWER, WAIT_BH_DISABLED,
	WAIT_BH_PREEMPTED, WAIT_KSOFTIRQD_WAIT, WAIT_KSOFTIRQD_RUN, WAIT_OWN, WAIT_OTHER,
	WAIT_NR
};
/* wait_bh_ns - the whole BH-disabled part of a split: holder running or preempted */
static inline uint64_t wait_bh_ns(const uint64_t *part)
{
	return part[WAIT_BH_DISABLED] + part[WAIT_BH_PREEMPTED];
}
extern const char *const sirq_cause_names[WAIT_NR];
enum sirq_origin { ORIG_HARDIRQ, ORIG_SOFTIRQ, ORIG_TASK_BH_OFF, ORIG_TASK, ORIG_NR };
extern const char *const sirq_origin_names[ORIG_NR];
/* sirq_origin_of - where a raise with these common_flags happened */
enum sirq_origin sirq_origin_of(unsigned int flags);

#define WAIT_TASKS_MAX 64	/* BH-disabling tasks kept per vector; the rest are summed */
#define TASK_COMM_LEN 16

struct wait_task {
	char comm[TASK_COMM_LEN];	/* "pid N" when the name was never seen */
	uint64_t delays;		/* delays it held back */
	uint64_t total_ns;		/* WAIT_BH_DISABLED time it caused */
	uint64_t max_ns;
};

/* One vector's delays, all CPUs, split by cause. */
struct sirq_wait {
	uint64_t delays;			/* delays split (every matched delay) */
	uint64_t delay_ns;			/* their sum */
	uint64_t origin[ORIG_NR];		/* delays by where the raise came from */
	uint64_t origin_ns[ORIG_NR];
	uint64_t cause_ns[WAIT_NR];		/* summed over delays; adds up to delay_ns */
	struct hist cause[WAIT_NR];		/* per delay, the part of each cause (> 0) */
	struct wait_task task[WAIT_TASKS_MAX];
	uint32_t ntasks;
	struct wait_task other_tasks;		/* beyond WAIT_TASKS_MAX */
};

/*
 * One vector's waits in the current interval, split as above (intervals.csv kind
 * softirq_wait), so that a run's phases each get their own causes: every split delay,
 * and each cause's part where present; the delays by where their raise came from; and
 * each BH-disabling task's part, at the index of its struct sirq_wait task[] (allocated
 * on first use; the tasks beyond WAIT_TASKS_MAX are not kept per interval).
 */
struct sirq_wait_ival {
	struct hist all;
	struct hist part[WAIT_NR];
	struct hist origin[ORIG_NR];
	struct hist *task[WAIT_TASKS_MAX];
	bool dirty;
};

/* The raise a pending vector waits from, with the CPU's time accounts at that moment. */
struct sirq_pending {
	uint64_t hi;				/* hard irq time account at the raise */
	uint64_t sirq[NR_SOFTIRQS];		/* each vector's handler time account */
	uint64_t sirq_ks[NR_SOFTIRQS];		/* ... the part of it run in ksoftirqd */
	uint64_t sirq_sum;			/* their sum */
	uint64_t ks_out;			/* ksoftirqd on the CPU outside handlers */
	int in_vec;				/* the handler running at the raise, -1: none */
	bool in_ks;				/* ... in ksoftirqd */
	uint64_t mark_ts;			/* first softirq_entry on the CPU after it */
	uint64_t mark_hi;			/* the hard irq account then */
	uint64_t mark_sirq;			/* and the sum of the handler accounts */
	unsigned int flags;			/* the raise's common_flags */
	int pid;				/* the raise's common_pid */
	/* BH held off by pid (flags): its time off the CPU before mark_ts */
	uint64_t away_ns;			/* closed periods, hard irqs taken out */
	uint64_t away_ts;			/* switched out at, 0 = on the CPU */
	uint64_t away_hi;			/* the hard irq account then */
};

/*
 * A BH work item's wait, tied to the softirq that ran it (match_wq_start): a BH pool is
 * kicked by raising TASKLET or, for the highpri pool, HI (kick_bh_pool()), and its items
 * run from that vector's handler (workqueue_softirq_action() at the top of tasklet_action()
 * and tasklet_hi_action()). So an item's delay is the wait before that run - the
 * vector's own wait, whose causes softirq_wait splits - and its turn inside the run.
 */
struct bh_tie {
	int vec;		/* SIRQ_HI or SIRQ_TASKLET, of the last item; -1: none seen */
	uint64_t items;		/* items run inside a softirq run that was seen */
	struct hist before;	/* queue_work -> softirq_entry of the run (0: queued in it) */
	struct hist inside;	/* that entry, or the queueing if later -> execute_start */
	uint64_t split;		/* items queued before their run's entry, whose run's
				 * delay was split into causes */
	uint64_t run_delay_ns;	/* those runs' delays, once per item */
	uint64_t cause_ns[WAIT_NR];	/* ... split (sirq_wait.c), once per item */
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
	struct hist *ival_activate;	/* ... its activate_wait and worker_wait, */
	struct hist *ival_worker;	/* which intervals.csv writes too */
	uint64_t ival_long;		/* items of the interval that ran longer than
					 * matcher.long_work_ns */
	bool ival_dirty;
	/* workqueue_queue_work's cpu and req_cpu (match_wq_queue_cpu), of matched items */
	uint64_t queued_known;		/* items whose target CPU was traced */
	uint64_t queued_remote;		/* ... queued to a per-CPU pool of another CPU */
	uint64_t queued_req;		/* ... for a CPU the caller chose (queue_work_on()) */
	struct bh_tie *bh;		/* BH pools only, allocated on first use */
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
	uint64_t tasklet_exit_no_entry;
	uint64_t irq_exit_no_entry;
	/* neither unmatched nor loss: work that legitimately has no partner */
	uint64_t wq_barriers;		/* flush_work() barriers: run without queue_work */
	uint64_t wq_superseded;		/* queued again before running (cancelled or
					 * grabbed by mod_delayed_work), or a lost start */
	uint64_t sirq_entry_no_exit;	/* another entry came first on that CPU */
	uint64_t tasklet_no_softirq;	/* a tasklet outside a HI/TASKLET softirq run */
	uint64_t wait_inconsistent;	/* delays whose time accounts did not add up (a
					 * lost or reordered event): not split */
	/* in flight when the capture ended: the partner comes after the end */
	uint64_t sirq_raise_open;
	uint64_t sirq_entry_open;
	uint64_t wq_queued_open;
	uint64_t wq_running_open;
	/* loss seen inside the stream */
	uint64_t missed_events;		/* sum of in-band "missed events" counts */
	uint64_t missed_unknown;	/* sub-buffers that lost an unknown number */
	uint64_t late_events;		/* arrived behind the merge watermark (live only) */
	/* the capture paused its events and resumed (the alternating design's untraced arm) */
	uint64_t gaps;			/* resumes after a pause */
	uint64_t gap_dropped;		/* what was pending then, dropped unpaired */
};

/*
 * Per-interval callback: kind IVAL_SOFTIRQ (key = vector), IVAL_WQ (key = group index),
 * IVAL_CONTEXT (key = context group index), IVAL_WAIT (key = vector: delay is its
 * split delays; the causes are in m->ival_wait[key], runtime is NULL), or the thread
 * wakeups IVAL_WAKE_KSOFTIRQD (key = CPU) and IVAL_WAKE_WORKER (key = index in m->wake):
 * delay is the wakeups, runtime NULL.
 */
enum ival_kind { IVAL_SOFTIRQ, IVAL_WQ, IVAL_CONTEXT, IVAL_WAIT, IVAL_WAKE_KSOFTIRQD,
		 IVAL_WAKE_WORKER };
typedef void (*ival_cb)(void *ctx, uint64_t interval, enum ival_kind kind, uint32_t key,
			const struct hist *delay, const struct hist *runtime);
struct matcher;
/*
 * ival_end_cb - called once per interval that had events, before the interval's
 * figures are reset: everything of the interval can be read from the matcher
 */
typedef void (*ival_end_cb)(void *ctx, const struct matcher *m, uint64_t interval);

/* What the matcher keeps per CPU. */
struct sirq_cpu {
	uint64_t raise_ts[NR_SOFTIRQS];	/* earliest pending raise, 0 = none */
	uint64_t entry_ts;		/* in-progress handler start, 0 = none */
	int entry_vec;
	bool entry_ks;			/* the running handler is in ksoftirqd */
	uint8_t entry_place;		/* ... where it runs: enum sirq_place */
	uint64_t entry_raise_ts;	/* the raise the running handler consumed, 0 = none */
	uint64_t entry_hi;		/* hard irq account at its entry */
	uint64_t last_queued_work;	/* see match_wq_activate */
	int ksoftirqd_pid;		/* -1 until known */
	/* time accounts of sirq_wait.c: ns spent in handlers, from the first event */
	uint64_t hi_cum;		/* hard irq handlers, closed */
	uint64_t hi_ts;			/* a hard irq handler running since, 0 = none */
	uint32_t hi_ctx;		/* its context group */
	uint64_t sirq_cum[NR_SOFTIRQS];	/* softirq handlers, hard irq time excluded */
	uint64_t sirq_ks_cum[NR_SOFTIRQS];	/* ... of them, run in ksoftirqd */
	uint64_t ks_cum;		/* ksoftirqd on the CPU, outside every handler */
	uint64_t ks_since;		/* ... counting since, 0 = not now */
	bool ks_on;			/* ksoftirqd is the CPU's current task */
	struct sirq_pending pend[NR_SOFTIRQS];
	/* a running tasklet */
	uint64_t tl_ts;
	uint32_t tl_ctx;
	/* napi_poll runtime: the last mark (see ctx_kind) */
	uint64_t poll_mark_ts;
	int poll_mark_pid;
	bool poll_mark_poll;		/* the mark was a napi_poll */
	/* the running handler, for the slowest events and stacks (detail.c) */
	uint64_t entry_delay;		/* its delay; 0: no raise matched */
	uint64_t entry_part[WAIT_NR];	/* the delay's split (entry_split: valid) */
	bool entry_split;
	bool entry_open;		/* its delay not handed to detail yet */
	int entry_bh_pid;		/* the raise's pid when BH was held off, else -1 */
	uint32_t entry_stack;		/* the kernel_stack that followed it: id + 1 */
};

/* Wakeup-to-running latency of the threads that run deferred work. */
struct wake_group {
	uint32_t pool;		/* POOL_ID of the kworkers, or the CPU of a ksoftirqd */
	struct hist wake;
	struct hist *ival;	/* current interval, allocated on first use */
};

struct detail;

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
	struct hist **ksoftirqd_ival;	/* [cpu]: the current interval's */
	struct map wake_ids;		/* worker pool -> index in wake */
	struct wake_group **wake;
	uint32_t nwake, wake_cap;
	/* execution contexts (match_ctx.c) */
	struct ctx_group **ctx;
	uint32_t nctx, ctx_cap;
	struct map ctx_ids;		/* (kind, where, name) -> index in ctx */
	struct map irq_ids;		/* irq number -> index in ctx */
	uint32_t sirq_ctx[NR_SOFTIRQS][SP_NR];	/* by enum sirq_place: index + 1, 0 = none */
	char **strs;			/* names of devices, threads, interrupts */
	uint32_t nstrs, strs_cap;
	struct map str_ids;		/* hash of a name -> index in strs */
	struct sirq_wait *wait[NR_SOFTIRQS];	/* allocated on first use */
	struct sirq_wait_ival *ival_wait[NR_SOFTIRQS];	/* with intervals, on first use */
	struct match_counts n;
	/* intervals */
	uint64_t t0;			/* interval 0 begins here */
	uint64_t ival_ns;		/* 0: no intervals */
	uint64_t ival_cur;
	uint64_t ival_end;		/* first ts of the next interval */
	struct hist *ival_sirq_delay[NR_SOFTIRQS];
	struct hist *ival_sirq_runtime[NR_SOFTIRQS];
	ival_cb on_interval;
	void *ival_ctx;
	ival_end_cb on_interval_end;
	void *ival_end_ctx;
	uint64_t long_work_ns;		/* count work items that ran longer (0: none) */
	/*
	 * comm_resolve - the name of a task never seen by name (scheduler events are kept
	 * only for the threads of deferred work), for naming the tasks that held bottom
	 * halves off: fills comm (16 bytes) and returns true, or false; NULL offline
	 */
	bool (*comm_resolve)(void *ctx, int pid, char *comm);
	void *comm_resolve_ctx;
	uint64_t first_ts, last_ts;	/* of the events decoded (0: none yet) */
	uint64_t barrier_func;		/* address of wq_barrier_func, 0 if unknown */
	int enomem;			/* allocation failures: the result is not trustworthy */
	struct detail *detail;		/* slowest events and stacks (detail.h), or NULL */
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
/* ctx_name - a context group's name: a vector, device, thread, interrupt or function */
const char *ctx_name(const struct matcher *m, const struct ctx_group *g);

void match_interval_roll(struct matcher *m, uint64_t ts);
static inline void match_tick(struct matcher *m, uint64_t ts)
{
	if (__builtin_expect(ts >= m->ival_end, 0))
		match_interval_roll(m, ts);
}

/* Event handlers; cpu is the CPU whose buffer held the event, flags its common_flags. */
void match_softirq_raise(struct matcher *m, int cpu, uint64_t ts, unsigned int vec,
			 unsigned int flags, int pid);
void match_softirq_entry(struct matcher *m, int cpu, uint64_t ts, unsigned int vec, int pid);
void match_softirq_exit(struct matcher *m, int cpu, uint64_t ts, unsigned int vec, int pid);
/* match_wq_queue - pid: the queuing task (the event's common_pid) */
void match_wq_queue(struct matcher *m, int cpu, uint64_t ts, int pid, uint64_t work,
		    uint64_t func, const char *wq, unsigned int wqlen);
/*
 * match_wq_queue_cpu - workqueue_queue_work's req_cpu (the CPU the caller asked for, or
 * WORK_CPU_UNBOUND) and cpu (the pool's CPU, -1 for an unbound pool) for the item just
 * queued on cpu (call right after match_wq_queue)
 */
void match_wq_queue_cpu(struct matcher *m, int cpu, int req_cpu, int target_cpu);
void match_wq_activate(struct matcher *m, int cpu, uint64_t ts, uint64_t work);
void match_wq_start(struct matcher *m, int cpu, uint64_t ts, int pid, bool in_softirq,
		    uint64_t work, uint64_t func);
void match_wq_end(struct matcher *m, int cpu, uint64_t ts, int pid, bool in_softirq,
		  uint64_t work);
/* match_comm - a task's name (len bytes, NUL-padded), from sched events or /proc */
void match_comm(struct matcher *m, int pid, const char *comm, unsigned int len);
/* match_comm_known - whether the matcher has a name for pid */
bool match_comm_known(const struct matcher *m, int pid);
void match_sched_wakeup(struct matcher *m, uint64_t ts, int pid, const char *comm,
			unsigned int len);
void match_sched_switch(struct matcher *m, int cpu, uint64_t ts, int prev_pid, int next_pid,
			const char *next_comm, unsigned int len);
/*
 * match_inflight - fn for every work item queued and not yet running (running false,
 * pool 0) or running (its pool) now, with its workqueue and function indexes; items
 * whose queue_work was not seen are not reported
 */
void match_inflight(const struct matcher *m,
		    void (*fn)(void *ctx, uint32_t wq, uint32_t func, bool running, uint32_t pool),
		    void *ctx);
/* match_missed - the buffer of cpu lost events before this point (-1: count unknown) */
void match_missed(struct matcher *m, int cpu, long missed);
/*
 * match_gap - the capture's events were off until ts (a pause): every partner pending
 * before it may have come while nothing was traced, so all pending state is dropped
 * (counted in gap_dropped, not as unmatched) and pairing starts afresh at ts
 */
void match_gap(struct matcher *m, uint64_t ts);

/* match_ctx.c: tasklets, hard interrupts (irq -1: the local timer), NAPI polls */
void match_tasklet_entry(struct matcher *m, int cpu, uint64_t ts, uint64_t func);
void match_tasklet_exit(struct matcher *m, int cpu, uint64_t ts, uint64_t func);
void match_irq_entry(struct matcher *m, int cpu, uint64_t ts, int irq, const char *name,
		     unsigned int len);
void match_irq_exit(struct matcher *m, int cpu, uint64_t ts, int irq);
void match_napi_poll(struct matcher *m, int cpu, uint64_t ts, int pid, unsigned int flags,
		     const char *dev, unsigned int len, int work, int budget);
/*
 * detail_kernel_stack - a kernel_stack record: n return addresses (64-bit, host order,
 * innermost first, not aligned) at callers; detail.c joins it to the softirq entry it
 * follows
 */
void detail_kernel_stack(struct matcher *m, int cpu, uint64_t ts, const void *callers,
			unsigned int n);

#endif
