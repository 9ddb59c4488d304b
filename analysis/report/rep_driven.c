// SPDX-License-Identifier: GPL-2.0
/*
 * rep_driven.c - the deferred work a workload drives, which the report answers for
 * first: the workload's "work" entries (workload.json: flush_to_ldisc, NET_RX wherever
 * it ran, kblockd, writeback), then its primary metrics on softirq, workqueue or
 * context groups that no work entry covers (timer's TIMER softirq). A workload with
 * neither (audio, a record of the whole system) drives none that deferbench knows of:
 * for it the report names the top waiters instead, as such.
 */
#include <errno.h>
#include <fnmatch.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compare.h"
#define DEFERBENCH_ALLOW_REPORT_INT_H
#include "report_int.h"

/* first_record - the first finished cell of wl with workload.json, or NULL */
static const struct record *first_record(const struct report_ctx *r, const char *wl)
{
	size_t i, j;

	for (i = 0; i < r->cs.n; i++)
		for (j = 0; !strcmp(r->cs.s[i].workload, wl) && j < r->cs.s[i].n; j++)
			if (r->cs.s[i].cell[j]->ok && r->cs.s[i].cell[j]->rec.wl.present)
				return &r->cs.s[i].cell[j]->rec;
	return NULL;
}

/* member_kind - "softirq NET_RX", "napi thread", "workqueue" for a work's member */
static void member_kind(const char *m, char *buf, size_t len)
{
	if (!strncmp(m, "softirq:", 8))
		snprintf(buf, len, "%s softirq", m + 8);
	else if (!strncmp(m, "context:napi_thread", 19))
		snprintf(buf, len, "napi thread");
	else if (!strncmp(m, "context:irq_thread", 18))
		snprintf(buf, len, "irq thread");
	else if (!strncmp(m, "context:tasklet", 15))
		snprintf(buf, len, "tasklet");
	else
		snprintf(buf, len, "workqueue");
}

/* covered - is the group of k one of the members of a work already listed */
static bool covered(const struct record *rec, const struct metric_key *k)
{
	char gid[METRIC_ID_LEN];
	size_t i;

	if (k->src == MS_SOFTIRQ)
		snprintf(gid, sizeof(gid), "softirq:%s", k->name);
	else if (k->src == MS_WQ)
		snprintf(gid, sizeof(gid), "wq:%s:%s", k->name, k->func);
	else if (k->src == MS_CONTEXT)
		snprintf(gid, sizeof(gid), "context:%s:%s@%s", k->name, k->func, k->pool);
	else
		return k->src == MS_WORK;
	for (i = 0; rec && i < rec->wl.nwork; i++)
		if (metric_work_member(&rec->wl.work[i], gid))
			return true;
	return false;
}

/* add_work - one driven work from a workload.json entry */
static void add_work(const struct wl_work *w, struct driven *d)
{
	char kind[NAME_LEN + 16];
	size_t i, off = 0;

	memset(d, 0, sizeof(*d));
	d->k.src = MS_WORK;
	d->k.sub = SM_DELAY;
	snprintf(d->k.name, sizeof(d->k.name), "%s", w->name);
	snprintf(d->name, sizeof(d->name), "%s", w->name);
	for (i = 0; i < w->nmember && off < sizeof(d->kind); i++) {
		member_kind(w->member[i], kind, sizeof(kind));
		if (!strstr(d->kind, kind))
			off += (size_t)snprintf(d->kind + off, sizeof(d->kind) - off, "%s%s",
						off ? " or " : "", kind);
	}
}

/* add_key - one driven work from a primary metric's group */
static void add_key(const struct metric_key *k, struct driven *d)
{
	memset(d, 0, sizeof(*d));
	d->k = *k;
	d->k.stat = MST_P50;
	d->k.pool[0] = k->src == MS_WQ ? '\0' : d->k.pool[0];	/* every pool of it */
	switch (k->src) {
	case MS_SOFTIRQ:
		snprintf(d->name, sizeof(d->name), "%s", k->name);
		snprintf(d->kind, sizeof(d->kind), "softirq");
		break;
	case MS_WQ:
		snprintf(d->name, sizeof(d->name), "%s", k->func);
		snprintf(d->kind, sizeof(d->kind), "workqueue %s", k->name);
		break;
	default:
		snprintf(d->name, sizeof(d->name), "%s", k->func);
		snprintf(d->kind, sizeof(d->kind), "%s", k->name);
	}
}

