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

const char *const cmp_default_patterns[] = {
	"workload:*:p50", "workload:*:p99",
	"softirq:*:delay:p50", "softirq:*:delay:p99",
	"wq:*:delay:p50", "wq:*:delay:p99",
	NULL
};

/* One side of a comparison: the usable repetition values of one metric. */
struct side {
	double v[STATS_MAX_N];
	size_t n;			/* usable values */
	size_t finished;		/* repetitions that finished */
	unsigned int lossy, incomplete;
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

	if (res->nrows == res->caprows) {
		size_t cap = res->caprows ? 2 * res->caprows : 64;

		r = realloc(res->rows, cap * sizeof(*r));
		if (!r)
			return NULL;
		res->rows = r;
		res->caprows = cap;
	}
	r = &res->rows[res->nrows++];
	memset(r, 0, sizeof(*r));
	snprintf(r->workload, sizeof(r->workload), "%s", wl);
	snprintf(r->config, sizeof(r->config), "%s", cfg);
	r->judged = true;
	r->base_med = r->new_med = r->j.ratio = r->j.lo = r->j.hi = r->j.p = NAN;
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

static bool selected(const char *id, const char *const *pat, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (!fnmatch(pat[i], id, 0))
			return true;
	return false;
}

static void fill_values(struct cmp_row *r, const struct side *b, const struct side *n)
{
	r->nb = b->n;
	r->nn = n->n;
	memcpy(r->bv, b->v, b->n * sizeof(double));
	memcpy(r->nv, n->v, n->n * sizeof(double));
	r->base_med = median(b->v, b->n);
	r->new_med = median(n->v, n->n);
	r->lossy_base = b->lossy;
	r->lossy_new = n->lossy;
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

static int judge_key(struct cmp_result *res, const struct cellset *bs,
		     const struct cellset *ns, const struct metric_key *k, bool judged,
		     const struct cmp_opts *o)
{
	struct side *b, *n;
	struct cmp_row *r;
	int ret = 0;

	b = malloc(2 * sizeof(*b));
	if (!b)
		return -ENOMEM;
	n = b + 1;
	side_collect(bs, k, o->j.min_tail, b);
	side_collect(ns, k, o->j.min_tail, n);
	if (sparse(b, o) && sparse(n, o)) {
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
	r->judged = judged;
	r->j.v = judged ? V_CANNOT_TELL : V_INFO;	/* judged once all rows are known */
	fill_values(r, b, n);
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
		if (selected(id, pat, npat))
			return true;
	}
	return false;
}

static int compare_keys(struct cmp_result *res, const struct cellset *bs,
			const struct cellset *ns, const struct cmp_opts *o, bool lossy)
{
	const char *const *pat = o->judge_patterns ? o->judge_patterns : cmp_default_patterns;
	size_t npat = o->npatterns, i;
	struct keylist kl = { 0 };
	char id[METRIC_ID_LEN];
	int ret;

	if (!o->judge_patterns)
		for (npat = 0; pat[npat]; npat++)
			;
	ret = keylist_collect(bs, false, &kl);
	ret = ret ?: keylist_collect(ns, false, &kl);
	for (i = 0; !ret && i < kl.n; i++) {
		const struct metric_key *k = &kl.k[i];
		bool judged;

		if (lossy && metric_trace_derived(k))
			continue;
		metric_id(k, id, sizeof(id));
		judged = selected(id, pat, npat);
		if (judged || is_info(&kl, k, pat, npat))
			ret = judge_key(res, bs, ns, k, judged, o);
	}
	keylist_free(&kl);
	return ret;
}

static int compare_sets(struct cmp_result *res, const struct cellset *bs,
			const struct cellset *ns, const struct cmp_opts *o)
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
	if (b.lossy || n.lossy) {
		snprintf(why, sizeof(why), "trace events lost in %u base and %u new "
			 "repetitions; workload metrics still compared", b.lossy, n.lossy);
		if (whole_row(res, bs->workload, bs->config, "softirq:*, wq:*, wakeup:*", V_LOSSY,
			      why))
			return -ENOMEM;
	}
	return compare_keys(res, bs, ns, o, b.lossy || n.lossy);
}

static int env_add(struct cmp_result *res, const char *field, const char *b, const char *n)
{
	struct env_diff *e;

	if (!strcmp(b, n))
		return 0;
	if (res->nenv == res->capenv) {
		size_t cap = res->capenv ? 2 * res->capenv : 16;

		e = realloc(res->env, cap * sizeof(*e));
		if (!e)
			return -ENOMEM;
		res->env = e;
		res->capenv = cap;
	}
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
		if (f != RM_STARTED)
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
		       const struct cmp_opts *o, struct cmp_result *res)
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
		ret = ret ?: compare_sets(res, &bcs->s[i], ns, o);
	}
	ret = ret ?: one_sided(res, bcs, ncs, "only in the base run");
	return ret ?: one_sided(res, ncs, bcs, "only in the new run");
}

/*
 * judge_all - every metric row, each interval at the Bonferroni-split confidence so that
 * the stated confidence holds for the whole comparison, not for each metric alone
 */
static void judge_all(struct cmp_result *res, const struct cmp_opts *o)
{
	struct judge_opts jo = o->j;
	size_t i;

	for (i = 0; i < res->nrows; i++) {
		const struct cmp_row *r = &res->rows[i];

		res->njudged += r->judged && r->key.name[0] &&
				r->nb >= o->j.min_reps && r->nn >= o->j.min_reps;
	}
	if (res->njudged > 1)
		jo.confidence = 1 - (1 - o->j.confidence) / (double)res->njudged;
	res->metric_confidence = jo.confidence;
	for (i = 0; i < res->nrows; i++) {
		struct cmp_row *r = &res->rows[i];

		if (!r->key.name[0])
			continue;	/* a whole-cell row: verdict already set */
		judge(r->bv, r->nb, r->nv, r->nn, &jo, &r->j);
		if (!r->judged)
			r->j.v = V_INFO;
		else
			res->count[r->j.v]++;
	}
}

int compare_runs(const struct run *base, const struct run *new, const struct cmp_opts *o,
		 struct cmp_result *res, char *errbuf)
{
	struct cellsets bcs, ncs;
	int ret;

	memset(res, 0, sizeof(*res));
	ret = cellsets_build(base, &bcs);
	if (ret)
		return set_errno(errbuf, ret, "%s: cannot group cells", base->dir);
	ret = cellsets_build(new, &ncs);
	if (ret) {
		cellsets_free(&bcs);
		return set_errno(errbuf, ret, "%s: cannot group cells", new->dir);
	}
	ret = meta_diffs(res, base, new);
	ret = ret ?: compare_all(&bcs, &ncs, o, res);
	if (!ret)
		judge_all(res, o);
	if (!ret && !res->matched)
		ret = set_err(errbuf, "%s and %s share no workload x configuration: nothing to "
			     "compare", base->dir, new->dir);
	else if (ret)
		set_errno(errbuf, ret, "compare: %s", strerror(-ret));
	cellsets_free(&bcs);
	cellsets_free(&ncs);
	if (ret)
		cmp_result_free(res);
	return ret;
}

void cmp_result_free(struct cmp_result *res)
{
	free(res->rows);
	free(res->env);
	memset(res, 0, sizeof(*res));
}
