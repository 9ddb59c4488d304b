// SPDX-License-Identifier: GPL-2.0
/*
 * plot_kinds.c - percentile curves, histograms, ladders and time series through gnuplot.
 */
#include "plot_kinds.h"

#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "palette.h"
#include "plot.h"
#include "msg.h"

/* note_color - record what a series' colour stands for, for the tests and the reader */
static void note_color(FILE *gp, const char *key, const char *color)
{
	if (key[0] && color)
		fprintf(gp, "# colour %s %s\n", key, color);
}

/* plot_style - line style of a series: thin and untitled when it has no title */
static void plot_style(FILE *gp, const struct series *s)
{
	fprintf(gp, " with lines lw %s dt %d lc rgb '%s' ", s->title[0] ? "2" : "0.6",
		s->dash > 0 ? s->dash : 1, s->color ? s->color : "#888888");
	if (s->title[0]) {
		fputs("title ", gp);
		plot_str(gp, s->title);
	} else {
		fputs("notitle", gp);
	}
}

/* write_percentiles - 40 points per decade of 1/(1-q), up to the last full rank */
static double write_percentiles(FILE *f, const struct hist *h)
{
	double x = 1, last = 1;
	int k;

	for (k = 0; x <= (double)h->count; k++) {
		x = pow(10, k / 40.0);
		if (x > (double)h->count)
			break;
		fprintf(f, "%.6g %.6g\n", x, (double)hist_percentile(h, 1 - 1 / x) / 1e3);
		last = x;
	}
	return last;
}

#define MAX_SERIES 64

/*
 * plot_series - write every series' data file, then (once the x range is known) let
 * before() add settings, then the plot command
 */
static int plot_series(struct plot *p, const struct series *s, size_t n,
		       double (*write)(FILE *, const struct hist *),
		       void (*before)(FILE *gp, double xmax))
{
	char name[MAX_SERIES][PLOT_STEM_LEN + 16];
	size_t i, drawn = 0;
	double xmax = 1, x;
	FILE *f;

	for (i = 0; i < n && i < MAX_SERIES; i++) {
		name[i][0] = '\0';
		if (!s[i].h || !s[i].h->count)
			continue;
		f = plot_data(p, name[i], sizeof(name[i]));
		if (!f)
			return p->err;
		x = write(f, s[i].h);
		if (fclose(f))
			return -errno;
		xmax = x > xmax ? x : xmax;
	}
	if (before)
		before(p->gp, xmax);
	for (i = 0; i < n && i < MAX_SERIES; i++)
		if (name[i][0] && s[i].title[0])
			note_color(p->gp, s[i].key, s[i].color);
	for (i = 0; i < n && i < MAX_SERIES; i++) {
		if (!name[i][0])
			continue;
		fprintf(p->gp, "%s '%s' using 1:2", drawn++ ? ", \\\n     " : "plot ", name[i]);
		plot_style(p->gp, &s[i]);
	}
	fputc('\n', p->gp);
	return drawn ? 0 : -ENODATA;
}

static int finish(struct plot *p, int ret, const struct plot_text *t, char *errbuf)
{
	if (ret) {
		plot_abort(p);
		return errno_msg(errbuf, ret, "%s: nothing to plot or cannot write data (%s)",
				t->stem, strerror(-ret));
	}
	return plot_end(p, errbuf);
}

static void pct_axis(FILE *gp, double xmax)
{
	fprintf(gp, "set xrange [1:%g]\n", xmax);
	plot_pct_xtics(gp, xmax);
}

int plot_percentiles(const struct plot_text *t, const struct series *s, size_t n,
		     char *errbuf)
{
	struct plot p;
	int ret;

	ret = plot_begin(&p, t->plotdir, t->stem, t->title,
			 "percentile (log scale of 1/(1-q))", "latency (us, log scale)");
	if (ret)
		return errno_msg(errbuf, ret, "%s/%s.gp: %s", t->plotdir, t->stem, strerror(-ret));
	fputs("set logscale xy\nset format y '%.10g'\n", p.gp);
	ret = plot_series(&p, s, n, write_percentiles, pct_axis);
	return finish(&p, ret, t, errbuf);
}

/*
 * Text metrics of the ladder's tic labels at the plots' font size, in pixels: the mean
 * width of a character of a configuration's name, a line's height, and what the y axis
 * and its label take on the left
 */
#define CHAR_PX 8
#define LINE_PX 17
#define YAXIS_PX 140

/* lines_of - how many lines a label has */
static size_t lines_of(const char *s)
{
	size_t k = 1;

	for (; *s; s++)
		k += *s == '\n';
	return k;
}

/* line_len - the longest line of a label ('\n' separates its lines) */
static size_t line_len(const char *s)
{
	size_t longest = 0, cur = 0;

	for (; *s; s++) {
		cur = *s == '\n' ? 0 : cur + 1;
		longest = cur > longest ? cur : longest;
	}
	return longest;
}

