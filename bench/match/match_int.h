/* SPDX-License-Identifier: GPL-2.0 */
/*
 * match_int.h - what the parts of the matcher share (match.c, match_wq.c, match_sched.c,
 * match_ctx.c, ctx.c, sirq_wait.c). Not for use outside them.
 */
#ifndef DEFERBENCH_MATCH_INT_H
#define DEFERBENCH_MATCH_INT_H

/* private to bench/match/: its files define DEFERBENCH_ALLOW_MATCH_INT_H before including it */
#ifndef DEFERBENCH_ALLOW_MATCH_INT_H
#error "match_int.h is private to bench/match/; include its public header"
#endif

#include "match.h"

#define GROUP_NONE UINT32_MAX

struct comm_info {
	uint64_t wake_ts;		/* sched_wakeup not yet followed by a switch-in */
	uint64_t run_ts;		/* napi/irq thread: switched in at, 0 = not running */
	char raw[TASK_COMM_LEN];	/* as the event carried it, for a cheap compare */
	char comm[TASK_COMM_LEN];	/* NUL-terminated */
	uint32_t pool;
	uint32_t ctx;			/* napi/irq thread: context group + 1, 0 = none yet */
	uint32_t dev;			/* napi thread: the device it polls (strs + 1) */
	uint64_t early_wake;		/* napi thread: samples taken before the device */
	uint64_t early_run;		/* was known (its first poll), 0 = none */
	enum comm_kind kind;
};

/* A work item queued and not started yet, by work pointer (m->pending). */
struct wq_pending {
	uint64_t queue_ts;
	uint64_t act_ts;	/* 0: no activate event seen yet */
	uint32_t wq;
	uint32_t func;
	int pid;		/* the queuing task */
	int8_t target;		/* match_wq_queue_cpu: 0 not traced, 1 this CPU's or an
				 * unbound pool, 2 another CPU's per-CPU pool */
	bool req;		/* the caller chose the CPU */
};

#define WQ_NAME_MAX 64		/* longer names (only in a damaged capture) are cut */

struct wq_running {
	uint64_t work;
	uint64_t start_ts;
	uint32_t group;		/* GROUP_NONE: the queue event was not seen */
	int queued_by;		/* the queuing task's pid */
};

/* BH work runs on top of whatever task the softirq interrupted: key it by CPU. */
#define BH_KEY(cpu) ((1ULL << 62) | (uint64_t)(cpu))

/* matcher_grow - double *cap (16 at first); counts a failure in m->enomem */
void *matcher_grow(struct matcher *m, void *p, uint32_t *cap, size_t elem);
/* matcher_hist_new - an initialised histogram, or NULL (counted in m->enomem) */
struct hist *matcher_hist_new(struct matcher *m);
/* match_func_intern - index of a function address in m->funcs, GROUP_NONE on ENOMEM */
uint32_t match_func_intern(struct matcher *m, uint64_t addr);

/* ctx.c, and the names of match.c */
/* ctx_get - the context group (kind, where, name), created on first use; GROUP_NONE */
uint32_t ctx_get(struct matcher *m, enum ctx_kind kind, enum ctx_where where, uint32_t name);
/*
 * A table of names, each stored once: the array, its length and capacity, and a map from
 * a name's hash to its index (the first name of that hash).
 */
struct name_table {
	char ***names;
	uint32_t *n, *cap;
	struct map *ids;
};
/*
 * matcher_intern - index of the len bytes at s (no NUL among them) in t, added if new;
 * GROUP_NONE (m->enomem counted) when out of memory
 */
uint32_t matcher_intern(struct matcher *m, const struct name_table *t, const char *s,
			unsigned int len);
