/* SPDX-License-Identifier: GPL-2.0 */
/*
 * cli.h - the deferbench subcommands: one file each (cmd_NAME.c) with its option
 * table, a pure argument parser and its entry point, described by one struct
 * cli_command in the registry main.c dispatches from.
 *
 * Entry points take argv[0] = the subcommand's name and return the exit status:
 *   0  success
 *   1  error (bad input, missing privilege or facility, I/O failure)
 * compare has its own codes (1 = regression, 2 = error) and says so in --help.
 *
 * Parsers touch nothing and print nothing but the note of an old option spelling
 * (opts.h; the unit tests call them): they return 0, CLI_HELP when --help was asked
 * for, or -EINVAL with a message in errbuf (ERRBUF_LEN) that names the option at fault.
 * Every option is declared once, in the command's table (cli_opts.h for the shared
 * ones), and opts_parse() reports a bad one in the same words for every command.
 */
#ifndef DEFERBENCH_CLI_H
#define DEFERBENCH_CLI_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "cli_opts.h"
#include "compare.h"
#include "history.h"
#include "opts.h"
#include "runner.h"
#include "common.h"

#define CLI_HELP OPTS_HELP

/* A subcommand: what main.c dispatches to, and what its --help prints. */
struct cli_command {
	const char *name;		/* "record" */
	int (*fn)(int argc, char **argv);
	const char *summary;		/* one line of 'deferbench --help' */
	const char *usage;		/* "deferbench record [-d DUR] ..." */
	const char *desc;		/* a paragraph, or NULL */
	const struct opt_desc *opts;
	size_t args_size;		/* the parser's args struct */
	void (*defaults)(void *args);	/* what the parser starts from; --help shows it */
	void (*more)(FILE *f);		/* printed after the options, or NULL */
	/* one or two command lines, '\n' between them: the end of --help (test_opts.c) */
	const char *examples;
};

/* Every subcommand, in the order 'deferbench --help' lists them; NULL-terminated. */
extern const struct cli_command *const cli_commands[];
/* cli_command_find - the subcommand called name, or NULL */
const struct cli_command *cli_command_find(const char *name);

/*
 * cli_parsed - what an entry point does with its parser's return value ret: print the
 * help (returns 0), or "NAME: ERR; see 'deferbench NAME --help'" (returns errcode), or
 * nothing for ret == 0 (returns -1: go on).
 */
int cli_parsed(int ret, const struct cli_command *c, const char *err, int errcode);
/* cli_usage - the --help of c */
void cli_usage(FILE *f, const struct cli_command *c);

/* record (bounds of -b and -i: capture.h, cli_opts.h) */
struct record_args {
	uint64_t duration_ns;		/* 0: until the command exits, or Ctrl-C */
	const char *out_dir;
	struct capture_settings cap;	/* -b, -i, --no-sched, --sched-all, --capture-cpus,
					 * --stacks, --slowest */
	bool raw;
	bool force;
	bool align;			/* intervals at multiples of cap.interval_ns */
	const char *store;		/* --store: add the results to this results store */
	uint64_t keep_worst_ns;		/* --keep-worst: the window; 0: none */
	struct table_opts table;	/* --ns, --min-count */
	char **cmd;			/* NULL-terminated, or NULL */
};
#define KEEP_WORST_DEFAULT_NS (10 * NSEC_PER_MSEC)
int record_parse_args(int argc, char **argv, struct record_args *a, char *errbuf);
int cmd_record(int argc, char **argv);
extern const struct cli_command cli_record;

/* tune (cmd_tune.c) */
int cmd_tune(int argc, char **argv);
extern const struct cli_command cli_tune;

/* analyze */
struct analyze_args {
	const char *in_dir;		/* a record directory, or a trace.dat file */
	const char *out_dir;
	bool force;
	bool accept_damaged;		/* a cpuN.dat short of events: analyze what is there */
	const char *buffer;		/* trace.dat: the instance buffer to read */
	uint64_t interval_ns;		/* trace.dat: intervals.csv (0: the default 1 s) */
	uint64_t start_ns, end_ns;	/* trace.dat: the events between (0: no bound) */
	struct table_opts table;	/* --ns, --min-count */
};
int analyze_parse_args(int argc, char **argv, struct analyze_args *a, char *errbuf);
int cmd_analyze(int argc, char **argv);
extern const struct cli_command cli_analyze;

/* top (bounds of -b: capture.h) */
#define TOP_MIN_INTERVAL_NS (100 * NSEC_PER_MSEC)

