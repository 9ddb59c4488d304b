// SPDX-License-Identifier: GPL-2.0
/*
 * rep_stacks.c - the report's sections of record --stacks and --slowest, for the cells
 * that have them (nothing at all otherwise): per workload x configuration, a flame
 * graph of the stacks weighted by the delay they ended, the call sites softirqs ran
 * from with their share of the delay, and the slowest events with their times.
 * tables/callsites.csv and tables/slowest.csv hold every row.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "flame.h"
#include "plot.h"
#define DEFERBENCH_ALLOW_REPORT_INT_H
#include "report_int.h"
#include "file.h"
#include "grow.h"

#define SITES_SHOWN 6		/* per configuration and vector */
#define SLOW_WQ_SHOWN 5		/* workqueue groups per configuration */
#define SLOW_CTX_SHOWN 3	/* contexts per configuration */

/* A call site pooled over a configuration's repetitions. */
struct psite {
	const struct site_data *s;	/* the first seen: names, and the path of the heaviest */
	uint64_t count, wait_ns, bh_ns, long_runs, long_run_ns, path_wait;
	const char *path;
};

static bool cell_has(const struct cell *c, bool stacks)
{
	return c->ok && (stacks ? c->rec.nsvec > 0 : c->rec.nslow > 0);
}

static bool wl_has(const struct report_ctx *r, const char *wl, bool stacks)
{
	size_t i, j;

	for (i = 0; i < r->cs.n; i++)
		for (j = 0; !strcmp(r->cs.s[i].workload, wl) && j < r->cs.s[i].n; j++)
			if (cell_has(r->cs.s[i].cell[j], stacks))
				return true;
	return false;
}

/* open_tab - tables/NAME, created (with its header) when first written */
static struct csvw *open_tab(struct report_ctx *r, int t, const char *name,
			     const char *const *head)
{
	char p[PATH_MAX];
	int ret;

	if (r->detail_open[t])
		return &r->detail_tab[t];
	ret = path_join(p, sizeof(p), r->tabledir, name);
	ret = ret ?: csvw_open(&r->detail_tab[t], p);
	if (ret) {
		r->err = r->err ?: errno_msg(r->errbuf, ret, "%s: %s", p, strerror(-ret));
		return NULL;
	}
	r->detail_open[t] = true;
	csvw_header(&r->detail_tab[t], head);
	csvw_end(&r->detail_tab[t]);
	return &r->detail_tab[t];
}

int rep_stacks_tables_close(struct report_ctx *r)
{
	int t, ret = 0, e;

	for (t = 0; t < 2; t++) {
		if (!r->detail_open[t])
			continue;
		e = csvw_close(&r->detail_tab[t]);
		ret = ret ?: e;
		r->detail_open[t] = false;
	}
	if (ret)
		errno_msg(r->errbuf, ret, "%s: cannot write the CSV tables: %s", r->tabledir,
			 strerror(-ret));
	return ret;
}

static double pct(uint64_t part, uint64_t whole)
{
	return whole ? 100.0 * (double)part / (double)whole : 0.0;
}

static int psite_cmp(const void *a, const void *b)
{
	const struct psite *x = a, *y = b;

	return x->wait_ns > y->wait_ns ? -1 : x->wait_ns < y->wait_ns;
}

