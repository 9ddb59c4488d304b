// SPDX-License-Identifier: GPL-2.0
/*
 * history_out.c - the history as text: the table of each series with its change
 * points, the regressions list, the fleet view; and the plots (history_out.h).
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fmt.h"
#include "history_out.h"
#include "kver.h"
#include "plot.h"
#include "msg.h"

static void series_title(FILE *f, const struct hs_series *s)
{
	fprintf(f, "%s  %s/%s  %s  (scenario %s)\n", s->host, s->workload, s->config,
		s->metric, s->scenario);
}

/* change_text - "rose 38% (...) between 6.17 and 6.18-rc2, confidence 99.9% (...)" */
static void change_text(const struct hs_series *s, const struct hs_change *c, char *buf,
			size_t len)
{
	char b[32], a[32];

	snprintf(buf, len, "%s %.0f%% (%sus -> %sus) between %s and %s, confidence %.2f%% "
		 "(permutation p %.2g, level %.2g)", c->v == V_WORSE ? "rose" : "fell",
		 fabs(c->rel) * 100, fmt_us(c->before, b, sizeof(b)),
		 fmt_us(c->after, a, sizeof(a)), s->pt[c->index - 1].kernel,
		 s->pt[c->index].kernel, 100 * (1 - c->p), c->p, s->sig);
}

void hs_print_table(FILE *f, const struct hs_set *set)
{
	char med[32], lo[32], hi[32], why[256];
	size_t i, k, c;

	for (i = 0; i < set->n; i++) {
		const struct hs_series *s = &set->s[i];

		bool moved = !strncmp(s->metric, "moved:", 6);

		series_title(f, s);
		fprintf(f, "  %-24s %-20s %4s %9s %9s %9s%s  (us)\n", "kernel", "started", "reps",
			"median", "lowest", "highest", moved ? "  place" : "");
		for (k = 0; k < s->npt; k++) {
			const struct hs_point *p = &s->pt[k];

			/* a moved:* series: where the work ran, and where that changed */
			if (moved && k && strcmp(p->place, s->pt[k - 1].place))
				fprintf(f, "  ---- moved from %s to %s between %s and %s\n",
					s->pt[k - 1].place[0] ? s->pt[k - 1].place : "?",
					p->place[0] ? p->place : "?", s->pt[k - 1].kernel, p->kernel);
			for (c = 0; c < s->ncp; c++)
				if (s->cp[c].index == k) {
					change_text(s, &s->cp[c], why, sizeof(why));
					fprintf(f, "  ---- change point: %s (%s)\n", why,
						judge_verdict_names[s->cp[c].v]);
				}
			fprintf(f, "  %-24s %-20s %4zu %9s %9s %9s%s%s\n", p->kernel, p->started,
				p->n, fmt_us(p->med, med, sizeof(med)), fmt_us(p->lo, lo, sizeof(lo)),
				fmt_us(p->hi, hi, sizeof(hi)), moved ? "  " : "", moved ? p->place : "");
		}
		if (s->need)
			fprintf(f, "  not tested: too few runs (%zu; need %zu for the level %.2g)\n",
				s->npt, s->need, s->sig);
		else if (!s->ncp)
			fprintf(f, "  no change point\n");
		fputc('\n', f);
	}
}

size_t hs_print_regressions(FILE *f, const struct hs_set *set)
{
	size_t i, c, regressed = 0;
	char why[256];

	for (i = 0; i < set->n; i++) {
		const struct hs_series *s = &set->s[i];
		bool newest = hs_newest_regressed(s);

		for (c = 0; c < s->ncp; c++) {
			change_text(s, &s->cp[c], why, sizeof(why));
			fprintf(f, "%s %s %s/%s %s (scenario %s):\n       %s\n",
				s->cp[c].v == V_WORSE ? "WORSE " : "better", s->host, s->workload,
				s->config, s->metric, s->scenario, why);
			if (newest && c + 1 == s->ncp)
				fprintf(f, "       the newest kernel, %s, is past it\n",
					s->pt[s->npt - 1].kernel);
		}
		regressed += newest;
	}
	return regressed;
}

/* --- fleet view --- */

struct kernels {
	const char **k;
	size_t n;
};

static int cmp_kernel(const void *a, const void *b)
{
	return kver_cmp(*(const char *const *)a, *(const char *const *)b);
}

