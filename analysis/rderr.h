/* SPDX-License-Identifier: GPL-2.0 */
/*
 * rderr.h - error messages of the result-file readers.
 *
 * Readers never print: they return -errno and fill an error buffer of RD_ERRLEN bytes
 * (longer than ERRBUF_LEN because messages carry a path and a field path).
 */
#ifndef DEFERBENCH_RDERR_H
#define DEFERBENCH_RDERR_H

#define RD_ERRLEN 1024

/* rd_err - fill errbuf (may be NULL); returns -EINVAL */
int rd_err(char *errbuf, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* rd_errno - same, returning the given -errno */
int rd_errno(char *errbuf, int err, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

#endif
