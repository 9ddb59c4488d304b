/* SPDX-License-Identifier: GPL-2.0 */
/*
 * noise.h - a host's spread between runs: for each workload x configuration x metric,
 * how much one run's pooled figure varies from run to run when nothing changed
 * (`deferbench baseline calibrate`, from K >= 3 runs: calibrate.c). compare judges two
 * separate runs against it, the runs as the unit (judge_eval_runs): the repetitions
 * inside one run cannot see what lies between runs.
 *
 * noise.json (schema deferbench-noise/2), stored beside a baseline:
 *   { "schema": ..., "host": "vm", "kernel": "6.18.44", "scenario": "regression",
 *     "runs": 3, "alpha": 0.05, "looks": 4, "created": "2026-...Z",
 *     "floors": [ { "workload": "tty", "config": "baseline",
 *                   "metric": "workload:delivery:p99", "sd": 0.083, "runs": 3,
 *                   "floor": 0.579 } ] }
 * sd is of the natural log of the figure (0.083: about 8%); floor is the change between
 * two runs that a test at alpha / looks would just call beyond chance,
 * expm1(t_{runs-1, 1-a/2} sd sqrt(2)), for people to read. Schema 1 files (floors from
 * pairs of runs, no sd) are read, and their metrics count as uncalibrated.
 */
#ifndef DEFERBENCH_NOISE_H
#define DEFERBENCH_NOISE_H

#include <limits.h>
#include <stddef.h>

#include "metric.h"

#define NOISE_SCHEMA "deferbench-noise/2"
#define NOISE_SCHEMA_1 "deferbench-noise/1"
/* the largest sd and floor a file may state: x150 between two runs is no calibration */
#define NOISE_SD_MAX 5.0
#define NOISE_FLOOR_MAX 150.0
/* the most runs a calibration takes */
#define NOISE_RUNS_MAX 20

struct noise_floor {
	char workload[NAME_LEN];
	char config[NAME_LEN];
	char id[METRIC_ID_LEN];
	double floor;
	unsigned int pairs;		/* A/A comparisons it was measured from (schema 1) */
	double sd;			/* between runs: the sd of a run's log figure */
	unsigned int runs;		/* ... from this many runs (0: schema 1, no sd) */
};

struct noise {
	char path[PATH_MAX];		/* where it was read from, for messages */
	char host[NAME_LEN];
	char kernel[NAME_LEN];
	char scenario[NAME_LEN];
	char created[NAME_LEN];
	unsigned int runs;
	double alpha;
	unsigned int looks;		/* each family held to alpha / looks / size */
	struct noise_floor *f;
	size_t n, cap;
};

/* noise_floor - the floor of a metric, or NaN when the calibration did not measure it */
double noise_floor(const struct noise *n, const char *workload, const char *config,
		   const char *id);
/* noise_find - the entry of a metric, or NULL */
const struct noise_floor *noise_find(const struct noise *n, const char *workload,
				     const char *config, const char *id);
/*
 * noise_add - set a metric's spread: sd from runs runs (runs 0: a schema 1 floor
 * alone), floor as above; a metric already there keeps the larger. 0 or -ENOMEM
 */
int noise_add(struct noise *n, const char *workload, const char *config, const char *id,
	      double sd, unsigned int runs, double floor);
int noise_load(const char *path, struct noise *n, char *errbuf);
/* noise_load_dir - DIR/noise.json (a baseline's); -ENOENT, quietly, when there is none */
int noise_load_dir(const char *dir, struct noise *n, char *errbuf);
int noise_save(const char *path, const struct noise *n);
void noise_free(struct noise *n);

#endif
