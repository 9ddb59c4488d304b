// SPDX-License-Identifier: GPL-2.0
/*
 * compare.c - match two runs cell by cell and judge each selected metric.
 */
#include "compare.h"

#include <errno.h>
#include <fnmatch.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "grow.h"
#include "msg.h"

const char *const cmp_default_patterns[] = {
	"workload:*:p50", "workload:*:p99",
	"softirq:*:delay:p50", "softirq:*:delay:p99",
	"wq:*:delay:p50", "wq:*:delay:p99",
	NULL
};

/*
 * Results written before workload.json named its primary metrics: the same choice the
 * workloads make today (the .primary of each workload_ops), by workload type.
 */
static const struct {
	const char *type;
	const char *const pat[4];
} fallback_primary[] = {
	{ "tty", { "workload:delivery:p99", "wq:*:flush_to_ldisc:delay:p99" } },
	{ "net", { "workload:rtt:p99", "softirq:NET_RX:delay:p99" } },
	{ "timer", { "workload:wakeup:p99", "workload:load_wakeup:p99",
		     "softirq:TIMER:delay:p99" } },
	{ "block", { "workload:op:p99", "wq:writeback:*:delay:p99", "wq:kblockd:*:delay:p99" } },
	{ "audio", { "workload:wakeup:p99", "workload:finish:p99" } },
};

/* One side of a comparison: each repetition's own value of a metric, for display. */
struct side {
	double v[STATS_MAX_N];
	size_t n;			/* usable values */
	size_t finished;		/* repetitions that finished */
	unsigned int lossy, incomplete;
};

/* A row's bootstrap replicates, kept until its family is decided. */
struct row_reps {
	double **d;
	size_t cap;
};

static void side_collect(const struct cellset *s, const struct metric_key *k,
			 unsigned int min_tail, struct side *out)
{
	uint64_t count;
	size_t i;
	double v;

	memset(out, 0, sizeof(*out));
	for (i = 0; s && i < s->n; i++) {
		const struct cell *c = s->cell[i];

		if (!c->ok) {
			out->incomplete++;
			continue;
		}
		out->finished++;
		out->lossy += c->rec.cap.lossy;
		if (k && !metric_value(&c->rec, k, &v, &count) &&
		    metric_usable(k->stat, count, min_tail))
			out->v[out->n++] = v;
	}
}

static struct cmp_row *row_new(struct cmp_result *res, const char *wl, const char *cfg)
{
	struct cmp_row *r;

	if (GROW(res->rows, res->caprows, res->nrows + 1))
		return NULL;
	r = &res->rows[res->nrows++];
	memset(r, 0, sizeof(*r));
	snprintf(r->workload, sizeof(r->workload), "%s", wl);
	snprintf(r->config, sizeof(r->config), "%s", cfg);
	r->judged = true;
	r->j.base = r->j.new = r->j.ratio = r->j.lo = r->j.hi = r->j.p = NAN;
	r->j.margin = r->j.level = r->j.mdc = NAN;
	r->j.more = -1;
	return r;
}

/* whole_row - one row standing for every metric of a cell that is not compared */
static int whole_row(struct cmp_result *res, const char *wl, const char *cfg,
		     const char *what, enum verdict v, const char *why)
{
	struct cmp_row *r = row_new(res, wl, cfg);

	if (!r)
		return -ENOMEM;
	snprintf(r->id, sizeof(r->id), "%s", what);
	r->j.v = v;
	snprintf(r->j.why, sizeof(r->j.why), "%s", why);
	res->count[v]++;
	return 0;
}

static void fill_values(struct cmp_row *r, const struct side *b, const struct side *n)
{
	r->nb = b->n;
	r->nn = n->n;
	memcpy(r->bv, b->v, b->n * sizeof(double));
	memcpy(r->nv, n->v, n->n * sizeof(double));
	r->lossy_base = b->lossy;
	r->lossy_new = n->lossy;
}

/* matches - id matches one of n fnmatch patterns */
static bool matches(const char *id, const char *const *pat, size_t n)
{
	size_t i;

	for (i = 0; i < n && pat[i]; i++)
		if (!fnmatch(pat[i], id, 0))
			return true;
	return false;
}

