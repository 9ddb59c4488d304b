// SPDX-License-Identifier: GPL-2.0
/*
 * history_moved.c - where a work ran in each run of a moved:* series (moved.h): the
 * import stores a moved metric for every work, so that its series goes on when a kernel
 * moves it (a tasklet that became a BH work item, a per-CPU work item gone unbound, a
 * softirq gone to a thread); the place of each point is read back from the groups the
 * run stored, so that the history says where the work moved and at which kernel.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#define DEFERBENCH_ALLOW_HISTORY_INT_H
#include "history_int.h"
#include "msg.h"
#include "common.h"

#define GROUPS_MAX 32

struct groups {
	const char *cls[GROUPS_MAX];
	uint64_t count[GROUPS_MAX];
	char where[GROUPS_MAX][NAME_LEN];
	size_t n;
};

/*
 * The groups of a work in one run: its workqueue groups (hist rows: the pool) and its
 * contexts (their metric ids: context:<kind>:<name>@<where>:<sub>:p50, with counts).
 * ?1 the run, ?2 the work's name, ?3 its context; ?5 and ?6 what the context's metric
 * ids begin and end with, around its where.
 */
static const char place_sql[] =
	"SELECT 'wq', h.pool, h.group_count FROM hist h JOIN cell c ON c.id = h.cell_id"
	" WHERE c.run_id = ?1 AND c.ok AND h.kind = 'wq' AND h.func = ?2 AND h.sub = 'delay'"
	" AND ?3 = 'tasklet'"
	" UNION ALL"
	" SELECT ?3, substr(m.name, length(?5) + 1, length(m.name) - length(?5) - length(?6)),"
	" v.count FROM value v JOIN cell c ON c.id = v.cell_id"
	" JOIN metric m ON m.id = v.metric_id WHERE c.run_id = ?1 AND c.ok"
	" AND substr(m.name, 1, length(?5)) = ?5"
	" AND substr(m.name, length(m.name) - length(?6) + 1) = ?6";

/* what_ctx - the context that holds a moved:<what> work, and its sub-metric */
static bool what_ctx(const char *what, const char **ctx, const char **sub)
{
	if (!strcmp(what, "func"))
		*ctx = "tasklet", *sub = "delay";
	else if (!strcmp(what, "softirq"))
		*ctx = "softirq", *sub = "delay";
	else if (!strcmp(what, "napi"))
		*ctx = "napi_poll", *sub = "runtime";
	else
		return false;
	return true;
}

/* point_place - the place of one point: the class that held most of the samples */
static int point_place(sqlite3_stmt *st, long long run_id, const char *ctx, const char *name,
		       const char *sub, struct hs_point *p)
{
	char prefix[METRIC_ID_LEN], suffix[32];
	struct groups g = { .n = 0 };
	double share;
	int rc;

	snprintf(prefix, sizeof(prefix), "context:%s:%s@", ctx, name);
	snprintf(suffix, sizeof(suffix), ":%s:p50", sub);
	sqlite3_reset(st);
	sqlite3_bind_int64(st, 1, run_id);
	sqlite3_bind_text(st, 2, name, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 3, ctx, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 5, prefix, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 6, suffix, -1, SQLITE_STATIC);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW && g.n < GROUPS_MAX) {
		const char *kind = (const char *)sqlite3_column_text(st, 0);
		const char *where = (const char *)sqlite3_column_text(st, 1);
		const char *cls;

		snprintf(g.where[g.n], sizeof(g.where[g.n]), "%s", where ? where : "");
		cls = moved_class(kind ? kind : "", g.where[g.n]);
		if (!cls)
			continue;
		g.cls[g.n] = cls;
		g.count[g.n++] = (uint64_t)sqlite3_column_int64(st, 2);
	}
	if (rc != SQLITE_ROW && rc != SQLITE_DONE)
		return -EIO;
	snprintf(p->place, sizeof(p->place), "%s", moved_place_of(g.cls, g.count, g.n, &share));
	return 0;
}

int history_moved_places(struct hstore *hs, struct hs_set *set, char *errbuf)
{
	char what[NAME_LEN], name[FUNC_LEN];
	const char *ctx, *sub;
	sqlite3_stmt *st;
	size_t i, k;
	int ret = 0;

	if (sqlite3_prepare_v2(hs->db, place_sql, -1, &st, NULL))
		return hs_sqlerr(hs->db, errbuf, "store");
	for (i = 0; !ret && i < set->n; i++) {
		struct hs_series *s = &set->s[i];
		const char *p = s->metric + 6, *colon = strchr(p, ':'), *end;

		/* moved:<what>:<name>:<sub>:<stat>; the name may hold no colon of its own */
		if (strncmp(s->metric, "moved:", 6) || !colon)
			continue;
		end = strrchr(colon + 1, ':');
		end = end ? end - 1 : NULL;
		while (end && end > colon && *end != ':')
			end--;
		if (!end || end <= colon)
			continue;
		snprintf(what, sizeof(what), "%.*s", (int)(colon - p), p);
		snprintf(name, sizeof(name), "%.*s", (int)(end - colon - 1), colon + 1);
		if (!what_ctx(what, &ctx, &sub))
			continue;
		for (k = 0; !ret && k < s->npt; k++)
			if (point_place(st, s->pt[k].run_id, ctx, name, sub, &s->pt[k]))
				ret = hs_sqlerr(hs->db, errbuf, "store: places");
	}
	sqlite3_finalize(st);
	return ret;
}
