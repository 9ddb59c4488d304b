// SPDX-License-Identifier: GPL-2.0
/*
 * cli.c - what every subcommand does with its parser's verdict (cli.h).
 */
#include "cli.h"
#include "msg.h"

int cli_parsed(int ret, const struct cli_help *h, const char *err, int errcode)
{
	if (ret == CLI_HELP) {
		opts_usage(stdout, h->usage, h->desc, h->opts);
		if (h->more)
			h->more(stdout);
		return 0;
	}
	if (ret) {
		err_msg("%s: %s; see 'deferbench %s --help'", h->name, err, h->name);
		return errcode;
	}
	return -1;
}
