// SPDX-License-Identifier: GPL-2.0
/*
 * record.c - one capture's figures as read (struct record, rundata.h): the names of its
 * metrics, its groups looked up by name, its interval series, and their release.
 */
#include "rundata.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>

#include "grow.h"
#include "msg.h"

const char *const record_sirq_metric_names[SM_NR] = {
	[SM_DELAY] = "delay",
	[SM_RUNTIME] = "runtime",
};

const char *const record_wq_metric_names[WM_NR] = {
	[WM_DELAY] = "delay",
	[WM_ACTIVATE_WAIT] = "activate_wait",
	[WM_WORKER_WAIT] = "worker_wait",
	[WM_RUNTIME] = "runtime",
};

const char *const record_wait_metric_names[IW_NR] = {
	[IW_DELAY] = "delay",
	[IW_ORIGIN] = "origin",
	[IW_BH_TASK] = "bh_task",
};

const char *const record_wake_kind_names[WK_NR] = {
	[WK_KSOFTIRQD] = "ksoftirqd",
	[WK_WORKER] = "worker",
};

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

void record_workload_free(struct wl_data *wl)
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

struct bucketlist *record_series_at(struct ival_series *s, size_t k)
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
	record_workload_free(&rec->wl);
	memset(rec, 0, sizeof(*rec));
}
