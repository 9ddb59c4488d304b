/* SPDX-License-Identifier: GPL-2.0 */
/*
 * plot.h - plots through gnuplot run as a child process on a generated script.
 *
 * A plot is <dir>/plots/<stem>.gp plus data files <stem>-<n>.dat (numbers only), drawn
 * once as <stem>.png (pngcairo) and once as <stem>.svg. gnuplot runs in <dir>/plots so
 * the script names files relatively; its stderr goes to <stem>.log, kept only when it
 * fails. Text given to the script goes through plot_str (gnuplot single-quoted strings,
 * "noenhanced" terminals so that '_' in names is not a subscript).
 */
#ifndef DEFERBENCH_PLOT_H
#define DEFERBENCH_PLOT_H

#include <stdbool.h>
#include <stdio.h>

#include "common.h"

#define PLOT_STEM_LEN 160

struct plot {
	char dir[4096];			/* the plots directory */
	char stem[PLOT_STEM_LEN];
	FILE *gp;
	int ndata;
	int err;
	int w, h;			/* pixels (PNG) and user units (SVG) */
};

/* The default size: two plots side by side, each at its own size, on a 1366-pixel screen. */
#define PLOT_W 640
#define PLOT_H 380
/* The widest: a whole row of the report on a 1366-pixel screen. */
#define PLOT_WIDE 1280

/* plot_check - is gnuplot there, with pngcairo and svg? 0 or -ENOENT (message in errbuf) */
int plot_check(char *errbuf);
/*
 * plot_begin - open the script and write the common settings: title, axis labels,
 * legend, grid. Stem characters outside [A-Za-z0-9._-] become '_'.
 */
int plot_begin(struct plot *p, const char *plotdir, const char *stem, const char *title,
	       const char *xlabel, const char *ylabel);
/* plot_begin_at - the same, w x h pixels (0: the default) */
int plot_begin_at(struct plot *p, int w, int h, const char *plotdir, const char *stem,
		  const char *title, const char *xlabel, const char *ylabel);
/* plot_data - open the next data file; *name receives its file name for the script */
FILE *plot_data(struct plot *p, char *name, size_t len);
/* plot_end - close the script, run gnuplot for PNG and SVG; 0 or -errno */
int plot_end(struct plot *p, char *errbuf);
/* plot_abort - drop a plot that will not be drawn */
void plot_abort(struct plot *p);

/* plot_sanitize - the file-name form of a stem: [A-Za-z0-9._-], others become '_' */
void plot_sanitize(char *stem);
/* plot_str - s as a gnuplot single-quoted string */
void plot_str(FILE *f, const char *s);
/* plot_pct_xtics - x = 1/(1-q) tics labelled 50%, 90%, 99%, ... up to xmax */
void plot_pct_xtics(FILE *f, double xmax);

#endif
