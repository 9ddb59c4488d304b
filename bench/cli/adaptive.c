// SPDX-License-Identifier: GPL-2.0
/*
 * adaptive.c - `run --until-decided`: after the planned repetitions, add repetitions
 * only to the cells whose primary verdicts are still "cannot tell", until every one is
 * decided, the looks run out, or the time budget is spent.
 *
 * What a cell is judged against: the stored baseline run given with --against (CI:
 * only the new run gets repetitions), otherwise its workload's reference configuration
 * in the same run (the undecided configuration and the reference both get them,
 * interleaved A B B A so that slow drift of the machine cancels).
 *
 * Repeated looks at growing data must not inflate false alarms: the loop plans a fixed
 * number of looks (ADAPT_LOOKS) and every look - and the final compare, which reads
 * "looks" from run.json - holds each family to alpha / looks (Bonferroni over the
 * looks). That is valid whatever the data do and however the loop stops; it is
 * conservative, the price of being simple to check.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "adaptive.h"
#include "advise.h"
#include "fmt.h"
#include "rundir.h"
#include "grow.h"
#include "msg.h"
#include "sys.h"

/* Cells added per undecided cell and look, at most. */
#define ADAPT_MAX_REPS 4

struct adapt_add {
	int (*pairs)[2];
	int n, cap;
};

static int add_pair(struct adapt_add *a, int wl, int cfg)
{
	if (GROW(a->pairs, a->cap, a->n + 1))
		return -ENOMEM;
	a->pairs[a->n][0] = wl;
	a->pairs[a->n][1] = cfg;
	a->n++;
	return 0;
}

/* reps_for - how many more repetitions a cell's undecided metrics ask for, 1..max */
static int reps_for(const struct judgement *j, size_t n)
{
	long best = -1;
	size_t i;

	for (i = 0; i < n; i++)
		if (j[i].v == V_CANNOT_TELL && j[i].more > 0 && (best < 0 || j[i].more < best))
			best = j[i].more;
	if (best < 1)
		return 1;
	return best > ADAPT_MAX_REPS ? ADAPT_MAX_REPS : (int)best;
}

/* against_baseline - the new run's undecided primary cells, compared with the baseline */
static int against_baseline(struct adapt *a, const struct run *run, const struct scenario *s,
			    struct adapt_add *out, size_t *undecided)
{
	struct cmp_opts co = { .j = a->jo };
	struct cmp_result res;
	char err[ERRBUF_LEN];
	size_t i, k;
	int ret;

	co.j.base_fixed = true;
	ret = compare_runs(&a->base, run, &co, &res, err);
	if (ret) {
		err_msg("until-decided: %s", err);
		return ret;
	}
	if (cmp_regressed(&res)) {
		/* a claim made at a look stands (each look is held to alpha / looks) */
		printf("until-decided: a primary metric is decided worse: the verdict is a "
		       "regression, more repetitions would not change it\n");
		a->regressed = true;
		cmp_result_free(&res);
		return 0;
	}
	for (i = 0; !ret && i < res.nrows; i++) {
		const struct cmp_row *r = &res.rows[i];
		int w, c, reps;

		if (!r->primary || r->j.v != V_CANNOT_TELL)
			continue;
		(*undecided)++;
		w = scenario_wl_index(s, r->workload);
		c = scenario_cfg_index(s, r->config);
		/* one request per cell: the first undecided row of it decides how many */
		for (k = 0; k < i; k++)
			if (res.rows[k].primary && res.rows[k].j.v == V_CANNOT_TELL &&
			    !strcmp(res.rows[k].workload, r->workload) &&
			    !strcmp(res.rows[k].config, r->config))
				break;
		if (w < 0 || c < 0 || k < i)
			continue;
		fprintf(stdout, "  %s/%s %s: %s\n", r->workload, r->config, r->id, r->j.why);
		for (reps = reps_for(&r->j, 1); !ret && reps > 0; reps--)
			ret = add_pair(out, w, c);
	}
	cmp_result_free(&res);
	return ret;
}

