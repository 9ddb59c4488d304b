// SPDX-License-Identifier: GPL-2.0
/*
 * test_verdict.c - the statistics behind every verdict, on synthetic data with known
 * truth: the two-level bootstrap (hboot.c), the three claims against a margin and
 * Holm (verdict.c), the looks of an adaptive run, repetitions needed, level shifts.
 *
 * The data imitate a run: repetitions with their own level (between-repetition noise),
 * intervals with theirs (within), log-normal latencies inside. Simulations are seeded:
 * the same numbers every time, so the rates asserted below are facts about this code,
 * not chances of a flaky test.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "cumhist.h"
#include "hboot.h"
#include "hist.h"
#include "hswap.h"
#include "stats.h"
#include "verdict.h"

/* Every bucket of hist.h is a domain entry: index i stands for bucket i's midpoint. */
static double dom_val[HIST_BUCKETS];
static const struct hb_domain dom = { dom_val, HIST_BUCKETS };

static void dom_init(void)
{
	unsigned int i;

	for (i = 0; i < HIST_BUCKETS; i++)
		dom_val[i] = (double)hist_bucket_lo(i) + (double)(hist_bucket_width(i) / 2);
}

/* gauss - a standard normal draw (Box-Muller on stats_splitmix64) */
static double gauss(uint64_t *rng)
{
	double u = ((stats_splitmix64(rng) >> 11) + 0.5) / 9007199254740992.0;
	double v = ((stats_splitmix64(rng) >> 11) + 0.5) / 9007199254740992.0;

	return sqrt(-2 * log(u)) * cos(2 * M_PI * v);
}

struct sim {
	double mu;		/* log of the median latency (ns) */
	double sd;		/* of samples, log scale */
	double between;		/* sd of a repetition's level */
	double within;		/* sd of an interval's level */
	unsigned int reps, ivals, samples;	/* per side, per repetition, per interval */
};

/* A side's storage: reps x ivals sparse intervals. */
struct side_buf {
	struct hb_side side;
	struct hb_rep rep[16];
	struct hb_ival iv[16 * 16];
	uint32_t idx[16 * 16][HIST_BUCKETS];
	uint64_t cnt[16 * 16][HIST_BUCKETS];
};

/*
 * make_rep - repetition r of b: s->ivals intervals around log level lr, which grows by
 * slope (log) from the first interval to the last
 */
static void make_rep(struct side_buf *b, const struct sim *s, unsigned int r, double lr,
		     double slope, uint64_t *rng)
{
	uint64_t dense[HIST_BUCKETS];
	unsigned int i, k, j;

	b->rep[r].iv = &b->iv[r * s->ivals];
	b->rep[r].n = s->ivals;
	for (i = 0; i < s->ivals; i++) {
		struct hb_ival *x = &b->iv[r * s->ivals + i];
		double li = lr + s->within * gauss(rng) +
			    (s->ivals > 1 ? slope * i / (s->ivals - 1) : 0);

		memset(dense, 0, sizeof(dense));
		for (k = 0; k < s->samples; k++)
			dense[hist_index((uint64_t)exp(li + s->sd * gauss(rng)))]++;
		x->idx = b->idx[r * s->ivals + i];
		x->cnt = b->cnt[r * s->ivals + i];
		x->n = 0;
		x->total = s->samples;
		for (j = 0; j < HIST_BUCKETS; j++)
			if (dense[j]) {
				x->idx[x->n] = j;
				x->cnt[x->n++] = dense[j];
			}
	}
}

/* make_side - a side drawn from sim with its median scaled by factor */
static void make_side(struct side_buf *b, const struct sim *s, double factor, uint64_t *rng)
{
	unsigned int r;

	b->side.rep = b->rep;
	b->side.n = s->reps;
	for (r = 0; r < s->reps; r++)
		make_rep(b, s, r, s->mu + log(factor) + s->between * gauss(rng), 0, rng);
}

static struct side_buf *bufs;

static int setup(void **state)
{
	(void)state;
	dom_init();
	bufs = calloc(2, sizeof(*bufs));
	return bufs ? 0 : -1;
}

