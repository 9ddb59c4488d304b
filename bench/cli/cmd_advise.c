// SPDX-License-Identifier: GPL-2.0
/*
 * cmd_advise.c - `deferbench advise RUN`: the configuration each workload should use,
 * with the evidence, the trade-offs across workloads, the exact settings that apply it,
 * and what the run could not decide (rules: analysis/compare/advise.h).
 */
#include <errno.h>
#include <json-c/json.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "advise.h"
#include "cli.h"
#include "fmt.h"
#include "knobs.h"
#include "placement.h"
#include "rundir.h"
#include "msg.h"

static const struct opt_desc advise_opts[] = {
	CLI_OPT_JSON(advise_args, json, "print the advice as one JSON object"),
	CLI_OPT_THRESHOLD(advise_args, threshold, "smallest change that counts, in percent"),
	CLI_OPT_NOISE(advise_args, noise,
		      "no longer used (a calibration's spread is between separate runs; the "
		      "configurations of one run are judged against each other)"),
	OPT_HELP(),
	OPT_END(),
};

static void advise_defaults(void *args)
{
	struct advise_args *a = args;

	memset(a, 0, sizeof(*a));
	a->threshold = 0.10;
}

const struct cli_command cli_advise = {
	.name = "advise",
	.fn = cmd_advise,
	.summary = "the configuration each workload should use, and why",
	.usage = "deferbench advise [--json] [-t PCT] RUN",
	.desc =
	"For each workload of RUN, the configuration to use: every configuration judged\n"
	"against the reference on the workload's primary metrics (the engine of compare),\n"
	"the trade-offs across workloads, the settings that apply it, and what is undecided\n"
	"with the repetitions that would decide it. Rules: docs/verdicts.md.",
	.examples = "deferbench advise results/HOST/KERNEL/RUN\n"
		    "deferbench advise --json -t 5 results/HOST/KERNEL/RUN",
	.opts = advise_opts,
	.args_size = sizeof(struct advise_args),
	.defaults = advise_defaults,
};

int advise_parse_args(int argc, char **argv, struct advise_args *a, char *errbuf)
{
	int first, ret;

	advise_defaults(a);
	ret = opts_parse(advise_opts, OPTS_PERMUTE, argc, argv, a, &first, errbuf);
	if (ret)
		return ret;
	if (argc - first != 1)
		return set_err(errbuf, "need one run directory");
	a->run = argv[first];
	return 0;
}

/* first_ok - a finished cell of the set (its knobs and options stand for the set's) */
static const struct cell *first_ok(const struct cellset *s)
{
	size_t i;

	for (i = 0; s && i < s->n; i++)
		if (s->cell[i]->ok)
			return s->cell[i];
	return NULL;
}

/* sysfs_writes - how to apply knob name = value by hand on this machine */
static void sysfs_writes(FILE *f, const char *name, const char *value)
{
	char err[ERRBUF_LEN], desc[TGT_PATH_MAX + 64];
	struct knob_target *t = NULL;
	struct sched_spec sp;
	struct knob k;
	int n = 0, i;

	if (knob_parse(name, value, &k, NULL, err) || knob_resolve(&k, 0, &t, &n, err)) {
		fprintf(f, "      (%s = %s: %s)\n", name, value, err);
		return;
	}
	for (i = 0; i < n; i++) {
		if (t[i].kind == TGT_FILE) {
			fprintf(f, "      echo %s > %s\n", k.value, t[i].path);
		} else if (!knob_sched_spec_parse(k.value, &sp, err)) {
			fprintf(f, "      chrt %s -p %d %d   # %s%s\n",
				sp.policy == SCHED_FIFO ? "-f" : sp.policy == SCHED_RR ? "-r" :
				sp.policy == SCHED_BATCH ? "-b" : sp.policy == SCHED_IDLE ? "-i" : "-o",
				sp.prio, (int)t[i].pid,
				knob_target_describe(&t[i], desc, sizeof(desc)),
				sp.nice ? " (and renice its nice value)" : "");
		}
	}
	free(t);
}

