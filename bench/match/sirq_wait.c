// SPDX-License-Identifier: GPL-2.0
/*
 * sirq_wait.c - why a softirq waited: each delay (raise -> entry on one CPU) split into
 * the causes of enum sirq_cause (match.h), adding up to the delay exactly.
 *
 * Each CPU keeps time accounts that only grow: the time spent in hard interrupt
 * handlers; per vector the time spent in its handler with the hard interrupts inside it
 * taken out, and the part of that run in ksoftirqd; and the time ksoftirqd was the
 * CPU's task outside every handler. The earliest raise of a pending vector remembers
 * them all; at the vector's entry their growth is the time each cause took inside the
 * delay. The handler that was running at the raise is cut at the first softirq entry
 * after it (sirq_wait_mark): its growth up to there is the rest of the run the vector was
 * raised in. The rest, outside every handler, goes to the BH-disabled section (split by
 * whether its holder ran or was switched out, sirq_wait_switch), to waiting for ksoftirqd, to deferbench's own threads or to "other" by where the raise
 * came from and where the vector finally ran. Nothing is counted twice and nothing is
 * left out.
 */
#define DEFERBENCH_ALLOW_MATCH_INT_H
#include "match_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *const sirq_cause_names[WAIT_NR] = {
	[WAIT_HARDIRQ] = "hardirq",
	[WAIT_RAISED_IN] = "raised_in",
	[WAIT_SIRQ_HIGHER] = "softirq_higher",
	[WAIT_SIRQ_LOWER] = "softirq_lower",
	[WAIT_BH_DISABLED] = "bh_disabled",
	[WAIT_BH_PREEMPTED] = "bh_preempted",
	[WAIT_KSOFTIRQD_WAIT] = "ksoftirqd_wait",
	[WAIT_KSOFTIRQD_RUN] = "ksoftirqd_run",
	[WAIT_OWN] = "deferbench",
	[WAIT_OTHER] = "other",
};

const char *const sirq_origin_names[ORIG_NR] = {
	[ORIG_HARDIRQ] = "hardirq",
	[ORIG_SOFTIRQ] = "softirq",
	[ORIG_TASK_BH_OFF] = "task_bh_disabled",
	[ORIG_TASK] = "task",
};

enum sirq_origin sirq_origin_of(unsigned int flags)
{
	if (flags & (TRACE_FL_HARDIRQ | TRACE_FL_NMI))
		return ORIG_HARDIRQ;
	if (flags & TRACE_FL_SOFTIRQ)
		return ORIG_SOFTIRQ;
	return flags & TRACE_FL_BH_OFF ? ORIG_TASK_BH_OFF : ORIG_TASK;
}

/* running - the part of the handler running on c at ts that counts (hard irqs out) */
static uint64_t running(const struct sirq_cpu *c, unsigned int vec, uint64_t ts)
{
	uint64_t run, hi;

	if (!c->entry_ts || c->entry_vec != (int)vec || ts <= c->entry_ts)
		return 0;
	run = ts - c->entry_ts;
	hi = wait_hi_at(c, ts) - c->entry_hi;
	return run > hi ? run - hi : 0;
}

/* sirq_at - vec's handler account at ts, with the part of a handler still running */
static uint64_t sirq_at(const struct sirq_cpu *c, unsigned int vec, uint64_t ts)
{
	return c->sirq_cum[vec] + running(c, vec, ts);
}

/* sirq_ks_at - the same, of the runs in ksoftirqd only */
static uint64_t sirq_ks_at(const struct sirq_cpu *c, unsigned int vec, uint64_t ts)
{
	return c->sirq_ks_cum[vec] + (c->entry_ks ? running(c, vec, ts) : 0);
}

static uint64_t ks_at(const struct sirq_cpu *c, uint64_t ts)
{
	return c->ks_cum + (c->ks_since && ts > c->ks_since ? ts - c->ks_since : 0);
}

void sirq_wait_ks_tick(struct sirq_cpu *c, uint64_t ts)
{
	c->ks_cum = ks_at(c, ts);
	c->ks_since = c->ks_on && !c->hi_ts && !c->entry_ts ? ts : 0;
}

