// SPDX-License-Identifier: GPL-2.0
/*
 * table.c - the columns of the terminal tables: widths, units, the percentiles of a
 * histogram (see output.h).
 */
#include "output.h"

int table_w(const struct table_opts *o)
{
	return o->ns ? 10 : 8;
}

const char *table_unit(const struct table_opts *o)
{
	return o->ns ? "ns" : "us";
}

const char *table_lat(uint64_t ns, const struct table_opts *o, char *buf, size_t len)
{
	return fmt_lat(ns, o->ns, buf, len);
}

void table_stats_head(FILE *f, const struct table_opts *o)
{
	int w = table_w(o);

	fprintf(f, " %*s %*s %*s %*s %*s", w, "p50", w, "p90", w, "p99", w, "p99.9", w, "max");
}

void table_stats(FILE *f, const struct hist *h, const struct table_opts *o)
{
	struct hist_stats st;
	char b[5][24];
	int w = table_w(o);

	hist_get_stats(h, &st);
	if (!st.count) {
		fprintf(f, " %*s %*s %*s %*s %*s", w, "-", w, "-", w, "-", w, "-", w, "-");
		return;
	}
	fprintf(f, " %*s %*s %*s %*s %*s", w, table_lat(st.p50, o, b[0], 24),
		w, table_lat(st.p90, o, b[1], 24), w, table_lat(st.p99, o, b[2], 24),
		w, table_lat(st.p999, o, b[3], 24), w, table_lat(st.max, o, b[4], 24));
}

void table_runtime(FILE *f, const struct hist *h, const struct table_opts *o)
{
	struct hist_stats rt;
	char b[2][24];
	int w = table_w(o);

	hist_get_stats(h, &rt);
	fprintf(f, " | %*s %*s", w, rt.count ? table_lat(rt.p50, o, b[0], 24) : "-",
		w, rt.count ? table_lat(rt.p99, o, b[1], 24) : "-");
}

void table_runtime_head(FILE *f, const struct table_opts *o)
{
	int w = table_w(o);

	fprintf(f, " | %*s %*s", w, "run p50", w, "run p99");
}
