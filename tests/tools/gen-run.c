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

static const struct opt_desc gen_opts[] = {
	{ "slowdown", 's', required_argument, "X", "multiply every latency (default 1)" },
	{ "reps", 'r', required_argument, "N", "repetitions per cell (default 3)" },
	{ "seed", 'S', required_argument, "N", "random seed (default 1)" },
	{ "noise", 'n', required_argument, "X", "repetition spread sigma (default 0.03)" },
	{ "lossy", 'l', required_argument, "CELL", "mark this cell id lossy" },
	{ "failed", 'f', required_argument, "CELL", "write this cell with status failed" },
	{ "partial", 'p', no_argument, NULL, "leave a .partial- cell, complete = false" },
	{ "kernel", 'k', required_argument, "K", "meta.kernel" },
	{ "cmdline", 'c', required_argument, "C", "meta.cmdline" },
	{ "workloads", 'w', required_argument, "LIST",
	  "workloads, of net, tty, timer, fsync (default net,tty,timer)" },
	{ "configs", 'C', required_argument, "LIST",
	  "configurations (default default,threaded-napi,wq-nice-10)" },
	{ "samples", 'N', required_argument, "N",
	  "samples per group, metric and repetition (default 4000)" },
	{ "knob", 'K', required_argument, "KEY=VALUE",
	  "this knob value in every cell.json (repeatable; replaces the default one)" },
	{ NULL, 0, 0, NULL, NULL }
};

#define MAX_LIST 16

/* split - "a,b,c" into list (NULL-terminated, pointing into s, which it changes) */
static int split(char *s, const char **list, char *err)
{
	int n = 0;
	char *tok, *save = NULL;

	for (tok = strtok_r(s, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		if (n == MAX_LIST - 1)
			return set_err(err, "more than %d names", MAX_LIST - 1);
		list[n++] = tok;
	}
	list[n] = NULL;
	return n ? 0 : set_err(err, "an empty list");
}

static int parse(int argc, char **argv, struct synth_opts *o)
{
	static const char *wls[MAX_LIST], *cfgs[MAX_LIST], *knobs[MAX_LIST];
	struct opts_parser p;
	char err[ERRBUF_LEN];
	int c, ret = 0, nknobs = 0;
	uint64_t u;

	opts_build(&p, gen_opts);
	while (!ret && (c = getopt_long(argc, argv, p.shortopts, p.longopts, NULL)) != -1) {
		switch (c) {
		case 's': ret = parse_double(optarg, 0.01, 100, &o->slowdown, err); break;
		case 'n': ret = parse_double(optarg, 0, 2, &o->rep_noise, err); break;
		case 'r': ret = parse_u64(optarg, 1, 50, &u, err); o->reps = (unsigned)u; break;
		case 'S': ret = parse_u64(optarg, 0, UINT64_MAX, &o->seed, err); break;
		case 'N': ret = parse_u64(optarg, 100, 1000000, &u, err); o->samples = (unsigned)u; break;
		case 'l': o->lossy_cell = optarg; break;
		case 'f': o->failed_cell = optarg; break;
		case 'p': o->partial = true; break;
		case 'k': o->kernel = optarg; break;
		case 'c': o->cmdline = optarg; break;
		case 'w': ret = split(optarg, wls, err); o->workloads = wls; break;
		case 'C': ret = split(optarg, cfgs, err); o->configs = cfgs; break;
		case 'K':
			if (nknobs == MAX_LIST - 1 || !strchr(optarg, '=')) {
				ret = set_err(err, "--knob: KEY=VALUE, at most %d", MAX_LIST - 1);
				break;
			}
			knobs[nknobs++] = optarg;
			o->knobs = knobs;
			break;
		default: snprintf(err, sizeof(err), "bad option"); ret = -1; break;
		}
	}
	if (ret)
		err_msg("gen-run: %s", err);
	return ret;
}

int main(int argc, char **argv)
{
	struct synth_opts o;
	int ret;

	synth_defaults(&o);
	if (parse(argc, argv, &o) || optind != argc - 1) {
		opts_usage(stderr, "gen-run [OPTIONS] DIR", NULL, gen_opts);
		return 2;
	}
	ret = synth_run(argv[optind], &o);
	if (ret) {
		err_msg("gen-run: %s: %s", argv[optind], strerror(-ret));
		return 1;
	}
	return 0;
}
