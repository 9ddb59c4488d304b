// SPDX-License-Identifier: GPL-2.0
/*
 * match.c - pair softirq and workqueue events into latencies (see match.h).
 */
#include "match.h"
#include "match_int.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *const softirq_names[NR_SOFTIRQS] = {
	[SIRQ_HI] = "HI",
	[SIRQ_TIMER] = "TIMER",
	[SIRQ_NET_TX] = "NET_TX",
	[SIRQ_NET_RX] = "NET_RX",
	[SIRQ_BLOCK] = "BLOCK",
	[SIRQ_IRQ_POLL] = "IRQ_POLL",
	[SIRQ_TASKLET] = "TASKLET",
	[SIRQ_SCHED] = "SCHED",
	[SIRQ_HRTIMER] = "HRTIMER",
	[SIRQ_RCU] = "RCU",
};

/* EV - system, name and "system:name" of one event, from two literals */
#define EV(sys, name) { sys, name, sys ":" name }

const struct ev_name ev_names[EV_NR] = {
	[EV_SOFTIRQ_RAISE] = EV("irq", "softirq_raise"),
	[EV_SOFTIRQ_ENTRY] = EV("irq", "softirq_entry"),
	[EV_SOFTIRQ_EXIT] = EV("irq", "softirq_exit"),
	[EV_WQ_QUEUE] = EV("workqueue", "workqueue_queue_work"),
	[EV_WQ_ACTIVATE] = EV("workqueue", "workqueue_activate_work"),
	[EV_WQ_START] = EV("workqueue", "workqueue_execute_start"),
	[EV_WQ_END] = EV("workqueue", "workqueue_execute_end"),
	[EV_SCHED_SWITCH] = EV("sched", "sched_switch"),
	[EV_SCHED_WAKEUP] = EV("sched", "sched_wakeup"),
	[EV_TASKLET_ENTRY] = EV("irq", "tasklet_entry"),
	[EV_TASKLET_EXIT] = EV("irq", "tasklet_exit"),
	[EV_IRQ_ENTRY] = EV("irq", "irq_handler_entry"),
	[EV_IRQ_EXIT] = EV("irq", "irq_handler_exit"),
	/* x86 only: the local APIC timer interrupt is no irq_handler_entry */
	[EV_TIMER_IRQ_ENTRY] = EV("irq_vectors", "local_timer_entry"),
	[EV_TIMER_IRQ_EXIT] = EV("irq_vectors", "local_timer_exit"),
	[EV_NAPI_POLL] = EV("napi", "napi_poll"),
};

int softirq_vec_from_name(const char *name)
{
	int i;

	for (i = 0; i < NR_SOFTIRQS; i++)
		if (!strcmp(name, softirq_names[i]))
			return i;
	return -1;
}

struct wq_pending {
	uint64_t queue_ts;
	uint64_t act_ts;	/* 0: no activate event seen yet */
	uint32_t wq;
	uint32_t func;
};

#define WQ_NAME_MAX 64		/* longer names (only in a damaged capture) are cut */

struct wq_running {
	uint64_t work;
	uint64_t start_ts;
	uint32_t group;		/* GROUP_NONE: the queue event was not seen */
};

/* BH work runs on top of whatever task the softirq interrupted: key it by CPU. */
#define BH_KEY(cpu) ((1ULL << 62) | (uint64_t)(cpu))

const char *pool_name(uint32_t pool, char *buf, size_t len)
{
	unsigned int n = POOL_NUM(pool);

	switch (POOL_KIND(pool)) {
	case POOL_PERCPU:
		snprintf(buf, len, "cpu%u", n);
		break;
	case POOL_PERCPU_HI:
		snprintf(buf, len, "cpu%uH", n);
		break;
	case POOL_UNBOUND:
		snprintf(buf, len, "unbound%u", n);
		break;
	case POOL_BH:
		snprintf(buf, len, "bh%u", n);
		break;
	case POOL_RESCUER:
		snprintf(buf, len, "rescuer");
		break;
	default:
		snprintf(buf, len, "unknown");
		break;
	}
	return buf;
}

