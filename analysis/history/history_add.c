// SPDX-License-Identifier: GPL-2.0
/*
 * history_add.c - put a loaded run into the store, in one transaction (see history.h).
 */
#include <errno.h>
#include <json-c/json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define DEFERBENCH_ALLOW_HISTORY_INT_H
#include "history_int.h"
#include "msg.h"
#include "file.h"
#include "sys.h"

/* Statements of one import, prepared once. */
struct ins {
	sqlite3 *db;
	sqlite3_stmt *cell, *hist, *metric, *metric_id, *value;
	char *errbuf;
};

#define RUN_COLS "host, kernel, scenario, started, digest, is_record, complete, planned, " \
	"npartial, cpus, cpu_model, preempt, hz, nohz, cmdline, governor, version, " \
	"kernel_build, source, imported"
#define CELL_COLS "ord, name, workload, config, rep, status, error, ok, knobs, " \
	"cap_kernel, cap_host, cap_started, cap_version, duration_s, events, lost_events, " \
	"late_events, unmatched, lossy, has_hist, has_wakeup, wl_present, wl_type, " \
	"wl_duration_s, wl_counters, wl_options"
#define HIST_COLS "ord, kind, name, cpu, func, pool, sub, unit, descr, group_count, " \
	"ksoftirqd_count, long_runs, count, min, max, mean, stddev, p50, p90, p99, p999, " \
	"buckets"

/* fnv1a - of the file's bytes, as hex: tells a re-import of the same run from another */
static int file_digest(const char *dir, bool is_record, char *out, size_t len)
{
	char p[PATH_MAX];
	uint64_t h = 0xcbf29ce484222325ULL;
	size_t n, i;
	char *buf;

	if (path_join(p, sizeof(p), dir, is_record ? "summary.json" : "run.json"))
		return -ENAMETOOLONG;
	buf = read_whole_file(p, &n);
	if (!buf)
		return -errno;
	for (i = 0; i < n; i++) {
		h ^= (unsigned char)buf[i];
		h *= 0x100000001b3ULL;
	}
	free(buf);
	snprintf(out, len, "%016llx", (unsigned long long)h);
	return 0;
}

static int prep(struct ins *in, const char *sql, sqlite3_stmt **st)
{
	if (sqlite3_prepare_v2(in->db, sql, -1, st, NULL) != SQLITE_OK)
		return hs_sqlerr(in->db, in->errbuf, "store");
	return 0;
}

/* done - step a statement that returns no row, reset it for the next use */
static int done(struct ins *in, sqlite3_stmt *st)
{
	int rc = sqlite3_step(st);

	sqlite3_reset(st);
	sqlite3_clear_bindings(st);
	return rc == SQLITE_DONE ? 0 : hs_sqlerr(in->db, in->errbuf, "store: insert");
}

static void bind_text(sqlite3_stmt *st, int i, const char *s)
{
	sqlite3_bind_text(st, i, s ? s : "", -1, SQLITE_TRANSIENT);
}

/* kv_json - a JSON object of the pairs (values as text, as the files had them) */
static char *kv_json(const struct kv *kv, size_t n)
{
	struct json_object *o = json_object_new_object();
	char *s;
	size_t i;

	if (!o)
		return NULL;
	for (i = 0; i < n; i++)
		json_object_object_add(o, kv[i].key, json_object_new_string(kv[i].val));
	s = strdup(json_object_to_json_string_ext(o, JSON_C_TO_STRING_PLAIN));
	json_object_put(o);
	return s;
}

/* buckets_text - "lo hi count\n" per bucket; "" for none */
static char *buckets_text(const struct bucketlist *bl)
{
	size_t i, cap = bl->n * 64 + 1, off = 0;
	char *s = malloc(cap);

	if (!s)
		return NULL;
	s[0] = '\0';
	for (i = 0; i < bl->n; i++)
		off += (size_t)snprintf(s + off, cap - off, "%llu %llu %llu\n",
					(unsigned long long)bl->b[i].lo,
					(unsigned long long)bl->b[i].hi,
					(unsigned long long)bl->b[i].count);
	return s;
}

