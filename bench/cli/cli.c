// SPDX-License-Identifier: GPL-2.0
/*
 * cli.c - the registry of subcommands, and what every one of them does with its
 * parser's verdict (cli.h).
 */
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "msg.h"

const struct cli_command *const cli_commands[] = {
	&cli_record, &cli_analyze, &cli_top, &cli_load, &cli_run, &cli_restore, &cli_knobs,
	&cli_report, &cli_compare, &cli_advise, &cli_tune, &cli_baseline, &cli_history,
	&cli_export,
	NULL,
};

const struct cli_command *cli_command_find(const char *name)
{
	const struct cli_command *const *c;

	for (c = cli_commands; *c; c++)
		if (!strcmp((*c)->name, name))
			return *c;
	return NULL;
}

void cli_usage(FILE *f, const struct cli_command *c)
{
	void *defaults = calloc(1, c->args_size);

	/* without memory the help goes without its defaults */
	if (defaults && c->defaults)
		c->defaults(defaults);
	opts_usage(f, c->usage, c->desc, c->opts, defaults);
	if (c->more)
		c->more(f);
	/* every command has its page; the options several share have theirs */
	fprintf(f, "\nManual: docs/%s.md in the source tree (shared options: "
		"docs/common-options.md).\n", c->name);
	if (c->examples) {
		const char *s, *nl;

		fprintf(f, "\nExamples:\n");
		for (s = c->examples; *s; s = *nl ? nl + 1 : nl) {
			nl = strchrnul(s, '\n');
			fprintf(f, "  %.*s\n", (int)(nl - s), s);
		}
	}
	free(defaults);
}

int cli_parsed(int ret, const struct cli_command *c, const char *err, int errcode)
{
	if (ret == CLI_HELP) {
		cli_usage(stdout, c);
		return 0;
	}
	if (ret) {
		err_msg("%s: %s; see 'deferbench %s --help'", c->name, err, c->name);
		return errcode;
	}
	return -1;
}
