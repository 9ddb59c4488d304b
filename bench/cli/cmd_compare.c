// SPDX-License-Identifier: GPL-2.0
/*
 * cmd_compare.c - deferbench compare BASE NEW: per-metric verdicts between two runs.
 * Exit codes: 0 every primary metric decided and none worse, 1 a primary metric worse,
 * 2 error, 3 undecided (a primary metric cannot tell, or was not judged at all).
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "cmp_out.h"
#include "outw.h"
#include "rundir.h"
#include "grow.h"
#include "msg.h"
#include "file.h"
#include "parse.h"

/* set_threshold - -t PCT: the smallest change that counts, between runs as inside one */
static int set_threshold(const struct opt_desc *o __unused, const char *arg, void *args,
			 char *errbuf)
{
	struct compare_args *a = args;

	if (parse_double(arg, 0.1, 1000, &a->cmp.j.threshold, errbuf))
		return -EINVAL;
	a->cmp.j.threshold /= 100;
	return 0;
}

static const struct opt_desc compare_opts[] = {
	OPT_CALLBACK('t', "threshold", compare_args, cmp.j.threshold, "PCT", set_threshold,
		     "smallest change that counts, in percent (0.1-1000, default 10); two "
		     "separate runs without a calibration claim worse or better only beyond the "
		     "uncalibrated floor (x2 p50/p90, x6 above) and never no change"),
	CLI_OPT_CONFIDENCE(compare_args, cmp.j.confidence,
			   "1 - the family-wise error of the verdicts of each family"),
	CLI_OPT_METRIC(compare_args, patterns, npatterns,
		       "primary metrics (they decide the exit status): ids matching this glob; "
		       "repeatable (default: the primary metrics each workload names, "
		       "docs/compare.md#metrics)"),
	OPT_UINT(0, "min-reps", compare_args, cmp.j.min_reps, "N", 2, STATS_MAX_N,
		 "repetitions with data needed per side for a verdict"),
	CLI_OPT_MIN_TAIL(compare_args, cmp.j.min_tail,
			 "samples needed beyond a percentile, per side"),
	CLI_OPT_OUTPUT(compare_args, outdir, "DIR",
		       "write compare.md and junit.xml here (default: the NEW directory)"),
	OPT_BOOL(0, "no-files", compare_args, no_files, "print only; write no files"),
	OPT_BOOL(0, "wide", compare_args, wide, "print every column (interval, repetitions, "
		 "why) and whole metric ids, however wide; default: rows fit 100 columns"),
	CLI_OPT_FORCE(compare_args, force, "replace what an earlier compare wrote there (only "
		      "files its manifest lists, unchanged)"),
	CLI_OPT_NOISE(compare_args, noise,
		      "the host's noise floors (default: BASE/noise.json when BASE is a "
		      "calibrated baseline)"),
	OPT_BOOL(0, "allow-empty", compare_args, allow_empty,
		 "exit 0 even when no primary metric is judged (a --metric that matches nothing "
		 "is an error otherwise: exit 2)"),
	OPT_BOOL(0, "allow-undecided", compare_args, allow_undecided,
		 "exit 0 when nothing is worse although a primary metric is undecided (cannot "
		 "tell, or not judged); otherwise that is exit 3"),
	OPT_BOOL(0, "fail-higher", compare_args, fail_higher,
		 "a primary metric decided higher (worse, by an amount that may lie within the "
		 "margin) fails as worse does: exit 1"),
	OPT_HELP(),
	OPT_END(),
};

static void compare_defaults(void *args)
{
	struct compare_args *a = args;

	memset(a, 0, sizeof(*a));
	judge_opts_default(&a->cmp.j);
}

const struct cli_command cli_compare = {
	.name = "compare",
	.fn = cmd_compare,
	.summary = "compare two runs: better / worse / no change per metric",
	.usage = "deferbench compare [OPTIONS] BASE NEW\n"
		 "       deferbench compare [OPTIONS] BASE1 BASE2... vs NEW1 NEW2...",
	.desc =
	"Compare two runs (or record directories) metric by metric: worse, better, no change\n"
	"(an equivalence test against a margin), higher or lower (a decided direction whose\n"
	"size may lie within the margin), or cannot tell with what would decide it. Two\n"
	"separate runs are judged with the runs as the unit against the host's calibrated\n"
	"spread between runs (baseline calibrate); without one, nothing is \"no change\".\n"
	"Two sets of runs (a kernel A/B across boots) are judged on their own spread, paired\n"
	"when their runs alternated in time (A B B A ...).\n"
	"Exit status: 0 every primary metric decided and none worse, 1 a primary metric\n"
	"worse, 2 error, 3 undecided (a primary metric cannot tell or was not judged).\n"
	"Rules: docs/verdicts.md.",
	.examples = "deferbench compare \"$(deferbench baseline path)\" results/NEW_RUN\n"
		    "deferbench compare resA1 resA2 resA3 vs resB1 resB2 resB3",
	.opts = compare_opts,
	.args_size = sizeof(struct compare_args),
	.defaults = compare_defaults,
};

