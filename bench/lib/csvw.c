// SPDX-License-Identifier: GPL-2.0
/*
 * csvw.c - CSV rows through libcsv.
 */
#include "csvw.h"

#include <csv.h>
#include <errno.h>
#include <inttypes.h>
#include <string.h>

#include "outw.h"

/* io_errno - why the write stdio just reported failed: EFBIG, ENOSPC, ... (EIO: unknown) */
static int io_errno(void)
{
	return errno ? -errno : -EIO;
}

int csvw_open(struct csvw *w, const char *path)
{
	memset(w, 0, sizeof(*w));
	/* through the output writer: a new file, never through a link (outw.h) */
	w->f = out_fopen(path);
	return w->f ? 0 : -errno;
}

int csvw_close(struct csvw *w)
{
	int err = w->err;

	if (!w->f)
		return err ? err : -EBADF;
	fflush(w->f);
	if (!err)
		err = out_ferror(w->f);
	if (fclose(w->f) && !err)
		err = -errno;
	w->f = NULL;
	return err;
}

static void sep(struct csvw *w)
{
	if (w->col++ && fputc(',', w->f) == EOF && !w->err)
		w->err = io_errno();
}

void csvw_str(struct csvw *w, const char *s)
{
	sep(w);
	if (csv_fwrite(w->f, s, strlen(s)) && !w->err)
		w->err = io_errno();
}

void csvw_u64(struct csvw *w, uint64_t v)
{
	sep(w);
	if (fprintf(w->f, "%" PRIu64, v) < 0 && !w->err)
		w->err = io_errno();
}

void csvw_i64(struct csvw *w, int64_t v)
{
	sep(w);
	if (fprintf(w->f, "%" PRId64, v) < 0 && !w->err)
		w->err = io_errno();
}

void csvw_dbl(struct csvw *w, double v)
{
	sep(w);
	if (fprintf(w->f, "%.3f", v) < 0 && !w->err)
		w->err = io_errno();
}

void csvw_fixed(struct csvw *w, double v, int decimals)
{
	sep(w);
	if (fprintf(w->f, "%.*f", decimals, v) < 0 && !w->err)
		w->err = io_errno();
}

void csvw_end(struct csvw *w)
{
	if (fputc('\n', w->f) == EOF && !w->err)
		w->err = io_errno();
	w->col = 0;
}

void csvw_header(struct csvw *w, const char *const *names)
{
	for (; *names; names++)
		csvw_str(w, *names);
}

void csvw_stats_header(struct csvw *w, const char *prefix)
{
	static const char *const cols[] = {
		"count", "min_ns", "mean_ns", "stddev_ns", "p50_ns", "p90_ns", "p99_ns",
		"p999_ns", "max_ns",
	};
	char name[64];
	size_t i;

	for (i = 0; i < sizeof(cols) / sizeof(cols[0]); i++) {
		snprintf(name, sizeof(name), "%s_%s", prefix, cols[i]);
		csvw_str(w, name);
	}
}

void csvw_stats(struct csvw *w, const struct hist *h)
{
	struct hist_stats st;

	hist_get_stats(h, &st);
	csvw_u64(w, st.count);
	csvw_u64(w, st.min);
	csvw_dbl(w, st.mean);
	csvw_dbl(w, st.stddev);
	csvw_u64(w, st.p50);
	csvw_u64(w, st.p90);
	csvw_u64(w, st.p99);
	csvw_u64(w, st.p999);
	csvw_u64(w, st.max);
}
