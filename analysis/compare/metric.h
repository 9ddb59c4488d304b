/* SPDX-License-Identifier: GPL-2.0 */
/*
 * metric.h - what report and compare measure: a metric key names one statistic of one
 * histogram of a record (a workload metric, a softirq vector on all CPUs, or a
 * workqueue work function), and a cellset gathers the repetitions of one
 * workload x configuration of a run.
 *
 * Metric ids, as printed and matched by compare --metric (fnmatch patterns):
 *   workload:<metric>:<stat>               workload:rtt:p99
 *   softirq:<vector>:<delay|runtime>:<stat>  softirq:NET_RX:delay:p50
 *   wq:<workqueue>:<function>:<m>:<stat>   wq:events_unbound:flush_to_ldisc:delay:p99
 *   wakeup:ksoftirqd:<cpu>:<stat>          wakeup:ksoftirqd:0:p99
 *   wakeup:worker:<pool>:<stat>            wakeup:worker:unbound10:p99
 *   context:<context>:<name>[@<where>]:<delay|runtime>:<stat>
 *                                          context:napi_thread:veth0:delay:p99
 *                                          context:softirq:NET_RX@ksoftirqd:delay:p50
 *   work:<work>:<delay|runtime>:<stat>     work:net_rx:delay:p90
 *   moved:<what>:<name>:<delay|runtime>:<stat>   moved:func:usb_giveback_urb_bh:delay:p99
 * A work metric merges the groups a workload names as the deferred work it drives
 * (workload.json "work", rundata.h struct wl_work): the NET_RX work is the NET_RX softirq
 * and the napi/ threads together, so that softirq and threaded NAPI are judged on it.
 * <stat> is p50, p90, p99, p999 or max. Workqueue metrics merge every worker pool of the
 * function (pool ids differ between boots); report's per-pool tables set key.pool.
 * Thread wakeup metrics (summary.json thread_wakeup) have statistics but no buckets:
 * per-repetition values only, nothing pooled. A moved metric merges the groups of one
 * work wherever it ran (moved.h): compare adds it for work found in different places
 * on the two sides, history stores it for every work.
 */
#ifndef DEFERBENCH_METRIC_H
#define DEFERBENCH_METRIC_H

#include <stdbool.h>
#include <stddef.h>

#include "hist.h"
#include "rundata.h"
#include "stats.h"

enum msrc { MS_WORKLOAD, MS_SOFTIRQ, MS_WQ, MS_WAKEUP, MS_CONTEXT, MS_WORK, MS_MOVED };
enum mstat { MST_P50, MST_P90, MST_P99, MST_P999, MST_MAX, MST_NR };
extern const char *const metric_stat_names[MST_NR];
extern const double metric_stat_q[MST_NR];		/* 0.5, 0.9, 0.99, 0.999, 1 */

#define METRIC_ID_LEN (2 * NAME_LEN + FUNC_LEN + 32)

struct metric_key {
	enum msrc src;
	char name[NAME_LEN];	/* workload metric, vector, workqueue, CPU, pool, the
				 * execution context (MS_CONTEXT: "softirq", ...), the
				 * work (MS_WORK), or what moved (MS_MOVED: "func", ...) */
	char func[FUNC_LEN];	/* MS_WQ: work function; MS_CONTEXT: the context's name;
				 * MS_MOVED: the function, vector or device */
	char pool[NAME_LEN];	/* MS_WQ: one pool, or "" for all pools merged;
				 * MS_CONTEXT: where ("inline", "thread", ...) */
	int sub;		/* MS_SOFTIRQ, MS_CONTEXT, MS_WORK, MS_MOVED: enum
				 * sirq_metric; MS_WQ:
				 * enum wq_metric; MS_WAKEUP: enum wake_kind */
	enum mstat stat;
};

void metric_id(const struct metric_key *k, char *buf, size_t len);
/*
 * metric_work - the work definition k (MS_WORK) names in rec, or NULL
 */
const struct wl_work *metric_work(const struct record *rec, const struct metric_key *k);
/*
 * metric_work_member - does the group with group id gid ("softirq:NET_RX",
 * "wq:kblockd:blk_mq_run_work_fn", "context:napi_thread:veth0@") belong to work w
 */
bool metric_work_member(const struct wl_work *w, const char *gid);
/* metric_same_group - same histogram, any statistic */
bool metric_same_group(const struct metric_key *a, const struct metric_key *b);
/* metric_trace_derived - softirq, workqueue and wakeup figures come from the capture */
static inline bool metric_trace_derived(const struct metric_key *k)
{
	return k->src != MS_WORKLOAD;
}

/*
 * metric_hist - k's histogram in one record (added to h, which the caller initialised):
 * -ENOENT when the group is absent, -ENODATA when buckets are needed (several pools
 * merged) but the record has no histograms.csv / workload-hist.csv, and always for
 * MS_WAKEUP (statistics only).
 */
int metric_hist(const struct record *rec, const struct metric_key *k, struct hist *h);
/* metric_value - k's statistic in one record and the sample count behind it */
int metric_value(const struct record *rec, const struct metric_key *k, double *v,
		 uint64_t *count);
/*
 * metric_usable - enough samples for the statistic to mean something: at least
 * min_tail samples at or beyond the percentile (count * (1 - q) >= min_tail); max
 * needs one sample.
 */
bool metric_usable(enum mstat stat, uint64_t count, unsigned int min_tail);

/* The repetitions of one workload x configuration, in run order. */
struct cellset {
	char workload[NAME_LEN];
	char config[NAME_LEN];
	const struct cell *cell[STATS_MAX_N];
	size_t n;
};

struct cellsets {
	struct cellset *s;
	size_t n;
};

/* cellsets_build - the traced cells of run by workload x configuration (control cells not) */
int cellsets_build(const struct run *run, struct cellsets *cs);
/* cellsets_build_control - the control cells (capture off) the same way; n = 0: none */
int cellsets_build_control(const struct run *run, struct cellsets *cs);
void cellsets_free(struct cellsets *cs);
const struct cellset *cellsets_find(const struct cellsets *cs, const char *workload,
				    const char *config);
/* cellsets_reference - the reference configuration of a workload (docs/results-format.md) */
const struct cellset *cellsets_reference(const struct cellsets *cs, const char *workload);
/* cellset_ok - the repetitions that finished */
size_t cellset_ok(const struct cellset *s);
/* cellset_pooled - every usable repetition's histogram of k merged into h */
int cellset_pooled(const struct cellset *s, const struct metric_key *k, struct hist *h);
/*
 * cellset_pooled_verdict - the repetitions a verdict reads (evidence.h): finished, and
 * for softirq, workqueue and wakeup metrics without lost events; read with
 * hist_percentile_mid(), h gives the very figure the verdict used
 */
int cellset_pooled_verdict(const struct cellset *s, const struct metric_key *k,
			   struct hist *h);

/* A growable list of distinct keys. */
struct keylist {
	struct metric_key *k;
	size_t n, cap;
};

/* keylist_add - add k unless present; 0 or -ENOMEM */
int keylist_add(struct keylist *kl, const struct metric_key *k);
/*
 * keylist_collect - every group seen in the set's finished cells, for every statistic;
 * workqueue pools merged (key.pool "") unless per_pool.
 */
int keylist_collect(const struct cellset *s, bool per_pool, struct keylist *kl);
void keylist_free(struct keylist *kl);

#endif