struct hrow {
	int ord;
	const char *kind, *name, *func, *pool, *sub, *unit, *descr;
	int cpu;
	uint64_t group_count, ksoftirqd, long_runs;
	const struct hist_stats *st;
	const struct bucketlist *bl;	/* NULL: no buckets */
};

static int put_hist(struct ins *in, long long cell_id, const struct hrow *r)
{
	sqlite3_stmt *st = in->hist;
	char *b = r->bl ? buckets_text(r->bl) : strdup("");
	int i = 1;

	if (!b)
		return errno_msg(in->errbuf, -ENOMEM, "out of memory");
	sqlite3_bind_int64(st, i++, cell_id);
	sqlite3_bind_int(st, i++, r->ord);
	bind_text(st, i++, r->kind);
	bind_text(st, i++, r->name);
	sqlite3_bind_int(st, i++, r->cpu);
	bind_text(st, i++, r->func);
	bind_text(st, i++, r->pool);
	bind_text(st, i++, r->sub);
	bind_text(st, i++, r->unit);
	bind_text(st, i++, r->descr);
	sqlite3_bind_int64(st, i++, (sqlite3_int64)r->group_count);
	sqlite3_bind_int64(st, i++, (sqlite3_int64)r->ksoftirqd);
	sqlite3_bind_int64(st, i++, (sqlite3_int64)r->long_runs);
	sqlite3_bind_int64(st, i++, (sqlite3_int64)r->st->count);
	sqlite3_bind_int64(st, i++, (sqlite3_int64)r->st->min);
	sqlite3_bind_int64(st, i++, (sqlite3_int64)r->st->max);
	sqlite3_bind_double(st, i++, r->st->mean);
	sqlite3_bind_double(st, i++, r->st->stddev);
	sqlite3_bind_int64(st, i++, (sqlite3_int64)r->st->p50);
	sqlite3_bind_int64(st, i++, (sqlite3_int64)r->st->p90);
	sqlite3_bind_int64(st, i++, (sqlite3_int64)r->st->p99);
	sqlite3_bind_int64(st, i++, (sqlite3_int64)r->st->p999);
	sqlite3_bind_text(st, i++, b, -1, free);
	return done(in, st);
}

/* put_hists - every histogram group of a record, one row per group and sub-metric */
static int put_hists(struct ins *in, long long cell_id, const struct record *rec,
		     size_t *nh)
{
	size_t i, m;
	int ret = 0, ord = 0;

	for (i = 0; !ret && i < rec->wl.nm; i++, ord++) {
		const struct wl_metric_data *d = &rec->wl.m[i];
		struct hrow r = { .ord = ord, .kind = "workload", .name = d->name, .cpu = -1,
				  .unit = d->unit, .descr = d->desc, .st = &d->st, .bl = &d->h };

		ret = put_hist(in, cell_id, &r);
		(*nh)++;
	}
	for (i = 0; !ret && i < rec->nsirq; i++, ord++)
		for (m = 0; !ret && m < SM_NR; m++) {
			const struct sirq_data *g = &rec->sirq[i];
			struct hrow r = { .ord = ord, .kind = "softirq", .name = g->vector,
					  .cpu = g->cpu, .sub = record_sirq_metric_names[m], .unit = "ns",
					  .group_count = g->count, .ksoftirqd = g->ksoftirqd_count,
					  .long_runs = g->long_runs, .st = &g->st[m], .bl = &g->h[m] };

			ret = put_hist(in, cell_id, &r);
			(*nh)++;
		}
	for (i = 0; !ret && i < rec->nwq; i++, ord++)
		for (m = 0; !ret && m < WM_NR; m++) {
			const struct wq_data *g = &rec->wq[i];
			struct hrow r = { .ord = ord, .kind = "wq", .name = g->wq, .func = g->func,
					  .pool = g->pool, .cpu = -1, .sub = record_wq_metric_names[m],
					  .unit = "ns", .group_count = g->count, .st = &g->st[m],
					  .bl = &g->h[m] };

			ret = put_hist(in, cell_id, &r);
			(*nh)++;
		}
	for (m = 0; !ret && m < WK_NR; m++)
		for (i = 0; !ret && i < rec->nwake[m]; i++, ord++) {
			const struct wake_data *w = &rec->wake[m][i];
			struct hrow r = { .ord = ord, .kind = "wakeup", .name = w->name,
					  .cpu = w->cpu, .sub = record_wake_kind_names[m], .unit = "ns",
					  .st = &w->st };

			ret = put_hist(in, cell_id, &r);
			(*nh)++;
		}
	return ret;
}

