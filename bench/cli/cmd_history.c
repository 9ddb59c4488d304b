// SPDX-License-Identifier: GPL-2.0
/*
 * cmd_history.c - deferbench history: the results store across kernels and hosts.
 *   history add RUN...      import run (or record) directories
 *   history merge STORE...  copy other stores' runs into this one
 *   history [filters]       each metric across kernels, change points, fleet view
 * Exit codes: 0 done, 1 a regression (--regressions only), 2 error.
 */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "rundir.h"
#include "history_out.h"
#include "msg.h"
#include "file.h"
#include "outw.h"

static const struct opt_desc history_opts[] = {
	CLI_OPT_STORE(history_args, db,
		      "the store (default $DEFERBENCH_STORE, else " HISTORY_DEFAULT_DB ")"),
	CLI_OPT_HOST(history_args, host, "only this host"),
	OPT_STRING(0, "scenario", history_args, scenario, "NAME", "only this scenario"),
	OPT_STRING(0, "workload", history_args, workload, "NAME", "only this workload"),
	OPT_STRING(0, "config", history_args, config, "NAME", "only this configuration"),
	CLI_OPT_METRIC(history_args, patterns, npatterns,
		       "metric ids matching this glob; repeatable (default: the p99s of the "
		       "primary metrics, docs/compare.md#metrics, in ids older results have "
		       "too; docs/history.md lists them)"),
	OPT_BOOL(0, "regressions", history_args, regressions,
		 "list the change points; exit 1 when a newest kernel is past one for the worse"),
	OPT_BOOL(0, "fleet", history_args, fleet,
		 "per kernel: on how many hosts it made things worse, better or no different"),
	OPT_STRING(0, "kernel", history_args, kernel, "RELEASE", "--fleet: only this kernel"),
	CLI_OPT_OUTPUT(history_args, plotdir, "DIR", "write the plots (PNG, SVG) into DIR"),
	CLI_OPT_FORCE(history_args, force,
		      "-o: replace the plots an earlier history wrote in DIR (only those, unchanged)"),
	CLI_OPT_THRESHOLD(history_args, det.threshold,
			  "smallest step reported, in percent, as compare"),
	CLI_OPT_CONFIDENCE_AS_ERROR(history_args, det.cpd.sig,
				    "1 - the family-wise error of the change points of each "
				    "host: each permutation test is at level (1 - C) / the "
				    "host's series"),
	OPT_UINT(0, "permutations", history_args, det.cpd.perms, "N", 99, 99999,
		 "permutations per test"),
	CLI_OPT_MIN_TAIL(history_args, min_tail,
			 "samples needed beyond a percentile for a repetition to count"),
	OPT_BOOL(0, "replace", history_args, replace,
		 "add: replace a different run stored under the same host, kernel, scenario and "
		 "start time"),
	OPT_ALIAS('d', NULL, "store", "-d means --duration"),
	OPT_ALIAS(0, "db", "store", NULL),
	OPT_ALIAS('s', NULL, "scenario", "-s means --sort"),
	{ .name = "significance", .type = OPTION_DOUBLE, .metavar = "P", .fmin = 0.001,
	  .fmax = 0.5, .off = OPT_OFF_(history_args, det.cpd.sig, double),
	  .deprecated = "use -c, --confidence C with C = 1 - P (--significance 0.05 is "
			"--confidence 0.95)" },
	OPT_HELP(),
	OPT_END(),
};

static void history_defaults(void *args)
{
	struct history_args *a = args;

	memset(a, 0, sizeof(*a));
	hs_detect_opts_default(&a->det);
	a->min_tail = 10;
}

int history_parse(int argc, char **argv, struct history_args *a, char *errbuf)
{
	int first = 0, pos, ret;

	history_defaults(a);
	if (argc > 1 && (!strcmp(argv[1], "add") || !strcmp(argv[1], "merge"))) {
		a->verb = !strcmp(argv[1], "add") ? HV_ADD : HV_MERGE;
		first = 1;		/* the verb stands where getopt expects the name */
	}
	ret = opts_parse(history_opts, OPTS_PERMUTE, argc - first, argv + first, a, &pos, errbuf);
	if (ret)
		return ret;
	a->paths = argv + first + pos;
	a->npaths = argc - first - pos;
	if (a->verb == HV_SHOW && a->npaths)
		return set_err(errbuf, "'%s': not a history command (add, merge) and history "
			       "takes no other arguments", a->paths[0]);
	if (a->verb != HV_SHOW && !a->npaths)
		return set_err(errbuf, "%s: need at least one %s", a->verb == HV_ADD ? "add" :
			       "merge", a->verb == HV_ADD ? "run directory" : "store to merge");
	if (a->kernel && !a->fleet)
		return set_err(errbuf, "--kernel goes with --fleet");
	if (a->regressions && a->fleet)
		return set_err(errbuf, "--regressions and --fleet are two views: pick one");
	if (a->force && !a->plotdir)
		return set_err(errbuf, "--force goes with -o DIR");
	return 0;
}

const char *history_db(const struct history_args *a)
{
	const char *env = getenv("DEFERBENCH_STORE");

	return a->db ? a->db : env && *env ? env : HISTORY_DEFAULT_DB;
}

