// SPDX-License-Identifier: GPL-2.0
/*
 * now.c - the time now: on CLOCK_MONOTONIC, the one clock deferbench subtracts, and as
 * UTC wall-clock time for metadata (see sys.h).
 */
#include "sys.h"

#include <time.h>

uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * NSEC_PER_SEC + ts.tv_nsec;
}

void iso_time_now(char *buf, size_t len)
{
	struct tm tm;
	time_t t = time(NULL);

	gmtime_r(&t, &tm);
	strftime(buf, len, "%Y-%m-%dT%H:%M:%SZ", &tm);
}
