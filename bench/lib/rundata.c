// SPDX-License-Identifier: GPL-2.0
/*
 * rundata.c - the result files' model in memory (rundata.h): names, bucket lists,
 * lookups and release. The files themselves are read by their owners.
 */
#include "rundata.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>

#include "grow.h"
#include "msg.h"

const char *const sirq_metric_names[SM_NR] = {
	[SM_DELAY] = "delay",
	[SM_RUNTIME] = "runtime",
};

const char *const wq_metric_names[WM_NR] = {
	[WM_DELAY] = "delay",
	[WM_ACTIVATE_WAIT] = "activate_wait",
	[WM_WORKER_WAIT] = "worker_wait",
	[WM_RUNTIME] = "runtime",
};

const char *const wake_kind_names[WK_NR] = {
	[WK_KSOFTIRQD] = "ksoftirqd",
	[WK_WORKER] = "worker",
};

const char *const run_meta_names[RM_NR] = {
	[RM_KERNEL] = "kernel", [RM_HOSTNAME] = "hostname", [RM_CPUS] = "cpus",
	[RM_CPU_MODEL] = "cpu_model", [RM_PREEMPT] = "preempt", [RM_HZ] = "hz",
	[RM_NOHZ] = "nohz", [RM_CMDLINE] = "cmdline", [RM_GOVERNOR] = "governor",
	[RM_VERSION] = "version", [RM_STARTED] = "started", [RM_THREADIRQS] = "threadirqs",
	[RM_RT_BH_LOCK] = "rt_bh_lock", [RM_SCHED_EXT] = "sched_ext",
};

int bucketlist_add(struct bucketlist *bl, uint64_t lo, uint64_t hi, uint64_t count)
{
	if (GROW(bl->b, bl->cap, bl->n + 1))
		return -ENOMEM;
	bl->b[bl->n++] = (struct bucket){ lo, hi, count };
	return 0;
}

void bucketlist_free(struct bucketlist *bl)
{
	free(bl->b);
	memset(bl, 0, sizeof(*bl));
}

uint64_t bucketlist_count(const struct bucketlist *bl)
{
	uint64_t n = 0;
	size_t i;

	for (i = 0; i < bl->n; i++)
		n += bl->b[i].count;
	return n;
}

void buckets_to_hist(const struct bucketlist *bl, const struct hist_stats *exact,
		     struct hist *h)
{
	bool was_empty = h->count == 0;
	size_t i;

	for (i = 0; i < bl->n; i++) {
		const struct bucket *b = &bl->b[i];

		hist_add_n(h, b->lo + (b->hi > b->lo ? (b->hi - b->lo) / 2 : 0), b->count);
	}
	if (!exact || !was_empty || exact->count != h->count || !h->count)
		return;
	h->min = exact->min;
	h->max = exact->max;
	h->sum = (uint64_t)llround(exact->mean * (double)exact->count);
	h->sumsq = (exact->stddev * exact->stddev + exact->mean * exact->mean) *
		   (double)exact->count;
}

bool bucket_valid(uint64_t lo, uint64_t hi)
{
	unsigned int i = hist_index(lo);

	if (hist_bucket_lo(i) != lo)
		return false;
	return i == HIST_BUCKETS - 1 || hi == lo + hist_bucket_width(i);
}

const struct sirq_data *record_sirq(const struct record *rec, const char *vector, int cpu)
{
	size_t i;

	for (i = 0; i < rec->nsirq; i++)
		if (rec->sirq[i].cpu == cpu && !strcmp(rec->sirq[i].vector, vector))
			return &rec->sirq[i];
	return NULL;
}

const struct ctx_data *record_ctx(const struct record *rec, const char *context,
				  const char *name, const char *where)
{
	size_t i;

	for (i = 0; i < rec->nctx; i++)
		if (!strcmp(rec->ctx[i].context, context) && !strcmp(rec->ctx[i].name, name) &&
		    !strcmp(rec->ctx[i].where, where))
			return &rec->ctx[i];
	return NULL;
}

const struct wake_data *record_wakeup(const struct record *rec, enum wake_kind kind,
				      const char *name)
{
	size_t i;

	for (i = 0; i < rec->nwake[kind]; i++)
		if (!strcmp(rec->wake[kind][i].name, name))
			return &rec->wake[kind][i];
	return NULL;
}

const struct wl_metric_data *record_wl_metric(const struct record *rec, const char *name)
{
	size_t i;

	for (i = 0; i < rec->wl.nm; i++)
		if (!strcmp(rec->wl.m[i].name, name))
			return &rec->wl.m[i];
	return NULL;
}

void workload_free(struct wl_data *wl)
{
	size_t i;

	for (i = 0; i < wl->nm; i++)
		bucketlist_free(&wl->m[i].h);
	free(wl->m);
	free(wl->counter);
	free(wl->opt);
	memset(wl, 0, sizeof(*wl));
}