enum comm_kind comm_classify(const char *comm, uint32_t *pool, int *cpu)
{
	unsigned int n, id;
	char *end;

	/* threaded NAPI (kthread "napi/%s-%d") and threaded interrupts ("irq/%d-%s") */
	if (!strncmp(comm, "napi/", 5) && comm[5])
		return COMM_NAPI;
	if (!strncmp(comm, "irq/", 4) && comm[4] >= '0' && comm[4] <= '9')
		return COMM_IRQ_THREAD;
	if (!strncmp(comm, "ksoftirqd/", 10)) {
		n = strtoul(comm + 10, &end, 10);
		if (end == comm + 10 || *end)
			return COMM_OTHER;
		*cpu = (int)n;
		return COMM_KSOFTIRQD;
	}
	if (strncmp(comm, "kworker/", 8))
		return COMM_OTHER;
	comm += 8;
	if (!strncmp(comm, "R-", 2)) {
		*pool = POOL_ID(POOL_RESCUER, 0);
		return COMM_KWORKER;
	}
	if (*comm == 'u') {
		n = strtoul(comm + 1, &end, 10);
		if (end == comm + 1 || *end != ':')
			return COMM_OTHER;
		*pool = POOL_ID(POOL_UNBOUND, n);
		return COMM_KWORKER;
	}
	n = strtoul(comm, &end, 10);
	if (end == comm || *end != ':')
		return COMM_OTHER;
	id = strtoul(end + 1, &end, 10);
	(void)id;
	/* "kworker/0:1H" is the high-priority pool; /proc adds "-wqname" to the comm */
	*pool = POOL_ID(*end == 'H' ? POOL_PERCPU_HI : POOL_PERCPU, n);
	return COMM_KWORKER;
}

void *xrealloc_array(struct matcher *m, void *p, uint32_t *cap, size_t elem)
{
	uint32_t ncap = *cap ? *cap * 2 : 16;
	void *np = realloc(p, (size_t)ncap * elem);

	if (!np) {
		m->enomem++;
		return NULL;
	}
	*cap = ncap;
	return np;
}

int matcher_init(struct matcher *m, int ncpus, uint64_t t0, uint64_t ival_ns, ival_cb cb, void *ctx)
{
	int i;

	memset(m, 0, sizeof(*m));
	m->ncpus = ncpus;
	m->cpu = calloc(ncpus, sizeof(*m->cpu));
	m->sirq = calloc((size_t)ncpus * NR_SOFTIRQS, sizeof(*m->sirq));
	m->ksoftirqd_wake = calloc(ncpus, sizeof(*m->ksoftirqd_wake));
	if (!m->cpu || !m->sirq || !m->ksoftirqd_wake)
		goto out_free;
	for (i = 0; i < ncpus; i++)
		m->cpu[i].ksoftirqd_pid = -1;
	if (map_init(&m->pending, sizeof(struct wq_pending), 1024) ||
	    map_init(&m->running, sizeof(struct wq_running), 256) ||
	    map_init(&m->comms, sizeof(struct comm_info), 1024) ||
	    map_init(&m->func_ids, sizeof(uint32_t), 256) ||
	    map_init(&m->group_ids, sizeof(uint32_t), 256) ||
	    map_init(&m->wq_ids, sizeof(uint32_t), 64) ||
	    map_init(&m->wake_ids, sizeof(uint32_t), 64) ||
	    map_init(&m->ctx_ids, sizeof(uint32_t), 64) ||
	    map_init(&m->irq_ids, sizeof(uint32_t), 64) ||
	    map_init(&m->str_ids, sizeof(uint32_t), 64))
		goto out_free;
	m->t0 = t0;
	m->ival_ns = ival_ns;
	m->ival_end = ival_ns ? t0 + ival_ns : UINT64_MAX;
	m->on_interval = cb;
	m->ival_ctx = ctx;
	return 0;
out_free:
	matcher_free(m);
	return -ENOMEM;
}

