// SPDX-License-Identifier: GPL-2.0
/*
 * slow_view.c - the groups of slowest events of record --slowest, in the order every
 * output lists them (see detail_out.h).
 */
#include "detail_out.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include "output.h"

const char *const slow_metric_names[SLOW_METRIC_NR] = {
	[SLOW_DELAY] = "delay",
	[SLOW_RUNTIME] = "runtime",
};

const char *const slow_kind_names[SLOW_KIND_NR] = {
	[SLOW_SOFTIRQ] = "softirq",
	[SLOW_WQ] = "workqueue",
	[SLOW_CTX] = "context",
};

double slow_t_s(const struct result *r, const struct slow_ev *ev)
{
	return ev->ts >= r->m.t0 ? (double)(ev->ts - r->m.t0) / 1e9 :
				   -(double)(r->m.t0 - ev->ts) / 1e9;
}

uint64_t slow_interval(const struct result *r, const struct slow_ev *ev)
{
	return r->m.ival_ns && ev->ts > r->m.t0 ? (ev->ts - r->m.t0) / r->m.ival_ns : 0;
}

const char *slow_causes_text(const struct slow_ev *ev, char *buf, size_t len)
{
	size_t off = 0;
	int k;

	buf[0] = '\0';
	if (!ev->split || !ev->ns)
		return buf;
	/* the causes present, in the order of the split; a part under 1% is left out */
	for (k = 0; k < WAIT_NR; k++) {
		double pct = 100.0 * (double)ev->part[k] / (double)ev->ns;

		if (pct < 1.0 || off >= len)
			continue;
		off += (size_t)snprintf(buf + off, len - off, "%s%s %.0f%%", off ? ", " : "",
					sirq_cause_names[k], pct);
	}
	return buf;
}

static int visit(slow_visit fn, void *ctx, const struct result *r, struct slow_group *g)
{
	struct slow_ev *ev;
	int ret;

	if (!g->heap->n)
		return 0;
	ev = detail_slow_sorted(g->heap);
	if (!ev)
		return -ENOMEM;
	ret = fn(ctx, r, g, ev, g->heap->n);
	free(ev);
	return ret;
}

/* wq_names - the workqueue group's names, into g */
static void wq_names(const struct result *r, uint32_t i, struct slow_group *g, char *fn,
		     size_t fnlen, char *pool, size_t poollen)
{
	const struct wq_group *wg = r->m.groups[i];

	g->name = r->m.wq_names[wg->wq];
	g->func = result_wq_func(r, wg, fn, fnlen);
	g->where = match_pool_name(wg->pool, pool, poollen);
}

int slow_each(const struct result *r, slow_visit fn, void *ctx)
{
	const struct detail *d = r->m.detail;
	char fn_name[128], pool[32], name[128];
	uint32_t *order, i;
	int v, k, ret = 0;

	if (!d || !d->slowest)
		return 0;
	for (v = 0; v < NR_SOFTIRQS && !ret; v++)
		for (k = 0; k < SLOW_METRIC_NR && !ret; k++) {
			struct slow_group g = { SLOW_SOFTIRQ, k, softirq_names[v], "", "", "",
						detail_heap(d, SLOW_SOFTIRQ, v, k) };

			ret = visit(fn, ctx, r, &g);
		}
	/* workqueue groups in the order of the tables */
	order = result_wq_order(r);
	if (!order)
		return -ENOMEM;
	for (i = 0; i < r->m.ngroups && !ret; i++)
		for (k = 0; k < SLOW_METRIC_NR && !ret; k++) {
			struct slow_group g = { SLOW_WQ, k, "", "", "", "",
						detail_heap(d, SLOW_WQ, order[i], k) };

			wq_names(r, order[i], &g, fn_name, sizeof(fn_name), pool, sizeof(pool));
			ret = visit(fn, ctx, r, &g);
		}
	free(order);
	for (i = 0; i < r->m.nctx && !ret; i++)
		for (k = 0; k < SLOW_METRIC_NR && !ret; k++) {
			struct ctx_row row;
			struct slow_group g = { SLOW_CTX, k, "", "", "", "",
						detail_heap(d, SLOW_CTX, i, k) };

			output_ctx_row_of(r, r->m.ctx[i], &row, name, sizeof(name));
			g.name = row.name;
			g.context = ctx_kind_names[row.kind];
			g.where = row.where;
			ret = visit(fn, ctx, r, &g);
		}
	return ret;
}
