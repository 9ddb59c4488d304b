// SPDX-License-Identifier: GPL-2.0
/*
 * advise.c - the configuration to use, per workload (rules in advise.h).
 */
#include "advise.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "msg.h"
#include "steady.h"

/* primary_keys - the reference's primary metrics (the workload's own choice) */
static int primary_keys(struct adv_workload *w)
{
	struct keylist kl = { 0 };
	size_t i;
	int ret;

	ret = keylist_collect(w->ref, false, &kl);
	for (i = 0; !ret && i < kl.n; i++) {
		char id[METRIC_ID_LEN];

		metric_id(&kl.k[i], id, sizeof(id));
		if (kl.k[i].stat == MST_MAX || !cmp_is_primary(NULL, w->ref, id))
			continue;
		if (w->nprim == ADV_MAX_PRIMARY) {
			/* never a silent subset: the answer would rest on part of them */
			warn_msg("advise: more than %d primary metrics match the patterns of %s: "
				 "%s and those after it are not judged; name fewer with 'primary'",
				 ADV_MAX_PRIMARY, w->workload, id);
			break;
		}
		w->prim[w->nprim] = kl.k[i];
		snprintf(w->prim_id[w->nprim++], METRIC_ID_LEN, "%s", id);
	}
	keylist_free(&kl);
	return ret;
}

/* judge_cfg - the first step for every primary metric of one configuration */
static int judge_cfg(const struct adv_workload *w, struct adv_cfg *c,
		     const struct judge_opts *o, double **d)
{
	struct evidence e;
	double margin;
	bool floor;
	size_t k;
	int ret;

	for (k = 0; k < w->nprim; k++) {
		ret = evidence_build(w->ref, c->s, &w->prim[k], &e);
		if (ret)
			return ret;
		margin = judge_margin(o, w->workload, c->s->config, w->prim_id[k], &floor, NULL);
		ret = judge_eval(&e, w->prim[k].stat, margin, floor, o, &c->j[k], &d[k]);
		evidence_free(&e);
		if (ret)
			return ret;
	}
	return 0;
}

/* a family of judgements, with their bootstrap replicates, that Holm holds together */
struct family {
	struct judgement **j;
	double **d;
	size_t n;
};

static int family_alloc(struct family *f, size_t n)
{
	f->n = n;
	f->j = calloc(n + 1, sizeof(*f->j));
	f->d = calloc(n + 1, sizeof(*f->d));
	return f->j && f->d ? 0 : -ENOMEM;
}

static void family_free(struct family *f)
{
	size_t i;

	for (i = 0; f->d && i < f->n; i++)
		free(f->d[i]);
	free(f->d);
	free(f->j);
}

/*
 * judge_steady - every arm's phases of every workload, their end against their start,
 * one family for the run (steady.h); each workload's moving counts its arms' metrics
 * decided to move
 */
static int judge_steady(struct advice *a)
{
	struct family f;
	size_t n = 0, m = 0, i, k, x;
	int ret;

	for (x = 0; x < a->n; x++)
		n += a->wl[x].ncfg ? (a->wl[x].ncfg + 1) * a->wl[x].nprim : 0;	/* + ref */
	ret = family_alloc(&f, n);
	for (x = 0; !ret && x < a->n; x++) {
		struct adv_workload *w = &a->wl[x];

		if (!w->ncfg)
			continue;	/* nothing judged against the reference */
		w->ref_steady.s = w->ref;
		for (i = 0; !ret && i <= w->ncfg; i++) {
			struct adv_cfg *c = i < w->ncfg ? &w->cfg[i] : &w->ref_steady;

			/* inside one phase: the threshold, never a floor between runs */
			for (k = 0; !ret && k < w->nprim; k++, m++) {
				f.j[m] = &c->steady[k];
				ret = steady_judge(c->s, &w->prim[k], a->o.threshold, &a->o,
						   &c->steady[k], &f.d[m]);
			}
		}
	}
	ret = ret ?: judge_family(f.j, f.d, m, &a->o);
	for (x = 0; !ret && x < a->n; x++) {
		struct adv_workload *w = &a->wl[x];

		for (i = 0; w->ncfg && i <= w->ncfg; i++)
			for (k = 0; k < w->nprim; k++) {
				enum verdict v = adv_arm(w, i)->steady[k].v;

				w->moving += v == V_WORSE || v == V_BETTER;
			}
	}
	family_free(&f);
	return ret;
}

