// SPDX-License-Identifier: GPL-2.0
/*
 * match_wq.c - pair workqueue events into latencies (see match.h): queue_work ->
 * activate_work -> execute_start -> execute_end of one work item, grouped by workqueue,
 * work function and worker pool.
 */
#include "match.h"
#define DEFERBENCH_ALLOW_MATCH_INT_H
#include "match_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* wq_intern - index of a workqueue name, through a hash of the name */
static uint32_t wq_intern(struct matcher *m, const char *name, unsigned int len)
{
	const struct name_table t = {
		.names = &m->wq_names, .n = &m->nwq, .cap = &m->wq_cap, .ids = &m->wq_ids,
	};
	char clean[WQ_NAME_MAX];
	unsigned int n;

	/*
	 * the __data_loc string may include its NUL; a kernel name is at most 23 bytes of
	 * text, so anything else (from a damaged capture) is cut and made printable
	 */
	for (n = 0; n < len && n < sizeof(clean) - 1 && name[n]; n++)
		clean[n] = (unsigned char)name[n] < 0x20 || name[n] == 0x7f ? '?' : name[n];
	clean[n] = '\0';
	return matcher_intern(m, &t, clean, n);
}

uint32_t match_func_intern(struct matcher *m, uint64_t addr)
{
	uint32_t *id;
	int created;

	id = map_put(&m->func_ids, addr, &created);
	if (!id) {
		m->enomem++;
		return GROUP_NONE;
	}
	if (!created)
		return *id;
	if (m->nfuncs == m->funcs_cap) {
		struct func_info *nf = matcher_grow(m, m->funcs, &m->funcs_cap, sizeof(*nf));

		if (!nf) {
			map_del(&m->func_ids, addr);
			return GROUP_NONE;
		}
		m->funcs = nf;
	}
	m->funcs[m->nfuncs].addr = addr;
	m->funcs[m->nfuncs].unmatched_starts = 0;
	*id = m->nfuncs;
	return m->nfuncs++;
}

static uint32_t group_get(struct matcher *m, uint32_t wq, uint32_t func, uint32_t pool)
{
	struct wq_group *g, **ng;
	uint32_t *id;
	uint64_t key;
	int created;

	/* an exact key: 2^16 workqueue names, 2^16 pools of a kind, 2^24 functions */
	if (wq >= 1U << 16 || POOL_NUM(pool) >= 1U << 16 || func >= 1U << 24) {
		m->enomem++;
		return GROUP_NONE;
	}
	key = ((uint64_t)(wq & 0xffff) << 48) | ((uint64_t)(POOL_KIND(pool)) << 40) |
	      ((uint64_t)(POOL_NUM(pool) & 0xffff) << 24) | (func & 0xffffff);
	id = map_put(&m->group_ids, key, &created);
	if (!id) {
		m->enomem++;
		return GROUP_NONE;
	}
	if (!created)
		return *id;
	if (m->ngroups == m->groups_cap) {
		ng = matcher_grow(m, m->groups, &m->groups_cap, sizeof(*ng));
		if (!ng)
			goto out_del;
		m->groups = ng;
	}
	g = calloc(1, sizeof(*g));
	if (!g) {
		m->enomem++;
		goto out_del;
	}
	g->wq = wq;
	g->func = func;
	g->pool = pool;
	hist_init(&g->delay);
	hist_init(&g->activate_wait);
	hist_init(&g->worker_wait);
	hist_init(&g->runtime);
	m->groups[m->ngroups] = g;
	*id = m->ngroups;
	return m->ngroups++;
out_del:
	map_del(&m->group_ids, key);
	return GROUP_NONE;
}

static bool group_ival(struct matcher *m, struct wq_group *g)
{
	if (!m->ival_ns)
		return false;
	if (!g->ival_delay) {
		g->ival_delay = matcher_hist_new(m);
		g->ival_runtime = matcher_hist_new(m);
		g->ival_activate = matcher_hist_new(m);
		g->ival_worker = matcher_hist_new(m);
		if (!g->ival_delay || !g->ival_runtime || !g->ival_activate || !g->ival_worker) {
			free(g->ival_delay);
			free(g->ival_runtime);
			free(g->ival_activate);
			free(g->ival_worker);
			g->ival_delay = g->ival_runtime = g->ival_activate = g->ival_worker = NULL;
			return false;
		}
	}
	g->ival_dirty = true;
	return true;
}

