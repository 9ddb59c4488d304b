// SPDX-License-Identifier: GPL-2.0
/*
 * main.c - the deferbench command: global options, then one subcommand (cli.h).
 */
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "owned.h"
#include "workload.h"
#include "msg.h"
#include "sys.h"

static const struct command {
	const char *name;
	int (*fn)(int argc, char **argv);
	const char *help;
} commands[] = {
	{ "record", cmd_record, "trace softirq and workqueue latency system-wide" },
	{ "analyze", cmd_analyze, "recompute every figure from a capture kept with record --raw, "
	  "or from a trace.dat" },
	{ "top", cmd_top, "live view: workqueues and softirqs per interval, like top" },
	{ "load", cmd_load, "run one workload and report its latency (workloads below)" },
	{ "run", cmd_run, "run a scenario: workloads x kernel configurations x repetitions" },
	{ "restore", cmd_restore, "undo the settings of a run that was killed or crashed" },
	{ "knobs", cmd_knobs, "show workqueue settings and worker pools; list or set knobs" },
	{ "report", cmd_report, "write report.md, report.html, plots and tables for a run" },
	{ "compare", cmd_compare, "compare two runs: better / worse / no change per metric" },
	{ "advise", cmd_advise, "the configuration each workload should use, and why" },
	{ "tune", cmd_tune, "the configuration for your own workload, decided on this machine" },
	{ "baseline", cmd_baseline, "save, show or locate the stored baseline run of a host" },
	{ "history", cmd_history, "results store: metrics across kernels and hosts, change points" },
	{ "export", cmd_export, "a run's metrics for CI: KCIDB JSON, LAVA test cases, result.txt" },
};

static void usage(FILE *f)
{
	const struct workload_ops *const *w;
	size_t i;

	fprintf(f, "usage: deferbench [-v] [--version] COMMAND [ARGS]\n\n"
		"Measure how long Linux deferred work (softirqs and workqueue items) waits and\n"
		"runs, under load and across workqueue pool configurations.\n\ncommands:\n");
	for (i = 0; i < ARRAY_SIZE(commands); i++)
		fprintf(f, "  %-10s %s\n", commands[i].name, commands[i].help);
	fprintf(f, "\nworkloads:");
	for (w = workload_registry; *w; w++)
		fprintf(f, " %s", (*w)->name);
	fprintf(f, "\n\n'deferbench COMMAND --help' describes a command's options.\n");
}

int main(int argc, char **argv)
{
	size_t i;
	int a = 1;

	for (; a < argc && argv[a][0] == '-'; a++) {
		if (!strcmp(argv[a], "-v") || !strcmp(argv[a], "--verbose")) {
			verbose++;
		} else if (!strcmp(argv[a], "-h") || !strcmp(argv[a], "--help")) {
			usage(stdout);
			return 0;
		} else if (!strcmp(argv[a], "--version")) {
			printf("deferbench %s\n", DEFERBENCH_VERSION);
			return 0;
		} else {
			err_msg("unknown option '%s'; see 'deferbench --help'", argv[a]);
			return 1;
		}
	}
	if (a >= argc) {
		usage(stderr);
		return 1;
	}
	for (i = 0; i < ARRAY_SIZE(commands); i++)
		if (!strcmp(argv[a], commands[i].name)) {
			char cmd[256] = "deferbench ";

			/* named in the journal of what this process creates (owned.h) */
			command_line(argc - a, argv + a, cmd + strlen(cmd), sizeof(cmd) - strlen(cmd));
			owned_command(cmd);
			return commands[i].fn(argc - a, argv + a);
		}
	err_msg("unknown command '%s'; see 'deferbench --help'", argv[a]);
	return 1;
}