struct ival_series *record_series(struct record *rec, enum ival_src src, const char *name,
				  const char *func, const char *pool, int metric, bool create)
{
	struct ival_series *s;
	size_t i;

	for (i = 0; i < rec->nser; i++) {
		s = &rec->ser[i];
		if (s->src == src && s->metric == metric && !strcmp(s->name, name) &&
		    !strcmp(s->func, func) && !strcmp(s->pool, pool))
			return s;
	}
	if (!create)
		return NULL;
	s = grow_array(rec->ser, rec->nser, sizeof(*s));
	if (!s)
		return NULL;
	rec->ser = s;
	s = &rec->ser[rec->nser++];
	s->src = src;
	s->metric = metric;
	snprintf(s->name, sizeof(s->name), "%s", name);
	snprintf(s->func, sizeof(s->func), "%s", func);
	snprintf(s->pool, sizeof(s->pool), "%s", pool);
	return s;
}

struct bucketlist *series_at(struct ival_series *s, size_t k)
{
	struct bucketlist *iv;

	if (k >= s->n) {
		if (k >= (1U << 24))
			return NULL;	/* 194 days of 1 s intervals: not a real file */
		iv = grow_to(s->iv, s->n, k + 1, sizeof(*iv));
		if (!iv)
			return NULL;
		s->iv = iv;
		s->n = k + 1;
	}
	return &s->iv[k];
}

int bucketlist_parse(const char *text, struct bucketlist *bl, char *errbuf)
{
	const char *p = text;

	while (*p) {
		unsigned long long lo, n;
		char *end;

		while (*p == ' ')
			p++;
		if (!*p)
			break;
		errno = 0;
		lo = strtoull(p, &end, 10);
		if (end == p || *end != ':' || errno)
			return set_err(errbuf, "'%.40s' is not lo_ns:count", p);
		p = end + 1;
		n = strtoull(p, &end, 10);
		if (end == p || (*end && *end != ' ') || errno)
			return set_err(errbuf, "'%.40s' is not lo_ns:count", p);
		p = end;
		if (!bucket_valid(lo, lo + hist_bucket_width(hist_index(lo))))
			return set_err(errbuf, "%llu is not the lower bound of a histogram bucket", lo);
		if (n && bucketlist_add(bl, lo, lo + hist_bucket_width(hist_index(lo)), n))
			return errno_msg(errbuf, -ENOMEM, "out of memory");
	}
	return 0;
}

void record_free(struct record *rec)
{
	size_t i, m;

	for (i = 0; i < rec->nsirq; i++)
		for (m = 0; m < SM_NR; m++)
			bucketlist_free(&rec->sirq[i].h[m]);
	for (i = 0; i < rec->nwq; i++)
		for (m = 0; m < WM_NR; m++)
			bucketlist_free(&rec->wq[i].h[m]);
	for (i = 0; i < rec->nctx; i++)
		for (m = 0; m < SM_NR; m++)
			bucketlist_free(&rec->ctx[i].h[m]);
	free(rec->ctx);
	free(rec->wait);
	free(rec->sirq);
	free(rec->wq);
	for (m = 0; m < WK_NR; m++)
		free(rec->wake[m]);
	for (i = 0; i < rec->nser; i++) {
		for (m = 0; m < rec->ser[i].n; m++)
			bucketlist_free(&rec->ser[i].iv[m]);
		free(rec->ser[i].iv);
	}
	free(rec->ser);
	free(rec->slow);
	free(rec->svec);
	free(rec->sites);
	for (i = 0; i < rec->nstacks; i++)
		free(rec->stacks[i].folded);
	free(rec->stacks);
	workload_free(&rec->wl);
	memset(rec, 0, sizeof(*rec));
}

void cell_free(struct cell *c)
{
	free(c->opts);
	record_free(&c->rec);
	free(c->knobs);
	c->opts = NULL;
	c->knobs = NULL;
}

void run_inputs_free(char **inputs)
{
	size_t i;

	for (i = 0; inputs && inputs[i]; i++)
		free(inputs[i]);
	free(inputs);
}

char **run_inputs(const struct run *run)
{
	/* what a record directory holds that record_load() reads, and its capture */
	static const char *const rec[] = {
		"summary.json", "softirq.csv", "workqueue.csv", "histograms.csv", "contexts.csv",
		"softirq_wait.csv", "intervals.csv", "workload.json", "workload-hist.csv",
		"workload-intervals.csv", "cell.json", "raw",
	};
	static const char *const top[] = { "run.json", "scenario.ini" };
	const char *const *names = run->is_record ? rec : top;
	size_t n = run->is_record ? ARRAY_SIZE(rec) : ARRAY_SIZE(top), i, k = 0;
	char **v = calloc(n + run->ncells + 1, sizeof(*v));

	for (i = 0; v && i < n; i++)
		if (asprintf(&v[k++], "%s/%s", run->dir, names[i]) < 0)
			goto error;
	for (i = 0; v && !run->is_record && i < run->ncells; i++)
		if (!(v[k++] = strdup(run->cells[i].dir)))
			goto error;
	return v;
error:
	v[k - 1] = NULL;
	run_inputs_free(v);
	errno = ENOMEM;
	return NULL;
}

void run_free(struct run *run)
{
	size_t i;

	for (i = 0; i < run->ncells; i++)
		cell_free(&run->cells[i]);
	free(run->cells);
	memset(run, 0, sizeof(*run));
}
