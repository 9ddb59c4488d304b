/* SPDX-License-Identifier: GPL-2.0 */
/*
 * history_int.h - what the store's files share, and the migration step list the unit
 * tests drive with a schema of their own.
 */
#ifndef DEFERBENCH_HISTORY_INT_H
#define DEFERBENCH_HISTORY_INT_H

/* private to analysis/history/: its files define DEFERBENCH_ALLOW_HISTORY_INT_H before including it */
#ifndef DEFERBENCH_ALLOW_HISTORY_INT_H
#error "history_int.h is private to analysis/history/; include its public header"
#endif

#include <sqlite3.h>

#include "history.h"
#include "moved.h"

struct hstore {
	sqlite3 *db;
	char path[PATH_MAX];
	int schema;
};

/* One step forward: the SQL that takes a store from version to - 1 to version to. */
struct hstore_migration {
	int to;
	const char *sql;
};

/*
 * hstore_migrate - in one BEGIN IMMEDIATE transaction, apply every step above the
 * store's user_version (read again inside the transaction: another process may have
 * created or migrated it meanwhile), then set user_version and application_id. A store
 * newer than the last step is -ENOTSUP; a file that became another application's
 * database meanwhile is refused.
 */
int hstore_migrate(sqlite3 *db, const struct hstore_migration *m, size_t n,
		   char *errbuf);

/* hs_sqlerr - errbuf from the connection's last error; -EBUSY for a lock timeout */
int hs_sqlerr(sqlite3 *db, char *errbuf, const char *what);
/*
 * history_moved_places - the place of each point of set's moved:* series
 * (history_moved.c): the kind of context or pool that held most of the work's samples
 * in that run
 */
int history_moved_places(struct hstore *hs, struct hs_set *set, char *errbuf);
/* hs_exec - run SQL without results */
int hs_exec(sqlite3 *db, const char *sql, char *errbuf);

#endif
