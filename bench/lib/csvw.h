/* SPDX-License-Identifier: GPL-2.0 */
/*
 * csvw.h - CSV writing through libcsv (fields quoted by csv_fwrite, never by hand).
 * Errors are sticky: csvw_close() returns -errno if any write failed.
 */
#ifndef DEFERBENCH_CSVW_H
#define DEFERBENCH_CSVW_H

#include <stdint.h>
#include <stdio.h>

#include "hist.h"

struct csvw {
	FILE *f;
	int col;
	int err;
};

int csvw_open(struct csvw *w, const char *path);
int csvw_close(struct csvw *w);
void csvw_str(struct csvw *w, const char *s);
void csvw_u64(struct csvw *w, uint64_t v);
void csvw_i64(struct csvw *w, int64_t v);
void csvw_dbl(struct csvw *w, double v);
/* csvw_fixed - v with that many decimals (csvw_dbl has 3) */
void csvw_fixed(struct csvw *w, double v, int decimals);
void csvw_end(struct csvw *w);
/* a header row from a NULL-terminated list of names */
void csvw_header(struct csvw *w, const char *const *names);
/* the nine statistics columns: <prefix>_count, _min_ns, _mean_ns, ... _max_ns */
void csvw_stats_header(struct csvw *w, const char *prefix);
void csvw_stats(struct csvw *w, const struct hist *h);

#endif
