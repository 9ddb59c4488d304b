/* SPDX-License-Identifier: GPL-2.0 */
/*
 * moved.h - work that moved between execution contexts across kernels.
 *
 * Kernels move deferred work: tasklets became BH workqueue items (usb, mmc, media,
 * infiniband since 6.9), per-CPU workqueues unbound ones (WQ_PERCPU, system_dfl_wq,
 * 6.17+), softirqs went to threads (ktimers, irq threads, napi and backlog_napi
 * threads). compare and history key a tasklet, a workqueue item and a softirq context
 * differently, so a kernel change shows one metric vanish and an unrelated one appear.
 * Here the same work is matched across its places by what it is:
 *   what      its name           its places (the group's context or pool kind)
 *   func      work function      tasklet, tasklet_hi (tasklet contexts by vector);
 *                                percpu, percpu_hi, unbound, bh, bh_hi, rescuer (the
 *                                workqueue groups of that function, any workqueue)
 *   softirq   vector             softirq (inline or ksoftirqd), ktimers, irq_thread
 *   napi      device             softirq (or ksoftirqd), napi_thread, backlog_napi,
 *                                busy_poll
 * Its metric merges every group of it on a side:
 *   moved:<what>:<name>:<delay|runtime>:<stat>   moved:func:usb_giveback_urb_bh:delay:p99
 * (a NAPI poll has no delay: its runtime), so that a verdict on the work's own wait
 * spans the move; the place is the one that held most of its samples. The function of
 * a converted tasklet is matched by its symbol: a conversion that renamed it is not.
 * Records written before BH-highpri items were told apart (bh_hi) call them bh.
 */
#ifndef DEFERBENCH_MOVED_H
#define DEFERBENCH_MOVED_H

#include <stdbool.h>
#include <stddef.h>

#include "metric.h"

#define MOVED_PLACE_LEN 16

/*
 * moved_class - the place of a group: kind "wq" with its pool ("cpu0H"), or a context
 * ("tasklet", "softirq", "napi_poll") with its where; NULL for any other group
 */
const char *moved_class(const char *kind, const char *where);

/*
 * moved_lists - the groups of k (MS_MOVED) in rec: each one's bucket list and
 * statistics of k->sub into bl[] and st[] (up to max; both may be NULL); returns how
 * many groups there are
 */
size_t moved_lists(const struct record *rec, const struct metric_key *k,
		   const struct bucketlist **bl, const struct hist_stats **st, size_t max);
/* moved_hist - k's groups merged into h: -ENOENT none, -ENODATA no histograms.csv */
int moved_hist(const struct record *rec, const struct metric_key *k, struct hist *h);
/* moved_series - interval series s is one of k's groups */
bool moved_series(const struct ival_series *s, const struct metric_key *k);

/* A work found in a different place on each side of a comparison. */
struct moved {
	char workload[NAME_LEN], config[NAME_LEN];
	struct metric_key key;		/* MS_MOVED, the sub-metric judged; stat unset */
	char from[MOVED_PLACE_LEN], to[MOVED_PLACE_LEN];
	double from_share, to_share;	/* of the side's samples, in that place */
	uint64_t nbase, nnew;		/* samples, finished repetitions summed */
};

struct moved_list {
	struct moved *m;
	size_t n, cap;
};

/*
 * moved_find - append to out every work whose place differs between the finished
 * repetitions of bs and ns (both named by bs's workload and configuration); 0 or -ENOMEM
 */
int moved_find(const struct cellset *bs, const struct cellset *ns, struct moved_list *out);
void moved_list_free(struct moved_list *l);
/*
 * moved_keys_record - a key (delay, or a poll's runtime; p50 and p99) for every work
 * of rec that has a place: what history stores, so that a work's series goes on across
 * a move; 0 or -ENOMEM
 */
int moved_keys_record(const struct record *rec, struct keylist *kl);
/*
 * moved_place_of - the place that holds most of the samples among n groups (classes
 * and counts); "" when none; *share its share
 */
const char *moved_place_of(const char *const *cls, const uint64_t *count, size_t n,
			   double *share);

#endif
