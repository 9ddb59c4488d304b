/* SPDX-License-Identifier: GPL-2.0 */
/*
 * compare.h - decide, metric by metric, whether NEW is worse, better or no different
 * from BASE, and say what would decide it when the data cannot.
 *
 * The evidence of a workload x configuration is its repetitions and, inside each, its
 * intervals (evidence.h). A statistic (p50, p99, p99.9) is estimated from all of a
 * side's intervals merged; its uncertainty, and that of the ratio new/base, come from
 * the two-level bootstrap (hboot.h), which resamples repetitions - the unit that varies
 * the way a rerun varies - and intervals inside them. The three outcomes against a
 * margin, Holm's correction and the rules below are in verdict.h; docs/report.md states
 * them for users.
 *
 * The margin delta of a metric is the threshold (10% by default), or the host's noise
 * floor for it when one was calibrated (noise.h) and is larger: a change smaller than
 * the noise the host shows between two runs of the same thing is "no change".
 *
 * Metrics form two families, each corrected with Holm at level alpha: primary metrics
 * (named by the scenario or by the workload: its own p99 and the p99 delay of the
 * deferred work it drives) decide the exit status; the others are advisory.
 */
#ifndef DEFERBENCH_COMPARE_H
#define DEFERBENCH_COMPARE_H

#include <stdbool.h>
#include <stddef.h>

#include "evidence.h"
#include "metric.h"
#include "moved.h"
#include "noise.h"
#include "rundata.h"
#include "verdict.h"

enum verdict {
	V_NO_CHANGE,	/* the interval lies within +-margin */
	V_BETTER,
	V_WORSE,
	V_CANNOT_TELL,	/* too few repetitions, or an interval too wide to decide */
	V_LOSSY,	/* a repetition lost trace events: not compared */
	V_INCOMPLETE,	/* a repetition did not finish, or the cell is on one side only */
	V_INFO,		/* reported, not judged (max, thread wakeup) */
	/*
	 * a decided direction: the interval excludes 1 but not the margin - higher
	 * (worse) or lower (better), by an amount that may lie within the margin
	 */
	V_HIGHER,
	V_LOWER,
	V_NR
};
extern const char *const judge_verdict_names[V_NR];

struct judge_opts {
	double threshold;	/* smallest change that counts, 0.10 = 10% */
	double confidence;	/* 1 - alpha: family-wise, per family */
	unsigned int looks;	/* looks at growing data (run --until-decided): each at
				 * alpha / looks */
	unsigned int min_reps;	/* repetitions with data needed on each side (>= 2) */
	unsigned int min_blocks;	/* blocks of an alternating run needed (paired) */
	unsigned int min_tail;	/* pooled samples needed beyond a percentile, per side */
	unsigned int iters;	/* bootstrap replicates */
	uint64_t seed;
	bool base_fixed;	/* base is a stored baseline: only new can get repetitions */
	const struct noise *noise;	/* the host's noise floors, or NULL */
	/*
	 * between_runs: base and new are separate runs. Their spread inside each run says
	 * nothing of how much two runs minutes (or a reboot) apart differ, so without the
	 * host's noise floors every margin is at least the default floor (judge_margin)
	 */
	bool between_runs;
};

/*
 * The margin between two runs without a calibration: the largest difference between
 * runs of the same thing seen on the development VM (docs/verdicts.md: calibrated floors
 * up to 79% on p90s and 5.5x on p99s), rounded up - x2 for p50 and p90, x6 above.
 */
#define DEFAULT_FLOOR_MID 1.0
#define DEFAULT_FLOOR_TAIL 5.0

void judge_opts_default(struct judge_opts *o);

struct judgement {
	enum verdict v;
	double base, new;	/* the statistic of each side's pooled data, ns */
	double ratio;		/* new / base */
	double lo, hi;		/* the ratio's interval at the claim's level; NaN if none */
	double margin;		/* delta: |change| below it is "no change" */
	bool margin_floor;	/* delta is the host's noise floor, not the threshold */
	bool margin_default;	/* ... the default floor: two runs and no calibration */
	enum claim claim;	/* the claim this metric puts forward */
	double p;		/* its p-value; NaN when not evaluated */
	double level;		/* the level Holm held it to */
	double pc[CLAIM_NR];	/* every claim's p-value (verdict.h), expanded */
	struct expansion x;	/* how its replicates are read (verdict.h); runs_unit: x.n
				 * is the calibration's runs */
	/*
	 * a percentile of p99 and beyond on paired blocks: its claims need the label-swap
	 * test too (hswap.h), and the blocks its tail came from are named, per side
	 */
	bool swap_test;
	uint32_t tail_blocks[2];
	/*
	 * runs_unit: two separate runs judged with the runs as the unit (Student's t on
	 * the log ratio of their pooled figures, se and df below), not by resampling
	 * inside them
	 */
	bool runs_unit;
	double se, df;
	long more;		/* cannot tell: about this many more repetitions per side (or
				 * of new alone, base_fixed) would decide; -1: not known */
	struct hb_var vb, vn;	/* variance components (log scale) */
	uint32_t nb, nn;	/* repetitions with data */
	uint32_t shifted;	/* repetitions with a level shift inside (warm-up, drift) */
	bool paired;		/* blocks of an alternating run, resampled in pairs */
	/*
	 * mdc - the smallest change this comparison would have decided, at its length:
	 * (1 + margin) x exp(half the width of the ratio's interval at alpha) - 1, so that a
	 * "no change" says how small a change it would have caught (NaN: not evaluated)
	 */
	double mdc;
	char why[192];
};