void matcher_free(struct matcher *m)
{
	uint32_t i;

	if (m->sirq)
		for (i = 0; i < (uint32_t)m->ncpus * NR_SOFTIRQS; i++)
			free(m->sirq[i]);
	for (i = 0; i < m->ngroups; i++) {
		free(m->groups[i]->ival_delay);
		free(m->groups[i]->ival_runtime);
		free(m->groups[i]);
	}
	for (i = 0; i < m->nwq; i++)
		free(m->wq_names[i]);
	for (i = 0; i < NR_SOFTIRQS; i++) {
		free(m->ival_sirq_delay[i]);
		free(m->ival_sirq_runtime[i]);
	}
	free(m->groups);
	free(m->wq_names);
	free(m->funcs);
	free(m->sirq);
	free(m->cpu);
	map_free(&m->pending);
	map_free(&m->running);
	map_free(&m->comms);
	map_free(&m->func_ids);
	map_free(&m->group_ids);
	map_free(&m->wq_ids);
	map_free(&m->wake_ids);
	for (i = 0; m->ksoftirqd_wake && i < (uint32_t)m->ncpus; i++)
		free(m->ksoftirqd_wake[i]);
	free(m->ksoftirqd_wake);
	for (i = 0; i < m->nwake; i++)
		free(m->wake[i]);
	free(m->wake);
	ctx_free(m);
	wait_free(m);
	map_free(&m->ctx_ids);
	map_free(&m->irq_ids);
	map_free(&m->str_ids);
	memset(m, 0, sizeof(*m));
}

uint64_t matcher_unmatched(const struct matcher *m)
{
	const struct match_counts *n = &m->n;

	return n->sirq_entry_no_raise + n->sirq_exit_no_entry + n->sirq_entry_no_exit +
	       n->wq_start_no_queue + n->wq_activate_no_queue + n->wq_end_no_start +
	       n->wq_start_no_end + n->tasklet_exit_no_entry + n->irq_exit_no_entry;
}

struct hist *hist_new(struct matcher *m)
{
	struct hist *h = malloc(sizeof(*h));

	if (!h) {
		m->enomem++;
		return NULL;
	}
	hist_init(h);
	return h;
}

static void ival_emit(struct matcher *m)
{
	uint32_t i;

	/* everything of the interval is still there: the live view reads it now */
	if (m->on_interval_end)
		m->on_interval_end(m->ival_end_ctx, m, m->ival_cur);
	for (i = 0; i < NR_SOFTIRQS; i++) {
		struct hist *d = m->ival_sirq_delay[i], *r = m->ival_sirq_runtime[i];

		if (!d || (!d->count && !r->count))
			continue;
		if (m->on_interval)
			m->on_interval(m->ival_ctx, m->ival_cur, IVAL_SOFTIRQ, i, d, r);
		hist_init(d);
		hist_init(r);
	}
	for (i = 0; i < m->ngroups; i++) {
		struct wq_group *g = m->groups[i];

		if (!g->ival_dirty)
			continue;
		if (m->on_interval)
			m->on_interval(m->ival_ctx, m->ival_cur, IVAL_WQ, i, g->ival_delay,
				       g->ival_runtime);
		hist_init(g->ival_delay);
		hist_init(g->ival_runtime);
		g->ival_long = 0;
		g->ival_dirty = false;
	}
	ctx_ival_emit(m);
}

void match_interval_roll(struct matcher *m, uint64_t ts)
{
	if (!m->ival_ns)
		return;
	ival_emit(m);
	m->ival_cur = ts > m->t0 ? (ts - m->t0) / m->ival_ns : 0;
	/* the last interval of the clock's range never ends */
	if (__builtin_mul_overflow(m->ival_cur + 1, m->ival_ns, &m->ival_end) ||
	    __builtin_add_overflow(m->ival_end, m->t0, &m->ival_end))
		m->ival_end = UINT64_MAX;
}

static struct sirq_group *sirq_group(struct matcher *m, int cpu, unsigned int vec)
{
	struct sirq_group **slot = &m->sirq[cpu * NR_SOFTIRQS + vec];