/* pool_sites - vector's call sites over the set's repetitions, most delay first */
static size_t pool_sites(const struct cellset *s, const char *vector, struct psite **out)
{
	struct psite *p = NULL;
	size_t n = 0, cap = 0, i, j, k;

	for (i = 0; i < s->n; i++) {
		const struct record *rec = &s->cell[i]->rec;

		if (!s->cell[i]->ok)
			continue;
		for (j = 0; j < rec->nsites; j++) {
			const struct site_data *d = &rec->sites[j];

			if (strcmp(d->vector, vector))
				continue;
			for (k = 0; k < n; k++)
				if (!strcmp(p[k].s->how, d->how) && !strcmp(p[k].s->site, d->site))
					break;
			if (k == n) {
				if (GROW(p, cap, n + 1))
					break;
				p[n++].s = d;
			}
			p[k].count += d->count;
			p[k].wait_ns += d->wait_ns;
			p[k].bh_ns += d->bh_disabled_ns;
			p[k].long_runs += d->long_runs;
			p[k].long_run_ns += d->long_run_ns;
			if (!p[k].path || d->wait_ns > p[k].path_wait) {
				p[k].path = d->path;
				p[k].path_wait = d->wait_ns;
			}
		}
	}
	if (n)
		qsort(p, n, sizeof(*p), psite_cmp);
	*out = p;
	return n;
}

/* the set's vector totals, summed over its repetitions */
static void pool_vector(const struct cellset *s, const char *vector, struct stackvec_data *t)
{
	size_t i, j;

	memset(t, 0, sizeof(*t));
	for (i = 0; i < s->n; i++)
		for (j = 0; s->cell[i]->ok && j < s->cell[i]->rec.nsvec; j++) {
			const struct stackvec_data *v = &s->cell[i]->rec.svec[j];

			if (strcmp(v->vector, vector))
				continue;
			t->entries += v->entries;
			t->with_stack += v->with_stack;
			t->delay_ns += v->delay_ns;
			t->stack_delay_ns += v->stack_delay_ns;
			t->bh_disabled_ns += v->bh_disabled_ns;
			t->stack_bh_disabled_ns += v->stack_bh_disabled_ns;
		}
}

/* flame - the set's stacks (every repetition's) as one flame graph */
static void flame(struct report_ctx *r, const struct cellset *s, const char *wl)
{
	char stem[PLOT_STEM_LEN], path[PATH_MAX], svg[PLOT_STEM_LEN + 16], title[256];
	struct flame_stack *fs;
	char **keep;
	size_t n = 0, i, j;
	int ret = 0;

	for (i = 0; i < s->n; i++)
		n += s->cell[i]->ok ? s->cell[i]->rec.nstacks : 0;
	if (!n)
		return;
	fs = calloc(n, sizeof(*fs));
	keep = calloc(n, sizeof(*keep));
	n = 0;
	for (i = 0; fs && keep && i < s->n; i++)
		for (j = 0; s->cell[i]->ok && j < s->cell[i]->rec.nstacks && !ret; j++) {
			const struct stack_data *d = &s->cell[i]->rec.stacks[j];

			/* the vector is the bottom frame */
			if (asprintf(&keep[n], "%s;%s", d->vector, d->folded) < 0) {
				keep[n] = NULL;
				ret = -ENOMEM;
				break;
			}
			fs[n].folded = keep[n];
			fs[n++].weight = d->wait_ns;
		}
	if (!fs || !keep)
		ret = -ENOMEM;
	snprintf(stem, sizeof(stem), "flame-%.40s-%.80s", wl, s->config);
	plot_sanitize(stem);
	snprintf(title, sizeof(title), "%s / %s: kernel stacks at softirq entry, weighted by "
		 "the delay each entry ended (%zu repetition%s)", wl, s->config, s->n,
		 s->n == 1 ? "" : "s");
	if (!ret && path_join(path, sizeof(path), r->plotdir, stem) == 0 &&
	    strlen(path) + 5 < sizeof(path)) {
		strcat(path, ".svg");
		ret = flame_svg(path, title, "ns", fs, n);
	}
	if (!ret) {
		snprintf(svg, sizeof(svg), "plots/%s.svg", stem);
		doc_img(&r->doc, svg, svg, title);
		r->nplots++;
	} else if (ret != -ENODATA) {
		r->err = r->err ?: errno_msg(r->errbuf, ret, "%s: cannot draw the flame graph: %s",
					    r->plotdir, strerror(-ret));
	}
	for (i = 0; keep && i < n; i++)
		free(keep[i]);
	free(keep);
	free(fs);
}

