// SPDX-License-Identifier: GPL-2.0
/*
 * output_detail.c - the record table's sections of record --stacks and --slowest: where
 * the softirqs ran from (the call sites, with their share of the delay), and the worst
 * event of each group.
 */
#include <stdlib.h>
#include <string.h>

#include "common.h"
#include "detail_out.h"
#include "fmt.h"
#include "output.h"
#include "grow.h"

#define SITES_SHOWN 8
#define LONG_SITES_SHOWN 5
#define SLOW_ROWS_SHOWN 8	/* workqueue and context groups shown; the rest in files */

static double pct(uint64_t part, uint64_t whole)
{
	return whole ? 100.0 * (double)part / (double)whole : 0.0;
}

static void site_line(FILE *f, const struct site_row *s, uint64_t total,
		      const struct table_opts *o)
{
	char b[24], c[40];

	fprintf(f, "  %-9s %-34s %9llu %10s %6.1f%% %6.1f%% %5llu  %s\n",
		stack_how_names[s->how], fmt_cut(s->site, 34, c, sizeof(c)),
		(unsigned long long)s->count, table_lat(s->wait_ns, o, b, sizeof(b)),
		pct(s->wait_ns, total),
		pct(wait_bh_ns(s->part_ns), total), (unsigned long long)s->long_runs,
		s->how == HOW_KSOFTIRQD ? "" : s->path);
}

static int long_cmp(const void *a, const void *b)
{
	const struct site_row *x = *(const struct site_row *const *)a;
	const struct site_row *y = *(const struct site_row *const *)b;

	return x->long_run_ns > y->long_run_ns ? -1 : x->long_run_ns < y->long_run_ns;
}

static void stacks_vector(const struct result *r, const struct stack_report *sr, int vec,
			  FILE *f, const struct table_opts *o)
{
	const struct sirq_wait *w = r->m.wait[vec];
	uint64_t total = w ? w->delay_ns : 0, bh = w ? wait_bh_ns(w->cause_ns) : 0;
	uint64_t count = 0, wait = 0, sbh = 0, long_ns = 0, ks = 0;
	const struct site_row **lng;
	struct sirq_group all;
	char b[2][24];
	uint32_t i, n = 0, shown = 0;

	for (i = 0; i < sr->nsite; i++) {
		const struct site_row *s = &sr->site[i];

		if (s->vec != (unsigned int)vec)
			continue;
		count += s->count;
		wait += s->wait_ns;
		sbh += wait_bh_ns(s->part_ns);
		long_ns += s->long_run_ns;
		ks += s->how == HOW_KSOFTIRQD ? s->wait_ns : 0;
		n++;
	}
	if (!result_sirq_all(r, vec, &all))
		all.entries = 0;
	fprintf(f, "%s: %llu entries, %llu with a stack, whose delay %s is %.1f%% of the "
		"vector's; bh_disabled %.1f%% of it by the stacks, %.1f%% by the cause split\n",
		softirq_names[vec], (unsigned long long)all.entries, (unsigned long long)count,
		fmt_ns(wait, b[0], sizeof(b[0])), pct(wait, total), pct(sbh, total), pct(bh, total));
	if (!n)
		return;
	fprintf(f, "  %-9s %-34s %9s %10s %7s %7s %5s  %s\n", "how", "call site", "entries",
		"delay", "share", "bh_dis", ">2ms", "path");
	for (i = 0; i < sr->nsite && shown < SITES_SHOWN; i++)
		if (sr->site[i].vec == (unsigned int)vec) {
			site_line(f, &sr->site[i], total, o);
			shown++;
		}
	if (n > shown)
		fprintf(f, "  ... and %u more call sites (stacks.csv)\n", n - shown);
	if (ks)
		fprintf(f, "  ran in ksoftirqd: %.1f%% of the delay (its stack names no call site)\n",
			pct(ks, total));
	if (!long_ns)
		return;
	lng = calloc(n, sizeof(*lng));
	if (!lng)
		return;
	for (i = 0, n = 0; i < sr->nsite; i++)
		if (sr->site[i].vec == (unsigned int)vec && sr->site[i].long_run_ns)
			lng[n++] = &sr->site[i];
	qsort(lng, n, sizeof(*lng), long_cmp);
	fprintf(f, "  runs over 2 ms by call site (their share of %s in long runs):\n",
		fmt_ns(long_ns, b[1], sizeof(b[1])));
	for (i = 0; i < n && i < LONG_SITES_SHOWN; i++) {
		char site[SITE_LEN + 32];

		fprintf(f, "    %-34.34s %5llu runs %9s %6.1f%%\n",
			stack_site_text(lng[i]->how, lng[i]->site, site, sizeof(site)),
			(unsigned long long)lng[i]->long_runs,
			fmt_ns(lng[i]->long_run_ns, b[0], sizeof(b[0])),
			pct(lng[i]->long_run_ns, long_ns));
	}
	free(lng);
}

