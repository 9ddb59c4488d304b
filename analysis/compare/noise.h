/* SPDX-License-Identifier: GPL-2.0 */
/*
 * noise.h - a host's noise floors: for each workload x configuration x metric, the
 * smallest margin at which two runs of the same scenario on this host, with nothing
 * changed, were judged "no change" (`deferbench baseline calibrate`). compare never
 * uses a margin below it: a change smaller than what the host shows between identical
 * runs is not one it can stand behind.
 *
 * noise.json (schema deferbench-noise/1), stored beside a baseline:
 *   { "schema": ..., "host": "vm", "kernel": "6.18.44", "scenario": "regression",
 *     "runs": 3, "alpha": 0.05, "looks": 4, "created": "2026-...Z",
 *     "floors": [ { "workload": "tty", "config": "baseline",
 *                   "metric": "workload:delivery:p99", "floor": 0.231,
 *                   "pairs": 3 } ] }
 * floor is relative (0.231 = 23.1%).
 */
#ifndef DEFERBENCH_NOISE_H
#define DEFERBENCH_NOISE_H

#include <limits.h>
#include <stddef.h>

#include "metric.h"

#define NOISE_SCHEMA "deferbench-noise/1"

struct noise_floor {
	char workload[NAME_LEN];
	char config[NAME_LEN];
	char id[METRIC_ID_LEN];
	double floor;
	unsigned int pairs;		/* A/A comparisons it was measured from */
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
/* noise_add - set a floor (the larger of old and new when already there); -ENOMEM */
int noise_add(struct noise *n, const char *workload, const char *config, const char *id,
	      double floor);
int noise_load(const char *path, struct noise *n, char *errbuf);
/* noise_load_dir - DIR/noise.json (a baseline's); -ENOENT, quietly, when there is none */
int noise_load_dir(const char *dir, struct noise *n, char *errbuf);
int noise_save(const char *path, const struct noise *n);
void noise_free(struct noise *n);

#endif
