// SPDX-License-Identifier: GPL-2.0
/*
 * gen-run.c - write a synthetic run directory for the report/compare integration tests.
 *
 *   gen-run [--slowdown X] [--reps N] [--seed N] [--lossy CELL] [--failed CELL]
 *           [--partial] [--kernel K] [--cmdline C] [--workloads A,B] [--configs A,B]
 *           [--knob KEY=VALUE]... [--samples N] DIR
 */
#include <stdio.h>
#include <string.h>

#include "opts.h"
#include "synth.h"
#include "msg.h"
#include "parse.h"

#define MAX_LIST 16

struct gen_args {
	struct synth_opts o;
	const char *wls[MAX_LIST], *cfgs[MAX_LIST], *knobs[MAX_LIST];
	size_t nknobs;
};

/* split - "a,b,c" into the list at o->off (NULL-terminated, pointing into arg) */
static int split(const struct opt_desc *o, const char *arg, void *args, char *err)
{
	const char **list = (const char **)((char *)args + o->off);
	char *tok, *save = NULL;
	int n = 0;

	/* the argv strings are the program's own to cut */
	for (tok = strtok_r((char *)arg, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		if (n == MAX_LIST - 1)
			return set_err(err, "more than %d names", MAX_LIST - 1);
		list[n++] = tok;
	}
	list[n] = NULL;
	return n ? 0 : set_err(err, "an empty list");
}

static const struct opt_desc gen_opts[] = {
	OPT_DOUBLE('s', "slowdown", gen_args, o.slowdown, "X", 0.01, 100,
		   "multiply every latency"),
	OPT_UINT('r', "reps", gen_args, o.reps, "N", 1, 50, "repetitions per cell"),
	OPT_U64('S', "seed", gen_args, o.seed, "N", 0, UINT64_MAX, "random seed"),
	OPT_DOUBLE('n', "noise", gen_args, o.rep_noise, "X", 0, 2, "repetition spread sigma"),
	OPT_STRING('l', "lossy", gen_args, o.lossy_cell, "CELL", "mark this cell id lossy"),
	OPT_STRING('f', "failed", gen_args, o.failed_cell, "CELL",
		   "write this cell with status failed"),
	OPT_BOOL('p', "partial", gen_args, o.partial, "leave a .partial- cell, complete = false"),
	OPT_STRING('k', "kernel", gen_args, o.kernel, "K", "meta.kernel"),
	OPT_STRING('c', "cmdline", gen_args, o.cmdline, "C", "meta.cmdline"),
	OPT_CALLBACK('w', "workloads", gen_args, wls, "LIST", split,
		     "workloads, of net, tty, timer, fsync (default net,tty,timer)"),
	OPT_CALLBACK('C', "configs", gen_args, cfgs, "LIST", split,
		     "configurations (default default,threaded-napi,wq-nice-10)"),
	OPT_UINT('N', "samples", gen_args, o.samples, "N", 100, 1000000,
		 "samples per group, metric and repetition"),
	OPT_STRING_LIST('K', "knob", gen_args, knobs, nknobs, "KEY=VALUE",
			"this knob value in every cell.json (repeatable; replaces the default "
			"one)"),
	OPT_END(),
};

static void gen_defaults(struct gen_args *a)
{
	memset(a, 0, sizeof(*a));
	synth_defaults(&a->o);
}

static int parse(int argc, char **argv, struct gen_args *a, int *first)
{
	char err[ERRBUF_LEN];
	size_t i;
	int ret;

	ret = opts_parse(gen_opts, OPTS_PERMUTE, argc, argv, a, first, err);
	for (i = 0; !ret && i < a->nknobs; i++)
		if (!strchr(a->knobs[i], '='))
			ret = set_err(err, "--knob: KEY=VALUE, not '%s'", a->knobs[i]);
	if (ret) {
		err_msg("gen-run: %s", err);
		return ret;
	}
	if (a->wls[0])
		a->o.workloads = a->wls;
	if (a->cfgs[0])
		a->o.configs = a->cfgs;
	if (a->nknobs)
		a->o.knobs = a->knobs;
	return 0;
}

int main(int argc, char **argv)
{
	struct gen_args a, defaults;
	int ret, first;

	gen_defaults(&a);
	if (parse(argc, argv, &a, &first) || first != argc - 1) {
		gen_defaults(&defaults);
		opts_usage(stderr, "gen-run [OPTIONS] DIR", NULL, gen_opts, &defaults);
		return 2;
	}
	ret = synth_run(argv[first], &a.o);
	if (ret) {
		err_msg("gen-run: %s: %s", argv[first], strerror(-ret));
		return 1;
	}
	return 0;
}
