// SPDX-License-Identifier: GPL-2.0
/*
 * rep_observer.c - the capture's effect on the workloads it measures. A run with
 * "control = yes" runs every repetition twice, traced and untraced, the order
 * alternating by repetition; compare_observer() judges the traced cells against the
 * untraced ones with the engine of 'deferbench compare'. Here: the Findings line, the
 * "Capture effect" section and tables/observer.csv.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "cmp_out.h"
#define DEFERBENCH_ALLOW_REPORT_INT_H
#include "report_int.h"
#include "msg.h"
#include "file.h"

static const char *const obs_cols[] = {
	"workload", "config", "metric", "primary", "untraced_ns", "traced_ns", "ratio",
	"lo", "hi", "margin", "verdict", "reps_untraced", "reps_traced", "why", "detects",
	NULL,
};

int rep_observer_load(struct report_ctx *r)
{
	struct cmp_opts co = { 0 };
	char err[ERRBUF_LEN];
	int ret;

	judge_opts_default(&co.j);
	ret = compare_observer(r->run, &co, &r->obs, err);
	if (ret == -ENOENT)
		return 0;
	if (ret) {
		r->obs_err = true;
		snprintf(r->obs_why, sizeof(r->obs_why), "%s", err);
		return ret == -ENOMEM ? ret : 0;
	}
	r->has_obs = true;
	return 0;
}

/* rep_observer_finding - one line: did tracing change what the workloads measure */
void rep_observer_finding(struct report_ctx *r)
{
	const struct cmp_result *o = &r->obs;
	char ra[32], ci[48], m[32], dt[96] = "", a[32], b[32];
	double lo = INFINITY, hi = -INFINITY;
	size_t i, moved = 0;

	if (r->run->is_record)
		return;
	if (r->obs_err) {
		doc_li(&r->doc, "capture effect: not judged: %s", r->obs_why);
		return;
	}
	if (!r->has_obs) {
		doc_li(&r->doc, "capture effect: not measured (the scenario ran no untraced "
		       "control cells; 'control = yes' in [global] runs them)");
		return;
	}
	for (i = 0; i < o->nrows; i++) {
		const struct cmp_row *x = &o->rows[i];

		if (x->primary && !isnan(x->j.mdc)) {
			lo = fmin(lo, x->j.mdc);
			hi = fmax(hi, x->j.mdc);
		}
		if (!x->primary || (x->j.v != V_WORSE && x->j.v != V_BETTER))
			continue;
		moved++;
		doc_li(&r->doc, "capture effect: WARNING: %s %s %s traced/untraced %s %s beyond "
		       "its margin %s: tracing changes what this workload measures, so its "
		       "traced figures carry the capture's cost", x->workload, x->config, x->id,
		       fmt_ratio(x->j.ratio, ra, sizeof(ra)), cmp_interval(&x->j, ci, sizeof(ci)),
		       cmp_margin(&x->j, m, sizeof(m)));
	}
	/* what "moved beyond its margin" could have caught at this length (no exponents) */
	if (lo <= hi)
		snprintf(dt, sizeof(dt), "; they detect %s-%s%%", aggr_fmt_pct(lo, a, sizeof(a)),
			 aggr_fmt_pct(hi, b, sizeof(b)));
	if (!moved)
		doc_li(&r->doc, "capture effect: no primary workload metric moved beyond its "
		       "margin with tracing on (%zu no change, %zu higher and %zu lower by "
		       "amounts that may lie within the margin, %zu cannot tell, of %zu "
		       "judged%s; section \"Capture effect\")", o->count[V_NO_CHANGE],
		       o->count[V_HIGHER], o->count[V_LOWER], o->count[V_CANNOT_TELL],
		       o->nprimary, dt);
}