static int collect_kernels(const struct hs_set *set, struct kernels *ks)
{
	size_t i, k, j, cap = 0;

	ks->k = NULL;
	ks->n = 0;
	for (i = 0; i < set->n; i++)
		cap += set->s[i].npt;
	ks->k = calloc(cap ? cap : 1, sizeof(*ks->k));
	if (!ks->k)
		return -ENOMEM;
	for (i = 0; i < set->n; i++)
		for (k = 0; k < set->s[i].npt; k++) {
			const char *name = set->s[i].pt[k].kernel;

			for (j = 0; j < ks->n && strcmp(ks->k[j], name); j++)
				;
			if (j == ks->n)
				ks->k[ks->n++] = name;
		}
	qsort(ks->k, ks->n, sizeof(*ks->k), cmp_kernel);
	return 0;
}

/* host_verdict - one host at one kernel: worse if any series got worse there */
static enum verdict host_verdict(const struct hs_set *set, const char *host,
				 const char *kernel)
{
	size_t i, n[V_NR] = { 0 };
	const struct hs_change *c;

	for (i = 0; i < set->n; i++)
		if (!strcmp(set->s[i].host, host))
			n[hs_verdict_at(&set->s[i], kernel, &c)]++;
	if (n[V_WORSE])
		return V_WORSE;
	if (n[V_BETTER])
		return V_BETTER;
	if (n[V_NO_CHANGE])
		return V_NO_CHANGE;
	return n[V_CANNOT_TELL] ? V_CANNOT_TELL : V_INFO;
}

static bool host_seen(const struct hs_set *set, size_t upto, const char *host)
{
	size_t i;

	for (i = 0; i < upto; i++)
		if (!strcmp(set->s[i].host, host))
			return true;
	return false;
}

/* fleet_kernel - "kernel K: worse on 3 of 7 hosts (a, b, c), no change on 4, ..." */
static void fleet_kernel(FILE *f, const struct hs_set *set, const char *kernel,
			 const char *only)
{
	static const enum verdict order[] = { V_WORSE, V_BETTER, V_NO_CHANGE, V_CANNOT_TELL };
	size_t i, k, o, n[V_NR] = { 0 }, total;
	const struct hs_change *c;
	char why[256];
	bool first;

	for (i = 0; i < set->n; i++)
		if (!host_seen(set, i, set->s[i].host))
			n[host_verdict(set, set->s[i].host, kernel)]++;
	total = n[V_WORSE] + n[V_BETTER] + n[V_NO_CHANGE] + n[V_CANNOT_TELL];
	if (!total || (only && strcmp(only, kernel)))
		return;
	fprintf(f, "kernel %s:", kernel);
	for (o = 0, first = true; o < ARRAY_SIZE(order); o++) {
		if (!n[order[o]])
			continue;
		fprintf(f, "%s %s on %zu", first ? "" : ",", judge_verdict_names[order[o]],
			n[order[o]]);
		if (first)
			fprintf(f, " of %zu host%s", total, total == 1 ? "" : "s");
		first = false;
		if (order[o] != V_WORSE && order[o] != V_BETTER)
			continue;
		fputs(" (", f);
		for (i = 0, k = 0; i < set->n; i++)
			if (!host_seen(set, i, set->s[i].host) &&
			    host_verdict(set, set->s[i].host, kernel) == order[o])
				fprintf(f, "%s%s", k++ ? ", " : "", set->s[i].host);
		fputc(')', f);
	}
	fputc('\n', f);
	for (i = 0; i < set->n; i++) {
		const struct hs_series *s = &set->s[i];
		enum verdict v = hs_verdict_at(s, kernel, &c);

		if (!c)
			continue;
		change_text(s, c, why, sizeof(why));
		fprintf(f, "  %s: %s %s/%s %s\n", s->host, v == V_WORSE ? "worse " : "better",
			s->workload, s->config, s->metric);
		fprintf(f, "      %s\n", why);
	}
}

int hs_print_fleet(FILE *f, const struct hs_set *set, const char *kernel)
{
	struct kernels ks;
	size_t i;

	if (collect_kernels(set, &ks))
		return -ENOMEM;
	for (i = 0; i < ks.n; i++)
		fleet_kernel(f, set, ks.k[i], kernel);
	free(ks.k);
	return 0;
}

/* --- plots --- */

static bool same_plot(const struct hs_series *a, const struct hs_series *b)
{
	return !strcmp(a->scenario, b->scenario) && !strcmp(a->workload, b->workload) &&
	       !strcmp(a->config, b->config) && !strcmp(a->metric, b->metric);
}

static size_t kernel_pos(const struct kernels *ks, const char *k)
{
	size_t i;

	for (i = 0; i < ks->n; i++)
		if (!strcmp(ks->k[i], k))
			return i;
	return 0;
}