int compare_parse(int argc, char **argv, struct compare_args *a, char *errbuf)
{
	char msg[ERRBUF_LEN];
	int first, ret;
	size_t i;

	compare_defaults(a);
	ret = opts_parse(compare_opts, OPTS_PERMUTE, argc, argv, a, &first, errbuf);
	if (ret)
		return ret;
	for (i = 0; i < a->npatterns; i++)
		if (cmp_pattern_ok(a->patterns[i], msg))
			return set_err(errbuf, "--metric: %s", msg);
	for (i = (size_t)first; i < (size_t)argc && strcmp(argv[i], "vs"); i++)
		;
	if (i < (size_t)argc) {
		/* sets: BASE... vs NEW... */
		a->bases = argv + first;
		a->nbases = i - (size_t)first;
		a->news = argv + i + 1;
		a->nnews = (size_t)argc - i - 1;
		if (a->nbases < 2 || a->nnews < 2)
			return set_err(errbuf, "sets of runs need 2 or more on each side of 'vs' "
				       "(%zu and %zu given): one run a side cannot show how runs "
				       "differ", a->nbases, a->nnews);
		if (a->nbases > STATS_MAX_N || a->nnews > STATS_MAX_N)
			return set_err(errbuf, "sets of runs: at most %d a side", STATS_MAX_N);
		a->base = a->bases[0];
		a->new = a->news[0];
	} else if (argc - first != 2) {
		return set_err(errbuf, "need BASE and NEW run directories, or two sets of runs: "
			       "BASE1 BASE2... vs NEW1 NEW2...");
	} else {
		a->base = argv[first];
		a->new = argv[first + 1];
	}
	if (a->npatterns) {
		a->cmp.primary = a->patterns;
		a->cmp.nprimary = a->npatterns;
	}
	return 0;
}

/*
 * open_output - the output writer on compare.md and junit.xml, before the work: never
 * onto or into either run, never over files compare did not write (outw.h)
 */
static int open_output(const struct compare_args *a, const struct run *base,
		       const struct run *new, struct outw *w)
{
	static const char *const names[] = { "compare.md", "junit.xml", NULL };
	char **bi = run_inputs(base), **ni = run_inputs(new), err[ERRBUF_LEN];
	const char **in = NULL;
	size_t nb = 0, nn = 0;
	int ret = -ENOMEM;

	while (bi && bi[nb])
		nb++;
	while (ni && ni[nn])
		nn++;
	if (bi && ni && (in = calloc(nb + nn + 2, sizeof(*in)))) {
		memcpy(in, bi, nb * sizeof(*in));
		memcpy(in + nb, ni, nn * sizeof(*in));
		in[nb + nn] = a->noise;
		ret = outw_open(w, a->outdir ? a->outdir : new->dir, &(struct outw_opts){
				.kind = OUTW_INTO, .by = "compare", .force = a->force,
				.home = new->dir, .inputs = in, .names = names }, err);
	} else {
		snprintf(err, sizeof(err), "compare: out of memory");
	}
	if (ret)
		err_msg("%s", err);
	free(in);
	run_inputs_free(bi);
	run_inputs_free(ni);
	return ret;
}

static int write_files(struct outw *w, const struct cmp_ctx *ctx)
{
	char md[PATH_MAX], xml[PATH_MAX], err[ERRBUF_LEN];
	int ret;

	ret = path_join(md, sizeof(md), outw_dir(w), "compare.md");
	ret = ret ?: path_join(xml, sizeof(xml), outw_dir(w), "junit.xml");
	ret = ret ?: cmp_write_md(md, ctx);
	if (ret) {
		err_msg("compare: cannot write compare.md: %s", strerror(-ret));
		return ret;
	}
	ret = cmp_write_junit(xml, ctx);
	if (ret) {
		err_msg("compare: cannot write junit.xml: %s", strerror(-ret));
		return ret;
	}
	ret = outw_commit(w, err);
	if (ret) {
		err_msg("%s", err);
		return ret;
	}
	info_msg("wrote %s/compare.md and %s/junit.xml", w->target, w->target);
	return 0;
}

