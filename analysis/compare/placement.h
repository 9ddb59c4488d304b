/* SPDX-License-Identifier: GPL-2.0 */
/*
 * placement.h - did a knob move the work it targets? For each knob of a configuration,
 * the work it is meant to move (tuned's users ask "do these workqueue cpumask settings
 * have any effect?"), where that work ran in the reference arm and in the
 * configuration's arm, and a verdict: moved, or "had no effect on the work it targets".
 *
 * A knob's target work and its places (placement_target):
 *   wq.W.nice, .cpumask, .affinity_scope   the work of workqueue W, by worker pool (a
 *                                          new nice or cpumask is a new pool)
 *   wq.W.affinity_strict                   the same
 *   wq.cpumask, param.default_affinity_scope   every work item of an unbound pool, by pool
 *   sched.ksoftirqd[.N]                    softirq work, inline or in ksoftirqd (of CPU
 *                                          N); work that ran in ksoftirqd ran at the
 *                                          knob's priority: it counts as moved
 *   sched.napi                             NAPI polls of the run's veth in napi/ threads,
 *                                          at the knob's priority, the same way
 *   opt.W.napi, netdev.D.threaded          NAPI polls (of the run's veth, of D), by
 *                                          where they ran: softirq, ksoftirqd, thread
 *   netdev.lo.rps_cpus                     NET_RX softirq work, by CPU
 * Others (max_active, cpu_intensive_thresh_us, sysctls, napi_defer_hard_irqs,
 * gro_flush_timeout, workload options) change how much or when work runs, not where:
 * PLK_NONE, not judged here.
 *
 * The figure is the share of the work that ran elsewhere: half the sum, over every
 * place, of the difference of its shares in the two arms (0: the same places in the
 * same proportions; 1: none of the same places). Moved from PLACEMENT_MOVED on; below,
 * "had no effect on the work it targets"; with none of the work in either arm, the same
 * answer ("none of it ran"); with fewer than PLACEMENT_MIN_ITEMS in an arm, too few to
 * tell; where the records do not hold the places at all (an alternating run's phases keep
 * no per-CPU softirq rows), unseen. Pure: records in, verdicts out.
 */
#ifndef DEFERBENCH_PLACEMENT_H
#define DEFERBENCH_PLACEMENT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "metric.h"
#include "rundata.h"

enum placement_kind {
	PLK_NONE,		/* not a knob that moves work */
	PLK_WQ_POOL,		/* workqueue work by pool */
	PLK_SOFTIRQ_CTX,	/* softirq work inline or in ksoftirqd */
	PLK_SOFTIRQ_CPU,	/* softirq work by CPU */
	PLK_NAPI,		/* NAPI polls by where they ran */
};

struct placement_target {
	enum placement_kind kind;
	char what[NAME_LEN];	/* workqueue, vector or device pattern; "" = all */
	bool unbound;		/* PLK_WQ_POOL: unbound pools only */
	int cpu;		/* PLK_SOFTIRQ_CTX: one CPU, or -1 */
	/* the knob changes the priority of this place ("ksoftirqd", "thread"): work that
	 * ran there ran at the knob's setting */
	char prio_place[NAME_LEN];
	char desc[TEXT_LEN];	/* "the work of workqueue writeback" */
};

/* placement_target - what knob (its name, e.g. "wq.writeback.nice") targets; kind
 * PLK_NONE for a knob that does not move work */
void placement_target(const char *knob, struct placement_target *t);

#define PLACEMENT_MAX 16	/* places kept; more are summed into "other" */
#define PLACEMENT_MIN_ITEMS 5
#define PLACEMENT_MOVED 0.10

struct placement_dist {
	struct {
		char where[NAME_LEN];	/* "unbound2", "cpu0", "ksoftirqd", "thread" */
		uint64_t count;
	} p[PLACEMENT_MAX];
	size_t n;
	uint64_t total;
	bool seen;		/* the records say where such work runs at all (per-CPU
				 * softirq rows, execution contexts: not every run has them) */
};

/* placement_count - add rec's work of target t to d, by place (an arm's blocks add up) */
void placement_count(const struct record *rec, const struct placement_target *t,
		     struct placement_dist *d);

enum placement_verdict {
	PLV_MOVED,		/* a share of PLACEMENT_MOVED or more ran elsewhere */
	PLV_SAME,		/* the same places: no effect on the work it targets */
	PLV_NO_WORK,		/* none of it ran in either arm: no effect either */
	PLV_TOO_FEW,		/* too few items in an arm to tell */
	PLV_UNSEEN,		/* the records do not say where such work ran */
	PLV_NOT_PLACEMENT,	/* the knob does not move work */
};
extern const char *const placement_verdict_names[];

struct placement {
	char knob[NAME_LEN];
	char value[NAME_LEN];
	struct placement_target t;
	struct placement_dist ref, arm;
	enum placement_verdict v;
	double moved;		/* share of the work that ran elsewhere, 0..1 (NaN: none) */
	uint64_t prio_items;	/* items that ran in t.prio_place in the arm */
};

/* placement_judge - p->t, p->ref and p->arm filled: the verdict and its figure */
void placement_judge(struct placement *p);

/*
 * placement_describe - one line: "wq.cpumask = 1: moved: 100% of the work of every
 * unbound workqueue ran elsewhere than in the reference (unbound2 100% there, unbound14
 * 100% here; 412 and 398 items)", or "... had no effect on the work it targets: ...".
 * Returns buf.
 */
char *placement_describe(const struct placement *p, char *buf, size_t len);

/*
 * placement_sets - every knob and workload option whose value in configuration s is not
 * the reference's, judged on the finished cells of each (an alternating run's cells are
 * its arms' phases): up to max into out; returns how many
 */
size_t placement_sets(const struct cellset *ref, const struct cellset *s,
		      struct placement *out, size_t max);

#endif
