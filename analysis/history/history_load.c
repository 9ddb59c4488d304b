// SPDX-License-Identifier: GPL-2.0
/*
 * history_load.c - a stored run back as a struct run, and merging stores (history.h).
 */
#include <errno.h>
#include <json-c/json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "grow.h"
#define DEFERBENCH_ALLOW_HISTORY_INT_H
#include "history_int.h"
#include "msg.h"

static const char *col(sqlite3_stmt *st, int i)
{
	const char *s = (const char *)sqlite3_column_text(st, i);

	return s ? s : "";
}

#define COPY(dst, st, i) snprintf((dst), sizeof(dst), "%s", col((st), (i)))

static int index_of(const char *const *names, int n, const char *s)
{
	int i;

	for (i = 0; i < n; i++)
		if (!strcmp(names[i], s))
			return i;
	return -1;
}

/* kv_parse - a JSON object of text values back into pairs */
static int kv_parse(const char *json, struct kv **out, size_t *n)
{
	struct json_object *o = json_tokener_parse(json);
	size_t i = 0;

	*out = NULL;
	*n = 0;
	if (!o || !json_object_is_type(o, json_type_object)) {
		json_object_put(o);
		return -EINVAL;
	}
	*out = calloc((size_t)json_object_object_length(o) + 1, sizeof(**out));
	if (!*out) {
		json_object_put(o);
		return -ENOMEM;
	}
	json_object_object_foreach(o, k, v) {
		snprintf((*out)[i].key, sizeof((*out)[i].key), "%s", k);
		snprintf((*out)[i].val, sizeof((*out)[i].val), "%s", json_object_get_string(v));
		i++;
	}
	*n = i;
	json_object_put(o);
	return 0;
}

static int parse_buckets(const char *s, struct bucketlist *bl)
{
	unsigned long long lo, hi, c;
	int used, ret;

	while (*s) {
		if (sscanf(s, "%llu %llu %llu\n%n", &lo, &hi, &c, &used) != 3)
			return -EINVAL;
		ret = bucketlist_add(bl, lo, hi, c);
		if (ret)
			return ret;
		s += used;
	}
	return 0;
}

static void read_stats(sqlite3_stmt *st, int i, struct hist_stats *h)
{
	h->count = (uint64_t)sqlite3_column_int64(st, i++);
	h->min = (uint64_t)sqlite3_column_int64(st, i++);
	h->max = (uint64_t)sqlite3_column_int64(st, i++);
	h->mean = sqlite3_column_double(st, i++);
	h->stddev = sqlite3_column_double(st, i++);
	h->p50 = (uint64_t)sqlite3_column_int64(st, i++);
	h->p90 = (uint64_t)sqlite3_column_int64(st, i++);
	h->p99 = (uint64_t)sqlite3_column_int64(st, i++);
	h->p999 = (uint64_t)sqlite3_column_int64(st, i);
}

/*
 * Groups come as one row per sub-metric, ordered by ord: a row whose ord differs
 * from the last one starts a new group.
 */