struct top_args {
	struct capture_settings cap;	/* -i (default 1 s), -b, --no-sched, --sched-all,
					 * --capture-cpus */
	uint64_t duration_ns;		/* -d, 0: until q or a signal */
	bool once;			/* print the first whole interval and exit */
	bool json;			/* one JSON object per line per interval */
	int sort;			/* enum top_sort (top_view.h) */
	int group;			/* enum top_group (top_snap.h) */
	unsigned int rows;		/* workqueue rows shown, 0: all */
	struct table_opts table;	/* --ns, --min-count (text only: --json has every row) */
};
int top_parse_args(int argc, char **argv, struct top_args *a, char *errbuf);
int cmd_top(int argc, char **argv);
extern const struct cli_command cli_top;

/* load */
#define LOAD_MAX_OPTS 64
#define LOAD_KEY_MAX 64
#define LOAD_DEFAULT_DURATION_NS (10 * NSEC_PER_SEC)

struct load_args {
	const char *name;		/* workload, NULL with --list alone */
	uint64_t duration_ns;		/* -d, default LOAD_DEFAULT_DURATION_NS */
	const char *outdir;		/* -o, or NULL */
	uint64_t seed;			/* --seed, default 1 */
	uint64_t intervals_ns;		/* -i, 0: the workload's default (1 s) */
	bool list;			/* --list */
	bool force;			/* -o: replace an earlier load's files */
	bool help;			/* -h */
	int nopts;
	char key[LOAD_MAX_OPTS][LOAD_KEY_MAX];	/* workload options, in order given */
	const char *val[LOAD_MAX_OPTS];
};
/*
 * load_parse_args - argv[0] is "load". load's own options may come before or after
 * the workload name; after it, "--key value", "--key=value" and "key=value" are
 * workload options (checked later against the workload's table).
 */
int load_parse_args(int argc, char **argv, struct load_args *a, char *errbuf);
int cmd_load(int argc, char **argv);
extern const struct cli_command cli_load;

/* run: struct run_opts (all but the command line), and the adaptive loop's choices */
struct run_args {
	struct run_opts o;		/* o.set: the scenario's settings given as options */
	const char *against;		/* --against RUN */
};
int run_parse_args(int argc, char **argv, struct run_args *a, char *errbuf);
int cmd_run(int argc, char **argv);
extern const struct cli_command cli_run;

/* restore */
struct restore_args {
	bool while_running;		/* even while the journal's owner runs */
};
int restore_parse_args(int argc, char **argv, struct restore_args *a, char *errbuf);
int cmd_restore(int argc, char **argv);
extern const struct cli_command cli_restore;

/* knobs */
enum knobs_verb { KNOBS_SHOW, KNOBS_LIST, KNOBS_SET };
#define KNOBS_SET_MAX 32

struct knobs_args {
	enum knobs_verb verb;
	uint64_t hold_ns;		/* set -d: restore after this long; 0 = at a signal */
	char **assign;			/* set: "KNOB=VALUE" arguments */
	int nassign;
};
int knobs_parse_args(int argc, char **argv, struct knobs_args *a, char *errbuf);
int cmd_knobs(int argc, char **argv);
extern const struct cli_command cli_knobs;

/* report */
struct report_args {
	const char *dir;
	const char *outdir;		/* NULL: dir itself */
	bool no_plots;
	bool force;			/* replace an earlier report's files */
	unsigned int top_wq;		/* workqueue groups shown per cell */
};
int report_parse(int argc, char **argv, struct report_args *a, char *errbuf);
int cmd_report(int argc, char **argv);
extern const struct cli_command cli_report;

/* compare */
#define CMP_MAX_PATTERNS 32

struct compare_args {
	const char *base, *new;
	const char *outdir;		/* NULL: the new run's directory */
	bool no_files;
	bool wide;			/* every column, however wide */
	bool force;			/* replace an earlier compare's files */
	bool allow_empty;		/* no primary metric judged is not an error */
	bool allow_undecided;		/* an undecided primary metric is not exit 3 */
	bool fail_higher;		/* a primary "higher" is exit 1 */
	const char *noise;		/* --noise FILE */
	struct cmp_opts cmp;
	const char *patterns[CMP_MAX_PATTERNS + 1];
	size_t npatterns;
	/* sets of runs: BASE... vs NEW... (nbases 0: one run a side, base and new) */
	char **bases, **news;
	size_t nbases, nnews;
};
int compare_parse(int argc, char **argv, struct compare_args *a, char *errbuf);
int cmd_compare(int argc, char **argv);
extern const struct cli_command cli_compare;

/* advise */
struct advise_args {
	const char *run;
	bool json;
	double threshold;		/* 0.10 = 10% */
	const char *noise;		/* noise.json, or NULL */
};
int advise_parse_args(int argc, char **argv, struct advise_args *a, char *errbuf);
int cmd_advise(int argc, char **argv);
extern const struct cli_command cli_advise;