	if (!*slot) {
		*slot = calloc(1, sizeof(**slot));
		if (!*slot) {
			m->enomem++;
			return NULL;
		}
		hist_init(&(*slot)->delay);
		hist_init(&(*slot)->runtime);
	}
	return *slot;
}

static struct hist *ival_sirq(struct matcher *m, struct hist **arr, unsigned int vec)
{
	if (!m->ival_ns)
		return NULL;
	if (!arr[vec]) {
		/* delay and runtime are allocated together: ival_emit reads both */
		m->ival_sirq_delay[vec] = hist_new(m);
		m->ival_sirq_runtime[vec] = hist_new(m);
		if (!m->ival_sirq_delay[vec] || !m->ival_sirq_runtime[vec]) {
			free(m->ival_sirq_delay[vec]);
			free(m->ival_sirq_runtime[vec]);
			m->ival_sirq_delay[vec] = m->ival_sirq_runtime[vec] = NULL;
			return NULL;
		}
	}
	return arr[vec];
}

void match_softirq_raise(struct matcher *m, int cpu, uint64_t ts, unsigned int vec,
			 unsigned int flags, int pid)
{
	struct sirq_cpu *c = &m->cpu[cpu];

	m->n.events[EV_SOFTIRQ_RAISE]++;
	if (vec >= NR_SOFTIRQS)
		return;
	/* the earliest raise since the last entry is the one that waited longest */
	if (!c->raise_ts[vec]) {
		c->raise_ts[vec] = ts;
		wait_raise(c, vec, ts, flags, pid);
	}
}

void match_softirq_entry(struct matcher *m, int cpu, uint64_t ts, unsigned int vec, int pid)
{
	struct sirq_cpu *c = &m->cpu[cpu];
	bool ks = pid == c->ksoftirqd_pid;
	struct ctx_group *cg;
	struct sirq_group *g;
	struct hist *ih;

	m->n.events[EV_SOFTIRQ_ENTRY]++;
	if (vec >= NR_SOFTIRQS)
		return;
	if (c->entry_ts)
		m->n.sirq_entry_no_exit++;
	/* the wait of every pending vector before the first handler ends here */
	wait_mark(c, ts);
	c->entry_ts = ts;
	c->entry_vec = vec;
	c->entry_ks = ks;
	c->entry_hi = wait_hi_at(c, ts);
	c->entry_raise_ts = c->raise_ts[vec];
	if (vec == SIRQ_NET_RX) {
		/* net_rx_action polls the NAPI instances: their runtime counts from here */
		c->poll_mark_ts = ts;
		c->poll_mark_pid = pid;
		c->poll_mark_poll = false;
	}
	g = sirq_group(m, cpu, vec);
	cg = ctx_softirq(m, vec, ks);
	if (!g)
		return;
	g->entries++;
	if (ks)
		g->ksoftirqd++;
	if (cg)
		ctx_count(m, cg);
	if (!c->raise_ts[vec]) {
		m->n.sirq_entry_no_raise++;
		return;
	}
	hist_add(&g->delay, ts - c->raise_ts[vec]);
	ih = ival_sirq(m, m->ival_sirq_delay, vec);
	if (ih)
		hist_add(ih, ts - c->raise_ts[vec]);
	if (cg)
		ctx_add_delay(m, cg, ts - c->raise_ts[vec]);
	wait_entry(m, c, vec, ts, ks);
	/* a raise from now on, even inside this handler, is for the next entry */
	c->raise_ts[vec] = 0;
}

