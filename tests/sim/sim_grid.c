// SPDX-License-Identifier: GPL-2.0
/*
 * sim_grid.c - the two grids of the harness: the small one make test runs, asserting
 * the rates docs/verdicts.md states, and the full one whose table docs/verdicts.md shows
 * (sim.h).
 *
 * Every cell is seeded: the same binary gives the same numbers, so an assertion is a
 * fact about the code, not a chance. A rate from N runs has a Monte Carlo error of
 * about sqrt(r (1 - r) / N); where the claim is "at most the nominal level" and the
 * method is exact at the nominal level (a permutation test), the small grid allows two
 * such errors above it, and says so.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "sim.h"

static double rate(unsigned int k, unsigned int n)
{
	return n ? (double)k / n : 0;
}

/* mc_room - two Monte Carlo errors of a rate r estimated from n runs */
static double mc_room(double r, unsigned int n)
{
	return 2 * sqrt(r * (1 - r) / n);
}

static int failures;

static void check(const char *what, double got, double limit, bool at_most)
{
	bool ok = at_most ? got <= limit : got >= limit;

	printf("  %-66s %6.3f %s %5.3f  %s\n", what, got, at_most ? "<=" : ">=", limit,
	       ok ? "ok" : "FAILED");
	failures += !ok;
}

static void model(struct sim_model *m, unsigned int n, double s, bool stalls, double ratio)
{
	sim_model_default(m);
	m->n = n;
	m->s = s;
	m->stalls = stalls;
	m->ratio = ratio;
}

int sim_small(void)
{
	/* the edges the full grid covers more finely, at a cost make test can pay */
	static const struct { unsigned int n; double s; bool stalls; } edge[] = {
		{ 6, 0.25, true }, { 10, 0.07, false }, { 20, 0.25, true },
	};
	struct sim_model m;
	struct sim_tally t;
	unsigned int i, flagged;
	char what[96];
	int ret;

	failures = 0;
	printf("simulate: the small grid (seeded; docs/verdicts.md has the full one)\n");
	/* a true ratio exactly on the margin: "worse" is a false claim */
	for (i = 0; i < sizeof(edge) / sizeof(edge[0]); i++) {
		model(&m, edge[i].n, edge[i].s, edge[i].stalls, 1.10);
		ret = sim_single(&m, MST_P90, 0.10, 400, 100 + i, &t);
		if (ret)
			return ret;
		snprintf(what, sizeof(what), "p90 x1.10, %u blocks, s %.2f%s: false worse", m.n, m.s,
			 m.stalls ? ", stalls" : "");
		check(what, rate(t.v[V_WORSE], t.runs), 0.06, true);
	}
	/* A/A, 20 metrics judged together, stalls: any false claim in the family */
	model(&m, 12, 0.25, true, 1.0);
	ret = sim_family(&m, MST_P90, 0.10, 20, 80, 200, &t);
	if (ret)
		return ret;
	check("A/A, 20 p90s in one family, 12 blocks, stalls: any false claim",
	      rate(t.any_false, t.runs), 0.05, true);
	/* tails that stalls set: p99 side claims, A/A */
	model(&m, 20, 0.15, true, 1.0);
	ret = sim_single(&m, MST_P99, 0.10, 300, 300, &t);
	if (ret)
		return ret;
	check("A/A p99, 20 blocks, stalls: false worse or better",
	      rate(t.v[V_WORSE] + t.v[V_BETTER], t.runs), 0.05, true);
	/* and the procedure still decides what is there */
	model(&m, 20, 0.15, false, 1.5);
	ret = sim_single(&m, MST_P90, 0.10, 200, 400, &t);
	if (ret)
		return ret;
	check("p90 x1.5, 20 blocks, s 0.15: decided worse (power)", rate(t.v[V_WORSE], t.runs),
	      0.80, false);
	/* history: stationary, runs differ more than their repetitions */
	ret = sim_history(10, 3, 0.3, 0.05, 0, 400, 500, &flagged);
	if (ret)
		return ret;
	check("history, 10 runs x 3, run-to-run sd 0.3: false change point (5% + MC)",
	      rate(flagged, 400), 0.05 + mc_room(0.05, 400), true);
	/* between separate runs, the spread calibrated from 3 runs */
	ret = sim_between(3, 0.2, 1.10, 2000, 600, &t);
	if (ret)
		return ret;
	check("between runs, calibrated from 3, x1.10: false worse per metric",
	      rate(t.v[V_WORSE], t.runs), 0.05, true);
	ret = sim_between(3, 0.2, 1.0, 2000, 601, &t);
	if (ret)
		return ret;
	check("between runs, calibrated from 3, A/A: false worse per metric",
	      rate(t.v[V_WORSE], t.runs), 0.05, true);
	printf("simulate: %s\n", failures ? "FAILED" : "every rate holds");
	return failures ? 1 : 0;
}