static int load_hists(sqlite3 *db, long long cell_id, struct record *rec, char *errbuf)
{
	sqlite3_stmt *st;
	int rc, ret = 0, last = -1;

	if (sqlite3_prepare_v2(db, "SELECT ord, kind, name, cpu, func, pool, sub, unit, "
			       "descr, group_count, ksoftirqd_count, long_runs, count, min, "
			       "max, mean, stddev, p50, p90, p99, p999, buckets FROM hist WHERE "
			       "cell_id = ? ORDER BY ord, rowid", -1, &st, NULL))
		return hs_sqlerr(db, errbuf, "store");
	sqlite3_bind_int64(st, 1, cell_id);
	while (!ret && (rc = sqlite3_step(st)) == SQLITE_ROW) {
		int ord = sqlite3_column_int(st, 0), sub;
		const char *kind = col(st, 1), *s = col(st, 6);
		bool fresh = ord != last;
		struct bucketlist *bl = NULL;
		struct hist_stats *hs;
		void *p;

		last = ord;
		if (!strcmp(kind, "workload")) {
			struct wl_metric_data *m;

			p = grow_array(rec->wl.m, rec->wl.nm, sizeof(*m));
			if (!p)
				goto nomem;
			rec->wl.m = p;
			m = &rec->wl.m[rec->wl.nm++];
			COPY(m->name, st, 2);
			COPY(m->unit, st, 7);
			COPY(m->desc, st, 8);
			hs = &m->st;
			bl = &m->h;
		} else if (!strcmp(kind, "softirq")) {
			struct sirq_data *g;

			sub = index_of(record_sirq_metric_names, SM_NR, s);
			if (sub < 0)
				goto bad;
			if (fresh) {
				p = grow_array(rec->sirq, rec->nsirq, sizeof(*g));
				if (!p)
					goto nomem;
				rec->sirq = p;
				g = &rec->sirq[rec->nsirq++];
				COPY(g->vector, st, 2);
				g->cpu = sqlite3_column_int(st, 3);
				g->count = (uint64_t)sqlite3_column_int64(st, 9);
				g->ksoftirqd_count = (uint64_t)sqlite3_column_int64(st, 10);
				g->long_runs = (uint64_t)sqlite3_column_int64(st, 11);
			}
			if (!rec->nsirq)
				goto bad;
			g = &rec->sirq[rec->nsirq - 1];
			hs = &g->st[sub];
			bl = &g->h[sub];
		} else if (!strcmp(kind, "wq")) {
			struct wq_data *g;

			sub = index_of(record_wq_metric_names, WM_NR, s);
			if (sub < 0)
				goto bad;
			if (fresh) {
				p = grow_array(rec->wq, rec->nwq, sizeof(*g));
				if (!p)
					goto nomem;
				rec->wq = p;
				g = &rec->wq[rec->nwq++];
				COPY(g->wq, st, 2);
				COPY(g->func, st, 4);
				COPY(g->pool, st, 5);
				g->count = (uint64_t)sqlite3_column_int64(st, 9);
			}
			if (!rec->nwq)
				goto bad;
			g = &rec->wq[rec->nwq - 1];
			hs = &g->st[sub];
			bl = &g->h[sub];
		} else if (!strcmp(kind, "wakeup")) {
			struct wake_data *w;

			sub = index_of(record_wake_kind_names, WK_NR, s);
			if (sub < 0)
				goto bad;
			p = grow_array(rec->wake[sub], rec->nwake[sub], sizeof(*w));
			if (!p)
				goto nomem;
			rec->wake[sub] = p;
			w = &rec->wake[sub][rec->nwake[sub]++];
			COPY(w->name, st, 2);
			w->cpu = sqlite3_column_int(st, 3);
			hs = &w->st;
		} else {
			goto bad;
		}
		read_stats(st, 12, hs);
		if (bl && parse_buckets(col(st, 21), bl))
			goto bad;
		continue;
nomem:
		ret = errno_msg(errbuf, -ENOMEM, "out of memory");
		break;
bad:
		ret = set_err(errbuf, "store: cell %lld has a malformed histogram row (%s %s %s)",
			     cell_id, kind, col(st, 2), s);
	}
	if (!ret && rc != SQLITE_DONE)
		ret = hs_sqlerr(db, errbuf, "store");
	sqlite3_finalize(st);
	return ret;
}