/* print_apply - the settings of configuration s, three ways */
static void print_apply(FILE *f, const struct cellset *s, const struct cellset *ref)
{
	const struct cell *c = first_ok(s), *r = first_ok(ref);
	size_t i, j;

	if (!c)
		return;
	fprintf(f, "    apply it:\n      scenario:  [config %s]", s->config);
	for (i = 0; i < c->nknobs; i++)
		fprintf(f, " %s = %s;", c->knobs[i].key, c->knobs[i].val);
	for (i = 0; i < c->nopts; i++)
		fprintf(f, " opt.%s.%s = %s;", s->workload, c->opts[i].key, c->opts[i].val);
	fprintf(f, "\n");
	if (c->nknobs) {
		fprintf(f, "      command:   deferbench knobs set");
		for (i = 0; i < c->nknobs; i++)
			fprintf(f, " %s=%s", c->knobs[i].key, c->knobs[i].val);
		fprintf(f, "   # until Ctrl-C; restored after\n      by hand (this machine, "
			"not restored):\n");
		for (i = 0; i < c->nknobs; i++)
			sysfs_writes(f, c->knobs[i].key, c->knobs[i].val);
	}
	for (i = 0; i < c->nopts; i++) {
		const char *was = "(default)";

		for (j = 0; r && j < r->nopts; j++)
			if (!strcmp(r->opts[j].key, c->opts[i].key))
				was = r->opts[j].val;
		fprintf(f, "      workload option %s = %s (reference: %s): a property of the "
			"workload's own setup, see docs/workloads.md\n", c->opts[i].key,
			c->opts[i].val, was);
	}
	if (!c->nknobs && !c->nopts)
		fprintf(f, "      (no knob and no option: the configuration differs only by its "
			"loads)\n");
}

static void print_judgement(FILE *f, const char *id, const struct judgement *j)
{
	char b[32], n[32], ra[32];

	fprintf(f, "      %-44s %9s -> %9s us  x%-5s", id, fmt_us(j->base, b, sizeof(b)),
		fmt_us(j->new, n, sizeof(n)), fmt_ratio(j->ratio, ra, sizeof(ra)));
	if (!isnan(j->lo))
		fprintf(f, " [%.3g, %.3g]", j->lo, j->hi);
	fprintf(f, " %s (margin %.3g%%%s", judge_verdict_names[j->v], j->margin * 100,
		j->margin_floor ? ", host noise floor" : "");
	if (!isnan(j->mdc))
		fprintf(f, "; detects %.3g%%", j->mdc * 100);
	/* undecided: what would decide it; a direction: by how much, maybe in the margin */
	fprintf(f, ")%s%s\n", j->v == V_CANNOT_TELL || j->v == V_HIGHER || j->v == V_LOWER ?
		": " : "", j->v == V_CANNOT_TELL || j->v == V_HIGHER || j->v == V_LOWER ?
		j->why : "");
}

/* largest_mdc - the largest change a no-change verdict of w could have missed */
static double largest_mdc(const struct adv_workload *w)
{
	double m = 0;
	size_t i, k;

	for (i = 0; i < w->ncfg; i++)
		for (k = 0; k < w->nprim; k++)
			if (w->cfg[i].j[k].v == V_NO_CHANGE && w->cfg[i].j[k].margin > m)
				m = w->cfg[i].j[k].margin;
	return m;
}