/* tally - a configuration's outcome and its gain over the reference */
static void tally(const struct adv_workload *w, struct adv_cfg *c)
{
	size_t k, n = 0, own = 0, own_ok = 0;
	double logsum = 0;

	for (k = 0; k < w->nprim; k++) {
		const struct judgement *j = &c->j[k];

		c->worse += j->v == V_WORSE;
		c->better += j->v == V_BETTER;
		c->same += j->v == V_NO_CHANGE;
		c->higher += j->v == V_HIGHER;
		c->lower += j->v == V_LOWER;
		c->undecided += j->v == V_CANNOT_TELL;
		if (w->prim[k].src == MS_WORKLOAD) {
			own++;
			own_ok += j->v == V_BETTER || j->v == V_NO_CHANGE || j->v == V_LOWER;
		}
		if (j->ratio > 0) {
			logsum += log(j->ratio);
			n++;
		}
	}
	c->gain = n ? exp(logsum / n) : NAN;
	/* the workload's own latency decides: a shorter wait alone is not a reason to use */
	c->wait_only = c->better && own && own_ok < own;
}

/* answer_of - what advise says when no configuration is chosen (advise.h) */
static enum adv_answer answer_of(const struct adv_workload *w)
{
	size_t i, k, judged = 0, decided = 0, open = 0;

	for (i = 0; i < w->ncfg; i++)
		for (k = 0; k < w->nprim; k++) {
			const struct judgement *j = &w->cfg[i].j[k];

			judged += !isnan(j->p);
			decided += j->v == V_WORSE || j->v == V_NO_CHANGE;
		}
	if (!judged)
		return ADV_EXPLORATORY;
	/*
	 * every configuration shown worse on something, or no different on every primary
	 * metric judged: one "no change" beside undecided ones does not settle that it
	 * is no better on those
	 */
	for (i = 0; i < w->ncfg; i++)
		open += !w->cfg[i].worse && (!w->cfg[i].same || w->cfg[i].undecided);
	return decided && !open ? ADV_KEEP : ADV_UNDECIDED;
}

/* choose - the configuration to use (advise.h): NULL keeps the reference */
static void choose(struct adv_workload *w)
{
	size_t i;

	for (i = 0; i < w->ncfg; i++) {
		const struct adv_cfg *c = &w->cfg[i];
		bool decided = !c->undecided;

		if (c->worse || c->higher || !c->better)
			continue;
		if (c->wait_only) {
			if (!w->wait_best || c->gain < w->wait_best->gain)
				w->wait_best = c;
			continue;
		}
		if (!w->best || (decided && !w->best_decided) ||
		    (decided == w->best_decided && c->gain < w->best->gain)) {
			w->best = c;
			w->best_decided = decided;
		}
	}
	w->answer = w->best ? ADV_USE : w->wait_best ? ADV_WAIT_ONLY : answer_of(w);
}

/* load_answer - a load alone against the reference without it: its effect, no choice */
static void load_answer(struct adv_workload *w)
{
	size_t k, judged = 0;

	for (k = 0; k < w->nprim; k++)
		judged += !isnan(w->cfg[0].j[k].p);
	w->answer = judged ? ADV_LOAD_EFFECT : ADV_EXPLORATORY;
}

/* set_loads - the background loads of a configuration's cells, "a, b" ("": none) */
static void set_loads(const struct cellset *s, char *buf, size_t len)
{
	const struct cell *c = s->n ? s->cell[0] : NULL;
	size_t i, off = 0;

	buf[0] = '\0';
	for (i = 0; c && i < c->nloads && off < len; i++)
		off += snprintf(buf + off, len - off, "%s%s", i ? ", " : "", c->loads[i]);
}

static bool same_loads(const struct cellset *s, const char *loads)
{
	char l[NAME_LEN];

	set_loads(s, l, sizeof(l));
	return !strcmp(l, loads);
}

/* group_ref - the reference of a workload's configurations that run loads */
static const struct cellset *group_ref(const struct cellsets *cs, const char *workload,
				       const char *loads)
{
	const struct cellset *ref = cellsets_reference(cs, workload);
	size_t i;

	if (ref && same_loads(ref, loads))
		return ref;
	for (i = 0; i < cs->n; i++)
		if (!strcmp(cs->s[i].workload, workload) && same_loads(&cs->s[i], loads))
			return &cs->s[i];
	return NULL;
}

