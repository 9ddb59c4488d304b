// SPDX-License-Identifier: GPL-2.0
/*
 * cmd_load.c - 'deferbench load': run one workload standalone for a duration, stop
 * it cleanly on SIGINT/SIGTERM, print its metrics and optionally write them.
 *
 * Exit codes: 0 the workload ran and was stopped cleanly (at the end of the duration
 * or by SIGINT/SIGTERM: the results cover the time it ran); 1 error (bad option,
 * refused setting, workload failure while running).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "outw.h"
#include "workload.h"
#include "msg.h"
#include "sys.h"

static const struct opt_desc load_opts[] = {
	CLI_OPT_DURATION(load_args, duration_ns,
			 "how long to run (10s, 500ms, 2m); Ctrl-C stops earlier"),
	CLI_OPT_OUTPUT(load_args, outdir, "DIR",
		       "write workload.json and workload-hist.csv into DIR (created)"),
	CLI_OPT_FORCE(load_args, force,
		      "-o: replace what an earlier load wrote in DIR (only its files, unchanged)"),
	CLI_OPT_INTERVAL(load_args, intervals_ns, NSEC_PER_MSEC,
			 "length of the per-interval histograms in workload-intervals.csv; 1s "
			 "when not given"),
	OPT_U64(0, "seed", load_args, seed, "N", 0, UINT64_MAX,
		"seed of the workload's pseudo-random data, reported"),
	OPT_BOOL(0, "list", load_args, list,
		 "list the workloads (or NAME's) with every option, default and bounds"),
	OPT_ALIAS(0, "intervals", "interval", NULL),
	OPT_HELP(),
	OPT_END(),
};

/* add_wl_opt - a workload option "key" = val */
static int add_wl_opt(struct load_args *a, const char *key, size_t klen, const char *val,
		      char *errbuf)
{
	int i;

	if (a->nopts >= LOAD_MAX_OPTS)
		return set_err(errbuf, "more than %d workload options", LOAD_MAX_OPTS);
	if (!klen || klen >= LOAD_KEY_MAX)
		return set_err(errbuf, "bad workload option name '%.*s'", (int)klen, key);
	/* the last of two values silently winning hides a typo in a script */
	for (i = 0; i < a->nopts; i++)
		if (strlen(a->key[i]) == klen && !strncmp(a->key[i], key, klen))
			return set_err(errbuf, "workload option '%.*s' is given twice ('%s' and "
				       "'%s')", (int)klen, key, a->val[i], val);
	memcpy(a->key[a->nopts], key, klen);
	a->key[a->nopts][klen] = '\0';
	a->val[a->nopts++] = val;
	return 0;
}

/* parse_wl_opt - "--key value", "--key=value" or "key=value"; consumes 1 or 2 args */
static int parse_wl_opt(int argc, char **argv, int *i, struct load_args *a, char *errbuf)
{
	const char *arg = argv[*i], *eq;

	if (arg[0] == '-' && arg[1] == '-') {
		arg += 2;
		eq = strchr(arg, '=');
		if (eq)
			return add_wl_opt(a, arg, eq - arg, eq + 1, errbuf);
		if (*i + 1 >= argc)
			return set_err(errbuf, "workload option --%s needs a value", arg);
		(*i)++;
		return add_wl_opt(a, arg, strlen(arg), argv[*i], errbuf);
	}
	eq = strchr(arg, '=');
	if (arg[0] == '-' || !eq)
		return set_err(errbuf, "unexpected argument '%s' (workload options are "
			       "key=value or --key value)", arg);
	return add_wl_opt(a, arg, eq - arg, eq + 1, errbuf);
}

static void load_defaults(void *args)
{
	struct load_args *a = args;

	memset(a, 0, sizeof(*a));
	a->duration_ns = LOAD_DEFAULT_DURATION_NS;
	a->seed = 1;
}

