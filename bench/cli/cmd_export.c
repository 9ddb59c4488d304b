// SPDX-License-Identifier: GPL-2.0
/*
 * cmd_export.c - deferbench export --kcidb|--lava|--result-txt RUN: a run's primary
 * metrics for CI systems, judged against a baseline run when one is given.
 * Exit codes: 0 written (whatever the verdicts), 1 error.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "rundir.h"
#include "ci_export.h"
#include "outw.h"
#include "msg.h"
#include "stdout.h"

static const struct opt_desc export_opts[] = {
	OPT_SET_INT(0, "kcidb", export_args, format, EX_KCIDB,
		    "KCIDB JSON (KernelCI), schema version 4.3"),
	OPT_SET_INT(0, "lava", export_args, format, EX_LAVA,
		    "tab-separated set, case, result, measurement, units: input of "
		    "ci/lava/lava-report.sh"),
	OPT_SET_INT(0, "result-txt", export_args, format, EX_RESULT_TXT,
		    "Linaro test-definitions result.txt (undecided is written as skip)"),
	CLI_OPT_AGAINST(export_args, against, "RUN",
			"judge each metric against this baseline run with compare's rules "
			"(default: measurements only)"),
	OPT_STRING(0, "origin", export_args, origin, "NAME", "KCIDB origin, [a-z0-9_]+"),
	OPT_STRING(0, "build-id", export_args, build_id, "ID",
		   "KCIDB build id of the kernel (default: ORIGIN:<kernel release>)"),
	CLI_OPT_MIN_TAIL(export_args, min_tail,
			 "samples needed beyond a percentile for a repetition to count"),
	CLI_OPT_OUTPUT(export_args, output, "FILE", "write here instead of stdout"),
	CLI_OPT_FORCE(export_args, force,
		      "replace FILE when an earlier export wrote it (and it is unchanged)"),
	OPT_HELP(),
	OPT_END(),
};

static void export_defaults(void *args)
{
	struct export_args *a = args;

	memset(a, 0, sizeof(*a));
	a->origin = "deferbench";
	a->min_tail = 10;
}

int export_parse(int argc, char **argv, struct export_args *a, char *errbuf)
{
	int first, ret;

	export_defaults(a);
	ret = opts_parse(export_opts, OPTS_PERMUTE, argc, argv, a, &first, errbuf);
	if (ret)
		return ret;
	if (a->format == EX_NONE)
		return set_err(errbuf, "give the format: --kcidb, --lava or --result-txt");
	if (!ci_kcidb_origin_ok(a->origin))
		return set_err(errbuf, "--origin '%s': lowercase letters, digits and '_' only",
			       a->origin);
	if (a->build_id && !strchr(a->build_id, ':'))
		return set_err(errbuf, "--build-id '%s': KCIDB ids are ORIGIN:ID", a->build_id);
	if (argc - first != 1)
		return set_err(errbuf, "need one run directory");
	a->run = argv[first];
	if (a->force && !a->output)
		return set_err(errbuf, "--force needs -o FILE");
	return 0;
}

/*
 * judge_against - compare_runs(base, run) with compare's defaults but export's
 * --min-tail, so that a metric has a verdict exactly when it has a value
 */
static int judge_against(const char *base_dir, const struct run *run, unsigned int min_tail,
			 struct run *base, struct cmp_result *res)
{
	struct cmp_opts o = { 0 };
	char err[ERRBUF_LEN];

	judge_opts_default(&o.j);
	o.j.min_tail = min_tail;
	if (run_load(base_dir, base, err)) {
		err_msg("--against: %s", err);
		return -EINVAL;
	}
	if (compare_runs(base, run, &o, res, err)) {
		err_msg("--against: %s", err);
		run_free(base);
		return -EINVAL;
	}
	return 0;
}

/*
 * write_out - the rows to stdout or through the output writer w; every write error (a
 * full disk, /dev/full, a closed pipe) is an error, reported and in the exit status
 */
static int write_out(const struct export_args *a, struct outw *w, const struct run *run,
		     const struct ci_rows *rows)
{
	struct kcidb_opts ko = { .origin = a->origin, .build_id = a->build_id };
	FILE *f = a->output ? out_fopen(outw_file(w)) : stdout;
	const char *name = a->output ? a->output : "stdout";
	char err[ERRBUF_LEN];
	int ret = 0, e;

	if (!f) {
		err_msg("export: cannot write %s: %s", name, strerror(errno));
		return -EIO;
	}
	if (a->format == EX_KCIDB)
		ret = ci_write_kcidb(f, run, rows, &ko, err);
	else if (a->format == EX_LAVA)
		ci_write_lava(f, rows);
	else
		ci_write_result_txt(f, rows);
	e = !a->output ? -stdout_check() : fflush(f) ? errno : -out_ferror(f);
	if (a->output && fclose(f) && !e)
		e = errno;
	/* a write that failed says why (a full disk, a size limit), whatever else did */
	if (e) {
		err_msg("export: cannot write %s: %s; nothing was exported", name, strerror(e));
		ret = -e;
	} else if (ret) {
		err_msg("%s", err);
	}
	if (!ret && a->output && outw_commit(w, err)) {
		err_msg("%s", err);
		ret = -EIO;
	}
	return ret;
}