/* the full grid's first table: one metric at a time, paired blocks */
static int table_single(FILE *f, unsigned int sims)
{
	static const unsigned int ns[] = { 6, 10, 20, 45 };
	static const double ss[] = { 0.07, 0.15, 0.25 }, ratios[] = { 1.0, 1.10, 1.15, 1.5 };
	struct sim_model m;
	struct sim_tally t;
	unsigned int a, b, c, r;
	int ret;

	fprintf(f, "| blocks | s | stalls | true ratio | worse | better | higher | lower | "
		"no change | detects |\n|---|---|---|---|---|---|---|---|---|---|\n");
	for (a = 0; a < 4; a++)
		for (b = 0; b < 3; b++)
			for (c = 0; c < 2; c++)
				for (r = 0; r < 4; r++) {
					model(&m, ns[a], ss[b], c, ratios[r]);
					ret = sim_single(&m, MST_P90, 0.10, sims,
							 1000 + a * 100 + b * 10 + c * 4 + r, &t);
					if (ret)
						return ret;
					fprintf(f, "| %u | %.2f | %s | %.2f | %.3f | %.3f | %.3f | "
						"%.3f | %.3f | %.0f%% |\n", m.n, m.s, c ? "yes" : "no",
						m.ratio, rate(t.v[V_WORSE], t.runs),
						rate(t.v[V_BETTER], t.runs), rate(t.v[V_HIGHER], t.runs),
						rate(t.v[V_LOWER], t.runs),
						rate(t.v[V_NO_CHANGE], t.runs),
						t.mdc_n ? 100 * t.mdc_sum / t.mdc_n : NAN);
					fflush(f);
				}
	return 0;
}

/* the tails: p99 under stalls, A/A and beyond the margin */
static int table_tails(FILE *f, unsigned int sims)
{
	static const unsigned int ns[] = { 6, 10, 20, 45 };
	static const double ratios[] = { 1.0, 1.15, 1.5 };
	struct sim_model m;
	struct sim_tally t;
	unsigned int a, r;
	int ret;

	fprintf(f, "| blocks | true ratio | worse | better | higher | lower | no change |\n"
		"|---|---|---|---|---|---|---|\n");
	for (a = 0; a < 4; a++)
		for (r = 0; r < 3; r++) {
			model(&m, ns[a], 0.15, true, ratios[r]);
			ret = sim_single(&m, MST_P99, 0.10, sims, 2000 + a * 10 + r, &t);
			if (ret)
				return ret;
			fprintf(f, "| %u | %.2f | %.3f | %.3f | %.3f | %.3f | %.3f |\n", m.n, m.ratio,
				rate(t.v[V_WORSE], t.runs), rate(t.v[V_BETTER], t.runs),
				rate(t.v[V_HIGHER], t.runs), rate(t.v[V_LOWER], t.runs),
				rate(t.v[V_NO_CHANGE], t.runs));
			fflush(f);
		}
	return 0;
}