/*
 * workload_spells - after the workload's name, "--key" is the workload's option when it
 * has one of that name (timer's --period), or had one (timer's --interval: refused, naming period)
 */
static bool workload_spells(const struct workload_ops *ops, const char *arg)
{
	char key[LOAD_KEY_MAX];
	size_t n;

	if (!ops || arg[0] != '-' || arg[1] != '-')
		return false;
	n = strcspn(arg + 2, "=");
	if (n >= sizeof(key))
		return false;
	memcpy(key, arg + 2, n);
	key[n] = '\0';
	/* an old name: the workload's, so that its message says where it went */
	return wl_option_find(ops, key) || wl_option_renamed(ops, key);
}

/* load_opt - one of load's own options, its value taken from argv[*i + 1] if needed */
static int load_opt(const struct opt_desc *o, const char *val, int argc, char **argv, int *i,
		    struct load_args *a, char *errbuf)
{
	const struct opt_desc *r = opts_resolve(load_opts, o);
	const char *arg = argv[*i];
	int ret;

	if (!val && opts_takes_value(load_opts, o)) {
		if (*i + 1 >= argc)
			return set_err(errbuf, "--%s needs a value (%s)", r->name, r->metavar);
		val = argv[++*i];
	}
	ret = opts_apply(load_opts, o, arg, val, a, errbuf);
	if (ret == OPTS_HELP)
		a->help = true;
	return ret == OPTS_HELP ? 0 : ret;
}

int load_parse_args(int argc, char **argv, struct load_args *a, char *errbuf)
{
	const struct workload_ops *ops = NULL;
	const struct opt_desc *o;
	const char *val;
	int i, ret;

	load_defaults(a);
	for (i = 1; i < argc; i++) {
		const char *arg = argv[i];

		o = arg[0] == '-' && !workload_spells(ops, arg) ?
		    opts_lookup(load_opts, arg, &val) : NULL;
		if (o) {
			ret = load_opt(o, val, argc, argv, &i, a, errbuf);
		} else if (!a->name && arg[0] != '-' && !strchr(arg, '=')) {
			a->name = arg;
			ops = workload_find(arg);
			ret = 0;
		} else if (!a->name) {
			ret = set_err(errbuf, arg[0] == '-' ? "unknown option '%s'" :
				      "'%s' before the workload name", arg);
		} else {
			ret = parse_wl_opt(argc, argv, &i, a, errbuf);
		}
		if (ret)
			return ret;
	}
	if (a->help)
		return CLI_HELP;
	if (!a->name && !a->list)
		return set_err(errbuf, "no workload named; 'deferbench load --list' lists them");
	return 0;
}

static void load_workloads(FILE *f)
{
	fprintf(f, "\nworkloads:");
	for (const struct workload_ops *const *r = workload_registry; *r; r++)
		fprintf(f, " %s", (*r)->name);
	fprintf(f, "\n");
}

const struct cli_command cli_load = {
	.name = "load",
	.fn = cmd_load,
	.summary = "run one workload and report its latency (workloads below)",
	.usage = "deferbench load [OPTIONS] NAME [--key value | key=value ...]\n"
		 "       deferbench load --list [NAME]",
	.desc =
	"Run one workload for a duration and print the latency its own user feels.\n"
	"Ctrl-C or SIGTERM stops it early, tears everything down, and still reports.\n"
	"After NAME, --key is the workload's option when it has one of that name (timer's\n"
	"--period); -i, --interval is always load's.\n"
	"Exit status: 0 it ran (to the end, or until SIGINT/SIGTERM); 1 error.",
	.examples = "deferbench load tty -d 10s\n"
		    "deferbench load timer -d 5s period=500us",
	.opts = load_opts,
	.args_size = sizeof(struct load_args),
	.defaults = load_defaults,
	.more = load_workloads,
};

/* configure - a new run with the command line's options; NULL after a message */
static struct wl_run *configure(const struct workload_ops *ops, const struct load_args *a)
{
	char errbuf[ERRBUF_LEN];
	struct wl_run *w;
	int i;

