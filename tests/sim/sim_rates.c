// SPDX-License-Identifier: GPL-2.0
/*
 * sim_rates.c - simulated comparisons judged by the project's own code, tallied against
 * the truth they were generated from (sim.h).
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "sim.h"
#include "stats.h"

bool sim_false(enum verdict v, double ratio, double margin)
{
	const double eps = 1e-9;

	switch (v) {
	case V_WORSE:
		return ratio <= 1 + margin + eps;
	case V_BETTER:
		return ratio >= 1 / (1 + margin) - eps;
	case V_HIGHER:
		return ratio <= 1 + eps;
	case V_LOWER:
		return ratio >= 1 - eps;
	default:
		return false;
	}
}

static void tally_one(struct sim_tally *t, const struct judgement *j)
{
	t->v[j->v]++;
	if (!isnan(j->mdc)) {
		t->mdc_sum += j->mdc;
		t->mdc_n++;
	}
}

int sim_single(const struct sim_model *m, enum mstat stat, double margin, unsigned int nsims,
	       uint64_t seed, struct sim_tally *t)
{
	return sim_family(m, stat, margin, 1, nsims, seed, t);
}

int sim_family(const struct sim_model *m, enum mstat stat, double margin,
	       unsigned int nmetrics, unsigned int nsims, uint64_t seed, struct sim_tally *t)
{
	struct judgement *j = calloc(nmetrics, sizeof(*j)), **jp = calloc(nmetrics, sizeof(*jp));
	double **d = calloc(nmetrics, sizeof(*d));
	struct sim_data data = { 0 };
	struct judge_opts o;
	uint64_t rng = seed;
	unsigned int s, k;
	int ret = -ENOMEM;

	memset(t, 0, sizeof(*t));
	if (!j || !jp || !d)
		goto out;
	judge_opts_default(&o);
	o.threshold = margin;
	for (s = 0; s < nsims; s++) {
		bool wrong = false;

		/*
		 * a new bootstrap seed each run: judge_eval seeds each metric from its sample
		 * counts, which real data vary and the model keeps fixed, and a rate is over
		 * the resampling too
		 */
		o.seed = stats_splitmix64(&rng);

		for (k = 0; k < nmetrics; k++) {
			ret = sim_generate(m, &rng, &data);
			ret = ret ?: judge_eval(&data.e, stat, margin, false, &o, &j[k], &d[k]);
			if (ret)
				goto out;
			jp[k] = &j[k];
		}
		ret = judge_family(jp, d, nmetrics, &o);
		for (k = 0; k < nmetrics; k++) {
			free(d[k]);
			d[k] = NULL;
		}
		if (ret)
			goto out;
		for (k = 0; k < nmetrics; k++) {
			tally_one(t, &j[k]);
			wrong |= sim_false(j[k].v, m->ratio, margin);
		}
		t->any_false += wrong;
		t->runs++;
	}
	ret = 0;
out:
	sim_data_free(&data);
	free(j);
	free(jp);
	free(d);
	return ret;
}

int sim_history(unsigned int nruns, unsigned int nreps, double run_sd, double rep_sd,
		double step, unsigned int nsims, uint64_t seed, unsigned int *flagged)
{
	struct hs_series s;
	struct hs_detect_opts o;
	uint64_t rng = seed;
	unsigned int i, k, r;
	int ret = 0;

	*flagged = 0;
	hs_detect_opts_default(&o);
	memset(&s, 0, sizeof(s));
	s.pt = calloc(nruns, sizeof(*s.pt));
	if (!s.pt)
		return -ENOMEM;
	s.npt = nruns;
	for (i = 0; !ret && i < nsims; i++) {
		for (r = 0; r < nruns; r++) {
			struct hs_point *p = &s.pt[r];
			double level = run_sd * sim_gauss(&rng) + (r >= nruns / 2 ? log1p(step) : 0);

			p->n = nreps;
			for (k = 0; k < nreps; k++)
				p->v[k] = 20000 * exp(level + rep_sd * sim_gauss(&rng));
			p->med = stats_median(p->v, p->n);
		}
		ret = hs_detect(&s, &o, 1);
		*flagged += s.ncp > 0;
	}
	free(s.pt);
	return ret;
}

/* run_figure - one run's pooled figure: the host's level, its run-to-run spread */
static double run_figure(double run_sd, double ratio, uint64_t *rng)
{
	return 20000 * ratio * exp(run_sd * sim_gauss(rng) + 0.02 * sim_gauss(rng));
}

int sim_between(unsigned int ncal, double run_sd, double ratio, unsigned int nsims,
		uint64_t seed, struct sim_tally *t)
{
	double cal[NOISE_RUNS_MAX], sd, floor, base, new;
	struct judgement j, *jp = &j;
	double *d = NULL;
	struct judge_opts o;
	uint64_t rng = seed;
	unsigned int s, k;
	int ret;

	memset(t, 0, sizeof(*t));
	if (ncal > NOISE_RUNS_MAX)
		return -EINVAL;
	judge_opts_default(&o);
	for (s = 0; s < nsims; s++) {
		for (k = 0; k < ncal; k++)
			cal[k] = run_figure(run_sd, 1, &rng);
		ret = calibrate_spread(cal, ncal, 1 - o.confidence, &sd, &floor);
		if (ret)
			return ret;
		/* the baseline: one more run of the reference; the new run: the change */
		base = run_figure(run_sd, 1, &rng);
		new = run_figure(run_sd, ratio, &rng);
		memset(&j, 0, sizeof(j));
		j.base = base;
		j.new = new;
		j.ratio = new / base;
		j.margin = o.threshold;
		j.x = expansion_blocks(ncal);
		j.runs_unit = true;
		j.mdc = NAN;
		judge_t_claims(log(j.ratio), sd * M_SQRT2, ncal - 1, o.threshold, &j);
		ret = judge_family(&jp, &d, 1, &o);
		if (ret)
			return ret;
		tally_one(t, &j);
		t->any_false += sim_false(j.v, ratio, o.threshold);
		t->runs++;
	}
	return 0;
}