static bool in_list(const struct primary_list *l, const char *id)
{
	size_t i;

	for (i = 0; i < l->n; i++)
		if (!fnmatch(l->id[i], id, 0))
			return true;
	return false;
}

/*
 * is_primary - what decides the exit status: --metric patterns; else the scenario's
 * (cell.json) or the workload's (workload.json) list of the first finished repetition;
 * else, for older results, the fallback by workload type
 */
bool cmp_is_primary(const struct cmp_opts *o, const struct cellset *s, const char *id)
{
	const struct cell *c = NULL;
	size_t i;

	if (o && o->primary)
		return matches(id, o->primary, o->nprimary);
	for (i = 0; s && i < s->n && !c; i++)
		if (s->cell[i]->ok)
			c = s->cell[i];
	if (!c)
		return false;
	if (c->primary.n)
		return in_list(&c->primary, id);
	if (c->rec.wl.primary.n)
		return in_list(&c->rec.wl.primary, id);
	return cmp_type_primary(c->rec.wl.workload, id);
}

size_t cmp_primary_patterns(const struct cmp_opts *o, const struct cellset *s,
			    const char **out, size_t max)
{
	const struct cell *c = NULL;
	size_t i, n = 0;

	if (o && o->primary) {
		for (i = 0; i < o->nprimary && n < max; i++)
			out[n++] = o->primary[i];
		return n;
	}
	for (i = 0; s && i < s->n && !c; i++)
		if (s->cell[i]->ok)
			c = s->cell[i];
	if (!c)
		return 0;
	if (c->primary.n || c->rec.wl.primary.n) {
		const struct primary_list *l = c->primary.n ? &c->primary : &c->rec.wl.primary;

		for (i = 0; i < l->n && n < max; i++)
			out[n++] = l->id[i];
		return n;
	}
	for (i = 0; i < ARRAY_SIZE(fallback_primary); i++)
		if (!strcmp(c->rec.wl.workload, fallback_primary[i].type)) {
			size_t k;

			for (k = 0; k < ARRAY_SIZE(fallback_primary[i].pat) && n < max; k++)
				if (fallback_primary[i].pat[k])
					out[n++] = fallback_primary[i].pat[k];
		}
	return n;
}

bool cmp_type_primary(const char *type, const char *id)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(fallback_primary); i++)
		if (!strcmp(type, fallback_primary[i].type))
			return matches(id, fallback_primary[i].pat, ARRAY_SIZE(fallback_primary[i].pat));
	return false;
}

/*
 * sparse - a side whose repetitions lack samples for the statistic: fewer than min_reps
 * usable values, and not every finished repetition usable either (a run of one or two
 * repetitions that all have enough samples is shown, as "cannot tell", with its ratio)
 */
static bool sparse(const struct side *s, const struct cmp_opts *o)
{
	return s->n < o->j.min_reps && (s->n == 0 || s->n < s->finished);
}

static int keep_reps(struct row_reps *rr, size_t row, double *d)
{
	if (GROW(rr->d, rr->cap, row + 1))
		return -ENOMEM;
	rr->d[row] = d;
	return 0;
}

/*
 * set_figure - k's pooled figure in the cells of workload x configuration like of one
 * run (its groups cs), as a verdict reads it; 0 when the run has too few samples
 */
static double set_figure(const struct cellsets *cs, const struct cellset *like,
			 const struct metric_key *k, unsigned int min_tail)
{
	const struct cellset *s = cellsets_find(cs, like->workload, like->config);
	struct hist *h;
	double v = 0;

	if (!s || k->src == MS_WAKEUP || !(h = malloc(sizeof(*h))))
		return 0;
	hist_init(h);
	if (!cellset_pooled_verdict(s, k, h) && metric_usable(k->stat, h->count, min_tail))
		v = (double)hist_percentile_mid(h, metric_stat_q[k->stat]);
	free(h);
	return v;
}