void match_wq_queue(struct matcher *m, int cpu, uint64_t ts, int pid, uint64_t work,
		    uint64_t func, const char *wq, unsigned int wqlen)
{
	struct wq_pending *p;
	int created;

	m->n.events[EV_WQ_QUEUE]++;
	p = map_put(&m->pending, work, &created);
	if (!p) {
		m->enomem++;
		return;
	}
	/*
	 * queue_work() never traces an item that is still pending: it was taken off the
	 * list (cancel, mod_delayed_work) and queued again, or its start was lost
	 */
	if (!created)
		m->n.wq_superseded++;
	p->queue_ts = ts;
	p->act_ts = 0;
	p->pid = pid;
	p->target = 0;
	p->req = false;
	p->wq = wq_intern(m, wq, wqlen);
	p->func = match_func_intern(m, func);
	m->cpu[cpu].last_queued_work = work;
}

void match_wq_queue_cpu(struct matcher *m, int cpu, int req_cpu, int target_cpu)
{
	struct wq_pending *p;

	if (!m->cpu[cpu].last_queued_work)
		return;
	p = map_get(&m->pending, m->cpu[cpu].last_queued_work);
	if (!p)
		return;
	/* __queue_work(): the local CPU unless asked, or the pool the item last ran in */
	p->target = target_cpu >= 0 && target_cpu != cpu ? 2 : 1;
	/* WORK_CPU_UNBOUND is NR_CPUS, beyond every CPU there is */
	p->req = req_cpu >= 0 && req_cpu < m->ncpus;
}

/*
 * bh_tie_add - a BH item starts at ts inside the softirq run on c (kick_bh_pool() raised
 * HI or TASKLET for it; workqueue_softirq_action() runs it from that vector's handler)
 */
static void bh_tie_add(struct matcher *m, struct wq_group *g, const struct sirq_cpu *c,
		       uint64_t queue_ts, uint64_t ts)
{
	struct bh_tie *t = g->bh;
	uint64_t from;
	int k;

	if (!c->entry_ts || ts < c->entry_ts)
		return;
	if (!t) {
		t = calloc(1, sizeof(*t));
		if (!t) {
			m->enomem++;
			return;
		}
		hist_init(&t->before);
		hist_init(&t->inside);
		g->bh = t;
	}
	t->vec = c->entry_vec;
	t->items++;
	from = queue_ts > c->entry_ts ? queue_ts : c->entry_ts;
	hist_add(&t->before, from - queue_ts);
	hist_add(&t->inside, ts - from);
	if (queue_ts >= c->entry_ts || !c->entry_split || !c->entry_raise_ts)
		return;
	t->split++;
	t->run_delay_ns += c->entry_ts - c->entry_raise_ts;
	for (k = 0; k < WAIT_NR; k++)
		t->cause_ns[k] += c->entry_part[k];
}

/*
 * match_wq_activate - __queue_work() traces queue_work and, when max_active lets the
 * item run at once, activate_work right after it on the same CPU with interrupts off.
 * An activation that directly follows the queueing of the same item on the same CPU
 * is therefore "activated at queue time" (wait 0); any other was held back.
 */
void match_wq_activate(struct matcher *m, int cpu, uint64_t ts, uint64_t work)
{
	struct sirq_cpu *c = &m->cpu[cpu];
	struct wq_pending *p;

	m->n.events[EV_WQ_ACTIVATE]++;
	p = map_get(&m->pending, work);
	if (!p)
		m->n.wq_activate_no_queue++;
	else if (!p->act_ts)
		p->act_ts = c->last_queued_work == work ? p->queue_ts : ts;
	c->last_queued_work = 0;
}

