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
extern int msg_verbose;	/* -v given: debug_msg prints */

/* errno_msg - fill errbuf (may be NULL) with a formatted message; returns err (-errno) */
int errno_msg(char *errbuf, int err, const char *fmt, ...) __printf(3, 4);
/* set_err - the same for the common case, returning -EINVAL */
#define set_err(errbuf, ...) errno_msg(errbuf, -EINVAL, __VA_ARGS__)

/*
 * msg_escape - s for a message: control characters, C1 controls and bytes that are
 * not UTF-8 become \xNN (an escape sequence in a file must not reach the terminal).
 * Returns buf.
 */
char *msg_escape(const char *s, char *buf, size_t len);

#endif
