/* SPDX-License-Identifier: GPL-2.0 */
/*
 * offline.h - recompute a capture's figures from its raw sub-buffers (DIR/raw, see
 * raw.h), with the live capture's decoder, merger and matcher.
 */
#ifndef DEFERBENCH_OFFLINE_H
#define DEFERBENCH_OFFLINE_H

#include <stdbool.h>

/*
 * offline_analyze - analyze the raw capture in rawdir, print the table to stdout, and
 * write every result file (intervals.csv included) into outdir unless it is NULL.
 * A cpuN.dat holding fewer events than capture.json says were read on its CPU (or
 * missing) is damage: an error, or with accept_damaged a warning, those events counted
 * as lost. table says how the table prints (NULL: the defaults). 0 or -errno with a message in errbuf (ERRBUF_LEN).
 */
struct table_opts;
int offline_analyze(const char *rawdir, const char *outdir, bool accept_damaged,
		    const struct table_opts *table, char *errbuf);

#endif
