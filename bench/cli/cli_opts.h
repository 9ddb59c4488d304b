/* SPDX-License-Identifier: GPL-2.0 */
/*
 * cli_opts.h - the options several commands share, each declared once (git's
 * OPT__FORCE, rtla's common options): the letter, long name, type and bounds are
 * fixed here; a command gives the member of its args struct and, where the sense
 * differs, its own help.
 *
 * One meaning per letter across all commands, following perf, rtla and cyclictest
 * where they agree (tests/unit/test_opts.c checks every command's table):
 *
 *   -b --buffer-kb   -c --confidence  -d --duration   -D --dir      -f --force
 *   -g --group       -h --help        -H --host       -i --interval -m --metric
 *   -n --dry-run     -o --output      -s --sort       -S --store    -t --threshold
 *   -q --quiet and -v --verbose are kept for those meanings ('deferbench -v').
 */
#ifndef DEFERBENCH_CLI_OPTS_H
#define DEFERBENCH_CLI_OPTS_H

#include "capture_settings.h"
#include "opts.h"

/* how long to run (record, top, load, knobs set); 0 is the command's own default */
#define CLI_OPT_DURATION(st, f, h) OPT_DURATION('d', "duration", st, f, "DUR", 0, 0, h)
/* the length of the per-interval statistics, at least lo */
#define CLI_OPT_INTERVAL(st, f, lo, h) OPT_DURATION('i', "interval", st, f, "DUR", lo, 0, h)
/* where the results go: a directory, or a file (mv says which) */
#define CLI_OPT_OUTPUT(st, f, mv, h) OPT_STRING('o', "output", st, f, mv, h)
#define CLI_OPT_FORCE(st, f, h) OPT_BOOL('f', "force", st, f, h)
#define CLI_OPT_DRY_RUN(st, f, h) OPT_BOOL('n', "dry-run", st, f, h)
/* the results store (deferbench history), an SQLite file */
#define CLI_OPT_STORE(st, f, h) OPT_STRING('S', "store", st, f, "FILE", h)
#define CLI_OPT_HOST(st, f, h) OPT_STRING('H', "host", st, f, "HOST", h)
#define CLI_OPT_JSON(st, f, h) OPT_BOOL(0, "json", st, f, h)
#define CLI_OPT_NOISE(st, f, h) OPT_STRING(0, "noise", st, f, "FILE", h)
#define CLI_OPT_AGAINST(st, f, mv, h) OPT_STRING(0, "against", st, f, mv, h)

/* verdicts: compare, advise, history and the engine they share (compare.h) */
#define CLI_OPT_THRESHOLD(st, f, h) OPT_PERCENT('t', "threshold", st, f, 0.1, 1000, h)
#define CLI_CONFIDENCE_MIN 0.5
#define CLI_CONFIDENCE_MAX 0.999
/* 1 - the family-wise error of each family of tests */
#define CLI_OPT_CONFIDENCE(st, f, h) \
	OPT_DOUBLE('c', "confidence", st, f, "C", CLI_CONFIDENCE_MIN, CLI_CONFIDENCE_MAX, h)
/* the same option for a command that keeps the error, 1 - C, in f */
#define CLI_OPT_CONFIDENCE_AS_ERROR(st, f, h) \
	OPT_COMPLEMENT('c', "confidence", st, f, "C", CLI_CONFIDENCE_MIN, CLI_CONFIDENCE_MAX, h)
#define CLI_OPT_MIN_TAIL(st, f, h) OPT_UINT(0, "min-tail", st, f, "N", 1, 1000000, h)
/* metric ids matching a glob; repeatable into the array f, n of them */
#define CLI_OPT_METRIC(st, f, n, h) OPT_STRING_LIST('m', "metric", st, f, n, "PATTERN", h)

/*
 * The terminal table (record, analyze, top): member table (struct table_opts) of the
 * args struct, min_count set to TABLE_MIN_COUNT by the command's defaults
 */
#define CLI_TABLE_OPTS(st)							\
	OPT_BOOL(0, "ns", st, table.ns,							\
		 "times in the tables in whole ns (default: us, one decimal)"),	\
	OPT_UINT(0, "min-count", st, table.min_count, "N", 1, 1000000000,		\
		 "fold the table rows of fewer than N samples into one 'other' row "	\
		 "(1 shows every row; the files hold every row)")

#endif