/*
 * judge_eval - the first step for one metric: estimates, bootstrap replicates (*d,
 * sorted, caller frees) and the claim with its p-value. A metric that cannot be
 * judged (too few repetitions or samples, a zero statistic) gets v = V_CANNOT_TELL,
 * p = NaN and *d = NULL, with the reason. 0 or -ENOMEM.
 */
int judge_eval(const struct evidence *e, enum mstat stat, double margin, bool floor,
	       const struct judge_opts *o, struct judgement *j, double **d);

/*
 * judge_eval_runs - judge_eval for two separate runs, the runs as the unit: d = the log
 * ratio of their pooled figures, against the spread of one run's figure between runs
 * that the calibration measured (nf: sd and runs), se = sd sqrt(2), runs - 1 degrees
 * of freedom. Its judge_family entry has no replicates (NULL). 0.
 */
int judge_eval_runs(const struct evidence *e, enum mstat stat, double margin,
		    const struct noise_floor *nf, const struct judge_opts *o,
		    struct judgement *j);

/*
 * judge_eval_sets - a metric of two sets of runs (a kernel A/B across boots), the runs
 * as the unit: vb[nb] and vn[nn] the runs' pooled figures (ns; <= 0: no figure).
 * paired: run i of each set ran in the same stretch of the lab (boots alternated A B B
 * A ...): a t-test on the pairs' log differences; otherwise Welch's t on the runs' log
 * figures. base and new are the sets' geometric means. -EINVAL for more than
 * STATS_MAX_N runs a side, else 0.
 */
int judge_eval_sets(const double *vb, size_t nb, const double *vn, size_t nn, bool paired,
		    double margin, const struct judge_opts *o, struct judgement *j);

/* judge_t_claims - j's claims from Student's t: log ratio d0, its se, df freedom */
void judge_t_claims(double d0, double se, double df, double margin, struct judgement *j);

/*
 * judge_family - the second step, over a family of metrics evaluated by judge_eval:
 * Holm's step-down at alpha / looks decides which claims stand; each gets its verdict,
 * its interval at the level it was held to, and, when it cannot tell, how many more
 * repetitions would decide it. d[i] may be NULL (not evaluated). 0 or -ENOMEM.
 */
int judge_family(struct judgement **j, double *const *d, size_t n,
		 const struct judge_opts *o);

/*
 * judge_margin - delta for a metric: max(threshold, noise floor), or between runs
 * without floors max(threshold, default floor); *floor says whether a floor set it,
 * *dflt whether it was the default one (dflt may be NULL)
 */
double judge_margin(const struct judge_opts *o, const char *workload, const char *config,
		    const char *id, bool *floor, bool *dflt);

/* Repetition values shown per row in compare.md. */
#define CMP_SHOW_REPS 16

struct cmp_row {
	char workload[NAME_LEN];
	char config[NAME_LEN];
	struct metric_key key;
	char id[METRIC_ID_LEN];
	bool judged;			/* false: information only */
	bool primary;			/* decides the exit status */
	struct judgement j;
	double bv[STATS_MAX_N], nv[STATS_MAX_N];	/* each repetition's own value, ns */
	size_t nb, nn;
	unsigned int lossy_base, lossy_new;
	double *d;			/* keep_reps: the sorted replicates of log(new/base) */
};

struct env_diff {
	char field[NAME_LEN];
	char base[META_LEN];
	char new[META_LEN];
};

struct cmp_sets;

struct cmp_opts {
	struct judge_opts j;
	const char *const *primary;	/* fnmatch patterns of primary metric ids; NULL:
					 * what the results name (workload.json) */
	size_t nprimary;
	bool keep_reps;			/* keep each row's bootstrap replicates (row.d) */
	bool workload_only;		/* the workload's own metrics only (compare_observer) */
	const struct cmp_sets *sets;	/* sets of runs (cmp_sets_compare), or NULL */
};

struct cmp_result {
	struct cmp_row *rows;
	size_t nrows, caprows;
	struct env_diff *env;		/* run metadata and knob values that differ */
	size_t nenv, capenv;
	size_t matched;			/* workload x configuration pairs found on both sides */
	bool between_runs;		/* base and new are separate runs (judge_opts) */
	size_t nprimary, nadvisory;	/* metrics in each family that could be evaluated */
	size_t nsparse;			/* metrics left out: too few samples on both sides */
	size_t unjudged;		/* primary metrics listed but not judged at all (too
					 * few samples, or measured by neither run): among
					 * count[V_CANNOT_TELL], never left out */
	size_t count[V_NR];		/* primary rows per verdict */
	size_t advisory[V_NR];		/* advisory rows per verdict */
	size_t *pattern_hits;		/* per --metric pattern: metric ids of either run it
					 * matched (NULL without patterns) */
	char example[2][METRIC_ID_LEN];	/* two metric ids of the runs, for messages */
	struct moved_list moved;	/* work found in different places (moved.h): its
					 * rows are the moved:* metrics */
};