static void sites_rows(struct report_ctx *r, const struct cellset *s, const char *wl,
		       const char *vector, struct csvw *w)
{
	struct stackvec_data t;
	struct psite *p;
	char share[16], bh[16], cnt[24], lr[24];
	size_t n, i;

	pool_vector(s, vector, &t);
	n = pool_sites(s, vector, &p);
	for (i = 0; i < n; i++) {
		const char *row[] = { s->config, vector, p[i].s->how, p[i].s->site, cnt, share, bh,
				      lr, p[i].path ? p[i].path : "" };

		snprintf(cnt, sizeof(cnt), "%llu", (unsigned long long)p[i].count);
		snprintf(share, sizeof(share), "%.1f%%", pct(p[i].wait_ns, t.delay_ns));
		snprintf(bh, sizeof(bh), "%.1f%%", pct(p[i].bh_ns, t.delay_ns));
		snprintf(lr, sizeof(lr), "%llu", (unsigned long long)p[i].long_runs);
		if (i < SITES_SHOWN)
			doc_row(&r->doc, row, ARRAY_SIZE(row));
		if (w) {
			csvw_str(w, wl);
			csvw_str(w, s->config);
			csvw_str(w, vector);
			csvw_str(w, p[i].s->how);
			csvw_str(w, p[i].s->site);
			csvw_u64(w, p[i].count);
			csvw_u64(w, p[i].wait_ns);
			csvw_dbl(w, t.delay_ns ? (double)p[i].wait_ns / (double)t.delay_ns : 0);
			csvw_u64(w, p[i].bh_ns);
			csvw_dbl(w, t.delay_ns ? (double)p[i].bh_ns / (double)t.delay_ns : 0);
			csvw_u64(w, p[i].long_runs);
			csvw_u64(w, p[i].long_run_ns);
			csvw_str(w, p[i].path ? p[i].path : "");
			csvw_end(w);
		}
	}
	free(p);
}

/* vectors_of - the vectors a set's cells took stacks of, in their order */
static size_t vectors_of(const struct cellset *s, const char **out, size_t max)
{
	size_t i, j, k, n = 0;

	for (i = 0; i < s->n; i++)
		for (j = 0; s->cell[i]->ok && j < s->cell[i]->rec.nsvec; j++) {
			const char *v = s->cell[i]->rec.svec[j].vector;

			for (k = 0; k < n && strcmp(out[k], v); k++)
				;
			if (k == n && n < max)
				out[n++] = v;
		}
	return n;
}