/*
 * plot_one - the series sub[0..n) that share scenario, workload, config and metric: x
 * is the kernel's place in the release order of all their kernels, one line per host
 * with a band from the lowest to the highest repetition, and a dashed mark at each
 * change point (red worse, green better)
 */
static int plot_one(const struct hs_series *const *sub, size_t n, const char *dir,
		    char *errbuf)
{
	const struct hs_series *s0 = sub[0];
	char stem[PLOT_STEM_LEN], title[512], name[PLOT_STEM_LEN + 16];
	struct hs_set all = { 0 };
	struct kernels ks;
	struct plot p;
	size_t i, k, c;
	int ret;

	/* the kernels of every host, in one release order */
	all.s = malloc(n * sizeof(*all.s));
	if (!all.s)
		return errno_msg(errbuf, -ENOMEM, "out of memory");
	for (i = 0; i < n; i++)
		all.s[i] = *sub[i];
	all.n = n;
	ret = collect_kernels(&all, &ks);
	free(all.s);
	if (ret)
		return errno_msg(errbuf, -ENOMEM, "out of memory");
	snprintf(stem, sizeof(stem), "history-%.24s-%.24s-%.24s-%.60s", s0->scenario, s0->workload,
		 s0->config, s0->metric);
	snprintf(title, sizeof(title), "%.200s across kernels: %.64s/%.64s (scenario %.64s); band: lowest "
		 "to highest repetition", s0->metric, s0->workload, s0->config, s0->scenario);
	ret = plot_begin(&p, dir, stem, title, "kernel (release order)", "microseconds");
	if (ret) {
		free(ks.k);
		return errno_msg(errbuf, ret, "%s: cannot write plots: %s", dir, strerror(-ret));
	}
	fputs("set xtics rotate by -35 (", p.gp);
	for (i = 0; i < ks.n; i++) {
		fprintf(p.gp, "%s", i ? ", " : "");
		plot_str(p.gp, ks.k[i]);
		fprintf(p.gp, " %zu", i);
	}
	fprintf(p.gp, ")\nset logscale y\nset xrange [-0.5:%zu.5]\nset style fill transparent solid 0.15 "
		"noborder\n", ks.n ? ks.n - 1 : 0);
	for (i = 0; i < n; i++)
		for (c = 0; c < sub[i]->ncp; c++) {
			const struct hs_series *s = sub[i];
			double x = (double)kernel_pos(&ks, s->pt[s->cp[c].index].kernel) - 0.5;

			fprintf(p.gp, "set arrow from %.1f, graph 0 to %.1f, graph 1 nohead dt 2 "
				"lc rgb '%s'\n", x, x, s->cp[c].v == V_WORSE ? "#cc0000" : "#008800");
		}
	fputs("plot ", p.gp);
	for (i = 0; i < n; i++) {
		FILE *d = plot_data(&p, name, sizeof(name));

		if (!d)
			break;
		for (k = 0; k < sub[i]->npt; k++) {
			const struct hs_point *pt = &sub[i]->pt[k];

			fprintf(d, "%zu %.3f %.3f %.3f\n", kernel_pos(&ks, pt->kernel),
				pt->med / 1e3, pt->lo / 1e3, pt->hi / 1e3);
		}
		fclose(d);
		fprintf(p.gp, "%s'%s' using 1:3:4 with filledcurves lc %zu notitle, '%s' using "
			"1:2 with linespoints lw 2 pt 7 lc %zu title ", i ? ", " : "", name, i + 1,
			name, i + 1);
		plot_str(p.gp, sub[i]->host);
	}
	fputc('\n', p.gp);
	free(ks.k);
	return plot_end(&p, errbuf);
}

int hs_plot(const struct hs_set *set, const char *dir, size_t *nplots, char *errbuf)
{
	const struct hs_series **sub;
	size_t i, j, n;
	int ret = 0;

	*nplots = 0;
	sub = malloc((set->n ? set->n : 1) * sizeof(*sub));
	if (!sub)
		return errno_msg(errbuf, -ENOMEM, "out of memory");
	for (i = 0; !ret && i < set->n; i++) {
		/* the first series of its plot gathers the others (series are host-major) */
		for (j = 0; j < i && !same_plot(&set->s[j], &set->s[i]); j++)
			;
		if (j < i)
			continue;
		for (j = i, n = 0; j < set->n; j++)
			if (same_plot(&set->s[i], &set->s[j]))
				sub[n++] = &set->s[j];
		ret = plot_one(sub, n, dir, errbuf);
		*nplots += !ret;
	}
	free(sub);
	return ret;
}