/* sets_eval - one metric of two sets of runs: each run's figure, the runs the unit */
static int sets_eval(const struct cmp_sets *sets, const struct cellset *bs,
		     const struct metric_key *k, const struct cmp_opts *o, struct cmp_row *r)
{
	double vb[STATS_MAX_N], vn[STATS_MAX_N];
	size_t i;
	int ret;

	for (i = 0; i < sets->nb; i++)
		vb[i] = set_figure(&sets->bcs[i], bs, k, o->j.min_tail);
	for (i = 0; i < sets->nn; i++)
		vn[i] = set_figure(&sets->ncs[i], bs, k, o->j.min_tail);
	ret = judge_eval_sets(vb, sets->nb, vn, sets->nn, sets->paired, o->j.threshold, &o->j,
			      &r->j);
	/* the values shown are the runs' figures */
	for (i = r->nb = 0; i < sets->nb; i++)
		if (vb[i] > 0)
			r->bv[r->nb++] = vb[i];
	for (i = r->nn = 0; i < sets->nn; i++)
		if (vn[i] > 0)
			r->nv[r->nn++] = vn[i];
	return ret;
}

/* id_of - k's metric id (a static buffer: one use at a time) */
static const char *id_of(const struct metric_key *k)
{
	static char id[METRIC_ID_LEN];

	metric_id(k, id, sizeof(id));
	return id;
}

/*
 * unjudged_row - a primary metric that could not be judged at all (too few samples
 * beyond its percentile on both sides): listed, counted, never left out quietly, so
 * that a CI job does not pass on a metric nobody judged
 */
static int unjudged_row(struct cmp_result *res, const struct cellset *bs,
			const struct metric_key *k, const struct side *b, const struct side *n,
			const struct cmp_opts *o)
{
	struct cmp_row *r = row_new(res, bs->workload, bs->config);

	if (!r)
		return -ENOMEM;
	r->key = *k;
	metric_id(k, r->id, sizeof(r->id));
	fill_values(r, b, n);
	r->primary = true;
	r->j.v = V_CANNOT_TELL;
	r->j.nb = (uint32_t)b->n;
	r->j.nn = (uint32_t)n->n;
	snprintf(r->j.why, sizeof(r->j.why), "not judged: %zu of %zu base and %zu of %zu new "
		 "repetitions have the %u samples beyond the percentile a figure needs (%u "
		 "such repetitions needed on a side)", b->n, b->finished, n->n, n->finished,
		 o->j.min_tail, o->j.min_reps);
	res->unjudged++;
	return 0;
}

/*
 * unmeasured_rows - primary metric patterns of a workload x configuration that no
 * metric of either run matched: listed as not judged, with the pattern for an id
 */
static int unmeasured_rows(struct cmp_result *res, const struct cellset *bs,
			   const struct keylist *kl, const struct cmp_opts *o)
{
	const char *const *pat;
	const char *list[PRIMARY_MAX];
	char id[METRIC_ID_LEN];
	size_t npat, i, k;

	/* --metric patterns span every workload: a typo is check_selection's to name */
	if (o->primary)
		return 0;
	npat = cmp_primary_patterns(o, bs, list, PRIMARY_MAX);
	pat = list;
	for (i = 0; i < npat; i++) {
		struct cmp_row *r;
		bool hit = false;

		for (k = 0; k < kl->n && !hit; k++) {
			metric_id(&kl->k[k], id, sizeof(id));
			hit = !fnmatch(pat[i], id, 0);
		}
		if (hit)
			continue;
		r = row_new(res, bs->workload, bs->config);
		if (!r)
			return -ENOMEM;
		snprintf(r->id, sizeof(r->id), "%s", pat[i]);
		snprintf(r->key.name, sizeof(r->key.name), "%s", "(unmeasured)");
		r->primary = true;
		r->j.v = V_CANNOT_TELL;
		snprintf(r->j.why, sizeof(r->j.why), "not judged: no metric of either run "
			 "matches this primary metric");
		res->unjudged++;
	}
	return 0;
}

