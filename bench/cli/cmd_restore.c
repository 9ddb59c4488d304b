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
	OPT_BOOL(0, "while-running", restore_args, while_running,
		 "restore even though the run that wrote the journal still runs"),
	OPT_ALIAS('f', "force", "while-running", "-f, --force mean 'replace output' "
		  "everywhere else: use --while-running"),
	OPT_HELP(),
	OPT_END(),
};

static void restore_defaults(void *args)
{
	memset(args, 0, sizeof(struct restore_args));
}

const struct cli_command cli_restore = {
	.name = "restore",
	.fn = cmd_restore,
	.summary = "undo the settings of a run that was killed or crashed",
	.usage = "deferbench restore [--while-running]",
	.desc =
	"Undo the kernel settings of a run that was killed or crashed (saved in\n"
	JOURNAL_PATH "), and remove its tracefs instance and temporary files.",
	.examples = "deferbench restore\n"
		    "deferbench restore --while-running",
	.opts = restore_opts,
	.args_size = sizeof(struct restore_args),
	.defaults = restore_defaults,
};

int restore_parse_args(int argc, char **argv, struct restore_args *a, char *errbuf)
{
	int first, ret;

	restore_defaults(a);
	ret = opts_parse(restore_opts, OPTS_IN_ORDER, argc, argv, a, &first, errbuf);
	if (ret)
		return ret;
	if (first < argc)
		return set_err(errbuf, "unexpected argument '%s'", argv[first]);
	return 0;
}

int cmd_restore(int argc, char **argv)
{
	char err[ERRBUF_LEN];
	struct restore_args a;
	int ret;

	ret = cli_parsed(restore_parse_args(argc, argv, &a, err), &cli_restore, err, 1);
	if (ret >= 0)
		return ret;
	if (!host_is_root()) {
		/* analyze and report run as any user: their staging directories are theirs */
		printf("not root: kernel settings and tracefs are left to 'sudo deferbench "
		       "restore'; cleaning what your own deferbench processes left\n");
		return leftovers_remove(stdout) ? 1 : 0;
	}
	return restore_machine(a.while_running);
}
