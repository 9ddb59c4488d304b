// SPDX-License-Identifier: GPL-2.0
/*
 * cmd_analyze.c - deferbench analyze: recompute every figure of a capture kept with
 * record --raw, offline, with the same decoder, merger and matcher as the live run.
 */
#include <errno.h>
#include <limits.h>
#include <string.h>
#include <sys/stat.h>

#include "cli.h"
#include "offline.h"
#include "outdir.h"

enum { OPT_FORCE = 256 };

static const struct opt_desc analyze_opts[] = {
	{ "output", 'o', required_argument, "DIR", "write summary.json and the CSV files to DIR" },
	{ "force", OPT_FORCE, no_argument, NULL, "replace earlier results in DIR" },
	{ "help", 'h', no_argument, NULL, "show this help" },
	{ NULL },
};

static const struct cli_help analyze_help = {
	"analyze", "deferbench analyze CAPTURE_DIR [-o DIR] [--force]",
	"Recompute every figure of a capture recorded with 'deferbench record --raw -o\n"
	"CAPTURE_DIR' from its raw sub-buffers, as the live run computed them. Needs\n"
	"neither root nor tracefs.",
	analyze_opts, NULL,
};

int analyze_parse_args(int argc, char **argv, struct analyze_args *a, char *errbuf)
{
	struct opts_iter it;
	int opt;

	memset(a, 0, sizeof(*a));
	if ((opt = opts_begin(&it, analyze_opts, OPTS_PERMUTE, argc, argv, errbuf)))
		return opt;
	while ((opt = opts_next(&it, errbuf)) >= 0) {
		switch (opt) {
		case 'o':
			a->out_dir = optarg;
			break;
		case OPT_FORCE:
			a->force = true;
			break;
		case 'h':
			return CLI_HELP;
		}
	}
	if (opt != OPTS_END)
		return opt;
	if (optind >= argc)
		return set_err(errbuf, "which capture? give the directory record -o wrote");
	a->in_dir = argv[optind++];
	if (optind < argc)
		return set_err(errbuf, "unexpected argument '%s'", argv[optind]);
	if (a->force && !a->out_dir)
		return set_err(errbuf, "--force needs -o DIR");
	return 0;
}

int cmd_analyze(int argc, char **argv)
{
	char err[ERRBUF_LEN] = "", raw[PATH_MAX], staging[PATH_MAX + 64] = "";
	struct analyze_args a;
	struct stat st;
	int ret;

	ret = cli_parsed(analyze_parse_args(argc, argv, &a, err), &analyze_help, err, 1);
	if (ret >= 0)
		return ret;
	snprintf(raw, sizeof(raw), "%s/raw", a.in_dir);
	if (stat(raw, &st) || !S_ISDIR(st.st_mode)) {
		err_msg("analyze: %s has no raw/ capture; record with 'deferbench record --raw -o %s'",
			a.in_dir, a.in_dir);
		return 1;
	}
	/* the capture is an input: the output may not be, hold or lie in it */
	if (a.out_dir && (outdir_check(a.out_dir, a.force, (const char *const[]){ raw, NULL },
				       err) ||
			  outdir_stage(a.out_dir, staging, sizeof(staging), err))) {
		err_msg("analyze: %s", err);
		return 1;
	}
	ret = offline_analyze(raw, a.out_dir ? staging : NULL, err);
	if (!ret && a.out_dir && outdir_commit(a.out_dir, staging, err))
		ret = -EIO;
	if (ret) {
		err_msg("analyze: %s", err);
		outdir_abort(staging);
		return 1;
	}
	if (a.out_dir)
		info_msg("results in %s", a.out_dir);
	return 0;
}