void sirq_wait_raise(struct sirq_cpu *c, unsigned int vec, uint64_t ts, unsigned int flags, int pid)
{
	struct sirq_pending *p = &c->pend[vec];
	unsigned int w;

	p->hi = wait_hi_at(c, ts);
	p->sirq_sum = 0;
	for (w = 0; w < NR_SOFTIRQS; w++) {
		p->sirq[w] = sirq_at(c, w, ts);
		p->sirq_ks[w] = sirq_ks_at(c, w, ts);
		p->sirq_sum += p->sirq[w];
	}
	p->ks_out = ks_at(c, ts);
	p->in_vec = c->entry_ts ? c->entry_vec : -1;
	p->in_ks = c->entry_ts && c->entry_ks;
	p->mark_ts = 0;
	p->flags = flags;
	p->pid = pid;
	p->away_ns = 0;
	p->away_ts = 0;
}

/* bh_held - the raise came from a task holding bottom halves off (or an irq of it) */
static bool bh_held(unsigned int flags)
{
	return (flags & TRACE_FL_BH_OFF) && !(flags & (TRACE_FL_SOFTIRQ | TRACE_FL_NMI));
}

/* away_close - the holder of p is back on the CPU (or the window ends) at ts */
static void away_close(const struct sirq_cpu *c, struct sirq_pending *p, uint64_t ts)
{
	uint64_t d, hi;

	if (!p->away_ts)
		return;
	d = ts > p->away_ts ? ts - p->away_ts : 0;
	hi = wait_hi_at(c, ts) - p->away_hi;
	p->away_ns += d > hi ? d - hi : 0;
	p->away_ts = 0;
}

/*
 * sirq_wait_switch - a context switch on c: on PREEMPT_RT a task inside local_bh_disable()
 * stays preemptible (__local_bh_disable_ip() takes a local lock, or since 6.18 only
 * migrate_disable()), so a vector it holds back keeps waiting while other tasks run.
 * Its time off the CPU, up to the first softirq handler after the raise, is the part
 * of the BH-disabled wait during which the holder was preempted.
 */
void sirq_wait_switch(struct sirq_cpu *c, uint64_t ts, int prev_pid, int next_pid)
{
	unsigned int v;

	for (v = 0; v < NR_SOFTIRQS; v++) {
		struct sirq_pending *p = &c->pend[v];

		if (!c->raise_ts[v] || p->mark_ts || !bh_held(p->flags) || p->pid <= 0)
			continue;
		if (prev_pid == p->pid && !p->away_ts && ts >= c->raise_ts[v]) {
			p->away_ts = ts ? ts : 1;
			p->away_hi = wait_hi_at(c, ts);
		} else if (next_pid == p->pid) {
			away_close(c, p, ts);
		}
	}
}

void sirq_wait_mark(struct sirq_cpu *c, uint64_t ts)
{
	uint64_t hi = 0, sum = 0;
	bool first = true;
	unsigned int v, w;

	for (v = 0; v < NR_SOFTIRQS; v++) {
		if (!c->raise_ts[v] || c->pend[v].mark_ts)
			continue;
		if (first) {
			/* the handler that ran at the raise has ended (or is cut) here */
			hi = wait_hi_at(c, ts);
			for (w = 0; w < NR_SOFTIRQS; w++)
				sum += sirq_at(c, w, ts);
			first = false;
		}
		away_close(c, &c->pend[v], ts);
		c->pend[v].mark_ts = ts;
		c->pend[v].mark_hi = hi;
		c->pend[v].mark_sirq = sum;
	}
}

void sirq_wait_exit(struct sirq_cpu *c, unsigned int vec, uint64_t ts)
{
	uint64_t now = sirq_at(c, vec, ts);

	if (c->entry_ks)
		c->sirq_ks_cum[vec] += now - c->sirq_cum[vec];
	c->sirq_cum[vec] = now;
}

static struct sirq_wait *wait_get(struct matcher *m, unsigned int vec)
{
	struct sirq_wait *w = m->wait[vec];
	int k;

	if (w)
		return w;
	w = calloc(1, sizeof(*w));
	if (!w) {
		m->enomem++;
		return NULL;
	}
	for (k = 0; k < WAIT_NR; k++)
		hist_init(&w->cause[k]);
	m->wait[vec] = w;
	return w;
}

