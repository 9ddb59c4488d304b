/* SPDX-License-Identifier: GPL-2.0 */
/*
 * advise.h - which configuration a machine should use, from one run: for each workload,
 * every configuration judged against the reference configuration ("default" or
 * "baseline", else the first) on the workload's primary metrics, with the engine of
 * compare (two-level bootstrap, margins, Holm over every comparison of the run: the
 * answers of one advise are read together, and any wrong "worse" or "better" in them
 * changes one).
 *
 * A configuration that starts a background load ([config] load = ...) sets a condition,
 * not a setting to choose: configurations are advised among those that run the same
 * loads, against the first of them (the reference above for those without a load). A
 * configuration alone under its loads is judged against the reference without them:
 * the answer is then the load's effect on the workload (ADV_LOAD_EFFECT), never a
 * configuration to use or keep. With no reference free of loads it is listed, with
 * that reason (why_none).
 *
 * The rule for the configuration to use:
 *   - candidates are configurations with no primary metric decided "worse" or
 *     "higher", at least one decided "better", and - when the workload's primary
 *     metrics include its own latency (workload:*) - every one of those at least "no
 *     change" (better, no change or lower): a shorter kernel-side wait alone, with the
 *     operation's latency undecided, is reported as such (ADV_WAIT_ONLY), never "use";
 *   - among them, the one whose every primary metric is decided (better or no change)
 *     wins over one with metrics still undecided; then the larger improvement (the
 *     geometric mean of its primary ratios) wins;
 *   - with no candidate, the reference stays: nothing was shown to beat it.
 * Everything undecided is listed with the repetitions (blocks) that would decide it.
 *
 * On an alternating run every arm (the reference too) is also judged against itself:
 * the end of its phases against their start (steady.h), one more family for the run.
 * An arm still moving inside its phases is named, with the metric, beside the answer.
 *
 * The answer, per workload (enum adv_answer): use a configuration; keep the reference,
 * the others being worse or equivalent within the margin on every primary metric that
 * was decided, none better; keep it with the question still open (something undecided,
 * nothing decided either way); or nothing decidable at all (exploratory: too few
 * repetitions or blocks for any verdict), which never reads as "keep".
 */
#ifndef DEFERBENCH_ADVISE_H
#define DEFERBENCH_ADVISE_H

#include <stdbool.h>
#include <stddef.h>

#include "compare.h"

/*
 * primary metric ids judged per workload: a scenario names up to PRIMARY_MAX patterns,
 * each of which may match several ids (workload:*:p[59]0)
 */
#define ADV_MAX_PRIMARY 32
#define ADV_MAX_CFG 32

struct adv_cfg {
	const struct cellset *s;
	struct judgement j[ADV_MAX_PRIMARY];	/* against the reference, per primary metric */
	/* its phases' end against their start, per primary metric (steady.h) */
	struct judgement steady[ADV_MAX_PRIMARY];
	size_t worse, better, same, undecided, higher, lower;
	/* better on some primary metric, but the workload's own latency not shown at least
	 * unchanged: a kernel-side gain only */
	bool wait_only;
	double gain;		/* geometric mean of the primary ratios (< 1: faster) */
};

enum adv_answer {
	ADV_USE,		/* best: better on a primary metric, worse on none, the
				 * workload's own latency at least unchanged */
	ADV_WAIT_ONLY,		/* a kernel-side wait shorter, the workload's own latency
				 * undecided: reported, not chosen (wait_best) */
	ADV_KEEP,		/* every other configuration worse on a primary metric, or no
				 * change on each one judged */
	ADV_UNDECIDED,		/* nothing decided better, and the question still open */
	ADV_EXPLORATORY,	/* no primary metric could be judged at all */
	ADV_LOAD_EFFECT,	/* a load alone against the reference without it: what
				 * the load does to the workload, not a choice */
};

struct adv_workload {
	char workload[NAME_LEN];
	char loads[NAME_LEN];			/* the group's background loads; "": none */
	const struct cellset *ref;
	struct metric_key prim[ADV_MAX_PRIMARY];
	char prim_id[ADV_MAX_PRIMARY][METRIC_ID_LEN];
	size_t nprim;
	struct adv_cfg cfg[ADV_MAX_CFG];	/* every configuration but the reference */
	size_t ncfg;
	struct adv_cfg ref_steady;		/* the reference's steady[] (s = ref) */
	size_t moving;				/* steady verdicts "worse" or "better" */
	const struct adv_cfg *best;		/* NULL: keep the reference */
	bool best_decided;			/* every primary metric of best is decided */
	const struct adv_cfg *wait_best;	/* ADV_WAIT_ONLY: the configuration */
	const char *why_none;			/* nothing judged: why (e.g. a load alone) */
	bool load_effect;			/* cfg[0] is a load alone, ref is without it */
	enum adv_answer answer;
};

struct advice {
	struct cellsets cs;			/* its own (advise_run), or the caller's */
	bool cs_owned;
	struct adv_workload *wl;
	size_t n;
	struct judge_opts o;
};

/*
 * advise_run - judge every configuration of every workload of run against its reference.
 * 0, -ENOMEM, or -EINVAL with a message in errbuf (a run without cells). Release with
 * advise_free(); the advice points into run, which must outlive it.
 */
int advise_run(const struct run *run, const struct judge_opts *o, struct advice *a,
	       char *errbuf);
/*
 * advise_sets - the same from cell groups the caller built from run (cellsets_build) and
 * keeps until advise_free(), which leaves them alone
 */
int advise_sets(const struct run *run, const struct cellsets *cs, const struct judge_opts *o,
		struct advice *a, char *errbuf);
void advise_free(struct advice *a);

/*
 * adv_arm - arm i of w for the steady judgements (i <= ncfg): its configurations, then
 * the reference (ref_steady)
 */
static inline const struct adv_cfg *adv_arm(const struct adv_workload *w, size_t i)
{
	return i < w->ncfg ? &w->cfg[i] : &w->ref_steady;
}

/* adv_find - the judged configuration cfg of workload (NULL: absent or the reference) */
const struct adv_cfg *adv_find(const struct advice *a, const char *workload, const char *cfg);

/*
 * advise_bound - for an open answer, what is still settled: how much better at most
 * any configuration can be on any primary metric, from the lowest end of the ratios'
 * intervals (at the level of the verdicts)
 */
void advise_bound(const struct adv_workload *w, char *buf, size_t len);

/*
 * advise_wait_only - ADV_WAIT_ONLY in words: which waits are shorter with wait_best,
 * and which of the workload's own latency metrics are not shown unchanged
 */
void advise_wait_only(const struct adv_workload *w, char *buf, size_t len);

/*
 * advise_load_effect - ADV_LOAD_EFFECT in words: what the load does to the workload
 * against the reference without it, metric by metric where decided
 */
void advise_load_effect(const struct adv_workload *w, char *buf, size_t len);

#endif
