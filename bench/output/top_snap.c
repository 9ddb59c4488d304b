// SPDX-License-Identifier: GPL-2.0
/*
 * top_snap.c - one interval of the live view, from the matcher's interval figures (see
 * top_snap.h). Runs in the analysis thread at the interval's end, before the matcher
 * resets them.
 */
#include "top_snap.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "output.h"
#include "grow.h"

const char *const top_group_names[TOP_GROUP_NR] = {
	[TOP_BY_WQ] = "workqueue",
	[TOP_BY_FUNC] = "function",
	[TOP_BY_POOL] = "pool",
};

struct builder {
	const struct result *r;
	enum top_group group;
	unsigned int min_count;
	struct top_snap *s;
	struct hist *h;			/* [nwq]: each row's delays, merged */
	size_t cap;
	int err;
};

/* wq_row - the row of (wq, func, pool) under the grouping, created if new */
static struct top_wq *wq_row(struct builder *b, uint32_t wq, uint32_t func, uint32_t pool)
{
	const struct result *r = b->r;
	struct top_snap *s = b->s;
	char fn[FUNC_LEN] = "", pl[NAME_LEN] = "";
	struct top_wq *row;
	size_t i;

	if (b->group != TOP_BY_WQ)
		symtab_name(&r->syms, r->m.funcs[func].addr, fn, sizeof(fn));
	if (b->group == TOP_BY_POOL)
		match_pool_name(pool, pl, sizeof(pl));
	for (i = 0; i < s->nwq; i++)
		if (!strcmp(s->wq[i].wq, r->m.wq_names[wq]) && !strcmp(s->wq[i].func, fn) &&
		    !strcmp(s->wq[i].pool, pl))
			return &s->wq[i];
	if (s->nwq == b->cap) {
		size_t cap = grow_cap(b->cap, b->cap + 1);
		struct top_wq *nw = grow_to(s->wq, b->cap, cap, sizeof(*nw));
		struct hist *nh;

		if (!nw) {
			b->err = -ENOMEM;
			return NULL;
		}
		s->wq = nw;
		nh = grow_to(b->h, b->cap, cap, sizeof(*nh));
		if (!nh) {
			b->err = -ENOMEM;
			return NULL;
		}
		b->h = nh;
		b->cap = cap;
	}
	row = &s->wq[s->nwq];
	memset(row, 0, sizeof(*row));
	snprintf(row->wq, sizeof(row->wq), "%s", r->m.wq_names[wq]);
	snprintf(row->func, sizeof(row->func), "%s", fn);
	snprintf(row->pool, sizeof(row->pool), "%s", pl);
	hist_init(&b->h[s->nwq]);
	s->nwq++;
	return row;
}

static void inflight(void *ctx, uint32_t wq, uint32_t func, bool running, uint32_t pool)
{
	struct builder *b = ctx;
	struct top_wq *row;

	/* a queued item has no pool yet: per pool, only running items are in flight */
	if (b->group == TOP_BY_POOL && !running)
		return;
	row = wq_row(b, wq, func, pool);
	if (row)
		row->in_flight++;
}

static bool wq_tiny(const struct builder *b, const struct top_wq *w)
{
	return w->items < b->min_count && !w->in_flight;
}

/* wq_fold - the rows of few items and none in flight into one "other" row, last */
static void wq_fold(struct builder *b)
{
	struct top_snap *s = b->s;
	struct top_wq other = { .wq = "other" };
	size_t i, n = 0, tiny = 0;
	struct hist *oh;

	for (i = 0; i < s->nwq; i++)
		tiny += wq_tiny(b, &s->wq[i]);
	if (tiny < 2)
		return;
	oh = malloc(sizeof(*oh));
	if (!oh) {
		b->err = -ENOMEM;
		return;
	}
	hist_init(oh);
	for (i = 0; i < s->nwq; i++) {
		struct top_wq *w = &s->wq[i];

		if (!wq_tiny(b, w)) {
			if (n != i) {
				s->wq[n] = *w;
				b->h[n] = b->h[i];
			}
			n++;
			continue;
		}
		other.items += w->items;
		other.cpu_ns += w->cpu_ns;
		other.over_thresh += w->over_thresh;
		other.rescued += w->rescued;
		other.folded++;
		hist_merge(oh, &b->h[i]);
	}
	b->h[n] = *oh;
	s->wq[n] = other;
	s->nwq = n + 1;
	free(oh);
}