/* metric_row - the id of a metric name, added when new */
static int metric_row(struct ins *in, const char *name, long long *id)
{
	int rc;

	bind_text(in->metric, 1, name);
	if (done(in, in->metric))
		return -EIO;
	bind_text(in->metric_id, 1, name);
	rc = sqlite3_step(in->metric_id);
	*id = sqlite3_column_int64(in->metric_id, 0);
	sqlite3_reset(in->metric_id);
	return rc == SQLITE_ROW ? 0 : hs_sqlerr(in->db, in->errbuf, "store: metric");
}

/* put_values - each metric id's value in this repetition, as compare would take it */
static int put_values(struct ins *in, long long cell_id, const struct cell *c, size_t *nv)
{
	struct cellset one = { .n = 1 };
	struct keylist kl = { 0 };
	char id[METRIC_ID_LEN];
	long long mid;
	uint64_t count;
	size_t i;
	double v;
	int ret;

	one.cell[0] = c;
	ret = keylist_collect(&one, false, &kl);
	/* every work's moved metric: its series goes on across a move (moved.h) */
	ret = ret ?: moved_keys_record(&c->rec, &kl);
	for (i = 0; !ret && i < kl.n; i++) {
		if (metric_value(&c->rec, &kl.k[i], &v, &count))
			continue;	/* no value (statistics without buckets) */
		metric_id(&kl.k[i], id, sizeof(id));
		ret = metric_row(in, id, &mid);
		if (ret)
			break;
		sqlite3_bind_int64(in->value, 1, cell_id);
		sqlite3_bind_int64(in->value, 2, mid);
		sqlite3_bind_double(in->value, 3, v);
		sqlite3_bind_int64(in->value, 4, (sqlite3_int64)count);
		ret = done(in, in->value);
		(*nv)++;
	}
	keylist_free(&kl);
	if (ret == -ENOMEM)
		errno_msg(in->errbuf, ret, "out of memory");
	return ret;
}

static int put_cell(struct ins *in, long long run_id, int ord, const struct cell *c,
		    struct hstore_added *res)
{
	const struct record *r = &c->rec;
	sqlite3_stmt *st = in->cell;
	char *knobs, *counters, *opts;
	long long cell_id;
	int i = 1, ret;

