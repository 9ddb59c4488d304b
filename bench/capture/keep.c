// SPDX-License-Identifier: GPL-2.0
/*
 * keep.c - record --keep-worst: the raw sub-buffers around each chosen vector's worst
 * delay, kept without keeping the whole capture (like cyclictest's break trace), and
 * written at the end as one small raw capture per vector that analyze reads.
 *
 * Every sub-buffer the merger is done with passes here first (a page source wrapped
 * around the readers'): a copy goes into a ring per CPU, the recent past. When the
 * matcher finds a new worst delay of a vector (detail.h: struct worst), that vector's
 * excerpt starts again from the pages of every CPU's ring that overlap [raise - margin,
 * entry + margin], and takes the pages that come later while they still overlap it.
 * Pages are shared between the ring and the excerpts, counted by references. The
 * pages of one CPU overlapping one time window are consecutive, so an excerpt is a
 * contiguous stretch of each CPU's stream: analyze pairs its events as the live
 * capture did, and the longest delay of the vector it finds is the worst one (whose
 * raise and entry lie inside the window).
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define DEFERBENCH_ALLOW_CAPTURE_INT_H
#include "capture_int.h"
#include "detail.h"
#include "subbuf.h"
#include "grow.h"
#include "msg.h"
#include "file.h"
#include "outw.h"

#define RING_PAGES 1024		/* recent sub-buffers kept per CPU (4 MiB of 4 KiB pages) */
#define RING_BACK_NS NSEC_PER_SEC	/* and at most this far behind the newest */
#define EXCERPT_PAGES 4096	/* per excerpt, all CPUs */

struct kpage {
	unsigned int refs;
	int cpu;
	uint64_t first, last;		/* its records' timestamps */
	uint64_t records;		/* how many */
	unsigned char data[];
};

struct kset {
	bool active;
	struct worst w;			/* the delay it is around */
	uint64_t lo, hi;		/* the window: raise - margin, entry + margin */
	struct kpage **pg;		/* each CPU's in time order */
	size_t n, cap;
	bool *done;			/* [cpu]: a page past hi came */
	bool truncated;
};

struct keep {
	int ncpus;
	unsigned int size;
	uint64_t margin;
	const struct matcher *m;
	struct page_src inner;
	struct kpage **ring;		/* [cpu * RING_PAGES + slot] */
	unsigned int *head, *len;	/* per CPU: oldest slot, pages in the ring */
	uint32_t seen_gen;
	struct kset set[NR_SOFTIRQS];
	bool enomem;
};

static void page_unref(struct kpage *p)
{
	if (p && !--p->refs)
		free(p);
}

static void set_clear(struct keep *k, struct kset *s)
{
	size_t i;

	for (i = 0; i < s->n; i++)
		page_unref(s->pg[i]);
	s->n = 0;
	s->active = false;
	s->truncated = false;
	memset(s->done, 0, k->ncpus * sizeof(*s->done));
}

static bool overlaps(const struct kset *s, const struct kpage *p)
{
	return p->first <= s->hi && p->last >= s->lo;
}

static void set_add(struct keep *k, struct kset *s, struct kpage *p)
{
	if (s->n == EXCERPT_PAGES) {
		s->truncated = true;
		return;
	}
	if (GROW(s->pg, s->cap, s->n + 1)) {
		k->enomem = true;
		return;
	}
	p->refs++;
	s->pg[s->n++] = p;
}

/* set_start - vec's excerpt again, around its new worst delay: from the rings first */
static void set_start(struct keep *k, unsigned int vec, const struct worst *w)
{
	struct kset *s = &k->set[vec];
	unsigned int i;
	int c;

	set_clear(k, s);
	s->active = true;
	s->w = *w;
	s->lo = w->raise_ts > k->margin ? w->raise_ts - k->margin : 0;
	s->hi = w->entry_ts + k->margin;
	for (c = 0; c < k->ncpus; c++)
		for (i = 0; i < k->len[c]; i++) {
			struct kpage *p = k->ring[c * RING_PAGES + (k->head[c] + i) % RING_PAGES];

			if (overlaps(s, p))
				set_add(k, s, p);
		}
}

/* worst_check - the vectors whose worst delay changed since the last page */
static void worst_check(struct keep *k)
{
	const struct detail *d = k->m->detail;
	unsigned int v;

	if (!d || d->worst_gen == k->seen_gen)
		return;
	for (v = 0; v < NR_SOFTIRQS; v++)
		if ((d->worst_vecs & (1u << v)) && d->worst[v].gen > k->seen_gen)
			set_start(k, v, &d->worst[v]);
	k->seen_gen = d->worst_gen;
}