size_t rep_driven_works(const struct report_ctx *r, const char *wl, struct driven *out, size_t max)
{
	const struct cellset *ref = cellsets_reference(&r->cs, wl);
	const struct record *rec = first_record(r, wl);
	struct keylist kl = { 0 };
	size_t i, j, n = 0;

	for (i = 0; rec && i < rec->wl.nwork && n < max; i++)
		add_work(&rec->wl.work[i], &out[n++]);
	if (!ref || keylist_collect(ref, false, &kl))
		goto out;
	for (i = 0; i < kl.n && n < max; i++) {
		const struct metric_key *k = &kl.k[i];
		char id[METRIC_ID_LEN];

		if ((k->src != MS_SOFTIRQ && k->src != MS_WQ && k->src != MS_CONTEXT) ||
		    k->sub != SM_DELAY || k->stat == MST_MAX || covered(rec, k))
			continue;
		metric_id(k, id, sizeof(id));
		if (!cmp_is_primary(NULL, ref, id))
			continue;
		for (j = 0; j < n && !metric_same_group(&out[j].k, k); j++)
			;
		if (j == n)
			add_key(k, &out[n++]);
	}
out:
	keylist_free(&kl);
	return n;
}

/* add_name - name into names[*n] unless there; false when full */
static bool add_name(char (*names)[NAME_LEN], size_t *n, size_t max, const char *name)
{
	size_t j;

	for (j = 0; j < *n && strcmp(names[j], name); j++)
		;
	if (j == *n && *n < max)
		snprintf(names[(*n)++], NAME_LEN, "%s", name);
	return *n < max;
}

size_t rep_own_metrics(const struct report_ctx *r, const char *wl, char (*names)[NAME_LEN],
		   size_t max, size_t *nprim)
{
	const struct cellset *ref = cellsets_reference(&r->cs, wl);
	const char *pat[PRIMARY_MAX * 2];
	struct keylist kl = { 0 };
	size_t i, p, np, n = 0;

	if (nprim)
		*nprim = 0;
	if (!ref || keylist_collect(ref, false, &kl))
		goto out;
	/* the primary ones first, in the order the workload (or scenario) names them */
	np = cmp_primary_patterns(NULL, ref, pat, ARRAY_SIZE(pat));
	for (p = 0; p < np; p++)
		for (i = 0; i < kl.n; i++) {
			char id[METRIC_ID_LEN];

			if (kl.k[i].src != MS_WORKLOAD || kl.k[i].stat == MST_MAX)
				continue;
			metric_id(&kl.k[i], id, sizeof(id));
			if (!fnmatch(pat[p], id, 0))
				add_name(names, &n, max, kl.k[i].name);
		}
	if (nprim)
		*nprim = n;
	for (i = 0; i < kl.n; i++)
		if (kl.k[i].src == MS_WORKLOAD)
			add_name(names, &n, max, kl.k[i].name);
out:
	keylist_free(&kl);
	return n;
}

/* place_of_ctx - the place of an execution context's delay, or -1 (none: napi polls) */
static int place_of_ctx(const char *context, const char *where)
{
	if (!strcmp(context, "softirq"))
		return strcmp(where, "ksoftirqd") ? PLACE_SOFTIRQ : PLACE_KSOFTIRQD;
	if (!strcmp(context, "napi_thread"))
		return PLACE_NAPI;
	if (!strcmp(context, "workqueue"))
		return PLACE_WQ;
	if (!strcmp(context, "irq_thread"))
		return PLACE_IRQ;
	if (!strcmp(context, "tasklet"))
		return PLACE_TASKLET;
	return -1;
}

/* sirq_places - a vector's runs inline and in ksoftirqd */
static void sirq_places(const struct sirq_data *g, uint64_t *n)
{
	n[PLACE_SOFTIRQ] += g->count - (g->ksoftirqd_count < g->count ? g->ksoftirqd_count :
					 g->count);
	n[PLACE_KSOFTIRQD] += g->ksoftirqd_count < g->count ? g->ksoftirqd_count : g->count;
}

