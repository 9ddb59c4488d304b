/* SPDX-License-Identifier: GPL-2.0 */
/*
 * jsonw.h - the statistics object every deferbench JSON file uses for a histogram.
 */
#ifndef DEFERBENCH_JSONW_H
#define DEFERBENCH_JSONW_H

#include <json.h>

#include "hist.h"

/* jsonw_stats_into - add count, min, mean, stddev, p50, p90, p99, p999, max to o */
void jsonw_stats_into(json_object *o, const struct hist *h);
/* jsonw_stats - a new object holding only those; the caller owns it */
json_object *jsonw_stats(const struct hist *h);

#endif