static int load_cells(struct hstore *s, long long run_id, struct run *run, char *errbuf)
{
	sqlite3_stmt *st;
	int rc, ret = 0;

	if (sqlite3_prepare_v2(s->db, "SELECT id, name, workload, config, rep, status, "
			       "error, ok, knobs, cap_kernel, cap_host, cap_started, "
			       "cap_version, duration_s, events, lost_events, late_events, "
			       "unmatched, lossy, has_hist, has_wakeup, wl_present, wl_type, "
			       "wl_duration_s, wl_counters, wl_options FROM cell WHERE "
			       "run_id = ? ORDER BY ord", -1, &st, NULL))
		return hs_sqlerr(s->db, errbuf, "store");
	sqlite3_bind_int64(st, 1, run_id);
	while (!ret && (rc = sqlite3_step(st)) == SQLITE_ROW) {
		struct cell *c;
		struct record *r;
		void *p = grow_array(run->cells, run->ncells, sizeof(*c));

		if (!p) {
			ret = errno_msg(errbuf, -ENOMEM, "out of memory");
			break;
		}
		run->cells = p;
		c = &run->cells[run->ncells++];
		r = &c->rec;
		COPY(c->id, st, 1);
		COPY(c->workload, st, 2);
		COPY(c->config, st, 3);
		c->rep = (unsigned int)sqlite3_column_int(st, 4);
		COPY(c->status, st, 5);
		COPY(c->error, st, 6);
		c->ok = sqlite3_column_int(st, 7);
		/* "store:<run>/<cell>": a name for messages, never a path to open */
		snprintf(c->dir, sizeof(c->dir), "%.32s/%.140s", run->dir, c->id);
		snprintf(r->dir, sizeof(r->dir), "%s", c->dir);
		COPY(r->cap.kernel, st, 9);
		COPY(r->cap.hostname, st, 10);
		COPY(r->cap.started, st, 11);
		COPY(r->cap.version, st, 12);
		r->cap.duration_s = sqlite3_column_double(st, 13);
		r->cap.events = (uint64_t)sqlite3_column_int64(st, 14);
		r->cap.lost_events = (uint64_t)sqlite3_column_int64(st, 15);
		r->cap.late_events = (uint64_t)sqlite3_column_int64(st, 16);
		r->cap.unmatched = (uint64_t)sqlite3_column_int64(st, 17);
		r->cap.lossy = sqlite3_column_int(st, 18);
		r->has_hist = sqlite3_column_int(st, 19);
		r->has_wakeup = sqlite3_column_int(st, 20);
		r->wl.present = sqlite3_column_int(st, 21);
		COPY(r->wl.workload, st, 22);
		r->wl.duration_s = sqlite3_column_double(st, 23);
		if (kv_parse(col(st, 8), &c->knobs, &c->nknobs) ||
		    kv_parse(col(st, 24), &r->wl.counter, &r->wl.ncounter) ||
		    kv_parse(col(st, 25), &r->wl.opt, &r->wl.nopt)) {
			ret = set_err(errbuf, "store: cell %s of run %lld has malformed knobs, "
				     "counters or options", c->id, run_id);
			break;
		}
		if (c->ok)
			ret = load_hists(s->db, sqlite3_column_int64(st, 0), r, errbuf);
	}
	if (!ret && rc != SQLITE_DONE)
		ret = hs_sqlerr(s->db, errbuf, "store");
	sqlite3_finalize(st);
	return ret;
}