void rep_table_stacks(struct report_ctx *r, const char *wl)
{
	static const char *const hdr[] = { "config", "vector", "how it ran", "call site",
		"entries", "share of the delay", "BH disabled (share)", "runs > 2 ms",
		"path (the heaviest)" };
	static const char *const head[] = { "workload", "config", "vector", "how", "site",
		"count", "wait_ns", "share", "bh_disabled_ns", "bh_share", "long_runs",
		"long_run_ns", "path", NULL };
	const char *vec[NR_VECTORS_MAX];
	struct csvw *w;
	size_t i, j, nv;

	if (!wl_has(r, wl, true))
		return;
	w = open_tab(r, 0, "callsites.csv", head);
	doc_h(&r->doc, 3, "%s: where softirqs ran from (kernel stacks)", wl);
	doc_p(&r->doc, "With record --stacks each softirq entry of the chosen vectors has its "
	      "kernel stack. It says how the softirq came to run: bh_enable, at the end of a "
	      "BH-disabled section (local_bh_enable, spin_unlock_bh), the call site being the "
	      "code that ended the section and so held the vector back; irq_exit; ksoftirqd. "
	      "Each call site's share is of the vector's whole delay (as split in the causes "
	      "above), its BH-disabled part beside it; summed over the repetitions.");
	for (i = 0; i < r->cs.n && !r->err; i++) {
		const struct cellset *s = &r->cs.s[i];

		if (strcmp(s->workload, wl))
			continue;
		nv = vectors_of(s, vec, ARRAY_SIZE(vec));
		for (j = 0; j < nv; j++) {
			struct stackvec_data t;

			pool_vector(s, vec[j], &t);
			doc_li(&r->doc, "%s, %s: %llu entries, %llu with a stack; the stacks hold "
			       "%.1f%% of the delay; BH disabled %.1f%% by the stacks, %.1f%% by the "
			       "cause split", s->config, vec[j], (unsigned long long)t.entries,
			       (unsigned long long)t.with_stack, pct(t.stack_delay_ns, t.delay_ns),
			       pct(t.stack_bh_disabled_ns, t.delay_ns),
			       pct(t.bh_disabled_ns, t.delay_ns));
		}
	}
	doc_table(&r->doc, hdr, ARRAY_SIZE(hdr));
	for (i = 0; i < r->cs.n && !r->err; i++) {
		const struct cellset *s = &r->cs.s[i];

		if (strcmp(s->workload, wl))
			continue;
		nv = vectors_of(s, vec, ARRAY_SIZE(vec));
		for (j = 0; j < nv; j++)
			sites_rows(r, s, wl, vec[j], w);
	}
	doc_table_end(&r->doc);
	for (i = 0; r->o->plots && i < r->cs.n && !r->err; i++)
		if (!strcmp(r->cs.s[i].workload, wl))
			flame(r, &r->cs.s[i], wl);
}

/* The worst event of one group over a set's repetitions. */
struct pslow {
	const struct slow_data *d;
	const struct cell *cell;
};

static int pslow_cmp(const void *a, const void *b)
{
	const struct pslow *x = a, *y = b;
	int kx = !strcmp(x->d->group, "softirq") ? 0 : !strcmp(x->d->group, "workqueue") ? 1 : 2;
	int ky = !strcmp(y->d->group, "softirq") ? 0 : !strcmp(y->d->group, "workqueue") ? 1 : 2;

	if (kx != ky)
		return kx - ky;
	if (!kx && strcmp(x->d->name, y->d->name))
		return strcmp(x->d->name, y->d->name);
	if (x->d->ns != y->d->ns)
		return x->d->ns > y->d->ns ? -1 : 1;
	return strcmp(x->d->metric, y->d->metric);
}

static bool same_group(const struct slow_data *a, const struct slow_data *b)
{
	return !strcmp(a->group, b->group) && !strcmp(a->name, b->name) &&
	       !strcmp(a->func, b->func) && !strcmp(a->where, b->where) &&
	       !strcmp(a->metric, b->metric);
}

static void slow_row(struct report_ctx *r, const struct cellset *s, const struct pslow *p)
{
	char ns[24], at[24], cpu[16], rep[16], name[340];
	const struct slow_data *d = p->d;

	snprintf(name, sizeof(name), "%s%s%s%s%s", d->name, d->func[0] ? " " : "", d->func,
		 d->where[0] ? " " : "", d->where);
	fmt_us((double)d->ns, ns, sizeof(ns));
	snprintf(at, sizeof(at), "%.6f", d->t_s);
	snprintf(cpu, sizeof(cpu), "%d", d->cpu);
	snprintf(rep, sizeof(rep), "%u", p->cell->rep);
	{
		const char *row[] = { s->config, d->group, name, d->metric, ns, rep, at, cpu,
				      d->causes, d->task, d->site };

		doc_row(&r->doc, row, ARRAY_SIZE(row));
	}
}