/* print_answer - the one line a reader came for */
static void print_answer(FILE *f, const struct adv_workload *w)
{
	const struct judgement *j = &w->cfg[0].j[0];
	char b[512];
	size_t i;

	switch (w->answer) {
	case ADV_USE:
		fprintf(f, "  use %s: better on %zu primary metric(s), worse on none%s\n",
			w->best->s->config, w->best->better,
			w->best_decided ? ", every primary metric decided" :
			"; some primary metrics are still undecided");
		break;
	case ADV_KEEP:
		if (largest_mdc(w) > 0)
			fprintf(f, "  keep %s: every other configuration is worse on a primary "
				"metric, or equivalent within %.3g%% on each:", w->ref->config,
				largest_mdc(w) * 100);
		else
			fprintf(f, "  keep %s: every other configuration is worse on a primary "
				"metric:", w->ref->config);
		for (i = 0; i < w->ncfg; i++)
			fprintf(f, "%s %s %s", i ? ";" : "", w->cfg[i].s->config,
				w->cfg[i].worse ? "worse" : "equivalent");
		fprintf(f, "\n");
		break;
	case ADV_UNDECIDED:
		advise_bound(w, b, sizeof(b));
		fprintf(f, "  keep %s for now: no configuration was shown better on a primary "
			"metric, and the question is open: %s (the blocks or repetitions that "
			"would decide it are below)\n", w->ref->config, b);
		for (i = 0; i < w->ncfg; i++)
			if (w->cfg[i].lower || w->cfg[i].higher)
				fprintf(f, "  decided directions: %s lower on %zu, higher on %zu "
					"primary metric(s), by amounts that may lie within the "
					"margin\n", w->cfg[i].s->config, w->cfg[i].lower,
					w->cfg[i].higher);
		break;
	case ADV_WAIT_ONLY:
		advise_wait_only(w, b, sizeof(b));
		fprintf(f, "  %s\n", b);
		break;
	case ADV_EXPLORATORY:
		fprintf(f, "  exploratory: nothing decidable (%s)\n", j->why);
		break;
	case ADV_LOAD_EFFECT:
		advise_load_effect(w, b, sizeof(b));
		fprintf(f, "  %s\n", b);
		break;
	}
}

/* print_steady - whether the arms held still inside their phases (steady.h) */
static void print_steady(FILE *f, const struct adv_workload *w)
{
	size_t i, k, judged = 0;

	for (i = 0; i <= w->ncfg; i++)
		for (k = 0; k < w->nprim; k++)
			judged += !isnan(adv_arm(w, i)->steady[k].p);
	if (!judged)
		return;
	if (!w->moving) {
		fprintf(f, "  inside the phases: no arm shown to move between a phase's first and "
			"last third (%zu primary metrics x arms judged, margin %.3g%%)\n", judged,
			adv_arm(w, 0)->steady[0].margin * 100);
		return;
	}
	fprintf(f, "  still moving inside its phases (each phase's last third against its "
		"first, block by block): these figures are of the first seconds after a switch; "
		"a longer phase, or the configuration's own settle, measures it nearer its "
		"steady state\n");
	for (i = 0; i <= w->ncfg; i++)
		for (k = 0; k < w->nprim; k++) {
			const struct judgement *j = &adv_arm(w, i)->steady[k];
			char id[METRIC_ID_LEN + NAME_LEN + 8];

			if (j->v != V_WORSE && j->v != V_BETTER)
				continue;
			snprintf(id, sizeof(id), "%s %s", adv_arm(w, i)->s->config, w->prim_id[k]);
			print_judgement(f, id, j);
		}
}

#define PLACE_MAX 8

/* print_placement - did each setting of c move the work it targets (placement.h)? */
static void print_placement(FILE *f, const struct adv_workload *w, const struct adv_cfg *c)
{
	struct placement p[PLACE_MAX];
	char line[1024];
	size_t i, n = placement_sets(w->ref, c->s, p, PLACE_MAX);

	for (i = 0; i < n; i++)
		if (p[i].v != PLV_NOT_PLACEMENT)
			fprintf(f, "    placement: %s\n", placement_describe(&p[i], line, sizeof(line)));
}

