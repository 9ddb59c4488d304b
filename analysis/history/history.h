/* SPDX-License-Identifier: GPL-2.0 */
/*
 * history.h - the results store: runs of many kernels and hosts in one SQLite file,
 * and the history of a metric across kernels with its change points.
 *
 * The store keeps everything compare reads from a run directory (run metadata, each
 * cell's status, knobs, capture counters, every histogram's statistics and buckets),
 * so a stored run can be loaded back as a struct run (hstore_load_run) and compared
 * exactly as its directory would be. Besides, each repetition's value of every metric
 * id (metric.h) is stored once at import: the rows history reads,
 *   one per host x kernel x scenario x workload x configuration x metric x repetition
 * (the view "samples" shows them so).
 *
 * Safety: every change is one transaction (BEGIN IMMEDIATE, so two writers queue on the
 * busy timeout instead of deadlocking); the rollback journal undoes an import killed
 * half-way when the store is next opened. The schema is versioned (PRAGMA user_version,
 * with PRAGMA application_id telling a deferbench store from any other SQLite file)
 * and migrated forward on open; a store from a newer deferbench is refused.
 *
 * Return convention: 0 or -errno with a message in errbuf (ERRBUF_LEN bytes); nothing
 * here prints. Objects returned are freed with the matching *_free / hstore_close.
 */
#ifndef DEFERBENCH_HISTORY_H
#define DEFERBENCH_HISTORY_H

#include <stdbool.h>
#include <stddef.h>

#include "compare.h"
#include "cpd.h"
#include "metric.h"
#include "rundata.h"

#define HSTORE_SCHEMA 1
#define HSTORE_APP_ID 0x64666273	/* "dfbs" */
#define HSTORE_BUSY_MS 60000		/* how long a writer waits for another */

struct hstore;

enum { HS_RDONLY = 1 };

/*
 * hstore_open - open (creating it unless HS_RDONLY) the store at path and migrate it
 * to HSTORE_SCHEMA. -ENOTSUP for a store of a newer schema, -EINVAL for a file that
 * is not a deferbench store (another application's database, or not SQLite at all).
 */
int hstore_open(const char *path, int flags, struct hstore **out, char *errbuf);
void hstore_close(struct hstore *s);
/* hstore_schema - the schema version of an open store */
int hstore_schema(struct hstore *s);

struct hstore_added {
	long long run_id;
	bool existed;		/* the same run was stored already: nothing changed */
	bool replaced;
	size_t ncells, nvalues, nhists;
};

/*
 * history_add_run - store a loaded run (run_load) in one transaction. A run is known by
 * host, kernel, scenario and start time: adding it again changes nothing; a different
 * run under the same key (its run.json differs) is -EEXIST unless replace.
 * source is recorded as where it came from (a directory).
 */
int history_add_run(struct hstore *s, const struct run *run, const char *source,
		   bool replace, struct hstore_added *res, char *errbuf);

/*
 * hstore_load_run - a stored run as run_load would have read it; its dir is
 * "store:<id>" and its cells' dirs "store:<id>/<cell id>". -ENOENT when absent.
 */
int hstore_load_run(struct hstore *s, long long run_id, struct run *run, char *errbuf);

/*
 * hstore_merge - copy every run of the store at src_path that dst lacks (same key)
 * into dst, one transaction per source. A run under the same key but with different
 * content is left out and counted in *conflicts.
 */
int hstore_merge(struct hstore *dst, const char *src_path, size_t *added,
		 size_t *present, size_t *conflicts, char *errbuf);

/* --- history: series of one metric across kernels --- */

struct hs_filter {
	const char *host, *scenario, *workload, *config;	/* NULL: any */
	const char *const *metrics;	/* fnmatch patterns on metric ids; NULL: primary */
	size_t nmetrics;
	unsigned int min_tail;		/* as compare: samples beyond the percentile */
};

/* One run in a series: the values of its repetitions. */
struct hs_point {
	long long run_id;
	char kernel[NAME_LEN];
	char started[NAME_LEN];
	double v[STATS_MAX_N];
	size_t n;
	double med, lo, hi;		/* median, lowest and highest repetition (ns) */
	char place[16];			/* moved:* series: where the work ran (moved.h) */
};

#define HS_MAX_CP 16

struct hs_change {
	size_t index;			/* first point after the change */
	double before, after;		/* segment medians (ns) */
	double rel;			/* after / before - 1 */
	double p;			/* permutation p-value; confidence 1 - p */
	enum verdict v;			/* V_WORSE or V_BETTER (latency: higher is worse) */
};

struct hs_series {
	char host[NAME_LEN], scenario[NAME_LEN], workload[NAME_LEN], config[NAME_LEN];
	char metric[METRIC_ID_LEN];
	struct hs_point *pt;		/* kernel order, start time as tie-breaker */
	size_t npt;
	struct hs_change cp[HS_MAX_CP];
	size_t ncp;
	double sig;			/* the level it was tested at (after the split) */
	size_t need;			/* not tested: too few runs for sig, this many needed */
};

struct hs_set {
	struct hs_series *s;
	size_t n;
};

/* hstore_series - every matching series, sorted by host, scenario, workload, config, metric */
int hstore_series(struct hstore *st, const struct hs_filter *f, struct hs_set *out,
		  char *errbuf);
void hs_set_free(struct hs_set *set);

struct hs_detect_opts {
	struct cpd_opts cpd;
	double threshold;		/* smallest step reported, relative (0.10) */
};
void hs_detect_opts_default(struct hs_detect_opts *o);

/*
 * hs_detect - change points of one series. The statistic sees every repetition, on a
 * log scale so that a step is a ratio, and the permutation test moves whole runs (a run
 * is the unit of evidence: its repetitions share its level, and permuting them finds
 * changes that are only the runs' own spread); a segment holds at least cpd.min_size
 * runs, so one outlier run is not a change. family is the number of series judged together (a host's series in one
 * history query): each is tested at cpd.sig / family (Bonferroni), so that the chance
 * of any false change point among them stays cpd.sig. A series with fewer runs than a
 * permutation test needs to reach that level is not tested (need says how many it
 * would take). Steps between segment medians smaller than threshold are dropped.
 * 0 or -errno.
 */
int hs_detect(struct hs_series *s, const struct hs_detect_opts *o, size_t family);

/*
 * hs_newest_regressed - the newest run is past a change point for the worse: the last
 * change point of the series is V_WORSE
 */
bool hs_newest_regressed(const struct hs_series *s);

/*
 * hs_verdict_at - what happened on this series at kernel: V_WORSE / V_BETTER when a
 * change point's first run has that kernel, V_NO_CHANGE when the series ran that
 * kernel with a run before it and no change point there, V_CANNOT_TELL when the kernel
 * is the series' first, V_INFO when the series did not run it.
 */
enum verdict hs_verdict_at(const struct hs_series *s, const char *kernel,
			   const struct hs_change **change);

#endif
