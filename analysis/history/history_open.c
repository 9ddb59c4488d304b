// SPDX-License-Identifier: GPL-2.0
/*
 * history_open.c - open a results store: tell a deferbench store from any other file,
 * and migrate its schema forward (see history.h).
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define DEFERBENCH_ALLOW_HISTORY_INT_H
#include "history_int.h"
#include "msg.h"

/*
 * Schema 1. One row per run, per cell (repetition) and per histogram of a cell; the
 * per-repetition value of every metric id in "value", named through "metric" so that
 * a row is a few numbers. "samples" shows those values with their run's coordinates.
 */
static const char schema_v1[] =
	"CREATE TABLE run ("
	" id INTEGER PRIMARY KEY,"
	" host TEXT NOT NULL, kernel TEXT NOT NULL, scenario TEXT NOT NULL,"
	" started TEXT NOT NULL,"
	" digest TEXT NOT NULL,"		/* of run.json (summary.json for a record) */
	" is_record INTEGER NOT NULL, complete INTEGER NOT NULL,"
	" planned INTEGER NOT NULL, npartial INTEGER NOT NULL,"
	" cpus TEXT NOT NULL, cpu_model TEXT NOT NULL, preempt TEXT NOT NULL,"
	" hz TEXT NOT NULL, nohz TEXT NOT NULL, cmdline TEXT NOT NULL,"
	" governor TEXT NOT NULL, version TEXT NOT NULL,"
	" kernel_build TEXT NOT NULL DEFAULT '',"
	" source TEXT NOT NULL, imported TEXT NOT NULL,"
	" UNIQUE (host, kernel, scenario, started));"
	"CREATE TABLE cell ("
	" id INTEGER PRIMARY KEY,"
	" run_id INTEGER NOT NULL REFERENCES run(id) ON DELETE CASCADE,"
	" ord INTEGER NOT NULL,"		/* position in run.json */
	" name TEXT NOT NULL, workload TEXT NOT NULL, config TEXT NOT NULL,"
	" rep INTEGER NOT NULL, status TEXT NOT NULL, error TEXT NOT NULL,"
	" ok INTEGER NOT NULL, knobs TEXT NOT NULL,"	/* JSON object */
	" cap_kernel TEXT NOT NULL, cap_host TEXT NOT NULL, cap_started TEXT NOT NULL,"
	" cap_version TEXT NOT NULL, duration_s REAL NOT NULL,"
	" events INTEGER NOT NULL, lost_events INTEGER NOT NULL,"
	" late_events INTEGER NOT NULL, unmatched INTEGER NOT NULL,"
	" lossy INTEGER NOT NULL, has_hist INTEGER NOT NULL, has_wakeup INTEGER NOT NULL,"
	" wl_present INTEGER NOT NULL, wl_type TEXT NOT NULL,"
	" wl_duration_s REAL NOT NULL,"
	" wl_counters TEXT NOT NULL, wl_options TEXT NOT NULL,"	/* JSON objects */
	" UNIQUE (run_id, workload, config, rep));"
	"CREATE TABLE hist ("
	" cell_id INTEGER NOT NULL REFERENCES cell(id) ON DELETE CASCADE,"
	" ord INTEGER NOT NULL,"		/* the group's position in its file */
	" kind TEXT NOT NULL,"			/* workload, softirq, wq, wakeup */
	" name TEXT NOT NULL, cpu INTEGER NOT NULL, func TEXT NOT NULL,"
	" pool TEXT NOT NULL, sub TEXT NOT NULL,"
	" unit TEXT NOT NULL, descr TEXT NOT NULL,"
	" group_count INTEGER NOT NULL, ksoftirqd_count INTEGER NOT NULL,"
	" long_runs INTEGER NOT NULL,"
	" count INTEGER NOT NULL, min INTEGER NOT NULL, max INTEGER NOT NULL,"
	" mean REAL NOT NULL, stddev REAL NOT NULL, p50 INTEGER NOT NULL,"
	" p90 INTEGER NOT NULL, p99 INTEGER NOT NULL, p999 INTEGER NOT NULL,"
	" buckets TEXT NOT NULL);"		/* "lo hi count\n" per bucket */
	"CREATE INDEX hist_cell ON hist(cell_id);"
	"CREATE TABLE metric (id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE);"
	"CREATE TABLE value ("
	" cell_id INTEGER NOT NULL REFERENCES cell(id) ON DELETE CASCADE,"
	" metric_id INTEGER NOT NULL REFERENCES metric(id),"
	" value REAL NOT NULL, count INTEGER NOT NULL,"
	" PRIMARY KEY (cell_id, metric_id)) WITHOUT ROWID;"
	"CREATE INDEX value_metric ON value(metric_id);"
	"CREATE VIEW samples AS SELECT r.host, r.kernel, r.scenario, c.workload, c.config,"
	" m.name AS metric, c.rep, v.value, v.count, c.wl_type, r.started, r.id AS run_id"
	" FROM value v JOIN cell c ON c.id = v.cell_id JOIN run r ON r.id = c.run_id"
	" JOIN metric m ON m.id = v.metric_id;";

