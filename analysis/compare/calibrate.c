// SPDX-License-Identifier: GPL-2.0
/*
 * calibrate.c - a host's spread between runs, from runs in which nothing changed
 * (noise.h).
 *
 * Runs are the unit between runs: for each workload x configuration x judged metric,
 * each run gives one figure, the statistic of its cells pooled (the figure compare
 * reads), and the spread of their logs, sd with K - 1 degrees of freedom, is what one
 * run's figure varies by from run to run. Two later runs differ by sd sqrt(2) when
 * nothing changed, and a t-test of their log ratio with K - 1 degrees of freedom holds
 * its level whatever the spread (a prediction bound: the t quantile pays for having
 * estimated sd from K runs). The "floor" written beside sd is the change that test
 * would just call beyond chance at the calibration's level, for people to read: the
 * earlier floors (the largest change plus uncertainty over 3 pairs) were no such bound,
 * and let 4-15% of A/A metrics through as "worse" in simulation.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compare.h"
#include "grow.h"
#include "stats.h"
#include "msg.h"

/* A metric's figures, one per run. */
struct spread {
	char workload[NAME_LEN];
	char config[NAME_LEN];
	char id[METRIC_ID_LEN];
	double v[NOISE_RUNS_MAX];
	size_t n;
};

struct spreads {
	struct spread *s;
	size_t n;
};

int calibrate_spread(const double *v, size_t k, double alpha, double *sd, double *floor)
{
	double mean = 0, ss = 0;
	size_t i;

	if (k < 3)
		return -EINVAL;
	for (i = 0; i < k; i++) {
		if (!(v[i] > 0))
			return -EINVAL;
		mean += log(v[i]);
	}
	mean /= (double)k;
	for (i = 0; i < k; i++)
		ss += (log(v[i]) - mean) * (log(v[i]) - mean);
	*sd = sqrt(ss / (double)(k - 1));
	*floor = expm1(t_quantile(1 - alpha / 2, (double)(k - 1)) * *sd * M_SQRT2);
	return 0;
}

static struct spread *spread_of(struct spreads *sp, const char *wl, const char *cfg,
				const char *id)
{
	struct spread *s;
	size_t i;

	for (i = 0; i < sp->n; i++)
		if (!strcmp(sp->s[i].id, id) && !strcmp(sp->s[i].workload, wl) &&
		    !strcmp(sp->s[i].config, cfg))
			return &sp->s[i];
	s = grow_array(sp->s, sp->n, sizeof(*sp->s));
	if (!s)
		return NULL;
	sp->s = s;
	s = &sp->s[sp->n++];
	snprintf(s->workload, sizeof(s->workload), "%s", wl);
	snprintf(s->config, sizeof(s->config), "%s", cfg);
	snprintf(s->id, sizeof(s->id), "%s", id);
	return s;
}

/* set_figures - every judged metric's pooled figure in one workload x configuration */
static int set_figures(const struct cellset *set, const struct judge_opts *o,
		       struct spreads *sp)
{
	struct keylist kl = { 0 };
	char id[METRIC_ID_LEN];
	struct evidence e;
	size_t i;
	int ret;

	ret = keylist_collect(set, false, &kl);
	for (i = 0; !ret && i < kl.n; i++) {
		const struct metric_key *k = &kl.k[i];
		struct spread *s;
		double v;

		metric_id(k, id, sizeof(id));
		if (k->stat == MST_MAX || k->src == MS_WAKEUP || !cmp_judged(NULL, set, id))
			continue;
		ret = evidence_build(set, NULL, k, &e);
		if (ret)
			break;
		v = e.side[EV_BASE].n ? hb_stat(&e.dom, &e.side[EV_BASE], metric_stat_q[k->stat]) : NAN;
		if (metric_usable(k->stat, e.count[EV_BASE], o->min_tail) && v > 0) {
			s = spread_of(sp, set->workload, set->config, id);
			if (!s)
				ret = -ENOMEM;
			else if (s->n < NOISE_RUNS_MAX)
				s->v[s->n++] = v;
		}
		evidence_free(&e);
	}
	keylist_free(&kl);
	return ret;
}

int calibrate_noise(const struct run *runs, size_t n, const struct judge_opts *o,
		    struct noise *out, char *errbuf)
{
	double alpha = (1 - o->confidence) / (o->looks ? o->looks : 1);
	struct spreads sp = { 0 };
	struct cellsets cs;
	size_t i, k;
	int ret = 0;

	if (n < 3 || n > NOISE_RUNS_MAX)
		return set_err(errbuf, "calibration needs 3 to %d runs of the same scenario: the "
			       "spread between runs is estimated from them, and 2 leave it "
			       "unknown", NOISE_RUNS_MAX);
	for (i = 1; i < n; i++)
		if (strcmp(runs[i].scenario, runs[0].scenario) ||
		    strcmp(runs[i].meta[RM_HOSTNAME], runs[0].meta[RM_HOSTNAME]))
			return set_err(errbuf, "%s and %s are not runs of one scenario on one "
				       "host: a noise floor compares like with like", runs[0].dir,
				       runs[i].dir);
	out->runs = (unsigned int)n;
	out->alpha = 1 - o->confidence;
	out->looks = o->looks ? o->looks : 1;
	snprintf(out->host, sizeof(out->host), "%.*s", (int)sizeof(out->host) - 1,
		 runs[0].meta[RM_HOSTNAME]);
	snprintf(out->kernel, sizeof(out->kernel), "%.*s", (int)sizeof(out->kernel) - 1,
		 runs[0].meta[RM_KERNEL]);
	snprintf(out->scenario, sizeof(out->scenario), "%s", runs[0].scenario);
	for (i = 0; !ret && i < n; i++) {
		ret = cellsets_build(&runs[i], &cs);
		if (ret) {
			errno_msg(errbuf, ret, "%s: cannot group cells", runs[i].dir);
			goto out;
		}
		for (k = 0; !ret && k < cs.n; k++)
			ret = set_figures(&cs.s[k], o, &sp);
		cellsets_free(&cs);
	}
	/* a metric some run lacks has fewer figures: its sd says so by its runs */
	for (k = 0; !ret && k < sp.n; k++) {
		double sd, floor;

		if (sp.s[k].n < 3)
			continue;
		if (calibrate_spread(sp.s[k].v, sp.s[k].n, alpha, &sd, &floor))
			continue;
		ret = noise_add(out, sp.s[k].workload, sp.s[k].config, sp.s[k].id, sd,
				(unsigned int)sp.s[k].n, fmin(floor, NOISE_FLOOR_MAX));
	}
	if (ret)
		errno_msg(errbuf, ret, "calibrate: %s", strerror(-ret));
out:
	free(sp.s);
	return ret;
}
