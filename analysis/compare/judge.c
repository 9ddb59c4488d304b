// SPDX-License-Identifier: GPL-2.0
/*
 * judge.c - the verdict on two sets of per-repetition values (rules in compare.h).
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>

#include "compare.h"
#include "stats.h"

const char *const verdict_names[V_NR] = {
	[V_NO_CHANGE] = "no change", [V_BETTER] = "better", [V_WORSE] = "worse",
	[V_CANNOT_TELL] = "cannot tell", [V_LOSSY] = "lossy", [V_INCOMPLETE] = "incomplete",
	[V_INFO] = "info",
};

void judge_opts_default(struct judge_opts *o)
{
	o->threshold = 0.10;
	o->confidence = 0.95;
	o->min_reps = 3;
	o->min_tail = 10;
	o->iters = 10000;
	o->seed = 0x5eedULL;
}

/*
 * Percentiles are read from log-linear histogram buckets 1/64 of an octave wide, so a
 * repetition's value is known to within a uniform error of that width: its standard
 * deviation, in log units, is the floor of each side's spread.
 */
#define BUCKET_LOG_SD (0.015504 / 3.4641)	/* log(1 + 1/64) / sqrt(12) */

/*
 * ratio_interval - the hull of two intervals of new/base at confidence conf: Welch's
 * t-interval on log values (it widens as conf rises, and uses the spread) and the
 * percentile bootstrap of the ratio of medians (distribution-free; with few
 * repetitions no narrower than the ratio of the extremes)
 */
static int ratio_interval(const double *base, size_t nb, const double *new, size_t nn,
			  const struct judge_opts *o, struct ratio_ci *ci)
{
	struct ratio_ci w;

	if (bootstrap_ratio_ci(base, nb, new, nn, o->confidence, o->iters, o->seed, ci))
		return -EINVAL;
	if (welch_log_ratio_ci(base, nb, new, nn, o->confidence, BUCKET_LOG_SD, &w))
		return -EINVAL;
	ci->lo = fmin(ci->lo, w.lo);
	ci->hi = fmax(ci->hi, w.hi);
	return 0;
}

void judge(const double *base, size_t nb, const double *new, size_t nn,
	   const struct judge_opts *o, struct judgement *j)
{
	double up = 1 + o->threshold, down = 1 / (1 + o->threshold), u;
	struct ratio_ci ci;

	j->ratio = j->lo = j->hi = j->p = NAN;
	j->v = V_CANNOT_TELL;
	if (nb && nn && median(base, nb) > 0)
		j->ratio = median(new, nn) / median(base, nb);
	if (nb < o->min_reps || nn < o->min_reps || nb < 2 || nn < 2) {
		snprintf(j->why, sizeof(j->why), "%zu vs %zu usable repetitions, need %u each",
			 nb, nn, o->min_reps < 2 ? 2 : o->min_reps);
		return;
	}
	if (ratio_interval(base, nb, new, nn, o, &ci)) {
		snprintf(j->why, sizeof(j->why), "a value is 0: no ratio");
		return;
	}
	j->lo = ci.lo;
	j->hi = ci.hi;
	j->p = mann_whitney(new, nn, base, nb, &u);
	if (ci.lo > up) {
		j->v = V_WORSE;
		snprintf(j->why, sizeof(j->why), "higher by more than the threshold: "
			 "interval above %.3g", up);
	} else if (ci.hi < down) {
		j->v = V_BETTER;
		snprintf(j->why, sizeof(j->why), "lower by more than the threshold: "
			 "interval below %.3g", down);
	} else if (ci.lo >= down && ci.hi <= up) {
		j->v = V_NO_CHANGE;
		snprintf(j->why, sizeof(j->why), "interval within [%.3g, %.3g]", down, up);
	} else if (ci.lo > 1 || ci.hi < 1) {
		snprintf(j->why, sizeof(j->why), "%s, but maybe by less than the threshold",
			 ci.lo > 1 ? "higher" : "lower");
	} else {
		snprintf(j->why, sizeof(j->why), "interval [%.3g, %.3g] spans 1 and a "
			 "threshold", ci.lo, ci.hi);
	}
}
