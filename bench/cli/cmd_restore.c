// SPDX-License-Identifier: GPL-2.0
/*
 * cmd_restore.c - `deferbench restore`: undo what a killed or crashed run left behind.
 */
#include <string.h>

#include "cli.h"
#include "journal.h"
#include "leftovers.h"
#include "restore.h"
#include "msg.h"
#include "sys.h"

static const struct opt_desc restore_opts[] = {
	{ "force", 'f', no_argument, NULL,
	  "restore even though the run that wrote the journal still runs" },
	{ "help", 'h', no_argument, NULL, "this help" },
	{ 0 },
};

static const struct cli_help restore_help = {
	"restore", "deferbench restore [--force]",
	"Undo the kernel settings of a run that was killed or crashed (saved in\n"
	JOURNAL_PATH "), and remove its tracefs instance and temporary files.",
	restore_opts, NULL,
};

int restore_parse_args(int argc, char **argv, struct restore_args *a, char *errbuf)
{
	struct opts_iter it;
	int c;

	memset(a, 0, sizeof(*a));
	if ((c = opts_begin(&it, restore_opts, OPTS_IN_ORDER, argc, argv, errbuf)))
		return c;
	while ((c = opts_next(&it, errbuf)) >= 0) {
		switch (c) {
		case 'f':
			a->force = true;
			break;
		case 'h':
			return CLI_HELP;
		}
	}
	if (c != OPTS_END)
		return c;
	if (optind < argc)
		return set_err(errbuf, "unexpected argument '%s'", argv[optind]);
	return 0;
}

int cmd_restore(int argc, char **argv)
{
	char err[ERRBUF_LEN];
	struct restore_args a;
	int ret;

	ret = cli_parsed(restore_parse_args(argc, argv, &a, err), &restore_help, err, 1);
	if (ret >= 0)
		return ret;
	if (!is_root()) {
		/* analyze and report run as any user: their staging directories are theirs */
		printf("not root: kernel settings and tracefs are left to 'sudo deferbench "
		       "restore'; cleaning what your own deferbench processes left\n");
		return leftovers_remove(stdout) ? 1 : 0;
	}
	return restore_machine(a.force);
}
