/* SPDX-License-Identifier: GPL-2.0 */
/*
 * cmd_args.h - argument parsing of report, compare and baseline as pure functions
 * (no output, no file access), so that tests can call them. Each returns 0, 1 for
 * --help, or -EINVAL with a message in errbuf (ERRBUF_LEN).
 */
#ifndef DEFERBENCH_CMD_ARGS_H
#define DEFERBENCH_CMD_ARGS_H

#include <stdbool.h>

#include "compare.h"
#include "history.h"
#include "opts.h"
#include "util.h"

#define CMP_MAX_PATTERNS 32

struct compare_args {
	const char *base, *new;
	const char *outdir;		/* NULL: the new run's directory */
	bool no_files;
	struct cmp_opts cmp;
	const char *patterns[CMP_MAX_PATTERNS + 1];
};
extern const struct opt_desc compare_opts[];
int compare_parse(int argc, char **argv, struct compare_args *a, char *errbuf);

struct report_args {
	const char *dir;
	const char *outdir;		/* NULL: dir itself */
	bool no_plots;
	unsigned int top_wq;		/* workqueue groups shown per cell */
};
extern const struct opt_desc report_opts[];
int report_parse(int argc, char **argv, struct report_args *a, char *errbuf);

enum baseline_verb { BL_SAVE, BL_SHOW, BL_PATH, BL_LIST };

struct baseline_args {
	enum baseline_verb verb;
	const char *root;		/* --dir, else $DEFERBENCH_BASELINE_DIR, else default */
	const char *host;		/* --host, else the run's or this machine's */
	const char *name;		/* --name, default "default" */
	const char *run;		/* save: the run directory */
	bool force;			/* save: accept an incomplete or lossy run */
};
extern const struct opt_desc baseline_opts[];
#define BASELINE_DEFAULT_ROOT "/var/lib/deferbench/baselines"
int baseline_parse(int argc, char **argv, struct baseline_args *a, char *errbuf);

enum history_verb { HV_SHOW, HV_ADD, HV_MERGE };

#define HISTORY_MAX_PATTERNS 32
#define HISTORY_DEFAULT_DB "/var/lib/deferbench/results.db"

struct history_args {
	enum history_verb verb;
	const char *db;			/* --db, else $DEFERBENCH_STORE, else the default */
	const char *host, *scenario, *workload, *config, *kernel;
	const char *patterns[HISTORY_MAX_PATTERNS + 1];
	size_t npatterns;		/* 0: the primary metrics */
	const char *plotdir;		/* -o: write plots here */
	bool regressions, fleet, replace;
	unsigned int min_tail;
	struct hs_detect_opts det;
	char **paths;			/* add: run directories; merge: stores */
	int npaths;
};
extern const struct opt_desc history_opts[];
int history_parse(int argc, char **argv, struct history_args *a, char *errbuf);
/* history_db - the store path the arguments and environment choose */
const char *history_db(const struct history_args *a);

enum export_format { EX_NONE, EX_KCIDB, EX_LAVA, EX_RESULT_TXT };

struct export_args {
	enum export_format format;
	const char *run;
	const char *against;		/* baseline run: verdicts; NULL: measurements only */
	const char *origin, *build_id;	/* KCIDB */
	const char *output;		/* NULL: stdout */
	unsigned int min_tail;
};
extern const struct opt_desc export_opts[];
int export_parse(int argc, char **argv, struct export_args *a, char *errbuf);

#endif
