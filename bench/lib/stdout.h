/* SPDX-License-Identifier: GPL-2.0 */
/*
 * stdout.h - the one writer of stdout, for the data every command prints.
 */
#ifndef DEFERBENCH_STDOUT_H
#define DEFERBENCH_STDOUT_H

/*
 * stdout_begin() at the start of main puts a stream on file descriptor 1 that keeps the
 * first write error (stdio forgets it: a later flush of the emptied buffer succeeds);
 * stdout_end(status) at the end flushes it, closes the descriptor (a full disk or NFS
 * may tell only then) and, when any write failed, says so and returns err_status (the
 * command's status for an error) in place of a status of 0. A closed pipe (`deferbench
 * top | head`) is the reader's choice: no message, status unchanged.
 */
void stdout_begin(void);
int stdout_end(int status, int err_status);
/*
 * stdout_check - for a command that reports a failed stdout in its own words (export):
 * flush it and return the first write error (-errno) or 0; stdout_end then stays silent
 */
int stdout_check(void);

#endif