static const struct hstore_migration migrations[] = {
	{ 1, schema_v1 },
};

int hs_sqlerr(sqlite3 *db, char *errbuf, const char *what)
{
	int code = sqlite3_errcode(db) & 0xff;

	if (code == SQLITE_BUSY || code == SQLITE_LOCKED)
		return errno_msg(errbuf, -EBUSY, "%s: the store stayed locked by another "
				"process for %d s; try again when it has finished", what,
				HSTORE_BUSY_MS / 1000);
	if (code == SQLITE_NOTADB || code == SQLITE_CORRUPT)
		return set_err(errbuf, "%s: not a deferbench store, or a damaged one (%s)",
			      what, sqlite3_errmsg(db));
	if (sqlite3_extended_errcode(db) == SQLITE_READONLY_ROLLBACK)
		return errno_msg(errbuf, -EROFS, "%s: an import was interrupted and only a "
				"process that may write the store can roll it back: run deferbench "
				"history once as its owner", what);
	if (code == SQLITE_READONLY)
		return errno_msg(errbuf, -EROFS, "%s: the store is read-only here (%s)", what,
				sqlite3_errmsg(db));
	if (code == SQLITE_FULL)
		return errno_msg(errbuf, -ENOSPC, "%s: disk full", what);
	/* what SQLite says, translated into what is wrong with the store */
	if (code == SQLITE_CONSTRAINT)
		return errno_msg(errbuf, -EINVAL, "%s: the store's rows do not fit together (SQLite: "
				 "%s): it was changed outside deferbench, or is damaged; use a copy "
				 "made before, or start a new store (-S, --store)", what,
				 sqlite3_errmsg(db));
	if (code == SQLITE_ERROR && (strstr(sqlite3_errmsg(db), "no such") ||
				     strstr(sqlite3_errmsg(db), "has no column")))
		return errno_msg(errbuf, -EINVAL, "%s: the store's tables are not those deferbench "
				 "made (SQLite: %s): it was changed outside deferbench, or is "
				 "damaged; use a copy made before, or start a new store (-S, --store)",
				 what, sqlite3_errmsg(db));
	if (code == SQLITE_IOERR)
		return errno_msg(errbuf, -EIO, "%s: the store cannot be read or written (SQLite: "
				 "%s): check the disk and the file", what, sqlite3_errmsg(db));
	if (code == SQLITE_NOMEM)
		return errno_msg(errbuf, -ENOMEM, "%s: out of memory", what);
	if (code == SQLITE_CANTOPEN)
		return errno_msg(errbuf, -EIO, "%s: the store cannot be opened (SQLite: %s): check "
				 "that its directory exists and may be written", what,
				 sqlite3_errmsg(db));
	return errno_msg(errbuf, -EIO, "%s: the store cannot be used (SQLite: %s)", what,
			 sqlite3_errmsg(db));
}