/*
 * ladder_slant - do the labels, each on its lines, overlap at width w: then they are
 * slanted, on one line each; *extra: the height their slant takes beyond the lines
 */
static bool ladder_slant(const struct box *b, size_t n, int w, int *extra)
{
	size_t i, longest = 0, lines = 1, flat = 0;

	for (i = 0; i < n; i++) {
		size_t l = line_len(b[i].label), k = lines_of(b[i].label);

		longest = l > longest ? l : longest;
		flat = strlen(b[i].label) > flat ? strlen(b[i].label) : flat;
		lines = k > lines ? k : lines;
	}
	*extra = 0;
	if ((double)n * (double)(longest * CHAR_PX + 12) <= (double)w - YAXIS_PX)
		return false;
	/* at 30 degrees a label of k characters is k/2 characters high */
	*extra = (int)(flat * CHAR_PX / 2) - (int)(lines * LINE_PX);
	*extra = *extra > 0 ? *extra : 0;
	return true;
}

/*
 * ladder_width - the default width, or up to a whole row of the report (PLOT_WIDE)
 * when the boxes' labels need it
 */
static int ladder_width(const struct box *b, size_t n)
{
	size_t i, longest = 0;
	double need;

	for (i = 0; i < n; i++)
		longest = line_len(b[i].label) > longest ? line_len(b[i].label) : longest;
	need = YAXIS_PX + (double)n * (double)(longest * CHAR_PX + 12);
	return need <= PLOT_W ? PLOT_W : need >= PLOT_WIDE ? PLOT_WIDE : (int)need;
}

/*
 * gp_label - a label as a gnuplot string: its lines joined by spaces (flat), or kept and
 * padded with blank ones to lines
 */
static void gp_label(FILE *gp, const char *s, bool flat, size_t lines)
{
	size_t k;

	fputc('"', gp);
	for (k = lines_of(s); *s; s++) {
		if (*s == '\n')
			fputs(flat ? " " : "\\n", gp);
		else if (*s == '`')	/* gnuplot would run it as a command */
			fputc('\'', gp);
		else if (*s == '"' || *s == '\\')
			fprintf(gp, "\\%c", *s);
		else
			fputc(*s, gp);
	}
	for (; !flat && k < lines; k++)
		fputs("\\n ", gp);
	fputc('"', gp);
}

static void ladder_xtics(FILE *gp, const struct box *b, size_t n, bool slant)
{
	size_t i, lines = 1;

	/*
	 * Slanted labels end under their box; gnuplot sizes the bottom margin to hold
	 * them and the legend below them, and the left one to hold the first
	 */
	if (slant) {
		/* the first label reaches left of its box by ~0.87 of its length */
		double left = 0.87 * (double)strlen(b[0].label) - 0.7 / ((double)n + 0.4) * 140;

		fprintf(gp, "set lmargin %d\n", left > 12 ? (int)left : 12);
	}
	fprintf(gp, "set xrange [-0.7:%g]\nset xtics %s(", (double)n - 0.3,
		slant ? "rotate by 30 right " : "");
	for (i = 0; i < n; i++)
		lines = lines_of(b[i].label) > lines ? lines_of(b[i].label) : lines;
	for (i = 0; i < n; i++) {
		fputs(i ? ", " : "", gp);
		gp_label(gp, b[i].label, slant, lines);
		fprintf(gp, " %zu", i);
	}
	fputs(")\n", gp);
	/*
	 * gnuplot makes room below the axis for one line of tic labels (two in a PNG):
	 * the axis label moves down by the others, and the margin (with the legend) with it
	 */
	if (!slant && lines > 1)
		fprintf(gp, "set xlabel offset 0,-%zu\n", lines - 1);
}

/*
 * ladder_groups - the name of each group of boxes over its middle (the top axis, no
 * tic marks), and a thin line between groups
 */
static void ladder_groups(FILE *gp, const struct box *b, size_t n)
{
	size_t i, first = 0, ngroups = 0;

	for (i = 0; i < n && !b[i].group[0]; i++)
		;
	if (i == n)
		return;
	fprintf(gp, "set x2range [-0.7:%g]\nset x2tics scale 0 (", (double)n - 0.3);
	for (i = 1; i <= n; i++) {
		if (i < n && !strcmp(b[i].group, b[first].group))
			continue;
		fputs(ngroups++ ? ", " : "", gp);
		plot_str(gp, b[first].group);
		fprintf(gp, " %g", ((double)first + (double)(i - 1)) / 2);
		first = i;
	}
	fputs(")\n", gp);
	for (i = 1; i < n; i++)
		if (strcmp(b[i].group, b[i - 1].group))
			fprintf(gp, "set arrow from %g, graph 0 to %g, graph 1 nohead "
				"lc rgb '#999999' dt 2\n", (double)i - 0.5, (double)i - 0.5);
}