static int judge_key(struct cmp_result *res, struct row_reps *rr, const struct cellset *bs,
		     const struct cellset *ns, const struct metric_key *k, bool judged,
		     const struct cmp_opts *o)
{
	const struct noise_floor *nf;
	struct evidence e;
	struct side *b, *n;
	struct cmp_row *r;
	double margin, *d = NULL;
	bool floor, dflt;
	int ret = 0;

	b = malloc(2 * sizeof(*b));
	if (!b)
		return -ENOMEM;
	n = b + 1;
	side_collect(bs, k, o->j.min_tail, b);
	side_collect(ns, k, o->j.min_tail, n);
	if (sparse(b, o) && sparse(n, o)) {
		if (judged && k->src != MS_WAKEUP && k->stat != MST_MAX &&
		    cmp_is_primary(o, bs, id_of(k)))
			ret = unjudged_row(res, bs, k, b, n, o);
		else
			res->nsparse++;
		goto out;
	}
	r = row_new(res, bs->workload, bs->config);
	if (!r) {
		ret = -ENOMEM;
		goto out;
	}
	r->key = *k;
	metric_id(k, r->id, sizeof(r->id));
	fill_values(r, b, n);
	if (k->src == MS_WAKEUP) {
		/* statistics only, no histograms: shown beside the delays, never judged */
		r->j.v = V_INFO;
		r->j.nb = (uint32_t)b->n;
		r->j.nn = (uint32_t)n->n;
		r->j.base = stats_median(b->v, b->n);
		r->j.new = stats_median(n->v, n->n);
		r->j.ratio = r->j.new / r->j.base;
		r->judged = false;
		goto out;
	}
	r->judged = judged;
	r->primary = judged && cmp_is_primary(o, bs, r->id);
	ret = evidence_build(bs, ns, k, &e);
	if (ret)
		goto out;
	margin = judge_margin(&o->j, bs->workload, bs->config, r->id, &floor, &dflt);
	nf = o->j.between_runs && o->j.noise ?
	     noise_find(o->j.noise, bs->workload, bs->config, r->id) : NULL;
	if (o->sets) {
		/* the sets' own spread between runs: the threshold is the margin */
		dflt = false;
		ret = sets_eval(o->sets, bs, k, o, r);
	} else if (nf && nf->runs >= 3)
		ret = judge_eval_runs(&e, k->stat, margin, nf, &o->j, &r->j);
	else
		ret = judge_eval(&e, k->stat, margin, floor, &o->j, &r->j, &d);
	r->j.margin_default = dflt;
	evidence_free(&e);
	if (!judged) {
		r->j.v = V_INFO;
		free(d);
		d = NULL;
	}
	ret = ret ?: keep_reps(rr, res->nrows - 1, d);
	if (ret)
		free(d);
out:
	free(b);
	return ret;
}

/*
 * is_info - shown, not judged: max beside any judged statistic of the same histogram,
 * and the thread wakeup p99s, which tell where a softirq or workqueue delay came from
 */
static bool is_info(const struct keylist *kl, const struct metric_key *k,
		    const char *const *pat, size_t npat)
{
	char id[METRIC_ID_LEN];
	size_t i;

	if (k->src == MS_WAKEUP && k->stat == MST_P99)
		return true;
	if (k->stat != MST_MAX)
		return false;
	for (i = 0; i < kl->n; i++) {
		if (kl->k[i].stat == MST_MAX || !metric_same_group(&kl->k[i], k))
			continue;
		metric_id(&kl->k[i], id, sizeof(id));
		if (matches(id, pat, npat))
			return true;
	}
	return false;
}

bool cmp_judged(const struct cmp_opts *o, const struct cellset *s, const char *id)
{
	const char *const *pat = cmp_default_patterns;
	size_t npat;

	for (npat = 0; pat[npat]; npat++)
		;
	return matches(id, pat, npat) || cmp_is_primary(o, s, id);
}

/* count_hits - which --metric patterns metric id matches (a typo matches none) */
static void count_hits(struct cmp_result *res, const char *id, const struct cmp_opts *o)
{
	size_t i;

	for (i = 0; i < 2; i++)
		if (!res->example[i][0] && (!i || strcmp(res->example[0], id))) {
			snprintf(res->example[i], sizeof(res->example[i]), "%s", id);
			break;
		}
	for (i = 0; res->pattern_hits && i < o->nprimary; i++)
		if (!fnmatch(o->primary[i], id, 0))
			res->pattern_hits[i]++;
}