static void slow_csv(struct csvw *w, const char *wl, const struct cell *c,
		     const struct slow_data *d)
{
	csvw_str(w, c->id);
	csvw_str(w, wl);
	csvw_str(w, c->config);
	csvw_u64(w, c->rep);
	csvw_str(w, d->group);
	csvw_str(w, d->name);
	csvw_str(w, d->func);
	csvw_str(w, d->where);
	csvw_str(w, d->metric);
	csvw_u64(w, d->rank);
	csvw_u64(w, d->ns);
	csvw_u64(w, d->at_ns);
	csvw_fixed(w, d->t_s, 9);
	csvw_u64(w, d->interval);
	csvw_i64(w, d->cpu);
	csvw_str(w, d->task);
	csvw_str(w, d->causes);
	csvw_str(w, d->site);
	csvw_end(w);
}

static void slow_set(struct report_ctx *r, const struct cellset *s, const char *wl,
		     struct csvw *w)
{
	struct pslow *p = NULL;
	size_t n = 0, cap = 0, i, j, k, nwq = 0, nctx = 0;

	for (i = 0; i < s->n; i++) {
		const struct record *rec = &s->cell[i]->rec;

		for (j = 0; s->cell[i]->ok && j < rec->nslow; j++) {
			const struct slow_data *d = &rec->slow[j];

			if (w)
				slow_csv(w, wl, s->cell[i], d);
			if (d->rank != 1)
				continue;
			for (k = 0; k < n && !same_group(p[k].d, d); k++)
				;
			if (k < n) {
				if (d->ns > p[k].d->ns)
					p[k] = (struct pslow){ d, s->cell[i] };
				continue;
			}
			if (GROW(p, cap, n + 1))
				goto out;
			p[n++] = (struct pslow){ d, s->cell[i] };
		}
	}
	if (n)
		qsort(p, n, sizeof(*p), pslow_cmp);
	for (i = 0; i < n; i++) {
		if (!strcmp(p[i].d->group, "workqueue") && nwq++ >= SLOW_WQ_SHOWN)
			continue;
		if (!strcmp(p[i].d->group, "context") && nctx++ >= SLOW_CTX_SHOWN)
			continue;
		slow_row(r, s, &p[i]);
	}
out:
	free(p);
}

void rep_table_slowest(struct report_ctx *r, const char *wl)
{
	static const char *const hdr[] = { "config", "group", "name", "metric", "worst (us)",
		"rep", "at (s)", "cpu", "causes", "task (BH off, or queued it)",
		"softirq ran from" };
	static const char *const head[] = { "cell", "workload", "config", "rep", "group",
		"name", "function", "where", "metric", "rank", "ns", "at_ns", "t_s", "interval",
		"cpu", "task", "causes", "site", NULL };
	struct csvw *w;
	size_t i;

	if (!wl_has(r, wl, false))
		return;
	w = open_tab(r, 1, "slowest.csv", head);
	doc_h(&r->doc, 3, "%s: the slowest events", wl);
	doc_p(&r->doc, "The worst delay and run of each softirq vector, of the %d workqueue "
	      "groups and %d contexts with the worst, over the repetitions (record --slowest "
	      "keeps the N worst of every group: tables/slowest.csv). at: seconds since the "
	      "repetition's intervals' origin (its intervals.csv t_s), on the trace clock; "
	      "the worst of a group is its histogram's max.", SLOW_WQ_SHOWN, SLOW_CTX_SHOWN);
	doc_table(&r->doc, hdr, ARRAY_SIZE(hdr));
	for (i = 0; i < r->cs.n && !r->err; i++)
		if (!strcmp(r->cs.s[i].workload, wl))
			slow_set(r, &r->cs.s[i], wl, w);
	doc_table_end(&r->doc);
}

void rep_stacks_files(struct report_ctx *r)
{
	if (r->detail_open[0])
		doc_li(&r->doc, "tables/callsites.csv: the call sites softirqs ran from, per "
		       "vector, pooled over repetitions (record --stacks); plots/flame-*.svg: "
		       "their stacks as flame graphs");
	if (r->detail_open[1])
		doc_li(&r->doc, "tables/slowest.csv: every repetition's slowest events of every "
		       "group (record --slowest)");
}
