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

static const struct opt_desc report_optdesc[] = {
	CLI_OPT_OUTPUT(report_args, outdir, "DIR", "write the report here (default: DIR itself)"),
	OPT_BOOL(0, "no-plots", report_args, no_plots, "tables only; do not run gnuplot"),
	CLI_OPT_FORCE(report_args, force, "replace what an earlier report wrote there (only "
		      "files its manifest lists, unchanged)"),
	OPT_UINT(0, "top-wq", report_args, top_wq, "N", 1, 1000,
		 "workqueue groups per configuration in the report tables"),
	OPT_HELP(),
	OPT_END(),
};

static void report_defaults(void *args)
{
	struct report_args *a = args;

	memset(a, 0, sizeof(*a));
	a->top_wq = 8;
}

const struct cli_command cli_report = {
	.name = "report",
	.fn = cmd_report,
	.summary = "write report.md, report.html, plots and tables for a run",
	.usage = "deferbench report [OPTIONS] DIR",
	.desc =
	"Write report.md, report.html, plots/ and tables/ for a run directory (run.json) or\n"
	"a record directory (summary.json).",
	.examples = "deferbench report results/HOST/KERNEL/RUN\n"
		    "deferbench report -o /tmp/rec-report /tmp/rec",
	.opts = report_optdesc,
	.args_size = sizeof(struct report_args),
	.defaults = report_defaults,
};

int report_parse(int argc, char **argv, struct report_args *a, char *errbuf)
{
	int first, ret;

	report_defaults(a);
	ret = opts_parse(report_optdesc, OPTS_PERMUTE, argc, argv, a, &first, errbuf);
	if (ret)
		return ret;
	if (argc - first != 1)
		return set_err(errbuf, "need one run or record directory");
	a->dir = argv[first];
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

	ret = cli_parsed(report_parse(argc, argv, &a, err), &cli_report, err, 1);
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
	ret = !inputs ? errno_msg(err, -ENOMEM, "report: out of memory") :
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