/* families of 20 metrics: any false claim, A/A and on the margin */
static int table_family(FILE *f, unsigned int sims)
{
	static const unsigned int ns[] = { 6, 20, 45 };
	static const double ratios[] = { 1.0, 1.10 };
	struct sim_model m;
	struct sim_tally t;
	unsigned int a, c, r;
	int ret;

	fprintf(f, "| blocks | stalls | true ratio (every metric) | P(any false claim) |\n"
		"|---|---|---|---|\n");
	for (a = 0; a < 3; a++)
		for (c = 0; c < 2; c++)
			for (r = 0; r < 2; r++) {
				model(&m, ns[a], 0.25, c, ratios[r]);
				ret = sim_family(&m, MST_P90, 0.10, 20, sims, 3000 + a * 10 + c * 2 + r,
						 &t);
				if (ret)
					return ret;
				fprintf(f, "| %u | %s | %.2f | %.3f |\n", m.n, c ? "yes" : "no", m.ratio,
					rate(t.any_false, t.runs));
				fflush(f);
			}
	return 0;
}

static int table_history(FILE *f, unsigned int sims)
{
	static const unsigned int runs[] = { 10, 14, 20 };
	static const double sds[] = { 0, 0.1, 0.2, 0.3 };
	unsigned int a, b, flagged, power;
	int ret;

	fprintf(f, "| runs x 3 repetitions | run-to-run sd | false change points | "
		"found a x1.5 step |\n|---|---|---|---|\n");
	for (a = 0; a < 3; a++)
		for (b = 0; b < 4; b++) {
			ret = sim_history(runs[a], 3, sds[b], 0.05, 0, sims, 4000 + a * 10 + b,
					  &flagged);
			ret = ret ?: sim_history(runs[a], 3, sds[b], 0.05, 0.5, sims / 2,
						 4500 + a * 10 + b, &power);
			if (ret)
				return ret;
			fprintf(f, "| %u | %.1f | %.3f | %.3f |\n", runs[a], sds[b],
				rate(flagged, sims), rate(power, sims / 2));
			fflush(f);
		}
	return 0;
}

static int table_between(FILE *f, unsigned int sims)
{
	static const unsigned int ks[] = { 3, 5, 8 };
	static const double sds[] = { 0.05, 0.2 }, ratios[] = { 1.0, 1.10, 1.5 };
	struct sim_tally t;
	unsigned int a, b, r;
	int ret;

	fprintf(f, "| calibration runs | run-to-run sd | true ratio | worse | better | "
		"no change | detects |\n|---|---|---|---|---|---|---|\n");
	for (a = 0; a < 3; a++)
		for (b = 0; b < 2; b++)
			for (r = 0; r < 3; r++) {
				ret = sim_between(ks[a], sds[b], ratios[r], sims,
						  5000 + a * 100 + b * 10 + r, &t);
				if (ret)
					return ret;
				fprintf(f, "| %u | %.2f | %.2f | %.3f | %.3f | %.3f | %.0f%% |\n", ks[a],
					sds[b], ratios[r], rate(t.v[V_WORSE], t.runs),
					rate(t.v[V_BETTER], t.runs), rate(t.v[V_NO_CHANGE], t.runs),
					t.mdc_n ? 100 * t.mdc_sum / t.mdc_n : NAN);
				fflush(f);
			}
	return 0;
}

int sim_full(FILE *f, unsigned int sims)
{
	int ret;

	fprintf(f, "Measured by `make simulate` (tests/sim: %u simulated comparisons a cell, "
		"seeded; a rate of 0.05 from them is within about 0.014). One p90, margin 10%%, "
		"alpha 0.05, paired blocks of an alternating run, 2000 bootstrap replicates:\n\n",
		sims);
	ret = table_single(f, sims);
	if (ret)
		return ret;
	fprintf(f, "\np99 under stalls (s 0.15), label-swap tested beside the bootstrap:\n\n");
	ret = table_tails(f, sims);
	if (ret)
		return ret;
	fprintf(f, "\nTwenty p90s judged in one family (s 0.25), %u families a cell:\n\n",
		sims);
	ret = table_family(f, sims);
	if (ret)
		return ret;
	fprintf(f, "\nHistory, stationary series of runs of 3 repetitions (and with a x1.5 "
		"step in the middle), level 0.05:\n\n");
	ret = table_history(f, sims);
	if (ret)
		return ret;
	fprintf(f, "\nTwo separate runs, the runs as the unit, the spread calibrated from K "
		"runs (margin 10%%):\n\n");
	return table_between(f, sims * 4);
}
