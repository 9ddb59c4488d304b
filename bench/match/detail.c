// SPDX-License-Identifier: GPL-2.0
/*
 * detail.c - the slowest events of each group and the kernel stacks of softirq
 * entries (see detail.h). Nothing here runs unless detail_init() was called:
 * the matcher's hooks test m->detail first.
 */
#include "detail.h"
#define DEFERBENCH_ALLOW_MATCH_INT_H
#include "match_int.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "grow.h"
#include "msg.h"

int detail_init(struct matcher *m, uint32_t slowest, unsigned int stack_vecs,
		      unsigned int worst_vecs)
{
	struct detail *d = calloc(1, sizeof(*d));

	if (!d)
		return -ENOMEM;
	d->slowest = slowest > SLOWEST_MAX ? SLOWEST_MAX : slowest;
	d->stack_vecs = stack_vecs & ((1u << NR_SOFTIRQS) - 1);
	d->worst_vecs = worst_vecs & ((1u << NR_SOFTIRQS) - 1);
	if (map_init(&d->st_ids, sizeof(uint32_t), 1024) ||
	    map_init(&d->agg_ids, sizeof(uint32_t), 1024)) {
		map_free(&d->st_ids);
		free(d);
		return -ENOMEM;
	}
	m->detail = d;
	return 0;
}

static void heaps_free(struct slow_heap *h, uint32_t n)
{
	uint32_t i;

	for (i = 0; h && i < n; i++)
		free(h[i].ev);
}

void detail_free(struct matcher *m)
{
	struct detail *d = m->detail;

	if (!d)
		return;
	heaps_free(&d->sirq[0][0], NR_SOFTIRQS * SLOW_METRIC_NR);
	heaps_free(d->wq, d->nwq * SLOW_METRIC_NR);
	heaps_free(d->ctx, d->nctx * SLOW_METRIC_NR);
	free(d->wq);
	free(d->ctx);
	free(d->st);
	free(d->frames);
	free(d->agg);
	map_free(&d->st_ids);
	map_free(&d->agg_ids);
	free(d);
	m->detail = NULL;
}

/* ---- the slowest events ---- */

static void sift_down(struct slow_ev *ev, uint32_t n, uint32_t i)
{
	for (;;) {
		uint32_t l = 2 * i + 1, r = l + 1, min = i;
		struct slow_ev t;

		if (l < n && ev[l].ns < ev[min].ns)
			min = l;
		if (r < n && ev[r].ns < ev[min].ns)
			min = r;
		if (min == i)
			return;
		t = ev[i];
		ev[i] = ev[min];
		ev[min] = t;
		i = min;
	}
}

static void sift_up(struct slow_ev *ev, uint32_t i)
{
	while (i) {
		uint32_t p = (i - 1) / 2;
		struct slow_ev t;

		if (ev[p].ns <= ev[i].ns)
			return;
		t = ev[i];
		ev[i] = ev[p];
		ev[p] = t;
		i = p;
	}
}

/*
 * slow_slot - where a sample of ns goes in h, or NULL when it is not among the N
 * longest (an equal one kept earlier stays: the first of equals is the one shown)
 */
static struct slow_ev *slow_slot(struct matcher *m, struct slow_heap *h)
{
	struct detail *d = m->detail;

	if (!h->ev) {
		h->ev = calloc(d->slowest, sizeof(*h->ev));
		if (!h->ev) {
			m->enomem++;
			return NULL;
		}
	}
	return &h->ev[h->n < d->slowest ? h->n : 0];
}

/* slow_add - ev into h when it is among the N longest; fill fills the rest of it */
static void slow_add(struct matcher *m, struct slow_heap *h, const struct slow_ev *ev)
{
	struct detail *d = m->detail;
	struct slow_ev *s;

	if (!d->slowest || (h->n == d->slowest && ev->ns <= h->ev[0].ns))
		return;
	s = slow_slot(m, h);
	if (!s)
		return;
	*s = *ev;
	if (h->n < d->slowest)
		sift_up(h->ev, h->n++);
	else
		sift_down(h->ev, h->n, 0);
}

/* slow_wants - would ns make it into h? (saves naming a task for nothing) */
static bool slow_wants(const struct detail *d, const struct slow_heap *h, uint64_t ns)
{
	return d->slowest && (h->n < d->slowest || ns > h->ev[0].ns);
}