/* task_of - the entry of the task that held bottom halves off, by name */
static struct wait_task *task_of(struct matcher *m, struct sirq_wait *w, int pid)
{
	char name[TASK_COMM_LEN];
	uint32_t i;

	match_comm_name(m, pid, name);
	for (i = 0; i < w->ntasks; i++)
		if (!strcmp(w->task[i].comm, name))
			return &w->task[i];
	if (w->ntasks == WAIT_TASKS_MAX)
		return &w->other_tasks;
	snprintf(w->task[w->ntasks].comm, TASK_COMM_LEN, "%s", name);
	return &w->task[w->ntasks++];
}

/* wait_ival - the vector's figures of the current interval (intervals only) */
static struct sirq_wait_ival *wait_ival(struct matcher *m, unsigned int vec)
{
	struct sirq_wait_ival *iw = m->ival_wait[vec];
	int k;

	if (!m->ival_ns || iw)
		return iw;
	iw = calloc(1, sizeof(*iw));
	if (!iw) {
		m->enomem++;
		return NULL;
	}
	hist_init(&iw->all);
	for (k = 0; k < WAIT_NR; k++)
		hist_init(&iw->part[k]);
	for (k = 0; k < ORIG_NR; k++)
		hist_init(&iw->origin[k]);
	m->ival_wait[vec] = iw;
	return iw;
}

/*
 * wait_ival_add - the split delay into the interval's figures: its causes' parts, its
 * origin, and the BH-disabled part to the task at slot (-1: none, or not kept)
 */
static void wait_ival_add(struct matcher *m, unsigned int vec, uint64_t delay,
			  const uint64_t *part, enum sirq_origin o, int slot)
{
	struct sirq_wait_ival *iw = wait_ival(m, vec);
	int k;

	if (!iw)
		return;
	hist_add(&iw->all, delay);
	for (k = 0; k < WAIT_NR; k++)
		if (part[k])
			hist_add(&iw->part[k], part[k]);
	hist_add(&iw->origin[o], delay);
	if (slot >= 0) {
		if (!iw->task[slot]) {
			iw->task[slot] = malloc(sizeof(*iw->task[slot]));
			if (!iw->task[slot])
				m->enomem++;
			else
				hist_init(iw->task[slot]);
		}
		if (iw->task[slot])
			hist_add(iw->task[slot], wait_bh_ns(part));
	}
	iw->dirty = true;
}

/* is_own - is pid one of deferbench's own threads (the capture's, comm "deferbench") */
static bool is_own(struct matcher *m, int pid)
{
	const struct comm_info *ci;
	char name[TASK_COMM_LEN];

	if (pid <= 0)
		return false;
	ci = map_get(&m->comms, (uint64_t)pid);
	if (!ci && m->comm_resolve && m->comm_resolve(m->comm_resolve_ctx, pid, name)) {
		match_comm(m, pid, name, (unsigned int)strnlen(name, TASK_COMM_LEN));
		ci = map_get(&m->comms, (uint64_t)pid);
	}
	return ci && !strcmp(ci->comm, "deferbench");
}

/*
 * handler_parts - the handler time inside the delay: the rest of the handler the raise
 * came in (cut at the first entry after the raise, sirq_wait_mark), then every handler that
 * started after it, by priority, or as ksoftirqd's when the vector ran there and they
 * did too. Returns their sum.
 */
static uint64_t handler_parts(const struct sirq_cpu *c, const struct sirq_pending *p,
			      unsigned int vec, uint64_t ts, bool ksoftirqd, uint64_t *part)
{
	uint64_t in = 0, d, dks, used = 0;
	unsigned int v;

	if (p->mark_ts && p->in_vec >= 0)
		in = p->mark_sirq - p->sirq_sum;
	part[WAIT_RAISED_IN] = in;
	for (v = 0; v < NR_SOFTIRQS; v++) {
		d = sirq_at(c, v, ts) - p->sirq[v];
		dks = sirq_ks_at(c, v, ts) - p->sirq_ks[v];
		if ((int)v == p->in_vec) {
			/* the raised-in run is its vector's first growth after the raise */
			d -= in < d ? in : d;
			if (p->in_ks)
				dks -= in < dks ? in : dks;
		}
		if (dks > d)
			dks = d;
		if (!ksoftirqd)
			dks = 0;
		part[WAIT_KSOFTIRQD_RUN] += dks;
		d -= dks;
		/* the lower the number, the higher the priority (the order of __do_softirq) */
		part[v < vec ? WAIT_SIRQ_HIGHER : v > vec ? WAIT_SIRQ_LOWER : WAIT_RAISED_IN] += d;
		used += d + dks;
	}
	return used + in;
}