static int teardown(void **state)
{
	(void)state;
	free(bufs);
	return 0;
}

/* decide - the claim that stands for one metric at level a, or CLAIM_NR */
static enum claim decide(const struct sim *s, double factor, double margin, double a,
			 uint64_t *rng, unsigned int iters)
{
	struct hb_opts o = { 0.99, iters, stats_splitmix64(rng) };
	struct hb_ratio r;
	struct claims c;

	make_side(&bufs[0], s, 1, rng);
	make_side(&bufs[1], s, factor, rng);
	assert_int_equal(hb_ratio(&dom, &bufs[0].side, &bufs[1].side, &o, &r), 0);
	verdict_claims(r.d, r.iters, log1p(margin), &(struct expansion){ s->reps, s->reps - 1 }, &c);
	hb_ratio_free(&r);
	return c.p[c.best] <= a ? c.best : CLAIM_NR;
}

static const struct sim noisy = { log(50e3), 0.6, 0.15, 0.10, 5, 5, 300 };

/*
 * make_paired - the blocks of an alternating run in bufs[0] (base) and bufs[1] (new):
 * block r has a level of its own (the machine's minutes: s->between), shared by both
 * sides, and each side's phase in it a level of its own (s->within); new's median is
 * scaled by factor
 */
static void make_paired(const struct sim *s, double factor, uint64_t *rng)
{
	unsigned int r, k;

	for (k = 0; k < 2; k++) {
		bufs[k].side.rep = bufs[k].rep;
		bufs[k].side.n = s->reps;
	}
	for (r = 0; r < s->reps; r++) {
		double level = s->mu + s->between * gauss(rng);

		make_rep(&bufs[0], s, r, level, 0, rng);
		make_rep(&bufs[1], s, r, level + log(factor), 0, rng);
	}
}

/* decide_paired - the claim at level a on paired blocks, resampled paired or not */
static enum claim decide_paired(const struct sim *s, double factor, double margin, double a,
				uint64_t *rng, bool paired)
{
	struct hb_opts o = { 0.9, 400, stats_splitmix64(rng) };
	struct hb_ratio r;
	struct claims c;

	make_paired(s, factor, rng);
	if (paired)
		assert_int_equal(hb_ratio_paired(&dom, &bufs[0].side, &bufs[1].side, &o, &r), 0);
	else
		assert_int_equal(hb_ratio(&dom, &bufs[0].side, &bufs[1].side, &o, &r), 0);
	verdict_claims(r.d, r.iters, log1p(margin), &(struct expansion){ s->reps, s->reps - 1 }, &c);
	hb_ratio_free(&r);
	return c.p[c.best] <= a ? c.best : CLAIM_NR;
}

/* Blocks whose levels drift by 40% while the arms differ by 3% within a phase. */
static const struct sim drifting = { log(50e3), 0.6, 0.40, 0.03, 16, 3, 300 };

/*
 * test_paired_aa - alternating arms that are the same: wrong claims within alpha, and
 * "no change" within 10% nearly always, although the blocks' levels drift far more
 */
static void test_paired_aa(void **state)
{
	uint64_t rng = 11;
	int i, wrong = 0, same = 0;

	(void)state;
	for (i = 0; i < 100; i++) {
		enum claim c = decide_paired(&drifting, 1.0, 0.10, 0.05, &rng, true);

		wrong += c == CLAIM_WORSE || c == CLAIM_BETTER;
		same += c == CLAIM_SAME;
	}
	print_message("paired A/A: %d of 100 wrong claims, %d 'no change'\n", wrong, same);
	assert_true(wrong <= 5);
	assert_true(same >= 90);
}

/*
 * test_paired_power - a 20% slower p90: decided "worse" from paired blocks nearly
 * always; the same blocks resampled unpaired (the drift counted as noise) rarely decide
 */
