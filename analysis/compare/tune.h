/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tune.h - what `deferbench tune` tries on the user's own workload: the deferred work
 * that carries most of the wait in a short survey capture, and the configurations that
 * could shorten it.
 *
 * Groups are ranked by the wait they carry (delay samples x mean delay: the total time
 * work waited), softirq vectors on all CPUs and workqueue functions with their pools
 * merged. The candidates follow from the top groups (tune_candidates) and are limited to
 * what the user allows: by class,
 *   nice       a WQ_SYSFS workqueue among the top waiters at nice -10 (its own pool);
 *   scope      unbound work among the top waiters: the default affinity scope cpu, and
 *              system;
 *   napi       the probe's own veth NAPI threaded (tune --probe net);
 *   ksoftirqd  softirq work that ran in ksoftirqd: its threads at SCHED_FIFO 1;
 *   cpumask    the unbound cpumask confined to one CPU (takes CPUs from work: only when
 *              allowed explicitly).
 * Pure: the machine's facts (which workqueues have sysfs attributes, the CPUs) come from
 * the caller, so the rules are unit-tested.
 */
#ifndef DEFERBENCH_TUNE_H
#define DEFERBENCH_TUNE_H

#include <stdbool.h>
#include <stddef.h>

#include "metric.h"
#include "rundata.h"

enum tune_class {
	TC_NICE, TC_SCOPE, TC_NAPI, TC_KSOFTIRQD, TC_CPUMASK, TC_NR
};
extern const char *const tune_class_names[TC_NR];
/* What tune may try unless --allow says otherwise: nothing that takes CPUs from work. */
#define TUNE_ALLOW_DEFAULT ((1U << TC_NICE) | (1U << TC_SCOPE) | (1U << TC_NAPI) | \
			    (1U << TC_KSOFTIRQD))

/* tune_allow_parse - "nice,scope" or "all" into a mask of classes; -EINVAL naming the bad one */
int tune_allow_parse(const char *s, unsigned int *mask, char *errbuf);

#define TUNE_TOP 4

struct tune_group {
	struct metric_key key;		/* its delay, stat p90 */
	char id[METRIC_ID_LEN];		/* the key's id with ":p90" */
	double wait_s;			/* total time its work waited in the survey */
	uint64_t count;
	bool unbound;			/* workqueue: ran in an unbound pool */
	bool sysfs;			/* workqueue: has WQ_SYSFS attributes (from facts) */
	double ksoftirqd_share;		/* softirq: share of runs in ksoftirqd */
};

/* tune_rank - the groups of rec carrying most of the wait, most first; returns how many */
size_t tune_rank(const struct record *rec, struct tune_group *top, size_t max);

#define TUNE_MAX_KNOBS 4
#define TUNE_MAX_CANDS 8

struct tune_cand {
	char name[NAME_LEN];		/* "wb-nice-10", config name in the scenario */
	char why[TEXT_LEN];		/* what it is for */
	enum tune_class cls;
	char knob[TUNE_MAX_KNOBS][NAME_LEN];	/* "wq.writeback.nice", or "opt.probe.napi" */
	char value[TUNE_MAX_KNOBS][NAME_LEN];
	size_t nknobs;
};

struct tune_facts {
	/* does workqueue name have WQ_SYSFS attributes (/sys/devices/virtual/workqueue/NAME) */
	bool (*sysfs)(const char *wq, void *ctx);
	void *ctx;
	const char *probe;		/* the probe workload's type, or NULL */
	int first_cpu;			/* an online CPU for the cpumask candidate */
	/* the machine's device whose NAPI polled most in the survey (tune_napi_device) */
	const char *napi_dev;		/* NULL or "": none */
	bool napi_threaded;		/* its NAPI runs in napi/ threads already */
	bool napi_hw;			/* a device with interrupts (not a veth): defer them */
};

/*
 * tune_napi_device - the device whose NAPI polls ran most in the survey rec, among
 * those usable(dev, ctx) accepts (sysfs NAPI attributes in this namespace), into dev;
 * false when none polled (loopback and the backlog have no device of their own)
 */
bool tune_napi_device(const struct record *rec, bool (*usable)(const char *dev, void *ctx),
		      void *ctx, char *dev, size_t len);

/*
 * tune_candidates - the configurations to try, from the top groups and the allowed
 * classes; returns how many (at most max)
 */
size_t tune_candidates(const struct tune_group *top, size_t ntop, unsigned int allow,
		       const struct tune_facts *f, struct tune_cand *out, size_t max);

/*
 * tune_try_parse - --try "wq.writeback.nice=-10,wq.cpumask=1" into one candidate named
 * try-N; -EINVAL with the reason (the knobs themselves are checked by the runner)
 */
int tune_try_parse(const char *s, int n, struct tune_cand *c, char *errbuf);

#endif