/* within_run - undecided configurations against their workload's reference */
static int within_run(struct adapt *a, const struct run *run, const struct scenario *s,
		      struct adapt_add *out, size_t *undecided)
{
	char err[ERRBUF_LEN];
	struct advice adv;
	size_t i, k;
	int ret;

	ret = advise_run(run, &a->jo, &adv, err);
	if (ret) {
		err_msg("until-decided: %s", err);
		return ret;
	}
	for (i = 0; !ret && i < adv.n; i++) {
		const struct adv_workload *w = &adv.wl[i];
		int wi = scenario_wl_index(s, w->workload);
		int ri = w->ref ? scenario_cfg_index(s, w->ref->config) : -1;

		for (k = 0; !ret && k < w->ncfg; k++) {
			const struct adv_cfg *c = &w->cfg[k];
			int ci = scenario_cfg_index(s, c->s->config), reps;

			if (!c->undecided)
				continue;
			*undecided += c->undecided;
			fprintf(stdout, "  %s/%s against %s: %zu primary metric(s) undecided\n",
				w->workload, c->s->config, w->ref->config, c->undecided);
			if (wi < 0 || ci < 0 || ri < 0)
				continue;
			/* A B B A: drift of the machine falls on both alike */
			for (reps = reps_for(c->j, w->nprim); !ret && reps > 0; reps -= 2) {
				ret = add_pair(out, wi, ci);
				ret = ret ?: add_pair(out, wi, ri);
				ret = ret ?: add_pair(out, wi, ri);
				ret = ret ?: add_pair(out, wi, ci);
			}
		}
	}
	advise_free(&adv);
	return ret;
}

int adapt_more(void *ctx, const struct run_state *r, int (**add)[2], int *n)
{
	uint64_t budget = r->s->until_decided_ns;
	uint64_t used = now_ns() - r->t0;
	struct adapt *a = ctx;
	struct adapt_add out = { 0 };
	char err[ERRBUF_LEN], t[32], b[32];
	size_t undecided = 0;
	struct run run;
	int ret;

	*add = NULL;
	*n = 0;
	a->look++;
	printf("until-decided: look %u of %u after %s of %s\n", a->look, ADAPT_LOOKS,
	       fmt_eta(used, t, sizeof(t)), fmt_eta(budget, b, sizeof(b)));
	if (a->look >= ADAPT_LOOKS) {
		printf("until-decided: that was the last look; compare decides with what there is\n");
		return 0;
	}
	ret = run_load(r->dir, &run, err);
	if (ret) {
		err_msg("until-decided: %s", err);
		return ret;
	}
	ret = a->against ? against_baseline(a, &run, r->s, &out, &undecided) :
			   within_run(a, &run, r->s, &out, &undecided);
	run_free(&run);
	if (ret) {
		free(out.pairs);
		return ret;
	}
	if (!out.n) {
		if (!a->regressed)	/* a regression stops the run: said above */
			printf("until-decided: every primary metric is decided\n");
	} else {
		/* the runner says what it adds within the budget: cells, or blocks */
		printf("until-decided: %zu primary metric(s) undecided\n", undecided);
	}
	fflush(stdout);
	if (!out.n) {
		free(out.pairs);
		return 0;
	}
	*add = out.pairs;
	*n = out.n;
	return 0;
}

int adapt_init(struct adapt *a, const char *against, char *errbuf)
{
	int ret;

	memset(a, 0, sizeof(*a));
	judge_opts_default(&a->jo);
	a->jo.looks = ADAPT_LOOKS;
	a->against = against;
	if (!against)
		return 0;
	if (run_load(against, &a->base, errbuf))
		return -EINVAL;
	ret = noise_load_dir(against, &a->noise, errbuf);
	if (!ret)
		a->jo.noise = &a->noise;
	return ret == -ENOENT ? 0 : ret;
}

void adapt_free(struct adapt *a)
{
	if (a->against)
		run_free(&a->base);
	noise_free(&a->noise);
}