static void test_paired_power(void **state)
{
	uint64_t rng = 5;
	int i, paired = 0, unpaired = 0, better = 0;

	(void)state;
	for (i = 0; i < 50; i++) {
		uint64_t again = rng;
		enum claim c = decide_paired(&drifting, 1.2, 0.10, 0.05, &rng, true);

		paired += c == CLAIM_WORSE;
		better += c == CLAIM_BETTER;
		unpaired += decide_paired(&drifting, 1.2, 0.10, 0.05, &again, false) == CLAIM_WORSE;
	}
	print_message("x1.2: paired %d of 50 'worse', unpaired %d\n", paired, unpaired);
	assert_true(paired >= 45);
	assert_true(unpaired <= 10);
	assert_int_equal(better, 0);
}

/* ends_claim - one side of blocks whose phases grow by growth: late against early */
static enum claim ends_claim(const struct sim *s, double growth, uint64_t *rng)
{
	struct hb_rep er[16], lr[16];
	struct hb_side early = { er, 0 }, late = { lr, 0 };
	struct hb_opts o = { 0.9, 400, stats_splitmix64(rng) };
	struct hb_ratio r;
	struct claims c;
	unsigned int b;

	bufs[0].side.rep = bufs[0].rep;
	bufs[0].side.n = s->reps;
	for (b = 0; b < s->reps; b++)
		make_rep(&bufs[0], s, b, s->mu + s->between * gauss(rng), log(growth), rng);
	hb_side_ends(&bufs[0].side, &early, &late);
	assert_int_equal(hb_ratio_paired(&dom, &early, &late, &o, &r), 0);
	verdict_claims(r.d, r.iters, log1p(0.10), &(struct expansion){ s->reps, s->reps - 1 }, &c);
	hb_ratio_free(&r);
	return c.p[c.best] <= 0.05 ? c.best : CLAIM_NR;
}

/*
 * test_side_ends - a phase's end against its start (steady.h): the first and last third
 * of each block's intervals (one each under six, none under two); phases that grow by
 * half from their first interval to their last are decided "worse", steady ones "no
 * change", although the blocks' levels drift by 40%
 */
static void test_side_ends(void **state)
{
	const struct sim s = { log(50e3), 0.6, 0.40, 0.03, 16, 6, 300 };
	struct hb_ival iv[7];
	struct hb_rep reps[3] = { { iv, 7 }, { iv, 3 }, { iv, 1 } }, er[3], lr[3];
	struct hb_side side = { reps, 3 }, early = { er, 0 }, late = { lr, 0 };
	uint64_t rng = 23;
	int i, moved = 0, still = 0, wrong = 0;

	(void)state;
	hb_side_ends(&side, &early, &late);
	assert_int_equal(early.n, 3);
	assert_int_equal(late.n, 3);
	assert_ptr_equal(er[0].iv, iv);
	assert_int_equal(er[0].n, 2);
	assert_ptr_equal(lr[0].iv, iv + 5);
	assert_int_equal(lr[0].n, 2);
	assert_ptr_equal(lr[1].iv, iv + 2);
	assert_int_equal(lr[1].n, 1);
	assert_int_equal(er[2].n, 0);
	assert_int_equal(lr[2].n, 0);
	for (i = 0; i < 30; i++) {
		enum claim g = ends_claim(&s, 1.5, &rng), f = ends_claim(&s, 1.0, &rng);

		moved += g == CLAIM_WORSE;
		still += f == CLAIM_SAME;
		wrong += f == CLAIM_WORSE || f == CLAIM_BETTER || g == CLAIM_BETTER;
	}
	print_message("phase ends: grown by half %d of 30 'worse', steady %d 'no change', "
		      "%d wrong\n", moved, still, wrong);
	assert_true(moved >= 27);
	assert_true(still >= 27);
	assert_true(wrong <= 1);
}

/* the percentile of merged intervals: nearest rank over the domain */
static void test_stat(void **state)
{
	uint32_t idx[3] = { hist_index(1000), hist_index(2000), hist_index(4000) };
	uint64_t cnt[3] = { 50, 49, 1 };
	struct hb_ival iv = { 3, idx, cnt, 100 };
	struct hb_rep rep = { &iv, 1 };
	struct hb_side side = { &rep, 1 };

	(void)state;
	assert_true(fabs(hb_stat(&dom, &side, 0.5) - dom_val[idx[0]]) < 1e-9);
	assert_true(fabs(hb_stat(&dom, &side, 0.51) - dom_val[idx[1]]) < 1e-9);
	assert_true(fabs(hb_stat(&dom, &side, 0.99) - dom_val[idx[1]]) < 1e-9);
	assert_true(fabs(hb_stat(&dom, &side, 0.999) - dom_val[idx[2]]) < 1e-9);
	assert_int_equal(hb_count(&side), 100);
}