static void ring_push(struct keep *k, struct kpage *p)
{
	int c = p->cpu;
	struct kpage **slot;

	while (k->len[c] && (k->len[c] == RING_PAGES ||
			     k->ring[c * RING_PAGES + k->head[c]]->last + RING_BACK_NS < p->first)) {
		slot = &k->ring[c * RING_PAGES + k->head[c]];
		page_unref(*slot);
		*slot = NULL;
		k->head[c] = (k->head[c] + 1) % RING_PAGES;
		k->len[c]--;
	}
	k->ring[c * RING_PAGES + (k->head[c] + k->len[c]) % RING_PAGES] = p;
	k->len[c]++;
}

/* keep_put - the merger is done with page: offer a copy, then hand it back */
static void keep_put(void *ctx, int cpu, void *page)
{
	struct keep *k = ctx;
	struct kpage *p = NULL;
	uint64_t first, last, records;
	unsigned int v;

	/* a new worst was found in the records merged since the last page */
	worst_check(k);
	/* a damaged page (skipped by the merger) or an empty one is not kept */
	if (!subbuf_span(page, k->size, &first, &last, &records)) {
		p = malloc(sizeof(*p) + k->size);
		if (!p)
			k->enomem = true;
	}
	if (p) {
		memcpy(p->data, page, k->size);
		p->refs = 1;
		p->cpu = cpu;
		p->first = first;
		p->last = last;
		p->records = records;
		for (v = 0; v < NR_SOFTIRQS; v++) {
			struct kset *s = &k->set[v];

			if (!s->active || s->done[cpu])
				continue;
			if (p->first > s->hi)
				s->done[cpu] = true;
			else if (overlaps(s, p))
				set_add(k, s, p);
		}
		ring_push(k, p);
	}
	k->inner.put(k->inner.ctx, cpu, page);
}

static void *keep_get(void *ctx, int cpu)
{
	struct keep *k = ctx;

	return k->inner.get(k->inner.ctx, cpu);
}

static uint64_t keep_horizon(void *ctx, int cpu)
{
	struct keep *k = ctx;

	return k->inner.horizon(k->inner.ctx, cpu);
}

struct keep *keep_new(int ncpus, unsigned int size, uint64_t margin_ns, const struct matcher *m)
{
	struct keep *k = calloc(1, sizeof(*k));
	int v;

	if (!k)
		return NULL;
	k->ncpus = ncpus;
	k->size = size;
	k->margin = margin_ns;
	k->m = m;
	k->ring = calloc((size_t)ncpus * RING_PAGES, sizeof(*k->ring));
	k->head = calloc(ncpus, sizeof(*k->head));
	k->len = calloc(ncpus, sizeof(*k->len));
	if (!k->ring || !k->head || !k->len)
		goto out_free;
	for (v = 0; v < NR_SOFTIRQS; v++) {
		k->set[v].done = calloc(ncpus, sizeof(bool));
		if (!k->set[v].done)
			goto out_free;
	}
	return k;
out_free:
	keep_free(k);
	return NULL;
}

struct page_src keep_page_src(struct keep *k, const struct page_src *src)
{
	struct page_src s = *src;

	k->inner = *src;
	s.get = keep_get;
	s.put = keep_put;
	s.horizon = keep_horizon;
	s.ctx = k;
	return s;
}

/* origin_before - the start of the capture's interval that holds ts */
static uint64_t origin_before(uint64_t t0, uint64_t ival, uint64_t ts)
{
	if (!ival)
		return ts;
	if (ts >= t0)
		return t0 + (ts - t0) / ival * ival;
	return t0 - (t0 - ts + ival - 1) / ival * ival;
}

/* write_cpus - cpuN.dat of an excerpt: each CPU's pages in the order they came */
static int write_cpus(const struct keep *k, const struct kset *s, const char *raw)
{
	char path[PATH_MAX + 32];
	int c, fd, ret = 0;
	size_t i;

	for (c = 0; c < k->ncpus && !ret; c++) {
		snprintf(path, sizeof(path), "%s/cpu%d.dat", raw, c);
		fd = out_create(path, 0644);
		if (fd < 0)
			return fd;
		for (i = 0; i < s->n && !ret; i++) {
			ssize_t w;

			if (s->pg[i]->cpu != c)
				continue;
			w = write(fd, s->pg[i]->data, k->size);
			/* after a short write, the next one says why: ENOSPC, EFBIG */
			if (w >= 0 && w != (ssize_t)k->size)
				w = write(fd, s->pg[i]->data + w, k->size - w);
			if (w < 0)
				ret = -errno;
			else if (w != (ssize_t)k->size)
				ret = -EIO;
		}
		if (close(fd) && !ret)
			ret = -errno;
	}
	return ret;
}

