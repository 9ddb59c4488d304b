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
#include "proc.h"
#include "stdout.h"
#include "sys.h"

static void usage(FILE *f)
{
	const struct cli_command *const *c;
	const struct workload_ops *const *w;

	fprintf(f, "usage: deferbench [-v] [--version] COMMAND [ARGS]\n"
		"       deferbench help [COMMAND]\n\n"
		"Measure how long Linux deferred work (softirqs and workqueue items) waits and\n"
		"runs, under load and across workqueue pool configurations.\n\ncommands:\n");
	for (c = cli_commands; *c; c++)
		fprintf(f, "  %-10s %s\n", (*c)->name, (*c)->summary);
	fprintf(f, "\nworkloads:");
	for (w = workload_registry; *w; w++)
		fprintf(f, " %s", (*w)->name);
	fprintf(f, "\n\n'deferbench help COMMAND' or 'deferbench COMMAND --help' describes a "
		"command's options.\n");
}

/* help - 'deferbench help [COMMAND]': what --help prints, as git and perf have it */
static int help(int argc, char **argv)
{
	const struct cli_command *c;

	if (argc < 2) {
		usage(stdout);
		return 0;
	}
	c = cli_command_find(argv[1]);
	if (!c || argc > 2) {
		err_msg("help: %s '%s'; see 'deferbench --help'",
			c ? "one command at a time, not" : "unknown command", argv[c ? 2 : 1]);
		return 1;
	}
	cli_usage(stdout, c);
	return 0;
}

/*
 * run - what main does; every exit status goes through stdout_end, which needs the
 * status of an error: 1, or compare's own 2 (cli.h)
 */
static int run(int argc, char **argv, int *err_status)
{
	const struct cli_command *c;
	int a = 1;

	for (; a < argc && argv[a][0] == '-'; a++) {
		if (!strcmp(argv[a], "-v") || !strcmp(argv[a], "--verbose")) {
			msg_verbose++;
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
	c = cli_command_find(argv[a]);
	if (c) {
		char cmd[256] = "deferbench ";

		/* named in the journal of what this process creates (owned.h) */
		proc_command_line(argc - a, argv + a, cmd + strlen(cmd), sizeof(cmd) - strlen(cmd));
		owned_command(cmd);
		if (c == &cli_compare)
			*err_status = 2;
		return c->fn(argc - a, argv + a);
	}
	if (!strcmp(argv[a], "help"))
		return help(argc - a, argv + a);
	err_msg("unknown command '%s'; see 'deferbench --help'", argv[a]);
	return 1;
}

int main(int argc, char **argv)
{
	int err_status = 1, status;

	/* what a command prints must reach stdout, or its status says it did not */
	stdout_begin();
	stop_on_file_limit();
	status = run(argc, argv, &err_status);
	return stdout_end(status, err_status);
}