static void print_workload(FILE *f, const struct advice *a, const struct adv_workload *w)
{
	size_t k, i;

	fprintf(f, "\n%s%s%s (reference %s; primary:", w->workload,
		w->loads[0] ? " under load " : "", w->loads, w->ref ? w->ref->config : "-");
	for (k = 0; k < w->nprim; k++)
		fprintf(f, " %s", w->prim_id[k]);
	fprintf(f, ")\n");
	if (!w->nprim || !w->ncfg) {
		fprintf(f, "  nothing to advise: %s\n", w->why_none ? w->why_none :
			!w->nprim ? "no primary metric has data" : "a single configuration");
		return;
	}
	print_answer(f, w);
	for (i = 0; i < w->ncfg; i++) {
		const struct adv_cfg *c = &w->cfg[i];

		fprintf(f, "  %s %s: %zu better, %zu worse, %zu lower, %zu higher, %zu no change, "
			"%zu undecided\n", c == w->best ? "*" : "-", c->s->config, c->better,
			c->worse, c->lower, c->higher, c->same, c->undecided);
		for (k = 0; k < w->nprim; k++)
			print_judgement(f, w->prim_id[k], &c->j[k]);
		print_placement(f, w, c);
		if (c == w->best)
			print_apply(f, c->s, w->ref);
	}
	print_steady(f, w);
	(void)a;
}

/* first_group - the first advice entry of entry j's workload */
static size_t first_group(const struct advice *a, size_t j)
{
	size_t i;

	for (i = 0; i < j && strcmp(a->wl[i].workload, a->wl[j].workload); i++)
		;
	return i;
}

/* print_tradeoffs - a configuration name that helps one workload and hurts another */
static void print_tradeoffs(FILE *f, const struct advice *a)
{
	size_t i, j, k, found = 0;

	for (i = 0; i < a->n; i++)
		for (k = 0; k < a->wl[i].ncfg; k++) {
			const struct adv_cfg *c = &a->wl[i].cfg[k];

			if (!c->better || a->wl[i].load_effect)
				continue;	/* a load is no configuration to trade */
			for (j = 0; j < a->n; j++) {
				const struct adv_cfg *o = adv_find(a, a->wl[j].workload, c->s->config);

				/* another workload, each once (a workload may have load groups) */
				if (!strcmp(a->wl[j].workload, a->wl[i].workload) ||
				    first_group(a, j) != j || !o || !o->worse)
					continue;
				if (!found++)
					fprintf(f, "\ntrade-offs (one configuration, several workloads):\n");
				fprintf(f, "  %s: better for %s (%zu primary), worse for %s (%zu "
					"primary)\n", c->s->config, a->wl[i].workload, c->better,
					a->wl[j].workload, o->worse);
			}
		}
	if (!found)
		fprintf(f, "\ntrade-offs: none decided (no configuration is better for one "
			"workload and worse for another)\n");
}

static json_object *json_num(double v)
{
	return isnan(v) ? NULL : json_object_new_double(v);
}

static json_object *json_places(const struct placement_dist *d)
{
	json_object *o = json_object_new_object();
	size_t i;

	for (i = 0; i < d->n; i++)
		json_object_object_add(o, d->p[i].where,
				       json_object_new_int64((int64_t)d->p[i].count));
	return o;
}

/* json_placement - placement.h's verdicts of c's settings */
static json_object *json_placement(const struct adv_workload *w, const struct adv_cfg *c)
{
	static const char *const names[] = {
		[PLV_MOVED] = "moved", [PLV_SAME] = "no effect", [PLV_NO_WORK] = "no work",
		[PLV_TOO_FEW] = "too few", [PLV_UNSEEN] = "not seen",
		[PLV_NOT_PLACEMENT] = "not a placement knob",
	};
	struct placement p[PLACE_MAX];
	json_object *arr = json_object_new_array();
	size_t i, n = placement_sets(w->ref, c->s, p, PLACE_MAX);

	for (i = 0; i < n; i++) {
		json_object *o = json_object_new_object();

		json_object_object_add(o, "knob", json_object_new_string(p[i].knob));
		json_object_object_add(o, "value", json_object_new_string(p[i].value));
		json_object_object_add(o, "verdict", json_object_new_string(names[p[i].v]));
		json_object_object_add(o, "target", json_object_new_string(p[i].t.desc));
		json_object_object_add(o, "moved", json_num(p[i].moved));
		json_object_object_add(o, "reference", json_places(&p[i].ref));
		json_object_object_add(o, "here", json_places(&p[i].arm));
		json_object_array_add(arr, o);
	}
	return arr;
}

