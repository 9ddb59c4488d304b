// SPDX-License-Identifier: GPL-2.0
/*
 * cmd_calibrate.c - `deferbench baseline calibrate`: the host's noise floors, from runs
 * of one scenario in which nothing changed (analysis/compare/calibrate.c says how),
 * stored as noise.json beside the baseline, where compare finds them.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "adaptive.h"
#include "cli.h"
#include "compare.h"
#include "rundir.h"
#include "msg.h"
#include "file.h"
#include "outw.h"
#include "sys.h"

/* run_once - one run of the scenario into dir; 0 when it completed */
static int run_once(const char *scenario, const char *dir)
{
	char cmd[PATH_MAX + 64];
	struct run_opts o = { .scenario = scenario, .outdir = dir, .command = cmd };

	snprintf(cmd, sizeof(cmd), "deferbench baseline calibrate %s", scenario);
	return run_scenario(&o, run_engine());
}

/* run_all - the scenario a->runs times, back to back; their directories into dirs */
static int run_all(const struct baseline_args *a, char (*dirs)[PATH_MAX])
{
	char host[NAME_LEN], kernel[NAME_LEN], base[PATH_MAX], name[NAME_LEN];
	const char *slash = strrchr(a->scenario, '/');
	int i;

	if (!host_is_root()) {
		err_msg("calibrate runs the scenario, which traces the kernel: run as root (or "
			"use --from with runs made earlier)");
		return -EPERM;
	}
	snprintf(name, sizeof(name), "%s-noise", slash ? slash + 1 : a->scenario);
	if (strlen(name) > 10 && !strcmp(name + strlen(name) - 10, ".ini-noise"))
		strcpy(name + strlen(name) - 10, "-noise");
	if (host_name(host, sizeof(host)) || host_kernel_release(kernel, sizeof(kernel)) ||
	    run_dir_default(base, sizeof(base), host, kernel, time(NULL), name))
		return -EIO;
	for (i = 0; i < a->runs; i++) {
		if ((size_t)snprintf(dirs[i], PATH_MAX, "%s/run%d", base, i + 1) >= PATH_MAX)
			return -ENAMETOOLONG;
		printf("calibrate: run %d of %d, nothing changed between them\n", i + 1, a->runs);
		fflush(stdout);
		if (run_once(a->scenario, dirs[i]) || stop_requested) {
			err_msg("calibrate: run %d did not complete; no floors were written", i + 1);
			return -EIO;
		}
	}
	return 0;
}

/* distinct_runs - --from names each run once: a run against itself is no noise floor */
static int distinct_runs(const struct baseline_args *a)
{
	struct stat si, sj;
	int i, j;

	for (i = 0; i < a->nfrom; i++)
		for (j = i + 1; !stat(a->from[i], &si) && j < a->nfrom; j++)
			if (!stat(a->from[j], &sj) && si.st_dev == sj.st_dev &&
			    si.st_ino == sj.st_ino) {
				err_msg("calibrate: --from names %s twice (also as %s): a run "
					"compared with itself measures no noise; give distinct runs",
					a->from[i], a->from[j]);
				return -EINVAL;
			}
	return 0;
}

/* output_path - -o FILE, or noise.json in the baseline directory (made when missing) */
static int output_path(const struct baseline_args *a, char *path, size_t len)
{
	char dir[PATH_MAX];
	int ret;

	if (a->output) {
		snprintf(path, len, "%s", a->output);
		return 0;
	}
	ret = baseline_dir(a, dir, sizeof(dir));
	if (ret && ret != -ENOENT)
		return ret;
	return path_join(path, len, dir, "noise.json");
}

/*
 * open_output - the output writer on noise.json, before the work: never onto one of
 * the runs it reads, never over a file an earlier calibrate did not write (outw.h)
 */
static int open_output(const struct baseline_args *a, const struct run *runs, int nruns,
		       struct outw *w, char *path, size_t len)
{
	char **ri[CALIBRATE_MAX_RUNS] = { NULL }, err[ERRBUF_LEN];
	const char **in = NULL;
	size_t n = 0, k;
	int i, ret = 0;

