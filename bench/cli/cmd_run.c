// SPDX-License-Identifier: GPL-2.0
/*
 * cmd_run.c - `deferbench run SCENARIO`: the command line of the scenario runner.
 */
#include <string.h>

#include "adaptive.h"
#include "cli.h"
#include "leftovers.h"
#include "msg.h"
#include "proc.h"
#include "parse.h"
#include "sys.h"

/*
 * run's options are its own and the scenario's [global] settings that have one
 * (scenario_settings[]): those are a layer over the file, applied when it is parsed.
 */
static const struct opt_desc run_opts[] = {
	CLI_OPT_OUTPUT(run_args, o.outdir, "DIR",
		       "result directory (default results/<host>/<kernel>/<UTC time>-<scenario>)"),
	CLI_OPT_DRY_RUN(run_args, o.dry_run, "print the cells and knob changes; change nothing"),
	OPT_LAYER(run_args, o.set, scenario_settings, struct scenario),
	CLI_OPT_AGAINST(run_args, against, "RUN",
			"with --until-decided: judge against this (baseline) run, not the "
			"reference configuration"),
	OPT_ALIAS('q', NULL, "quick", "-q is kept for --quiet"),
	OPT_HELP(),
	OPT_END(),
};

static void run_defaults(void *args)
{
	memset(args, 0, sizeof(struct run_args));
}

const struct cli_command cli_run = {
	.name = "run",
	.fn = cmd_run,
	.summary = "run a scenario: workloads x kernel configurations x repetitions",
	.usage = "deferbench run [-o DIR] [--dry-run] [--quick] [--design D] [--blocks N] "
		 "[--until-decided[=BUDGET] [--against RUN]] [-S FILE] [SETTING OPTIONS] SCENARIO",
	.desc =
	"Run every workload of SCENARIO under each of its configurations, repetitions "
	"interleaved; see docs/scenarios.md. An option that is also a [global] key of the "
	"scenario (its table in docs/scenarios.md) overrides the file's.\n"
	"Exit status: 0 every cell ran and every knob was restored, 1 otherwise.",
	.examples = "deferbench run --dry-run bench/scenarios/default.ini\n"
		    "deferbench run --quick -o /tmp/quick bench/scenarios/quick.ini",
	.opts = run_opts,
	.args_size = sizeof(struct run_args),
	.defaults = run_defaults,
};

int run_parse_args(int argc, char **argv, struct run_args *a, char *errbuf)
{
	int first, ret;

	run_defaults(a);
	ret = opts_parse(run_opts, OPTS_PERMUTE, argc, argv, a, &first, errbuf);
	if (ret)
		return ret;
	if (first != argc - 1)
		return set_err(errbuf, first == argc ? "which scenario? give a scenario file "
			       "(bench/scenarios/quick.ini, say)" : "one scenario file only");
	a->o.scenario = argv[first];
	if (a->against && !opts_layer_get(&a->o.set, "until_decided"))
		return set_err(errbuf, "--against goes with --until-decided");
	if (opts_layer_get(&a->o.set, "blocks") && opts_layer_get(&a->o.set, "quick"))
		return set_err(errbuf, "--blocks with --quick: --quick runs the scenario's "
			       "quick_blocks; drop one of them");
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

	ret = cli_parsed(run_parse_args(argc, argv, &a, err), &cli_run, err, 1);
	if (ret >= 0)
		return ret;
	snprintf(cmd, sizeof(cmd), "deferbench ");
	proc_command_line(argc, argv, cmd + strlen(cmd), sizeof(cmd) - strlen(cmd));
	a.o.command = cmd;
	if (!a.o.dry_run && !host_is_root()) {
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
	a.o.check_store = history_store_check;
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