static json_object *json_judgement(const char *id, const struct judgement *j)
{
	json_object *o = json_object_new_object();

	json_object_object_add(o, "metric", json_object_new_string(id));
	json_object_object_add(o, "verdict", json_object_new_string(judge_verdict_names[j->v]));
	json_object_object_add(o, "base_ns", json_num(j->base));
	json_object_object_add(o, "new_ns", json_num(j->new));
	json_object_object_add(o, "ratio", json_num(j->ratio));
	json_object_object_add(o, "lo", json_num(j->lo));
	json_object_object_add(o, "hi", json_num(j->hi));
	json_object_object_add(o, "margin", json_num(j->margin));
	json_object_object_add(o, "detects", json_num(j->mdc));
	json_object_object_add(o, "paired", json_object_new_boolean(j->paired));
	json_object_object_add(o, "margin_is_noise_floor", json_object_new_boolean(j->margin_floor));
	json_object_object_add(o, "margin_is_default_floor",
			       json_object_new_boolean(j->margin_default));
	json_object_object_add(o, "p", json_num(j->p));
	json_object_object_add(o, "level", json_num(j->level));
	json_object_object_add(o, "more_repetitions", j->more >= 0 ?
			       json_object_new_int64(j->more) : NULL);
	json_object_object_add(o, "why", json_object_new_string(j->why));
	return o;
}

/* json_steady - an arm's steady judgements, late against early (steady.h) */
static json_object *json_steady(const struct adv_workload *w, const struct adv_cfg *c)
{
	json_object *v = json_object_new_array();
	size_t k;

	for (k = 0; k < w->nprim; k++)
		json_object_array_add(v, json_judgement(w->prim_id[k], &c->steady[k]));
	return v;
}

static json_object *json_settings(const struct cellset *s)
{
	const struct cell *c = first_ok(s);
	json_object *o = json_object_new_object(), *k = json_object_new_object();
	json_object *w = json_object_new_object();
	size_t i;

	for (i = 0; c && i < c->nknobs; i++)
		json_object_object_add(k, c->knobs[i].key, json_object_new_string(c->knobs[i].val));
	for (i = 0; c && i < c->nopts; i++)
		json_object_object_add(w, c->opts[i].key, json_object_new_string(c->opts[i].val));
	json_object_object_add(o, "knobs", k);
	json_object_object_add(o, "workload_options", w);
	return o;
}

