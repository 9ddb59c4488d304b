// SPDX-License-Identifier: GPL-2.0
/*
 * history_series.c - a metric's values across kernels, from the store, and its change
 * points (see history.h).
 */
#include <errno.h>
#include <fnmatch.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "grow.h"
#define DEFERBENCH_ALLOW_HISTORY_INT_H
#include "history_int.h"
#include "kver.h"
#include "msg.h"

static bool wanted(const struct hs_filter *f, const char *wl_type, const char *id)
{
	size_t i;

	if (!f->metrics)
		return cmp_type_primary(wl_type, id);
	for (i = 0; i < f->nmetrics; i++)
		if (!fnmatch(f->metrics[i], id, 0))
			return true;
	return false;
}

/* usable - as compare: enough samples beyond the metric's percentile */
static bool usable(const char *id, uint64_t count, unsigned int min_tail)
{
	const char *s = strrchr(id, ':');
	int i;

	for (i = 0; s && i < MST_NR; i++)
		if (!strcmp(s + 1, metric_stat_names[i]))
			return metric_usable((enum mstat)i, count, min_tail);
	return count > 0;
}

static const char *col(sqlite3_stmt *st, int i)
{
	const char *s = (const char *)sqlite3_column_text(st, i);

	return s ? s : "";
}

static bool same_series(const struct hs_series *s, sqlite3_stmt *st)
{
	return !strcmp(s->host, col(st, 1)) && !strcmp(s->scenario, col(st, 4)) &&
	       !strcmp(s->workload, col(st, 5)) && !strcmp(s->config, col(st, 6)) &&
	       !strcmp(s->metric, col(st, 8));
}

static int cmp_points(const void *a, const void *b)
{
	const struct hs_point *x = a, *y = b;
	int c = kver_cmp_release(x->kernel, y->kernel);

	if (!c)
		c = strcmp(x->started, y->started);
	if (!c)
		c = kver_cmp(x->kernel, y->kernel);
	return c ? c : (x->run_id > y->run_id) - (x->run_id < y->run_id);
}

/* finish - order the points and take each one's median and range */
static void finish(struct hs_series *s)
{
	size_t i, k;

	qsort(s->pt, s->npt, sizeof(*s->pt), cmp_points);
	for (i = 0; i < s->npt; i++) {
		struct hs_point *p = &s->pt[i];

		p->med = stats_median(p->v, p->n);
		p->lo = p->hi = p->v[0];
		for (k = 1; k < p->n; k++) {
			p->lo = fmin(p->lo, p->v[k]);
			p->hi = fmax(p->hi, p->v[k]);
		}
	}
}

static int add_row(struct hs_set *set, sqlite3_stmt *st)
{
	long long run_id = sqlite3_column_int64(st, 0);
	struct hs_series *s = set->n ? &set->s[set->n - 1] : NULL;
	struct hs_point *p;
	void *q;

	if (!s || !same_series(s, st)) {
		if (s)
			finish(s);
		q = grow_array(set->s, set->n, sizeof(*set->s));
		if (!q)
			return -ENOMEM;
		set->s = q;
		s = &set->s[set->n++];
		snprintf(s->host, sizeof(s->host), "%s", col(st, 1));
		snprintf(s->scenario, sizeof(s->scenario), "%s", col(st, 4));
		snprintf(s->workload, sizeof(s->workload), "%s", col(st, 5));
		snprintf(s->config, sizeof(s->config), "%s", col(st, 6));
		snprintf(s->metric, sizeof(s->metric), "%s", col(st, 8));
	}
	p = s->npt ? &s->pt[s->npt - 1] : NULL;
	if (!p || p->run_id != run_id) {
		q = grow_array(s->pt, s->npt, sizeof(*s->pt));
		if (!q)
			return -ENOMEM;
		s->pt = q;
		p = &s->pt[s->npt++];
		p->run_id = run_id;
		p->n = 0;
		p->place[0] = '\0';
		snprintf(p->kernel, sizeof(p->kernel), "%s", col(st, 2));
		snprintf(p->started, sizeof(p->started), "%s", col(st, 3));
	}
	if (p->n < STATS_MAX_N)
		p->v[p->n++] = sqlite3_column_double(st, 9);
	return 0;
}

static void bind_opt(sqlite3_stmt *st, int i, const char *s)
{
	if (s)
		sqlite3_bind_text(st, i, s, -1, SQLITE_STATIC);
	else
		sqlite3_bind_null(st, i);
}