/* p-values of the three claims from replicates whose truth is plain */
static void test_claims(void **state)
{
	double d[999];
	struct claims c;
	unsigned int i;

	(void)state;
	for (i = 0; i < 999; i++)
		d[i] = log(2) + (i - 499.0) * 1e-4;	/* about x2, tight */
	verdict_claims(d, 999, log1p(0.10), NULL, &c);
	assert_int_equal(c.best, CLAIM_WORSE);
	/* no replicate near the margin: the p-value comes from the normal tail, tiny */
	assert_true(c.p[CLAIM_WORSE] < 1e-9);
	assert_true(c.p[CLAIM_SAME] > 0.99 && c.p[CLAIM_BETTER] > 0.99);
	for (i = 0; i < 999; i++)
		d[i] = (i - 499.0) * 1e-4;		/* about x1: inside a 10% margin */
	verdict_claims(d, 999, log1p(0.10), NULL, &c);
	assert_int_equal(c.best, CLAIM_SAME);
	/* the normal tail beyond 3.3 sd: below the empirical bound 1 / 1000 */
	assert_true(c.p[CLAIM_SAME] < 1.0 / 1000 && c.p[CLAIM_SAME] > 1e-5);
	/* one replicate beyond: the empirical (1 + 1) / (999 + 1) */
	d[998] = log1p(0.10) + 1e-6;
	verdict_claims(d, 999, log1p(0.10), NULL, &c);
	assert_true(fabs(c.p[CLAIM_SAME] - 2.0 / 1000) < 1e-12);
	/* exactly half the replicates beyond the margin: nothing can be claimed */
	for (i = 0; i < 999; i++)
		d[i] = log1p(0.10) + (i - 499.0) * 1e-4;
	verdict_claims(d, 999, log1p(0.10), NULL, &c);
	assert_true(c.p[c.best] > 0.4);
}

/* Holm's step-down on the textbook example */
static void test_holm(void **state)
{
	const double p[] = { 0.01, 0.04, 0.03, 0.005 };
	double level[4];
	bool rej[4];

	(void)state;
	/* sorted: 0.005 <= 0.05/4, 0.01 <= 0.05/3, 0.03 > 0.05/2: stop */
	assert_int_equal(verdict_holm(p, 4, 0.05, rej, level), 2);
	assert_true(rej[0] && rej[3]);
	assert_false(rej[1] || rej[2]);
	assert_true(fabs(level[3] - 0.0125) < 1e-12);
	assert_true(fabs(level[0] - 0.05 / 3) < 1e-12);
	assert_true(fabs(level[2] - 0.025) < 1e-12);
	/* all small: all stand (Bonferroni would have kept 0.04 out) */
	assert_int_equal(verdict_holm((const double[]){ 0.01, 0.012, 0.04 }, 3, 0.05, rej, NULL), 3);
}

/*
 * A/A: with nothing changed, the chance that a "worse" or "better" claim stands must
 * stay within alpha. 200 simulated comparisons at a = 0.05: at most 10 expected; the
 * seed makes the count a fixed number, asserted with room for the bootstrap's
 * approximation (it tends to be conservative with few repetitions).
 */