int cmp_pattern_ok(const char *pat, char *errbuf)
{
	const char *p;

	if (!*pat)
		return set_err(errbuf, "an empty pattern matches no metric");
	for (p = pat; *p; p++) {
		if (*p == '\\' && p[1]) {
			p++;
		} else if (*p == '[') {
			const char *close = strchr(p + 1 + (p[1] == ']'), ']');

			if (!close)
				return set_err(errbuf, "'%s': '[' without a closing ']'", pat);
			p = close;
		}
	}
	return 0;
}

/*
 * compare_moved - work that ran in different places on the two sides (a tasklet that
 * became a BH work item, a per-CPU work item gone unbound, a softirq gone to a thread):
 * its own wait wherever it ran, judged as any advisory metric (moved.h)
 */
static int compare_moved(struct cmp_result *res, struct row_reps *rr,
			 const struct cellset *bs, const struct cellset *ns,
			 const struct cmp_opts *o)
{
	static const enum mstat stats[] = { MST_P50, MST_P99 };
	size_t first = res->moved.n, i, s;
	int ret = moved_find(bs, ns, &res->moved);

	for (i = first; !ret && i < res->moved.n; i++)
		for (s = 0; !ret && s < ARRAY_SIZE(stats); s++) {
			struct metric_key k = res->moved.m[i].key;

			k.stat = stats[s];
			ret = judge_key(res, rr, bs, ns, &k, true, o);
		}
	return ret;
}

static int compare_keys(struct cmp_result *res, struct row_reps *rr,
			const struct cellset *bs, const struct cellset *ns,
			const struct cmp_opts *o, bool lossy)
{
	const char *const *pat = cmp_default_patterns;
	struct keylist kl = { 0 };
	char id[METRIC_ID_LEN];
	size_t npat, i;
	int ret;

	for (npat = 0; pat[npat]; npat++)
		;
	ret = keylist_collect(bs, false, &kl);
	ret = ret ?: keylist_collect(ns, false, &kl);
	for (i = 0; !ret && i < kl.n; i++) {
		const struct metric_key *k = &kl.k[i];
		bool judged;

		metric_id(k, id, sizeof(id));
		count_hits(res, id, o);
		if (lossy && metric_trace_derived(k))
			continue;
		judged = cmp_judged(o, bs, id);
		if (judged || is_info(&kl, k, pat, npat))
			ret = judge_key(res, rr, bs, ns, k, judged, o);
	}
	if (!ret && !o->workload_only)
		ret = unmeasured_rows(res, bs, &kl, o);
	if (!ret && !o->workload_only && !lossy)
		ret = compare_moved(res, rr, bs, ns, o);
	keylist_free(&kl);
	return ret;
}

static int compare_sets(struct cmp_result *res, struct row_reps *rr,
			const struct cellset *bs, const struct cellset *ns,
			const struct cmp_opts *o)
{
	struct side b, n;
	char why[160];

	side_collect(bs, NULL, 0, &b);
	side_collect(ns, NULL, 0, &n);
	if (b.incomplete || n.incomplete) {
		snprintf(why, sizeof(why), "%u base and %u new repetitions did not finish",
			 b.incomplete, n.incomplete);
		return whole_row(res, bs->workload, bs->config, "*", V_INCOMPLETE, why);
	}
	if (o->workload_only)
		return compare_keys(res, rr, bs, ns, o, true);
	if (b.lossy || n.lossy) {
		snprintf(why, sizeof(why), "trace events lost in %u base and %u new "
			 "repetitions; workload metrics still compared", b.lossy, n.lossy);
		if (whole_row(res, bs->workload, bs->config, "softirq:*, wq:*, wakeup:*", V_LOSSY,
			      why))
			return -ENOMEM;
	}
	return compare_keys(res, rr, bs, ns, o, b.lossy || n.lossy);
}

