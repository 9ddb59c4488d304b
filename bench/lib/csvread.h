/* SPDX-License-Identifier: GPL-2.0 */
/*
 * csvread.h - read a CSV file that starts with a header row, through libcsv's parser,
 * addressing columns by name.
 *
 * The caller names the columns it needs; the header must contain each of them (in any
 * order; extra columns are ignored). Every later row must have as many fields as the
 * header. Errors name the file, the row (the header is row 1) and the column:
 *   malformed result file F: row 12, column 'count': 'x' is not a non-negative integer
 * Returns 0 or -errno (-EINVAL for malformed content) and fills errbuf (ERRBUF_LEN).
 */
#ifndef DEFERBENCH_CSVREAD_H
#define DEFERBENCH_CSVREAD_H

#include <stddef.h>
#include <stdint.h>

#include "common.h"

#define CSVR_MAX_COLS 32

struct csvr {
	const char *path;
	const char *const *cols;	/* required names, NULL-terminated */
	int ncols;
	int idx[CSVR_MAX_COLS];		/* header position of each required column */
	size_t nheader;
	size_t row;			/* current row number, header = 1 */
	/* fields of the current row, NUL-separated in buf */
	char *buf;
	size_t len, cap;
	size_t *off;
	size_t nf, capf;
	int err;
	char *errbuf;
	int (*fn)(const struct csvr *r, void *ctx);
	void *ctx;
};

/*
 * csvr_read - parse path; fn is called once per data row and may return -errno (after
 * filling the reader's errbuf with csvr_fail) to stop. A missing file is -ENOENT.
 */
int csvr_read(const char *path, const char *const *cols,
	      int (*fn)(const struct csvr *r, void *ctx), void *ctx, char *errbuf);

/* Field access by required-column index (position in cols[]). */
const char *csvr_str(const struct csvr *r, int col);
int csvr_u64(const struct csvr *r, int col, uint64_t *out);
int csvr_int(const struct csvr *r, int col, long min, long max, int *out);
int csvr_double(const struct csvr *r, int col, double *out);
/* csvr_strcpy - copy a field into buf; -EINVAL (with a message) if it does not fit */
int csvr_strcpy(const struct csvr *r, int col, char *buf, size_t len);
/* csvr_fail - a message about the current row ("row N: ..."); returns -EINVAL */
int csvr_fail(const struct csvr *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* csvr_check_bucket - fail unless [lo, hi) is one bucket of hist.h's layout */
int csvr_check_bucket(const struct csvr *r, uint64_t lo, uint64_t hi);

#endif