/* record_places - where d's waits of one record happened, added to n[] */
static void record_places(const struct record *rec, const struct driven *d, uint64_t *n)
{
	const struct wl_work *w = metric_work(rec, &d->k);
	char gid[METRIC_ID_LEN];
	size_t i;
	int p;

	for (i = 0; i < rec->nsirq; i++) {
		if (rec->sirq[i].cpu != -1)
			continue;
		snprintf(gid, sizeof(gid), "softirq:%s", rec->sirq[i].vector);
		if (w ? metric_work_member(w, gid) :
		    d->k.src == MS_SOFTIRQ && !strcmp(d->k.name, rec->sirq[i].vector))
			sirq_places(&rec->sirq[i], n);
	}
	for (i = 0; i < rec->nwq; i++) {
		snprintf(gid, sizeof(gid), "wq:%s:%s", rec->wq[i].wq, rec->wq[i].func);
		if (w ? metric_work_member(w, gid) : d->k.src == MS_WQ &&
		    !strcmp(d->k.name, rec->wq[i].wq) && !strcmp(d->k.func, rec->wq[i].func))
			n[PLACE_WQ] += rec->wq[i].st[WM_DELAY].count;
	}
	for (i = 0; i < rec->nctx; i++) {
		const struct ctx_data *c = &rec->ctx[i];

		snprintf(gid, sizeof(gid), "context:%s:%s@%s", c->context, c->name, c->where);
		p = place_of_ctx(c->context, c->where);
		if (p >= 0 && (w ? metric_work_member(w, gid) : d->k.src == MS_CONTEXT &&
			       !strcmp(d->k.name, c->context) && !strcmp(d->k.func, c->name)))
			n[p] += c->st[SM_DELAY].count;
	}
}

const char *const rep_place_names[PLACE_NR] = {
	[PLACE_SOFTIRQ] = "softirq", [PLACE_KSOFTIRQD] = "ksoftirqd",
	[PLACE_NAPI] = "napi thread", [PLACE_WQ] = "workqueue", [PLACE_IRQ] = "irq thread",
	[PLACE_TASKLET] = "tasklet",
};

int rep_driven_where(const struct cellset *s, const struct driven *d, char *buf, size_t len)
{
	uint64_t n[PLACE_NR] = { 0 }, total = 0;
	size_t i, off = 0;
	int p, top = -1;

	for (i = 0; i < s->n; i++)
		if (s->cell[i]->ok && !s->cell[i]->rec.cap.lossy)
			record_places(&s->cell[i]->rec, d, n);
	for (p = 0; p < PLACE_NR; p++) {
		total += n[p];
		if (top < 0 || n[p] > n[top])
			top = p;
	}
	buf[0] = '\0';
	if (!total) {
		snprintf(buf, len, "-");
		return -1;
	}
	/* the place of most of it, and any other with 5% or more */
	for (p = 0; p < PLACE_NR && off < len; p++) {
		double share = (double)n[p] / (double)total;

		if (share < 0.05)
			continue;
		if (share > 0.95)
			off += (size_t)snprintf(buf + off, len - off, "%s%s", off ? ", " : "",
						rep_place_names[p]);
		else
			off += (size_t)snprintf(buf + off, len - off, "%s%s %.0f%%",
						off ? ", " : "", rep_place_names[p], 100 * share);
	}
	return top;
}

/* A group's total wait over a set: what ranks the top waiters. */
struct waiter {
	struct metric_key k;
	double wait_ns;
};

static int by_wait(const void *a, const void *b)
{
	const struct waiter *x = a, *y = b;

	return (x->wait_ns < y->wait_ns) - (x->wait_ns > y->wait_ns);
}

size_t rep_top_waiters(const struct cellset *s, struct driven *out, size_t max)
{
	struct keylist kl = { 0 };
	struct waiter *w = NULL;
	size_t i, n = 0, shown = 0;
	struct hist *h;

	h = malloc(sizeof(*h));
	if (!h || keylist_collect(s, false, &kl))
		goto out;
	w = calloc(kl.n ? kl.n : 1, sizeof(*w));
	for (i = 0; w && i < kl.n; i++) {
		const struct metric_key *k = &kl.k[i];
		struct hist_stats st;

		if ((k->src != MS_SOFTIRQ && k->src != MS_WQ) || k->stat != MST_P50 ||
		    k->sub != (k->src == MS_SOFTIRQ ? SM_DELAY : WM_DELAY))
			continue;
		hist_init(h);
		if (cellset_pooled_verdict(s, k, h) || !h->count)
			continue;
		hist_get_stats(h, &st);
		w[n].k = *k;
		w[n++].wait_ns = st.mean * (double)h->count;
	}
	if (!w)
		goto out;
	qsort(w, n, sizeof(*w), by_wait);
	for (shown = 0; shown < n && shown < max; shown++)
		add_key(&w[shown].k, &out[shown]);
out:
	free(w);
	free(h);
	keylist_free(&kl);
	return shown;
}
