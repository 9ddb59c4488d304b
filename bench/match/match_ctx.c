// SPDX-License-Identifier: GPL-2.0
/*
 * match_ctx.c - execution contexts of deferred work (see ctx_kind in match.h): softirq
 * vectors inline or in ksoftirqd, tasklets, NAPI polls, napi/ and irq/ threads, hard
 * interrupt handlers. Each is a context group with a delay and a runtime histogram.
 */
#define DEFERBENCH_ALLOW_MATCH_INT_H
#include "match_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common.h"

const char *const ctx_kind_names[CTX_NR] = {
	[CTX_SOFTIRQ] = "softirq",
	[CTX_TASKLET] = "tasklet",
	[CTX_NAPI_POLL] = "napi_poll",
	[CTX_NAPI_THREAD] = "napi_thread",
	[CTX_BACKLOG_NAPI] = "backlog_napi",
	[CTX_IRQ_THREAD] = "irq_thread",
	[CTX_KTIMERS] = "ktimers",
	[CTX_RCUC] = "rcuc",
	[CTX_IRQ_WORK] = "irq_work",
	[CTX_HARDIRQ] = "hardirq",
	[CTX_WORKQUEUE] = "workqueue",
};

const char *const ctx_where_names[WHERE_NR] = {
	[WHERE_NONE] = "",
	[WHERE_INLINE] = "inline",
	[WHERE_KSOFTIRQD] = "ksoftirqd",
	[WHERE_SOFTIRQ] = "softirq",
	[WHERE_THREAD] = "thread",
	[WHERE_BUSY_POLL] = "busy_poll",
	[WHERE_HI] = "HI",
	[WHERE_TASKLET] = "TASKLET",
	[WHERE_KTIMERS] = "ktimers",
	[WHERE_IRQ_THREAD] = "irq_thread",
	[WHERE_BACKLOG] = "backlog_napi",
};

/* The context of each kind of thread (comm_is_thread_ctx) */
static const enum ctx_kind thread_ctx[] = {
	[COMM_NAPI] = CTX_NAPI_THREAD,
	[COMM_IRQ_THREAD] = CTX_IRQ_THREAD,
	[COMM_BACKLOG_NAPI] = CTX_BACKLOG_NAPI,
	[COMM_KTIMERS] = CTX_KTIMERS,
	[COMM_RCUC] = CTX_RCUC,
	[COMM_IRQ_WORK] = CTX_IRQ_WORK,
};

static const enum ctx_where sirq_where[SP_NR] = {
	[SP_INLINE] = WHERE_INLINE,
	[SP_KSOFTIRQD] = WHERE_KSOFTIRQD,
	[SP_KTIMERS] = WHERE_KTIMERS,
	[SP_IRQ_THREAD] = WHERE_IRQ_THREAD,
};

int ctx_kind_from_name(const char *name)
{
	int k;

	for (k = 0; k < CTX_NR; k++)
		if (!strcmp(name, ctx_kind_names[k]))
			return k;
	return -1;
}

/* name_is - stored name i of t is exactly the len bytes at s (it may be shorter) */
static bool name_is(const struct name_table *t, uint32_t i, const char *s, unsigned int len)
{
	const char *name = (*t->names)[i];

	return strnlen(name, (size_t)len + 1) == len && !memcmp(name, s, len);
}

uint32_t names_intern(struct matcher *m, const struct name_table *t, const char *s,
		      unsigned int len)
{
	uint64_t h = map_hash_str(s, len);
	uint32_t *cached = map_get(t->ids, h), i;
	char **nn;

	if (cached && name_is(t, *cached, s, len))
		return *cached;
	/* not seen, or a hash collision: the tables are short (workqueues, devices, threads) */
	for (i = 0; i < *t->n; i++)
		if (name_is(t, i, s, len))
			return i;
	if (*t->n == *t->cap) {
		nn = matcher_grow(m, *t->names, t->cap, sizeof(*nn));
		if (!nn)
			return GROUP_NONE;
		*t->names = nn;
	}
	(*t->names)[*t->n] = strndup(s, len);
	if (!(*t->names)[*t->n]) {
		m->enomem++;
		return GROUP_NONE;
	}
	if (!cached) {
		cached = map_put(t->ids, h, NULL);
		if (cached)
			*cached = *t->n;
	}
	return (*t->n)++;
}