void match_softirq_exit(struct matcher *m, int cpu, uint64_t ts, unsigned int vec, int pid)
{
	struct sirq_cpu *c = &m->cpu[cpu];
	struct ctx_group *cg;
	struct sirq_group *g;
	struct hist *ih;
	uint64_t d;

	m->n.events[EV_SOFTIRQ_EXIT]++;
	if (vec >= NR_SOFTIRQS)
		return;
	/* a NAPI poll after softirqs ran at a napi thread's local_bh_enable() starts here */
	c->poll_mark_ts = ts;
	c->poll_mark_pid = pid;
	c->poll_mark_poll = false;
	if (!c->entry_ts || c->entry_vec != (int)vec) {
		m->n.sirq_exit_no_entry++;
		c->entry_ts = 0;
		return;
	}
	d = ts - c->entry_ts;
	wait_exit(c, vec, ts);
	c->entry_ts = 0;
	c->tl_ts = 0;
	g = sirq_group(m, cpu, vec);
	if (!g)
		return;
	hist_add(&g->runtime, d);
	if (d > SIRQ_LONG_NS)
		g->long_runs++;
	ih = ival_sirq(m, m->ival_sirq_runtime, vec);
	if (ih)
		hist_add(ih, d);
	cg = ctx_softirq(m, vec, c->entry_ks);
	if (cg)
		ctx_add_run(m, cg, d);
}

/* str_hash - FNV-1a, for the name caches */
uint64_t str_hash(const char *s, unsigned int len)
{
	uint64_t h = 0xcbf29ce484222325ULL;

	while (len--) {
		h ^= (unsigned char)*s++;
		h *= 0x100000001b3ULL;
	}
	return h;
}

/* wq_name_is - stored name i is exactly the len bytes at name (it may be shorter) */
static bool wq_name_is(const struct matcher *m, uint32_t i, const char *name, unsigned int len)
{
	const char *s = m->wq_names[i];

	return strnlen(s, (size_t)len + 1) == len && !memcmp(s, name, len);
}

/* wq_intern - index of a workqueue name, through a hash of the name */
static uint32_t wq_intern(struct matcher *m, const char *name, unsigned int len)
{
	uint32_t i;
	char **nw;

	uint32_t *cached;
	char clean[WQ_NAME_MAX];
	unsigned int n;
	uint64_t h;

	/*
	 * the __data_loc string may include its NUL; a kernel name is at most 23 bytes of
	 * text, so anything else (from a damaged capture) is cut and made printable
	 */
	for (n = 0; n < len && n < sizeof(clean) - 1 && name[n]; n++)
		clean[n] = (unsigned char)name[n] < 0x20 || name[n] == 0x7f ? '?' : name[n];
	clean[n] = '\0';
	name = clean;
	len = n;
	h = str_hash(name, len);
	cached = map_get(&m->wq_ids, h);
	if (cached && wq_name_is(m, *cached, name, len))
		return *cached;
	/* not seen, or a hash collision: the list is short */
	for (i = 0; i < m->nwq; i++)
		if (wq_name_is(m, i, name, len))
			return i;
	if (m->nwq == m->wq_cap) {
		nw = xrealloc_array(m, m->wq_names, &m->wq_cap, sizeof(*nw));
		if (!nw)
			return GROUP_NONE;
		m->wq_names = nw;
	}
	m->wq_names[m->nwq] = strndup(name, len);
	if (!m->wq_names[m->nwq]) {
		m->enomem++;
		return GROUP_NONE;
	}
	if (!cached) {
		cached = map_put(&m->wq_ids, h, NULL);
		if (cached)
			*cached = m->nwq;
	}
	return m->nwq++;
}

uint32_t func_intern(struct matcher *m, uint64_t addr)
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
		struct func_info *nf = xrealloc_array(m, m->funcs, &m->funcs_cap, sizeof(*nf));

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
		ng = xrealloc_array(m, m->groups, &m->groups_cap, sizeof(*ng));
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
		g->ival_delay = hist_new(m);
		g->ival_runtime = hist_new(m);
		if (!g->ival_delay || !g->ival_runtime) {
			free(g->ival_delay);
			free(g->ival_runtime);
			g->ival_delay = g->ival_runtime = NULL;
			return false;
		}
	}
	g->ival_dirty = true;
	return true;
}

