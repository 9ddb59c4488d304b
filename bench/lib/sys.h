/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sys.h - the process and the machine: the clock (now.c), stop requests (stop.c), and
 * who and where deferbench runs, for result metadata (host.c).
 */
#ifndef DEFERBENCH_SYS_H
#define DEFERBENCH_SYS_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common.h"

/* Nanoseconds on CLOCK_MONOTONIC: the one clock deferbench subtracts. */
uint64_t now_ns(void);

/*
 * Stop requests: SIGINT, SIGTERM, SIGHUP and SIGXFSZ set stop_requested; long loops
 * poll it. stop_on_signals() also ignores SIGPIPE. A second SIGINT while stopping is
 * ignored too: teardown must finish, or the machine is left changed.
 */
extern volatile sig_atomic_t stop_requested;
void stop_on_signals(void);
/*
 * stop_on_file_limit - for every command, from main: a file-size limit (ulimit -f) is
 * a stop request, not the death SIGXFSZ's default is (it left every staging directory
 * behind): the write that met it fails with EFBIG, and the command cleans up and says
 * "File too large". A handler, not SIG_IGN, so that commands deferbench runs get the
 * default back at exec.
 */
void stop_on_file_limit(void);
/* sleep until deadline (CLOCK_MONOTONIC ns) or a stop request; returns true if stopped */
bool sleep_until_or_stop(uint64_t deadline_ns);

/* Kernel identity, for result metadata. */
int host_kernel_release(char *buf, size_t len);
int host_name(char *buf, size_t len);
/* ISO 8601 UTC wall-clock time of now: only ever metadata, never subtracted. */
void iso_time_now(char *buf, size_t len);

bool host_is_root(void);

#endif
