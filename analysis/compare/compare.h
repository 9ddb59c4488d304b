/* SPDX-License-Identifier: GPL-2.0 */
/*
 * compare.h - decide, metric by metric, whether NEW is better or worse than BASE.
 *
 * The unit of evidence is the repetition: each repetition (cell) of a workload x
 * configuration gives one value of a metric (its p50, its p99, ...). Samples inside one
 * run are not independent (they share a boot, a page layout, a noisy neighbour), so
 * pooling them would make every difference "significant"; repetitions are what vary
 * the way a rerun varies. judge() states the rules; docs/report.md repeats them.
 */
#ifndef DEFERBENCH_COMPARE_H
#define DEFERBENCH_COMPARE_H

#include <stdbool.h>
#include <stddef.h>

#include "metric.h"
#include "rundata.h"

enum verdict {
	V_NO_CHANGE,	/* the interval lies within +-threshold */
	V_BETTER,
	V_WORSE,
	V_CANNOT_TELL,	/* too few repetitions, or an interval too wide to decide */
	V_LOSSY,	/* a repetition lost trace events: not compared */
	V_INCOMPLETE,	/* a repetition did not finish, or the cell is on one side only */
	V_INFO,		/* reported, not judged (max by default) */
	V_NR
};
extern const char *const verdict_names[V_NR];

struct judge_opts {
	double threshold;	/* relative effect size, 0.10 = 10% */
	double confidence;	/* of the bootstrap interval, 0.95 */
	unsigned int min_reps;	/* usable repetitions needed on each side (>= 2) */
	unsigned int min_tail;	/* samples beyond a percentile for it to count */
	unsigned int iters;	/* bootstrap resamples */
	uint64_t seed;
};

void judge_opts_default(struct judge_opts *o);

struct judgement {
	enum verdict v;
	double ratio;		/* median(new) / median(base) */
	double lo, hi;		/* interval of the ratio (see judge); NaN if not computed */
	double p;		/* Mann-Whitney two-sided p-value, for information */
	char why[160];
};

/*
 * judge - the verdict on per-repetition values base[nb] and new[nn], with t the
 * threshold, ratio = median(new) / median(base), and [lo, hi] the hull of Welch's
 * t-interval of the ratio of geometric means (on log values) and the percentile
 * bootstrap interval of the ratio of medians, both at o->confidence:
 *  1. fewer than min_reps values on a side, or a base median of 0: cannot tell;
 *  2. worse     if lo > 1 + t        (confidently higher by more than the threshold);
 *  3. better    if hi < 1 / (1 + t)  (confidently lower by more than the threshold);
 *  4. no change if the whole interval lies within [1 / (1 + t), 1 + t];
 *  5. otherwise cannot tell (the interval reaches both sides of a threshold).
 */
void judge(const double *base, size_t nb, const double *new, size_t nn,
	   const struct judge_opts *o, struct judgement *j);

/* Repetition values shown per row in compare.md. */
#define CMP_SHOW_REPS 16

struct cmp_row {
	char workload[NAME_LEN];
	char config[NAME_LEN];
	struct metric_key key;
	char id[METRIC_ID_LEN];
	bool judged;			/* false: information only */
	struct judgement j;
	double base_med, new_med;	/* medians of the repetition values, ns */
	double bv[STATS_MAX_N], nv[STATS_MAX_N];
	size_t nb, nn;			/* usable repetitions */
	unsigned int lossy_base, lossy_new;
};

struct env_diff {
	char field[NAME_LEN];
	char base[META_LEN];
	char new[META_LEN];
};

struct cmp_opts {
	struct judge_opts j;
	const char *const *judge_patterns;	/* fnmatch on metric ids; NULL: defaults */
	size_t npatterns;
};

struct cmp_result {
	struct cmp_row *rows;
	size_t nrows, caprows;
	struct env_diff *env;		/* run metadata and knob values that differ */
	size_t nenv, capenv;
	size_t matched;			/* workload x configuration pairs found on both sides */
	size_t njudged;			/* judged metrics with enough repetitions */
	double metric_confidence;	/* of each interval, after the Bonferroni split */
	size_t nsparse;			/* metrics left out: too few samples on both sides */
	size_t count[V_NR];		/* judged rows per verdict */
};

extern const char *const cmp_default_patterns[];

/*
 * compare_runs - match every workload x configuration of base and new and judge the
 * selected metrics. The confidence is family-wise: with k judged metrics that have
 * enough repetitions, each interval is computed at 1 - (1 - confidence) / k
 * (Bonferroni). -EINVAL (message in errbuf) when nothing matches.
 */
int compare_runs(const struct run *base, const struct run *new, const struct cmp_opts *o,
		 struct cmp_result *res, char *errbuf);
void cmp_result_free(struct cmp_result *res);
/* cmp_regressed - any judged metric worse */
static inline bool cmp_regressed(const struct cmp_result *res)
{
	return res->count[V_WORSE] > 0;
}

#endif