uint32_t str_intern(struct matcher *m, const char *s, unsigned int len)
{
	const struct name_table t = {
		.names = &m->strs, .n = &m->nstrs, .cap = &m->strs_cap, .ids = &m->str_ids,
	};

	/* a __data_loc string or a comm may carry its NUL and padding */
	return names_intern(m, &t, s, (unsigned int)strnlen(s, len));
}

uint32_t ctx_get(struct matcher *m, enum ctx_kind kind, enum ctx_where where, uint32_t name)
{
	uint64_t key = ((uint64_t)kind << 56) | ((uint64_t)where << 48) | name;
	struct ctx_group *g, **ng;
	uint32_t *id;
	int created;

	if (name == GROUP_NONE)
		return GROUP_NONE;
	id = map_put(&m->ctx_ids, key, &created);
	if (!id) {
		m->enomem++;
		return GROUP_NONE;
	}
	if (!created)
		return *id;
	if (m->nctx == m->ctx_cap) {
		ng = matcher_grow(m, m->ctx, &m->ctx_cap, sizeof(*ng));
		if (!ng)
			goto out_del;
		m->ctx = ng;
	}
	g = calloc(1, sizeof(*g));
	if (!g) {
		m->enomem++;
		goto out_del;
	}
	g->kind = kind;
	g->where = where;
	g->name = name;
	g->id = m->nctx;
	hist_init(&g->delay);
	hist_init(&g->runtime);
	m->ctx[m->nctx] = g;
	*id = m->nctx;
	return m->nctx++;
out_del:
	map_del(&m->ctx_ids, key);
	return GROUP_NONE;
}

const char *ctx_name(const struct matcher *m, const struct ctx_group *g)
{
	if (g->kind == CTX_SOFTIRQ)
		return g->name < NR_SOFTIRQS ? softirq_names[g->name] : "?";
	/* tasklets are named by function address: the output layer has the symbols */
	if (g->kind == CTX_TASKLET)
		return "";
	return g->name < m->nstrs ? m->strs[g->name] : "?";
}

/* ctx_ival - the group's interval histograms, allocated on first use; false without */
static bool ctx_ival(struct matcher *m, struct ctx_group *g)
{
	if (!m->ival_ns)
		return false;
	if (!g->ival_delay) {
		/* both together: the interval callback reads both */
		g->ival_delay = matcher_hist_new(m);
		g->ival_runtime = matcher_hist_new(m);
		if (!g->ival_delay || !g->ival_runtime) {
			free(g->ival_delay);
			free(g->ival_runtime);
			g->ival_delay = g->ival_runtime = NULL;
			return false;
		}
	}
	g->ival_dirty = true;
	return true;
}

void ctx_add_delay(struct matcher *m, struct ctx_group *g, uint64_t ns, int cpu, uint64_t ts)
{
	hist_add(&g->delay, ns);
	if (ctx_ival(m, g))
		hist_add(g->ival_delay, ns);
	if (m->detail)
		detail_ctx(m, g, 0, ns, cpu, ts);
}

void ctx_add_run(struct matcher *m, struct ctx_group *g, uint64_t ns, int cpu, uint64_t ts)
{
	bool lng = ns > SIRQ_LONG_NS;

	if (m->detail)
		detail_ctx(m, g, 1, ns, cpu, ts);
	hist_add(&g->runtime, ns);
	g->long_runs += lng;
	if (ctx_ival(m, g)) {
		hist_add(g->ival_runtime, ns);
		g->ival_long += lng;
	}
}

void ctx_count(struct matcher *m, struct ctx_group *g)
{
	g->count++;
	if (ctx_ival(m, g))
		g->ival_count++;
}

struct ctx_group *ctx_softirq(struct matcher *m, unsigned int vec, enum sirq_place place)
{
	uint32_t *slot = &m->sirq_ctx[vec][place], id;

