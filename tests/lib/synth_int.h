/* SPDX-License-Identifier: GPL-2.0 */
/*
 * synth_int.h - shared by synth.c (drawing the samples) and synth_files.c (writing them
 * in the result formats). Test code only.
 */
#ifndef DEFERBENCH_SYNTH_INT_H
#define DEFERBENCH_SYNTH_INT_H

/* private to tests/lib/: its files define DEFERBENCH_ALLOW_SYNTH_INT_H before including it */
#ifndef DEFERBENCH_ALLOW_SYNTH_INT_H
#error "synth_int.h is private to tests/lib/; include its public header"
#endif

#include <stdbool.h>
#include <json-c/json.h>
#include <stdint.h>

#include "hist.h"
#include "synth.h"

#define NCPU 2
#define MAXIV 64

struct grp {
	const char *name, *func, *pool;
	double delay_ns, run_ns;	/* medians */
	double weight;			/* share of the samples */
};

extern const struct grp sirq_grps[];
extern const struct grp wq_grps[];
extern const struct grp wake_pools[];	/* name: the pool; delay_ns: wakeup median */
#define NSIRQ 5
#define NWQ 5
#define NWAKEP 4

/* One group of one cell: all-CPU histograms, per-CPU ones, per-interval ones. */
struct gdata {
	struct hist h[4];		/* sirq: delay, runtime; wq: delay, act, worker, run */
	struct hist cpu[NCPU][2];
	struct hist iv[MAXIV][2];
	uint64_t ksoftirqd, long_runs;
};

struct cellgen {
	const struct synth_opts *o;
	uint64_t rng;
	double scale;			/* config x repetition x slowdown */
	unsigned int niv;
	struct gdata sirq[NSIRQ], wq[NWQ];
	struct grp wqg[NWQ];		/* the workqueue groups as written (synth_opts.moved) */
	struct hist ksoftirqd_wake[NCPU], pool_wake[NWAKEP];
	struct hist wl;
	const char *wl_metric, *wl_desc;
	bool lossy;
};

int write_summary(const char *dir, const struct cellgen *g);
int write_group_csvs(const char *dir, const struct cellgen *g);
int write_histograms(const char *dir, const struct cellgen *g);
int write_intervals(const char *dir, const struct cellgen *g);
int write_workload(const char *dir, const struct cellgen *g, const char *wl);
int write_json(const char *dir, const char *name, struct json_object *o);
void add_str(struct json_object *o, const char *k, const char *v);

#endif
