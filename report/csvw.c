// SPDX-License-Identifier: GPL-2.0
/*
 * csvw.c - CSV rows through libcsv (see csvw.h).
 */
#include "csvw.h"

#include <csv.h>
#include <errno.h>
#include <math.h>
#include <string.h>

int csvw_open(struct csvw *w, const char *path)
{
	memset(w, 0, sizeof(*w));
	w->f = fopen(path, "w");
	return w->f ? 0 : -errno;
}

static void sep(struct csvw *w)
{
	if (w->col++ && fputc(',', w->f) == EOF && !w->err)
		w->err = -EIO;
}

void csvw_str(struct csvw *w, const char *s)
{
	sep(w);
	if (csv_fwrite(w->f, s, strlen(s)) && !w->err)
		w->err = -EIO;
}

void csvw_u64(struct csvw *w, uint64_t v)
{
	sep(w);
	fprintf(w->f, "%llu", (unsigned long long)v);
}

void csvw_int(struct csvw *w, long v)
{
	sep(w);
	fprintf(w->f, "%ld", v);
}

void csvw_dbl(struct csvw *w, double v, int prec)
{
	sep(w);
	if (!isnan(v))
		fprintf(w->f, "%.*f", prec, v);
}

void csvw_end(struct csvw *w)
{
	fputc('\n', w->f);
	w->col = 0;
}

void csvw_strs(struct csvw *w, const char *const *names)
{
	for (; *names; names++)
		csvw_str(w, *names);
}

void csvw_header(struct csvw *w, const char *const *names)
{
	csvw_strs(w, names);
	csvw_end(w);
}

int csvw_close(struct csvw *w)
{
	int err = w->err;

	if (!w->f)
		return err;
	if (ferror(w->f) && !err)
		err = -EIO;
	if (fclose(w->f) && !err)
		err = -errno;
	w->f = NULL;
	return err;
}
