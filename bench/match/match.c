// SPDX-License-Identifier: GPL-2.0
/*
 * match.c - the matcher (see match.h): its tables, the softirq events paired into
 * latencies, the intervals, and what was still open at the end. The names of the
 * events it reads and of the softirq vectors are events.c's and softirq.c's.
 */
#include "match.h"
#define DEFERBENCH_ALLOW_MATCH_INT_H
#include "match_int.h"
#include "detail.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common.h"
#include "grow.h"

void *matcher_grow(struct matcher *m, void *p, uint32_t *cap, size_t elem)
{
	uint32_t ncap = *cap ? *cap * 2 : 16;
	void *np = grow_to(p, *cap, ncap, elem);

	if (!np) {
		m->enomem++;
		return NULL;
	}
	*cap = ncap;
	return np;
}

int matcher_init(struct matcher *m, int ncpus, uint64_t t0, uint64_t ival_ns, ival_cb cb, void *ctx)
{
	int i;

	memset(m, 0, sizeof(*m));
	m->ncpus = ncpus;
	m->cpu = calloc(ncpus, sizeof(*m->cpu));
	m->sirq = calloc((size_t)ncpus * NR_SOFTIRQS, sizeof(*m->sirq));
	m->ksoftirqd_wake = calloc(ncpus, sizeof(*m->ksoftirqd_wake));
	m->ksoftirqd_ival = calloc(ncpus, sizeof(*m->ksoftirqd_ival));
	if (!m->cpu || !m->sirq || !m->ksoftirqd_wake || !m->ksoftirqd_ival)
		goto out_free;
	for (i = 0; i < ncpus; i++)
		m->cpu[i].ksoftirqd_pid = -1;
	if (map_init(&m->pending, sizeof(struct wq_pending), 1024) ||
	    map_init(&m->running, sizeof(struct wq_running), 256) ||
	    map_init(&m->comms, sizeof(struct comm_info), 1024) ||
	    map_init(&m->func_ids, sizeof(uint32_t), 256) ||
	    map_init(&m->group_ids, sizeof(uint32_t), 256) ||
	    map_init(&m->wq_ids, sizeof(uint32_t), 64) ||
	    map_init(&m->wake_ids, sizeof(uint32_t), 64) ||
	    map_init(&m->ctx_ids, sizeof(uint32_t), 64) ||
	    map_init(&m->irq_ids, sizeof(uint32_t), 64) ||
	    map_init(&m->str_ids, sizeof(uint32_t), 64))
		goto out_free;
	m->t0 = t0;
	m->ival_ns = ival_ns;
	m->ival_end = ival_ns ? t0 + ival_ns : UINT64_MAX;
	m->on_interval = cb;
	m->ival_ctx = ctx;
	return 0;
out_free:
	matcher_free(m);
	return -ENOMEM;
}

/* name_is - stored name i of t is exactly the len bytes at s (it may be shorter) */
static bool name_is(const struct name_table *t, uint32_t i, const char *s, unsigned int len)
{
	const char *name = (*t->names)[i];

	return strnlen(name, (size_t)len + 1) == len && !memcmp(name, s, len);
}

