// SPDX-License-Identifier: GPL-2.0
/*
 * calibrate.c - a host's noise floors from runs in which nothing changed (noise.h).
 *
 * For each pair of runs, compare_runs() judges every metric; the floor a pair shows for a
 * metric is the smallest margin at which that pair would itself have been judged "no
 * change" at the level each "no change" is held to (alpha / looks): exp(max(q(1 - a),
 * -q(a))) - 1 over the bootstrap replicates of log(new / base), the change the pair
 * measured plus its uncertainty. A metric's floor is the largest any pair showed: what
 * this host does between identical runs, drift between runs included, which the
 * repetitions inside one run cannot see.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "compare.h"
#include "stats.h"
#include "msg.h"

/* pair_floors - the floors one A/A comparison shows */
static int pair_floors(const struct run *a, const struct run *b, const struct judge_opts *o,
		       struct noise *out, char *errbuf)
{
	struct cmp_opts co = { .j = *o, .keep_reps = true };
	double alpha = (1 - o->confidence) / (o->looks ? o->looks : 1);
	struct cmp_result res;
	size_t i;
	int ret;

	co.j.noise = NULL;	/* the margin does not move the replicates */
	ret = compare_runs(a, b, &co, &res, errbuf);
	if (ret)
		return ret;
	for (i = 0; !ret && i < res.nrows; i++) {
		const struct cmp_row *r = &res.rows[i];
		double lo, hi;

		if (!r->d || !r->judged)
			continue;
		lo = quantile_sorted(r->d, o->iters, alpha);
		hi = quantile_sorted(r->d, o->iters, 1 - alpha);
		ret = noise_add(out, r->workload, r->config, r->id, expm1(fmax(hi, -lo)));
	}
	cmp_result_free(&res);
	if (ret)
		set_errno(errbuf, ret, "out of memory");
	return ret;
}

int noise_calibrate(const struct run *runs, size_t n, const struct judge_opts *o,
		    struct noise *out, char *errbuf)
{
	size_t i, j;
	int ret = 0;

	if (n < 2)
		return set_err(errbuf, "calibration needs at least 2 runs of the same scenario");
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
	for (i = 0; !ret && i < n; i++)
		for (j = i + 1; !ret && j < n; j++)
			ret = pair_floors(&runs[i], &runs[j], o, out, errbuf);
	return ret;
}