/* heaps_grow - room for group in *arr (two heaps per group), zeroed */
static struct slow_heap *heaps_grow(struct matcher *m, struct slow_heap **arr, uint32_t *n,
				    uint32_t group)
{
	uint32_t nn;
	struct slow_heap *na;

	if (group < *n)
		return &(*arr)[group * SLOW_METRIC_NR];
	nn = group + 1 > *n * 2 ? group + 1 : *n * 2;
	na = grow_to(*arr, (size_t)*n * SLOW_METRIC_NR, (size_t)nn * SLOW_METRIC_NR, sizeof(*na));
	if (!na) {
		m->enomem++;
		return NULL;
	}
	*arr = na;
	*n = nn;
	return &na[group * SLOW_METRIC_NR];
}

void detail_wq(struct matcher *m, uint32_t group, int metric, uint64_t ns, int cpu,
	       uint64_t ts, int pid)
{
	struct detail *d = m->detail;
	struct slow_ev ev = { .ns = ns, .ts = ts, .cpu = cpu };
	struct slow_heap *h;

	if (!d->slowest || group == GROUP_NONE)
		return;
	h = heaps_grow(m, &d->wq, &d->nwq, group);
	if (!h || !slow_wants(d, &h[metric], ns))
		return;
	if (pid >= 0)
		match_comm_name(m, pid, ev.task);
	slow_add(m, &h[metric], &ev);
}

void detail_ctx(struct matcher *m, const struct ctx_group *g, int metric, uint64_t ns,
		int cpu, uint64_t ts)
{
	struct detail *d = m->detail;
	struct slow_ev ev = { .ns = ns, .ts = ts, .cpu = cpu };
	struct slow_heap *h;

	/* a softirq context is a vector's, whose slowest events are kept per vector */
	if (!d->slowest || g->kind == CTX_SOFTIRQ)
		return;
	h = heaps_grow(m, &d->ctx, &d->nctx, g->id);
	if (h && slow_wants(d, &h[metric], ns))
		slow_add(m, &h[metric], &ev);
}

const struct slow_heap *detail_heap(const struct detail *d, enum slow_kind kind,
				    uint32_t group, int metric)
{
	static const struct slow_heap none;

	if (metric < 0 || metric >= SLOW_METRIC_NR)
		return &none;
	switch (kind) {
	case SLOW_SOFTIRQ:
		return group < NR_SOFTIRQS ? &d->sirq[group][metric] : &none;
	case SLOW_WQ:
		return group < d->nwq ? &d->wq[group * SLOW_METRIC_NR + metric] : &none;
	case SLOW_CTX:
		return group < d->nctx ? &d->ctx[group * SLOW_METRIC_NR + metric] : &none;
	default:
		return &none;
	}
}

static int slow_cmp(const void *a, const void *b)
{
	const struct slow_ev *x = a, *y = b;

	if (x->ns != y->ns)
		return x->ns > y->ns ? -1 : 1;
	return x->ts < y->ts ? -1 : x->ts > y->ts;
}

struct slow_ev *detail_slow_sorted(const struct slow_heap *h)
{
	struct slow_ev *s = malloc((h->n ? h->n : 1) * sizeof(*s));

	if (!s)
		return NULL;
	if (h->n)
		memcpy(s, h->ev, h->n * sizeof(*s));
	qsort(s, h->n, sizeof(*s), slow_cmp);
	return s;
}

/* ---- stacks ---- */

static uint64_t frames_hash(const uint64_t *f, uint32_t n)
{
	uint64_t h = 0x9e3779b97f4a7c15ULL ^ n;
	uint32_t i;

	for (i = 0; i < n; i++)
		h = hash64(h ^ f[i]) + i;
	return h == MAP_EMPTY ? 0 : h;
}