uint32_t matcher_intern(struct matcher *m, const struct name_table *t, const char *s,
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

uint32_t matcher_intern_str(struct matcher *m, const char *s, unsigned int len)
{
	const struct name_table t = {
		.names = &m->strs, .n = &m->nstrs, .cap = &m->strs_cap, .ids = &m->str_ids,
	};

	/* a __data_loc string or a comm may carry its NUL and padding */
	return matcher_intern(m, &t, s, (unsigned int)strnlen(s, len));
}

void matcher_free(struct matcher *m)
{
	uint32_t i;

	if (m->sirq)
		for (i = 0; i < (uint32_t)m->ncpus * NR_SOFTIRQS; i++)
			free(m->sirq[i]);
	for (i = 0; i < m->ngroups; i++) {
		free(m->groups[i]->ival_delay);
		free(m->groups[i]->ival_runtime);
		free(m->groups[i]->ival_activate);
		free(m->groups[i]->ival_worker);
		free(m->groups[i]->bh);
		free(m->groups[i]);
	}
	for (i = 0; i < m->nwq; i++)
		free(m->wq_names[i]);
	for (i = 0; i < NR_SOFTIRQS; i++) {
		free(m->ival_sirq_delay[i]);
		free(m->ival_sirq_runtime[i]);
	}
	free(m->groups);
	free(m->wq_names);
	free(m->funcs);
	free(m->sirq);
	free(m->cpu);
	map_free(&m->pending);
	map_free(&m->running);
	map_free(&m->comms);
	map_free(&m->func_ids);
	map_free(&m->group_ids);
	map_free(&m->wq_ids);
	map_free(&m->wake_ids);
	for (i = 0; m->ksoftirqd_wake && i < (uint32_t)m->ncpus; i++)
		free(m->ksoftirqd_wake[i]);
	for (i = 0; m->ksoftirqd_ival && i < (uint32_t)m->ncpus; i++)
		free(m->ksoftirqd_ival[i]);
	free(m->ksoftirqd_wake);
	free(m->ksoftirqd_ival);
	for (i = 0; i < m->nwake; i++) {
		free(m->wake[i]->ival);
		free(m->wake[i]);
	}
	free(m->wake);
	ctx_free(m);
	for (i = 0; i < m->nstrs; i++)
		free(m->strs[i]);
	free(m->strs);
	sirq_wait_free(m);
	detail_free(m);
	map_free(&m->ctx_ids);
	map_free(&m->irq_ids);
	map_free(&m->str_ids);
	memset(m, 0, sizeof(*m));
}

uint64_t matcher_unmatched(const struct matcher *m)
{
	const struct match_counts *n = &m->n;

	return n->sirq_entry_no_raise + n->sirq_exit_no_entry + n->sirq_entry_no_exit +
	       n->wq_start_no_queue + n->wq_activate_no_queue + n->wq_end_no_start +
	       n->wq_start_no_end + n->tasklet_exit_no_entry + n->irq_exit_no_entry;
}

struct hist *matcher_hist_new(struct matcher *m)
{
	struct hist *h = malloc(sizeof(*h));

	if (!h) {
		m->enomem++;
		return NULL;
	}
	hist_init(h);
	return h;
}

/* wake_ival_emit - one thread's (or pool's) wakeups of the interval, then a new one */
static void wake_ival_emit(struct matcher *m, enum ival_kind kind, uint32_t key,
			   struct hist *h)
{
	if (!h || !h->count)
		return;
	if (m->on_interval)
		m->on_interval(m->ival_ctx, m->ival_cur, kind, key, h, NULL);
	hist_init(h);
}

static void ival_emit(struct matcher *m)
{
	uint32_t i;

	/* everything of the interval is still there: the live view reads it now */
	if (m->on_interval_end)
		m->on_interval_end(m->ival_end_ctx, m, m->ival_cur);
	for (i = 0; i < NR_SOFTIRQS; i++) {
		struct hist *d = m->ival_sirq_delay[i], *r = m->ival_sirq_runtime[i];

		if (!d || (!d->count && !r->count))
			continue;
		if (m->on_interval)
			m->on_interval(m->ival_ctx, m->ival_cur, IVAL_SOFTIRQ, i, d, r);
		hist_init(d);
		hist_init(r);
	}
	for (i = 0; i < NR_SOFTIRQS; i++) {
		struct sirq_wait_ival *w = m->ival_wait[i];
		int k;

		if (!w || !w->dirty)
			continue;
		if (m->on_interval)
			m->on_interval(m->ival_ctx, m->ival_cur, IVAL_WAIT, i, &w->all, NULL);
		hist_init(&w->all);
		for (k = 0; k < WAIT_NR; k++)
			hist_init(&w->part[k]);
		for (k = 0; k < ORIG_NR; k++)
			hist_init(&w->origin[k]);
		for (k = 0; k < WAIT_TASKS_MAX; k++)
			if (w->task[k] && w->task[k]->count)
				hist_init(w->task[k]);
		w->dirty = false;
	}
	for (i = 0; i < m->ngroups; i++) {
		struct wq_group *g = m->groups[i];

		if (!g->ival_dirty)
			continue;
		if (m->on_interval)
			m->on_interval(m->ival_ctx, m->ival_cur, IVAL_WQ, i, g->ival_delay,
				       g->ival_runtime);
		hist_init(g->ival_delay);
		hist_init(g->ival_runtime);
		hist_init(g->ival_activate);
		hist_init(g->ival_worker);
		g->ival_long = 0;
		g->ival_dirty = false;
	}
	ctx_ival_emit(m);
	for (i = 0; i < (uint32_t)m->ncpus; i++)
		wake_ival_emit(m, IVAL_WAKE_KSOFTIRQD, i, m->ksoftirqd_ival[i]);
	for (i = 0; i < m->nwake; i++)
		wake_ival_emit(m, IVAL_WAKE_WORKER, i, m->wake[i]->ival);
}

void match_interval_roll(struct matcher *m, uint64_t ts)
{
	if (!m->ival_ns)
		return;
	ival_emit(m);
	m->ival_cur = ts > m->t0 ? (ts - m->t0) / m->ival_ns : 0;
	/* the last interval of the clock's range never ends */
	if (__builtin_mul_overflow(m->ival_cur + 1, m->ival_ns, &m->ival_end) ||
	    __builtin_add_overflow(m->ival_end, m->t0, &m->ival_end))
		m->ival_end = UINT64_MAX;
}

static struct sirq_group *sirq_group(struct matcher *m, int cpu, unsigned int vec)
{
	struct sirq_group **slot = &m->sirq[cpu * NR_SOFTIRQS + vec];

	if (!*slot) {
		*slot = calloc(1, sizeof(**slot));
		if (!*slot) {
			m->enomem++;
			return NULL;
		}
		hist_init(&(*slot)->delay);
		hist_init(&(*slot)->runtime);
	}
	return *slot;
}

static struct hist *ival_sirq(struct matcher *m, struct hist **arr, unsigned int vec)
{
	if (!m->ival_ns)
		return NULL;
	if (!arr[vec]) {
		/* delay and runtime are allocated together: ival_emit reads both */
		m->ival_sirq_delay[vec] = matcher_hist_new(m);
		m->ival_sirq_runtime[vec] = matcher_hist_new(m);
		if (!m->ival_sirq_delay[vec] || !m->ival_sirq_runtime[vec]) {
			free(m->ival_sirq_delay[vec]);
			free(m->ival_sirq_runtime[vec]);
			m->ival_sirq_delay[vec] = m->ival_sirq_runtime[vec] = NULL;
			return NULL;
		}
	}
	return arr[vec];
}

void match_softirq_raise(struct matcher *m, int cpu, uint64_t ts, unsigned int vec,
			 unsigned int flags, int pid)
{
	struct sirq_cpu *c = &m->cpu[cpu];

	m->n.events[EV_SOFTIRQ_RAISE]++;
	if (vec >= NR_SOFTIRQS)
		return;
	/* the earliest raise since the last entry is the one that waited longest */
	if (!c->raise_ts[vec]) {
		c->raise_ts[vec] = ts;
		sirq_wait_raise(c, vec, ts, flags, pid);
	}
}

/*
 * sirq_place_of - where a softirq handler runs, from the task of its softirq_entry:
 * ksoftirqd/N of that CPU, ktimers/N (run_ktimerd()), an irq thread (the local_bh_enable()
 * at the end of irq_forced_thread_fn()), or inline
 */
static enum sirq_place sirq_place_of(const struct matcher *m, const struct sirq_cpu *c, int pid)
{
	const struct comm_info *ci;

	if (pid == c->ksoftirqd_pid)
		return SP_KSOFTIRQD;
	ci = pid > 0 ? map_get(&m->comms, (uint64_t)pid) : NULL;
	if (ci && ci->kind == COMM_KTIMERS)
		return SP_KTIMERS;
	if (ci && ci->kind == COMM_IRQ_THREAD)
		return SP_IRQ_THREAD;
	return SP_INLINE;
}

void match_softirq_entry(struct matcher *m, int cpu, uint64_t ts, unsigned int vec, int pid)
{
	struct sirq_cpu *c = &m->cpu[cpu];
	bool ks = pid == c->ksoftirqd_pid;
	struct ctx_group *cg;
	struct sirq_group *g;
	struct hist *ih;

	m->n.events[EV_SOFTIRQ_ENTRY]++;
	if (vec >= NR_SOFTIRQS)
		return;
	if (c->entry_ts)
		m->n.sirq_entry_no_exit++;
	if (m->detail)
		detail_flush(m, c, cpu);
	/* the wait of every pending vector before the first handler ends here */
	sirq_wait_mark(c, ts);
	c->entry_ts = ts;
	c->entry_vec = vec;
	c->entry_ks = ks;
	c->entry_place = sirq_place_of(m, c, pid);
	c->entry_split = false;
	c->entry_hi = wait_hi_at(c, ts);
	c->entry_raise_ts = c->raise_ts[vec];
	sirq_wait_ks_tick(c, ts);
	if (vec == SIRQ_NET_RX) {
		/* net_rx_action polls the NAPI instances: their runtime counts from here */
		c->poll_mark_ts = ts;
		c->poll_mark_pid = pid;
		c->poll_mark_poll = false;
	}
	g = sirq_group(m, cpu, vec);
	cg = ctx_softirq(m, vec, c->entry_place);
	if (!g)
		return;
	g->entries++;
	if (ks)
		g->ksoftirqd++;
	if (cg)
		ctx_count(m, cg);
	if (!c->raise_ts[vec]) {
		m->n.sirq_entry_no_raise++;
		if (m->detail)
			detail_entry(m, c, cpu, vec, ts, 0);
		return;
	}
	hist_add(&g->delay, ts - c->raise_ts[vec]);
	ih = ival_sirq(m, m->ival_sirq_delay, vec);
	if (ih)
		hist_add(ih, ts - c->raise_ts[vec]);
	if (cg)
		ctx_add_delay(m, cg, ts - c->raise_ts[vec], cpu, ts);
	sirq_wait_entry(m, c, vec, ts, ks, pid);
	if (m->detail)
		detail_entry(m, c, cpu, vec, ts, ts - c->raise_ts[vec]);
	/* a raise from now on, even inside this handler, is for the next entry */
	c->raise_ts[vec] = 0;
}

void match_softirq_exit(struct matcher *m, int cpu, uint64_t ts, unsigned int vec, int pid)
{
	struct sirq_cpu *c = &m->cpu[cpu];
	struct ctx_group *cg;
	struct sirq_group *g;
	struct hist *ih;
	uint64_t d;

	m->n.events[EV_SOFTIRQ_EXIT]++;
	if (vec >= NR_SOFTIRQS)
		return;
	/* a NAPI poll after softirqs ran at a napi thread's local_bh_enable() starts here */
	c->poll_mark_ts = ts;
	c->poll_mark_pid = pid;
	c->poll_mark_poll = false;
	if (!c->entry_ts || c->entry_vec != (int)vec) {
		m->n.sirq_exit_no_entry++;
		if (m->detail)
			detail_flush(m, c, cpu);
		c->entry_ts = 0;
		sirq_wait_ks_tick(c, ts);
		return;
	}
	d = ts - c->entry_ts;
	sirq_wait_exit(c, vec, ts);
	if (m->detail)
		detail_exit(m, c, cpu, ts);
	c->entry_ts = 0;
	sirq_wait_ks_tick(c, ts);
	c->tl_ts = 0;
	g = sirq_group(m, cpu, vec);
	if (!g)
		return;
	hist_add(&g->runtime, d);
	if (d > SIRQ_LONG_NS)
		g->long_runs++;
	ih = ival_sirq(m, m->ival_sirq_runtime, vec);
	if (ih)
		hist_add(ih, d);
	cg = ctx_softirq(m, vec, c->entry_place);
	if (cg)
		ctx_add_run(m, cg, d, cpu, ts);
}

void match_inflight(const struct matcher *m,
		    void (*fn)(void *ctx, uint32_t wq, uint32_t func, bool running, uint32_t pool),
		    void *ctx)
{
	const struct wq_pending *p;
	const struct wq_running *r;
	size_t pos = 0;

	while ((p = map_next(&m->pending, &pos, NULL)))
		if (p->wq != GROUP_NONE && p->func != GROUP_NONE)
			fn(ctx, p->wq, p->func, false, 0);
	pos = 0;
	while ((r = map_next(&m->running, &pos, NULL)))
		if (r->group != GROUP_NONE)
			fn(ctx, m->groups[r->group]->wq, m->groups[r->group]->func, true,
			   m->groups[r->group]->pool);
}

void match_missed(struct matcher *m, int cpu, long missed)
{
	struct sirq_cpu *c = &m->cpu[cpu];

	if (missed < 0)
		m->n.missed_unknown++;
	else
		m->n.missed_events += missed;
	if (m->detail)
		detail_flush(m, c, cpu);
	/* what this CPU had pending may have been consumed by events we lost */
	memset(c->raise_ts, 0, sizeof(c->raise_ts));
	c->entry_ts = 0;
	c->last_queued_work = 0;
	c->hi_ts = 0;
	c->tl_ts = 0;
	c->poll_mark_ts = 0;
	c->ks_on = false;
	c->ks_since = 0;
}

void match_gap(struct matcher *m, uint64_t ts __unused)
{
	struct comm_info *ci;
	size_t pos = 0;
	int c, v;

	m->n.gaps++;
	for (c = 0; c < m->ncpus; c++) {
		struct sirq_cpu *sc = &m->cpu[c];

		for (v = 0; v < NR_SOFTIRQS; v++)
			m->n.gap_dropped += sc->raise_ts[v] != 0;
		m->n.gap_dropped += sc->entry_ts != 0;
		if (m->detail)
			detail_flush(m, sc, c);
		memset(sc->raise_ts, 0, sizeof(sc->raise_ts));
		sc->entry_ts = 0;
		sc->entry_raise_ts = 0;
		sc->last_queued_work = 0;
		sc->hi_ts = 0;
		sc->tl_ts = 0;
		sc->poll_mark_ts = 0;
		sc->ks_on = false;
		sc->ks_since = 0;
	}
	m->n.gap_dropped += m->pending.used + m->running.used;
	map_clear(&m->pending);
	map_clear(&m->running);
	/* a wakeup or a thread's run that began before the pause is not seen to end */
	while ((ci = map_next(&m->comms, &pos, NULL))) {
		m->n.gap_dropped += (ci->wake_ts != 0) + (ci->run_ts != 0);
		ci->wake_ts = 0;
		ci->run_ts = 0;
	}
}

void matcher_finish(struct matcher *m)
{
	struct comm_info *ci;
	size_t pos = 0;
	int c, v;

	/* napi threads that never polled: their samples go under their comm */
	while ((ci = map_next(&m->comms, &pos, NULL)))
		ctx_thread_flush(m, ci);
	for (c = 0; m->detail && c < m->ncpus; c++)
		detail_flush(m, &m->cpu[c], c);
	if (m->ival_ns)
		ival_emit(m);
	m->n.events_total = 0;
	for (c = 0; c < EV_NR; c++)
		m->n.events_total += m->n.events[c];
	for (c = 0; c < m->ncpus; c++) {
		for (v = 0; v < NR_SOFTIRQS; v++)
			if (m->cpu[c].raise_ts[v])
				m->n.sirq_raise_open++;
		if (m->cpu[c].entry_ts)
			m->n.sirq_entry_open++;
	}
	m->n.wq_queued_open = m->pending.used;
	m->n.wq_running_open = m->running.used;
}