/* gather - a workload's primary metrics and the configurations judged against its ref */
static int gather(struct adv_workload *w, const struct cellsets *cs)
{
	size_t i;
	int ret;

	ret = primary_keys(w);
	for (i = 0; !ret && i < cs->n && w->ncfg < ADV_MAX_CFG; i++)
		if (!strcmp(cs->s[i].workload, w->workload) && &cs->s[i] != w->ref &&
		    same_loads(&cs->s[i], w->loads))
			w->cfg[w->ncfg++].s = &cs->s[i];
	return ret;
}

/*
 * judge_run - every configuration of every workload against its reference, one family
 * for the run: the answers of one advise are read together, and a wrong "worse" or
 * "better" anywhere in them changes one; Holm keeps the chance of any at alpha
 */
static int judge_run(struct advice *a)
{
	struct family f;
	size_t n = 0, m = 0, i, k, x;
	int ret;

	for (x = 0; x < a->n; x++)
		n += a->wl[x].ncfg * a->wl[x].nprim;
	ret = family_alloc(&f, n);
	for (x = 0; !ret && x < a->n; x++) {
		struct adv_workload *w = &a->wl[x];

		for (i = 0; !ret && i < w->ncfg; i++, m += w->nprim) {
			ret = judge_cfg(w, &w->cfg[i], &a->o, f.d + m);
			for (k = 0; k < w->nprim; k++)
				f.j[m + k] = &w->cfg[i].j[k];
		}
	}
	ret = ret ?: judge_family(f.j, f.d, n, &a->o);
	for (x = 0; !ret && x < a->n; x++) {
		for (i = 0; i < a->wl[x].ncfg; i++)
			tally(&a->wl[x], &a->wl[x].cfg[i]);
		if (a->wl[x].load_effect)
			load_answer(&a->wl[x]);
		else
			choose(&a->wl[x]);
	}
	family_free(&f);
	return ret ?: judge_steady(a);
}

/* advise - judge the groups of a->cs; on an error a is freed */
static int advise(const struct run *run, struct advice *a, char *errbuf)
{
	size_t i, j;
	int ret = 0;

	if (!a->cs.n) {
		advise_free(a);
		return set_err(errbuf, "%s has no finished cells to advise from", run->dir);
	}
	a->wl = calloc(a->cs.n, sizeof(*a->wl));
	if (!a->wl) {
		advise_free(a);
		return errno_msg(errbuf, -ENOMEM, "out of memory");
	}
	for (i = 0; !ret && i < a->cs.n; i++) {
		const char *name = a->cs.s[i].workload;
		struct adv_workload *w = &a->wl[a->n];
		size_t peers = 0;
		char loads[NAME_LEN];

		set_loads(&a->cs.s[i], loads, sizeof(loads));
		for (j = 0; j < a->n; j++)
			if (!strcmp(a->wl[j].workload, name) && !strcmp(a->wl[j].loads, loads))
				break;
		if (j < a->n)
			continue;	/* seen */
		for (j = 0; j < a->cs.n; j++)
			peers += !strcmp(a->cs.s[j].workload, name) &&
				 same_loads(&a->cs.s[j], loads);
		snprintf(w->workload, NAME_LEN, "%s", name);
		snprintf(w->loads, NAME_LEN, "%s", loads);
		w->ref = group_ref(&a->cs, name, loads);
		a->n++;
		/*
		 * a load alone: against the reference without loads, as the load's effect
		 * (advise.h); with none, listed with its reason, never left out
		 */
		if (loads[0] && peers < 2) {
			const struct cellset *bare = group_ref(&a->cs, name, "");

			w->load_effect = bare != NULL;
			if (bare)
				w->ref = bare;
			else
				w->why_none = "the only configuration under this background load, "
					      "and none without a load to judge it against";
		}
		ret = gather(w, &a->cs);
	}
	ret = ret ?: judge_run(a);
	if (ret) {
		advise_free(a);
		return errno_msg(errbuf, ret, "advise: %s", strerror(-ret));
	}
	return 0;
}

int advise_run(const struct run *run, const struct judge_opts *o, struct advice *a,
	       char *errbuf)
{
	int ret;

	memset(a, 0, sizeof(*a));
	a->o = *o;
	ret = cellsets_build(run, &a->cs);
	if (ret)
		return errno_msg(errbuf, ret, "%s: cannot group cells", run->dir);
	a->cs_owned = true;
	return advise(run, a, errbuf);
}

