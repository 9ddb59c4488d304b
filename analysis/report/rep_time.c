// SPDX-License-Identifier: GPL-2.0
/*
 * rep_time.c - latency over time: the busiest softirq vectors, workqueue groups and other
 * execution contexts (napi and irq threads, tasklets) of one repetition per
 * configuration, p99 delay per interval, from intervals.csv.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "plot.h"
#include "plot_kinds.h"
#define DEFERBENCH_ALLOW_REPORT_INT_H
#include "report_int.h"
#include "ivfile.h"
#include "file.h"
#include "grow.h"

#define TOP_EACH 3

/* what a series is: its rows' kind */
enum tkind { TK_SOFTIRQ, TK_CONTEXT, TK_WQ, TK_NR };

struct tgroup {
	enum tkind kind;
	char name[NAME_LEN], func[FUNC_LEN], pool[NAME_LEN];
	uint64_t total;
	double *t, *v;
	size_t n;
};

static enum tkind kind_of(const struct ival_row *row)
{
	return row->softirq ? TK_SOFTIRQ : row->context ? TK_CONTEXT : TK_WQ;
}

static bool same(const struct tgroup *g, const struct ival_row *row)
{
	return g->kind == kind_of(row) && !strcmp(g->name, row->name) &&
	       !strcmp(g->func, row->func) && !strcmp(g->pool, row->pool);
}

/* group_rows - intervals.csv rows into per-group series; returns the group count */
static size_t group_rows(const struct ival_row *rows, size_t n, struct tgroup **out)
{
	struct tgroup *g = NULL, *p;
	size_t i, j, ng = 0;

	for (i = 0; i < n; i++) {
		/* a softirq context repeats its vector's row; hard irqs have no delay */
		if (rows[i].context && (!strcmp(rows[i].func, "softirq") ||
					!strcmp(rows[i].func, "hardirq")))
			continue;
		for (j = 0; j < ng && !same(&g[j], &rows[i]); j++)
			;
		if (j == ng) {
			p = grow_array(g, ng, sizeof(*g));
			if (!p)
				break;
			g = p;
			g[ng].kind = kind_of(&rows[i]);
			strcpy(g[ng].name, rows[i].name);
			strcpy(g[ng].func, rows[i].func);
			strcpy(g[ng].pool, rows[i].pool);
			g[ng].t = calloc(n, sizeof(double));
			g[ng].v = calloc(n, sizeof(double));
			if (!g[ng].t || !g[ng].v) {
				free(g[ng].t);
				free(g[ng].v);
				break;
			}
			ng++;
		}
		g[j].t[g[j].n] = rows[i].t_s;
		g[j].v[g[j].n++] = (double)rows[i].p99;
		g[j].total += rows[i].count;
	}
	*out = g;
	return ng;
}

static int by_total(const void *a, const void *b)
{
	const struct tgroup *x = a, *y = b;

	if (x->kind != y->kind)
		return x->kind - y->kind;
	return (x->total < y->total) - (x->total > y->total);
}

/* pick - the TOP_EACH busiest softirq vectors, other contexts, workqueue groups */
static size_t pick(struct report_ctx *r, struct tgroup *g, size_t ng, struct tseries *s)
{
	size_t i, ns = 0, nk[TK_NR] = { 0 };

	qsort(g, ng, sizeof(*g), by_total);
	for (i = 0; i < ng; i++) {
		size_t *k = &nk[g[i].kind];

		if (*k == TOP_EACH)
			continue;
		(*k)++;
		s[ns] = (struct tseries){ .t = g[i].t, .v = g[i].v, .n = g[i].n,
					  .dash = g[i].kind == TK_WQ ? 2 : 1 };
		/* coloured by the work: the vector, the function, the context's thing */
		palette_pick(&r->pal, PAL_WORK, g[i].kind == TK_WQ ? g[i].func : g[i].name,
			     &s[ns].color, s[ns].key, sizeof(s[ns].key));
		if (g[i].kind == TK_SOFTIRQ)
			snprintf(s[ns].title, sizeof(s[ns].title), "softirq %s", g[i].name);
		else if (g[i].kind == TK_CONTEXT)
			snprintf(s[ns].title, sizeof(s[ns].title), "%s %s%s%s", g[i].func,
				 g[i].name, g[i].pool[0] ? " " : "", g[i].pool);
		else
			snprintf(s[ns].title, sizeof(s[ns].title), "wq %s: %s @%s", g[i].name,
				 g[i].func, g[i].pool);
		ns++;
	}
	return ns;
}

static const struct cell *first_ok(const struct cellset *s)
{
	size_t i;

	for (i = 0; i < s->n; i++)
		if (s->cell[i]->ok)
			return s->cell[i];
	return NULL;
}

static void time_plot(struct report_ctx *r, const struct cellset *set)
{
	const struct cell *c = first_ok(set);
	char path[PATH_MAX], stem[PLOT_STEM_LEN], title[256];
	struct tseries s[TK_NR * TOP_EACH];
	struct ival_row *rows = NULL;
	struct tgroup *g = NULL;
	size_t n = 0, ng, i;
	int ret;

	if (!c || path_join(path, sizeof(path), c->dir, "intervals.csv"))
		return;
	ret = ivfile_load(path, "delay", &rows, &n, r->errbuf);
	if (ret == -ENOENT) {
		doc_p(&r->doc, "(%s: no intervals.csv, no plot over time)", c->id);
		return;
	}
	if (ret) {
		r->err = r->err ?: ret;
		return;
	}
	ng = group_rows(rows, n, &g);
	snprintf(stem, sizeof(stem), "time-%.40s-%.60s", set->workload, set->config);
	plot_sanitize(stem);
	snprintf(title, sizeof(title), "%s / %s, %s %u: p99 delay per interval",
		 set->workload, set->config, r->unit, c->rep);
	ret = plot_time(&(struct plot_text){ r->plotdir, stem, title },
			"p99 delay of the items in the interval (us, log scale)", s,
			pick(r, g, ng, s), r->errbuf);
	if (ret == -ENODATA) {
		doc_p(&r->doc, "(%s: no intervals with data)", c->id);
	} else if (ret) {
		r->err = r->err ?: ret;
	} else {
		char png[PLOT_STEM_LEN + 16], svg[PLOT_STEM_LEN + 16];

		snprintf(png, sizeof(png), "plots/%s.png", stem);
		snprintf(svg, sizeof(svg), "plots/%s.svg", stem);
		doc_img(&r->doc, png, svg, title);
		doc_p(&r->doc, "Each point is the p99 of one interval's items, at the interval's "
		      "start; with fewer than 100 items in an interval it is close to that "
		      "interval's maximum.");
		r->nplots++;
	}
	for (i = 0; i < ng; i++) {
		free(g[i].t);
		free(g[i].v);
	}
	free(g);
	free(rows);
}

void rep_time_plots(struct report_ctx *r, const char *wl)
{
	const struct cellset *ref = cellsets_reference(&r->cs, wl);

	/*
	 * one is enough to see a drift or a burst; the others would double the report. A
	 * block of an alternating run is a phase of a few intervals: nothing to see there
	 */
	if (r->o->plots && ref && !r->alt)
		time_plot(r, ref);
}
