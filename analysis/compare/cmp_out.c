// SPDX-License-Identifier: GPL-2.0
/*
 * cmp_out.c - print and write compare results (see cmp_out.h).
 */
#include "cmp_out.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "doc.h"
#include "outw.h"
#include "common.h"

/* Verdicts in the order the outputs list them: what needs attention first. */
static const enum verdict verdict_order[] = {
	V_WORSE, V_BETTER, V_HIGHER, V_LOWER, V_NO_CHANGE, V_LOSSY, V_INCOMPLETE,
	V_CANNOT_TELL, V_INFO,
};

const char *cmp_interval(const struct judgement *j, char *buf, size_t len)
{
	if (isnan(j->lo))
		snprintf(buf, len, "-");
	else
		snprintf(buf, len, "[%.3g, %.3g]", j->lo, j->hi);
	return buf;
}

const char *cmp_margin(const struct judgement *j, char *buf, size_t len)
{
	if (isnan(j->margin))
		snprintf(buf, len, "-");
	else
		snprintf(buf, len, j->margin >= 1 ? "%.0f%%%s" : "%.3g%%%s", j->margin * 100,
			 j->margin_default ? "d" : j->runs_unit ? "r" : j->margin_floor ? "f" : "");
	return buf;
}

const char *cmp_detects(const struct judgement *j, char *buf, size_t len)
{
	if (isnan(j->mdc))
		snprintf(buf, len, "-");
	else
		snprintf(buf, len, j->mdc >= 1 ? "%.0f%%" : "%.3g%%", j->mdc * 100);
	return buf;
}

static void counts_line(FILE *f, const char *what, const size_t *c, size_t judged,
			size_t unjudged)
{
	fprintf(f, "%s: %zu worse, %zu better, %zu higher, %zu lower, %zu no change, %zu cannot "
		"tell (%zu judged", what, c[V_WORSE], c[V_BETTER], c[V_HIGHER], c[V_LOWER],
		c[V_NO_CHANGE], c[V_CANNOT_TELL], judged);
	if (unjudged)
		fprintf(f, ", %zu not judged", unjudged);
	fputc(')', f);
}

static void summary_line(FILE *f, const struct cmp_result *r)
{
	counts_line(f, "primary", r->count, r->nprimary, r->unjudged);
	fprintf(f, "; ");
	counts_line(f, "advisory", r->advisory, r->nadvisory, 0);
	if (r->count[V_LOSSY] || r->count[V_INCOMPLETE])
		fprintf(f, "; %zu lossy, %zu incomplete", r->count[V_LOSSY],
			r->count[V_INCOMPLETE]);
}

static int id_width(const struct cmp_result *r)
{
	size_t i, w = 6;

	for (i = 0; i < r->nrows; i++)
		if (strlen(r->rows[i].id) > w)
			w = strlen(r->rows[i].id);
	return (int)w;
}

/*
 * rows_in_order - calls fn for each row: by verdict, the decided ones first (worse,
 * better, then the flags and the undecided), primary before advisory within each
 */
static void rows_in_order(const struct cmp_result *r,
			  void (*fn)(const struct cmp_row *x, void *ctx), void *ctx)
{
	size_t i, o;
	int fam;

	for (o = 0; o < ARRAY_SIZE(verdict_order); o++)
		for (fam = 0; fam < 2; fam++)
			for (i = 0; i < r->nrows; i++) {
				const struct cmp_row *x = &r->rows[i];

				if (x->j.v == verdict_order[o] && (x->primary == !fam))
					fn(x, ctx);
			}
}

struct print_ctx {
	FILE *f;
	int w;
	bool wide;
};

#define NARROW_ID 30		/* the metric id's width in 100 columns */
#define NARROW_COLS 100

