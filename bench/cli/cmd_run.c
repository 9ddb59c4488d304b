// SPDX-License-Identifier: GPL-2.0
/*
 * cmd_run.c - `deferbench run SCENARIO`: the command line of the scenario runner.
 */
#include <string.h>

#include "cli.h"

static const struct opt_desc run_optdesc[] = {
	{ "output", 'o', required_argument, "DIR",
	  "result directory (default results/<host>/<kernel>/<UTC time>-<scenario>)" },
	{ "quick", 'q', no_argument, NULL,
	  "one repetition of quick_duration (default 3s) per cell" },
	{ "dry-run", 'n', no_argument, NULL, "print the cells and knob changes; change nothing" },
	{ "store", 'S', required_argument, "FILE",
	  "add the finished run to this results store (deferbench history); the scenario's "
	  "[global] store key does the same" },
	{ "help", 'h', no_argument, NULL, "this help" },
	{ 0 },
};

static const struct cli_help run_help = {
	"run", "deferbench run [-o DIR] [--quick] [--dry-run] [--store FILE] SCENARIO",
	"Run every workload of SCENARIO under each of its configurations, repetitions "
	"interleaved; see docs/scenarios.md.\n"
	"Exit status: 0 every cell ran and every knob was restored, 1 otherwise.",
	run_optdesc, NULL,
};

int run_parse_args(int argc, char **argv, struct run_opts *o, char *errbuf)
{
	struct opts_iter it;
	int c;

	memset(o, 0, sizeof(*o));
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
	return 0;
}

int cmd_run(int argc, char **argv)
{
	char cmd[512], err[ERRBUF_LEN];
	struct run_outcome out = { 0 };
	struct run_opts o;
	int ret;

	ret = cli_parsed(run_parse_args(argc, argv, &o, err), &run_help, err, 1);
	if (ret >= 0)
		return ret;
	snprintf(cmd, sizeof(cmd), "deferbench ");
	command_line(argc, argv, cmd + strlen(cmd), sizeof(cmd) - strlen(cmd));
	o.command = cmd;
	if (!o.dry_run && !is_root()) {
		err_msg("run changes kernel settings and traces the kernel: run as root "
			"(or try --dry-run)");
		return 1;
	}
	o.outcome = &out;
	ret = run_scenario(&o, run_engine());
	if (!out.dir[0] || !out.store[0])
		return ret;
	/* only a complete run: an interrupted one would be a gap that looks like data */
	if (!out.complete) {
		warn_msg("the run did not complete: not added to %s", out.store);
		return ret;
	}
	return history_add_dir(out.store, out.dir, false) ? 1 : ret;
}