void match_wq_queue(struct matcher *m, int cpu, uint64_t ts, uint64_t work, uint64_t func,
		    const char *wq, unsigned int wqlen)
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
	p->wq = wq_intern(m, wq, wqlen);
	p->func = func_intern(m, func);
	m->cpu[cpu].last_queued_work = work;
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
	int created;

	m->n.events[EV_WQ_START]++;
	m->cpu[cpu].last_queued_work = 0;
	if (in_softirq) {
		pool = POOL_ID(POOL_BH, cpu);
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
		uint32_t f = func_intern(m, func);

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
			if (group_ival(m, g))
				hist_add(g->ival_delay, ts - p->queue_ts);
		}
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
	}
	map_del(&m->running, key);
}

/* comm_update - the comm_info of pid, with its name brought up to date */
static struct comm_info *comm_update(struct matcher *m, int pid, const char *comm,
				     unsigned int len)
{
	char raw[TASK_COMM_LEN] = { 0 };
	struct comm_info *ci;
	int created, cpu = -1;
	size_t n;

	/* the hot path: sched events carry the 16 comm bytes, mostly unchanged */
	ci = map_get(&m->comms, (uint64_t)pid);
	if (ci && len == TASK_COMM_LEN && !memcmp(ci->raw, comm, TASK_COMM_LEN))
		return ci;
	memcpy(raw, comm, len < TASK_COMM_LEN ? len : TASK_COMM_LEN);
	if (ci && !memcmp(ci->raw, raw, TASK_COMM_LEN))
		return ci;
	ci = map_put(&m->comms, (uint64_t)pid, &created);
	if (!ci) {
		m->enomem++;
		return NULL;
	}
	/* a renamed thread: what it had waiting belongs to its old name */
	if (!created)
		ctx_thread_flush(m, ci);
	memcpy(ci->raw, raw, TASK_COMM_LEN);
	n = strnlen(raw, TASK_COMM_LEN - 1);
	memcpy(ci->comm, raw, n);
	ci->comm[n] = '\0';
	ci->wake_ts = 0;
	ci->run_ts = 0;
	ci->ctx = 0;
	ci->dev = 0;
	ci->kind = comm_classify(ci->comm, &ci->pool, &cpu);
	if (ci->kind == COMM_KSOFTIRQD && cpu >= 0 && cpu < m->ncpus) {
		m->cpu[cpu].ksoftirqd_pid = pid;
		ci->pool = cpu;
	}
	return ci;
}

void match_comm(struct matcher *m, int pid, const char *comm, unsigned int len)
{
	comm_update(m, pid, comm, len);
}

bool match_comm_known(const struct matcher *m, int pid)
{
	return map_get(&m->comms, (uint64_t)pid) != NULL;
}

void match_sched_wakeup(struct matcher *m, uint64_t ts, int pid, const char *comm,
			unsigned int len)
{
	struct comm_info *ci;

	m->n.events[EV_SCHED_WAKEUP]++;
	ci = comm_update(m, pid, comm, len);
	/* only the threads that run deferred work are timed */
	if (ci && ci->kind != COMM_OTHER && !ci->wake_ts)
		ci->wake_ts = ts;
}

/* wake_hist - the wakeup histogram of a ksoftirqd (CPU) or a worker pool */
static struct hist *wake_hist(struct matcher *m, const struct comm_info *ci)
{
	struct wake_group **nw;
	uint32_t *id;
	int created;

	if (ci->kind == COMM_KSOFTIRQD) {
		if (ci->pool >= (uint32_t)m->ncpus)
			return NULL;
		if (!m->ksoftirqd_wake[ci->pool])
			m->ksoftirqd_wake[ci->pool] = hist_new(m);
		return m->ksoftirqd_wake[ci->pool];
	}
	id = map_put(&m->wake_ids, ci->pool, &created);
	if (!id) {
		m->enomem++;
		return NULL;
	}
	if (!created)
		return &m->wake[*id]->wake;
	if (m->nwake == m->wake_cap) {
		nw = xrealloc_array(m, m->wake, &m->wake_cap, sizeof(*nw));
		if (!nw)
			goto out_del;
		m->wake = nw;
	}
	m->wake[m->nwake] = malloc(sizeof(**m->wake));
	if (!m->wake[m->nwake]) {
		m->enomem++;
		goto out_del;
	}
	m->wake[m->nwake]->pool = ci->pool;
	hist_init(&m->wake[m->nwake]->wake);
	*id = m->nwake++;
	return &m->wake[*id]->wake;
out_del:
	map_del(&m->wake_ids, ci->pool);
	return NULL;
}