/*
 * cmp_pattern_ok - a --metric pattern a metric id could match: not empty, brackets
 * closed; 0 or -EINVAL with the reason in errbuf (ERRBUF_LEN)
 */
int cmp_pattern_ok(const char *pat, char *errbuf);

/*
 * cmp_is_primary - does metric id decide the exit status for the cells of s? o's
 * --metric patterns when given (o may be NULL); else the scenario's list (cell.json),
 * the workload's (workload.json), or, for older results, cmp's fallback by type.
 */
bool cmp_is_primary(const struct cmp_opts *o, const struct cellset *s, const char *id);
/*
 * cmp_primary_patterns - the patterns of the primary metrics of s (cmp_is_primary's
 * source) into out[max]; returns how many
 */
size_t cmp_primary_patterns(const struct cmp_opts *o, const struct cellset *s,
			    const char **out, size_t max);
/* cmp_type_primary - the primary metrics of a workload type, for results that name none */
bool cmp_type_primary(const char *type, const char *id);

/* The advisory metrics: judged, reported, never deciding the exit status. */
extern const char *const cmp_default_patterns[];
/* Primary metrics of results that name none (written before deferbench named them). */
extern const char *const cmp_fallback_primary[];

/*
 * compare_runs - match every workload x configuration of base and new and judge their
 * metrics (families and rules above). -EINVAL (message in errbuf) when nothing matches.
 */
int compare_runs(const struct run *base, const struct run *new, const struct cmp_opts *o,
		 struct cmp_result *res, char *errbuf);
/*
 * compare_observer - the capture's effect on the workloads, inside one run: its control
 * cells (capture off, alternated with the traced ones) as base, the traced cells as
 * new, workload metrics only, judged as compare_runs() does. -ENOENT, quietly, when the
 * run has no control cells.
 */
int compare_observer(const struct run *run, const struct cmp_opts *o,
		     struct cmp_result *res, char *errbuf);
void cmp_result_free(struct cmp_result *res);

/*
 * Two sets of runs of one scenario, the runs as the unit (a kernel A/B across boots:
 * A1 A2 A3 against B1 B2 B3). Each metric's figure in each run is its pooled figure;
 * judge_eval_sets() judges the sets. paired: run i of each side ran next to each other
 * in time (cmp_sets_paired), so their differences are the unit.
 */
struct cmp_sets {
	const struct run *base, *new;	/* nb and nn runs, each side in start order */
	size_t nb, nn;
	bool paired;
	struct cellsets *bcs, *ncs;	/* filled and freed by cmp_sets_compare */
};

/*
 * cmp_sets_paired - do the sets interleave in time (by their start), so that pairing
 * run i of each side pairs runs that ran next to each other: sorted by start, every two
 * consecutive runs are one of each side, and the pairs come in the sets' own order
 */
bool cmp_sets_paired(const struct run *base, size_t nb, const struct run *new, size_t nn);

/*
 * cmp_sets_compare - compare_runs() for two sets: the rows, families, primary metrics
 * and outputs of compare, every metric judged with the runs as the unit. 0, or -errno
 * with a message in errbuf.
 */
int cmp_sets_compare(struct cmp_sets *sets, const struct cmp_opts *o,
		     struct cmp_result *res, char *errbuf);

/*
 * calibrate_noise - a host's spread between runs from 3 <= n <= NOISE_RUNS_MAX runs of
 * one scenario in which nothing changed (calibrate.c states how). 0, or -errno with a
 * message in errbuf.
 */
int calibrate_noise(const struct run *runs, size_t n, const struct judge_opts *o,
		    struct noise *out, char *errbuf);
/*
 * calibrate_spread - one metric's figures in k >= 3 runs (ns): the sd of their logs, and
 * the floor, the change between two runs a test at alpha would just call beyond
 * chance. -EINVAL when k < 3 or a figure is not positive.
 */
int calibrate_spread(const double *v, size_t k, double alpha, double *sd, double *floor);

/* cmp_judged - is metric id judged (a verdict), primary or advisory, for the cells of s */
bool cmp_judged(const struct cmp_opts *o, const struct cellset *s, const char *id);

/* cmp_regressed - a primary metric is worse */
static inline bool cmp_regressed(const struct cmp_result *res)
{
	return res->count[V_WORSE] > 0;
}

/*
 * cmp_undecided - a primary metric is neither decided nor flagged: cannot tell, or not
 * judged at all; a comparison that leaves one open has not shown that nothing regressed
 */
static inline bool cmp_undecided(const struct cmp_result *res)
{
	return res->count[V_CANNOT_TELL] > 0;
}

#endif
