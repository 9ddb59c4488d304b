// SPDX-License-Identifier: GPL-2.0
/*
 * csvread.c - header-addressed CSV reading on top of libcsv (see csvread.h).
 */
#include "csvread.h"

#include <csv.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "rundata.h"
#include "grow.h"
#include "msg.h"
#include "parse.h"
#include "file.h"

int csvr_fail(const struct csvr *r, const char *fmt, ...)
{
	char msg[ERRBUF_LEN / 2];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	return set_err(r->errbuf, "malformed result file %s: row %zu: %s", r->path, r->row, msg);
}

/* field_cb - libcsv: one field of the current row; append it NUL-terminated */
static void field_cb(void *s, size_t len, void *data)
{
	struct csvr *r = data;

	if (r->err)
		return;
	if (GROW(r->off, r->capf, r->nf + 1) || GROW(r->buf, r->cap, r->len + len + 1))
		goto nomem;
	r->off[r->nf++] = r->len;
	if (len)
		memcpy(r->buf + r->len, s, len);
	r->buf[r->len + len] = '\0';
	r->len += len + 1;
	return;
nomem:
	r->err = errno_msg(r->errbuf, -ENOMEM, "%s: out of memory", r->path);
}

static const char *field(const struct csvr *r, size_t i)
{
	return r->buf + r->off[i];
}

/* map_header - find each required column in the header row */
static int map_header(struct csvr *r)
{
	size_t i;
	int c;

	r->nheader = r->nf;
	for (c = 0; c < r->ncols; c++) {
		r->idx[c] = -1;
		for (i = 0; i < r->nf; i++)
			if (!strcmp(field(r, i), r->cols[c]))
				r->idx[c] = (int)i;
		if (r->idx[c] < 0)
			return set_err(r->errbuf, "malformed result file %s: column '%s' missing "
				      "from the header", r->path, r->cols[c]);
	}
	return 0;
}

/* row_cb - libcsv: end of a row */
static void row_cb(int c __unused, void *data)
{
	struct csvr *r = data;

	if (r->err)
		goto out;
	r->row++;
	if (r->row == 1)
		r->err = map_header(r);
	else if (r->nf != r->nheader)
		r->err = csvr_fail(r, "%zu fields, the header has %zu", r->nf, r->nheader);
	else
		r->err = r->fn(r, r->ctx);
out:
	r->nf = 0;
	r->len = 0;
}

static int parse_stream(struct csvr *r, FILE *f, struct csv_parser *p)
{
	char chunk[65536];
	size_t n;

	while ((n = fread(chunk, 1, sizeof(chunk), f)) > 0) {
		if (csv_parse(p, chunk, n, field_cb, row_cb, r) != n)
			return set_err(r->errbuf, "malformed result file %s: after row %zu: %s",
				      r->path, r->row, csv_strerror(csv_error(p)));
		if (r->err)
			return r->err;
	}
	if (ferror(f))
		return errno_msg(r->errbuf, -EIO, "%s: read error", r->path);
	if (csv_fini(p, field_cb, row_cb, r))
		return set_err(r->errbuf, "malformed result file %s: at the end: %s", r->path,
			      csv_strerror(csv_error(p)));
	if (r->err)
		return r->err;
	if (r->row == 0)
		return set_err(r->errbuf, "malformed result file %s: empty (no header row)",
			      r->path);
	return 0;
}

int csvr_read(const char *path, const char *const *cols,
	      int (*fn)(const struct csvr *r, void *ctx), void *ctx, char *errbuf)
{
	struct csvr r = { .path = path, .cols = cols, .fn = fn, .ctx = ctx, .errbuf = errbuf };
	struct csv_parser p;
	FILE *f;
	int ret, fd;

	while (cols[r.ncols])
		r.ncols++;
	if (r.ncols > CSVR_MAX_COLS)
		return errno_msg(errbuf, -E2BIG, "%s: too many columns requested", path);
	fd = open_input(path, INPUT_MAX_DATA, errbuf);
	if (fd < 0)
		return fd;
	f = fdopen(fd, "r");
	if (!f) {
		close(fd);
		return errno_msg(errbuf, -ENOMEM, "%s: out of memory", path);
	}
	if (csv_init(&p, CSV_STRICT | CSV_STRICT_FINI | CSV_APPEND_NULL)) {
		fclose(f);
		return errno_msg(errbuf, -ENOMEM, "%s: out of memory", path);
	}
	ret = parse_stream(&r, f, &p);
	csv_free(&p);
	fclose(f);
	free(r.buf);
	free(r.off);
	return ret;
}

const char *csvr_str(const struct csvr *r, int col)
{
	return field(r, (size_t)r->idx[col]);
}

int csvr_u64(const struct csvr *r, int col, uint64_t *out)
{
	char msg[ERRBUF_LEN];

	if (parse_u64(csvr_str(r, col), 0, UINT64_MAX, out, msg))
		return csvr_fail(r, "column '%s': %s", r->cols[col], msg);
	return 0;
}

int csvr_int(const struct csvr *r, int col, long min, long max, int *out)
{
	char msg[ERRBUF_LEN];

	if (parse_int(csvr_str(r, col), min, max, out, msg))
		return csvr_fail(r, "column '%s': %s", r->cols[col], msg);
	return 0;
}

int csvr_double(const struct csvr *r, int col, double *out)
{
	char msg[ERRBUF_LEN];

	if (parse_double(csvr_str(r, col), -1e300, 1e300, out, msg))
		return csvr_fail(r, "column '%s': %s", r->cols[col], msg);
	return 0;
}

int csvr_strcpy(const struct csvr *r, int col, char *buf, size_t len)
{
	const char *s = csvr_str(r, col);

	if (strlen(s) >= len)
		return csvr_fail(r, "column '%s': '%.40s...' is longer than %zu characters",
				 r->cols[col], s, len - 1);
	strcpy(buf, s);
	return 0;
}

/* check_bucket - [lo, hi) must be one bucket of the log-linear layout (hist.h) */
int csvr_check_bucket(const struct csvr *r, uint64_t lo, uint64_t hi)
{
	if (!bucket_valid(lo, hi))
		return csvr_fail(r, "[%llu, %llu) is not a bucket of the histogram layout "
				 "(hist.h)", (unsigned long long)lo, (unsigned long long)hi);
	return 0;
}