	knobs = kv_json(c->knobs, c->nknobs);
	counters = kv_json(r->wl.counter, r->wl.ncounter);
	opts = kv_json(r->wl.opt, r->wl.nopt);
	if (!knobs || !counters || !opts) {
		free(knobs);
		free(counters);
		free(opts);
		return errno_msg(in->errbuf, -ENOMEM, "out of memory");
	}
	sqlite3_bind_int64(st, i++, run_id);
	sqlite3_bind_int(st, i++, ord);
	bind_text(st, i++, c->id);
	bind_text(st, i++, c->workload);
	bind_text(st, i++, c->config);
	sqlite3_bind_int(st, i++, (int)c->rep);
	bind_text(st, i++, c->status);
	bind_text(st, i++, c->error);
	sqlite3_bind_int(st, i++, c->ok);
	sqlite3_bind_text(st, i++, knobs, -1, free);
	bind_text(st, i++, r->cap.kernel);
	bind_text(st, i++, r->cap.hostname);
	bind_text(st, i++, r->cap.started);
	bind_text(st, i++, r->cap.version);
	sqlite3_bind_double(st, i++, r->cap.duration_s);
	sqlite3_bind_int64(st, i++, (sqlite3_int64)r->cap.events);
	sqlite3_bind_int64(st, i++, (sqlite3_int64)r->cap.lost_events);
	sqlite3_bind_int64(st, i++, (sqlite3_int64)r->cap.late_events);
	sqlite3_bind_int64(st, i++, (sqlite3_int64)r->cap.unmatched);
	sqlite3_bind_int(st, i++, r->cap.lossy);
	sqlite3_bind_int(st, i++, r->has_hist);
	sqlite3_bind_int(st, i++, r->has_wakeup);
	sqlite3_bind_int(st, i++, r->wl.present);
	bind_text(st, i++, r->wl.workload);
	sqlite3_bind_double(st, i++, r->wl.duration_s);
	sqlite3_bind_text(st, i++, counters, -1, free);
	sqlite3_bind_text(st, i++, opts, -1, free);
	ret = done(in, st);
	if (ret)
		return ret;
	cell_id = sqlite3_last_insert_rowid(in->db);
	res->ncells++;
	if (!c->ok)
		return 0;
	ret = put_hists(in, cell_id, r, &res->nhists);
	return ret ?: put_values(in, cell_id, c, &res->nvalues);
}

static int put_run(struct ins *in, const struct run *run, const char *source,
		   const char *digest, long long *id)
{
	char now[32], sql[512];
	sqlite3_stmt *st;
	int i = 1, ret;

	snprintf(sql, sizeof(sql), "INSERT INTO run (" RUN_COLS ") VALUES "
		 "(?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)");
	ret = prep(in, sql, &st);
	if (ret)
		return ret;
	iso_time_now(now, sizeof(now));
	bind_text(st, i++, run->meta[RM_HOSTNAME]);
	bind_text(st, i++, run->meta[RM_KERNEL]);
	bind_text(st, i++, run->scenario);
	bind_text(st, i++, run->meta[RM_STARTED]);
	bind_text(st, i++, digest);
	sqlite3_bind_int(st, i++, run->is_record);
	sqlite3_bind_int(st, i++, run->complete);
	sqlite3_bind_int64(st, i++, (sqlite3_int64)run->planned);
	sqlite3_bind_int64(st, i++, (sqlite3_int64)run->npartial);
	bind_text(st, i++, run->meta[RM_CPUS]);
	bind_text(st, i++, run->meta[RM_CPU_MODEL]);
	bind_text(st, i++, run->meta[RM_PREEMPT]);
	bind_text(st, i++, run->meta[RM_HZ]);
	bind_text(st, i++, run->meta[RM_NOHZ]);
	bind_text(st, i++, run->meta[RM_CMDLINE]);
	bind_text(st, i++, run->meta[RM_GOVERNOR]);
	bind_text(st, i++, run->meta[RM_VERSION]);
	bind_text(st, i++, "");
	bind_text(st, i++, source);
	bind_text(st, i++, now);
	ret = done(in, st);
	sqlite3_finalize(st);
	*id = sqlite3_last_insert_rowid(in->db);
	return ret;
}

/* existing - the id and digest of the run stored under the same key, if any */
static int existing(struct ins *in, const struct run *run, long long *id, char *digest,
		    size_t len)
{
	sqlite3_stmt *st;
	int ret, rc;

	ret = prep(in, "SELECT id, digest FROM run WHERE host = ? AND kernel = ? AND "
		   "scenario = ? AND started = ?", &st);
	if (ret)
		return ret;
	bind_text(st, 1, run->meta[RM_HOSTNAME]);
	bind_text(st, 2, run->meta[RM_KERNEL]);
	bind_text(st, 3, run->scenario);
	bind_text(st, 4, run->meta[RM_STARTED]);
	rc = sqlite3_step(st);
	*id = 0;
	if (rc == SQLITE_ROW) {
		*id = sqlite3_column_int64(st, 0);
		snprintf(digest, len, "%s", (const char *)sqlite3_column_text(st, 1));
	}
	sqlite3_finalize(st);
	return rc == SQLITE_ROW || rc == SQLITE_DONE ? 0 : hs_sqlerr(in->db, in->errbuf,
								     "store");
}