static void test_aa_false_alarms(void **state)
{
	uint64_t rng = 42;
	int i, wrong = 0, same = 0;

	(void)state;
	for (i = 0; i < 200; i++) {
		enum claim c = decide(&noisy, 1.0, 0.10, 0.05, &rng, 400);

		wrong += c == CLAIM_WORSE || c == CLAIM_BETTER;
		same += c == CLAIM_SAME;
	}
	print_message("A/A: %d of 200 wrong claims, %d 'no change'\n", wrong, same);
	assert_true(wrong <= 10);
	/*
	 * and with a margin well above the noise, "no change" is what it says (most of the
	 * time: five repetitions are read with Student's t on 4 degrees of freedom)
	 */
	for (i = same = 0; i < 100; i++)
		same += decide(&noisy, 1.0, 0.50, 0.05, &rng, 400) == CLAIM_SAME;
	print_message("A/A, margin 50%%: %d of 100 'no change'\n", same);
	assert_true(same >= 70);
}

/*
 * power: a 1.6x slower p99 with this noise is "worse" most of the time from five
 * repetitions a side (read with t on 4 degrees of freedom), never "better"
 */
static void test_power(void **state)
{
	uint64_t rng = 7;
	int i, worse = 0, better = 0;

	(void)state;
	for (i = 0; i < 100; i++) {
		enum claim c = decide(&noisy, 1.6, 0.10, 0.05, &rng, 400);

		worse += c == CLAIM_WORSE;
		better += c == CLAIM_BETTER;
	}
	print_message("x1.6: %d of 100 'worse'\n", worse);
	assert_true(worse >= 80);
	assert_int_equal(better, 0);
}

/*
 * The looks of an adaptive run: K looks at growing data, each at a / K, stopping at
 * the first claim. Wrong claims over the whole sequence stay within a.
 */
static void test_looks(void **state)
{
	const unsigned int looks = 4;
	uint64_t rng = 99;
	int i, wrong = 0;

	(void)state;
	for (i = 0; i < 150; i++) {
		struct sim s = noisy;
		unsigned int k;

		for (k = 0; k < looks; k++, s.reps += 2) {
			enum claim c = decide(&s, 1.0, 0.10, 0.05 / looks, &rng, 400);

			if (c == CLAIM_WORSE || c == CLAIM_BETTER)
				wrong++;
			if (c != CLAIM_NR)
				break;
		}
	}
	print_message("4 looks, A/A: %d of 150 sequences with a wrong claim\n", wrong);
	assert_true(wrong <= 8);
}

/* variance components: between-repetition noise is told from interval noise */
static void test_variance_components(void **state)
{
	struct sim reps = noisy, ivals = noisy;
	struct hb_opts o = { 0.5, 200, 3 };
	struct hb_var v1, v2;
	uint64_t rng = 5;

	(void)state;
	reps.reps = ivals.reps = 12;
	reps.between = 0.30;
	reps.within = 0.0;
	ivals.between = 0.0;
	ivals.within = 0.30;
	make_side(&bufs[0], &reps, 1, &rng);
	assert_int_equal(hb_variance(&dom, &bufs[0].side, &o, &v1), 0);
	make_side(&bufs[1], &ivals, 1, &rng);
	assert_int_equal(hb_variance(&dom, &bufs[1].side, &o, &v2), 0);
	print_message("between-only: %.4f/%.4f, within-only: %.4f/%.4f\n", v1.between,
		      v1.within, v2.between, v2.within);
	/* 0.3^2 = 0.09 between repetitions in the first, nearly none in the second */
	assert_true(v1.between > 0.03 && v1.between < 0.2);
	assert_true(v1.between > 5 * v1.within);
	assert_true(v2.between < 0.5 * v1.between);
	assert_true(v2.within > 2 * v1.within);
	assert_int_equal(v1.reps, 12);
}