int hs_exec(sqlite3 *db, const char *sql, char *errbuf)
{
	if (sqlite3_exec(db, sql, NULL, NULL, NULL) != SQLITE_OK)
		return hs_sqlerr(db, errbuf, "store");
	return 0;
}

/* what a file says it is; read together by read_identity() */
struct identity {
	long long app, ver, ntab;
};

/*
 * read_identity - application id, schema version and number of schema objects from
 * one statement, so from one read transaction: one snapshot of the file. Read with
 * three statements, they could mix the empty file another writer was about to make a
 * store of (application id 0, from before its commit) with the store it made (tables,
 * from after): a store being created looked like another application's database.
 */
static int read_identity(sqlite3 *db, struct identity *id, char *errbuf)
{
	static const char sql[] =
		"SELECT (SELECT application_id FROM pragma_application_id),"
		" (SELECT user_version FROM pragma_user_version),"
		" (SELECT count(*) FROM sqlite_master)";
	sqlite3_stmt *st;
	int rc;

	if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK)
		return hs_sqlerr(db, errbuf, "store");
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW) {
		id->app = sqlite3_column_int64(st, 0);
		id->ver = sqlite3_column_int64(st, 1);
		id->ntab = sqlite3_column_int64(st, 2);
	}
	sqlite3_finalize(st);
	return rc == SQLITE_ROW ? 0 : hs_sqlerr(db, errbuf, "store");
}

/* foreign - neither a store of ours nor an empty file */
static bool foreign(const struct identity *id)
{
	return id->app != HSTORE_APP_ID && (id->app || id->ntab);
}

int hstore_migrate(sqlite3 *db, const struct hstore_migration *m, size_t n, char *errbuf)
{
	int last = n ? m[n - 1].to : 0, ret;
	struct identity id;
	char sql[96];
	size_t i;

	ret = hs_exec(db, "BEGIN IMMEDIATE", errbuf);
	if (ret)
		return ret;
	/* again, now that no other writer can: what was empty may have been made since */
	ret = read_identity(db, &id, errbuf);
	if (!ret && foreign(&id))
		ret = set_err(errbuf, "the file became an SQLite database of another "
			      "application while deferbench opened it");
	if (!ret && id.ver > last)
		ret = errno_msg(errbuf, -ENOTSUP, "the store has schema %lld, newer than this "
			       "deferbench knows (%d): use the deferbench that wrote it, or a "
			       "newer one", id.ver, last);
	for (i = 0; !ret && i < n; i++)
		if (m[i].to > id.ver)
			ret = hs_exec(db, m[i].sql, errbuf);
	if (!ret && id.ver < last) {
		snprintf(sql, sizeof(sql), "PRAGMA user_version = %d; PRAGMA application_id = %d",
			 last, HSTORE_APP_ID);
		ret = hs_exec(db, sql, errbuf);
	}
	if (ret) {
		sqlite3_exec(db, "ROLLBACK", NULL, NULL, NULL);
		return ret;
	}
	return hs_exec(db, "COMMIT", errbuf);
}

/* identify - a store of ours (any version), an empty file, or something else */
static int identify(struct hstore *s, int flags, char *errbuf)
{
	struct identity id;
	long long ver;
	int ret;

	ret = read_identity(s->db, &id, errbuf);
	if (ret == -EBUSY || ret == -EROFS)
		return ret;
	if (ret)
		return errno_msg(errbuf, ret, "%s: not a deferbench store, or a damaged one: "
				"give the path of a store (or of a new file to create)", s->path);
	if (foreign(&id))
		return set_err(errbuf, "%s is an SQLite database of another application, not a "
			      "deferbench store: give another path", s->path);
	ver = id.ver;
	if (ver > HSTORE_SCHEMA)
		return errno_msg(errbuf, -ENOTSUP, "%s has store schema %lld, newer than this "
				"deferbench reads (%d): use a newer deferbench", s->path, ver,
				HSTORE_SCHEMA);
	if (ver < HSTORE_SCHEMA && (flags & HS_RDONLY))
		return errno_msg(errbuf, -ENOTSUP, "%s has store schema %lld: open it once "
				"read-write (deferbench history add or merge) to migrate it to %d",
				s->path, ver, HSTORE_SCHEMA);
	if (ver < HSTORE_SCHEMA) {
		ret = hstore_migrate(s->db, migrations, sizeof(migrations) / sizeof(*migrations),
				     errbuf);
		if (ret)
			return ret;
	}
	s->schema = HSTORE_SCHEMA;
	return 0;
}