	if (!*slot) {
		id = ctx_get(m, CTX_SOFTIRQ, sirq_where[place], vec);
		if (id == GROUP_NONE)
			return NULL;
		*slot = id + 1;
	}
	return m->ctx[*slot - 1];
}

/* ctx_thread - the group of a thread (comm_is_thread_ctx): napi/ by device, or by comm */
static struct ctx_group *ctx_thread(struct matcher *m, struct comm_info *ci, bool fallback)
{
	uint32_t id, name;

	if (!ci->ctx || (fallback && ci->kind == COMM_NAPI && !ci->dev)) {
		name = ci->kind == COMM_NAPI && ci->dev ? ci->dev - 1 :
		       str_intern(m, ci->comm, TASK_COMM_LEN);
		id = ctx_get(m, thread_ctx[ci->kind], WHERE_NONE, name);
		if (id == GROUP_NONE)
			return NULL;
		if (fallback && ci->kind == COMM_NAPI && !ci->dev)
			return m->ctx[id];
		ci->ctx = id + 1;
	}
	return m->ctx[ci->ctx - 1];
}

static void thread_wake(struct matcher *m, struct ctx_group *g, uint64_t ns, int cpu,
			uint64_t ts)
{
	if (!g)
		return;
	ctx_count(m, g);
	ctx_add_delay(m, g, ns, cpu, ts);
}

void ctx_thread_flush(struct matcher *m, struct comm_info *ci)
{
	struct ctx_group *g;

	if (!ci->early_wake && !ci->early_run)
		return;
	g = ctx_thread(m, ci, true);
	/* when and where these early samples ended was not kept */
	if (ci->early_wake)
		thread_wake(m, g, ci->early_wake, -1, 0);
	if (g && ci->early_run)
		ctx_add_run(m, g, ci->early_run, -1, 0);
	ci->early_wake = ci->early_run = 0;
}

void ctx_thread_wake(struct matcher *m, struct comm_info *ci, uint64_t ns, int cpu,
		     uint64_t ts)
{
	if (ci->kind == COMM_NAPI && !ci->dev) {
		/* keep one sample (a zero delay counts as 1 ns: 0 means none) */
		if (ci->early_wake)
			ctx_thread_flush(m, ci);
		ci->early_wake = ns ? ns : 1;
		return;
	}
	thread_wake(m, ctx_thread(m, ci, false), ns, cpu, ts);
}

void ctx_thread_run(struct matcher *m, struct comm_info *ci, uint64_t ns, int cpu,
		    uint64_t ts)
{
	struct ctx_group *g;

	if (ci->kind == COMM_NAPI && !ci->dev) {
		if (ci->early_run)
			ctx_thread_flush(m, ci);
		ci->early_run = ns ? ns : 1;
		return;
	}
	g = ctx_thread(m, ci, false);
	if (g)
		ctx_add_run(m, g, ns, cpu, ts);
}

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
	*id = ctx_get(m, CTX_HARDIRQ, WHERE_NONE, str_intern(m, buf, (unsigned int)n));
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
	name = str_intern(m, dev, len);
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

void ctx_ival_emit(struct matcher *m)
{
	uint32_t i;

	for (i = 0; i < m->nctx; i++) {
		struct ctx_group *g = m->ctx[i];

		if (!g->ival_dirty)
			continue;
		if (m->on_interval)
			m->on_interval(m->ival_ctx, m->ival_cur, IVAL_CONTEXT, i, g->ival_delay,
				       g->ival_runtime);
		hist_init(g->ival_delay);
		hist_init(g->ival_runtime);
		g->ival_count = g->ival_long = 0;
		g->ival_dirty = false;
	}
}

void ctx_free(struct matcher *m)
{
	uint32_t i;

	for (i = 0; i < m->nctx; i++) {
		free(m->ctx[i]->ival_delay);
		free(m->ctx[i]->ival_runtime);
		free(m->ctx[i]);
	}
	free(m->ctx);
	for (i = 0; i < m->nstrs; i++)
		free(m->strs[i]);
	free(m->strs);
}