/* print_narrow - a row in 100 columns: no interval, repetitions or why; a cut id ends in ~ */
static void print_narrow(const struct cmp_row *x, struct print_ctx *p)
{
	char b[32], n[32], ra[32], m[32], id[NARROW_ID + 1];
	size_t len = strlen(x->id);

	if (len > (size_t)p->w)
		snprintf(id, sizeof(id), "%.*s~", p->w - 1, x->id);
	else
		snprintf(id, sizeof(id), "%.*s", NARROW_ID, x->id);
	fprintf(p->f, "%-8.8s %-12.12s %c %-*s %8s %8s %6s %6s %s\n", x->workload, x->config,
		x->primary ? '*' : ' ', p->w, id, fmt_us(x->j.base, b, sizeof(b)),
		fmt_us(x->j.new, n, sizeof(n)), fmt_ratio(x->j.ratio, ra, sizeof(ra)),
		cmp_margin(&x->j, m, sizeof(m)), judge_verdict_names[x->j.v]);
}

static void print_row(const struct cmp_row *x, void *ctx)
{
	char b[32], n[32], ra[32], ci[48], m[32], dt[32];
	struct print_ctx *p = ctx;

	if (!p->wide) {
		print_narrow(x, p);
		return;
	}
	fprintf(p->f, "%-10s %-16s %c %-*s %10s %10s %6s %-16s %7s %7s %5u/%-3u %s%s%s\n",
		x->workload, x->config, x->primary ? '*' : ' ', p->w, x->id,
		fmt_us(x->j.base, b, sizeof(b)), fmt_us(x->j.new, n, sizeof(n)),
		fmt_ratio(x->j.ratio, ra, sizeof(ra)), cmp_interval(&x->j, ci, sizeof(ci)),
		cmp_margin(&x->j, m, sizeof(m)), cmp_detects(&x->j, dt, sizeof(dt)), x->j.nb,
		x->j.nn, judge_verdict_names[x->j.v],
		x->j.v == V_INFO ? "" : ": ", x->j.v == V_INFO ? "" : x->j.why);
}

/* margin_text - where the margin of two separate runs comes from, in a sentence */
static const char *margin_text(const struct judge_opts *j, bool between_runs)
{
	if (j == NULL)
		return "two sets of runs: the runs are the unit (r), each metric's change tested "
		       "against the sets' own spread between runs (Student's t)";
	if (!between_runs)
		return "both sides from one run: their blocks or repetitions are the unit";
	if (j->noise)
		return "two separate runs: the runs are the unit (r), each metric's change "
		       "tested against the spread between runs calibrated in the noise file "
		       "(Student's t); metrics it lacks count as uncalibrated (d)";
	return "two separate runs and no calibration: their spread is unknown, so no "
	       "\"no change\" is claimed, and worse or better only beyond the uncalibrated "
	       "floor (d) of x2 on p50/p90 and x6 above (see 'deferbench baseline calibrate', "
	       "or compare sets of runs)";
}

/* method_line - the rules in one sentence, for the terminal */
static void method_line(FILE *f, const struct cmp_ctx *c)
{
	const struct judge_opts *j = &c->opts->j;

	fprintf(f, "worse/better/higher/lower: family-wise error %.3g per family (Holm over "
		"every metric judged%s), no change: %.3g each; bootstrap, %u replicates read "
		"with Student's t for few repetitions (blocks of an alternating run in pairs, "
		"p99s also label-swap tested); margin %.3g%%: %s%s%s\n",
		1 - j->confidence, j->looks > 1 ? ", split over the looks of an adaptive run" : "",
		(1 - j->confidence) / (j->looks > 1 ? j->looks : 1), j->iters, j->threshold * 100,
		margin_text(c->sets_note ? NULL : j, c->res->between_runs),
		j->noise && !c->sets_note ? " - " : "", j->noise && !c->sets_note ?
		j->noise->path : "");
}

