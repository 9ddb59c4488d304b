// SPDX-License-Identifier: GPL-2.0
/*
 * calibrate.c - a host's noise floors from runs in which nothing changed (noise.h).
 *
 * For each pair of runs, compare_runs() judges every metric; the floor a pair shows for a
 * metric is the change it measured between them, |log(new / base)| as a relative margin
 * (expm1). A metric's floor is the largest change any pair showed: what this host does
 * between identical runs, drift between runs included, which the repetitions inside one
 * run cannot see. compare then claims a change only when its interval clears the floor:
 * the within-run uncertainty is added once, by the comparison, not twice. (The edges of
 * each pair's interval would add it twice: with 3 repetitions a side they made floors of
 * 4x-6x on workload p99s here, behind which a 4.6x slowdown was "cannot tell".)
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "compare.h"
#include "stats.h"

/* pair_floors - the floors one A/A comparison shows */
static int pair_floors(const struct run *a, const struct run *b, const struct judge_opts *o,
		       struct noise *out, char *errbuf)
{
	struct cmp_opts co = { .j = *o, .keep_reps = true };
	struct cmp_result res;
	size_t i;
	int ret;

	co.j.noise = NULL;	/* the margin does not move the replicates */
	ret = compare_runs(a, b, &co, &res, errbuf);
	if (ret)
		return ret;
	for (i = 0; !ret && i < res.nrows; i++) {
		const struct cmp_row *r = &res.rows[i];

		/* d: the pair had data enough for an interval, so the ratio means something */
		if (!r->d || !r->judged || !(r->j.ratio > 0) || !isfinite(r->j.ratio))
			continue;
		ret = noise_add(out, r->workload, r->config, r->id, expm1(fabs(log(r->j.ratio))));
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
