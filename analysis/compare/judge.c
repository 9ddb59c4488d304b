// SPDX-License-Identifier: GPL-2.0
/*
 * judge.c - the verdict on one metric, and on a family of them (rules in compare.h and
 * verdict.h).
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compare.h"

const char *const verdict_names[V_NR] = {
	[V_NO_CHANGE] = "no change", [V_BETTER] = "better", [V_WORSE] = "worse",
	[V_CANNOT_TELL] = "cannot tell", [V_LOSSY] = "lossy", [V_INCOMPLETE] = "incomplete",
	[V_INFO] = "info",
};

/* Permutations for the level-shift test of a repetition. */
#define SHIFT_ITERS 999
#define SHIFT_ALPHA 0.01
/* Beyond this many more repetitions, the advice is: not at this margin. */
#define MORE_MAX 100

void judge_opts_default(struct judge_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->threshold = 0.10;
	o->confidence = 0.95;
	o->looks = 1;
	o->min_reps = 2;
	o->min_blocks = 6;
	o->min_tail = 10;
	o->iters = 2000;
	o->seed = 0x5eedULL;
}

/* default_floor - the margin between runs without a calibration, by the statistic */
static double default_floor(const char *id)
{
	const char *stat = strrchr(id, ':');

	stat = stat ? stat + 1 : id;
	return !strcmp(stat, "p50") || !strcmp(stat, "p90") ? DEFAULT_FLOOR_MID :
	       DEFAULT_FLOOR_TAIL;
}

double judge_margin(const struct judge_opts *o, const char *workload, const char *config,
		    const char *id, bool *floor, bool *dflt)
{
	double f = o->noise ? noise_floor(o->noise, workload, config, id) : NAN;
	bool d = false;

	if (o->between_runs && !o->noise && !o->threshold_given) {
		f = default_floor(id);
		d = true;
	}
	*floor = f > o->threshold;
	if (dflt)
		*dflt = d && *floor;
	return *floor ? f : o->threshold;
}

static double var_of(const double *d, unsigned int n);

/* var_of_reps - the variance of the bootstrap replicates */
static double var_of_reps(const double *d, unsigned int n)
{
	double v = var_of(d, n);

	return isnan(v) ? 0 : v;
}

/* seed_of - a seed per metric, so that every row's replicates are reproducible alone */
static uint64_t seed_of(uint64_t seed, const struct evidence *e, enum mstat stat)
{
	return seed ^ ((uint64_t)stat << 56) ^ (e->count[EV_BASE] * 0x9e3779b97f4a7c15ULL) ^
	       e->count[EV_NEW];
}

/* shifted_reps - repetitions of a side whose intervals show a level shift */
static uint32_t shifted_reps(const struct evidence *e, int side, double q, uint64_t seed)
{
	const struct hb_side *s = &e->side[side];
	uint32_t r, n = 0, at;
	double shift;

	for (r = 0; r < s->n; r++)
		n += hb_level_shift(&e->dom, &s->rep[r], q, SHIFT_ITERS, seed + r, &at,
				    &shift) < SHIFT_ALPHA;
	return n;
}

int judge_eval(const struct evidence *e, enum mstat stat, double margin, bool floor,
	       const struct judge_opts *o, struct judgement *j, double **d)
{
	struct hb_opts ho = { mstat_q[stat], o->iters, seed_of(o->seed, e, stat) };
	double need_b, need_n;
	struct hb_ratio r;
	struct claims c;
	int ret;

	memset(j, 0, sizeof(*j));
	*d = NULL;
	j->v = V_CANNOT_TELL;
	j->ratio = j->lo = j->hi = j->p = j->level = NAN;
	j->base = j->new = NAN;
	j->margin = margin;
	j->margin_floor = floor;
	j->more = -1;
	j->mdc = NAN;
	j->paired = e->paired;
	j->nb = e->side[EV_BASE].n;
	j->nn = e->side[EV_NEW].n;
	if (j->nb)
		j->base = hb_stat(&e->dom, &e->side[EV_BASE], ho.q);
	if (j->nn)
		j->new = hb_stat(&e->dom, &e->side[EV_NEW], ho.q);
	if (j->base > 0 && j->new >= 0)
		j->ratio = j->new / j->base;
	if (stat == MST_MAX) {
		j->v = V_INFO;
		return 0;
	}
	if (e->paired && j->nb < o->min_blocks) {
		snprintf(j->why, sizeof(j->why), "%u block%s of the alternating run: need %u to "
			 "judge (exploratory)", j->nb, j->nb == 1 ? "" : "s", o->min_blocks);
		return 0;
	}
	if (!e->paired && (j->nb < o->min_reps || j->nn < o->min_reps)) {
		snprintf(j->why, sizeof(j->why), "%u vs %u repetitions with data: need %u on "
			 "each side to see how repetitions differ", j->nb, j->nn,
			 o->min_reps < 2 ? 2 : o->min_reps);
		return 0;
	}
	/* a percentile means something only with enough samples beyond it */
	need_b = e->count[EV_BASE] * (1 - ho.q);
	need_n = e->count[EV_NEW] * (1 - ho.q);
	if (need_b < o->min_tail || need_n < o->min_tail) {
		snprintf(j->why, sizeof(j->why), "%.0f and %.0f samples beyond the percentile: "
			 "need %u on each side", need_b, need_n, o->min_tail);
		return 0;
	}
	if (e->paired)
		ret = hb_ratio_paired(&e->dom, &e->side[EV_BASE], &e->side[EV_NEW], &ho, &r);
	else
		ret = hb_ratio(&e->dom, &e->side[EV_BASE], &e->side[EV_NEW], &ho, &r);
	if (ret == -ENOMEM)
		return ret;
	if (ret) {
		snprintf(j->why, sizeof(j->why), "a statistic is 0: no ratio");
		return 0;
	}
	claims_eval(r.d, r.iters, log1p(margin), &c);
	j->claim = c.best;
	j->p = c.p[c.best];
	j->vb = r.vbase;
	j->vn = r.vnew;
	if (e->paired) {
		/*
		 * one variance for the pair: split evenly over the sides, each block of n a
		 * "repetition", so that reps_needed answers in blocks
		 */
		double v = var_of_reps(r.d, r.iters) * j->nb / 2;

		j->vb = (struct hb_var){ .between = v, .reps = j->nb, .ivals = 1 };
		j->vn = j->vb;
	} else {
		j->shifted = shifted_reps(e, EV_BASE, ho.q, ho.seed) +
			     shifted_reps(e, EV_NEW, ho.q, ho.seed);
	}
	*d = r.d;	/* kept for judge_family */
	return 0;
}

