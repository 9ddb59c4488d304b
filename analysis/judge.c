// SPDX-License-Identifier: GPL-2.0
/*
 * judge.c - the verdict on two sets of per-repetition values (rules in compare.h).
 */
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

void judge(const double *base, size_t nb, const double *new, size_t nn,
	   const struct judge_opts *o, struct judgement *j)
{
	double up = 1 + o->threshold, down = 1 / (1 + o->threshold), u;
	struct ratio_ci ci;

	j->ratio = j->lo = j->hi = j->p = NAN;
	j->v = V_CANNOT_TELL;
	if (nb && nn && median(base, nb) > 0)
		j->ratio = median(new, nn) / median(base, nb);
	if (nb < o->min_reps || nn < o->min_reps) {
		snprintf(j->why, sizeof(j->why), "%zu vs %zu usable repetitions, need %u each",
			 nb, nn, o->min_reps);
		return;
	}
	if (bootstrap_ratio_ci(base, nb, new, nn, o->confidence, o->iters, o->seed, &ci)) {
		snprintf(j->why, sizeof(j->why), "base median is 0");
		return;
	}
	j->lo = ci.lo;
	j->hi = ci.hi;
	j->p = mann_whitney(new, nn, base, nb, &u);
	if (ci.lo > 1 && ci.ratio >= up) {
		j->v = V_WORSE;
		snprintf(j->why, sizeof(j->why), "higher; interval above 1, ratio >= %.3g", up);
	} else if (ci.hi < 1 && ci.ratio <= down) {
		j->v = V_BETTER;
		snprintf(j->why, sizeof(j->why), "lower; interval below 1, ratio <= %.3g", down);
	} else if (ci.lo >= down && ci.hi <= up) {
		j->v = V_NO_CHANGE;
		snprintf(j->why, sizeof(j->why), "interval within [%.3g, %.3g]", down, up);
	} else if (ci.lo > 1 || ci.hi < 1) {
		snprintf(j->why, sizeof(j->why), "%s, but the change may or may not exceed "
			 "the threshold", ci.lo > 1 ? "higher" : "lower");
	} else {
		snprintf(j->why, sizeof(j->why), "interval [%.3g, %.3g] spans 1 and the "
			 "threshold", ci.lo, ci.hi);
	}
}