void output_stacks(const struct result *r, FILE *f, const struct table_opts *o)
{
	const struct detail *d = r->m.detail;
	struct stack_report sr;
	char vecs[128];
	int v;

	if (!d || !d->stack_vecs)
		return;
	if (stack_report_build(r, &sr)) {
		fprintf(f, "\nWHERE SOFTIRQS RAN FROM: out of memory\n");
		return;
	}
	fprintf(f, "\nWHERE SOFTIRQS RAN FROM, times in %s   the kernel stack at each entry of %s: how it came "
		"to run\n      (bh_enable: at the end of a BH-disabled section, by the code named; "
		"irq_exit; ksoftirqd) and\n      the delay it ended, as a share of the vector's "
		"delay (bh_dis: the part BH was held off)\n", table_unit(o),
		detail_vecs_format(d->stack_vecs, vecs, sizeof(vecs)));
	fprintf(f, "stacks: %llu recorded, %llu joined to their entry, %llu not, %llu distinct%s\n",
		(unsigned long long)d->stack_records, (unsigned long long)d->stack_joined,
		(unsigned long long)d->stack_unjoined, (unsigned long long)d->nst,
		d->stack_overflow ? " (more than could be kept: not summed)" : "");
	for (v = 0; v < NR_SOFTIRQS; v++)
		if (d->stack_vecs & (1u << v))
			stacks_vector(r, &sr, v, f, o);
	stack_report_free(&sr);
}

/* The worst event of each group and metric, to sort and print. */
struct worst_row {
	struct slow_group g;
	struct slow_ev ev;
	char name[128], func[128], where[64], context[32];
	uint32_t n;
	size_t seq;			/* the order slow_each gave */
};

struct worst_list {
	struct worst_row *row;
	size_t n, cap;
	const struct stack_report *sr;
};

static int collect(void *ctx, const struct result *r __unused, const struct slow_group *g,
		   const struct slow_ev *ev, uint32_t n)
{
	struct worst_list *l = ctx;
	struct worst_row *w;

	if (GROW(l->row, l->cap, l->n + 1))
		return -1;
	w = &l->row[l->n];
	w->seq = l->n++;
	w->g = *g;
	w->ev = ev[0];
	w->n = n;
	snprintf(w->name, sizeof(w->name), "%s", g->name);
	snprintf(w->func, sizeof(w->func), "%s", g->func);
	snprintf(w->where, sizeof(w->where), "%s", g->where);
	snprintf(w->context, sizeof(w->context), "%s", g->context);
	return 0;
}