int hstore_load_run(struct hstore *s, long long run_id, struct run *run, char *errbuf)
{
	static const enum run_meta_field cols[] = {
		RM_HOSTNAME, RM_KERNEL, RM_STARTED, RM_CPUS, RM_CPU_MODEL, RM_PREEMPT, RM_HZ,
		RM_NOHZ, RM_CMDLINE, RM_GOVERNOR, RM_VERSION,
	};
	sqlite3_stmt *st;
	size_t i;
	int rc, ret;

	memset(run, 0, sizeof(*run));
	if (sqlite3_prepare_v2(s->db, "SELECT host, kernel, started, cpus, cpu_model, "
			       "preempt, hz, nohz, cmdline, governor, version, scenario, "
			       "is_record, complete, planned, npartial FROM run WHERE id = ?",
			       -1, &st, NULL))
		return hs_sqlerr(s->db, errbuf, "store");
	sqlite3_bind_int64(st, 1, run_id);
	rc = sqlite3_step(st);
	if (rc != SQLITE_ROW) {
		ret = rc == SQLITE_DONE ? errno_msg(errbuf, -ENOENT, "the store has no run %lld",
						   run_id)
					: hs_sqlerr(s->db, errbuf, "store");
		sqlite3_finalize(st);
		return ret;
	}
	snprintf(run->dir, sizeof(run->dir), "store:%lld", run_id);
	for (i = 0; i < ARRAY_SIZE(cols); i++)
		snprintf(run->meta[cols[i]], META_LEN, "%s", col(st, (int)i));
	COPY(run->scenario, st, 11);
	run->is_record = sqlite3_column_int(st, 12);
	run->complete = sqlite3_column_int(st, 13);
	run->planned = (size_t)sqlite3_column_int64(st, 14);
	run->npartial = (size_t)sqlite3_column_int64(st, 15);
	sqlite3_finalize(st);
	ret = load_cells(s, run_id, run, errbuf);
	if (ret)
		run_free(run);
	return ret;
}

/* --- merge --- */

#define RUN_COPY "host, kernel, scenario, started, digest, is_record, complete, planned, " \
	"npartial, cpus, cpu_model, preempt, hz, nohz, cmdline, governor, version, " \
	"kernel_build, source, imported"
#define CELL_COPY "ord, name, workload, config, rep, status, error, ok, knobs, " \
	"cap_kernel, cap_host, cap_started, cap_version, duration_s, events, lost_events, " \
	"late_events, unmatched, lossy, has_hist, has_wakeup, wl_present, wl_type, " \
	"wl_duration_s, wl_counters, wl_options"
#define HIST_COPY "ord, kind, name, cpu, func, pool, sub, unit, descr, group_count, " \
	"ksoftirqd_count, long_runs, count, min, max, mean, stddev, p50, p90, p99, p999, " \
	"buckets"

/* copy_run - one run of src into main: the run row, then each cell with its rows */
static int copy_run(sqlite3 *db, long long src_id, char *errbuf)
{
	sqlite3_stmt *cells = NULL, *st = NULL;
	long long run_id, cell_id;
	int rc, ret = 0;

	if (sqlite3_prepare_v2(db, "INSERT INTO main.run (" RUN_COPY ") SELECT " RUN_COPY
			       " FROM src.run WHERE id = ?", -1, &st, NULL))
		return hs_sqlerr(db, errbuf, "merge");
	sqlite3_bind_int64(st, 1, src_id);
	rc = sqlite3_step(st);
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE)
		return hs_sqlerr(db, errbuf, "merge");
	run_id = sqlite3_last_insert_rowid(db);
	if (sqlite3_prepare_v2(db, "SELECT id FROM src.cell WHERE run_id = ?", -1, &cells,
			       NULL))
		return hs_sqlerr(db, errbuf, "merge");
	sqlite3_bind_int64(cells, 1, src_id);
	while (!ret && (rc = sqlite3_step(cells)) == SQLITE_ROW) {
		long long old = sqlite3_column_int64(cells, 0);
		char sql[1024];

		snprintf(sql, sizeof(sql), "INSERT INTO main.cell (run_id, " CELL_COPY ") "
			 "SELECT %lld, " CELL_COPY " FROM src.cell WHERE id = %lld", run_id, old);
		ret = hs_exec(db, sql, errbuf);
		cell_id = sqlite3_last_insert_rowid(db);
		snprintf(sql, sizeof(sql), "INSERT INTO main.hist (cell_id, " HIST_COPY ") "
			 "SELECT %lld, " HIST_COPY " FROM src.hist WHERE cell_id = %lld "
			 "ORDER BY rowid", cell_id, old);
		ret = ret ?: hs_exec(db, sql, errbuf);
		snprintf(sql, sizeof(sql), "INSERT INTO main.value (cell_id, metric_id, value, "
			 "count) SELECT %lld, mm.id, v.value, v.count FROM src.value v JOIN "
			 "src.metric sm ON sm.id = v.metric_id JOIN main.metric mm ON "
			 "mm.name = sm.name WHERE v.cell_id = %lld", cell_id, old);
		ret = ret ?: hs_exec(db, sql, errbuf);
	}
	if (!ret && rc != SQLITE_DONE)
		ret = hs_sqlerr(db, errbuf, "merge");
	sqlite3_finalize(cells);
	return ret;
}