static int load_both(const struct compare_args *a, struct run *base, struct run *new)
{
	char err[ERRBUF_LEN];
	struct stat sb, sn;

	if (run_load(a->base, base, err)) {
		err_msg("compare: the base run (BASE): %s", err);
		return -EINVAL;
	}
	if (run_load(a->new, new, err)) {
		err_msg("compare: the new run (NEW): %s", err);
		run_free(base);
		return -EINVAL;
	}
	/* as calibrate refuses a run against itself: the user must know what this shows */
	if (!stat(base->dir, &sb) && !stat(new->dir, &sn) && sb.st_dev == sn.st_dev &&
	    sb.st_ino == sn.st_ino)
		warn_msg("compare: BASE and NEW are the same run (%s): each figure is compared "
			 "with itself, so no difference can show and the verdicts say nothing about "
			 "the machine; compare two runs of the scenario", new->dir);
	if (!base->complete)
		warn_msg("base run %s is incomplete (complete = false)", base->dir);
	if (!new->complete)
		warn_msg("new run %s is incomplete (complete = false)", new->dir);
	return 0;
}

/*
 * judge_setup - what the data say about how to judge: the host's noise floors (--noise,
 * else the base's noise.json when it is a calibrated baseline), whether base is a
 * stored baseline (only new can get repetitions), and the looks an adaptive new run
 * took (each at alpha / looks)
 */
static int judge_setup(struct compare_args *a, const struct run *base, const struct run *new,
		       struct noise *noise)
{
	char err[ERRBUF_LEN], p[PATH_MAX];
	int ret;

	ret = a->noise ? noise_load(a->noise, noise, err) : noise_load_dir(base->dir, noise, err);
	if (ret && (a->noise || ret != -ENOENT)) {
		err_msg("compare: %s: %s", a->noise ? "--noise" : "the base's noise floors", err);
		return ret;
	}
	if (!ret)
		a->cmp.j.noise = noise;
	a->cmp.j.base_fixed = !path_join(p, sizeof(p), base->dir, "baseline.json") &&
			      !access(p, F_OK);
	a->cmp.j.looks = new->looks ? new->looks : 1;
	return 0;
}

/*
 * check_selection - a --metric that matches no metric id (a typo) and a comparison in
 * which no primary metric is judged must not pass a CI gate: errors unless --allow-empty
 */
static int check_selection(const struct compare_args *a, const struct cmp_result *res)
{
	size_t i, bad = 0;

	for (i = 0; res->pattern_hits && i < a->cmp.nprimary; i++) {
		if (res->pattern_hits[i])
			continue;
		(a->allow_empty ? warn_msg : err_msg)("compare: --metric '%s' matches no metric "
			"of these runs (ids look like '%s', '%s'); check it for a typo%s",
			a->patterns[i], res->example[0], res->example[1],
			a->allow_empty ? "" : ", or pass --allow-empty");
		bad++;
	}
	if (!res->nprimary && !res->unjudged) {
		(a->allow_empty ? warn_msg : err_msg)("compare: no primary metric was judged%s",
			a->allow_empty ? "" : "; a comparison that judges nothing passes nothing "
			"(pass --allow-empty if that is what you want)");
		bad++;
	}
	return bad && !a->allow_empty ? -EINVAL : 0;
}

/* exit_status - 1 worse (or higher, asked), 3 undecided (unless allowed), else 0 */
static int exit_status(const struct compare_args *a, const struct cmp_result *res)
{
	if (cmp_regressed(res) || (a->fail_higher && res->count[V_HIGHER]))
		return 1;
	if (cmp_undecided(res) && !a->allow_undecided) {
		info_msg("compare: %zu primary metric(s) undecided (%zu not judged at all): exit "
			 "status 3; --allow-undecided passes them", res->count[V_CANNOT_TELL],
			 res->unjudged);
		return 3;
	}
	return 0;
}

/* by_start - runs in the order they started */
static int by_start(const void *x, const void *y)
{
	const struct run *a = x, *b = y;

	return strcmp(a->meta[RM_STARTED], b->meta[RM_STARTED]);
}

/* load_set - the runs of one side, in start order; -EINVAL (said) when one cannot be read */
static int load_set(char **dirs, size_t n, const char *side, struct run **out)
{
	char err[ERRBUF_LEN];
	struct run *r = calloc(n, sizeof(*r));
	size_t i;

	*out = r;
	if (!r)
		return -ENOMEM;
	for (i = 0; i < n; i++)
		if (run_load(dirs[i], &r[i], err)) {
			err_msg("compare: the %s run %s: %s", side, dirs[i], err);
			while (i--)
				run_free(&r[i]);
			free(r);
			*out = NULL;
			return -EINVAL;
		}
	qsort(r, n, sizeof(*r), by_start);
	return 0;
}

static void free_set(struct run *r, size_t n)
{
	size_t i;

	for (i = 0; r && i < n; i++)
		run_free(&r[i]);
	free(r);
}