/* dirname_of - the directory of path, into buf ("." for a bare name) */
static const char *dirname_of(const char *path, char *buf, size_t len)
{
	const char *slash = strrchr(path, '/');

	if (!slash)
		return ".";
	snprintf(buf, len, "%.*s", slash == path ? 1 : (int)(slash - path), path);
	return buf;
}

int hstore_open(const char *path, int flags, struct hstore **out, char *errbuf)
{
	char dir[PATH_MAX];
	struct hstore *s;
	struct stat sb;
	int ret, of;

	*out = NULL;
	if (!stat(path, &sb) && S_ISDIR(sb.st_mode))
		return errno_msg(errbuf, -EISDIR, "%s is a directory: give the store's file, "
				"e.g. %s/results.db", path, path);
	/* SQLite reads /dev/zero as a store of schema 0 and a FIFO as a disk error */
	if (!stat(path, &sb) && !S_ISREG(sb.st_mode))
		return set_err(errbuf, "%s is %s, not a regular file: a store is a file that "
			       "'deferbench history add' made; give its path (-S, --store)", path,
			       S_ISFIFO(sb.st_mode) ? "a pipe" : S_ISCHR(sb.st_mode) ||
			       S_ISBLK(sb.st_mode) ? "a device" : S_ISSOCK(sb.st_mode) ?
			       "a socket" : "special");
	if ((flags & HS_RDONLY) && stat(path, &sb))
		return errno_msg(errbuf, -errno, "%s: %s: no store there yet ('deferbench "
				 "history add RUN' creates one; -S, --store names another)", path,
				 strerror(errno));
	s = calloc(1, sizeof(*s));
	if (!s)
		return errno_msg(errbuf, -ENOMEM, "out of memory");
	if (snprintf(s->path, sizeof(s->path), "%s", path) >= (int)sizeof(s->path)) {
		free(s);
		return errno_msg(errbuf, -ENAMETOOLONG, "%s: path too long", path);
	}
	/*
	 * A reader that may write opens read-write (never creating): an import killed
	 * half-way leaves a hot journal that only a writer can roll back, and a read-only
	 * connection would find the store unreadable until then.
	 */
	if (!(flags & HS_RDONLY))
		of = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE;
	else if (!access(path, W_OK) && !access(dirname_of(path, dir, sizeof(dir)), W_OK))
		of = SQLITE_OPEN_READWRITE;
	else
		of = SQLITE_OPEN_READONLY;
	/* never through a link planted where the store should be (outw.h) */
	of |= SQLITE_OPEN_NOFOLLOW;
	if (sqlite3_open_v2(path, &s->db, of, NULL) != SQLITE_OK) {
		ret = errno_msg(errbuf, -EIO, "%s: cannot open the store: %s", path,
			       !s->db ? "out of memory" : sqlite3_extended_errcode(s->db) ==
			       SQLITE_CANTOPEN_SYMLINK ? "it is a symbolic link (name the store "
			       "itself)" : sqlite3_errmsg(s->db));
		goto error;
	}
	sqlite3_busy_timeout(s->db, HSTORE_BUSY_MS);
	sqlite3_extended_result_codes(s->db, 0);
	ret = hs_exec(s->db, "PRAGMA foreign_keys = ON", errbuf);
	ret = ret ?: identify(s, flags, errbuf);
	if (ret)
		goto error;
	*out = s;
	return 0;
error:
	sqlite3_close(s->db);
	free(s);
	return ret;
}

void hstore_close(struct hstore *s)
{
	if (!s)
		return;
	sqlite3_close(s->db);
	free(s);
}

int hstore_schema(struct hstore *s)
{
	return s->schema;
}
