// SPDX-License-Identifier: GPL-2.0
/*
 * test_history_race.c - two processes creating one new results store at once (issue
 * 23): whatever point of its open the other one's whole creation lands at, each open
 * succeeds and the store is one deferbench store. The interleavings are made, not
 * hoped for: every statement this program hands SQLite (sqlite3_prepare_v2 and
 * sqlite3_exec, wrapped with ld --wrap) outside a transaction is a point where the
 * first opener stops while a second connection creates the store from start to end;
 * the test tries each point.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "fixture.h"
#define DEFERBENCH_ALLOW_HISTORY_INT_H
#include "history_int.h"
#include "msg.h"

int __real_sqlite3_prepare_v2(sqlite3 *db, const char *sql, int n, sqlite3_stmt **st,
			      const char **tail);
int __real_sqlite3_exec(sqlite3 *db, const char *sql, int (*cb)(void *, int, char **, char **),
			void *arg, char **errmsg);

static int inject_at = -1;	/* the statement of the first opener before which the other runs */
static int calls;		/* statements the first opener has handed SQLite so far */
static bool injecting;		/* the second opener runs: do not count its statements */
static const char *race_path;
static int other_ret = 1;
static char other_err[ERRBUF_LEN];

/*
 * maybe_other_opens - the second process, all of it: open (creating) and close. Only
 * where the first holds no transaction: inside one, the second would wait for its
 * commit (here, in one thread, for the busy timeout), which is no interleaving at all.
 */
static void maybe_other_opens(sqlite3 *db)
{
	struct hstore *s;

	if (injecting || !sqlite3_get_autocommit(db) || calls++ != inject_at)
		return;
	injecting = true;
	other_ret = hstore_open(race_path, 0, &s, other_err);
	if (!other_ret)
		hstore_close(s);
	injecting = false;
}

int __wrap_sqlite3_prepare_v2(sqlite3 *db, const char *sql, int n, sqlite3_stmt **st,
			      const char **tail)
{
	maybe_other_opens(db);
	return __real_sqlite3_prepare_v2(db, sql, n, st, tail);
}

int __wrap_sqlite3_exec(sqlite3 *db, const char *sql, int (*cb)(void *, int, char **, char **),
			void *arg, char **errmsg)
{
	maybe_other_opens(db);
	return __real_sqlite3_exec(db, sql, cb, arg, errmsg);
}

/* each point of a first open of a new store, with the whole of another one there */
static void test_create_race(void **state)
{
	char *dir = fixture_dir(), path[4096], err[ERRBUF_LEN];
	struct hstore *s;
	int points = 0, ret;

	(void)state;
	for (inject_at = 0;; inject_at++) {
		snprintf(path, sizeof(path), "%s/race%d.db", dir, inject_at);
		race_path = path;
		calls = 0;
		other_ret = 1;
		ret = hstore_open(path, 0, &s, err);
		if (ret)
			fail_msg("the other open created the store before statement %d of this "
				 "one, which failed: %s", inject_at, err);
		assert_int_equal(hstore_schema(s), HSTORE_SCHEMA);
		hstore_close(s);
		if (other_ret == 1)
			break;		/* this open made fewer statements: every point tried */
		if (other_ret)
			fail_msg("the other open, before statement %d of the first, failed: %s",
				 inject_at, other_err);
		points++;
		/* and the store both made is one store that opens read-only */
		ret = hstore_open(path, HS_RDONLY, &s, err);
		if (ret)
			fail_msg("after the race at statement %d: %s", inject_at, err);
		hstore_close(s);
	}
	assert_true(points >= 3);	/* the open, its identity read, its migration */
	inject_at = -1;
	fixture_free(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_create_race),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
