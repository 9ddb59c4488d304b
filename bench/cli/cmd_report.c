// SPDX-License-Identifier: GPL-2.0
/*
 * cmd_report.c - deferbench report DIR: report.md, report.html, plots/ and tables/.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "outw.h"
#include "plot.h"
#include "report.h"
#include "rundir.h"
#include "msg.h"
#include "parse.h"

enum { OPT_NO_PLOTS = 256, OPT_TOP_WQ, OPT_FORCE };

const struct opt_desc report_opts[] = {
	{ "output", 'o', required_argument, "DIR", "write the report here (default: DIR itself)" },
	{ "no-plots", OPT_NO_PLOTS, no_argument, NULL, "tables only; do not run gnuplot" },
	{ "force", OPT_FORCE, no_argument, NULL,
	  "replace what an earlier report wrote there (only files its manifest lists, unchanged)" },
	{ "top-wq", OPT_TOP_WQ, required_argument, "N",
	  "workqueue groups per configuration in the report tables (1-1000, default 8)" },
	{ "help", 'h', no_argument, NULL, "this help" },
	{ NULL, 0, 0, NULL, NULL }
};

static const struct cli_help report_help = {
	"report", "deferbench report [OPTIONS] DIR",
	"Write report.md, report.html, plots/ and tables/ for a run directory (run.json) or\n"
	"a record directory (summary.json).",
	report_opts, NULL,
};

int report_parse(int argc, char **argv, struct report_args *a, char *errbuf)
{
	struct opts_iter it;
	char msg[ERRBUF_LEN];
	uint64_t u;
	int c;

	memset(a, 0, sizeof(*a));
	a->top_wq = 8;
	if ((c = opts_begin(&it, report_opts, OPTS_PERMUTE, argc, argv, errbuf)))
		return c;
	while ((c = opts_next(&it, errbuf)) >= 0) {
		switch (c) {
		case 'h':
			return CLI_HELP;
		case 'o':
			a->outdir = optarg;
			break;
		case OPT_NO_PLOTS:
			a->no_plots = true;
			break;
		case OPT_FORCE:
			a->force = true;
			break;
		case OPT_TOP_WQ:
			if (parse_u64(optarg, 1, 1000, &u, msg))
				return set_err(errbuf, "--top-wq: %s", msg);
			a->top_wq = (unsigned int)u;
			break;
		}
	}
	if (c != OPTS_END)
		return c;
	if (argc - optind != 1)
		return set_err(errbuf, "need one run or record directory");
	a->dir = argv[optind];
	return 0;
}

int cmd_report(int argc, char **argv)
{
	const char *names[] = { "report.md", "report.html", "tables", "plots", NULL };
	struct report_opts o = { 0 };
	struct report_args a;
	char err[ERRBUF_LEN], **inputs;
	struct outw w;
	struct run run;
	int ret;

	ret = cli_parsed(report_parse(argc, argv, &a, err), &report_help, err, 1);
	if (ret >= 0)
		return ret;
	if (!a.no_plots && plot_check(err)) {
		err_msg("%s", err);
		return 1;
	}
	if (run_load(a.dir, &run, err)) {
		err_msg("%s", err);
		return 1;
	}
	if (a.no_plots)
		names[3] = NULL;	/* an earlier report's plots/ stays as it is */
	/* before the work: a report that cannot be written is known now */
	inputs = run_inputs(&run);
	ret = !inputs ? set_errno(err, -ENOMEM, "report: out of memory") :
	      outw_open(&w, a.outdir ? a.outdir : run.dir, &(struct outw_opts){
			.kind = OUTW_INTO, .by = "report", .force = a.force, .home = run.dir,
			.inputs = (const char *const *)inputs, .names = names }, err);
	if (ret) {
		err_msg("%s", err);
		goto out;
	}
	o.outdir = outw_dir(&w);
	o.plots = !a.no_plots;
	o.top_wq = a.top_wq;
	ret = report_write(&run, &o, err);
	if (ret)
		outw_abort(&w);
	else
		ret = outw_commit(&w, err);
	if (ret)
		err_msg("%s", err);
	else
		info_msg("wrote %s/report.md and %s/report.html", w.target, w.target);
out:
	run_inputs_free(inputs);
	run_free(&run);
	return ret ? 1 : 0;
}
