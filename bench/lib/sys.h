/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sys.h - the process and the machine: the clock, stop requests, and who and where
 * deferbench runs, for result metadata.
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
 * poll it. signals_install() also ignores SIGPIPE. A second SIGINT while stopping is
 * ignored too: teardown must finish, or the machine is left changed.
 */
extern volatile sig_atomic_t stop_requested;
void signals_install(void);
/*
 * signals_file_limit - for every command, from main: a file-size limit (ulimit -f) is
 * a stop request, not the death SIGXFSZ's default is (it left every staging directory
 * behind): the write that met it fails with EFBIG, and the command cleans up and says
 * "File too large". A handler, not SIG_IGN, so that commands deferbench runs get the
 * default back at exec.
 */
void signals_file_limit(void);
/* sleep until deadline (CLOCK_MONOTONIC ns) or a stop request; returns true if stopped */
bool sleep_until_or_stop(uint64_t deadline_ns);

/* Kernel identity, for result metadata. */
int kernel_release(char *buf, size_t len);
int host_name(char *buf, size_t len);
/* ISO 8601 UTC wall-clock time of now: only ever metadata, never subtracted. */
void iso_time_now(char *buf, size_t len);

bool is_root(void);

/* command_line - argv joined with spaces (for journals and metadata), truncated to len */
void command_line(int argc, char **argv, char *buf, size_t len);

#endif