static void ins_free(struct ins *in)
{
	sqlite3_finalize(in->cell);
	sqlite3_finalize(in->hist);
	sqlite3_finalize(in->metric);
	sqlite3_finalize(in->metric_id);
	sqlite3_finalize(in->value);
}

static int add_in_tx(struct ins *in, const struct run *run, const char *source,
		     const char *digest, bool replace, struct hstore_added *res)
{
	char old[32] = "";
	long long id;
	size_t i;
	int ret;

	ret = existing(in, run, &id, old, sizeof(old));
	if (ret)
		return ret;
	if (id && !strcmp(old, digest)) {
		res->existed = true;
		res->run_id = id;
		return 0;
	}
	if (id && !replace)
		return errno_msg(in->errbuf, -EEXIST, "a different run of %s, kernel %s, "
				"scenario %s started %s is stored already (run %lld); add "
				"--replace to replace it", run->meta[RM_HOSTNAME],
				run->meta[RM_KERNEL], run->scenario, run->meta[RM_STARTED], id);
	if (id) {
		char sql[64];

		snprintf(sql, sizeof(sql), "DELETE FROM run WHERE id = %lld", id);
		ret = hs_exec(in->db, sql, in->errbuf);
		res->replaced = true;
	}
	ret = ret ?: prep(in, "INSERT INTO cell (run_id, " CELL_COLS ") VALUES (?,?,?,?,?,?,"
			  "?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)", &in->cell);
	ret = ret ?: prep(in, "INSERT INTO hist (cell_id, " HIST_COLS ") VALUES (?,?,?,?,?,?,"
			  "?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)", &in->hist);
	ret = ret ?: prep(in, "INSERT OR IGNORE INTO metric (name) VALUES (?)", &in->metric);
	ret = ret ?: prep(in, "SELECT id FROM metric WHERE name = ?", &in->metric_id);
	ret = ret ?: prep(in, "INSERT INTO value (cell_id, metric_id, value, count) "
			  "VALUES (?,?,?,?)", &in->value);
	ret = ret ?: put_run(in, run, source, digest, &res->run_id);
	/* control cells (capture off) stay in the run: a series mixes no untraced values */
	for (i = 0; !ret && i < run->ncells; i++)
		if (!run->cells[i].control)
			ret = put_cell(in, res->run_id, (int)i, &run->cells[i], res);
	return ret;
}

int history_add_run(struct hstore *s, const struct run *run, const char *source,
		   bool replace, struct hstore_added *res, char *errbuf)
{
	struct ins in = { .db = s->db, .errbuf = errbuf };
	char digest[32];
	int ret;

	memset(res, 0, sizeof(*res));
	if (!run->meta[RM_HOSTNAME][0] || !run->meta[RM_KERNEL][0] ||
	    !run->meta[RM_STARTED][0])
		return set_err(errbuf, "%s: the run names no host, kernel or start time; it "
			      "cannot be placed in a history", run->dir);
	ret = file_digest(run->dir, run->is_record, digest, sizeof(digest));
	if (ret)
		return errno_msg(errbuf, ret, "%s: cannot read its run.json: %s", run->dir,
				strerror(-ret));
	ret = hs_exec(s->db, "BEGIN IMMEDIATE", errbuf);
	if (ret)
		return ret;
	ret = add_in_tx(&in, run, source, digest, replace, res);
	ins_free(&in);
	if (ret) {
		sqlite3_exec(s->db, "ROLLBACK", NULL, NULL, NULL);
		return ret;
	}
	ret = hs_exec(s->db, "COMMIT", errbuf);
	if (ret)
		sqlite3_exec(s->db, "ROLLBACK", NULL, NULL, NULL);
	return ret;
}