	for (i = 0; i < nruns; i++) {
		ri[i] = run_inputs(&runs[i]);
		for (k = 0; ri[i] && ri[i][k]; k++)
			n++;
		ret = ri[i] ? ret : -ENOMEM;
	}
	in = ret ? NULL : calloc(n + 1, sizeof(*in));
	for (i = 0, n = 0; in && i < nruns; i++)
		for (k = 0; ri[i][k]; k++)
			in[n++] = ri[i][k];
	ret = in ? output_path(a, path, len) : -ENOMEM;
	if (ret)
		err_msg("calibrate: where to write noise.json: %s", strerror(-ret));
	else if ((ret = outw_open(w, path, &(struct outw_opts){ .kind = OUTW_FILE,
				  .by = "baseline calibrate", .force = a->force, .inputs = in },
				  err)))
		err_msg("%s", err);
	free(in);
	for (i = 0; i < nruns; i++)
		run_inputs_free(ri[i]);
	return ret;
}

static void print_floors(const struct noise *n, const char *path)
{
	size_t i;

	printf("spread between runs on %s (%u runs of %s): sd of a run's log figure, and the "
	       "change between two runs a test at %.3g would just call beyond chance\n",
	       n->host, n->runs, n->scenario, n->alpha / (n->looks ? n->looks : 1));
	for (i = 0; i < n->n; i++)
		printf("  %-10s %-16s %-58s sd %6.3f  %7.1f%%\n", n->f[i].workload,
		       n->f[i].config, n->f[i].id, n->f[i].sd, n->f[i].floor * 100);
	printf("written to %s\n", path);
}

int calibrate_baseline(const struct baseline_args *a)
{
	char (*dirs)[PATH_MAX] = calloc(CALIBRATE_MAX_RUNS, PATH_MAX);
	char err[ERRBUF_LEN], path[PATH_MAX];
	struct outw w = { .pfd = -1, .sfd = -1, .logfd = -1 };
	struct noise n = { 0 };
	struct judge_opts jo;
	struct run *runs;
	int i, nruns, ret = 0;

	runs = calloc(CALIBRATE_MAX_RUNS, sizeof(*runs));
	if (!dirs || !runs) {
		free(dirs);
		free(runs);
		return 1;
	}
	nruns = a->from ? a->nfrom : a->runs;
	for (i = 0; a->from && i < nruns; i++)
		snprintf(dirs[i], PATH_MAX, "%s", a->from[i]);
	if (a->from && distinct_runs(a)) {
		free(runs);
		free(dirs);
		return 1;
	}
	/* before the work: the scenario's runs are new, --from's are inputs */
	if (!a->from) {
		ret = open_output(a, NULL, 0, &w, path, sizeof(path));
		stop_on_signals();
		ret = ret ?: run_all(a, dirs);
	}
	for (i = 0; !ret && i < nruns; i++) {
		ret = run_load(dirs[i], &runs[i], err);
		if (ret)
			err_msg("%s", err);
	}
	if (!ret && a->from)
		ret = open_output(a, runs, nruns, &w, path, sizeof(path));
	judge_opts_default(&jo);
	/* floors (for reading) at the level kernel-regression's adaptive runs are held to */
	jo.looks = ADAPT_LOOKS;
	if (!ret) {
		ret = calibrate_noise(runs, nruns, &jo, &n, err);
		if (ret)
			err_msg("calibrate: %s", err);
	}
	iso_time_now(n.created, sizeof(n.created));
	if (!ret && (ret = noise_save(outw_file(&w), &n)))
		err_msg("calibrate: cannot write %s: %s; no floors were written", path,
			strerror(-ret));
	if (!ret && (ret = outw_commit(&w, err)))
		err_msg("%s", err);
	if (!ret)
		print_floors(&n, path);
	outw_abort(&w);
	for (i = 0; i < nruns; i++)
		run_free(&runs[i]);
	noise_free(&n);
	free(runs);
	free(dirs);
	return ret ? 1 : 0;
}
