// SPDX-License-Identifier: GPL-2.0
/*
 * plot_kinds.c - percentile curves, histograms, ladders and time series through gnuplot.
 */
#include "plot_kinds.h"

#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <string.h>

#include "plot.h"
#include "msg.h"

/* The parts of a ladder's boxes (not things: the same in every ladder) */
static const char *const ladder_colors[] = { "#0072B2", "#D55E00", "#009E73" };

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
		gp_str(gp, s->title);
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
		return set_errno(errbuf, ret, "%s: nothing to plot or cannot write data (%s)",
				t->stem, strerror(-ret));
	}
	return plot_end(p, errbuf);
}

static void pct_axis(FILE *gp, double xmax)
{
	fprintf(gp, "set xrange [1:%g]\n", xmax);
	gp_pct_xtics(gp, xmax);
}

int plot_percentiles(const struct plot_text *t, const struct series *s, size_t n,
		     char *errbuf)
{
	struct plot p;
	int ret;

	ret = plot_begin(&p, t->plotdir, t->stem, t->title,
			 "percentile (log scale of 1/(1-q))", "latency (us, log scale)");
	if (ret)
		return set_errno(errbuf, ret, "%s/%s.gp: %s", t->plotdir, t->stem, strerror(-ret));
	fputs("set logscale xy\nset format y '%.10g'\n", p.gp);
	ret = plot_series(&p, s, n, write_percentiles, pct_axis);
	return finish(&p, ret, t, errbuf);
}

/* 8 histogram bins per octave: bucket index -> coarse bin [lo, hi) */
static void coarse_bin(unsigned int i, double *lo, double *hi)
{
	unsigned int e, k;

	if (i < HIST_LINEAR) {
		e = i ? 31 - __builtin_clz(i) : 0;
		*lo = i ? (double)(1U << e) : 0;
		*hi = (double)(2U << e);
		return;
	}
	e = (i - HIST_LINEAR) / HIST_SUB + 7;
	k = (i - HIST_LINEAR) % HIST_SUB / (HIST_SUB / 8);
	*lo = ldexp(1 + k / 8.0, (int)e);
	*hi = ldexp(1 + (k + 1) / 8.0, (int)e);
}

/* emit_bin - one bin of the step outline: its top edge, from lo to hi */
static void emit_bin(FILE *f, double lo, double hi, double sum, const struct hist *h)
{
	double y = sum / (double)h->count / (8 * log2(hi / lo));

	fprintf(f, "%.6g %.6g\n%.6g %.6g\n", lo / 1e3, y, hi / 1e3, y);
}

/*
 * write_hist - the step outline of the histogram: each bin's share of the samples,
 * normalised to a width of 1/8 octave (the coarse bins are 1/8 of an octave wide
 * linearly, so their log widths differ). Adjacent bins join with a riser; an empty bin
 * ends the line (a blank line in the data) rather than being bridged.
 */
static double write_hist(FILE *f, const struct hist *h)
{
	double lo = -1, hi = 0, clo, chi, sum = 0;
	bool gap = true;
	unsigned int i;

	for (i = 1; i <= HIST_BUCKETS; i++) {
		if (i < HIST_BUCKETS)
			coarse_bin(i, &clo, &chi);
		if (i < HIST_BUCKETS && clo == lo) {
			sum += (double)h->bucket[i];
			continue;
		}
		if (sum > 0)
			emit_bin(f, lo, hi, sum, h);
		else if (lo > 0 && !gap)
			fputc('\n', f);
		gap = sum == 0;
		if (i == HIST_BUCKETS)
			break;
		lo = clo;
		hi = chi;
		sum = (double)h->bucket[i];
	}
	return 1;
}

int plot_histogram(const struct plot_text *t, const struct series *s, size_t n,
		   char *errbuf)
{
	struct plot p;
	int ret;

	ret = plot_begin(&p, t->plotdir, t->stem, t->title, "latency (us, log scale)",
			 "share of samples per 1/8 octave (log scale)");
	if (ret)
		return set_errno(errbuf, ret, "%s/%s.gp: %s", t->plotdir, t->stem, strerror(-ret));
	fputs("set logscale xy\nset format x '%.10g'\nset format y '%.10g'\n", p.gp);
	ret = plot_series(&p, s, n, write_hist, NULL);
	return finish(&p, ret, t, errbuf);
}