/* ladder_colour_groups - the distinct colour keys of the boxes, first seen first */
static size_t ladder_colour_groups(const struct box *b, size_t n, size_t *first)
{
	size_t i, j, ng = 0;

	for (i = 0; i < n; i++) {
		for (j = 0; j < ng && strcmp(b[first[j]].key, b[i].key); j++)
			;
		if (j == ng)
			first[ng++] = i;
	}
	return ng;
}

/*
 * ladder_data - the boxes, one data block per colour (gnuplot's index), then every box
 * again for the medians and p99.9s, and each block's or repetition's p99
 */
static int ladder_data(struct plot *p, const struct box *b, size_t n, const size_t *first,
		       size_t ng, char *boxes, char *all, char *reps, size_t len)
{
	FILE *fb, *fa, *fr;
	size_t i, g, r;

	fb = plot_data(p, boxes, len);
	fa = plot_data(p, all, len);
	fr = plot_data(p, reps, len);
	for (g = 0; fb && g < ng; g++) {
		for (i = 0; i < n; i++)
			if (!strcmp(b[i].key, b[first[g]].key))
				fprintf(fb, "%zu %.6g %.6g %.6g %.6g\n", i, b[i].p25 / 1e3,
					b[i].p1 / 1e3, b[i].p99 / 1e3, b[i].p75 / 1e3);
		fputs("\n\n", fb);
	}
	for (i = 0; fa && fr && i < n; i++) {
		fprintf(fa, "%zu %.6g %.6g\n", i, b[i].p50 / 1e3, b[i].p999 / 1e3);
		for (r = 0; r < b[i].nrep; r++)
			fprintf(fr, "%.4g %.6g\n", (double)i + 0.25, b[i].rep_p99[r] / 1e3);
	}
	if ((fb && fclose(fb)) || (fa && fclose(fa)) || (fr && fclose(fr)))
		return -EIO;
	return fb && fa && fr ? 0 : p->err;
}

int plot_ladder(const struct plot_text *t, const struct ladder_axes *ax, const struct box *b,
		size_t n, char *errbuf)
{
	char boxes[PLOT_STEM_LEN + 16], all[PLOT_STEM_LEN + 16], reps[PLOT_STEM_LEN + 16];
	int w = t->w ? t->w : ladder_width(b, n), extra, ret;
	bool slant = ladder_slant(b, n, w, &extra), any_rep = false;
	size_t *first, ng, g;
	struct plot p;

	first = calloc(n ? n : 1, sizeof(*first));
	if (!first)
		return errno_msg(errbuf, -ENOMEM, "%s: out of memory", t->stem);
	/* slanted labels take their height from the plot's, not from its data */
	ret = plot_begin_at(&p, w, (t->h ? t->h : PLOT_H) + extra, t->plotdir, t->stem,
			    t->title, ax->xlabel, ax->ylabel);
	if (ret) {
		free(first);
		return errno_msg(errbuf, ret, "%s/%s.gp: %s", t->plotdir, t->stem, strerror(-ret));
	}
	fputs("set logscale y\nset format y '%.10g'\nset boxwidth 0.35\nset key maxrows 3\n"
	      "set grid noxtics\n", p.gp);
	ladder_xtics(p.gp, b, n, slant);
	ladder_groups(p.gp, b, n);
	ng = ladder_colour_groups(b, n, first);
	for (g = 0; g < ng; g++)
		note_color(p.gp, b[first[g]].key, b[first[g]].color);
	for (g = 0; g < n; g++)
		any_rep |= b[g].nrep > 0;
	ret = ladder_data(&p, b, n, first, ng, boxes, all, reps, sizeof(boxes));
	for (g = 0; !ret && g < ng; g++) {
		fprintf(p.gp, "%s '%s' index %zu using 1:2:3:4:5 with candlesticks whiskerbars "
			"0.6 lw 1.5 lc rgb '%s' fs solid 0.3 title ", g ? ", \\\n     " : "plot",
			boxes, g, b[first[g]].color ? b[first[g]].color : "#888888");
		plot_str(p.gp, b[first[g]].legend[0] ? b[first[g]].legend : b[first[g]].label);
	}
	if (!ret) {
		fprintf(p.gp, ", \\\n     '%s' using 1:2:2:2:2 with candlesticks lw 3 lc rgb '"
			PAL_MARK_MEDIAN "' title 'median', "
			"\\\n     '%s' using 1:3 with points pt 2 ps 1.5 lc rgb '" PAL_MARK_TAIL
			"' title 'p99.9'", all, all);
		if (any_rep) {
			fprintf(p.gp, ", \\\n     '%s' using 1:2 with points pt 7 ps 1 lc rgb '"
				PAL_MARK_REP "' title ", reps);
			fprintf(p.gp, "'p99 of each %s'", ax->rep ? ax->rep : "repetition");
		}
		fputc('\n', p.gp);
	}
	free(first);
	return finish(&p, ret, t, errbuf);
}

