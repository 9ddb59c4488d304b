// SPDX-License-Identifier: GPL-2.0
/*
 * match_ctx.c - the events of execution contexts (see ctx_kind in match.h): tasklets,
 * hard interrupt handlers, NAPI polls, each paired into its context group's delay and
 * runtime (ctx.c).
 */
#define DEFERBENCH_ALLOW_MATCH_INT_H
#include "match_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common.h"

void match_tasklet_entry(struct matcher *m, int cpu, uint64_t ts, uint64_t func)
{
	struct sirq_cpu *c = &m->cpu[cpu];
	bool in_sirq = c->entry_ts && (c->entry_vec == SIRQ_HI || c->entry_vec == SIRQ_TASKLET);
	struct ctx_group *g;
	uint32_t id;

	m->n.events[EV_TASKLET_ENTRY]++;
	if (!in_sirq)
		m->n.tasklet_no_softirq++;
	id = ctx_get(m, CTX_TASKLET, !in_sirq ? WHERE_NONE :
		     c->entry_vec == SIRQ_HI ? WHERE_HI : WHERE_TASKLET, match_func_intern(m, func));
	c->tl_ts = 0;
	if (id == GROUP_NONE)
		return;
	g = m->ctx[id];
	ctx_count(m, g);
	/* tasklets run inside the softirq run that consumed the raise */
	if (in_sirq && c->entry_raise_ts && ts >= c->entry_raise_ts)
		ctx_add_delay(m, g, ts - c->entry_raise_ts, cpu, ts);
	c->tl_ts = ts;
	c->tl_ctx = id;
}

void match_tasklet_exit(struct matcher *m, int cpu, uint64_t ts, uint64_t func __unused)
{
	struct sirq_cpu *c = &m->cpu[cpu];

	m->n.events[EV_TASKLET_EXIT]++;
	if (!c->tl_ts || ts < c->tl_ts) {
		m->n.tasklet_exit_no_entry++;
		return;
	}
	ctx_add_run(m, m->ctx[c->tl_ctx], ts - c->tl_ts, cpu, ts);
	c->tl_ts = 0;
}

/* irq_ctx - the context group of an interrupt, by number (-1: the local timer) */
static uint32_t irq_ctx(struct matcher *m, int irq, const char *name, unsigned int len)
{
	char buf[64];		/* a name of intervals.csv is at most 63 characters */
	uint32_t *id;
	int created, n;

	id = map_put(&m->irq_ids, (uint64_t)(uint32_t)(irq + 1), &created);
	if (!id) {
		m->enomem++;
		return GROUP_NONE;
	}
	if (!created)
		return *id;
	if (irq < 0)
		n = snprintf(buf, sizeof(buf), "local_timer");
	else
		n = snprintf(buf, sizeof(buf), "%d:%.*s", irq, (int)strnlen(name, len), name);
	if (n >= (int)sizeof(buf))
		n = sizeof(buf) - 1;
	*id = ctx_get(m, CTX_HARDIRQ, WHERE_NONE, matcher_intern_str(m, buf, (unsigned int)n));
	if (*id == GROUP_NONE) {
		map_del(&m->irq_ids, (uint64_t)(uint32_t)(irq + 1));
		return GROUP_NONE;
	}
	return *id;
}

void match_irq_entry(struct matcher *m, int cpu, uint64_t ts, int irq, const char *name,
		     unsigned int len)
{
	struct sirq_cpu *c = &m->cpu[cpu];
	uint32_t id;

	m->n.events[irq < 0 ? EV_TIMER_IRQ_ENTRY : EV_IRQ_ENTRY]++;
	/* hard interrupt handlers do not nest: an open one lost its exit; close it here */
	if (c->hi_ts && ts >= c->hi_ts) {
		c->hi_cum += ts - c->hi_ts;
		m->n.irq_exit_no_entry++;
	}
	c->hi_ts = ts;
	sirq_wait_ks_tick(c, ts);
	id = irq_ctx(m, irq, name, len);
	c->hi_ctx = id;
	if (id != GROUP_NONE)
		ctx_count(m, m->ctx[id]);
}

void match_irq_exit(struct matcher *m, int cpu, uint64_t ts, int irq)
{
	struct sirq_cpu *c = &m->cpu[cpu];

	m->n.events[irq < 0 ? EV_TIMER_IRQ_EXIT : EV_IRQ_EXIT]++;
	if (!c->hi_ts || ts < c->hi_ts) {
		m->n.irq_exit_no_entry++;
		return;
	}
	c->hi_cum += ts - c->hi_ts;
	if (c->hi_ctx != GROUP_NONE)
		ctx_add_run(m, m->ctx[c->hi_ctx], ts - c->hi_ts, cpu, ts);
	c->hi_ts = 0;
	sirq_wait_ks_tick(c, ts);
}

void match_napi_poll(struct matcher *m, int cpu, uint64_t ts, int pid, unsigned int flags,
		     const char *dev, unsigned int len, int work, int budget)
{
	struct sirq_cpu *c = &m->cpu[cpu];
	enum ctx_where where;
	struct comm_info *ci;
	struct ctx_group *g;
	uint32_t id, name;

	m->n.events[EV_NAPI_POLL]++;
	ci = map_get(&m->comms, (uint64_t)pid);
	if (ci && ci->kind == COMM_NAPI)
		where = WHERE_THREAD;
	else if (ci && ci->kind == COMM_BACKLOG_NAPI && !(flags & TRACE_FL_SOFTIRQ))
		where = WHERE_BACKLOG;	/* run_backlog_napi() -> napi_threaded_poll_loop() */
	else if (flags & TRACE_FL_SOFTIRQ)
		where = pid == c->ksoftirqd_pid ? WHERE_KSOFTIRQD : WHERE_SOFTIRQ;
	else
		where = WHERE_BUSY_POLL;
	name = matcher_intern_str(m, dev, len);
	if (where == WHERE_THREAD && !ci->dev && name != GROUP_NONE) {
		/* now the thread has its name: the device it polls */
		ci->dev = name + 1;
		ci->ctx = 0;
		ctx_thread_flush(m, ci);
	}
	id = ctx_get(m, CTX_NAPI_POLL, where, name);
	if (id != GROUP_NONE) {
		g = m->ctx[id];
		ctx_count(m, g);
		g->work += work > 0 ? (uint64_t)work : 0;
		g->budget_full += budget > 0 && work >= budget;
		g->budget = budget > 0 ? (uint32_t)budget : 0;
		/* a busy poll's loop start is not traced: only poll-to-poll counts there */
		if (c->poll_mark_ts && c->poll_mark_pid == pid && ts >= c->poll_mark_ts &&
		    (where != WHERE_BUSY_POLL || c->poll_mark_poll))
			ctx_add_run(m, g, ts - c->poll_mark_ts, cpu, ts);
	}
	c->poll_mark_ts = ts;
	c->poll_mark_pid = pid;
	c->poll_mark_poll = true;
}