/* stack_intern - the index of the stack of n frames, created on first use; GROUP_NONE */
static uint32_t stack_intern(struct matcher *m, const uint64_t *f, uint32_t n)
{
	struct detail *d = m->detail;
	uint64_t h = frames_hash(f, n), key = h;
	struct stack *ns;
	uint32_t *id;
	int created;

	/* a different stack with the same hash probes on: equal stacks stay one */
	for (;;) {
		id = map_put(&d->st_ids, key, &created);
		if (!id) {
			m->enomem++;
			return GROUP_NONE;
		}
		if (created)
			break;
		if (d->st[*id].depth == n && !memcmp(stack_frames(d, *id), f, n * sizeof(*f)))
			return *id;
		key = key + 1 == MAP_EMPTY ? 0 : key + 1;
	}
	if (d->nst >= STACKS_MAX)
		goto out_del;
	if (d->nst == d->st_cap) {
		ns = matcher_grow(m, d->st, &d->st_cap, sizeof(*ns));
		if (!ns)
			goto out_del;
		d->st = ns;
	}
	if (GROW(d->frames, d->frames_cap, d->nframes + n)) {
		m->enomem++;
		goto out_del;
	}
	memcpy(d->frames + d->nframes, f, n * sizeof(*f));
	d->st[d->nst] = (struct stack){ .hash = h, .off = (uint32_t)d->nframes, .depth = n };
	d->nframes += n;
	*id = d->nst;
	return d->nst++;
out_del:
	map_del(&d->st_ids, key);
	return GROUP_NONE;
}

void detail_kernel_stack(struct matcher *m, int cpu, uint64_t ts __unused, const void *callers,
			unsigned int n)
{
	struct detail *d = m->detail;
	struct sirq_cpu *c = &m->cpu[cpu];
	uint64_t f[STACK_DEPTH_MAX];
	uint32_t id;

	m->n.events[EV_KERNEL_STACK]++;
	if (!d || !d->stack_vecs)
		return;
	d->stack_records++;
	/* the trigger writes it right after the entry, before the handler runs */
	if (!c->entry_ts || !c->entry_open || c->entry_stack ||
	    !(d->stack_vecs & (1u << c->entry_vec))) {
		d->stack_unjoined++;
		return;
	}
	if (n > STACK_DEPTH_MAX) {
		d->stack_truncated++;
		n = STACK_DEPTH_MAX;
	}
	memcpy(f, callers, n * sizeof(*f));
	d->stack_joined++;
	id = stack_intern(m, f, n);
	if (id == GROUP_NONE) {
		d->stack_overflow++;
		return;
	}
	c->entry_stack = id + 1;
}

/* agg_of - the sums of vec's entries with stack id; NULL on ENOMEM */
static struct stack_agg *agg_of(struct matcher *m, uint32_t vec, uint32_t id)
{
	struct detail *d = m->detail;
	uint64_t key = ((uint64_t)id << 8) | vec;
	struct stack_agg *na;
	uint32_t *i;
	int created;

	i = map_put(&d->agg_ids, key, &created);
	if (!i) {
		m->enomem++;
		return NULL;
	}
	if (!created)
		return &d->agg[*i];
	if (d->nagg == d->agg_cap) {
		na = matcher_grow(m, d->agg, &d->agg_cap, sizeof(*na));
		if (!na) {
			map_del(&d->agg_ids, key);
			return NULL;
		}
		d->agg = na;
	}
	memset(&d->agg[d->nagg], 0, sizeof(d->agg[0]));
	d->agg[d->nagg].vec = vec;
	d->agg[d->nagg].stack = id;
	*i = d->nagg;
	return &d->agg[d->nagg++];
}

/* ---- the softirq hooks ---- */

void detail_entry(struct matcher *m, struct sirq_cpu *c, int cpu, unsigned int vec,
		  uint64_t ts, uint64_t delay)
{
	struct detail *d = m->detail;
	struct worst *w = &d->worst[vec];

	if (!delay)
		c->entry_split = false;
	c->entry_delay = delay;
	c->entry_open = true;
	c->entry_stack = 0;
	if (d->stack_vecs & (1u << vec))
		d->stack_entries++;
	if ((d->worst_vecs & (1u << vec)) && delay > w->ns) {
		*w = (struct worst){ .ns = delay, .raise_ts = ts - delay, .entry_ts = ts,
				     .cpu = cpu, .gen = ++d->worst_gen };
	}
}