static double var_of(const double *d, unsigned int n)
{
	double mean = 0, v = 0;
	unsigned int i;

	for (i = 0; i < n; i++)
		mean += d[i];
	mean /= n ? n : 1;
	for (i = 0; i < n; i++)
		v += (d[i] - mean) * (d[i] - mean);
	return n > 1 ? v / (n - 1) : NAN;
}

/* decide - the verdict of one evaluated metric, given whether its claim stands */
static void decide(struct judgement *j, const double *d, unsigned int n, bool stands,
		   const struct judge_opts *o)
{
	static const enum verdict of_claim[CLAIM_NR] = {
		[CLAIM_WORSE] = V_WORSE, [CLAIM_BETTER] = V_BETTER, [CLAIM_SAME] = V_NO_CHANGE,
	};
	double m = log1p(j->margin), d0 = log(j->ratio);
	const char *unit;
	char shift[64] = "";

	ratio_interval(d, n, j->level, &j->lo, &j->hi);
	if (j->shifted)
		snprintf(shift, sizeof(shift), "; %u repetition(s) shift level inside",
			 j->shifted);
	if (stands) {
		j->v = of_claim[j->claim];
		snprintf(j->why, sizeof(j->why), "%s: p %.2g <= %.2g%s",
			 j->claim == CLAIM_SAME ? "interval inside the margin" :
			 "interval beyond the margin", j->p, j->level, shift);
		return;
	}
	j->v = V_CANNOT_TELL;
	j->more = reps_needed(&j->vb, &j->vn, var_of(d, n), d0, m, j->level, o->base_fixed);
	unit = j->paired ? "block" : "repetition";
	if (j->more > MORE_MAX)
		snprintf(j->why, sizeof(j->why), "p %.2g > %.2g: the change is too close to the "
			 "margin (%.3g) for under %d more %ss to decide%s", j->p,
			 j->level, 1 + j->margin, MORE_MAX, unit, shift);
	else if (j->more > 0)
		snprintf(j->why, sizeof(j->why), "p %.2g > %.2g: about %ld more %s%s%s "
			 "would decide%s", j->p, j->level, j->more, unit, j->more > 1 ? "s" : "",
			 j->paired ? "" : o->base_fixed ? " of new" : " per side", shift);
	else if (j->more == 0)
		snprintf(j->why, sizeof(j->why), "p %.2g > %.2g: on the edge; a few more "
			 "%ss%s", j->p, j->level, unit, shift);
	else
		snprintf(j->why, sizeof(j->why), "p %.2g > %.2g: the change is about the margin "
			 "(%.3g); more %ss will not decide it%s", j->p, j->level,
			 1 + j->margin, unit, shift);
}

/* mdc_of - the smallest change decided at level a, from the replicates' spread there */
static double mdc_of(const double *d, unsigned int n, double a, double margin)
{
	double lo, hi;

	ratio_interval(d, n, a, &lo, &hi);
	return (1 + margin) * exp((log(hi) - log(lo)) / 2) - 1;
}

int judge_family(struct judgement **j, double *const *d, size_t n,
		 const struct judge_opts *o)
{
	double alpha = (1 - o->confidence) / (o->looks ? o->looks : 1);
	double *p, *level;
	size_t *at, i, m = 0;
	bool *rej;
	int ret;

	p = calloc(n ? n : 1, sizeof(*p));
	level = calloc(n ? n : 1, sizeof(*level));
	at = calloc(n ? n : 1, sizeof(*at));
	rej = calloc(n ? n : 1, sizeof(*rej));
	ret = -ENOMEM;
	if (!p || !level || !at || !rej)
		goto out;
	/*
	 * "no change" claims stand on their own at alpha: an equivalence test risks only
	 * missing a change beyond the margin, at most alpha for each metric (the two
	 * one-sided tests of bioequivalence). "worse" and "better", which set the exit
	 * status and name configurations, are held family-wise by Holm.
	 */
	for (i = 0; i < n; i++) {
		if (!d[i] || isnan(j[i]->p))
			continue;
		j[i]->mdc = mdc_of(d[i], o->iters, alpha, j[i]->margin);
		if (j[i]->claim == CLAIM_SAME) {
			j[i]->level = alpha;
			decide(j[i], d[i], o->iters, j[i]->p <= alpha, o);
			continue;
		}
		at[m] = i;
		p[m++] = j[i]->p;
	}
	ret = holm(p, m, alpha, rej, level);
	if (ret < 0)
		goto out;
	for (i = 0; i < m; i++) {
		struct judgement *x = j[at[i]];

		x->level = level[i];
		decide(x, d[at[i]], o->iters, rej[i], o);
	}
	ret = 0;
out:
	free(p);
	free(level);
	free(at);
	free(rej);
	return ret;
}
