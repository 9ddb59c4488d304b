/* SPDX-License-Identifier: GPL-2.0 */
/*
 * csvw.h - write CSV rows: strings through libcsv's csv_fwrite (which quotes and
 * escapes), numbers with printf. The writer tracks the separator and remembers the
 * first error, so callers check once: csvw_close() returns 0 or -errno.
 */
#ifndef DEFERBENCH_CSVW_H
#define DEFERBENCH_CSVW_H

#include <stdint.h>
#include <stdio.h>

struct csvw {
	FILE *f;
	unsigned int col;
	int err;
};

/* csvw_open - create path for writing; 0 or -errno */
int csvw_open(struct csvw *w, const char *path);
/* csvw_header - one row of column names (NULL-terminated) */
void csvw_header(struct csvw *w, const char *const *names);
/* csvw_strs - the strings as fields of the current row, which stays open */
void csvw_strs(struct csvw *w, const char *const *names);
void csvw_str(struct csvw *w, const char *s);
void csvw_u64(struct csvw *w, uint64_t v);
void csvw_int(struct csvw *w, long v);
/* csvw_dbl - with prec decimals; NaN is written as an empty field */
void csvw_dbl(struct csvw *w, double v, int prec);
void csvw_end(struct csvw *w);
/* csvw_close - flush and close; 0 or the first -errno seen */
int csvw_close(struct csvw *w);

#endif
