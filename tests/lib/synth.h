/* SPDX-License-Identifier: GPL-2.0 */
/*
 * synth.h - write a synthetic but realistic run directory (run.json, cells with
 * cell.json, summary.json, softirq.csv, workqueue.csv, histograms.csv, intervals.csv,
 * workload.json, workload-hist.csv) for tests of report and compare. summary.json has
 * thread_wakeup (statistics only, as the real one) unless no_wakeup. Latencies are
 * log-normal with a heavy tail, scaled per configuration, per repetition (rep_noise)
 * and by a global slowdown, from a seeded generator: the same options write the same
 * files.
 */
#ifndef DEFERBENCH_SYNTH_H
#define DEFERBENCH_SYNTH_H

#include <stdbool.h>
#include <stdint.h>

struct synth_opts {
	const char *const *workloads;	/* NULL-terminated: net, tty, timer, fsync */
	const char *const *configs;	/* NULL-terminated; the first is "default" */
	unsigned int reps;
	double slowdown;		/* every latency multiplied by this */
	double rep_noise;		/* sigma of the per-repetition scale factor */
	unsigned int samples;		/* per group, metric and repetition */
	unsigned int duration_s;	/* number of 1 s intervals */
	uint64_t seed;
	const char *lossy_cell;		/* cell id written with lossy = true, or NULL */
	const char *failed_cell;	/* cell id written with status "failed", or NULL */
	bool partial;			/* add a .partial- cell and complete = false */
	bool no_wakeup;			/* summary.json without thread_wakeup (older files) */
	const char *const *knobs;	/* NULL-terminated "key=value": cell.json knob values
					 * set (or replaced) in every cell, or NULL */
	/*
	 * moved: the per-CPU work items of vmstat_update (events, cpu0 and cpu1) are
	 * written as those of an unbound pool (events_dfl, unbound4 and unbound5), their
	 * latencies multiplied by moved_slowdown (1 when 0): a kernel that moved them
	 */
	bool moved;
	double moved_slowdown;
	const char *kernel;
	const char *hostname;
	const char *cmdline;
};

void synth_defaults(struct synth_opts *o);
/* synth_run - create dir (must not exist) and write the run; 0 or -errno */
int synth_run(const char *dir, const struct synth_opts *o);

#endif