/* repetitions needed: the normal approximation, solved by hand */
static void test_reps_needed(void **state)
{
	struct hb_var v = { .between = 0.04, .within = 0.01, .reps = 5, .ivals = 5 };
	long k;

	(void)state;
	/*
	 * d0 = 0, m = log(1.1) = 0.0953, a = 0.025 (z 1.96): need 2 x 0.05 / n <= (0.0953 /
	 * 1.96)^2 = 0.002364, n >= 42.3: 38 more per side
	 */
	k = verdict_reps_needed(&v, &v, NAN, 0, log1p(0.10), 0.025, false);
	assert_true(k >= 37 && k <= 39);
	/* on the margin no number of repetitions decides */
	assert_int_equal(verdict_reps_needed(&v, &v, NAN, log1p(0.10), log1p(0.10), 0.025, false), -1);
	/* far beyond it, none are needed */
	assert_int_equal(verdict_reps_needed(&v, &v, NAN, log(3), log1p(0.10), 0.025, false), 0);
	/* a fixed baseline whose own uncertainty is too large cannot be outgrown */
	assert_int_equal(verdict_reps_needed(&v, &v, NAN, 0.05, log1p(0.10), 0.025, true), -1);
	assert_true(fabs(verdict_z_upper(0.025) - 1.959964) < 1e-5);
	/* replicates four times as spread as the components say: four times the repetitions */
	k = verdict_reps_needed(&v, &v, 4 * 2 * 0.05 / 5, 0, log1p(0.10), 0.025, false);
	assert_true(k >= 4 * 42 - 5 - 2 && k <= 4 * 43 - 5 + 2);
}

/* a repetition that changes level half-way is flagged; a steady one is not */
static void test_level_shift(void **state)
{
	struct sim s = noisy;
	uint64_t rng = 11;
	uint32_t at, i;
	double shift, p;

	(void)state;
	s.reps = 1;
	s.ivals = 12;
	s.within = 0.02;
	make_side(&bufs[0], &s, 1, &rng);
	p = hb_level_shift(&dom, &bufs[0].rep[0], 0.5, 999, 1, &at, &shift);
	assert_true(p > 0.05);
	/* the last 6 intervals twice as slow */
	for (i = 6; i < 12; i++) {
		struct hb_ival *x = &bufs[0].iv[i];
		uint32_t j;

		for (j = 0; j < x->n; j++)
			x->idx[j] = hist_index((uint64_t)(2 * dom_val[x->idx[j]]));
	}
	p = hb_level_shift(&dom, &bufs[0].rep[0], 0.5, 999, 1, &at, &shift);
	assert_true(p < 0.01);
	assert_int_equal(at, 6);
	assert_true(fabs(shift - log(2)) < 0.1);
}

/*
 * the expansion for few units (Hesterberg 2015): 10 blocks read the interval at level
 * 0.025 at Phi(-sqrt(10/9) t_9(0.975)) = Phi(-2.384) = 0.00856, and a share of 0.00856
 * beyond a bound is the p-value 0.025; no expansion is the identity
 */
static void test_expansion(void **state)
{
	struct expansion x = expansion_blocks(10);

	(void)state;
	assert_true(fabs(verdict_expand_level(0.025, &x) - 0.00856) < 5e-5);
	assert_true(fabs(verdict_expand_p(verdict_expand_level(0.025, &x), &x) - 0.025) < 1e-6);
	assert_true(fabs(verdict_expand_level(0.025, NULL) - 0.025) < 1e-15);
	assert_true(fabs(verdict_expand_p(0.01, NULL) - 0.01) < 1e-15);
	/* larger p-values for fewer units, never smaller */
	assert_true(verdict_expand_p(0.01, &(struct expansion){ 3, 2 }) > verdict_expand_p(0.01, &x));
	assert_true(verdict_expand_p(0.01, &x) > 0.01);
	/* tiny shares do not cancel to 0 */
	assert_true(verdict_expand_p(1e-200, &x) > 0);
}

/*
 * verdict_holm_with - the closed test of a direction: metric i's p replaced by its direction's,
 * the rest of the family as it is
 */
static void test_holm_with(void **state)
{
	const double p[] = { 0.001, 0.5, 0.6 };
	double level;

	(void)state;
	/* 0.001 <= 0.05/3, then 0.02 <= 0.05/2: stands, at 0.025 */
	assert_int_equal(verdict_holm_with(p, 3, 0.05, 1, 0.02, &level), 1);
	assert_true(fabs(level - 0.025) < 1e-12);
	/* 0.03 > 0.05/2: the step-down stops there */
	assert_int_equal(verdict_holm_with(p, 3, 0.05, 2, 0.03, &level), 0);
	/* first in the order: held to 0.05/3 */
	assert_int_equal(verdict_holm_with(p, 3, 0.05, 2, 0.0001, &level), 1);
	assert_true(fabs(level - 0.05 / 3) < 1e-12);
	/* a family that fails at its first step tries no one */
	assert_int_equal(verdict_holm_with((const double[]){ 0.5, 0.6 }, 2, 0.05, 0, 0.04, &level), 0);
}

