/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ci_export.h - a run's primary metrics for CI systems: KCIDB JSON (KernelCI), the input
 * of ci/lava/lava-report.sh (lava-test-case per metric, grouped by lava-test-set) and a
 * Linaro test-definitions result.txt.
 *
 * Each row is one primary metric (cmp_is_primary) of one workload x configuration:
 * the median of its usable repetitions and, when the run was compared with a baseline,
 * compare's verdict turned into a CI result by ci_result_of() - the one place that maps
 * verdicts, so that it follows whatever statistics compare uses.
 *
 * Return convention: 0 or -errno with a message in errbuf (ERRBUF_LEN).
 */
#ifndef DEFERBENCH_CI_EXPORT_H
#define DEFERBENCH_CI_EXPORT_H

#include <stdio.h>

#include "compare.h"
#include "metric.h"
#include "rundata.h"

enum ci_result {
	CI_PASS,	/* better or no change */
	CI_FAIL,	/* worse */
	CI_UNKNOWN,	/* compared, undecided (cannot tell) */
	CI_SKIP,	/* not judged: no baseline, lossy or incomplete, information only */
	CI_NR
};

/* ci_result_of - compare's verdict as a CI result */
enum ci_result ci_result_of(enum verdict v);

struct ci_row {
	char workload[NAME_LEN], config[NAME_LEN], metric[METRIC_ID_LEN];
	double v[STATS_MAX_N];		/* usable repetition values, ns */
	size_t n;
	double value, lo, hi;		/* pooled (the verdicts' figure; NaN: too few
					 * samples), lowest and highest repetition (ns;
					 * NaN when n is 0) */
	bool judged;			/* compared with a baseline */
	struct judgement j;
	enum ci_result result;
};

struct ci_rows {
	struct ci_row *r;
	size_t n;
};

/*
 * ci_rows_build - the primary metrics of run; cmp (compare_runs of a baseline and this
 * run) gives the verdicts, or NULL for measurements alone
 */
int ci_rows_build(const struct run *run, const struct cmp_result *cmp,
		  unsigned int min_tail, struct ci_rows *out, char *errbuf);
void ci_rows_free(struct ci_rows *rows);

/*
 * ci_write_lava - one line per row, tab-separated: test set, test case, result
 * (pass|fail|unknown|skip), measurement in microseconds ("" when none), units ("us").
 * Names hold only [A-Za-z0-9._-], as lava-test-case wants.
 */
void ci_write_lava(FILE *f, const struct ci_rows *rows);
/*
 * ci_write_result_txt - "name result [measurement units]" per row. The Linaro
 * test-definitions parser keeps only pass, fail and skip: undecided (unknown) is
 * written as skip, with its measurement.
 */
void ci_write_result_txt(FILE *f, const struct ci_rows *rows);

struct kcidb_opts {
	const char *origin;		/* [a-z0-9_]+ */
	const char *build_id;		/* NULL: "<origin>:<kernel release>" */
};

/* ci_kcidb_origin_ok - the form KCIDB requires of an origin */
bool ci_kcidb_origin_ok(const char *s);
/*
 * ci_write_kcidb - KCIDB I/O JSON (version 4.3): a "tests" entry per row with id,
 * build_id, origin, path, status (PASS/FAIL for verdicts, DONE for a measurement
 * without one, SKIP for no measurement), start_time, number {value, unit "s", prefix
 * "metric"}, environment and misc (repetitions, range, interval and verdict).
 */
int ci_write_kcidb(FILE *f, const struct run *run, const struct ci_rows *rows,
		   const struct kcidb_opts *o, char *errbuf);

#endif
