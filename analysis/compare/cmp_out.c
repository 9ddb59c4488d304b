// SPDX-License-Identifier: GPL-2.0
/*
 * cmp_out.c - print and write compare results (see cmp_out.h).
 */
#include "cmp_out.h"

#include <errno.h>
#include <math.h>
#include <string.h>

#include "doc.h"

/* Verdicts in the order the outputs list them: what needs attention first. */
static const enum verdict verdict_order[] = {
	V_WORSE, V_BETTER, V_LOSSY, V_INCOMPLETE, V_CANNOT_TELL, V_NO_CHANGE, V_INFO,
};

const char *cmp_interval(const struct judgement *j, char *buf, size_t len)
{
	if (isnan(j->lo))
		snprintf(buf, len, "-");
	else
		snprintf(buf, len, "[%.3g, %.3g]", j->lo, j->hi);
	return buf;
}

static void summary_line(FILE *f, const struct cmp_result *r)
{
	fprintf(f, "%zu worse, %zu better, %zu no change, %zu cannot tell, %zu lossy, "
		"%zu incomplete", r->count[V_WORSE], r->count[V_BETTER], r->count[V_NO_CHANGE],
		r->count[V_CANNOT_TELL], r->count[V_LOSSY], r->count[V_INCOMPLETE]);
}

static int id_width(const struct cmp_result *r)
{
	size_t i, w = 6;

	for (i = 0; i < r->nrows; i++)
		if (strlen(r->rows[i].id) > w)
			w = strlen(r->rows[i].id);
	return (int)w;
}

void cmp_print(FILE *f, const struct cmp_ctx *c)
{
	const struct cmp_result *r = c->res;
	char b[32], n[32], ra[32], ci[48];
	int w = id_width(r);
	size_t i, o;

	fprintf(f, "base: %s (%s)\nnew:  %s (%s)\n", c->base->dir, c->base->meta[RM_KERNEL],
		c->new->dir, c->new->meta[RM_KERNEL]);
	for (i = 0; i < r->nenv; i++)
		fprintf(f, "differs: %s: '%s' -> '%s'\n", r->env[i].field, r->env[i].base,
			r->env[i].new);
	fprintf(f, "\n%-10s %-16s %-*s %10s %10s %6s %-14s %5s  %s\n", "workload", "config",
		w, "metric", "base(us)", "new(us)", "ratio", "interval", "reps", "verdict");
	for (o = 0; o < ARRAY_SIZE(verdict_order); o++)
		for (i = 0; i < r->nrows; i++) {
			const struct cmp_row *x = &r->rows[i];

			if (x->j.v != verdict_order[o])
				continue;
			fprintf(f, "%-10s %-16s %-*s %10s %10s %6s %-14s %2zu/%-2zu  %s%s%s\n",
				x->workload, x->config, w, x->id, fmt_us(x->base_med, b, sizeof(b)),
				fmt_us(x->new_med, n, sizeof(n)), fmt_ratio(x->j.ratio, ra, sizeof(ra)),
				cmp_interval(&x->j, ci, sizeof(ci)), x->nb, x->nn,
				verdict_names[x->j.v], x->j.v == V_INFO ? "" : ": ",
				x->j.v == V_INFO ? "" : x->j.why);
		}
	fprintf(f, "\n");
	summary_line(f, r);
	fprintf(f, "; %zu metrics left out (too few samples beyond the percentile in the "
		"repetitions of both sides)\n", r->nsparse);
	fprintf(f, "%.3g%% confidence over %zu judged metrics: each interval at %.5g%% "
		"(Bonferroni); threshold %.3g%%\n", c->opts->j.confidence * 100, r->njudged,
		r->metric_confidence * 100, c->opts->j.threshold * 100);
}

static void md_rules(struct doc *d, const struct cmp_ctx *c)
{
	const struct judge_opts *j = &c->opts->j;
	double up = 1 + j->threshold, down = 1 / (1 + j->threshold);

	doc_h(d, 2, "How the verdicts were reached");
	doc_li(d, "Each repetition gives one value per metric (its own p50, p99, ...); the "
	       "ratio is median(new values) / median(base values).");
	doc_li(d, "Interval: the hull of Welch's t-interval on the log values and the "
	       "percentile bootstrap of the ratio of medians (%u resamples, seed %#llx), at "
	       "%.0f%% confidence for the comparison as a whole: with %zu judged metrics each "
	       "interval is at %.5f%% (Bonferroni).", j->iters, (unsigned long long)j->seed,
	       j->confidence * 100, c->res->njudged, c->res->metric_confidence * 100);
	doc_li(d, "worse: the whole interval above %.3g; better: the whole interval below "
	       "%.3g; no change: the whole interval within [%.3g, %.3g]; anything else: "
	       "cannot tell. The threshold is %.3g%%.", up, down, down, up,
	       j->threshold * 100);
	doc_li(d, "A repetition counts for a percentile only with at least %u samples beyond "
	       "it; at least %u such repetitions are needed on each side, else cannot tell.",
	       j->min_tail, j->min_reps);
	doc_li(d, "Cells with lost trace events are not compared on softirq/workqueue/wakeup "
	       "metrics; cells that did not finish are not compared at all. max and the "
	       "thread wakeup p99s are shown, not judged, unless --metric selects them.");
	doc_li(d, "p (Mann-Whitney, two-sided, on the repetition values) is for information.");
}

static void md_env(struct doc *d, const struct cmp_result *r)
{
	static const char *const hdr[] = { "field", "base", "new" };
	size_t i;

	doc_h(d, 2, "Differences between the runs");
	if (!r->nenv) {
		doc_p(d, "None in kernel, command line, CPU, scenario or knob values.");
		return;
	}
	doc_table(d, hdr, 3);
	for (i = 0; i < r->nenv; i++)
		doc_row(d, (const char *const[]){ r->env[i].field, r->env[i].base,
			r->env[i].new }, 3);
	doc_table_end(d);
}