/* write_set - dir/VECTOR/raw: the excerpt as a raw capture */
static int write_set(struct keep *k, struct capture *c, const char *dir, unsigned int vec)
{
	const struct kset *s = &k->set[vec];
	struct raw_excerpt ex = { 0 };
	const struct result *r = &c->res;
	char raw[PATH_MAX];
	uint64_t first = UINT64_MAX, worst_first = UINT64_MAX;
	size_t i;
	int ret;

	/* what analyze checks each cpuN.dat against: the records of its pages */
	ex.records = calloc(k->ncpus, sizeof(*ex.records));
	if (!ex.records)
		return -ENOMEM;
	ex.start_ts = s->lo;
	ex.end_ts = s->hi;
	for (i = 0; i < s->n; i++) {
		const struct kpage *p = s->pg[i];

		ex.records[p->cpu] += p->records;
		if (p->first < ex.start_ts)
			ex.start_ts = p->first;
		if (p->last > ex.end_ts)
			ex.end_ts = p->last;
		if (p->first < first)
			first = p->first;
		if (p->cpu == s->w.cpu && p->first < worst_first)
			worst_first = p->first;
	}
	if (worst_first > s->w.raise_ts)
		warn_msg("the trace kept around %s's worst delay starts after its raise (it "
			 "was older than the %d sub-buffers or %llu s kept per CPU)",
			 softirq_names[vec], RING_PAGES,
			 (unsigned long long)(RING_BACK_NS / NSEC_PER_SEC));
	if (s->truncated)
		warn_msg("the trace kept around %s's worst delay was cut at %d sub-buffers",
			 softirq_names[vec], EXCERPT_PAGES);
	ex.origin_ns = origin_before(r->m.t0, r->meta.interval_ns, ex.start_ts);
	snprintf(ex.vector, sizeof(ex.vector), "%s", softirq_names[vec]);
	ex.delay_ns = s->w.ns;
	ex.raise_ns = s->w.raise_ts;
	ex.entry_ns = s->w.entry_ts;
	ex.cpu = s->w.cpu;
	ex.margin_ns = k->margin;
	ret = snprintf(raw, sizeof(raw), "%s/%s/raw", dir, softirq_names[vec]) >= (int)sizeof(raw) ?
	      -ENAMETOOLONG : 0;
	ret = ret ?: out_mkdir_p(raw);
	ret = ret ?: write_cpus(k, s, raw);
	ret = ret ?: raw_save_formats(raw, c->header, c->hlen, c->formats);
	ret = ret ?: raw_save_comms(raw, c->comms, c->ncomms);
	ret = ret ?: raw_add_comms(raw, c->named, c->nnamed);
	ret = ret ?: raw_save_symbols(raw, r);
	ret = ret ?: raw_save_excerpt_meta(raw, r, k->size, &ex);
	free(ex.records);
	return ret;
}

int keep_write(struct keep *k, struct capture *c, const char *dir)
{
	unsigned int v;
	int ret = 0;

	/* a worst found in the last records merged */
	worst_check(k);
	if (k->enomem)
		warn_msg("out of memory keeping the trace around the worst delays: it may miss "
			 "sub-buffers");
	for (v = 0; v < NR_SOFTIRQS && !ret; v++)
		if (k->set[v].active && k->set[v].n)
			ret = write_set(k, c, dir, v);
	return ret;
}

void keep_free(struct keep *k)
{
	unsigned int v, i;
	int c;

	if (!k)
		return;
	for (v = 0; v < NR_SOFTIRQS; v++) {
		if (k->set[v].done)
			set_clear(k, &k->set[v]);
		free(k->set[v].pg);
		free(k->set[v].done);
	}
	for (c = 0; k->ring && k->len && c < k->ncpus; c++)
		for (i = 0; i < k->len[c]; i++)
			page_unref(k->ring[c * RING_PAGES + (k->head[c] + i) % RING_PAGES]);
	free(k->ring);
	free(k->head);
	free(k->len);
	free(k);
}