/* matcher_intern_str - index of a name (len bytes, NUL padding ignored) in m->strs */
uint32_t matcher_intern_str(struct matcher *m, const char *s, unsigned int len);
/* ctx_add_delay, ctx_add_run - a sample of g that ended at ts on cpu (-1, 0: unknown) */
void ctx_add_delay(struct matcher *m, struct ctx_group *g, uint64_t ns, int cpu, uint64_t ts);
void ctx_add_run(struct matcher *m, struct ctx_group *g, uint64_t ns, int cpu, uint64_t ts);
/* ctx_count - one more run of g, in the whole capture and in the interval */
void ctx_count(struct matcher *m, struct ctx_group *g);
/* ctx_softirq - the context group of vec run at place, NULL on ENOMEM */
struct ctx_group *ctx_softirq(struct matcher *m, unsigned int vec, enum sirq_place place);
/*
 * ctx_thread_wake, ctx_thread_run - a thread's (comm_is_thread_ctx) wakeup delay and run
 * slice.
 * A napi thread is named by the device it polls: until its first napi_poll says which,
 * its first samples wait in comm_info (then its truncated comm names it).
 */
void ctx_thread_wake(struct matcher *m, struct comm_info *ci, uint64_t ns, int cpu,
		     uint64_t ts);
void ctx_thread_run(struct matcher *m, struct comm_info *ci, uint64_t ns, int cpu,
		    uint64_t ts);
/* ctx_thread_flush - samples still waiting for a device go to the comm's group */
void ctx_thread_flush(struct matcher *m, struct comm_info *ci);
/* ctx_ival_emit - report and reset the contexts' interval figures */
void ctx_ival_emit(struct matcher *m);
void ctx_free(struct matcher *m);

/* sirq_wait.c: the CPU's time accounts and the split of each delay */
static inline uint64_t wait_hi_at(const struct sirq_cpu *c, uint64_t ts)
{
	return c->hi_cum + (c->hi_ts && ts > c->hi_ts ? ts - c->hi_ts : 0);
}
/* sirq_wait_raise - vec's earliest pending raise on c: remember the accounts */
void sirq_wait_raise(struct sirq_cpu *c, unsigned int vec, uint64_t ts, unsigned int flags, int pid);
/* sirq_wait_mark - a softirq handler starts on c: the end of the wait before any handler */
void sirq_wait_mark(struct sirq_cpu *c, uint64_t ts);
/* sirq_wait_entry - vec's handler starts at ts: split its delay into causes */
void sirq_wait_entry(struct matcher *m, struct sirq_cpu *c, unsigned int vec, uint64_t ts,
		bool ksoftirqd, int pid);
/*
 * sirq_wait_ks_tick - after any change of what c runs (a hard irq, a softirq handler, a
 * switch to or from ksoftirqd): keep the account of ksoftirqd outside handlers
 */
void sirq_wait_ks_tick(struct sirq_cpu *c, uint64_t ts);
/* sirq_wait_switch - a sched_switch on c: the BH holders' time off the CPU */
void sirq_wait_switch(struct sirq_cpu *c, uint64_t ts, int prev_pid, int next_pid);
/* sirq_wait_exit - vec's handler ends at ts: add its time (hard irqs excluded) to the account */
void sirq_wait_exit(struct sirq_cpu *c, unsigned int vec, uint64_t ts);
void sirq_wait_free(struct matcher *m);
/*
 * match_comm_name - a task's name for the figures: from the sched events or /proc (a live
 * capture asks comm_resolve and keeps the answer), "swapper", or "pid N"
 */
void match_comm_name(struct matcher *m, int pid, char name[TASK_COMM_LEN]);

/* detail.c: hooks of the softirq events, called only when m->detail is set */
/* detail_entry - vec's handler starts on cpu at ts after a delay (0: no raise matched) */
void detail_entry(struct matcher *m, struct sirq_cpu *c, int cpu, unsigned int vec,
		  uint64_t ts, uint64_t delay);
/* detail_exit - the handler that started at c->entry_ts ends at ts */
void detail_exit(struct matcher *m, struct sirq_cpu *c, int cpu, uint64_t ts);
/* detail_flush - the running handler is abandoned (lost events, no exit): keep its delay */
void detail_flush(struct matcher *m, struct sirq_cpu *c, int cpu);
/* detail_wq, detail_ctx - a work item's or context's sample, for the slowest events */
void detail_wq(struct matcher *m, uint32_t group, int metric, uint64_t ns, int cpu,
	       uint64_t ts, int pid);
void detail_ctx(struct matcher *m, const struct ctx_group *g, int metric, uint64_t ns,
		int cpu, uint64_t ts);

#endif