static void obs_csv(struct csvw *w, const struct cmp_row *x)
{
	csvw_str(w, x->workload);
	csvw_str(w, x->config);
	csvw_str(w, x->id);
	csvw_u64(w, x->primary);
	rep_csv_ns(w, x->j.base);
	rep_csv_ns(w, x->j.new);
	csvw_dbl(w, x->j.ratio);
	csvw_dbl(w, x->j.lo);
	csvw_dbl(w, x->j.hi);
	csvw_dbl(w, x->j.margin);
	csvw_str(w, judge_verdict_names[x->j.v]);
	csvw_u64(w, x->j.nb);
	csvw_u64(w, x->j.nn);
	csvw_str(w, x->j.why);
	csvw_dbl(w, x->j.mdc);
	csvw_end(w);
}

static void obs_row(struct report_ctx *r, const struct cmp_row *x)
{
	char b[32], n[32], ra[32], ci[48], m[32], dt[32], reps[32];
	const char *cells[12];

	snprintf(reps, sizeof(reps), "%u/%u", x->j.nb, x->j.nn);
	cells[0] = x->workload;
	cells[1] = x->config;
	cells[2] = x->primary ? "*" : "";
	cells[3] = x->id;
	cells[4] = fmt_us(x->j.base, b, sizeof(b));
	cells[5] = fmt_us(x->j.new, n, sizeof(n));
	cells[6] = fmt_ratio(x->j.ratio, ra, sizeof(ra));
	cells[7] = cmp_interval(&x->j, ci, sizeof(ci));
	cells[8] = cmp_margin(&x->j, m, sizeof(m));
	cells[9] = cmp_detects(&x->j, dt, sizeof(dt));
	cells[10] = reps;
	cells[11] = judge_verdict_names[x->j.v];
	doc_row(&r->doc, cells, ARRAY_SIZE(cells));
}

/* rep_observer_section - every workload metric, traced against untraced */
void rep_observer_section(struct report_ctx *r)
{
	static const char *const hdr[] = {
		"workload", "config", "P", "metric", "untraced (us)", "traced (us)",
		"ratio", "interval", "margin", "detects", "reps", "verdict",
	};
	const struct cmp_result *o = &r->obs;
	char p[PATH_MAX];
	struct csvw w;
	bool paired = false;
	size_t i;
	int fam, ret;

	if (!r->has_obs)
		return;
	for (i = 0; i < o->nrows; i++)
		paired |= o->rows[i].j.paired;
	doc_h_id(&r->doc, 2, "capture-effect", "Capture effect");
	if (paired)
		doc_p(&r->doc, "Each segment also ran a capture-off arm: its reference "
		      "configuration with the capture's events paused, in every block beside "
		      "the traced arms. Each workload metric, traced against untraced, judged "
		      "block by block as 'deferbench compare' does (ratio = traced / untraced; "
		      "P = primary). A primary metric worse here means the capture's own cost "
		      "shows in the traced figures.");
	else
		doc_p(&r->doc, "Every repetition also ran untraced (a control cell: same "
		      "workload, configuration, seed and windows, no capture), in alternating "
		      "order. Each workload metric, traced against untraced, judged as "
		      "'deferbench compare' does (ratio = traced / untraced; P = primary). A "
		      "primary metric worse here means the capture's own cost shows in the "
		      "traced figures.");
	doc_table(&r->doc, hdr, ARRAY_SIZE(hdr));
	for (fam = 0; fam < 2; fam++)
		for (i = 0; i < o->nrows; i++)
			if (o->rows[i].key.name[0] && o->rows[i].primary == !fam)
				obs_row(r, &o->rows[i]);
	doc_table_end(&r->doc);

	ret = path_join(p, sizeof(p), r->tabledir, "observer.csv");
	ret = ret ?: csvw_open(&w, p);
	if (!ret) {
		csvw_header(&w, obs_cols);
		csvw_end(&w);
		for (i = 0; i < o->nrows; i++)
			if (o->rows[i].key.name[0])
				obs_csv(&w, &o->rows[i]);
		ret = csvw_close(&w);
	}
	if (ret && !r->err)
		r->err = errno_msg(r->errbuf, ret, "%s: %s", p, strerror(-ret));
}