static void ladder_xtics(FILE *gp, const struct box *b, size_t n)
{
	size_t i, longest = 0;

	for (i = 0; i < n; i++)
		if (strlen(b[i].label) > longest)
			longest = strlen(b[i].label);
	/*
	 * Many or long labels are slanted, each ending under its box; gnuplot sizes the
	 * bottom margin to hold them and the legend below them.
	 */
	if (n > 4 && longest > 16) {
		/* the first label reaches left of its box by ~0.87 of its length */
		double left = 0.87 * (double)strlen(b[0].label) - 0.7 / ((double)n + 0.4) * 140;

		fprintf(gp, "set lmargin %d\n", left > 12 ? (int)left : 12);
	}
	fprintf(gp, "set xrange [-0.7:%g]\nset xtics %s(", (double)n - 0.3,
		n > 4 ? (longest > 16 ? "rotate by 30 right " : "rotate by -25 ") : "");
	for (i = 0; i < n; i++) {
		fputs(i ? ", " : "", gp);
		gp_str(gp, b[i].label);
		fprintf(gp, " %zu", i);
	}
	fputs(")\n", gp);
}

static int ladder_data(struct plot *p, const struct box *b, size_t n, char *boxes,
		       char *reps, size_t len)
{
	FILE *fb, *fr;
	size_t i, r;

	fb = plot_data(p, boxes, len);
	fr = plot_data(p, reps, len);
	for (i = 0; fb && fr && i < n; i++) {
		fprintf(fb, "%zu %.6g %.6g %.6g %.6g %.6g %.6g\n", i, b[i].p25 / 1e3,
			b[i].p1 / 1e3, b[i].p99 / 1e3, b[i].p75 / 1e3, b[i].p50 / 1e3,
			b[i].p999 / 1e3);
		for (r = 0; r < b[i].nrep; r++)
			fprintf(fr, "%.4g %.6g\n", (double)i + 0.25, b[i].rep_p99[r] / 1e3);
	}
	if ((fb && fclose(fb)) || (fr && fclose(fr)))
		return -EIO;
	return fb && fr ? 0 : p->err;
}

int plot_ladder(const struct plot_text *t, const char *ylabel, const struct box *b,
		size_t n, char *errbuf)
{
	char boxes[PLOT_STEM_LEN + 16], reps[PLOT_STEM_LEN + 16];
	struct plot p;
	int ret;

	ret = plot_begin(&p, t->plotdir, t->stem, t->title, "configuration", ylabel);
	if (ret)
		return set_errno(errbuf, ret, "%s/%s.gp: %s", t->plotdir, t->stem, strerror(-ret));
	fputs("set logscale y\nset format y '%.10g'\nset boxwidth 0.35\nset key maxrows 2\n"
	      "set grid noxtics\n", p.gp);
	ladder_xtics(p.gp, b, n);
	ret = ladder_data(&p, b, n, boxes, reps, sizeof(boxes));
	if (!ret)
		fprintf(p.gp, "plot '%s' using 1:2:3:4:5 with candlesticks whiskerbars 0.6 "
			"lw 1.5 lc rgb '%s' fs solid 0.25 title 'pooled: box p25-p75, whiskers "
			"p1-p99', \\\n     '%s' using 1:6:6:6:6 with candlesticks lw 3 lc rgb "
			"'%s' title 'pooled median', \\\n     '%s' using 1:7 with points pt 2 "
			"ps 1.5 lc rgb '%s' title 'pooled p99.9', \\\n     '%s' using 1:2 with "
			"points pt 7 ps 1.2 lc rgb '%s' title 'p99 of each repetition'\n",
			boxes, ladder_colors[0], boxes, ladder_colors[0], boxes, ladder_colors[1],
			reps, ladder_colors[2]);
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
		return set_errno(errbuf, ret, "%s/%s.gp: %s", t->plotdir, t->stem, strerror(-ret));
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
		gp_str(p.gp, s[i].title);
	}
	fputc('\n', p.gp);
	return finish(&p, ret ?: (drawn ? 0 : -ENODATA), t, errbuf);
}

int plot_stacked(const struct plot_text *t, const char *ylabel, const char (*labels)[96],
		 const double *v, size_t nbars, const struct stack_part *parts, size_t nparts,
		 char *errbuf)
{
	char name[PLOT_STEM_LEN + 16];
	size_t b, k, col = 2, drawn = 0;
	struct plot p;
	bool used;
	FILE *f;
	int ret;

	ret = plot_begin(&p, t->plotdir, t->stem, t->title, "", ylabel);
	if (ret)
		return set_errno(errbuf, ret, "%s/%s.gp: %s", t->plotdir, t->stem, strerror(-ret));
	fputs("set style data histograms\nset style histogram rowstacked\n"
	      "set style fill solid 0.9 border lc rgb '#ffffff'\nset boxwidth 0.6\n"
	      "set xtics rotate by 30 right\nset grid noxtics\n", p.gp);
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
		gp_str(p.gp, parts[k].title);
		drawn++;
	}
	fputc('\n', p.gp);
	return finish(&p, ret ?: (drawn ? 0 : -ENODATA), t, errbuf);
}
