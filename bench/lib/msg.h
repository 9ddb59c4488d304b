/* SPDX-License-Identifier: GPL-2.0 */
/*
 * msg.h - diagnostics to stderr and error messages into a caller's buffer.
 */
#ifndef DEFERBENCH_MSG_H
#define DEFERBENCH_MSG_H

#include <errno.h>
#include <stddef.h>

#include "common.h"

/*
 * Size of every error buffer behind a 'char *errbuf' parameter: messages name a path and
 * a field or an option, and say what to do.
 */
#define ERRBUF_LEN 1024

/* Diagnostics go to stderr, prefixed "deferbench: ". */
void err_msg(const char *fmt, ...) __printf(1, 2);
void warn_msg(const char *fmt, ...) __printf(1, 2);
void info_msg(const char *fmt, ...) __printf(1, 2);
void debug_msg(const char *fmt, ...) __printf(1, 2);
extern int verbose;

/* set_errno - fill errbuf (may be NULL) with a formatted message; returns err (-errno) */
int set_errno(char *errbuf, int err, const char *fmt, ...) __printf(3, 4);
/* set_err - the same for the common case, returning -EINVAL */
#define set_err(errbuf, ...) set_errno(errbuf, -EINVAL, __VA_ARGS__)

/*
 * The one writer of stdout, for the data every command prints: stdout_begin() at the
 * start of main puts a stream on file descriptor 1 that keeps the first write error
 * (stdio forgets it: a later flush of the emptied buffer succeeds); stdout_end(status)
 * at the end flushes it, closes the descriptor (a full disk or NFS may tell only then)
 * and, when any write failed, says so and returns err_status (the command's status for
 * an error) in place of a status of 0. A closed
 * pipe (`deferbench top | head`) is the reader's choice: no message, status unchanged.
 */
void stdout_begin(void);
int stdout_end(int status, int err_status);
/*
 * stdout_check - for a command that reports a failed stdout in its own words (export):
 * flush it and return the first write error (-errno) or 0; stdout_end then stays silent
 */
int stdout_check(void);

/*
 * str_escape - s for a message: control characters, C1 controls and bytes that are
 * not UTF-8 become \xNN (an escape sequence in a file must not reach the terminal).
 * Returns buf.
 */
char *str_escape(const char *s, char *buf, size_t len);

#endif
