// SPDX-License-Identifier: GPL-2.0
/*
 * simulate.c - the operating characteristics of deferbench's verdicts, measured by
 * running its own code on synthetic data (sim.h).
 *
 *   simulate small            the grid make test runs; exit 1 when a rate is off
 *   simulate full [--sims N] [--doc FILE]
 *                             the grid of docs/verdicts.md, as Markdown tables on stdout,
 *                             or written into FILE between its "simulate:begin" and
 *                             "simulate:end" comment lines
 *   simulate one KEY=VAL...   one cell: kind=single|family|history|between, n=, s=,
 *                             stalls=, ratio=, stat=, margin=, sims=, metrics=, paired=,
 *                             strata=, runs=, reps=, run_sd=, seed=
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim.h"

struct sim_cell {
	char kind[16];
	struct sim_model m;
	enum mstat stat;
	double margin;
	unsigned int sims, metrics, runs, reps;
	double run_sd, step;
	uint64_t seed;
};

static void cell_default(struct sim_cell *c)
{
	memset(c, 0, sizeof(*c));
	snprintf(c->kind, sizeof(c->kind), "single");
	sim_model_default(&c->m);
	c->stat = MST_P90;
	c->margin = 0.10;
	c->sims = 400;
	c->metrics = 20;
	c->runs = 10;
	c->reps = 3;
	c->run_sd = 0.2;
	c->seed = 1;
}

static int set_kv(struct sim_cell *c, const char *kv)
{
	const char *eq = strchr(kv, '=');
	char key[32];
	double v;
	char *end;
	int i;

	if (!eq || eq - kv >= (int)sizeof(key))
		return -EINVAL;
	snprintf(key, sizeof(key), "%.*s", (int)(eq - kv), kv);
	if (!strcmp(key, "kind")) {
		snprintf(c->kind, sizeof(c->kind), "%s", eq + 1);
		return 0;
	}
	if (!strcmp(key, "stat")) {
		for (i = 0; i < MST_NR; i++)
			if (!strcmp(eq + 1, metric_stat_names[i])) {
				c->stat = (enum mstat)i;
				return 0;
			}
		return -EINVAL;
	}
	v = strtod(eq + 1, &end);
	if (end == eq + 1 || *end)
		return -EINVAL;
	if (!strcmp(key, "n"))
		c->m.n = (unsigned int)v;
	else if (!strcmp(key, "s"))
		c->m.s = v;
	else if (!strcmp(key, "stalls"))
		c->m.stalls = v != 0;
	else if (!strcmp(key, "ratio"))
		c->m.ratio = v;
	else if (!strcmp(key, "paired"))
		c->m.paired = v != 0;
	else if (!strcmp(key, "strata"))
		c->m.strata = (unsigned int)v;
	else if (!strcmp(key, "stratum_sd"))
		c->m.stratum_sd = v;
	else if (!strcmp(key, "ivals"))
		c->m.ivals = (unsigned int)v;
	else if (!strcmp(key, "samples"))
		c->m.samples = (unsigned int)v;
	else if (!strcmp(key, "margin"))
		c->margin = v;
	else if (!strcmp(key, "sims"))
		c->sims = (unsigned int)v;
	else if (!strcmp(key, "metrics"))
		c->metrics = (unsigned int)v;
	else if (!strcmp(key, "runs"))
		c->runs = (unsigned int)v;
	else if (!strcmp(key, "reps"))
		c->reps = (unsigned int)v;
	else if (!strcmp(key, "run_sd"))
		c->run_sd = v;
	else if (!strcmp(key, "step"))
		c->step = v;
	else if (!strcmp(key, "seed"))
		c->seed = (uint64_t)v;
	else
		return -EINVAL;
	return 0;
}

static void print_tally(const struct sim_tally *t)
{
	int v;

	printf("runs %u:", t->runs);
	for (v = 0; v < V_NR; v++)
		if (t->v[v])
			printf(" %s %u", judge_verdict_names[v], t->v[v]);
	printf("; any false %u (%.3f)", t->any_false, t->runs ? (double)t->any_false / t->runs : 0);
	if (t->mdc_n)
		printf("; detects %.0f%%", 100 * t->mdc_sum / t->mdc_n);
	printf("\n");
}

static int run_one(const struct sim_cell *c)
{
	struct sim_tally t;
	unsigned int flagged;
	int ret;

	if (!strcmp(c->kind, "single") || !strcmp(c->kind, "family")) {
		ret = sim_family(&c->m, c->stat, c->margin,
				 !strcmp(c->kind, "single") ? 1 : c->metrics, c->sims, c->seed, &t);
		if (!ret)
			print_tally(&t);
		return ret;
	}
	if (!strcmp(c->kind, "history")) {
		ret = sim_history(c->runs, c->reps, c->run_sd, 0.05, c->step, c->sims, c->seed,
				  &flagged);
		if (!ret)
			printf("series %u: change point in %u (%.4f)\n", c->sims, flagged,
			       (double)flagged / c->sims);
		return ret;
	}
	if (!strcmp(c->kind, "between")) {
		ret = sim_between(c->runs, c->run_sd, c->m.ratio, c->sims, c->seed, &t);
		if (!ret)
			print_tally(&t);
		return ret;
	}
	fprintf(stderr, "simulate: kind '%s' unknown\n", c->kind);
	return -EINVAL;
}

/* write_doc - the tables of text into doc between the markers, the rest kept */
static int write_doc(const char *doc, const char *text)
{
	static const char begin[] = "<!-- simulate:begin -->", end[] = "<!-- simulate:end -->";
	char *old = NULL, *b, *e, tmp[4096];
	size_t len = 0;
	FILE *f;
	int ret = -1;

	f = fopen(doc, "r");
	if (!f || getdelim(&old, &len, '\0', f) < 0) {
		fprintf(stderr, "simulate: cannot read %s\n", doc);
		goto out;
	}
	fclose(f);
	f = NULL;
	b = strstr(old, begin);
	e = b ? strstr(b, end) : NULL;
	if (!b || !e) {
		fprintf(stderr, "simulate: %s has no '%s' ... '%s' lines to write between\n", doc,
			begin, end);
		goto out;
	}
	snprintf(tmp, sizeof(tmp), "%s.tmp", doc);
	f = fopen(tmp, "w");
	if (!f)
		goto out;
	fprintf(f, "%.*s%s\n%s%s", (int)(b - old), old, begin, text, e);
	if (fclose(f) || rename(tmp, doc))
		goto out;
	f = NULL;
	ret = 0;
out:
	if (f)
		fclose(f);
	free(old);
	return ret;
}