static int env_add(struct cmp_result *res, const char *field, const char *b, const char *n)
{
	struct env_diff *e;

	if (!strcmp(b, n))
		return 0;
	if (GROW(res->env, res->capenv, res->nenv + 1))
		return -ENOMEM;
	e = &res->env[res->nenv++];
	snprintf(e->field, sizeof(e->field), "%s", field);
	snprintf(e->base, sizeof(e->base), "%s", b);
	snprintf(e->new, sizeof(e->new), "%s", n);
	return 0;
}

static const struct cell *first_ok(const struct cellset *s)
{
	size_t i;

	for (i = 0; i < s->n; i++)
		if (s->cell[i]->ok)
			return s->cell[i];
	return NULL;
}

static const char *knob_val(const struct cell *c, const char *key)
{
	size_t i;

	for (i = 0; i < c->nknobs; i++)
		if (!strcmp(c->knobs[i].key, key))
			return c->knobs[i].val;
	return "(not set)";
}

/* knob_diffs - a configuration of the same name that set different values */
static int knob_diffs(struct cmp_result *res, const struct cellset *bs,
		      const struct cellset *ns)
{
	const struct cell *b = first_ok(bs), *n = first_ok(ns);
	char field[NAME_LEN];
	size_t i;
	int ret = 0;

	for (i = 0; b && n && !ret && i < b->nknobs + n->nknobs; i++) {
		const char *key = i < b->nknobs ? b->knobs[i].key : n->knobs[i - b->nknobs].key;

		if (i >= b->nknobs && strcmp(knob_val(b, key), "(not set)"))
			continue;	/* already compared from the base side */
		snprintf(field, sizeof(field), "%.20s knob %.37s", bs->config, key);
		ret = env_add(res, field, knob_val(b, key), knob_val(n, key));
	}
	return ret;
}

static int meta_diffs(struct cmp_result *res, const struct run *base, const struct run *new)
{
	size_t f;
	int ret = 0;

	for (f = 0; !ret && f < RM_NR; f++)
		if (f != RM_STARTED &&
		    !(rm_optional((int)f) && (!base->meta[f][0] || !new->meta[f][0])))
			ret = env_add(res, run_meta_names[f], base->meta[f], new->meta[f]);
	return ret ?: env_add(res, "scenario", base->scenario, new->scenario);
}

static int one_sided(struct cmp_result *res, const struct cellsets *a,
		     const struct cellsets *other, const char *why)
{
	size_t i;
	int ret = 0;

	for (i = 0; !ret && i < a->n; i++)
		if (!cellsets_find(other, a->s[i].workload, a->s[i].config))
			ret = whole_row(res, a->s[i].workload, a->s[i].config, "*",
					V_INCOMPLETE, why);
	return ret;
}

static int compare_all(const struct cellsets *bcs, const struct cellsets *ncs,
		       const struct cmp_opts *o, struct cmp_result *res, struct row_reps *rr)
{
	size_t i;
	int ret = 0;

	for (i = 0; !ret && i < bcs->n; i++) {
		const struct cellset *ns = cellsets_find(ncs, bcs->s[i].workload,
							 bcs->s[i].config);

		if (!ns)
			continue;
		res->matched++;
		ret = knob_diffs(res, &bcs->s[i], ns);
		ret = ret ?: compare_sets(res, rr, &bcs->s[i], ns, o);
	}
	ret = ret ?: one_sided(res, bcs, ncs, "only in the base run");
	return ret ?: one_sided(res, ncs, bcs, "only in the new run");
}

/*
 * judge_all - Holm over each family: the primary metrics (the exit status) and the
 * advisory ones, each at the stated family-wise level
 */