static void wq_rows(struct builder *b)
{
	const struct matcher *m = &b->r->m;
	uint32_t i;

	for (i = 0; i < m->ngroups && !b->err; i++) {
		const struct wq_group *g = m->groups[i];
		struct top_wq *row;

		if (!g->ival_dirty)
			continue;
		row = wq_row(b, g->wq, g->func, g->pool);
		if (!row)
			break;
		row->items += g->ival_delay->count;
		row->cpu_ns += g->ival_runtime->sum;
		row->over_thresh += g->ival_long;
		if (POOL_KIND(g->pool) == POOL_RESCUER)
			row->rescued += g->ival_delay->count;
		hist_merge(&b->h[row - b->s->wq], g->ival_delay);
	}
	if (!b->err)
		match_inflight(m, inflight, b);
	if (!b->err)
		wq_fold(b);
	for (i = 0; i < b->s->nwq && !b->err; i++) {
		const struct hist *h = &b->h[i];

		b->s->wq[i].delay_p50 = hist_percentile(h, 0.5);
		b->s->wq[i].delay_p99 = hist_percentile(h, 0.99);
		b->s->wq[i].delay_max = h->count ? h->max : 0;
	}
}

/* ctx_rows - the contexts that ran in the interval: softirqs first, hard irqs left out */
static int ctx_rows(struct builder *b)
{
	const struct result *r = b->r;
	const struct matcher *m = &r->m;
	uint64_t runs[NR_SOFTIRQS] = { 0 }, ks[NR_SOFTIRQS] = { 0 };
	struct ctx_row cr;
	char name[FUNC_LEN];
	uint32_t i;
	int pass;

	b->s->ctx = calloc(m->nctx ? m->nctx : 1, sizeof(*b->s->ctx));
	if (!b->s->ctx)
		return -ENOMEM;
	for (i = 0; i < m->nctx; i++) {
		const struct ctx_group *g = m->ctx[i];

		if (g->kind == CTX_SOFTIRQ && g->ival_dirty && g->name < NR_SOFTIRQS) {
			runs[g->name] += g->ival_count;
			ks[g->name] += g->where == WHERE_KSOFTIRQD ? g->ival_count : 0;
		}
	}
	for (pass = 0; pass < 2; pass++)
		for (i = 0; i < m->nctx; i++) {
			const struct ctx_group *g = m->ctx[i];
			struct top_ctx *t;

			if (!g->ival_dirty || (pass == 0) != (g->kind == CTX_SOFTIRQ) ||
			    g->kind == CTX_HARDIRQ)
				continue;
			t = &b->s->ctx[b->s->nctx++];
			output_ctx_row_of(r, g, &cr, name, sizeof(name));
			snprintf(t->context, sizeof(t->context), "%s", ctx_kind_names[g->kind]);
			snprintf(t->name, sizeof(t->name), "%s", cr.name);
			snprintf(t->where, sizeof(t->where), "%s", cr.where);
			t->runs = g->ival_count;
			t->delays = g->ival_delay->count;
			if (g->kind == CTX_SOFTIRQ && g->name < NR_SOFTIRQS && runs[g->name])
				t->ksoftirqd_share = (double)ks[g->name] / (double)runs[g->name];
			t->delay_p50 = hist_percentile(g->ival_delay, 0.5);
			t->delay_p99 = hist_percentile(g->ival_delay, 0.99);
			t->delay_max = g->ival_delay->count ? g->ival_delay->max : 0;
			t->runtime_p99 = hist_percentile(g->ival_runtime, 0.99);
			t->long_runs = g->ival_long;
		}
	return 0;
}

struct top_snap *top_snap_take(const struct result *r, uint64_t interval,
			       enum top_group group, unsigned int min_count,
			       uint64_t *events_before)
{
	const struct matcher *m = &r->m;
	struct builder b = { .r = r, .group = group, .min_count = min_count };
	uint64_t events = 0;
	int k;

	b.s = calloc(1, sizeof(*b.s));
	if (!b.s)
		return NULL;
	b.s->interval = interval;
	b.s->start_ns = m->t0 + interval * m->ival_ns;
	b.s->end_ns = b.s->start_ns + m->ival_ns;
	for (k = 0; k < EV_NR; k++)
		events += m->n.events[k];
	b.s->events = events - *events_before;
	*events_before = events;
	b.s->lost_in_band = m->n.missed_events + m->n.missed_unknown;
	b.s->unattributed = m->n.wq_start_no_queue;
	wq_rows(&b);
	free(b.h);
	if (b.err || ctx_rows(&b)) {
		top_snap_free(b.s);
		return NULL;
	}
	return b.s;
}

void top_snap_free(struct top_snap *s)
{
	if (!s)
		return;
	free(s->wq);
	free(s->ctx);
	free(s);
}
