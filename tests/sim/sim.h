/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sim.h - synthetic comparisons through deferbench's own verdict code, to measure the
 * error rates and the power that docs/verdicts.md states (tests/sim/README).
 *
 * The model of one metric of one comparison: blocks (an alternating run: both arms in
 * the same minutes, paired) or repetitions (cells: each its own run of the machine,
 * unpaired). Each phase (block x arm, or repetition) has a level on the log scale: the
 * block's drift, shared by both arms of a paired block, plus the phase's own noise of
 * sd s / sqrt(2), so that the log-ratio of the arms of one block (or of two
 * repetitions) has sd s, the quantity measured on the development VM (0.07 to 0.25).
 * Inside a phase, samples are log-normal around its level, counted in deferbench's
 * histogram buckets (hist.h), one histogram per interval. Stalls: 10% of phases have a
 * fifth of their samples multiplied by 8, the shape of the neighbour that sometimes
 * takes the CPU. The new side is the base side multiplied by the true ratio.
 *
 * Deterministic: a seed gives the same data, so every rate the harness prints is a
 * fact about the code, reproducible by anyone.
 */
#ifndef DEFERBENCH_SIM_H
#define DEFERBENCH_SIM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "compare.h"
#include "history.h"

struct sim_model {
	double s;		/* sd of a block's (repetition pair's) log-ratio */
	double drift;		/* sd of a block's level, shared by its arms (paired) */
	double ratio;		/* true new / base of every quantile */
	bool stalls;		/* 10% of phases: a fifth of their samples x8 */
	bool paired;		/* blocks of an alternating run; false: repetitions */
	unsigned int n;		/* blocks, or repetitions per side */
	unsigned int ivals;	/* intervals per phase */
	unsigned int samples;	/* per interval */
	unsigned int strata;	/* continuation segments: the blocks cut into this many,
				 * each segment with its own level (0, 1: one segment) */
	double stratum_sd;	/* sd of a segment's level, both arms (strata > 1) */
};

void sim_model_default(struct sim_model *m);

/* One generated comparison: the evidence judge_eval reads, and its storage. */
struct sim_data {
	struct evidence e;
	struct hb_rep *rep;
	struct hb_ival *iv;
	uint32_t *idx;
	uint64_t *cnt;
	size_t cap_buckets, used;
};

/* sim_domain_init - the domain every generated comparison shares (hist.h's buckets) */
void sim_domain_init(void);
/* sim_gauss - a standard normal draw */
double sim_gauss(uint64_t *rng);
/* sim_generate - one comparison of model m into d (reused between calls); -ENOMEM */
int sim_generate(const struct sim_model *m, uint64_t *rng, struct sim_data *d);
void sim_data_free(struct sim_data *d);

/* What a set of simulated comparisons ended with, by verdict. */
struct sim_tally {
	unsigned int runs;
	unsigned int v[V_NR];
	unsigned int any_false;		/* family: runs with at least one false claim */
	double mdc_sum;			/* "detects" over the judged runs */
	unsigned int mdc_n;
};

/*
 * sim_single - nsims comparisons of one metric (statistic stat, margin) judged alone
 * (a family of one), tallied by verdict
 */
int sim_single(const struct sim_model *m, enum mstat stat, double margin, unsigned int nsims,
	       uint64_t seed, struct sim_tally *t);

/*
 * sim_family - nsims families of nmetrics independent metrics of model m, judged
 * together as compare and advise judge a family; any_false counts the families with a
 * claim the truth contradicts (a side claim beyond the margin where the true ratio is
 * inside it, a direction where the ratio is 1, or the wrong direction)
 */
int sim_family(const struct sim_model *m, enum mstat stat, double margin,
	       unsigned int nmetrics, unsigned int nsims, uint64_t seed, struct sim_tally *t);

/* sim_false - does verdict v contradict the true ratio under margin */
bool sim_false(enum verdict v, double ratio, double margin);

/*
 * sim_history - nsims stationary series of nruns runs x nreps repetitions, run-to-run
 * sd run_sd (log), repetition sd rep_sd, through hs_detect: how many got a change point
 */
int sim_history(unsigned int nruns, unsigned int nreps, double run_sd, double rep_sd,
		double step, unsigned int nsims, uint64_t seed, unsigned int *flagged);

/*
 * sim_between - nsims comparisons of two separate runs of the same thing (true ratio
 * ratio), with floors calibrated from ncal runs, run-to-run sd run_sd (log); per
 * metric: how many were judged worse
 */
int sim_between(unsigned int ncal, double run_sd, double ratio, unsigned int nsims,
		uint64_t seed, struct sim_tally *t);

/* sim_small - the grid make test runs: each rate against its claim; 0, or 1 when one fails */
int sim_small(void);
/* sim_full - the grid of docs/verdicts.md, as Markdown tables on f, sims runs a cell */
int sim_full(FILE *f, unsigned int sims);

#endif