int hstore_series(struct hstore *hs, const struct hs_filter *f, struct hs_set *out,
		  char *errbuf)
{
	sqlite3_stmt *st;
	int rc, ret = 0;

	memset(out, 0, sizeof(*out));
	if (sqlite3_prepare_v2(hs->db,
			       "SELECT r.id, r.host, r.kernel, r.started, r.scenario, c.workload,"
			       " c.config, c.wl_type, m.name, v.value, v.count, c.lossy"
			       " FROM value v JOIN cell c ON c.id = v.cell_id"
			       " JOIN run r ON r.id = c.run_id JOIN metric m ON m.id = v.metric_id"
			       " WHERE c.ok AND (?1 IS NULL OR r.host = ?1)"
			       " AND (?2 IS NULL OR r.scenario = ?2)"
			       " AND (?3 IS NULL OR c.workload = ?3)"
			       " AND (?4 IS NULL OR c.config = ?4)"
			       " ORDER BY r.host, r.scenario, c.workload, c.config, m.name, r.id,"
			       " c.rep", -1, &st, NULL))
		return hs_sqlerr(hs->db, errbuf, "store");
	bind_opt(st, 1, f->host);
	bind_opt(st, 2, f->scenario);
	bind_opt(st, 3, f->workload);
	bind_opt(st, 4, f->config);
	while (!ret && (rc = sqlite3_step(st)) == SQLITE_ROW) {
		const char *id = col(st, 8);

		if (!wanted(f, col(st, 7), id) ||
		    !usable(id, (uint64_t)sqlite3_column_int64(st, 10), f->min_tail))
			continue;
		/* trace figures of a capture that lost events undercount: compare skips them */
		if (sqlite3_column_int(st, 11) && strncmp(id, "workload:", 9))
			continue;
		if (add_row(out, st))
			ret = errno_msg(errbuf, -ENOMEM, "out of memory");
	}
	if (!ret && rc != SQLITE_DONE)
		ret = hs_sqlerr(hs->db, errbuf, "store");
	sqlite3_finalize(st);
	if (!ret && out->n)
		finish(&out->s[out->n - 1]);
	ret = ret ?: history_moved_places(hs, out, errbuf);
	if (ret)
		hs_set_free(out);
	return ret;
}

void hs_set_free(struct hs_set *set)
{
	size_t i;

	for (i = 0; i < set->n; i++)
		free(set->s[i].pt);
	free(set->s);
	memset(set, 0, sizeof(*set));
}

void hs_detect_opts_default(struct hs_detect_opts *o)
{
	cpd_opts_default(&o->cpd);
	o->threshold = 0.10;
}

int hs_detect(struct hs_series *s, const struct hs_detect_opts *o, size_t family)
{
	struct cpd_opts co = o->cpd;
	struct cpd_point cp[HS_MAX_CP];
	size_t i, k, n, nv = 0, *g;
	double *lg, *med;
	int ret;

	s->ncp = 0;
	s->need = 0;
	s->sig = co.sig = o->cpd.sig / (double)(family ? family : 1);
	/* a permutation test of this few runs cannot reach the level: say so, test nothing */
	if (s->npt < cpd_min_values(co.sig)) {
		s->need = cpd_min_values(co.sig);
		return 0;
	}
	/* enough permutations that p can reach the split level */
	if ((double)co.perms < 10 / co.sig)
		co.perms = (unsigned int)fmin(ceil(10 / co.sig), 99999);
	if (co.max_cp > HS_MAX_CP)
		co.max_cp = HS_MAX_CP;
	for (i = 0; i < s->npt; i++)
		nv += s->pt[i].n;
	lg = malloc((nv + s->npt + 1) * sizeof(*lg));
	g = malloc((s->npt + 1) * sizeof(*g));
	if (!lg || !g) {
		free(lg);
		free(g);
		return -ENOMEM;
	}
	med = lg + nv;
	g[0] = 0;
	for (i = 0; i < s->npt; i++) {
		med[i] = s->pt[i].med;
		/* log: a step is a ratio, alike at 10 us and at 10 ms */
		for (k = 0; k < s->pt[i].n; k++)
			lg[g[i] + k] = log(fmax(s->pt[i].v[k], 1));
		g[i + 1] = g[i] + s->pt[i].n;
	}
	/* every repetition in the statistic, whole runs permuted (cpd.h) */
	ret = cpd_edivisive(lg, nv, g, s->npt, &co, cp, &n);
	if (!ret)
		n = cpd_prune_small(med, s->npt, cp, n, o->threshold);
	for (i = 0; !ret && i < n; i++) {
		struct hs_change *c = &s->cp[i];
		size_t a = i ? cp[i - 1].index : 0, e = i + 1 < n ? cp[i + 1].index : s->npt;

		c->index = cp[i].index;
		c->p = cp[i].p;
		c->before = cpd_segment_median(med, a, c->index);
		c->after = cpd_segment_median(med, c->index, e);
		c->rel = c->before > 0 ? c->after / c->before - 1 : INFINITY;
		c->v = c->after > c->before ? V_WORSE : V_BETTER;
	}
	s->ncp = ret ? 0 : n;
	free(lg);
	free(g);
	return ret;
}

bool hs_newest_regressed(const struct hs_series *s)
{
	return s->ncp && s->cp[s->ncp - 1].v == V_WORSE;
}

enum verdict hs_verdict_at(const struct hs_series *s, const char *kernel,
			   const struct hs_change **change)
{
	size_t i, first = s->npt;

	*change = NULL;
	for (i = 0; i < s->npt && first == s->npt; i++)
		if (!strcmp(s->pt[i].kernel, kernel))
			first = i;
	if (first == s->npt)
		return V_INFO;
	for (i = 0; i < s->ncp; i++)
		if (!strcmp(s->pt[s->cp[i].index].kernel, kernel)) {
			*change = &s->cp[i];
			return s->cp[i].v;
		}
	/*
	 * the first kernel has nothing before it; the newest run alone cannot be a segment;
	 * a series too short for the level tested nothing
	 */
	if (first == 0 || first + 1 == s->npt || s->need)
		return V_CANNOT_TELL;
	return V_NO_CHANGE;
}