static int run_full(int argc, char **argv)
{
	unsigned int sims = 1000;
	const char *doc = NULL;
	char *text = NULL;
	size_t len = 0;
	FILE *f;
	int i, ret;

	for (i = 2; i < argc; i++) {
		if (!strcmp(argv[i], "--sims") && i + 1 < argc)
			sims = (unsigned int)strtoul(argv[++i], NULL, 10);
		else if (!strcmp(argv[i], "--doc") && i + 1 < argc)
			doc = argv[++i];
		else {
			fprintf(stderr, "simulate: full: unknown '%s'\n", argv[i]);
			return 2;
		}
	}
	if (sims < 50) {
		fprintf(stderr, "simulate: full: --sims %u is too few for a rate\n", sims);
		return 2;
	}
	if (!doc)
		return sim_full(stdout, sims) ? 1 : 0;
	f = open_memstream(&text, &len);
	if (!f)
		return 1;
	ret = sim_full(f, sims);
	fclose(f);
	ret = ret ?: write_doc(doc, text);
	free(text);
	return ret ? 1 : 0;
}

int main(int argc, char **argv)
{
	struct sim_cell c;
	int i;

	sim_domain_init();
	if (argc == 2 && !strcmp(argv[1], "small"))
		return sim_small() ? 1 : 0;
	if (argc >= 2 && !strcmp(argv[1], "full"))
		return run_full(argc, argv);
	if (argc >= 2 && !strcmp(argv[1], "one")) {
		cell_default(&c);
		for (i = 2; i < argc; i++)
			if (set_kv(&c, argv[i])) {
				fprintf(stderr, "simulate: bad setting '%s'\n", argv[i]);
				return 2;
			}
		return run_one(&c) ? 1 : 0;
	}
	fprintf(stderr, "usage: simulate small | full | one KEY=VAL...\n");
	return 2;
}