static int merge_runs(sqlite3 *db, size_t *added, size_t *present, size_t *conflicts,
		      char *errbuf)
{
	sqlite3_stmt *st;
	int rc, ret;

	ret = hs_exec(db, "INSERT OR IGNORE INTO main.metric (name) SELECT name FROM "
		      "src.metric", errbuf);
	if (ret)
		return ret;
	/* each source run, with the digest of the run stored under its key, if any */
	if (sqlite3_prepare_v2(db, "SELECT s.id, s.digest, m.digest FROM src.run s LEFT "
			       "JOIN main.run m ON m.host = s.host AND m.kernel = s.kernel AND "
			       "m.scenario = s.scenario AND m.started = s.started ORDER BY s.id",
			       -1, &st, NULL))
		return hs_sqlerr(db, errbuf, "merge");
	while (!ret && (rc = sqlite3_step(st)) == SQLITE_ROW) {
		const char *mine = (const char *)sqlite3_column_text(st, 2);

		if (!mine) {
			ret = copy_run(db, sqlite3_column_int64(st, 0), errbuf);
			(*added)++;
		} else if (!strcmp(mine, (const char *)sqlite3_column_text(st, 1))) {
			(*present)++;
		} else {
			(*conflicts)++;
		}
	}
	if (!ret && rc != SQLITE_DONE)
		ret = hs_sqlerr(db, errbuf, "merge");
	sqlite3_finalize(st);
	return ret;
}

int hstore_merge(struct hstore *dst, const char *src_path, size_t *added,
		 size_t *present, size_t *conflicts, char *errbuf)
{
	struct hstore *src;
	sqlite3_stmt *st;
	int ret;

	*added = *present = *conflicts = 0;
	/* check the source: ours, and of this schema (read-only: it may be a lab's copy) */
	ret = hstore_open(src_path, HS_RDONLY, &src, errbuf);
	if (ret && strstr(errbuf, "a new file to create"))
		return errno_msg(errbuf, ret, "%s is not a deferbench store, or a damaged one: "
				 "merge takes stores that 'deferbench history add' made",
				 src_path);
	if (ret)
		return ret;
	hstore_close(src);
	if (!strcmp(src_path, dst->path))
		return set_err(errbuf, "%s: cannot merge a store into itself", src_path);
	if (sqlite3_prepare_v2(dst->db, "ATTACH DATABASE ? AS src", -1, &st, NULL))
		return hs_sqlerr(dst->db, errbuf, "merge");
	sqlite3_bind_text(st, 1, src_path, -1, SQLITE_STATIC);
	ret = sqlite3_step(st) == SQLITE_DONE ? 0 : hs_sqlerr(dst->db, errbuf, src_path);
	sqlite3_finalize(st);
	if (ret)
		return ret;
	ret = hs_exec(dst->db, "BEGIN IMMEDIATE", errbuf);
	if (!ret) {
		ret = merge_runs(dst->db, added, present, conflicts, errbuf);
		if (ret)
			sqlite3_exec(dst->db, "ROLLBACK", NULL, NULL, NULL);
		else
			ret = hs_exec(dst->db, "COMMIT", errbuf);
		if (ret)
			*added = 0;
	}
	sqlite3_exec(dst->db, "DETACH DATABASE src", NULL, NULL, NULL);
	return ret;
}