	w = wl_new(ops);
	if (!w) {
		err_msg("%s: %s", ops->name, strerror(errno));
		return NULL;
	}
	w->seed = a->seed;
	if (a->intervals_ns)
		wl_intervals(w, a->intervals_ns);
	for (i = 0; i < a->nopts; i++) {
		if (wl_set_option(w, a->key[i], a->val[i], errbuf)) {
			err_msg("%s", errbuf);
			wl_free(w);
			return NULL;
		}
	}
	return w;
}

/*
 * run - setup, start, wait for the end, a signal or a failure, stop. Returns 0 or 1;
 * *ran says whether there are results to report.
 */
static int run(struct wl_run *w, uint64_t duration_ns, bool *ran)
{
	char errbuf[ERRBUF_LEN];
	uint64_t end, now;

	*ran = false;
	if (wl_setup(w, errbuf) || wl_start(w, errbuf)) {
		err_msg("%s", errbuf);
		return 1;
	}
	*ran = true;
	end = w->start_ns + duration_ns;
	/* wake every 50 ms to notice a workload failure */
	while (!stop_requested && !wl_error(w) && (now = now_ns()) < end)
		sleep_until_or_stop(end - now > 50 * NSEC_PER_MSEC ?
				    now + 50 * NSEC_PER_MSEC : end);
	wl_stop(w);
	if (stop_requested)
		info_msg("%s: stopped by signal after %.3f s", w->ops->name,
			 (double)(w->stop_ns - w->start_ns) / 1e9);
	if (wl_error(w)) {
		err_msg("%s", wl_error(w));
		return 1;
	}
	return 0;
}

int cmd_load(int argc, char **argv)
{
	const struct workload_ops *ops = NULL;
	static const char *const out_names[] = {
		"workload.json", "workload-hist.csv", "workload-intervals.csv", NULL,
	};
	struct outw ow = { .pfd = -1, .sfd = -1, .logfd = -1 };
	char errbuf[ERRBUF_LEN];
	struct load_args *a;
	struct wl_run *w;
	int rc = 1, ret;
	bool ran;

	a = calloc(1, sizeof(*a));
	if (!a)
		return 1;
	ret = cli_parsed(load_parse_args(argc, argv, a, errbuf), &cli_load, errbuf, 1);
	if (ret >= 0) {
		rc = ret;
		goto out;
	}
	if (a->name && !(ops = workload_find(a->name))) {
		err_msg("load: no workload '%s'; 'deferbench load --list' lists them", a->name);
		goto out;
	}
	if (a->list) {
		wl_list(stdout, ops);
		rc = 0;
		goto out;
	}
	if (ops && ops->needs_root && !host_is_root()) {
		err_msg("load %s needs root: %s; run it as root (sudo)", ops->name,
			ops->needs_root);
		goto out;
	}
	/* the output directory is checked before the work, not after it */
	if (a->outdir && outw_open(&ow, a->outdir, &(struct outw_opts){ .kind = OUTW_INTO,
			.by = "load", .force = a->force, .names = out_names }, errbuf)) {
		err_msg("%s", errbuf);
		goto out;
	}
	stop_on_signals();
	w = configure(ops, a);
	if (!w)
		goto out;
	rc = run(w, a->duration_ns, &ran);
	wl_teardown(w);		/* the machine as found before anything is printed */
	if (ran)		/* report, even after a failure while running */
		wl_print(w, stdout);
	fflush(stdout);
	if (a->outdir && ran) {
		ret = wl_write_results(w, outw_dir(&ow));
		if (ret) {
			err_msg("load: cannot write the results: %s", strerror(-ret));
			rc = 1;
		} else if (outw_commit(&ow, errbuf)) {
			err_msg("%s", errbuf);
			rc = 1;
		}
	}
	wl_free(w);
out:
	outw_abort(&ow);
	free(a);
	return rc;
}
