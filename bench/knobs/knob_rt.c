// SPDX-License-Identifier: GPL-2.0
/*
 * knob_rt.c - the scheduling of PREEMPT_RT's per-CPU threads that run deferred work, one
 * class: sched.ktimers, sched.rcuc, sched.irq_work and sched.backlog_napi, each [.<cpu>]
 * like sched.ksoftirqd; and the order of their priorities that `knobs show` checks.
 *
 * RT users order these threads by hand: irq_work/N above rcuc/N above ksoftirqd/N, and
 * ktimers/N above ksoftirqd/N (the kernel makes irq_work, rcuc and ktimers SCHED_FIFO 1:
 * irq_workd_setup(), rcu_cpu_kthread_setup() with kthread_prio, ktimerd_setup();
 * ksoftirqd stays SCHED_OTHER). The threads exist only on kernels that create them;
 * elsewhere a knob naming them is refused with that reason, never applied to nothing.
 * It shares "sched." with knob_sched.c, which leaves it the names it does not know.
 */
#include "knobs.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>

#include "msg.h"
#include "parse.h"
#include "common.h"

static const struct knob_type rt_types[] = {
	{ "sched.ktimers[.<cpu>]", &knob_rt_ops, KNOB_SCHED_RT, "ktimers", KV_SCHED, 0, 0,
	  KNOB_EARLY, "scheduling of ktimers/N (forced-threaded kernels: timer softirqs)" },
	{ "sched.rcuc[.<cpu>]", &knob_rt_ops, KNOB_SCHED_RT, "rcuc", KV_SCHED, 0, 0,
	  KNOB_EARLY, "scheduling of rcuc/N (PREEMPT_RT: RCU core work)" },
	{ "sched.irq_work[.<cpu>]", &knob_rt_ops, KNOB_SCHED_RT, "irq_work", KV_SCHED, 0, 0,
	  KNOB_EARLY, "scheduling of irq_work/N (PREEMPT_RT: lazy irq_work)" },
	{ "sched.backlog_napi[.<cpu>]", &knob_rt_ops, KNOB_SCHED_RT, "backlog_napi", KV_SCHED,
	  0, 0, KNOB_EARLY, "scheduling of backlog_napi/N (PREEMPT_RT: the backlog NAPI)" },
	{ .pattern = NULL },
};

/* Which kernels create each thread: the reason a knob naming it is refused elsewhere. */
static const struct {
	const char *name;
	const char *kernels;
} rt_kernels[] = {
	{ "ktimers", "forced-threaded kernels: PREEMPT_RT, or booted with threadirqs "
		     "(kernel/softirq.c, 6.13 and later)" },
	{ "rcuc", "PREEMPT_RT kernels, or rcutree.use_softirq=0 (kernel/rcu/tree.c)" },
	{ "irq_work", "PREEMPT_RT kernels (kernel/irq_work.c)" },
	{ "backlog_napi", "PREEMPT_RT kernels, or booted with thread_backlog_napi (6.10 and "
			  "later)" },
};

/* rt_parse - ktimers, ktimers.<cpu>, ... (after "sched.") */
static int rt_parse(const char *rest, struct knob *k, char *errbuf)
{
	const struct knob_type *t;
	size_t n;

	for (t = rt_types; t->pattern; t++) {
		n = strlen(t->attr);
		if (strncmp(rest, t->attr, n) || (rest[n] && rest[n] != '.'))
			continue;
		k->type = t;
		snprintf(k->obj, sizeof(k->obj), "%s", t->attr);
		if (rest[n] && parse_int(rest + n + 1, 0, CPU_SETSIZE - 1, &k->cpu, errbuf))
			return -EINVAL;
		return 0;
	}
	/* the last class of "sched.": the names knob_sched.c left */
	return set_err(errbuf, "expected sched.ksoftirqd, sched.napi, or PREEMPT_RT's "
		       "sched.ktimers, sched.rcuc, sched.irq_work, sched.backlog_napi (each of "
		       "these [.<cpu>]; worker threads are tuned through their workqueue: "
		       "wq.<wq>.nice)");
}

/* rt_thread - comm is one of k's threads: "<name>/<cpu>", the CPU k's or any */
static bool rt_thread(const struct knob *k, const char *comm)
{
	size_t n = strlen(k->type->attr);
	char *end;
	long cpu;

	if (strncmp(comm, k->type->attr, n) || comm[n] != '/' || !comm[n + 1])
		return false;
	cpu = strtol(comm + n + 1, &end, 10);
	return !*end && (k->cpu < 0 || cpu == k->cpu);
}

static bool rt_match(const struct thread_info *ti, void *arg)
{
	return rt_thread(arg, ti->comm);
}

