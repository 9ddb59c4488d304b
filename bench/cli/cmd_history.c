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
#include "parse.h"
#include "file.h"
#include "outw.h"

enum {
	OPT_WORKLOAD = 256, OPT_CONFIG, OPT_REGRESSIONS, OPT_FLEET, OPT_KERNEL, OPT_REPLACE,
	OPT_THRESHOLD, OPT_SIG, OPT_PERMS, OPT_MIN_TAIL, OPT_FORCE,
};

const struct opt_desc history_opts[] = {
	{ "db", 'd', required_argument, "FILE",
	  "the store (default $DEFERBENCH_STORE, else " HISTORY_DEFAULT_DB ")" },
	{ "host", 'H', required_argument, "HOST", "only this host" },
	{ "scenario", 's', required_argument, "NAME", "only this scenario" },
	{ "workload", OPT_WORKLOAD, required_argument, "NAME", "only this workload" },
	{ "config", OPT_CONFIG, required_argument, "NAME", "only this configuration" },
	{ "metric", 'm', required_argument, "PATTERN",
	  "metric ids matching this glob; repeatable (default: the primary metrics, each "
	  "workload's p99 and the p99 delay of the deferred work it drives)" },
	{ "regressions", OPT_REGRESSIONS, no_argument, NULL,
	  "list the change points; exit 1 when a newest kernel is past one for the worse" },
	{ "fleet", OPT_FLEET, no_argument, NULL,
	  "per kernel: on how many hosts it made things worse, better or no different" },
	{ "kernel", OPT_KERNEL, required_argument, "RELEASE", "--fleet: only this kernel" },
	{ "output", 'o', required_argument, "DIR", "write the plots (PNG, SVG) into DIR" },
	{ "force", OPT_FORCE, no_argument, NULL,
	  "-o: replace the plots an earlier history wrote in DIR (only those, unchanged)" },
	{ "threshold", OPT_THRESHOLD, required_argument, "PCT",
	  "smallest step reported, in percent (0.1-1000, default 10, as compare)" },
	{ "significance", OPT_SIG, required_argument, "P",
	  "level of each change point's permutation test (0.001-0.5, default 0.05)" },
	{ "permutations", OPT_PERMS, required_argument, "N",
	  "permutations per test (99-99999, default 999)" },
	{ "min-tail", OPT_MIN_TAIL, required_argument, "N",
	  "samples needed beyond a percentile for a repetition to count (default 10)" },
	{ "replace", OPT_REPLACE, no_argument, NULL,
	  "add: replace a different run stored under the same host, kernel, scenario and "
	  "start time" },
	{ "help", 'h', no_argument, NULL, "this help" },
	{ NULL, 0, 0, NULL, NULL }
};

static int history_opt(int c, struct history_args *a, char *errbuf)
{
	uint64_t u;
	int ret;

	switch (c) {
	case 'd': a->db = optarg; return 0;
	case 'H': a->host = optarg; return 0;
	case 's': a->scenario = optarg; return 0;
	case OPT_WORKLOAD: a->workload = optarg; return 0;
	case OPT_CONFIG: a->config = optarg; return 0;
	case OPT_KERNEL: a->kernel = optarg; return 0;
	case 'o': a->plotdir = optarg; return 0;
	case OPT_REGRESSIONS: a->regressions = true; return 0;
	case OPT_FLEET: a->fleet = true; return 0;
	case OPT_REPLACE: a->replace = true; return 0;
	case OPT_FORCE: a->force = true; return 0;
	case 'm':
		if (a->npatterns == HISTORY_MAX_PATTERNS)
			return set_err(errbuf, "at most %d patterns", HISTORY_MAX_PATTERNS);
		a->patterns[a->npatterns++] = optarg;
		return 0;
	case OPT_THRESHOLD:
		ret = parse_double(optarg, 0.1, 1000, &a->det.threshold, errbuf);
		a->det.threshold /= 100;
		return ret;
	case OPT_SIG:
		return parse_double(optarg, 0.001, 0.5, &a->det.cpd.sig, errbuf);
	case OPT_PERMS:
		ret = parse_u64(optarg, 99, 99999, &u, errbuf);
		a->det.cpd.perms = (unsigned int)u;
		return ret;
	case OPT_MIN_TAIL:
		ret = parse_u64(optarg, 1, 1000000, &u, errbuf);
		a->min_tail = (unsigned int)u;
		return ret;
	default:
		return set_err(errbuf, "unknown option or missing argument");
	}
}

