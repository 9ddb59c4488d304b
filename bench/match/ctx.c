// SPDX-License-Identifier: GPL-2.0
/*
 * ctx.c - the execution contexts of deferred work (see ctx_kind in match.h): each a
 * context group with a delay and a runtime histogram, found or made by kind, place and
 * name, and fed per interval. The events that feed them are match_ctx.c's.
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
		       matcher_intern_str(m, ci->comm, TASK_COMM_LEN);
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
}