/* cumhist_quantile - the percentile of the merged units, as hb_stat reads it */
static void test_cumhist(void **state)
{
	const struct sim s = { log(50e3), 0.6, 0.3, 0.1, 6, 3, 200 };
	uint32_t w[6] = { 1, 1, 1, 1, 1, 1 }, on[6] = { 0, 1, 2, 3, 4, 5 };
	const double qs[] = { 0.5, 0.9, 0.99 };
	struct cumhist ch;
	uint64_t rng = 3;
	unsigned int i;

	(void)state;
	make_side(&bufs[0], &s, 1, &rng);
	assert_int_equal(cumhist_build(&ch, bufs[0].rep, 6, UINT32_MAX, 0), 0);
	for (i = 0; i < 3; i++)
		assert_true(fabs(dom_val[cumhist_quantile(&ch, w, on, 6, qs[i])] -
				 hb_stat(&dom, &bufs[0].side, qs[i])) < 1e-9);
	/* a unit counted twice, another left out: the merge is what it says */
	w[2] = 2;
	w[5] = 0;
	assert_int_not_equal(cumhist_quantile(&ch, w, on, 6, 0.5), UINT32_MAX);
	assert_int_equal(cumhist_quantile(&ch, w, on, 0, 0.5), UINT32_MAX);
	cumhist_free(&ch);
}

/* naive_quantile - the nearest-rank q-percentile of the weighted merge, bucket by bucket */
static uint32_t naive_quantile(const struct hb_rep *reps, const uint32_t *wt, uint32_t n,
			       double q)
{
	uint64_t merged[64] = { 0 }, total = 0, rank, s = 0;
	uint32_t u, i, k, x;

	for (u = 0; u < n; u++)
		for (i = 0; i < reps[u].n; i++)
			for (k = 0; k < reps[u].iv[i].n; k++) {
				merged[reps[u].iv[i].idx[k]] += reps[u].iv[i].cnt[k] * wt[u];
				total += reps[u].iv[i].cnt[k] * wt[u];
			}
	rank = (uint64_t)ceil(q * (double)total);
	rank = rank < 1 ? 1 : rank;
	for (x = 0; x < 64 && (s += merged[x]) < rank; x++)
		;
	return x;
}

/*
 * cumhist_quantile's two ways - the drawn units' own buckets added (units of one sample:
 * a workload's samples) and the binary search (units of many buckets: blocks) - give
 * the naive merge's percentile, for any weights; the running sums the search reads are
 * made only for it
 */