static int worst_cmp(const void *a, const void *b)
{
	const struct worst_row *x = a, *y = b;

	if (x->g.kind != y->g.kind)
		return x->g.kind < y->g.kind ? -1 : 1;
	/* vectors in their order; other groups the worst first */
	if (x->g.kind != SLOW_SOFTIRQ && x->ev.ns != y->ev.ns)
		return x->ev.ns > y->ev.ns ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

static void worst_line(const struct result *r, const struct worst_list *l,
		       const struct worst_row *w, FILE *f, const struct table_opts *o)
{
	char b[24], what[512], causes[160], label[400], site[SITE_LEN + 32], c[48];
	size_t off = 0;

	what[0] = '\0';
	if (w->ev.split)
		off += (size_t)snprintf(what + off, sizeof(what) - off, "%s",
					slow_causes_text(&w->ev, causes, sizeof(causes)));
	if (w->ev.task[0] && off < sizeof(what))
		off += (size_t)snprintf(what + off, sizeof(what) - off, "%s%s %s", off ? "; " : "",
					w->g.kind == SLOW_WQ ? "queued by" : "BH held off by",
					w->ev.task);
	if (w->ev.ksoftirqd && off < sizeof(what))
		off += (size_t)snprintf(what + off, sizeof(what) - off, "%sin ksoftirqd",
					off ? "; " : "");
	if (w->ev.stack && l->sr && w->ev.stack <= l->sr->nview && off < sizeof(what)) {
		const struct stack_view *v = &l->sr->view[w->ev.stack - 1];

		snprintf(what + off, sizeof(what) - off, "%sfrom %s", off ? "; " : "",
			 stack_site_text(v->how, v->site, site, sizeof(site)));
	}
	if (w->g.kind == SLOW_WQ)
		snprintf(label, sizeof(label), "%s %s %s", w->name, w->func, w->where);
	else if (w->g.kind == SLOW_CTX)
		snprintf(label, sizeof(label), "%s %s%s%s", w->context, w->name,
			 w->where[0] ? " " : "", w->where);
	else
		snprintf(label, sizeof(label), "%s", w->name);
	fprintf(f, "%-9s %-40s %-7s %10s %12.6f %3d  %s\n", slow_kind_names[w->g.kind],
		fmt_cut(label, 40, c, sizeof(c)), slow_metric_names[w->g.metric],
		table_lat(w->ev.ns, o, b, sizeof(b)), slow_t_s(r, &w->ev),
		w->ev.cpu, what);
}

void output_slowest(const struct result *r, FILE *f, const struct table_opts *o)
{
	const struct detail *d = r->m.detail;
	struct worst_list l = { 0 };
	struct stack_report sr = { 0 };
	size_t i, shown[SLOW_KIND_NR] = { 0 }, total[SLOW_KIND_NR] = { 0 };

	if (!d || !d->slowest)
		return;
	if (stack_report_build(r, &sr) == 0)
		l.sr = &sr;
	if (slow_each(r, collect, &l)) {
		fprintf(f, "\nSLOWEST EVENTS: out of memory\n");
		goto out;
	}
	qsort(l.row, l.n, sizeof(*l.row), worst_cmp);
	fprintf(f, "\nSLOWEST EVENTS, times in %s   the worst delay and run of each group (the %u worst of each "
		"in slowest.csv);\n      at: seconds since the intervals' origin (intervals.csv "
		"t_s), trace clock mono\n", table_unit(o), d->slowest);
	fprintf(f, "%-9s %-40s %-7s %10s %12s %3s  %s\n", "group", "name", "metric", "worst", "at",
		"cpu", "causes, task, call site");
	for (i = 0; i < l.n; i++) {
		enum slow_kind k = l.row[i].g.kind;

		total[k]++;
		if (k != SLOW_SOFTIRQ && shown[k] >= SLOW_ROWS_SHOWN)
			continue;
		shown[k]++;
		worst_line(r, &l, &l.row[i], f, o);
	}
	if (total[SLOW_WQ] > shown[SLOW_WQ] || total[SLOW_CTX] > shown[SLOW_CTX])
		fprintf(f, "... and %zu more workqueue and %zu more context rows (slowest.csv)\n",
			total[SLOW_WQ] - shown[SLOW_WQ], total[SLOW_CTX] - shown[SLOW_CTX]);
out:
	free(l.row);
	stack_report_free(&sr);
}