void match_sched_switch(struct matcher *m, int cpu, uint64_t ts, int prev_pid, int next_pid,
			const char *next_comm, unsigned int len)
{
	struct sirq_cpu *c = &m->cpu[cpu];
	struct comm_info *ci;
	struct hist *h;

	m->n.events[EV_SCHED_SWITCH]++;
	/* a napi thread's poll loop starts when it is switched in */
	c->poll_mark_ts = ts;
	c->poll_mark_pid = next_pid;
	c->poll_mark_poll = false;
	/* a wakeup of a task that was still running ends when it is switched out */
	ci = map_get(&m->comms, (uint64_t)prev_pid);
	if (ci) {
		ci->wake_ts = 0;
		if (ci->run_ts) {
			if (ts >= ci->run_ts)
				ctx_thread_run(m, ci, ts - ci->run_ts);
			ci->run_ts = 0;
		}
	}
	/* pid 0 is every CPU's idle task, "swapper/N": never deferred work, and its
	 * name would change at every switch */
	if (!next_pid)
		return;
	ci = comm_update(m, next_pid, next_comm, len);
	if (!ci)
		return;
	if (ci->kind == COMM_NAPI || ci->kind == COMM_IRQ_THREAD)
		ci->run_ts = ts;
	if (!ci->wake_ts)
		return;
	if (ci->kind == COMM_NAPI || ci->kind == COMM_IRQ_THREAD) {
		ctx_thread_wake(m, ci, ts - ci->wake_ts);
	} else {
		h = wake_hist(m, ci);
		if (h)
			hist_add(h, ts - ci->wake_ts);
	}
	ci->wake_ts = 0;
}

void match_inflight(const struct matcher *m,
		    void (*fn)(void *ctx, uint32_t wq, uint32_t func, bool running, uint32_t pool),
		    void *ctx)
{
	const struct wq_pending *p;
	const struct wq_running *r;
	size_t pos = 0;

	while ((p = map_next(&m->pending, &pos, NULL)))
		if (p->wq != GROUP_NONE && p->func != GROUP_NONE)
			fn(ctx, p->wq, p->func, false, 0);
	pos = 0;
	while ((r = map_next(&m->running, &pos, NULL)))
		if (r->group != GROUP_NONE)
			fn(ctx, m->groups[r->group]->wq, m->groups[r->group]->func, true,
			   m->groups[r->group]->pool);
}

void match_missed(struct matcher *m, int cpu, long missed)
{
	struct sirq_cpu *c = &m->cpu[cpu];

	if (missed < 0)
		m->n.missed_unknown++;
	else
		m->n.missed_events += missed;
	/* what this CPU had pending may have been consumed by events we lost */
	memset(c->raise_ts, 0, sizeof(c->raise_ts));
	c->entry_ts = 0;
	c->last_queued_work = 0;
	c->hi_ts = 0;
	c->tl_ts = 0;
	c->poll_mark_ts = 0;
}

void matcher_finish(struct matcher *m)
{
	struct comm_info *ci;
	size_t pos = 0;
	int c, v;

	/* napi threads that never polled: their samples go under their comm */
	while ((ci = map_next(&m->comms, &pos, NULL)))
		ctx_thread_flush(m, ci);
	if (m->ival_ns)
		ival_emit(m);
	m->n.events_total = 0;
	for (c = 0; c < EV_NR; c++)
		m->n.events_total += m->n.events[c];
	for (c = 0; c < m->ncpus; c++) {
		for (v = 0; v < NR_SOFTIRQS; v++)
			if (m->cpu[c].raise_ts[v])
				m->n.sirq_raise_open++;
		if (m->cpu[c].entry_ts)
			m->n.sirq_entry_open++;
	}
	m->n.wq_queued_open = m->pending.used;
	m->n.wq_running_open = m->running.used;
}