void match_wq_start(struct matcher *m, int cpu, uint64_t ts, int pid, bool in_softirq,
		    uint64_t work, uint64_t func)
{
	uint64_t key = in_softirq ? BH_KEY(cpu) : (uint64_t)pid;
	struct wq_running *r;
	struct wq_pending *p;
	struct comm_info *ci;
	uint32_t pool, gid = GROUP_NONE;
	int created, queued_by = -1;

	m->n.events[EV_WQ_START]++;
	m->cpu[cpu].last_queued_work = 0;
	if (in_softirq) {
		/* the highpri BH pool is kicked with HI, the other with TASKLET */
		struct sirq_cpu *c = &m->cpu[cpu];

		pool = POOL_ID(c->entry_ts && c->entry_vec == SIRQ_HI ? POOL_BH_HI : POOL_BH, cpu);
	} else {
		ci = map_get(&m->comms, (uint64_t)pid);
		pool = ci && ci->kind == COMM_KWORKER ? ci->pool :
		       ci ? POOL_ID(POOL_RESCUER, 0) : POOL_ID(POOL_UNKNOWN, 0);
	}
	p = map_get(&m->pending, work);
	if (!p && func == m->barrier_func) {
		/* insert_wq_barrier() puts flush barriers on the list without queue_work */
		m->n.wq_barriers++;
	} else if (!p) {
		uint32_t f = match_func_intern(m, func);

		m->n.wq_start_no_queue++;
		if (f != GROUP_NONE)
			m->funcs[f].unmatched_starts++;
	} else {
		gid = p->wq == GROUP_NONE || p->func == GROUP_NONE ? GROUP_NONE :
		      group_get(m, p->wq, p->func, pool);
		if (gid != GROUP_NONE) {
			struct wq_group *g = m->groups[gid];

			hist_add(&g->delay, ts - p->queue_ts);
			if (p->act_ts) {
				hist_add(&g->activate_wait, p->act_ts - p->queue_ts);
				hist_add(&g->worker_wait, ts - p->act_ts);
			}
			if (group_ival(m, g)) {
				hist_add(g->ival_delay, ts - p->queue_ts);
				if (p->act_ts) {
					hist_add(g->ival_activate, p->act_ts - p->queue_ts);
					hist_add(g->ival_worker, ts - p->act_ts);
				}
			}
			if (m->detail)
				detail_wq(m, gid, 0, ts - p->queue_ts, cpu, ts, p->pid);
			g->queued_known += p->target != 0;
			g->queued_remote += p->target == 2;
			g->queued_req += p->target && p->req;
			if (in_softirq)
				bh_tie_add(m, g, &m->cpu[cpu], p->queue_ts, ts);
		}
		queued_by = p->pid;
		map_del(&m->pending, work);
	}
	r = map_put(&m->running, key, &created);
	if (!r) {
		m->enomem++;
		return;
	}
	if (!created && r->start_ts)
		m->n.wq_start_no_end++;
	r->work = work;
	r->start_ts = ts;
	r->group = gid;
	r->queued_by = queued_by;
}

void match_wq_end(struct matcher *m, int cpu, uint64_t ts, int pid, bool in_softirq,
		  uint64_t work)
{
	uint64_t key = in_softirq ? BH_KEY(cpu) : (uint64_t)pid;
	struct wq_running *r;

	m->n.events[EV_WQ_END]++;
	m->cpu[cpu].last_queued_work = 0;
	r = map_get(&m->running, key);
	if (!r || r->work != work) {
		m->n.wq_end_no_start++;
		return;
	}
	if (r->group != GROUP_NONE) {
		struct wq_group *g = m->groups[r->group];

		hist_add(&g->runtime, ts - r->start_ts);
		if (group_ival(m, g)) {
			hist_add(g->ival_runtime, ts - r->start_ts);
			if (m->long_work_ns && ts - r->start_ts > m->long_work_ns)
				g->ival_long++;
		}
		if (m->detail)
			detail_wq(m, r->group, 1, ts - r->start_ts, cpu, ts, r->queued_by);
	}
	map_del(&m->running, key);
}
