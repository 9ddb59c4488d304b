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
#include "hswap.h"

const char *const judge_verdict_names[V_NR] = {
	[V_NO_CHANGE] = "no change", [V_BETTER] = "better", [V_WORSE] = "worse",
	[V_CANNOT_TELL] = "cannot tell", [V_LOSSY] = "lossy", [V_INCOMPLETE] = "incomplete",
	[V_INFO] = "info", [V_HIGHER] = "higher", [V_LOWER] = "lower",
};

/* Permutations for the level-shift test of a repetition. */
#define SHIFT_ITERS 999
#define SHIFT_ALPHA 0.01
/* Percentiles from here up are tails: paired claims on them need the label-swap test. */
#define SWAP_Q 0.99
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
	const struct noise_floor *nf = o->noise ? noise_find(o->noise, workload, config, id) :
				       NULL;
	double f;

	*floor = false;
	if (dflt)
		*dflt = false;
	/* inside one run, or between runs whose spread was calibrated: the threshold */
	if (!o->between_runs || (nf && nf->runs >= 3))
		return o->threshold;
	f = default_floor(id);
	if (f <= o->threshold)
		return o->threshold;
	*floor = true;
	if (dflt)
		*dflt = true;
	return f;
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

/*
 * tail_claims - a tail percentile of paired blocks: each claim needs the label-swap
 * test beside the bootstrap (hswap.h), so its p-value is the larger of the two (a
 * claim both tests support; the larger of two valid p-values is valid)
 */
static int tail_claims(const struct evidence *e, const struct hb_opts *ho, double margin,
		       struct judgement *j, struct claims *c)
{
	struct hswap sw;
	int k, ret;

	ret = hswap_test(&e->dom, &e->side[EV_BASE], &e->side[EV_NEW], ho->q, log1p(margin),
			 ho->iters, ho->seed, &sw);
	if (ret == -ENOMEM)
		return ret;
	if (ret)
		return 0;
	j->swap_test = true;
	j->tail_blocks[EV_BASE] = sw.tail_blocks[EV_BASE];
	j->tail_blocks[EV_NEW] = sw.tail_blocks[EV_NEW];
	for (k = 0; k < CLAIM_NR; k++)
		c->p[k] = fmax(c->p[k], sw.p[k]);
	c->best = CLAIM_WORSE;
	for (k = 1; k <= CLAIM_SAME; k++)
		if (c->p[k] < c->p[c->best])
			c->best = (enum claim)k;
	return 0;
}

/* judge_init - j before its evaluation: the pooled figures, nothing claimed */
static void judge_init(const struct evidence *e, double q, double margin, bool floor,
		       struct judgement *j)
{
	memset(j, 0, sizeof(*j));
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
		j->base = hb_stat(&e->dom, &e->side[EV_BASE], q);
	if (j->nn)
		j->new = hb_stat(&e->dom, &e->side[EV_NEW], q);
	if (j->base > 0 && j->new >= 0)
		j->ratio = j->new / j->base;
}

/* enough_tail - a percentile means something only with enough samples beyond it */
static bool enough_tail(const struct evidence *e, double q, const struct judge_opts *o,
			struct judgement *j)
{
	double need_b = e->count[EV_BASE] * (1 - q), need_n = e->count[EV_NEW] * (1 - q);

	if (need_b >= o->min_tail && need_n >= o->min_tail)
		return true;
	snprintf(j->why, sizeof(j->why), "%.0f and %.0f samples beyond the percentile: "
		 "need %u on each side", need_b, need_n, o->min_tail);
	return false;
}

/* best_of - the strongest of worse, better and no change */
static enum claim best_of(const double *p)
{
	enum claim b = CLAIM_WORSE;
	int k;

	for (k = 1; k <= CLAIM_SAME; k++)
		if (p[k] < p[b])
			b = (enum claim)k;
	return b;
}

/* paired_expansion - n blocks in k strata (segments): t on n - k degrees of freedom */
static struct expansion paired_expansion(const struct hb_side *s)
{
	uint32_t i, k, strata = 0;

	for (i = 0; i < s->n; i++) {
		for (k = 0; k < i && s->rep[k].stratum != s->rep[i].stratum; k++)
			;
		strata += k == i;
	}
	return (struct expansion){ s->n, s->n > strata ? (double)(s->n - strata) : 0 };
}

/*
 * welch_expansion - two independent sides of repetitions: the variance factor of the
 * smaller side, and Welch-Satterthwaite's degrees of freedom from each side's variance
 * of its mean (the variance components), between min - 1 and nb + nn - 2
 */