static int judge_all(struct cmp_result *res, const struct row_reps *rr,
		     const struct cmp_opts *o)
{
	struct judgement **j = calloc(res->nrows + 1, sizeof(*j));
	double **d = calloc(res->nrows + 1, sizeof(*d));
	int fam, ret = 0;
	size_t i, n;

	if (!j || !d) {
		ret = -ENOMEM;
		goto out;
	}
	for (fam = 0; !ret && fam < 2; fam++) {
		for (i = n = 0; i < res->nrows; i++) {
			struct cmp_row *r = &res->rows[i];

			if (!r->key.name[0] || !r->judged || r->primary != !fam)
				continue;
			j[n] = &r->j;
			d[n++] = i < rr->cap ? rr->d[i] : NULL;
			if (!isnan(r->j.p))
				*(fam ? &res->nadvisory : &res->nprimary) += 1;
		}
		ret = judge_family(j, d, n, &o->j);
	}
	for (i = 0; !ret && i < res->nrows; i++) {
		const struct cmp_row *r = &res->rows[i];

		if (!r->key.name[0])
			continue;	/* a whole-cell row: counted when made */
		if (r->judged && r->primary)
			res->count[r->j.v]++;
		else if (r->judged)
			res->advisory[r->j.v]++;
	}
out:
	free(j);
	free(d);
	return ret;
}

/* compare_groups - compare and judge two groupings of cells; frees them */
static int compare_groups(struct cellsets *bcs, struct cellsets *ncs, const struct run *base,
			  const struct run *new, const struct cmp_opts *o,
			  struct cmp_result *res, char *errbuf)
{
	struct row_reps rr = { 0 };
	size_t i;
	int ret = 0;

	if (o->primary && !res->pattern_hits) {
		res->pattern_hits = calloc(o->nprimary + 1, sizeof(*res->pattern_hits));
		if (!res->pattern_hits) {
			cellsets_free(bcs);
			cellsets_free(ncs);
			return errno_msg(errbuf, -ENOMEM, "compare: out of memory");
		}
	}
	if (base != new)
		ret = meta_diffs(res, base, new);
	ret = ret ?: compare_all(bcs, ncs, o, res, &rr);
	ret = ret ?: judge_all(res, &rr, o);
	if (!ret && !res->matched)
		ret = set_err(errbuf, "%s and %s share no workload x configuration: nothing to "
			     "compare", base->dir, new->dir);
	else if (ret)
		errno_msg(errbuf, ret, "compare: %s", strerror(-ret));
	cellsets_free(bcs);
	cellsets_free(ncs);
	for (i = 0; i < rr.cap; i++) {
		if (o->keep_reps && !ret && i < res->nrows)
			res->rows[i].d = rr.d[i];
		else
			free(rr.d[i]);
	}
	free(rr.d);
	if (ret)
		cmp_result_free(res);
	return ret;
}

int compare_runs(const struct run *base, const struct run *new, const struct cmp_opts *o,
		 struct cmp_result *res, char *errbuf)
{
	struct cmp_opts co = *o;
	struct cellsets bcs, ncs;
	int ret;

	memset(res, 0, sizeof(*res));
	ret = cellsets_build(base, &bcs);
	if (ret)
		return errno_msg(errbuf, ret, "%s: cannot group cells", base->dir);
	ret = cellsets_build(new, &ncs);
	if (ret) {
		cellsets_free(&bcs);
		return errno_msg(errbuf, ret, "%s: cannot group cells", new->dir);
	}
	/* two runs: their difference includes whatever lies between them (judge_margin) */
	co.j.between_runs = strcmp(base->dir, new->dir) != 0;
	ret = compare_groups(&bcs, &ncs, base, new, &co, res, errbuf);
	res->between_runs = co.j.between_runs;
	return ret;
}

int compare_observer(const struct run *run, const struct cmp_opts *o,
		     struct cmp_result *res, char *errbuf)
{
	struct cmp_opts co = *o;
	struct cellsets bcs, ncs;
	int ret;

	memset(res, 0, sizeof(*res));
	ret = cellsets_build_control(run, &bcs);
	if (ret)
		return errno_msg(errbuf, ret, "%s: cannot group cells", run->dir);
	if (!bcs.n) {
		cellsets_free(&bcs);
		return -ENOENT;
	}
	ret = cellsets_build(run, &ncs);
	if (ret) {
		cellsets_free(&bcs);
		return errno_msg(errbuf, ret, "%s: cannot group cells", run->dir);
	}
	co.workload_only = true;
	return compare_groups(&bcs, &ncs, run, run, &co, res, errbuf);
}