/* put_wrapped - text in lines of at most NARROW_COLS, cut at spaces (wide: as it is) */
static void put_wrapped(FILE *f, const char *s, bool wide)
{
	const char *line = s, *sp, *cut;
	size_t width = NARROW_COLS;

	if (wide) {
		fputs(s, f);
		return;
	}
	while (*line) {
		const char *nl = strchr(line, '\n');
		size_t len = nl ? (size_t)(nl - line) : strlen(line);

		if (len <= width) {
			fwrite(line, 1, len, f);
			fputc('\n', f);
			line += len + (nl ? 1 : 0);
			width = NARROW_COLS;
			continue;
		}
		for (cut = NULL, sp = line; sp < line + width; sp++)
			if (*sp == ' ')
				cut = sp;
		if (!cut)
			cut = line + width;
		fwrite(line, 1, (size_t)(cut - line), f);
		/* the rest of the line, indented under it */
		fputs("\n  ", f);
		width = NARROW_COLS - 2;
		line = *cut == ' ' ? cut + 1 : cut;
	}
}

void cmp_print(FILE *f, const struct cmp_ctx *c)
{
	const struct cmp_result *r = c->res;
	struct print_ctx p = { f, id_width(r), c->wide };
	size_t i;

	fprintf(f, "base: %s (%s)\nnew:  %s (%s)\n", c->base->dir, c->base->meta[RM_KERNEL],
		c->new->dir, c->new->meta[RM_KERNEL]);
	if (c->sets_note)
		fprintf(f, "sets: %s; base and new above are the first of each\n", c->sets_note);
	for (i = 0; i < r->nenv; i++)
		fprintf(f, "differs: %s: '%s' -> '%s'\n", r->env[i].field, r->env[i].base,
			r->env[i].new);
	if (p.wide) {
		fprintf(f, "\n%-10s %-16s %c %-*s %10s %10s %6s %-16s %7s %7s %9s  %s\n",
			"workload", "config", 'P', p.w, "metric", "base(us)", "new(us)", "ratio",
			"interval", "margin", "detects", "reps", "verdict");
	} else {
		if (p.w > NARROW_ID)
			p.w = NARROW_ID;
		fprintf(f, "\n%-8s %-12s %c %-*s %8s %8s %6s %6s %s\n", "workload", "config",
			'P', p.w, "metric", "base(us)", "new(us)", "ratio", "margin", "verdict");
	}
	rows_in_order(r, print_row, &p);
	if (!p.wide)
		fprintf(f, "(the interval, repetitions and why of each verdict: --wide, or "
			"compare.md)\n");
	cmp_moved_print(f, r);
	fprintf(f, "\n");
	{
		char *text = NULL;
		size_t len = 0;
		FILE *m = open_memstream(&text, &len);

		/* the counts line stays one line, for scripts; without memory, the
		 * rest goes unwrapped */
		summary_line(f, r);
		fputc('\n', f);
		fprintf(m ? m : f, "%zu metrics left out (too few samples beyond the percentile "
			"on both sides); P = primary (decides the exit status)\n", r->nsparse);
		method_line(m ? m : f, c);
		if (m && !fclose(m))
			put_wrapped(f, text, c->wide);
		free(text);
	}
}