/*
 * exportable - a run whose export a CI can take for what it says: complete, and with
 * at least one primary metric that has a value (an empty export reads as a pass)
 */
static int exportable(const struct export_args *a, const struct run *run,
		      const struct ci_rows *rows)
{
	size_t i, valued = 0, ok = 0;

	for (i = 0; i < rows->n; i++)
		valued += rows->r[i].n > 0;
	for (i = 0; i < run->ncells; i++)
		ok += run->cells[i].ok;
	if (!run->complete) {
		err_msg("export: %s is incomplete (run.json says the run did not complete: it was "
			"interrupted or failed; %zu of %zu cells finished): its export would stand "
			"for a whole run; run the scenario again", a->run, ok, run->ncells);
		return -EINVAL;
	}
	if (!valued) {
		err_msg("export: %s: nothing to export: no primary metric has a value (%zu cells, "
			"%zu finished); an empty export would read as a pass", a->run,
			run->ncells, ok);
		return -ENODATA;
	}
	return 0;
}

/* open_output - -o FILE through the output writer, checked before the work */
static int open_output(const struct export_args *a, const struct run *run,
		       const struct run *base, struct outw *w)
{
	char **ri = run_inputs(run), **bi = base ? run_inputs(base) : NULL, err[ERRBUF_LEN];
	const char **in = NULL;
	size_t nr = 0, nb = 0;
	int ret = -ENOMEM;

	while (ri && ri[nr])
		nr++;
	while (bi && bi[nb])
		nb++;
	if (ri && (!base || bi) && (in = calloc(nr + nb + 1, sizeof(*in)))) {
		memcpy(in, ri, nr * sizeof(*in));
		if (nb)		/* without --against, bi is NULL: memcpy's NULL is undefined */
			memcpy(in + nr, bi, nb * sizeof(*in));
		ret = outw_open(w, a->output, &(struct outw_opts){ .kind = OUTW_FILE,
				.by = "export", .force = a->force, .inputs = in }, err);
	} else {
		snprintf(err, sizeof(err), "export: out of memory");
	}
	if (ret)
		err_msg("%s", err);
	free(in);
	run_inputs_free(ri);
	run_inputs_free(bi);
	return ret;
}

const struct cli_command cli_export = {
	.name = "export",
	.fn = cmd_export,
	.summary = "a run's metrics for CI: KCIDB JSON, LAVA test cases, result.txt",
	.usage = "deferbench export --kcidb|--lava|--result-txt [OPTIONS] RUN",
	.desc =
	"Each primary metric of a run (docs/compare.md#metrics: what each workload names\n"
	"in its results) for CI; with --against, compare's verdict on it\n"
	"(worse = fail, better or no change = pass, cannot tell = unknown); the formats\n"
	"are in its manual.",
	.examples = "deferbench export --kcidb -o /tmp/kcidb.json results/HOST/KERNEL/RUN\n"
		    "deferbench export --result-txt results/HOST/KERNEL/RUN",
	.opts = export_opts,
	.args_size = sizeof(struct export_args),
	.defaults = export_defaults,
};

int cmd_export(int argc, char **argv)
{
	struct outw w = { .pfd = -1, .sfd = -1, .logfd = -1 };
	struct cmp_result res = { 0 };
	struct export_args a;
	struct run run, base;
	struct ci_rows rows;
	char err[ERRBUF_LEN];
	bool judged;
	int ret;

	ret = cli_parsed(export_parse(argc, argv, &a, err), &cli_export, err, 1);
	if (ret >= 0)
		return ret;
	if (run_load(a.run, &run, err)) {
		err_msg("%s", err);
		return 1;
	}
	ret = a.against ? judge_against(a.against, &run, a.min_tail, &base, &res) : 0;
	judged = a.against && !ret;
	if (!ret && a.output)
		ret = open_output(&a, &run, judged ? &base : NULL, &w);
	if (!ret) {
		ret = ci_rows_build(&run, a.against ? &res : NULL, a.min_tail, &rows, err);
		if (ret)
			err_msg("%s", err);
	}
	if (!ret) {
		ret = exportable(&a, &run, &rows) ?: write_out(&a, &w, &run, &rows);
		ci_rows_free(&rows);
	}
	outw_abort(&w);
	if (judged) {
		cmp_result_free(&res);
		run_free(&base);
	}
	run_free(&run);
	return ret ? 1 : 0;
}
