/* SPDX-License-Identifier: GPL-2.0 */
/*
 * plot_kinds.h - the report's plot kinds. Callers compute the series; these functions
 * only draw them. Every plot has a title, axis labels with units and a legend. All
 * return 0 or -errno with a message in errbuf (ERRBUF_LEN).
 */
#ifndef DEFERBENCH_PLOT_KINDS_H
#define DEFERBENCH_PLOT_KINDS_H

#include <stddef.h>

#include "hist.h"
#include "rundata.h"
#include "stats.h"

/* A latency distribution to draw; an empty title draws it thin and out of the legend. */
struct series {
	char title[160];
	const struct hist *h;
	const char *color;	/* "#RRGGBB", from the report's palette (palette.h) */
	char key[176];		/* what the colour stands for ("work:NET_RX"), recorded in
				 * the script; empty: none */
	int dash;		/* 1 solid, 2 dashed, ... */
};

struct plot_text {
	const char *plotdir;	/* where the files go */
	const char *stem;	/* file name stem */
	const char *title;
	int w, h;		/* pixels; 0: PLOT_W x PLOT_H */
};

/* plot_percentiles - latency (us, log) against x = 1/(1-q) (log, labelled 50%, 99%, ...) */
int plot_percentiles(const struct plot_text *t, const struct series *s, size_t n,
		     char *errbuf);

/*
 * One box of a percentile ladder: what it stands for has a colour (palette.h) and a
 * legend entry shared by every box of that colour; boxes of one group (a workload of
 * the summary) stand together under the group's name.
 */
struct box {
	char label[96];				/* its x tic: "baseline (n=1515)" */
	double p1, p25, p50, p75, p99, p999;	/* pooled, ns */
	double rep_p99[STATS_MAX_N];		/* each block's or repetition's p99, ns */
	size_t nrep;
	uint64_t n;				/* samples pooled */
	const char *color;			/* "#RRGGBB"; NULL: grey */
	char key[176];				/* what the colour is ("config:baseline") */
	char legend[96];			/* its legend entry ("baseline") */
	char group[96];				/* "" or the group's name, over its boxes */
};

/* The axes of a ladder: what x shows, y's unit, and what one dot is the p99 of. */
struct ladder_axes {
	const char *xlabel;	/* "configuration", "workload and configuration", ... */
	const char *ylabel;
	const char *rep;	/* "block" or "repetition" */
};

/*
 * plot_ladder - one box per thing: p25-p75 box and p1-p99 whiskers in the thing's
 * colour, the median as a black bar, pooled p99.9 as a black cross, each block's (or
 * repetition's) p99 as a grey dot; the legend names each colour once
 */
int plot_ladder(const struct plot_text *t, const struct ladder_axes *ax, const struct box *b,
		size_t n, char *errbuf);

struct tseries {
	char title[160];
	const double *t;	/* seconds since the capture started */
	const double *v;	/* ns */
	size_t n;
	const char *color;	/* as in struct series */
	char key[176];
	int dash;
};

/* plot_time - latency (us, log) per interval against time (s) */
int plot_time(const struct plot_text *t, const char *ylabel, const struct tseries *s,
	      size_t n, char *errbuf);

/* One part of a stacked bar: its legend title and colour (palette.h). */
struct stack_part {
	const char *title;
	const char *color;
	char key[176];
};

/*
 * plot_stacked - one bar per label, stacked from parts: v[bar * nparts + part] (ns,
 * drawn in us); parts that are zero in every bar are left out of the plot and legend
 */
int plot_stacked(const struct plot_text *t, const char *ylabel, const char (*labels)[96],
		 const double *v, size_t nbars, const struct stack_part *parts, size_t nparts,
		 char *errbuf);

#endif