int plot_time(const struct plot_text *t, const char *ylabel, const struct tseries *s,
	      size_t n, char *errbuf)
{
	char name[PLOT_STEM_LEN + 16];
	size_t i, j, drawn = 0;
	struct plot p;
	FILE *f;
	int ret;

	ret = plot_begin(&p, t->plotdir, t->stem, t->title,
			 "time since the capture started (s)", ylabel);
	if (ret)
		return errno_msg(errbuf, ret, "%s/%s.gp: %s", t->plotdir, t->stem, strerror(-ret));
	fputs("set logscale y\nset format y '%.10g'\n", p.gp);
	for (i = 0; i < n; i++)
		if (s[i].n)
			note_color(p.gp, s[i].key, s[i].color);
	for (i = 0; !ret && i < n; i++) {
		if (!s[i].n)
			continue;
		f = plot_data(&p, name, sizeof(name));
		if (!f) {
			ret = p.err;
			break;
		}
		for (j = 0; j < s[i].n; j++)
			fprintf(f, "%.6g %.6g\n", s[i].t[j], s[i].v[j] / 1e3);
		ret = fclose(f) ? -errno : 0;
		fprintf(p.gp, "%s '%s' using 1:2 with linespoints lw 2 pt 7 ps 0.6 dt %d "
			"lc rgb '%s' title ", drawn++ ? ", \\\n     " : "plot ", name,
			s[i].dash > 0 ? s[i].dash : 1, s[i].color ? s[i].color : "#888888");
		plot_str(p.gp, s[i].title);
	}
	fputc('\n', p.gp);
	return finish(&p, ret ?: (drawn ? 0 : -ENODATA), t, errbuf);
}

int plot_stacked(const struct plot_text *t, const char *ylabel, const char (*labels)[96],
		 const double *v, size_t nbars, const struct stack_part *parts, size_t nparts,
		 char *errbuf)
{
	char name[PLOT_STEM_LEN + 16];
	size_t b, k, col = 2, drawn = 0, longest = 0;
	struct plot p;
	bool used;
	FILE *f;
	int ret;

	/*
	 * a whole row of the report: its bars' slanted labels and a legend of up to eleven
	 * causes in three rows need the width; the slant takes its height from the plot's
	 */
	for (b = 0; b < nbars; b++)
		longest = strlen(labels[b]) > longest ? strlen(labels[b]) : longest;
	ret = plot_begin_at(&p, t->w ? t->w : PLOT_WIDE, (t->h ? t->h : PLOT_H) +
			    (int)(longest * CHAR_PX / 2), t->plotdir, t->stem, t->title, "",
			    ylabel);
	if (ret)
		return errno_msg(errbuf, ret, "%s/%s.gp: %s", t->plotdir, t->stem, strerror(-ret));
	fputs("set style data histograms\nset style histogram rowstacked\n"
	      "set style fill solid 0.9 border lc rgb '#ffffff'\nset boxwidth 0.6\n"
	      "set xtics rotate by 30 right\nset grid noxtics\nset key maxrows 3\n", p.gp);
	f = plot_data(&p, name, sizeof(name));
	if (!f)
		return finish(&p, p.err, t, errbuf);
	for (b = 0; b < nbars; b++) {
		const char *c;

		/* a data file's strings are double-quoted; a label has no '"' left */
		fputc('"', f);
		for (c = labels[b]; *c; c++)
			fputc(*c == '"' ? '\'' : *c, f);
		fputc('"', f);
		for (k = 0; k < nparts; k++)
			fprintf(f, " %.6g", v[b * nparts + k] / 1e3);
		fputc('\n', f);
	}
	ret = fclose(f) ? -errno : 0;
	for (k = 0; k < nparts; k++) {
		for (b = 0, used = false; b < nbars; b++)
			used |= v[b * nparts + k] > 0;
		if (used)
			note_color(p.gp, parts[k].key, parts[k].color);
	}
	for (k = 0; !ret && k < nparts; k++, col++) {
		for (b = 0, used = false; b < nbars; b++)
			used |= v[b * nparts + k] > 0;
		if (!used)
			continue;
		fprintf(p.gp, "%s '%s' using %zu%s lc rgb '%s' title ", drawn ? ", \\\n     " :
			"plot ", name, col, drawn ? "" : ":xtic(1)", parts[k].color);
		plot_str(p.gp, parts[k].title);
		drawn++;
	}
	fputc('\n', p.gp);
	return finish(&p, ret ?: (drawn ? 0 : -ENODATA), t, errbuf);
}