/* rt_check - the threads exist; else which kernels have them, and which this is */
static int rt_check(const struct knob *k, char *errbuf)
{
	const char *kernels = "some kernels";
	struct utsname u;
	size_t i;

	if (knob_threads_find(rt_match, (void *)k, NULL, NULL) > 0)
		return 0;
	for (i = 0; i < ARRAY_SIZE(rt_kernels); i++)
		if (!strcmp(rt_kernels[i].name, k->obj))
			kernels = rt_kernels[i].kernels;
	if (uname(&u))
		snprintf(u.release, sizeof(u.release), "?");
	if (k->cpu >= 0)
		return set_err(errbuf, "no %s/%d thread on this machine: %s threads exist only "
			       "on %s; this kernel: %s %s", k->obj, k->cpu, k->obj, kernels,
			       u.release, u.version);
	return set_err(errbuf, "no %s/N thread on this machine: they exist only on %s; this "
		       "kernel: %s %s", k->obj, kernels, u.release, u.version);
}

/* rt_resolve - refused as rt_check says, else one target per thread */
static int rt_resolve(const struct knob *k, unsigned long long since_ticks __unused,
		      struct knob_target **out, int *n, char *errbuf)
{
	int ret = rt_check(k, errbuf);

	return ret ?: knob_threads_targets(k, rt_match, (void *)k, out, n, errbuf);
}

static bool rt_allowed(const struct knob *k, const struct knob_target *t)
{
	return t->kind == TGT_THREAD && rt_thread(k, t->comm);
}

const struct knob_ops knob_rt_ops = {
	.prefix = "sched.",
	.types = rt_types,
	.parse = rt_parse,
	.check = rt_check,
	.resolve = rt_resolve,
	.read = knob_thread_sched_read,
	.write = knob_thread_sched_write,
	.allowed = rt_allowed,
};

/* --- knobs show: the threads' priorities in the order RT users keep --- */

struct rt_prio {
	const char *name;
	int prio;		/* the highest RT priority among its threads (0: SCHED_OTHER and
				 * the like); -1: no such thread */
	char policy[32];	/* that thread's, as sched.* writes it */
};

static bool named(const struct thread_info *ti, void *arg)
{
	const struct rt_prio *p = arg;
	size_t n = strlen(p->name);

	return !strncmp(ti->comm, p->name, n) && ti->comm[n] == '/';
}

static int note_prio(const struct thread_info *ti, void *arg)
{
	struct knob_target t = { .kind = TGT_THREAD, .pid = ti->pid, .start = ti->start };
	struct rt_prio *p = arg;
	struct sched_spec sp;
	char pol[32];
	int prio;

	snprintf(t.comm, sizeof(t.comm), "%s", ti->comm);
	if (knob_thread_sched_read(&t, pol, sizeof(pol)) || knob_sched_spec_parse(pol, &sp, NULL))
		return 0;
	prio = sp.policy == SCHED_FIFO || sp.policy == SCHED_RR ? sp.prio : 0;
	if (prio > p->prio) {
		p->prio = prio;
		snprintf(p->policy, sizeof(p->policy), "%s", pol);
	}
	return 0;
}

void knob_rt_show(FILE *f)
{
	/* the recommended order: each pair's first above its second */
	static const struct {
		int hi, lo;
	} order[] = { { 0, 1 }, { 1, 2 }, { 3, 2 } };
	struct rt_prio p[] = {
		{ "irq_work", -1, "" }, { "rcuc", -1, "" }, { "ksoftirqd", -1, "" },
		{ "ktimers", -1, "" },
	};
	bool any = false;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(p); i++) {
		if (knob_threads_find(named, &p[i], note_prio, &p[i]) > 0 && p[i].prio < 0)
			p[i].prio = 0;
		any |= i != 2 && p[i].prio >= 0;
	}
	fprintf(f, "\nRT thread order (recommended: irq_work > rcuc > ksoftirqd, ktimers > "
		"ksoftirqd;\n  knobs sched.irq_work, sched.rcuc, sched.ktimers, sched.ksoftirqd):\n");
	for (i = 0; i < ARRAY_SIZE(p); i++)
		fprintf(f, "  %-10s %s\n", p[i].name, p[i].prio < 0 ? "(no such thread here)" :
			p[i].policy[0] ? p[i].policy : "?");
	if (!any) {
		fprintf(f, "  no PREEMPT_RT threads on this kernel: nothing to order\n");
		return;
	}
	for (i = 0; i < ARRAY_SIZE(order); i++) {
		const struct rt_prio *hi = &p[order[i].hi], *lo = &p[order[i].lo];

		if (hi->prio < 0 || lo->prio < 0)
			continue;
		if (hi->prio < lo->prio)
			fprintf(f, "  INVERTED: %s (%s) runs below %s (%s)\n", hi->name, hi->policy,
				lo->name, lo->policy);
		else if (hi->prio == lo->prio)
			fprintf(f, "  note: %s and %s share a priority (%s): neither preempts "
				"the other\n", hi->name, lo->name, hi->policy);
	}
}