static int do_add(const struct history_args *a)
{
	bool fresh = hstore_fresh(history_db(a));
	struct hstore *s;
	int i, failed = 0;

	if (hstore_open_checked(history_db(a), 0, (const char *const *)a->paths, &s)) {
		if (fresh)
			hstore_drop_fresh(history_db(a));
		return 2;
	}
	for (i = 0; i < a->npaths; i++)
		failed += !!hstore_add_dir(s, history_db(a), a->paths[i], a->replace);
	hstore_close(s);
	if (failed)
		err_msg("%d of %d runs not added", failed, a->npaths);
	if (fresh && failed == a->npaths)
		hstore_drop_fresh(history_db(a));
	return failed ? 2 : 0;
}

static int do_merge(const struct history_args *a)
{
	bool fresh = hstore_fresh(history_db(a));
	size_t added, present, conflicts;
	char err[ERRBUF_LEN];
	struct hstore *s;
	int i, failed = 0;

	if (hstore_open_checked(history_db(a), 0, (const char *const *)a->paths, &s)) {
		if (fresh)
			hstore_drop_fresh(history_db(a));
		return 2;
	}
	for (i = 0; i < a->npaths; i++) {
		if (hstore_merge(s, a->paths[i], &added, &present, &conflicts, err)) {
			err_msg("merge %s: %s", a->paths[i], err);
			failed++;
			continue;
		}
		info_msg("%s: %zu runs added, %zu already there", a->paths[i], added, present);
		if (conflicts)
			warn_msg("%s: %zu runs left out: a different run is stored under the "
				 "same host, kernel, scenario and start time", a->paths[i],
				 conflicts);
	}
	hstore_close(s);
	if (fresh && failed == a->npaths)
		hstore_drop_fresh(history_db(a));
	return failed ? 2 : 0;
}

/* host_series - how many series of the set are this host's: its family of tests */
static size_t host_series(const struct hs_set *set, const char *host)
{
	size_t i, n = 0;

	for (i = 0; i < set->n; i++)
		n += !strcmp(set->s[i].host, host);
	return n;
}

static int do_show(const struct history_args *a)
{
	struct hs_filter f = {
		.host = a->host, .scenario = a->scenario, .workload = a->workload,
		.config = a->config, .metrics = a->npatterns ? a->patterns : NULL,
		.nmetrics = a->npatterns, .min_tail = a->min_tail,
	};
	struct outw w = { .pfd = -1, .sfd = -1, .logfd = -1 };
	char err[ERRBUF_LEN];
	struct hstore *s;
	struct hs_set set;
	size_t i, nplots, regressed;
	int ret = 0;

	if (a->plotdir && outw_open(&w, a->plotdir, &(struct outw_opts){ .kind = OUTW_INTO,
			.by = "history", .force = a->force }, err)) {
		err_msg("%s", err);
		return 2;
	}
	if (hstore_open_checked(history_db(a), HS_RDONLY, NULL, &s)) {
		outw_abort(&w);
		return 2;
	}
	if (hstore_series(s, &f, &set, err)) {
		err_msg("%s", err);
		hstore_close(s);
		outw_abort(&w);
		return 2;
	}
	hstore_close(s);
	if (!set.n) {
		err_msg("%s: no run matches (host, scenario, workload, configuration or metric "
			"filters); 'deferbench history add RUN' imports runs", history_db(a));
		outw_abort(&w);
		return 2;
	}
	for (i = 0; !ret && i < set.n; i++)
		if (hs_detect(&set.s[i], &a->det, host_series(&set, set.s[i].host)))
			ret = -ENOMEM;
	if (ret) {
		err_msg("out of memory");
		hs_set_free(&set);
		outw_abort(&w);
		return 2;
	}
	if (a->regressions) {
		regressed = hs_print_regressions(stdout, &set);
		printf("%zu of %zu series: the newest kernel is past a change point for the "
		       "worse\n", regressed, set.n);
		ret = regressed ? 1 : 0;
	} else if (a->fleet) {
		ret = hs_print_fleet(stdout, &set, a->kernel) ? 2 : 0;
	} else {
		hs_print_table(stdout, &set);
	}
	if (a->plotdir && ret != 2) {
		if (hs_plot(&set, outw_dir(&w), &nplots, err) || outw_commit(&w, err)) {
			err_msg("plots: %s", err);
			ret = 2;
		} else {
			info_msg("%zu plots in %s", nplots, a->plotdir);
		}
	}
	outw_abort(&w);
	hs_set_free(&set);
	return ret;
}

const struct cli_command cli_history = {
	.name = "history",
	.fn = cmd_history,
	.summary = "results store: metrics across kernels and hosts, change points",
	.usage = "deferbench history [OPTIONS]\n"
		 "       deferbench history add [-S FILE] [--replace] RUN...\n"
		 "       deferbench history merge [-S FILE] STORE...",
	.desc =
	"The results store: runs of many kernels and hosts, each primary metric across\n"
	"kernels (release order, start time as tie-breaker), its change points (E-divisive\n"
	"means with a permutation test) and the fleet view.\n"
	"Exit status: 0 done, 1 a regression (--regressions), 2 error.",
	.examples = "deferbench history add -S results/history.db results/HOST/KERNEL/RUN\n"
		    "deferbench history -S results/history.db -m 'tty:*'",
	.opts = history_opts,
	.args_size = sizeof(struct history_args),
	.defaults = history_defaults,
};

int cmd_history(int argc, char **argv)
{
	struct history_args a;
	char err[ERRBUF_LEN];
	int ret;

	ret = cli_parsed(history_parse(argc, argv, &a, err), &cli_history, err, 2);
	if (ret >= 0)
		return ret;
	switch (a.verb) {
	case HV_ADD: return do_add(&a);
	case HV_MERGE: return do_merge(&a);
	default: return do_show(&a);
	}
}
