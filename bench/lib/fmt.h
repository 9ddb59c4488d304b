/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fmt.h - how deferbench writes a time for people: the one place that turns
 * nanoseconds into text. Data files carry integer nanoseconds and never use these.
 * Each returns buf (filled with at most len bytes).
 */
#ifndef DEFERBENCH_FMT_H
#define DEFERBENCH_FMT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* fmt_ns - a latency or duration with its unit: "850ns", "12.3us", "4.56ms", "1.20s" */
const char *fmt_ns(uint64_t ns, char *buf, size_t len);
/*
 * fmt_duration - the shortest exact text parse_duration_ns() reads back: "2ms",
 * "2500us", "1s"
 */
const char *fmt_duration(uint64_t ns, char *buf, size_t len);
/* fmt_us - a latency in microseconds without unit, 3 significant digits; "-" for NaN */
const char *fmt_us(double ns, char *buf, size_t len);
/*
 * fmt_lat - a latency for a table column of one unit: microseconds with one decimal
 * ("0.5", "896.9", "25370.0"), or whole nanoseconds when in_ns; the unit is the
 * table's, said in its title
 */
const char *fmt_lat(uint64_t ns, bool in_ns, char *buf, size_t len);
/* fmt_cut - s in at most w characters (w >= 2): a name that was cut ends in '~' */
const char *fmt_cut(const char *s, int w, char *buf, size_t len);
/* fmt_ratio - "1.23" (below 10) or "12.3"; "-" for NaN */
const char *fmt_ratio(double r, char *buf, size_t len);
/* fmt_eta - a whole-second time for progress lines: "12s", "4m05s", "1h02m" */
const char *fmt_eta(uint64_t ns, char *buf, size_t len);

#endif
