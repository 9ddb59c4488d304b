// SPDX-License-Identifier: GPL-2.0
/*
 * match_sched.c - the scheduler events of the threads that run deferred work (see
 * match.h): which pool or context a thread belongs to, from its name, and the wakeup
 * latency of kworkers, ksoftirqd, napi/ and irq/ threads and the per-CPU threads of
 * PREEMPT_RT (backlog_napi/, ktimers/, rcuc/, irq_work/).
 */
#include "match.h"
#define DEFERBENCH_ALLOW_MATCH_INT_H
#include "match_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common.h"

const char *match_pool_name(uint32_t pool, char *buf, size_t len)
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
	case POOL_BH_HI:
		snprintf(buf, len, "bh%uH", n);
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

/*
 * The per-CPU threads of smpboot_register_percpu_thread() that run deferred work, by
 * their thread_comm: backlog_threads in net/core/dev.c, timer_thread in kernel/softirq.c,
 * rcu_cpu_thread_spec in kernel/rcu/tree.c, irqwork_threads in kernel/irq_work.c.
 */
static const struct {
	const char *prefix;
	enum comm_kind kind;
} percpu_threads[] = {
	{ "backlog_napi/", COMM_BACKLOG_NAPI },
	{ "ktimers/", COMM_KTIMERS },
	{ "rcuc/", COMM_RCUC },
	{ "irq_work/", COMM_IRQ_WORK },
};

/* percpu_thread - "PREFIX%u" (the CPU may be cut off by TASK_COMM_LEN: digits or none) */
static enum comm_kind percpu_thread(const char *comm)
{
	size_t i, n;

	for (i = 0; i < ARRAY_SIZE(percpu_threads); i++) {
		n = strlen(percpu_threads[i].prefix);
		if (!strncmp(comm, percpu_threads[i].prefix, n) &&
		    strspn(comm + n, "0123456789") == strlen(comm + n))
			return percpu_threads[i].kind;
	}
	return COMM_OTHER;
}

enum comm_kind match_comm_classify(const char *comm, uint32_t *pool, int *cpu)
{
	enum comm_kind k;
	unsigned int n, id;
	char *end;

	/* threaded NAPI (kthread "napi/%s-%d") and threaded interrupts ("irq/%d-%s") */
	if (!strncmp(comm, "napi/", 5) && comm[5])
		return COMM_NAPI;
	if (!strncmp(comm, "irq/", 4) && comm[4] >= '0' && comm[4] <= '9')
		return COMM_IRQ_THREAD;
	k = percpu_thread(comm);
	if (k != COMM_OTHER)
		return k;
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
	ci->kind = match_comm_classify(ci->comm, &ci->pool, &cpu);
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

void match_comm_name(struct matcher *m, int pid, char name[TASK_COMM_LEN])
{
	const struct comm_info *ci = map_get(&m->comms, (uint64_t)pid);

	/* a live capture asks /proc (and keeps the answer, for analyze to find it too) */
	if (!ci && pid > 0 && m->comm_resolve && m->comm_resolve(m->comm_resolve_ctx, pid, name)) {
		match_comm(m, pid, name, (unsigned int)strnlen(name, TASK_COMM_LEN));
		ci = map_get(&m->comms, (uint64_t)pid);
	}
	if (ci)
		snprintf(name, TASK_COMM_LEN, "%s", ci->comm);
	else if (!pid)
		snprintf(name, TASK_COMM_LEN, "swapper");
	else
		snprintf(name, TASK_COMM_LEN, "pid %d", pid);
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

/*
 * wake_hist - the wakeup histogram of a ksoftirqd (CPU) or a worker pool; *ival that of
 * the current interval (NULL without intervals, or out of memory)
 */
static struct hist *wake_hist(struct matcher *m, const struct comm_info *ci,
			      struct hist ***ival)
{
	struct wake_group **nw;
	uint32_t *id;
	int created;

	if (ci->kind == COMM_KSOFTIRQD) {
		if (ci->pool >= (uint32_t)m->ncpus)
			return NULL;
		if (!m->ksoftirqd_wake[ci->pool])
			m->ksoftirqd_wake[ci->pool] = matcher_hist_new(m);
		*ival = &m->ksoftirqd_ival[ci->pool];
		return m->ksoftirqd_wake[ci->pool];
	}
	id = map_put(&m->wake_ids, ci->pool, &created);
	if (!id) {
		m->enomem++;
		return NULL;
	}
	if (!created) {
		*ival = &m->wake[*id]->ival;
		return &m->wake[*id]->wake;
	}
	if (m->nwake == m->wake_cap) {
		nw = matcher_grow(m, m->wake, &m->wake_cap, sizeof(*nw));
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
	m->wake[m->nwake]->ival = NULL;
	hist_init(&m->wake[m->nwake]->wake);
	*id = m->nwake++;
	*ival = &m->wake[*id]->ival;
	return &m->wake[*id]->wake;
out_del:
	map_del(&m->wake_ids, ci->pool);
	return NULL;
}

void match_sched_switch(struct matcher *m, int cpu, uint64_t ts, int prev_pid, int next_pid,
			const char *next_comm, unsigned int len)
{
	struct sirq_cpu *c = &m->cpu[cpu];
	struct hist *h, **ival = NULL;
	struct comm_info *ci;

	m->n.events[EV_SCHED_SWITCH]++;
	/* a napi thread's poll loop starts when it is switched in */
	c->poll_mark_ts = ts;
	c->poll_mark_pid = next_pid;
	c->poll_mark_poll = false;
	/* a wakeup of a task that was still running ends when it is switched out */
	sirq_wait_switch(c, ts, prev_pid, next_pid);
	ci = map_get(&m->comms, (uint64_t)prev_pid);
	if (ci) {
		ci->wake_ts = 0;
		if (ci->run_ts) {
			if (ts >= ci->run_ts)
				ctx_thread_run(m, ci, ts - ci->run_ts, cpu, ts);
			ci->run_ts = 0;
		}
	}
	/* pid 0 is every CPU's idle task, "swapper/N": never deferred work, and its
	 * name would change at every switch */
	ci = next_pid ? comm_update(m, next_pid, next_comm, len) : NULL;
	/* ksoftirqd's time on its CPU outside handlers, for the causes of softirq delay */
	c->ks_on = next_pid && next_pid == c->ksoftirqd_pid;
	sirq_wait_ks_tick(c, ts);
	if (!ci)
		return;
	if (comm_is_thread_ctx(ci->kind))
		ci->run_ts = ts;
	if (!ci->wake_ts)
		return;
	if (comm_is_thread_ctx(ci->kind)) {
		ctx_thread_wake(m, ci, ts - ci->wake_ts, cpu, ts);
	} else {
		h = wake_hist(m, ci, &ival);
		if (h)
			hist_add(h, ts - ci->wake_ts);
		/* the interval's, allocated on first use */
		if (h && ival && m->ival_ns && !*ival)
			*ival = matcher_hist_new(m);
		if (h && ival && *ival)
			hist_add(*ival, ts - ci->wake_ts);
	}
	ci->wake_ts = 0;
}