void sirq_wait_entry(struct matcher *m, struct sirq_cpu *c, unsigned int vec, uint64_t ts,
		bool ksoftirqd, int pid)
{
	const struct sirq_pending *p = &c->pend[vec];
	uint64_t part[WAIT_NR] = { 0 }, delay = ts - c->raise_ts[vec], used, rest, pre, d, ks;
	bool bh = bh_held(p->flags);
	enum sirq_origin o = sirq_origin_of(p->flags);
	struct sirq_wait *w;
	struct wait_task *t;
	int k;

	part[WAIT_HARDIRQ] = wait_hi_at(c, ts) - p->hi;
	used = part[WAIT_HARDIRQ] + handler_parts(c, p, vec, ts, ksoftirqd, part);
	c->entry_split = false;
	c->entry_bh_pid = -1;
	if (used > delay) {
		/* only a lost or reordered event can make the accounts outgrow the delay */
		m->n.wait_inconsistent++;
		return;
	}
	rest = delay - used;
	/* the part of the rest before the first handler that ran after the raise */
	pre = rest;
	if (p->mark_ts && p->mark_ts >= c->raise_ts[vec]) {
		/* less the hard irqs and the handler that was running at the raise */
		d = p->mark_ts - c->raise_ts[vec];
		used = (p->mark_hi - p->hi) + (p->mark_sirq - p->sirq_sum);
		pre = d > used ? d - used : 0;
		if (pre > rest)
			pre = rest;
	}
	if (bh) {
		/* the holder's time off the CPU is inside the section (before the mark) */
		part[WAIT_BH_PREEMPTED] = p->away_ns < pre ? p->away_ns : pre;
		part[WAIT_BH_DISABLED] = pre - part[WAIT_BH_PREEMPTED];
		rest -= pre;
	}
	if (ksoftirqd) {
		/* ksoftirqd on the CPU between handlers; the rest it was waiting for it */
		ks = ks_at(c, ts) - p->ks_out;
		part[WAIT_KSOFTIRQD_RUN] += ks < rest ? ks : rest;
		part[WAIT_KSOFTIRQD_WAIT] = rest - (ks < rest ? ks : rest);
	} else {
		part[is_own(m, pid) ? WAIT_OWN : WAIT_OTHER] = rest;
	}
	/* for BH work items (match_wq_start) and detail.c: the same split, per delay */
	memcpy(c->entry_part, part, sizeof(part));
	c->entry_split = true;
	c->entry_bh_pid = wait_bh_ns(part) ? p->pid : -1;
	w = wait_get(m, vec);
	if (!w)
		return;
	t = wait_bh_ns(part) ? task_of(m, w, p->pid) : NULL;
	wait_ival_add(m, vec, delay, part, o, t && t != &w->other_tasks ? (int)(t - w->task) : -1);
	w->delays++;
	w->delay_ns += delay;
	w->origin[o]++;
	w->origin_ns[o] += delay;
	for (k = 0; k < WAIT_NR; k++) {
		w->cause_ns[k] += part[k];
		if (part[k])
			hist_add(&w->cause[k], part[k]);
	}
	if (t) {
		t->delays++;
		t->total_ns += wait_bh_ns(part);
		if (wait_bh_ns(part) > t->max_ns)
			t->max_ns = wait_bh_ns(part);
	}
}

void sirq_wait_free(struct matcher *m)
{
	int v, i;

	for (v = 0; v < NR_SOFTIRQS; v++) {
		free(m->wait[v]);
		if (m->ival_wait[v])
			for (i = 0; i < WAIT_TASKS_MAX; i++)
				free(m->ival_wait[v]->task[i]);
		free(m->ival_wait[v]);
	}
}