static void md_rules(struct doc *d, const struct cmp_ctx *c)
{
	const struct judge_opts *j = &c->opts->j;

	doc_h(d, 2, "How the verdicts were reached");
	doc_li(d, "Each statistic (p50, p99, ...) is read from the histograms of all of a "
	       "side's repetitions and intervals merged; ratio = new / base.");
	doc_li(d, "Its uncertainty comes from a two-level bootstrap (%u replicates, seed "
	       "%#llx): repetitions resampled with replacement, then each chosen repetition's "
	       "intervals in circular blocks of about cbrt(n); the interval shown is the "
	       "percentile interval at the level the metric was held to (1 - 2 x level).",
	       j->iters, (unsigned long long)j->seed);
	doc_li(d, "Against a margin delta: worse when the whole interval is above 1 + delta, "
	       "better when below 1 / (1 + delta), no change when it lies inside both (an "
	       "equivalence test); higher or lower when it excludes 1 but not the margin (a "
	       "decided direction, by an amount that may lie within the margin); otherwise "
	       "cannot tell, with the repetitions or blocks that would decide it.");
	doc_li(d, "Few repetitions or blocks: the replicates are read expanded (Hesterberg "
	       "2015), with Student's t on n - 1 degrees of freedom; a p99 or beyond of "
	       "paired blocks also needs a label-swap randomization test, and names how many "
	       "blocks its tail came from.");
	doc_li(d, "detects: the smallest change the comparison would have decided at its "
	       "length, alone in its family at the level of its first member, (1 + delta) x "
	       "exp(w) - 1, w half the width of the log ratio's interval there; a change that "
	       "large is decided about half the time.");
	if (c->sets_note)
		doc_li(d, "sets: %s.", c->sets_note);
	doc_li(d, "delta: the threshold, %.3g%%. %s%s%s.", j->threshold * 100,
	       margin_text(c->sets_note ? NULL : j, c->res->between_runs),
	       j->noise ? ": " : "", j->noise ? j->noise->path : "");
	doc_li(d, "Every metric judged is one hypothesis of its family, whatever its data: "
	       "Holm's step-down keeps the chance of any wrong worse, better, higher or lower "
	       "at %.3g per family (primary metrics, which decide the exit status, and "
	       "advisory ones). A no change stands on its own at %.3g: it risks only missing "
	       "a change beyond the margin%s.", 1 - j->confidence,
	       (1 - j->confidence) / (j->looks > 1 ? j->looks : 1),
	       j->looks > 1 ? "; an adaptive run's looks each get an equal share" : "");
	doc_li(d, "A side needs %u repetitions with data and %u samples beyond the "
	       "percentile. Cells with lost trace events are not compared on softirq, "
	       "workqueue or wakeup metrics; cells that did not finish are not compared. max "
	       "and thread wakeup p99 are shown, not judged.", j->min_reps, j->min_tail);
	doc_li(d, "Variance components (log scale, Kalibera and Jones): between = how much "
	       "repetitions differ beyond their own noise, within = a repetition's noise "
	       "from its intervals. A repetition whose intervals shift level (a change "
	       "point: warm-up, drift) is named in the reason.");
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

static void fmt_var(const struct hb_var *v, char *buf, size_t len)
{
	if (!v->reps)
		snprintf(buf, len, "-");
	else
		snprintf(buf, len, "%.2g / %.2g", v->between, v->within);
}

/* the columns of compare.md's table of metrics, one md_row each */
static const char *const md_hdr[] = { "workload", "config", "P", "metric", "base (us)",
	"new (us)", "ratio", "interval", "margin", "detects", "p", "level", "reps",
	"base reps (us)", "new reps (us)", "var base", "var new", "verdict", "why" };

static void md_row(const struct cmp_row *x, void *ctx)
{
	char b[32], n[32], ra[32], ci[48], m[32], dt[32], p[32], l[32], reps[32], bv[256];
	char nv[256], vb[48], vn[48];
	struct doc *d = ctx;

	snprintf(p, sizeof(p), isnan(x->j.p) ? "-" : "%.3g", x->j.p);
	snprintf(l, sizeof(l), isnan(x->j.level) ? "-" : "%.3g", x->j.level);
	snprintf(reps, sizeof(reps), "%u / %u", x->j.nb, x->j.nn);
	fmt_vals(x->bv, x->nb, bv, sizeof(bv));
	fmt_vals(x->nv, x->nn, nv, sizeof(nv));
	fmt_var(&x->j.vb, vb, sizeof(vb));
	fmt_var(&x->j.vn, vn, sizeof(vn));
	doc_row(d, (const char *const[]){ x->workload, x->config, x->primary ? "*" : "", x->id,
		fmt_us(x->j.base, b, sizeof(b)), fmt_us(x->j.new, n, sizeof(n)),
		fmt_ratio(x->j.ratio, ra, sizeof(ra)), cmp_interval(&x->j, ci, sizeof(ci)),
		cmp_margin(&x->j, m, sizeof(m)), cmp_detects(&x->j, dt, sizeof(dt)), p, l, reps,
		bv, nv, vb, vn, judge_verdict_names[x->j.v], x->j.v == V_INFO ? "" : x->j.why },
		ARRAY_SIZE(md_hdr));
}

static void md_rows(struct doc *d, const struct cmp_result *r)
{
	doc_table(d, md_hdr, ARRAY_SIZE(md_hdr));
	rows_in_order(r, md_row, d);
	doc_table_end(d);
}

int cmp_write_md(const char *path, const struct cmp_ctx *c)
{
	const struct cmp_result *r = c->res;
	struct doc d;
	char line[256];
	FILE *mem;
	int ret;

	ret = doc_open(&d, path, NULL, "deferbench compare", NULL);
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
	       "few samples; P marks the primary metrics, which decide the exit status",
	       r->matched, r->nsparse);
	md_env(&d, r);
	doc_h(&d, 2, "Metrics");
	md_rows(&d, r);
	cmp_moved_md(&d, r);
	md_rules(&d, c);
	return doc_close(&d);
}