/* baseline */
enum baseline_verb { BL_SAVE, BL_SHOW, BL_PATH, BL_LIST, BL_CALIBRATE };
#define CALIBRATE_MAX_RUNS 20
#define BASELINE_DEFAULT_ROOT "/var/lib/deferbench/baselines"

struct baseline_args {
	enum baseline_verb verb;
	const char *root;		/* -D, else $DEFERBENCH_BASELINE_DIR, else default */
	const char *host;		/* --host, else the run's or this machine's */
	const char *name;		/* --name, default "default" */
	const char *run;		/* save: the run directory */
	bool force;			/* calibrate: replace noise.json; save: refused */
	bool accept_incomplete;		/* save: accept an incomplete or lossy run */
	bool replace;			/* save: replace an existing baseline */
	/* calibrate */
	int runs;			/* --runs N: runs of the scenario (default 3) */
	const char *scenario;		/* the scenario to run, or NULL with --from */
	bool use_from;			/* --from given */
	char *const *from;		/* --from: existing runs, nfrom of them */
	int nfrom;
	const char *output;		/* -o FILE: noise.json here, not in the baseline */
};
/* calibrate_baseline - the calibrate verb (cmd_calibrate.c); returns the exit status */
int calibrate_baseline(const struct baseline_args *a);
/*
 * baseline_dir.c: baseline_root - the root of a's baselines (-D, else
 * $DEFERBENCH_BASELINE_DIR, else the default); baseline_dir - <root>/<host>/<name> of a:
 * 0, -ENOENT when it does not exist
 */
const char *baseline_root(const struct baseline_args *a);
int baseline_dir(const struct baseline_args *a, char *buf, size_t len);
int baseline_parse(int argc, char **argv, struct baseline_args *a, char *errbuf);
int cmd_baseline(int argc, char **argv);
extern const struct cli_command cli_baseline;

/* history: the results store (cmd_history.c) */
enum history_verb { HV_SHOW, HV_ADD, HV_MERGE };

#define HISTORY_MAX_PATTERNS 32
#define HISTORY_DEFAULT_DB "/var/lib/deferbench/results.db"

struct history_args {
	enum history_verb verb;
	const char *db;			/* -S, else $DEFERBENCH_STORE, else the default */
	const char *host, *scenario, *workload, *config, *kernel;
	const char *patterns[HISTORY_MAX_PATTERNS + 1];
	size_t npatterns;		/* 0: the primary metrics */
	const char *plotdir;		/* -o: write plots here */
	bool regressions, fleet, replace;
	bool force;			/* -o: replace an earlier history's plots */
	unsigned int min_tail;
	struct hs_detect_opts det;
	char **paths;			/* add: run directories; merge: stores */
	int npaths;
};
int history_parse(int argc, char **argv, struct history_args *a, char *errbuf);
/* history_db - the store path the arguments and environment choose */
const char *history_db(const struct history_args *a);
int cmd_history(int argc, char **argv);
extern const struct cli_command cli_history;

/*
 * history_store.c: for the commands that write a store, printing what happened
 * (messages, not errbuf):
 * hstore_open_checked - hstore_open, and for writing the checks every output gets
 * (never one of inputs nor in one, never through a link, no system directory), its
 * directory made when missing; hstore_add_dir - one run or record directory into an
 * open store; history_add_dir - both, for run --store and record --store. 0 or -errno.
 */
int hstore_open_checked(const char *path, int flags, const char *const *inputs,
			struct hstore **s);
int hstore_add_dir(struct hstore *s, const char *db, const char *dir, bool replace);
int history_add_dir(const char *db, const char *dir, bool replace);
/*
 * hstore_fresh - no store is at path yet; hstore_drop_fresh - remove the store this
 * command created there, and its journal files, when nothing went into it (a full
 * disk, a run that could not be added): no empty or 0-byte store is left behind
 */
bool hstore_fresh(const char *path);
/*
 * history_store_check - a store can take a run, making nothing (run --dry-run, and
 * before a run's first cell): the checks of every output, an existing file a store
 * deferbench can read, a new one's directory writable. 0, or -errno with the reason in
 * errbuf.
 */
int history_store_check(const char *path, char *errbuf);
void hstore_drop_fresh(const char *path);

/* export: a run's primary metrics for CI (cmd_export.c) */
enum export_format { EX_NONE, EX_KCIDB, EX_LAVA, EX_RESULT_TXT };

struct export_args {
	enum export_format format;
	const char *run;
	const char *against;		/* baseline run: verdicts; NULL: measurements only */
	const char *origin, *build_id;	/* KCIDB */
	const char *output;		/* NULL: stdout */
	bool force;			/* replace an earlier export's file */
	unsigned int min_tail;
};
int export_parse(int argc, char **argv, struct export_args *a, char *errbuf);
int cmd_export(int argc, char **argv);
extern const struct cli_command cli_export;

#endif