static struct expansion welch_expansion(const struct hb_ratio *r)
{
	double nb = r->vbase.reps, nn = r->vnew.reps, a, b, df;

	if (nb < 2 || nn < 2)
		return (struct expansion){ 0, 0 };
	a = (r->vbase.between + r->vbase.within) / nb;
	b = (r->vnew.between + r->vnew.within) / nn;
	df = a + b > 0 ? (a + b) * (a + b) / (a * a / (nb - 1) + b * b / (nn - 1)) :
	     nb + nn - 2;
	return (struct expansion){ fmin(nb, nn), fmax(fmin(nb, nn) - 1, df) };
}

int judge_eval(const struct evidence *e, enum mstat stat, double margin, bool floor,
	       const struct judge_opts *o, struct judgement *j, double **d)
{
	struct hb_opts ho = { metric_stat_q[stat], o->iters, seed_of(o->seed, e, stat) };
	struct hb_ratio r;
	struct claims c;
	int ret;

	*d = NULL;
	judge_init(e, ho.q, margin, floor, j);
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
	if (!enough_tail(e, ho.q, o, j))
		return 0;
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
	j->x = e->paired ? paired_expansion(&e->side[EV_BASE]) : welch_expansion(&r);
	verdict_claims(r.d, r.iters, log1p(margin), &j->x, &c);
	if (e->paired && ho.q >= SWAP_Q) {
		ret = tail_claims(e, &ho, margin, j, &c);
		if (ret) {
			hb_ratio_free(&r);
			return ret;
		}
	}
	memcpy(j->pc, c.p, sizeof(j->pc));
	j->claim = c.best;
	j->p = c.p[c.best];
	j->vb = r.vbase;
	j->vn = r.vnew;
	if (e->paired) {
		/*
		 * one variance for the pair: split evenly over the sides, each block of n a
		 * "repetition", so that verdict_reps_needed answers in blocks
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

void judge_t_claims(double d0, double se, double df, double margin, struct judgement *j)
{
	double m = log1p(margin);

	j->se = se;
	j->df = df;
	j->pc[CLAIM_WORSE] = t_cdf(-(d0 - m) / se, df);
	j->pc[CLAIM_BETTER] = t_cdf((d0 + m) / se, df);
	j->pc[CLAIM_SAME] = fmax(t_cdf((d0 - m) / se, df), t_cdf(-(d0 + m) / se, df));
	j->pc[CLAIM_HIGHER] = t_cdf(-d0 / se, df);
	j->pc[CLAIM_LOWER] = t_cdf(d0 / se, df);
	j->claim = best_of(j->pc);
	j->p = j->pc[j->claim];
}

int judge_eval_runs(const struct evidence *e, enum mstat stat, double margin,
		    const struct noise_floor *nf, const struct judge_opts *o,
		    struct judgement *j)
{
	double q = metric_stat_q[stat];

	judge_init(e, q, margin, false, j);
	j->runs_unit = true;
	if (stat == MST_MAX) {
		j->v = V_INFO;
		return 0;
	}
	if (!enough_tail(e, q, o, j))
		return 0;
	if (!(j->ratio > 0)) {
		snprintf(j->why, sizeof(j->why), "a statistic is 0: no ratio");
		return 0;
	}
	if (nf->runs < 3 || !(nf->sd > 0)) {
		snprintf(j->why, sizeof(j->why), "the calibration has no spread of this metric "
			 "between runs (%u run%s): cannot tell", nf->runs, nf->runs == 1 ? "" : "s");
		return 0;
	}
	/* two runs, each one draw of the host's run-to-run spread */
	j->x = expansion_blocks(nf->runs);
	judge_t_claims(log(j->ratio), nf->sd * M_SQRT2, nf->runs - 1, margin, j);
	return 0;
}

/* mean_sd - mean and sd of n values (sd NaN for n < 2) */
static void mean_sd(const double *v, size_t n, double *mean, double *sd)
{
	double m = 0, ss = 0;
	size_t i;

	for (i = 0; i < n; i++)
		m += v[i];
	m /= (double)(n ? n : 1);
	for (i = 0; i < n; i++)
		ss += (v[i] - m) * (v[i] - m);
	*mean = m;
	*sd = n > 1 ? sqrt(ss / (double)(n - 1)) : NAN;
}

int judge_eval_sets(const double *vb, size_t nb, const double *vn, size_t nn, bool paired,
		    double margin, const struct judge_opts *o, struct judgement *j)
{
	double lb[STATS_MAX_N] = { 0 }, ln[STATS_MAX_N] = { 0 }, d[STATS_MAX_N] = { 0 };
	double mb, sb, mn, sn, md, sd;
	size_t i, kb = 0, kn = 0, kd = 0;

	memset(j, 0, sizeof(*j));
	j->v = V_CANNOT_TELL;
	j->ratio = j->lo = j->hi = j->p = j->level = j->mdc = j->base = j->new = NAN;
	j->margin = margin;
	j->more = -1;
	j->runs_unit = true;
	j->paired = paired;
	(void)o;
	if (nb > STATS_MAX_N || nn > STATS_MAX_N)
		return -EINVAL;
	for (i = 0; i < nb; i++)
		if (vb[i] > 0)
			lb[kb++] = log(vb[i]);
	for (i = 0; i < nn; i++)
		if (vn[i] > 0)
			ln[kn++] = log(vn[i]);
	for (i = 0; paired && i < nb && i < nn; i++)
		if (vb[i] > 0 && vn[i] > 0)
			d[kd++] = log(vn[i]) - log(vb[i]);
	j->nb = (uint32_t)kb;
	j->nn = (uint32_t)kn;
	mean_sd(lb, kb, &mb, &sb);
	mean_sd(ln, kn, &mn, &sn);
	if (kb)
		j->base = exp(mb);
	if (kn)
		j->new = exp(mn);
	if (paired ? kd < 2 : kb < 2 || kn < 2) {
		snprintf(j->why, sizeof(j->why), paired ? "%zu pairs of runs with data: need 2" :
			 "%zu vs %zu runs with data: need 2 on each side to see how runs differ",
			 paired ? kd : kb, kn);
		if (kb && kn)
			j->ratio = exp(mn - mb);
		return 0;
	}
	if (paired) {
		/* each pair ran in the same stretch of the lab: their differences are the unit */
		mean_sd(d, kd, &md, &sd);
		j->ratio = exp(md);
		if (!(sd > 0)) {
			snprintf(j->why, sizeof(j->why), "the %zu pairs differ by exactly the same: "
				 "no spread to judge against", kd);
			return 0;
		}
		judge_t_claims(md, sd / sqrt((double)kd), (double)kd - 1, margin, j);
		return 0;
	}
	/* Welch's t on the runs' log figures */
	{
		double a = sb * sb / (double)kb, b = sn * sn / (double)kn, se = sqrt(a + b), df;

		j->ratio = exp(mn - mb);
		if (!(se > 0)) {
			snprintf(j->why, sizeof(j->why), "every run of both sides has the same "
				 "figure: no spread to judge against");
			return 0;
		}
		df = (a + b) * (a + b) / (a * a / ((double)kb - 1) + b * b / ((double)kn - 1));
		judge_t_claims(mn - mb, se, df, margin, j);
	}
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

/*
 * interval_at - j's ratio interval with a at each end: its bootstrap replicates, or,
 * runs as the unit (d NULL), Student's t
 */
static void interval_at(struct judgement *j, const double *d, unsigned int n, double a)
{
	double t, d0 = log(j->ratio);

	if (d) {
		verdict_interval(d, n, a, &j->x, &j->lo, &j->hi);
		return;
	}
	t = t_quantile(1 - a, j->df);
	j->lo = exp(d0 - t * j->se);
	j->hi = exp(d0 + t * j->se);
}

/*
 * runs_needed - runs as the unit: about how many runs a side a comparison of sets of
 * runs would need to decide it, if the spread stays as calibrated: the first k whose
 * interval, t on the larger of the calibration's and the sets' own degrees of
 * freedom, fits the room left (-1: none up to MORE_MAX)
 */
static long runs_needed(const struct judgement *j, double tail)
{
	double room = fabs(fabs(log(j->ratio)) - log1p(j->margin)), sd = j->se / M_SQRT2;
	long lo = 2, hi = MORE_MAX;

	if (room < 1e-3 || !(sd > 0))
		return -1;
	/* the half-width falls with k: the first k that fits, by halving */
	if (t_quantile(1 - tail, fmax(j->df, 2.0 * hi - 2)) * sd * sqrt(2.0 / hi) > room)
		return -1;
	while (lo < hi) {
		long k = lo + (hi - lo) / 2;

		if (t_quantile(1 - tail, fmax(j->df, 2.0 * k - 2)) * sd * sqrt(2.0 / k) <= room)
			hi = k;
		else
			lo = k + 1;
	}
	return lo;
}

/*
 * why_cannot - the reason a metric stays undecided, with what would decide it: the
 * nearest claim's p and level, and the level at each end of its interval (tail)
 */
static void why_cannot(struct judgement *j, const double *d, unsigned int n, double p,
		       double level, double tail, const char *shift,
		       const struct judge_opts *o)
{
	double m = log1p(j->margin), d0 = log(j->ratio);
	const char *unit = j->paired ? "block" : "repetition";

	j->v = V_CANNOT_TELL;
	if (j->margin_default) {
		snprintf(j->why, sizeof(j->why), "cannot tell without a calibration (the "
			 "uncalibrated floor between runs is x%.3g): calibrate the host "
			 "(baseline calibrate) or compare sets of runs", 1 + j->margin);
		return;
	}
	if (!d) {
		long k = runs_needed(j, tail);

		if (k > 0)
			snprintf(j->why, sizeof(j->why), "p %.2g > %.2g between two runs, their "
				 "spread calibrated: about %ld runs a side (compare sets of runs) "
				 "would decide", p, level, k);
		else
			snprintf(j->why, sizeof(j->why), "p %.2g > %.2g between two runs, their "
				 "spread calibrated: the change is too close to the margin for under "
				 "%d runs a side to decide", p, level, MORE_MAX);
		return;
	}
	j->more = verdict_reps_needed(&j->vb, &j->vn, var_of(d, n), d0, m, tail, o->base_fixed);
	if (j->more > MORE_MAX)
		snprintf(j->why, sizeof(j->why), "p %.2g > %.2g: the change is too close to the "
			 "margin (%.3g) for under %d more %ss to decide%s", p,
			 level, 1 + j->margin, MORE_MAX, unit, shift);
	else if (j->more > 0)
		snprintf(j->why, sizeof(j->why), "p %.2g > %.2g: about %ld more %s%s%s "
			 "would decide%s", p, level, j->more, unit, j->more > 1 ? "s" : "",
			 j->paired ? "" : o->base_fixed ? " of new" : " per side", shift);
	else if (j->more == 0)
		snprintf(j->why, sizeof(j->why), "p %.2g > %.2g: on the edge; a few more "
			 "%ss%s", p, level, unit, shift);
	else
		snprintf(j->why, sizeof(j->why), "p %.2g > %.2g: the change is about the margin "
			 "(%.3g); more %ss will not decide it%s", p, level,
			 1 + j->margin, unit, shift);
}

/*
 * decide - the verdict of one evaluated metric, given which of its claims stand: the
 * side claim (worse / better beyond the margin) at level side_level, "no change" at
 * alpha, the direction at dir_level (two-sided)
 */
static void decide(struct judgement *j, const double *d, unsigned int n, bool side,
		   double side_level, bool same, double alpha, bool dir, double dir_level,
		   const struct judge_opts *o)
{
	enum claim sc = j->pc[CLAIM_WORSE] <= j->pc[CLAIM_BETTER] ? CLAIM_WORSE : CLAIM_BETTER;
	enum claim dc = j->pc[CLAIM_HIGHER] <= j->pc[CLAIM_LOWER] ? CLAIM_HIGHER : CLAIM_LOWER;
	char shift[64] = "";

	if (j->shifted)
		snprintf(shift, sizeof(shift), "; %u repetition(s) shift level inside",
			 j->shifted);
	else if (j->swap_test)
		snprintf(shift, sizeof(shift), "; tail from %u and %u of %u blocks, label-swap "
			 "tested", j->tail_blocks[EV_BASE], j->tail_blocks[EV_NEW], j->nb);
	if (side) {
		/* two-sided: worse or better, each at half the level */
		j->claim = sc;
		j->p = fmin(1, 2 * j->pc[sc]);
		j->level = side_level;
		j->v = sc == CLAIM_WORSE ? V_WORSE : V_BETTER;
		interval_at(j, d, n, j->level / 2);
		snprintf(j->why, sizeof(j->why), "interval beyond the margin: p %.2g <= %.2g%s",
			 j->p, j->level, shift);
		return;
	}
	if (same) {
		j->claim = CLAIM_SAME;
		j->p = j->pc[CLAIM_SAME];
		j->level = alpha;
		j->v = V_NO_CHANGE;
		interval_at(j, d, n, j->level);
		snprintf(j->why, sizeof(j->why), "interval inside the margin: p %.2g <= %.2g%s",
			 j->p, j->level, shift);
		return;
	}
	if (dir) {
		/* two-sided: each direction at half the level */
		j->claim = dc;
		j->p = fmin(1, 2 * j->pc[dc]);
		j->level = dir_level;
		j->v = dc == CLAIM_HIGHER ? V_HIGHER : V_LOWER;
		interval_at(j, d, n, j->level / 2);
		snprintf(j->why, sizeof(j->why), "%s by %.0f-%.0f%%, which may lie within the "
			 "%.0f%% margin: p %.2g <= %.2g%s", dc == CLAIM_HIGHER ? "worse" : "better",
			 100 * fabs(dc == CLAIM_HIGHER ? j->lo - 1 : 1 - j->hi),
			 100 * fabs(dc == CLAIM_HIGHER ? j->hi - 1 : 1 - j->lo), 100 * j->margin,
			 j->p, j->level, shift);
		return;
	}
	/*
	 * undecided: every metric is a member of the family, held to its side claim's
	 * level, and its interval is shown there; the reason names the claim that came
	 * closest (no change at alpha, or the side claim)
	 */
	j->claim = sc;
	j->p = fmin(1, 2 * j->pc[sc]);
	j->level = side_level;
	interval_at(j, d, n, side_level / 2);
	if (j->pc[CLAIM_SAME] < j->p)
		why_cannot(j, d, n, j->pc[CLAIM_SAME], alpha, alpha, shift, o);
	else
		why_cannot(j, d, n, j->p, side_level, side_level / 2, shift, o);
}

/* mdc_of - the smallest change decided with a at each end, from the interval there */
static double mdc_of(struct judgement *j, const double *d, unsigned int n, double a)
{
	double lo = j->lo, hi = j->hi, mdc;

	interval_at(j, d, n, a);
	mdc = (1 + j->margin) * exp((log(j->hi) - log(j->lo)) / 2) - 1;
	j->lo = lo;
	j->hi = hi;
	return mdc;
}

/*
 * side_p - a metric's side claim: worse or better beyond the margin, two-sided (the
 * nearer one at half the level). One-sided claims each at the full level would be
 * wrong up to twice as often where the noise dwarfs the margin: simulated p99s under
 * stalls, A/A, made a claim on either side in 6% of runs at alpha 5%.
 */
static double side_p(const struct judgement *j)
{
	return fmin(1, 2 * fmin(j->pc[CLAIM_WORSE], j->pc[CLAIM_BETTER]));
}

/*
 * dir_p - its direction, two-sided; "beyond the margin" implies the direction, so the
 * direction is never harder to claim than the side claim
 */
static double dir_p(const struct judgement *j)
{
	return fmin(side_p(j), fmin(1, 2 * fmin(j->pc[CLAIM_HIGHER], j->pc[CLAIM_LOWER])));
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
	 * Every metric judged is one hypothesis of the family, its side claim (worse or
	 * better beyond the margin): Holm over all of them, so that the chance of any
	 * wrong "worse" or "better" is at most alpha whatever the data. A direction
	 * (higher, lower) is nested in its side claim; the closed test of it is Holm over
	 * the same family with the metric's own p replaced by its direction's (verdict_holm_with),
	 * which keeps every wrong claim, side or direction, inside the same alpha.
	 * "no change" claims stand on their own at alpha: an equivalence test risks only
	 * missing a change beyond the margin, at most alpha for each metric (the two
	 * one-sided tests of bioequivalence).
	 */
	for (i = 0; i < n; i++) {
		if (isnan(j[i]->p))
			continue;
		at[m] = i;
		p[m++] = side_p(j[i]);
	}
	ret = verdict_holm(p, m, alpha, rej, level);
	if (ret < 0)
		goto out;
	for (i = 0; i < m; i++) {
		struct judgement *x = j[at[i]];
		/* between runs without a calibration, their spread is unknown: no equivalence */
		bool same = !rej[i] && x->pc[CLAIM_SAME] <= alpha && !x->margin_default;
		double dl = level[i];
		int dir = 0;

		/* nor a direction: the spread inside the runs is not their spread */
		if (!rej[i] && !same && !x->margin_default) {
			dir = verdict_holm_with(p, m, alpha, i, dir_p(x), &dl);
			if (dir < 0) {
				ret = dir;
				goto out;
			}
		}
		/* what it would decide alone in the family, at the strictest level */
		x->mdc = mdc_of(x, d[at[i]], o->iters, alpha / (double)m / 2);
		decide(x, d[at[i]], o->iters, rej[i], level[i], same, alpha, dir, dl, o);
	}
	ret = 0;
out:
	free(p);
	free(level);
	free(at);
	free(rej);
	return ret;
}