/* open_output_sets - open_output for sets: every run of both sides is an input */
static int open_output_sets(const struct compare_args *a, const struct run *b, size_t nb,
			    const struct run *n, size_t nn, struct outw *w)
{
	static const char *const names[] = { "compare.md", "junit.xml", NULL };
	const char **in = NULL;
	char **ri, err[ERRBUF_LEN];
	size_t i, k, m = 0, cap = 0;
	int ret = -ENOMEM;

	for (i = 0; i < nb + nn; i++) {
		ri = run_inputs(i < nb ? &b[i] : &n[i - nb]);
		if (!ri)
			goto out;
		for (k = 0; ri[k]; k++) {
			if (GROW(in, cap, m + 2)) {
				run_inputs_free(ri);
				goto out;
			}
			in[m++] = strdup(ri[k]);
		}
		run_inputs_free(ri);
	}
	if (!in)
		goto out;
	in[m] = NULL;
	ret = outw_open(w, a->outdir ? a->outdir : n[0].dir, &(struct outw_opts){
			.kind = OUTW_INTO, .by = "compare", .force = a->force, .home = n[0].dir,
			.inputs = in, .names = names }, err);
	if (ret)
		err_msg("%s", err);
out:
	if (ret == -ENOMEM)
		err_msg("compare: out of memory");
	for (i = 0; i < m; i++)
		free((char *)in[i]);
	free(in);
	return ret;
}

/* cmd_compare_sets - compare BASE1 BASE2... vs NEW1 NEW2...: the runs as the unit */
static int cmd_compare_sets(struct compare_args *a)
{
	struct outw w = { .pfd = -1, .sfd = -1, .logfd = -1 };
	struct cmp_sets sets = { 0 };
	struct run *b = NULL, *n = NULL;
	char err[ERRBUF_LEN], note[256];
	struct cmp_result res;
	struct cmp_ctx ctx;
	int ret;

	ret = load_set(a->bases, a->nbases, "base", &b);
	ret = ret ?: load_set(a->news, a->nnews, "new", &n);
	if (ret)
		goto out;
	sets = (struct cmp_sets){ .base = b, .nb = a->nbases, .new = n, .nn = a->nnews };
	sets.paired = cmp_sets_paired(b, a->nbases, n, a->nnews);
	ret = a->no_files ? 0 : open_output_sets(a, b, a->nbases, n, a->nnews, &w);
	if (ret)
		goto out;
	a->cmp.j.looks = 1;
	ret = cmp_sets_compare(&sets, &a->cmp, &res, err);
	if (ret) {
		err_msg("%s", err);
		goto out;
	}
	snprintf(note, sizeof(note), "%zu base runs and %zu new runs, the runs the unit: %s",
		 a->nbases, a->nnews, sets.paired ? "paired by order (they alternated in time)" :
		 "Welch's t on their figures (they did not alternate in time: not paired)");
	ctx = (struct cmp_ctx){ .base = &b[0], .new = &n[0], .opts = &a->cmp, .res = &res,
				.wide = a->wide, .fail_higher = a->fail_higher, .sets_note = note };
	cmp_print(stdout, &ctx);
	ret = check_selection(a, &res);
	if (!ret && !a->no_files)
		ret = write_files(&w, &ctx);
	if (!ret)
		ret = exit_status(a, &res);
	cmp_result_free(&res);
out:
	outw_abort(&w);
	free_set(b, a->nbases);
	free_set(n, a->nnews);
	return ret < 0 ? 2 : ret;
}

int cmd_compare(int argc, char **argv)
{
	struct noise noise = { 0 };
	struct outw w = { .pfd = -1, .sfd = -1, .logfd = -1 };
	struct compare_args a;
	struct run base, new;
	struct cmp_result res;
	struct cmp_ctx ctx;
	char err[ERRBUF_LEN];
	int ret;

	ret = cli_parsed(compare_parse(argc, argv, &a, err), &cli_compare, err, 2);
	if (ret >= 0)
		return ret;
	if (a.nbases)
		return cmd_compare_sets(&a);
	if (load_both(&a, &base, &new))
		return 2;
	/* before the work: compare.md and junit.xml that cannot be written are known now */
	ret = a.no_files ? 0 : open_output(&a, &base, &new, &w);
	ret = ret ?: judge_setup(&a, &base, &new, &noise);
	if (ret)
		goto out_free_runs;
	ret = compare_runs(&base, &new, &a.cmp, &res, err);
	if (ret) {
		err_msg("%s", err);
		goto out_free_runs;
	}
	ctx = (struct cmp_ctx){ .base = &base, .new = &new, .opts = &a.cmp, .res = &res,
				.wide = a.wide, .fail_higher = a.fail_higher };
	cmp_print(stdout, &ctx);
	ret = check_selection(&a, &res);
	if (!ret && !a.no_files)
		ret = write_files(&w, &ctx);
	if (!ret)
		ret = exit_status(&a, &res);
	cmp_result_free(&res);
out_free_runs:
	outw_abort(&w);
	run_free(&base);
	run_free(&new);
	noise_free(&noise);
	return ret < 0 ? 2 : ret;
}
