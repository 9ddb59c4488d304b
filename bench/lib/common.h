/* SPDX-License-Identifier: GPL-2.0 */
/*
 * common.h - the conventions every part of deferbench follows, and the few macros that
 * go with them.
 *
 * Return convention, for the whole project: functions that can fail return 0 on
 * success and -errno on failure; functions returning pointers return NULL and set
 * errno. Parsers never print: they return -EINVAL and fill an error string when given
 * one (msg.h: set_err), so that they can be unit-tested and so that the caller names
 * the option or file the bad value came from. Times are nanoseconds on
 * CLOCK_MONOTONIC (sys.h: now_ns), the clock of the trace (trace_clock mono).
 */
#ifndef DEFERBENCH_COMMON_H
#define DEFERBENCH_COMMON_H

#define DEFERBENCH_VERSION "0.1.0"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#define __printf(a, b) __attribute__((format(printf, a, b)))
#define __unused __attribute__((unused))

#define NSEC_PER_USEC 1000ULL
#define NSEC_PER_MSEC 1000000ULL
#define NSEC_PER_SEC 1000000000ULL

#endif