static json_object *json_advice(const struct run *run, const struct advice *a)
{
	json_object *root = json_object_new_object(), *arr = json_object_new_array();
	size_t i, k, c;

	json_object_object_add(root, "run", json_object_new_string(run->dir));
	json_object_object_add(root, "kernel", json_object_new_string(run->meta[RM_KERNEL]));
	json_object_object_add(root, "alpha", json_object_new_double(1 - a->o.confidence));
	/* what alpha holds: any wrong "worse" or "better" in the whole advice */
	json_object_object_add(root, "family", json_object_new_string("run"));
	json_object_object_add(root, "threshold", json_object_new_double(a->o.threshold));
	for (i = 0; i < a->n; i++) {
		const struct adv_workload *w = &a->wl[i];
		json_object *o = json_object_new_object(), *p = json_object_new_array();
		json_object *cfgs = json_object_new_array();

		json_object_object_add(o, "workload", json_object_new_string(w->workload));
		json_object_object_add(o, "loads", json_object_new_string(w->loads));
		json_object_object_add(o, "reference", w->ref ?
				       json_object_new_string(w->ref->config) : NULL);
		for (k = 0; k < w->nprim; k++)
			json_object_array_add(p, json_object_new_string(w->prim_id[k]));
		json_object_object_add(o, "primary", p);
		/* a load's effect chooses nothing: no "use" */
		json_object_object_add(o, "use", w->load_effect ? NULL :
				       json_object_new_string(w->best ? w->best->s->config :
							      w->ref ? w->ref->config : ""));
		json_object_object_add(o, "changed", json_object_new_boolean(w->best != NULL));
		json_object_object_add(o, "answer", json_object_new_string(
			(const char *[]){ [ADV_USE] = "use", [ADV_KEEP] = "keep",
					   [ADV_WAIT_ONLY] = "wait only",
					   [ADV_UNDECIDED] = "undecided",
					   [ADV_EXPLORATORY] = "exploratory",
					   [ADV_LOAD_EFFECT] = "load effect" }[w->answer]));
		json_object_object_add(o, "decided", json_object_new_boolean(
				       w->best ? w->best_decided : false));
		if (w->best)
			json_object_object_add(o, "settings", json_settings(w->best->s));
		for (c = 0; c < w->ncfg; c++) {
			json_object *x = json_object_new_object(), *v = json_object_new_array();

			json_object_object_add(x, "config",
					       json_object_new_string(w->cfg[c].s->config));
			for (k = 0; k < w->nprim; k++)
				json_object_array_add(v, json_judgement(w->prim_id[k], &w->cfg[c].j[k]));
			json_object_object_add(x, "verdicts", v);
			json_object_object_add(x, "steady", json_steady(w, &w->cfg[c]));
			json_object_object_add(x, "placement", json_placement(w, &w->cfg[c]));
			json_object_array_add(cfgs, x);
		}
		json_object_object_add(o, "configs", cfgs);
		if (w->ncfg)
			json_object_object_add(o, "reference_steady", json_steady(w, &w->ref_steady));
		json_object_object_add(o, "moving", json_object_new_int64((int64_t)w->moving));
		json_object_array_add(arr, o);
	}
	json_object_object_add(root, "workloads", arr);
	return root;
}

int cmd_advise(int argc, char **argv)
{
	struct advise_args a;
	char err[ERRBUF_LEN];
	struct judge_opts jo;
	struct advice adv;
	struct run run;
	int ret;

	ret = cli_parsed(advise_parse_args(argc, argv, &a, err), &cli_advise, err, 1);
	if (ret >= 0)
		return ret;
	judge_opts_default(&jo);
	jo.threshold = a.threshold;
	if (a.noise)
		warn_msg("advise: --noise is no longer used: the configurations of one run are "
			 "judged against each other, its blocks or repetitions the unit; a "
			 "calibration's spread is between separate runs (compare)");
	ret = run_load(a.run, &run, err);
	if (ret) {
		err_msg("%s", err);
		return 1;
	}
	jo.looks = run.looks ? run.looks : 1;
	ret = advise_run(&run, &jo, &adv, err);
	if (ret) {
		err_msg("%s", err);
	} else if (a.json) {
		json_object *o = json_advice(&run, &adv);

		printf("%s\n", json_object_to_json_string_ext(o, JSON_C_TO_STRING_PRETTY |
							      JSON_C_TO_STRING_NOSLASHESCAPE));
		json_object_put(o);
	} else {
		printf("advice for %s (kernel %s): family-wise error %.3g per run (Holm), "
		       "margin %.3g%%\n", run.dir, run.meta[RM_KERNEL], 1 - jo.confidence,
		       jo.threshold * 100);
		for (size_t i = 0; i < adv.n; i++)
			print_workload(stdout, &adv, &adv.wl[i]);
		print_tradeoffs(stdout, &adv);
	}
	if (!ret)
		advise_free(&adv);
	run_free(&run);
	return ret ? 1 : 0;
}