static void fmt_vals(const double *v, size_t n, char *buf, size_t len)
{
	size_t i, off = 0;
	char u[32];

	buf[0] = '\0';
	for (i = 0; i < n && i < CMP_SHOW_REPS && off < len; i++)
		off += snprintf(buf + off, len - off, "%s%s", i ? " " : "",
				fmt_us(v[i], u, sizeof(u)));
}

static void md_rows(struct doc *d, const struct cmp_result *r)
{
	static const char *const hdr[] = { "workload", "config", "metric", "base (us)",
		"new (us)", "ratio", "interval", "p", "base reps (us)", "new reps (us)",
		"verdict", "why" };
	char b[32], n[32], ra[32], ci[48], p[32], bv[256], nv[256];
	size_t i, o;

	doc_table(d, hdr, ARRAY_SIZE(hdr));
	for (o = 0; o < ARRAY_SIZE(verdict_order); o++)
		for (i = 0; i < r->nrows; i++) {
			const struct cmp_row *x = &r->rows[i];

			if (x->j.v != verdict_order[o])
				continue;
			snprintf(p, sizeof(p), isnan(x->j.p) ? "-" : "%.3g", x->j.p);
			fmt_vals(x->bv, x->nb, bv, sizeof(bv));
			fmt_vals(x->nv, x->nn, nv, sizeof(nv));
			doc_row(d, (const char *const[]){ x->workload, x->config, x->id,
				fmt_us(x->base_med, b, sizeof(b)), fmt_us(x->new_med, n, sizeof(n)),
				fmt_ratio(x->j.ratio, ra, sizeof(ra)),
				cmp_interval(&x->j, ci, sizeof(ci)), p, bv, nv,
				verdict_names[x->j.v], x->j.v == V_INFO ? "" : x->j.why },
				ARRAY_SIZE(hdr));
		}
	doc_table_end(d);
}

int cmp_write_md(const char *path, const struct cmp_ctx *c)
{
	const struct cmp_result *r = c->res;
	struct doc d;
	char line[256];
	FILE *mem;
	int ret;

	ret = doc_open(&d, path, NULL, "deferbench compare");
	if (ret)
		return ret;
	doc_li(&d, "base: %s (kernel %s, scenario %s)", c->base->dir,
	       c->base->meta[RM_KERNEL], c->base->scenario);
	doc_li(&d, "new: %s (kernel %s, scenario %s)", c->new->dir, c->new->meta[RM_KERNEL],
	       c->new->scenario);
	mem = fmemopen(line, sizeof(line), "w");
	if (mem) {
		summary_line(mem, r);
		fclose(mem);
		doc_li(&d, "result: %s%s", cmp_regressed(r) ? "REGRESSION: " : "", line);
	}
	doc_li(&d, "%zu workload x configuration pairs matched; %zu metrics left out for too "
	       "few samples", r->matched, r->nsparse);
	md_env(&d, r);
	doc_h(&d, 2, "Metrics");
	md_rows(&d, r);
	md_rules(&d, c);
	return doc_close(&d);
}

static void junit_case(FILE *f, const struct cmp_row *x)
{
	char b[32], n[32], ra[32], ci[48];

	fputs("    <testcase classname=\"deferbench.", f);
	xml_escape(f, x->workload);
	fputc('.', f);
	xml_escape(f, x->config);
	fputs("\" name=\"", f);
	xml_escape(f, x->id);
	fputs("\">\n", f);
	if (x->j.v == V_WORSE || x->j.v == V_CANNOT_TELL || x->j.v == V_LOSSY ||
	    x->j.v == V_INCOMPLETE) {
		fprintf(f, "      <%s message=\"", x->j.v == V_WORSE ? "failure" : "skipped");
		xml_escape(f, verdict_names[x->j.v]);
		fputs(": ", f);
		xml_escape(f, x->j.why);
		fputs("\"/>\n", f);
	}
	fprintf(f, "      <system-out>base %s us, new %s us, ratio %s, interval %s, %s</system-out>\n",
		fmt_us(x->base_med, b, sizeof(b)), fmt_us(x->new_med, n, sizeof(n)),
		fmt_ratio(x->j.ratio, ra, sizeof(ra)), cmp_interval(&x->j, ci, sizeof(ci)),
		verdict_names[x->j.v]);
	fputs("    </testcase>\n", f);
}

int cmp_write_junit(const char *path, const struct cmp_ctx *c)
{
	const struct cmp_result *r = c->res;
	size_t i, tests = 0, skipped;
	FILE *f;
	int ret = 0;

	for (i = 0; i < r->nrows; i++)
		tests += r->rows[i].judged;
	skipped = r->count[V_CANNOT_TELL] + r->count[V_LOSSY] + r->count[V_INCOMPLETE];
	f = fopen(path, "w");
	if (!f)
		return -errno;
	fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
		"<testsuites name=\"deferbench compare\" tests=\"%zu\" failures=\"%zu\" "
		"skipped=\"%zu\">\n  <testsuite name=\"deferbench\" tests=\"%zu\" "
		"failures=\"%zu\" skipped=\"%zu\">\n", tests, r->count[V_WORSE], skipped, tests,
		r->count[V_WORSE], skipped);
	for (i = 0; i < r->nrows; i++)
		if (r->rows[i].judged)
			junit_case(f, &r->rows[i]);
	fputs("  </testsuite>\n</testsuites>\n", f);
	if (ferror(f))
		ret = -EIO;
	if (fclose(f) && !ret)
		ret = -errno;
	return ret;
}