/* close_entry - hand the running handler's delay (and runtime, run != NULL) to the figures */
static void close_entry(struct matcher *m, struct sirq_cpu *c, int cpu, const uint64_t *run,
			uint64_t ts)
{
	struct detail *d = m->detail;
	unsigned int vec = (unsigned int)c->entry_vec;
	struct slow_ev ev = { .cpu = cpu, .stack = c->entry_stack, .ksoftirqd = c->entry_ks };
	struct stack_agg *a = NULL;
	struct slow_heap *h;
	int k;

	if (vec >= NR_SOFTIRQS)
		return;
	h = d->sirq[vec];
	if (c->entry_stack)
		a = agg_of(m, vec, c->entry_stack - 1);
	if (a) {
		a->count++;
		a->ksoftirqd += c->entry_ks;
	}
	if (c->entry_delay) {
		ev.ns = c->entry_delay;
		ev.ts = c->entry_ts;
		ev.split = c->entry_split;
		if (ev.split)
			memcpy(ev.part, c->entry_part, sizeof(ev.part));
		if (slow_wants(d, &h[SLOW_DELAY], ev.ns)) {
			if (ev.split && c->entry_bh_pid >= 0)
				match_comm_name(m, c->entry_bh_pid, ev.task);
			slow_add(m, &h[SLOW_DELAY], &ev);
		}
		if (a) {
			a->waits++;
			a->wait_ns += c->entry_delay;
			for (k = 0; c->entry_split && k < WAIT_NR; k++)
				a->part_ns[k] += c->entry_part[k];
		}
	}
	if (run) {
		ev = (struct slow_ev){ .ns = *run, .ts = ts, .cpu = cpu, .stack = c->entry_stack,
				       .ksoftirqd = c->entry_ks };
		slow_add(m, &h[SLOW_RUNTIME], &ev);
		if (a) {
			a->runs++;
			a->run_ns += *run;
			if (*run > SIRQ_LONG_NS) {
				a->long_runs++;
				a->long_run_ns += *run;
			}
		}
	}
	c->entry_open = false;
	c->entry_stack = 0;
}

void detail_exit(struct matcher *m, struct sirq_cpu *c, int cpu, uint64_t ts)
{
	uint64_t run = ts - c->entry_ts;

	if (c->entry_open)
		close_entry(m, c, cpu, &run, ts);
}

void detail_flush(struct matcher *m, struct sirq_cpu *c, int cpu)
{
	if (c->entry_open && c->entry_ts)
		close_entry(m, c, cpu, NULL, 0);
	c->entry_open = false;
}

/* ---- vector lists ---- */

int detail_vecs_parse(const char *text, unsigned int *vecs, char *errbuf)
{
	char buf[256], *tok, *save = NULL;
	int v;

	*vecs = 0;
	if (!strcasecmp(text, "all")) {
		*vecs = (1u << NR_SOFTIRQS) - 1;
		return 0;
	}
	if (strlen(text) >= sizeof(buf))
		return set_err(errbuf, "'%.40s...': too long", text);
	snprintf(buf, sizeof(buf), "%s", text);
	for (tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		char up[16];
		size_t i;

		for (i = 0; tok[i] && i < sizeof(up) - 1; i++)
			up[i] = (char)(tok[i] >= 'a' && tok[i] <= 'z' ? tok[i] - 32 : tok[i]);
		up[i] = '\0';
		v = tok[i] ? -1 : softirq_vec_from_name(up);
		if (v < 0 && !strcmp(up, "ALL"))
			return set_err(errbuf, "'%s': 'all' stands alone (it names every vector); "
				       "give 'all', or a list of vectors such as TIMER,NET_RX",
				       text);
		if (v < 0)
			return set_err(errbuf, "'%s' is not a softirq vector (HI, TIMER, NET_TX, "
				       "NET_RX, BLOCK, IRQ_POLL, TASKLET, SCHED, HRTIMER, RCU, or "
				       "all)", tok);
		*vecs |= 1u << v;
	}
	if (!*vecs)
		return set_err(errbuf, "'%s' names no softirq vector", text);
	return 0;
}

const char *detail_vecs_format(unsigned int vecs, char *buf, size_t len)
{
	size_t off = 0;
	int v;

	buf[0] = '\0';
	for (v = 0; v < NR_SOFTIRQS; v++)
		if ((vecs & (1u << v)) && off < len)
			off += snprintf(buf + off, len - off, "%s%s", off ? "," : "",
					softirq_names[v]);
	return buf;
}
