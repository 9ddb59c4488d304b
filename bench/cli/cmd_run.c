// SPDX-License-Identifier: GPL-2.0
/*
 * cmd_run.c - `deferbench run SCENARIO`: the command line of the scenario runner.
 */
#include <string.h>

#include "adaptive.h"
#include "cli.h"
#include "leftovers.h"
#include "msg.h"
#include "parse.h"
#include "sys.h"

enum { OPT_UNTIL = 256, OPT_AGAINST, OPT_DESIGN };

/* The budget of --until-decided without a value: a CI job's ten minutes on 2 CPUs. */
#define UNTIL_DEFAULT_NS (10 * 60 * NSEC_PER_SEC)

static const struct opt_desc run_optdesc[] = {
	{ "output", 'o', required_argument, "DIR",
	  "result directory (default results/<host>/<kernel>/<UTC time>-<scenario>)" },
	{ "quick", 'q', no_argument, NULL,
	  "one repetition of quick_duration (default 3s) per cell" },
	{ "dry-run", 'n', no_argument, NULL, "print the cells and knob changes; change nothing" },
	{ "design", OPT_DESIGN, required_argument, "alternate|cells",
	  "alternate: a workload's configurations switched in phases while it runs (one "
	  "run decides between them); cells: each its own runs; default: the scenario's" },
	{ "until-decided", OPT_UNTIL, optional_argument, "[=BUDGET]",
	  "after the planned repetitions, add some where a primary verdict is undecided, "
	  "until all are decided or BUDGET (default 10m; the run's whole time) is spent" },
	{ "against", OPT_AGAINST, required_argument, "RUN",
	  "with --until-decided: judge against this (baseline) run, not the reference "
	  "configuration" },
	{ "store", 'S', required_argument, "FILE",
	  "add the finished run to this results store (deferbench history); the scenario's "
	  "[global] store key does the same" },
	{ "help", 'h', no_argument, NULL, "this help" },
	{ 0 },
};

static const struct cli_help run_help = {
	"run", "deferbench run [-o DIR] [--quick] [--dry-run] [--design D] [--until-decided[=BUDGET] "
	"[--against RUN]] [--store FILE] SCENARIO",
	"Run every workload of SCENARIO under each of its configurations, repetitions "
	"interleaved; see docs/scenarios.md.\n"
	"Exit status: 0 every cell ran and every knob was restored, 1 otherwise.",
	run_optdesc, NULL,
};

int run_parse_args(int argc, char **argv, struct run_args *a, char *errbuf)
{
	struct run_opts *o = &a->o;
	struct opts_iter it;
	char err[ERRBUF_LEN];
	int c;

	memset(a, 0, sizeof(*a));
	if ((c = opts_begin(&it, run_optdesc, OPTS_PERMUTE, argc, argv, errbuf)))
		return c;
	while ((c = opts_next(&it, errbuf)) >= 0) {
		switch (c) {
		case 'o':
			o->outdir = optarg;
			break;
		case 'q':
			o->quick = true;
			break;
		case 'n':
			o->dry_run = true;
			break;
		case OPT_UNTIL:
			a->until_decided = true;
			o->until_decided_ns = UNTIL_DEFAULT_NS;
			if (optarg && parse_duration_ns(optarg, &o->until_decided_ns, err))
				return set_err(errbuf, "--until-decided: %s", err);
			break;
		case OPT_AGAINST:
			a->against = optarg;
			break;
		case OPT_DESIGN:
			if (strcmp(optarg, "alternate") && strcmp(optarg, "cells"))
				return set_err(errbuf, "--design: '%s' is neither alternate nor cells",
					       optarg);
			o->design = optarg;
			break;
		case 'S':
			o->store = optarg;
			break;
		case 'h':
			return CLI_HELP;
		}
	}
	if (c != OPTS_END)
		return c;
	if (optind != argc - 1)
		return set_err(errbuf, optind == argc ? "which scenario? give a scenario file "
			       "(bench/scenarios/quick.ini, say)" : "one scenario file only");
	o->scenario = argv[optind];
	if (a->against && !a->until_decided)
		return set_err(errbuf, "--against goes with --until-decided");
	return 0;
}

int cmd_run(int argc, char **argv)
{
	char cmd[512], err[ERRBUF_LEN];
	struct run_more more;
	struct adapt ad;
	struct run_args a;
	struct run_outcome out = { 0 };
	int ret;

	ret = cli_parsed(run_parse_args(argc, argv, &a, err), &run_help, err, 1);
	if (ret >= 0)
		return ret;
	snprintf(cmd, sizeof(cmd), "deferbench ");
	command_line(argc, argv, cmd + strlen(cmd), sizeof(cmd) - strlen(cmd));
	a.o.command = cmd;
	if (!a.o.dry_run && !is_root()) {
		err_msg("run changes kernel settings and traces the kernel: run as root "
			"(or try --dry-run)");
		return 1;
	}
	/* what killed runs left (not their knobs: run refuses those until restore) */
	if (!a.o.dry_run)
		leftovers_remove(NULL);
	/* the loop is always offered: the scenario's until_decided key may turn it on */
	if (adapt_init(&ad, a.against, err)) {
		err_msg("--against: %s", err);
		return 1;
	}
	more = (struct run_more){ adapt_more, &ad, ADAPT_LOOKS };
	a.o.adaptive = &more;
	a.o.outcome = &out;
	ret = run_scenario(&a.o, run_engine());
	adapt_free(&ad);
	if (!out.dir[0] || !out.store[0])
		return ret;
	/* only a complete run: an interrupted one would be a gap that looks like data */
	if (!out.complete) {
		warn_msg("the run did not complete: not added to %s", out.store);
		return ret;
	}
	return history_add_dir(out.store, out.dir, false) ? 1 : ret;
}