void cmp_result_free(struct cmp_result *res)
{
	size_t i;

	for (i = 0; i < res->nrows; i++)
		free(res->rows[i].d);
	free(res->rows);
	free(res->env);
	free(res->pattern_hits);
	moved_list_free(&res->moved);
	memset(res, 0, sizeof(*res));
}

/* start_cmp - order of two runs by their start time (ISO 8601: as text) */
static int start_cmp(const struct run *a, const struct run *b)
{
	return strcmp(a->meta[RM_STARTED], b->meta[RM_STARTED]);
}

bool cmp_sets_paired(const struct run *base, size_t nb, const struct run *new, size_t nn)
{
	const struct run *late_before = NULL;
	size_t i;

	if (nb != nn || nb < 2)
		return false;
	for (i = 0; i < nb; i++) {
		const struct run *early = start_cmp(&base[i], &new[i]) <= 0 ? &base[i] : &new[i];
		const struct run *late = early == &base[i] ? &new[i] : &base[i];

		if (!base[i].meta[RM_STARTED][0] || !new[i].meta[RM_STARTED][0])
			return false;
		/* pair i starts strictly after pair i - 1 ended: the sets alternated */
		if (late_before && start_cmp(late_before, early) >= 0)
			return false;
		late_before = late;
	}
	return true;
}

int cmp_sets_compare(struct cmp_sets *sets, const struct cmp_opts *o,
		     struct cmp_result *res, char *errbuf)
{
	struct cmp_opts co = *o;
	struct cellsets bcs, ncs;
	size_t i;
	int ret = 0;

	memset(res, 0, sizeof(*res));
	if (sets->nb < 2 || sets->nn < 2 || sets->nb > STATS_MAX_N || sets->nn > STATS_MAX_N)
		return set_err(errbuf, "sets of runs need 2 to %d runs a side (%zu and %zu "
			       "given): one run a side cannot show how runs differ", STATS_MAX_N,
			       sets->nb, sets->nn);
	for (i = 0; i < sets->nb + sets->nn; i++) {
		const struct run *r = i < sets->nb ? &sets->base[i] : &sets->new[i - sets->nb];

		if (strcmp(r->scenario, sets->base[0].scenario))
			return set_err(errbuf, "%s runs scenario %s, %s runs %s: sets compare runs "
				       "of one scenario", sets->base[0].dir, sets->base[0].scenario,
				       r->dir, r->scenario);
	}
	sets->bcs = calloc(sets->nb, sizeof(*sets->bcs));
	sets->ncs = calloc(sets->nn, sizeof(*sets->ncs));
	if (!sets->bcs || !sets->ncs) {
		ret = errno_msg(errbuf, -ENOMEM, "compare: out of memory");
		goto out;
	}
	for (i = 0; !ret && i < sets->nb; i++)
		ret = cellsets_build(&sets->base[i], &sets->bcs[i]);
	for (i = 0; !ret && i < sets->nn; i++)
		ret = cellsets_build(&sets->new[i], &sets->ncs[i]);
	if (ret) {
		errno_msg(errbuf, ret, "compare: cannot group cells");
		goto out;
	}
	ret = cellsets_build(&sets->base[0], &bcs);
	if (!ret && (ret = cellsets_build(&sets->new[0], &ncs)))
		cellsets_free(&bcs);
	if (ret) {
		errno_msg(errbuf, ret, "compare: cannot group cells");
		goto out;
	}
	co.sets = sets;
	co.j.between_runs = true;
	ret = compare_groups(&bcs, &ncs, &sets->base[0], &sets->new[0], &co, res, errbuf);
	res->between_runs = true;
out:
	for (i = 0; sets->bcs && i < sets->nb; i++)
		cellsets_free(&sets->bcs[i]);
	for (i = 0; sets->ncs && i < sets->nn; i++)
		cellsets_free(&sets->ncs[i]);
	free(sets->bcs);
	free(sets->ncs);
	sets->bcs = sets->ncs = NULL;
	return ret;
}
