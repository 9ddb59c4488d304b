/* SPDX-License-Identifier: GPL-2.0 */
/*
 * parse.h - strict parsers of numbers, durations and sizes: the whole string
 * or an error naming what was wrong ("abc", "", "12x" and values out of range are
 * -EINVAL with a message in errbuf, never 0).
 */
#ifndef DEFERBENCH_PARSE_H
#define DEFERBENCH_PARSE_H

#include <sched.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common.h"

/*
 * Strict number parsers: the whole string must be a number in [min, max];
 * "abc", "", "12x" and out-of-range values are -EINVAL with a message in errbuf.
 */
int parse_u64(const char *s, uint64_t min, uint64_t max, uint64_t *out, char *errbuf);
int parse_int(const char *s, long min, long max, int *out, char *errbuf);
int parse_double(const char *s, double min, double max, double *out, char *errbuf);
int parse_bool(const char *s, bool *out, char *errbuf);

/*
 * parse_duration_ns - "10s", "500ms", "250us", "100ns", "2m", "1h"; a bare number is
 * seconds. Fractions are allowed ("1.5s"). Zero and negative durations are rejected.
 */
int parse_duration_ns(const char *s, uint64_t *out, char *errbuf);
/*
 * parse_ts_ns - a trace clock timestamp in seconds as trace-cmd prints it
 * ("2481.750123456") to nanoseconds, exactly (digits past the ninth are dropped)
 */
int parse_ts_ns(const char *s, uint64_t *out, char *errbuf);
/* parse_size - "4096", "64k", "16M", "1G" (binary multiples) to bytes. */
int parse_size(const char *s, uint64_t min, uint64_t max, uint64_t *out, char *errbuf);

#endif
