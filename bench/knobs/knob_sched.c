// SPDX-License-Identifier: GPL-2.0
/*
 * knob_sched.c - the scheduling of kernel threads that run deferred work, one class:
 * sched.ksoftirqd[.<cpu>] (every ksoftirqd/N, or one) and sched.napi (the NAPI threads
 * of the run's own veth pairs, applied once the workloads made them). A thread is named
 * by pid and start time (knobs_thread.c), so that a reused pid is never changed.
 */
#include "knobs.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "names.h"
#include "msg.h"
#include "parse.h"

static const struct knob_type sched_types[] = {
	{ "sched.ksoftirqd[.<cpu>]", &knob_sched_ops, KNOB_SCHED_KSOFTIRQD, NULL, KV_SCHED, 0, 0,
	  KNOB_EARLY, "scheduling of ksoftirqd/N (all CPUs, or one)" },
	{ "sched.napi", &knob_sched_ops, KNOB_SCHED_NAPI, NULL, KV_SCHED, 0, 0, KNOB_LATE,
	  "scheduling of the NAPI threads of the run's own veth pairs" },
	{ .pattern = NULL },
};

/* sched_parse - sched.ksoftirqd, sched.ksoftirqd.<cpu>, sched.napi; 1: another's */
static int sched_parse(const char *rest, struct knob *k, char *errbuf)
{
	if (!strcmp(rest, "napi")) {
		k->type = knob_type_find(&knob_sched_ops, KNOB_SCHED_NAPI, NULL);
		return 0;
	}
	if (!strncmp(rest, "napi.", 5))
		return set_err(errbuf, "sched.napi takes no device: it applies to the napi/* "
			       "threads the run's own workloads create, never a host NIC's");
	/* another thread's: knob_rt.c's, which says what is expected when it is none */
	if (strncmp(rest, "ksoftirqd", 9) || (rest[9] && rest[9] != '.'))
		return 1;
	k->type = knob_type_find(&knob_sched_ops, KNOB_SCHED_KSOFTIRQD, NULL);
	if (rest[9] && parse_int(rest + 10, 0, CPU_SETSIZE - 1, &k->cpu, errbuf))
		return -EINVAL;
	return 0;
}

/*
 * own_napi - a NAPI kthread of this process's veth pairs: "napi/<dev>-<id>" cut to 15
 * characters, where the net workload names its devices "dbv<pid>-<n>a|b". Threads of
 * other processes' devices, and of any host NIC, never match.
 */
static bool own_napi(const char *comm)
{
	char prefix[32];
	size_t n;

	n = (size_t)snprintf(prefix, sizeof(prefix), NAME_NAPI_PREFIX "%d", (int)getpid());
	return !strncmp(comm, prefix, n) && (comm[n] == '-' || comm[n] == '\0');
}

/* thread_match - ksoftirqd/N (one CPU or all), or our napi threads started since */
struct thread_match {
	const struct knob *k;
	unsigned long long since;
};

static bool thread_match(const struct thread_info *ti, void *arg)
{
	const struct thread_match *m = arg;
	char want[32];

	if (m->k->type->cls == KNOB_SCHED_NAPI)
		return own_napi(ti->comm) && ti->start >= m->since;
	if (m->k->cpu >= 0) {
		snprintf(want, sizeof(want), "ksoftirqd/%d", m->k->cpu);
		return !strcmp(ti->comm, want);
	}
	return !strncmp(ti->comm, "ksoftirqd/", 10);
}

/* sched_resolve - one target per thread the knob names, its scheduling saved */
static int sched_resolve(const struct knob *k, unsigned long long since_ticks,
			 struct knob_target **out, int *n, char *errbuf)
{
	struct thread_match m = { .k = k, .since = since_ticks };

	return knob_threads_targets(k, thread_match, &m, out, n, errbuf);
}

static int sched_check(const struct knob *k, char *errbuf)
{
	struct thread_match m = { .k = k };

	if (k->type->cls == KNOB_SCHED_NAPI)
		return 0;	/* the workloads create them */
	if (knob_threads_find(thread_match, &m, NULL, NULL) <= 0)
		return set_err(errbuf, "no thread %s", k->cpu < 0 ? "ksoftirqd/*" : k->name + 6);
	return 0;
}

/* sched_allowed - a thread of the kind the knob names */
static bool sched_allowed(const struct knob *k, const struct knob_target *t)
{
	bool napi = k->type->cls == KNOB_SCHED_NAPI;

	return t->kind == TGT_THREAD && !strncmp(t->comm, napi ? "napi/" : "ksoftirqd/",
						 napi ? 5 : 10);
}

const struct knob_ops knob_sched_ops = {
	.prefix = "sched.",
	.types = sched_types,
	.parse = sched_parse,
	.check = sched_check,
	.resolve = sched_resolve,
	.read = knob_thread_sched_read,
	.write = knob_thread_sched_write,
	.allowed = sched_allowed,
};