static void junit_case(FILE *f, const struct cmp_row *x, bool fail_higher)
{
	char b[32], n[32], ra[32], ci[48], m[32];

	fputs("    <testcase classname=\"deferbench.", f);
	doc_xml_escape(f, x->workload);
	fputc('.', f);
	doc_xml_escape(f, x->config);
	fputs("\" name=\"", f);
	doc_xml_escape(f, x->id);
	fputs("\">\n", f);
	if (x->j.v == V_WORSE || x->j.v == V_CANNOT_TELL || x->j.v == V_LOSSY ||
	    x->j.v == V_INCOMPLETE || (x->j.v == V_HIGHER && fail_higher)) {
		fprintf(f, "      <%s message=\"", x->j.v == V_WORSE || x->j.v == V_HIGHER ?
			"failure" : "skipped");
		doc_xml_escape(f, x->j.v == V_CANNOT_TELL ? "undecided" :
				  judge_verdict_names[x->j.v]);
		fputs(": ", f);
		doc_xml_escape(f, x->j.why);
		fputs("\"/>\n", f);
	}
	fprintf(f, "      <system-out>base %s us, new %s us, ratio %s, interval %s, margin %s, "
		"%s</system-out>\n", fmt_us(x->j.base, b, sizeof(b)),
		fmt_us(x->j.new, n, sizeof(n)), fmt_ratio(x->j.ratio, ra, sizeof(ra)),
		cmp_interval(&x->j, ci, sizeof(ci)), cmp_margin(&x->j, m, sizeof(m)),
		judge_verdict_names[x->j.v]);
	fputs("    </testcase>\n", f);
}

/* in_junit - the primary metrics, and the whole-cell rows (lossy, incomplete) */
static bool in_junit(const struct cmp_row *x)
{
	return x->primary || !x->key.name[0];
}

int cmp_write_junit(const char *path, const struct cmp_ctx *c)
{
	const struct cmp_result *r = c->res;
	size_t i, tests = 0, skipped, failures = r->count[V_WORSE];

	if (c->fail_higher)
		failures += r->count[V_HIGHER];
	FILE *f;
	int ret = 0;

	for (i = 0; i < r->nrows; i++)
		tests += in_junit(&r->rows[i]);
	skipped = r->count[V_CANNOT_TELL] + r->count[V_LOSSY] + r->count[V_INCOMPLETE];
	f = out_fopen(path);
	if (!f)
		return -errno;
	fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
		"<testsuites name=\"deferbench compare\" tests=\"%zu\" failures=\"%zu\" "
		"skipped=\"%zu\">\n  <testsuite name=\"deferbench\" tests=\"%zu\" "
		"failures=\"%zu\" skipped=\"%zu\">\n", tests, failures, skipped, tests,
		failures, skipped);
	for (i = 0; i < r->nrows; i++)
		if (in_junit(&r->rows[i]))
			junit_case(f, &r->rows[i], c->fail_higher);
	fputs("  </testsuite>\n</testsuites>\n", f);
	if (ferror(f))
		ret = -EIO;
	if (fclose(f) && !ret)
		ret = -errno;
	return ret;
}