static void test_cumhist_paths(void **state)
{
	enum { UNITS = 400, W = 64 };
	static uint32_t idx[UNITS][W], wt[UNITS], on[UNITS];
	static uint64_t cnt[UNITS][W], below[UNITS][W];
	static struct hb_ival iv[UNITS];
	static struct hb_rep reps[UNITS];
	const double qs[] = { 0.01, 0.5, 0.9, 0.99, 1.0 };
	uint64_t rng = 11;
	struct cumhist ch;
	uint32_t u, k, b, non;
	int wide, trial, i;

	(void)state;
	for (wide = 0; wide < 2; wide++) {
		for (u = 0; u < UNITS; u++) {
			/* one sample in one bucket, or a count in every bucket */
			if (wide) {
				for (k = 0; k < W; k++) {
					idx[u][k] = k;
					cnt[u][k] = 1 + stats_splitmix64(&rng) % 9;
				}
			} else {
				k = 1;
				idx[u][0] = (uint32_t)(stats_splitmix64(&rng) % W);
				cnt[u][0] = 1;
			}
			iv[u] = (struct hb_ival){ .n = k, .idx = idx[u], .cnt = cnt[u] };
			for (iv[u].total = 0, b = 0; b < k; b++)
				iv[u].total += cnt[u][b];
			reps[u] = (struct hb_rep){ .iv = &iv[u], .n = 1 };
		}
		assert_int_equal(cumhist_build(&ch, reps, UNITS, 0, W), 0);
		for (trial = 0; trial < 20; trial++) {
			/* a bootstrap draw: some units twice or more, most once, some not */
			memset(wt, 0, sizeof(wt));
			for (non = 0, u = 0; u < UNITS; u++) {
				b = (uint32_t)(stats_splitmix64(&rng) % UNITS);
				if (!wt[b]++)
					on[non++] = b;
			}
			for (i = 0; i < 5; i++)
				assert_int_equal(cumhist_quantile(&ch, wt, on, non, qs[i]),
						 naive_quantile(reps, wt, UNITS, qs[i]));
		}
		/* units of one sample never make the running sums: only the buckets answer */
		assert_true(wide ? ch.c != NULL : ch.c == NULL);
		/* a unit's count at or below x, from its buckets and from the running sums */
		cumhist_free(&ch);
		assert_int_equal(cumhist_build(&ch, reps, UNITS, 0, W), 0);
		for (u = 0; u < UNITS; u += 37)
			for (k = 0; k < W; k += 5)
				below[u][k] = cumhist_unit_below(&ch, u, k);
		assert_int_equal(cumhist_dense(&ch), 0);
		for (u = 0; u < UNITS; u += 37)
			for (k = 0; k < W; k += 5)
				assert_int_equal(cumhist_unit_below(&ch, u, k), below[u][k]);
		cumhist_free(&ch);
	}
}

/*
 * hswap_test - the label-swap test, exact for few blocks: identical arms are never told
 * apart (every swap ties), and four blocks three times slower on one arm are told apart
 * at exactly 1/16, the one labelling of sixteen that puts every slow phase on new
 */
static void test_label_swap(void **state)
{
	const struct sim s = { log(50e3), 0.6, 0.0, 0.0, 4, 2, 300 };
	struct hswap sw;
	uint64_t rng = 9, again;
	unsigned int r;

	(void)state;
	again = rng;
	make_side(&bufs[0], &s, 1, &rng);
	make_side(&bufs[1], &s, 1, &again);	/* the same draws: identical arms */
	assert_int_equal(hswap_test(&dom, &bufs[0].side, &bufs[1].side, 0.99, log1p(0.1), 500,
				    1, &sw), 0);
	assert_int_equal(sw.swaps, 16);
	assert_true(sw.p[CLAIM_HIGHER] >= 1 - 1e-12 && sw.p[CLAIM_LOWER] >= 1 - 1e-12);
	assert_true(sw.p[CLAIM_WORSE] >= 1 - 1e-12);
	for (r = 0; r < 4; r++)
		make_rep(&bufs[1], &s, r, s.mu + log(3.0), 0, &rng);
	assert_int_equal(hswap_test(&dom, &bufs[0].side, &bufs[1].side, 0.99, log1p(0.1), 500,
				    1, &sw), 0);
	assert_true(fabs(sw.p[CLAIM_HIGHER] - 1.0 / 16) < 1e-12);
	assert_true(fabs(sw.p[CLAIM_WORSE] - 1.0 / 16) < 1e-12);
	assert_true(sw.p[CLAIM_LOWER] > 0.9);
	assert_int_equal(sw.tail_blocks[1], 4);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_stat),
		cmocka_unit_test(test_claims),
		cmocka_unit_test(test_holm),
		cmocka_unit_test(test_aa_false_alarms),
		cmocka_unit_test(test_power),
		cmocka_unit_test(test_looks),
		cmocka_unit_test(test_variance_components),
		cmocka_unit_test(test_reps_needed),
		cmocka_unit_test(test_level_shift),
		cmocka_unit_test(test_paired_aa),
		cmocka_unit_test(test_paired_power),
		cmocka_unit_test(test_side_ends),
		cmocka_unit_test(test_expansion),
		cmocka_unit_test(test_holm_with),
		cmocka_unit_test(test_cumhist),
		cmocka_unit_test(test_cumhist_paths),
		cmocka_unit_test(test_label_swap),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