int history_parse(int argc, char **argv, struct history_args *a, char *errbuf)
{
	char msg[ERRBUF_LEN], name[OPTS_NAME_LEN];
	struct opts_iter it;
	int c, first = 0;

	memset(a, 0, sizeof(*a));
	hs_detect_opts_default(&a->det);
	a->min_tail = 10;
	if (argc > 1 && (!strcmp(argv[1], "add") || !strcmp(argv[1], "merge"))) {
		a->verb = !strcmp(argv[1], "add") ? HV_ADD : HV_MERGE;
		first = 1;		/* the verb stands where getopt expects the name */
	}
	if ((c = opts_begin(&it, history_opts, OPTS_PERMUTE, argc - first, argv + first,
			    errbuf)))
		return c;
	while ((c = opts_next(&it, errbuf)) >= 0) {
		if (c == 'h')
			return CLI_HELP;
		if (history_opt(c, a, msg))
			return set_err(errbuf, "%s: %s", opts_name(history_opts, c, name,
				       sizeof(name)), msg);
	}
	if (c != OPTS_END)
		return c;
	a->paths = argv + first + optind;
	a->npaths = argc - first - optind;
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

/*
 * open_store - for writing: checked as every output is (never one of the inputs nor in
 * one, never through a link, no system directory), its directory made when missing
 */
static int open_store(const char *path, int flags, const char *const *inputs,
		      struct hstore **s)
{
	char err[ERRBUF_LEN];

	if (!(flags & HS_RDONLY) && outw_check_inplace(path, &(struct outw_opts){
			.by = "history", .inputs = inputs }, err)) {
		err_msg("%s", err);
		return -EINVAL;
	}
	if (hstore_open(path, flags, s, err)) {
		err_msg("%s", err);
		return -EINVAL;
	}
	return 0;
}

/* add_one - one directory into an open store; 0 or -errno after a message */
static int add_one(struct hstore *s, const char *db, const char *dir, bool replace)
{
	struct hstore_added r;
	char err[ERRBUF_LEN];
	struct run run;
	size_t i;
	int ret;

	ret = run_load(dir, &run, err);
	if (ret) {
		err_msg("%s", err);
		return ret;
	}
	for (i = 0; i < run.ncells && !run.cells[i].ok; i++)
		;
	if (i == run.ncells) {
		err_msg("%s: no cell of this run finished (%zu in run.json%s): there is nothing to "
			"add; add a run that finished", dir, run.ncells, run.complete ? "" :
			", and the run was interrupted or failed");
		run_free(&run);
		return -ENODATA;
	}
	ret = hstore_add_run(s, &run, dir, replace, &r, err);
	if (ret)
		err_msg("%s: %s", dir, err);
	else if (r.existed)
		info_msg("%s: already in %s (run %lld): nothing to do", dir, db, r.run_id);
	else
		info_msg("%s: %s %s as run %lld (%s, kernel %s, %zu cells, %zu values)", dir,
			 r.replaced ? "replaced in" : "added to", db, r.run_id,
			 run.meta[RM_HOSTNAME], run.meta[RM_KERNEL], r.ncells, r.nvalues);
	run_free(&run);
	return ret;
}

int history_add_dir(const char *db, const char *dir, bool replace)
{
	struct hstore *s;
	int ret;

	if (open_store(db, 0, (const char *const[]){ dir, NULL }, &s))
		return -EINVAL;
	ret = add_one(s, db, dir, replace);
	hstore_close(s);
	return ret;
}

static int do_add(const struct history_args *a)
{
	struct hstore *s;
	int i, failed = 0;

	if (open_store(history_db(a), 0, (const char *const *)a->paths, &s))
		return 2;
	for (i = 0; i < a->npaths; i++)
		failed += !!add_one(s, history_db(a), a->paths[i], a->replace);
	hstore_close(s);
	if (failed)
		err_msg("%d of %d runs not added", failed, a->npaths);
	return failed ? 2 : 0;
}

static int do_merge(const struct history_args *a)
{
	size_t added, present, conflicts;
	char err[ERRBUF_LEN];
	struct hstore *s;
	int i, failed = 0;

	if (open_store(history_db(a), 0, (const char *const *)a->paths, &s))
		return 2;
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
	if (open_store(history_db(a), HS_RDONLY, NULL, &s)) {
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

static const struct cli_help history_help = {
	"history",
	"deferbench history [OPTIONS]\n"
	"       deferbench history add [--db FILE] [--replace] RUN...\n"
	"       deferbench history merge [--db FILE] STORE...",
	"The results store: runs of many kernels and hosts, each primary metric across\n"
	"kernels (release order, start time as tie-breaker), its change points (E-divisive\n"
	"means with a permutation test) and the fleet view. README: \"Results across\n"
	"kernels and machines\".\n"
	"Exit status: 0 done, 1 a regression (--regressions), 2 error.",
	history_opts, NULL,
};

int cmd_history(int argc, char **argv)
{
	struct history_args a;
	char err[ERRBUF_LEN];
	int ret;

	ret = cli_parsed(history_parse(argc, argv, &a, err), &history_help, err, 2);
	if (ret >= 0)
		return ret;
	switch (a.verb) {
	case HV_ADD: return do_add(&a);
	case HV_MERGE: return do_merge(&a);
	default: return do_show(&a);
	}
}