int advise_sets(const struct run *run, const struct cellsets *cs, const struct judge_opts *o,
		struct advice *a, char *errbuf)
{
	memset(a, 0, sizeof(*a));
	a->o = *o;
	a->cs = *cs;
	return advise(run, a, errbuf);
}

const struct adv_cfg *adv_find(const struct advice *a, const char *workload, const char *cfg)
{
	size_t i, k;

	for (i = 0; i < a->n; i++) {
		if (strcmp(a->wl[i].workload, workload))
			continue;
		for (k = 0; k < a->wl[i].ncfg; k++)
			if (!strcmp(a->wl[i].cfg[k].s->config, cfg))
				return &a->wl[i].cfg[k];
	}
	return NULL;
}

void advise_free(struct advice *a)
{
	free(a->wl);
	if (a->cs_owned)
		cellsets_free(&a->cs);
	memset(a, 0, sizeof(*a));
}

void advise_bound(const struct adv_workload *w, char *buf, size_t len)
{
	const char *id = NULL, *cfg = NULL;
	double lo = INFINITY;
	size_t i, k;

	for (i = 0; i < w->ncfg; i++)
		for (k = 0; k < w->nprim; k++) {
			const struct judgement *j = &w->cfg[i].j[k];

			if (j->v != V_WORSE && !isnan(j->lo) && j->lo < lo) {
				lo = j->lo;
				id = w->prim_id[k];
				cfg = w->cfg[i].s->config;
			}
		}
	if (!id || lo >= 1)
		snprintf(buf, len, "none is better on any primary metric by more than its "
			 "intervals allow");
	else
		snprintf(buf, len, "none is better by more than %.0f%% on any primary metric "
			 "(the most: %s on %s, interval from x%.3g)", (1 - lo) * 100, cfg, id, lo);
}

void advise_wait_only(const struct adv_workload *w, char *buf, size_t len)
{
	const struct adv_cfg *c = w->wait_best;
	size_t k, off = 0;
	const char *sep = "";

	if (!c) {
		snprintf(buf, len, "-");
		return;
	}
	off = (size_t)snprintf(buf, len, "a wait is shorter with %s (", c->s->config);
	for (k = 0; k < w->nprim && off < len; k++)
		if (c->j[k].v == V_BETTER) {
			off += (size_t)snprintf(buf + off, len - off, "%s%s x%.2f", sep,
						w->prim_id[k], c->j[k].ratio);
			sep = ", ";
		}
	off += (size_t)snprintf(buf + off < buf + len ? buf + off : buf + len - 1,
				off < len ? len - off : 1, "), but the workload's own latency is "
				"not shown unchanged (");
	sep = "";
	for (k = 0; k < w->nprim && off < len; k++)
		if (w->prim[k].src == MS_WORKLOAD && c->j[k].v != V_BETTER &&
		    c->j[k].v != V_NO_CHANGE && c->j[k].v != V_LOWER) {
			off += (size_t)snprintf(buf + off, len - off, "%s%s x%.2f %s", sep,
						w->prim_id[k], c->j[k].ratio,
						judge_verdict_names[c->j[k].v]);
			sep = ", ";
		}
	if (off < len)
		snprintf(buf + off, len - off, "): keep %s until it is", w->ref->config);
}

void advise_load_effect(const struct adv_workload *w, char *buf, size_t len)
{
	const struct adv_cfg *c = &w->cfg[0];
	size_t k, off, shown = 0;

	off = (size_t)snprintf(buf, len, "the effect of load %s (a condition, not a setting "
			       "to choose), %s against %s:", w->loads, c->s->config,
			       w->ref->config);
	for (k = 0; k < w->nprim && off < len; k++) {
		const struct judgement *j = &c->j[k];

		if (j->v == V_CANNOT_TELL || isnan(j->p))
			continue;
		off += (size_t)snprintf(buf + off, len - off, "%s %s x%.2f %s", shown++ ? ";" : "",
					w->prim_id[k], j->ratio, judge_verdict_names[j->v]);
	}
	if (off < len && !shown)
		snprintf(buf + off, len - off, " nothing decided yet, %zu primary metric(s) "
			 "undecided (the blocks or repetitions that would decide them are below)",
			 c->undecided);
	else if (off < len && c->undecided)
		snprintf(buf + off, len - off, "; %zu undecided", c->undecided);
}
