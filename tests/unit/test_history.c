// SPDX-License-Identifier: GPL-2.0
/*
 * test_history.c - the results store on the two real runs of tests/fixtures: import is
 * idempotent, a stored run compares exactly as its directory does, stores merge, the
 * schema migrates forward, and foreign, damaged or future files are refused.
 */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "fixture.h"
#define DEFERBENCH_ALLOW_HISTORY_INT_H
#include "history_int.h"
#include "rundir.h"
#include "msg.h"

struct ctx {
	char *dir;
	char a[4096], b[4096], db[4096];
};

static int setup(void **state)
{
	struct ctx *c = calloc(1, sizeof(*c));
	char cmd[8192];

	c->dir = fixture_dir();
	snprintf(cmd, sizeof(cmd), "tar xzf tests/fixtures/run-a.tar.gz -C %s && "
		 "tar xzf tests/fixtures/run-b.tar.gz -C %s", c->dir, c->dir);
	if (system(cmd)) {
		fixture_free(c->dir);
		free(c);
		return -1;
	}
	snprintf(c->a, sizeof(c->a), "%s/runA", c->dir);
	snprintf(c->b, sizeof(c->b), "%s/runB", c->dir);
	snprintf(c->db, sizeof(c->db), "%s/results.db", c->dir);
	*state = c;
	return 0;
}

static int teardown(void **state)
{
	struct ctx *c = *state;

	fixture_free(c->dir);
	free(c);
	return 0;
}

static long long count(struct hstore *s, const char *sql)
{
	sqlite3_stmt *st;
	long long n = -1;

	if (sqlite3_prepare_v2(s->db, sql, -1, &st, NULL) == SQLITE_OK &&
	    sqlite3_step(st) == SQLITE_ROW)
		n = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	return n;
}

static void add_dir(struct hstore *s, const char *dir, struct hstore_added *res)
{
	char err[ERRBUF_LEN];
	struct run run;

	assert_int_equal(run_load(dir, &run, err), 0);
	assert_int_equal(history_add_run(s, &run, dir, false, res, err), 0);
	run_free(&run);
}

static void test_add_idempotent(void **state)
{
	struct ctx *c = *state;
	struct hstore_added r1, r2;
	char err[ERRBUF_LEN];
	struct hstore *s;
	long long rows[4];

	assert_int_equal(hstore_open(c->db, 0, &s, err), 0);
	assert_int_equal(hstore_schema(s), HSTORE_SCHEMA);
	add_dir(s, c->a, &r1);
	assert_false(r1.existed);
	assert_int_equal(r1.ncells, 12);
	assert_true(r1.nvalues > 100 && r1.nhists > 100);
	rows[0] = count(s, "SELECT count(*) FROM run");
	rows[1] = count(s, "SELECT count(*) FROM cell");
	rows[2] = count(s, "SELECT count(*) FROM hist");
	rows[3] = count(s, "SELECT count(*) FROM samples");
	add_dir(s, c->a, &r2);
	assert_true(r2.existed);
	assert_int_equal(r2.run_id, r1.run_id);
	assert_int_equal(count(s, "SELECT count(*) FROM run"), rows[0]);
	assert_int_equal(count(s, "SELECT count(*) FROM cell"), rows[1]);
	assert_int_equal(count(s, "SELECT count(*) FROM hist"), rows[2]);
	assert_int_equal(count(s, "SELECT count(*) FROM samples"), rows[3]);
	assert_int_equal(rows[3], (long long)r1.nvalues);
	/* the one row per host x kernel x scenario x workload x config x metric x rep */
	assert_int_equal(count(s, "SELECT count(*) FROM samples WHERE host = 'vm' AND "
			      "kernel = '6.18.44-fc-v1147' AND scenario = 'fixture' AND "
			      "workload = 'tty' AND config = 'baseline' AND "
			      "metric = 'workload:delivery:p99'"), 3);
	hstore_close(s);
}

/* a stored run gives compare exactly what its directory gives */
static void test_roundtrip_compare(void **state)
{
	struct ctx *c = *state;
	struct run da, db, sa, sb;
	struct cmp_result rd, rs;
	struct hstore_added ra, rb;
	struct cmp_opts o = { 0 };
	char err[ERRBUF_LEN];
	struct hstore *s;
	size_t i;

	judge_opts_default(&o.j);
	assert_int_equal(hstore_open(c->db, 0, &s, err), 0);
	add_dir(s, c->a, &ra);
	add_dir(s, c->b, &rb);
	assert_int_equal(run_load(c->a, &da, err), 0);
	assert_int_equal(run_load(c->b, &db, err), 0);
	assert_int_equal(hstore_load_run(s, ra.run_id, &sa, err), 0);
	assert_int_equal(hstore_load_run(s, rb.run_id, &sb, err), 0);
	assert_int_equal(sa.ncells, da.ncells);
	assert_string_equal(sa.meta[RM_CMDLINE], da.meta[RM_CMDLINE]);
	assert_int_equal(compare_runs(&da, &db, &o, &rd, err), 0);
	assert_int_equal(compare_runs(&sa, &sb, &o, &rs, err), 0);
	assert_int_equal(rs.nrows, rd.nrows);
	assert_true(rd.nrows > 10);
	for (i = 0; i < rd.nrows; i++) {
		/*
		 * the same figures; not always the same verdict: the store keeps no
		 * per-interval histograms, so its bootstrap resamples repetitions only
		 */
		assert_string_equal(rs.rows[i].id, rd.rows[i].id);
		assert_int_equal(rs.rows[i].nb, rd.rows[i].nb);
		assert_int_equal(rs.rows[i].j.nb, rd.rows[i].j.nb);
		assert_true(rs.rows[i].j.base == rd.rows[i].j.base ||
			    (isnan(rs.rows[i].j.base) && isnan(rd.rows[i].j.base)));
		assert_true(rs.rows[i].j.new == rd.rows[i].j.new ||
			    (isnan(rs.rows[i].j.new) && isnan(rd.rows[i].j.new)));
	}
	run_free(&sa);
	assert_int_equal(hstore_load_run(s, 999, &sa, err) == -ENOENT ? 0 : 1, 0);
	cmp_result_free(&rd);
	cmp_result_free(&rs);
	run_free(&da);
	run_free(&db);
	run_free(&sb);
	hstore_close(s);
}

static void test_merge(void **state)
{
	struct ctx *c = *state;
	char other[4200], err[ERRBUF_LEN];
	size_t added, present, conflicts;
	struct hstore *s, *t;
	struct hstore_added r;

	snprintf(other, sizeof(other), "%s/other.db", c->dir);
	assert_int_equal(hstore_open(c->db, 0, &s, err), 0);
	assert_int_equal(hstore_open(other, 0, &t, err), 0);
	add_dir(s, c->a, &r);
	add_dir(t, c->a, &r);
	add_dir(t, c->b, &r);
	hstore_close(t);
	assert_int_equal(hstore_merge(s, other, &added, &present, &conflicts, err), 0);
	assert_int_equal(added, 1);
	assert_int_equal(present, 1);
	assert_int_equal(conflicts, 0);
	assert_int_equal(count(s, "SELECT count(*) FROM run"), 2);
	assert_int_equal(count(s, "SELECT count(*) FROM samples WHERE run_id = 2"),
			 (long long)r.nvalues);
	/* again: nothing new */
	assert_int_equal(hstore_merge(s, other, &added, &present, &conflicts, err), 0);
	assert_int_equal(added, 0);
	assert_int_equal(present, 2);
	assert_int_not_equal(hstore_merge(s, c->db, &added, &present, &conflicts, err), 0);
	hstore_close(s);
}

static const char v2_sql[] = "ALTER TABLE run ADD COLUMN note TEXT NOT NULL DEFAULT 'x';";

static void test_migrate_forward(void **state)
{
	const struct hstore_migration steps[] = { { 1, "SELECT 1" }, { 2, v2_sql } };
	struct ctx *c = *state;
	char err[ERRBUF_LEN];
	struct hstore_added r;
	struct hstore *s;

	assert_int_equal(hstore_open(c->db, 0, &s, err), 0);
	add_dir(s, c->a, &r);
	/* a step to 2 applies once, keeps the data, and is skipped when done */
	assert_int_equal(hstore_migrate(s->db, steps, 2, err), 0);
	assert_int_equal(count(s, "PRAGMA user_version"), 2);
	assert_int_equal(count(s, "SELECT count(*) FROM run WHERE note = 'x'"), 1);
	assert_int_equal(hstore_migrate(s->db, steps, 2, err), 0);
	/* this deferbench knows only 1: the migrated store is from the future now */
	assert_int_equal(hstore_migrate(s->db, steps, 1, err), -ENOTSUP);
	hstore_close(s);
	assert_int_equal(hstore_open(c->db, 0, &s, err), -ENOTSUP);
	assert_non_null(strstr(err, "newer"));
	assert_int_equal(hstore_open(c->db, HS_RDONLY, &s, err), -ENOTSUP);
}

static void test_refuse_bad_files(void **state)
{
	struct ctx *c = *state;
	char err[ERRBUF_LEN], p[4200];
	struct hstore *s;
	sqlite3 *db;

	/* not SQLite at all */
	snprintf(p, sizeof(p), "%s", fixture_write(c->dir, "text.db", "hello, this is text\n"
						    "and more text to fill a page header....\n"));
	assert_int_equal(hstore_open(p, 0, &s, err), -EINVAL);
	assert_non_null(strstr(err, "not a deferbench store"));
	/* another application's database */
	snprintf(p, sizeof(p), "%s/foreign.db", c->dir);
	assert_int_equal(sqlite3_open(p, &db), SQLITE_OK);
	assert_int_equal(sqlite3_exec(db, "CREATE TABLE t (x)", NULL, NULL, NULL), SQLITE_OK);
	sqlite3_close(db);
	assert_int_equal(hstore_open(p, 0, &s, err), -EINVAL);
	assert_non_null(strstr(err, "another application"));
	/* a directory, and a read-only open of nothing */
	assert_int_equal(hstore_open(c->dir, 0, &s, err), -EISDIR);
	snprintf(p, sizeof(p), "%s/missing.db", c->dir);
	assert_int_equal(hstore_open(p, HS_RDONLY, &s, err), -ENOENT);
	/* a truncated store: the header is there, the pages are not */
	assert_int_equal(hstore_open(c->db, 0, &s, err), 0);
	hstore_close(s);
	snprintf(p, sizeof(p), "head -c 1500 %s > %s/cut.db", c->db, c->dir);
	assert_int_equal(system(p), 0);
	snprintf(p, sizeof(p), "%s/cut.db", c->dir);
	assert_true(hstore_open(p, 0, &s, err) < 0);
}

/* issue 21.9: what SQLite says of a damaged store comes out as what is wrong with it */
static void test_damaged_store(void **state)
{
	struct ctx *c = *state;
	struct hstore_added r;
	char err[ERRBUF_LEN];
	struct hstore *s;

	assert_int_equal(hstore_open(c->db, 0, &s, err), 0);
	add_dir(s, c->a, &r);
	/* rows that point at nothing: refused by the foreign keys */
	assert_int_not_equal(hs_exec(s->db, "INSERT INTO value (cell_id, metric_id, value, count) "
				     "VALUES (99999, 99999, 1, 1)", err), 0);
	assert_non_null(strstr(err, "rows do not fit together"));
	assert_non_null(strstr(err, "SQLite: FOREIGN KEY"));
	/* a table changed by another program */
	assert_int_equal(sqlite3_exec(s->db, "ALTER TABLE cell RENAME COLUMN ok TO ok2", NULL,
				      NULL, NULL), SQLITE_OK);
	assert_int_not_equal(hs_exec(s->db, "SELECT ok FROM cell", err), 0);
	assert_non_null(strstr(err, "tables are not those deferbench made"));
	hstore_close(s);
}

static void test_primary(void **state)
{
	(void)state;
	assert_true(cmp_type_primary("tty", "workload:delivery:p99"));
	assert_false(cmp_type_primary("tty", "workload:delivery:p50"));
	assert_true(cmp_type_primary("tty", "wq:events_unbound:flush_to_ldisc:delay:p99"));
	assert_false(cmp_type_primary("timer", "wq:events_unbound:flush_to_ldisc:delay:p99"));
	assert_true(cmp_type_primary("net", "softirq:NET_RX:delay:p99"));
	assert_true(cmp_type_primary("block", "wq:kblockd:blk_mq_run_work_fn:delay:p99"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_add_idempotent, setup, teardown),
		cmocka_unit_test_setup_teardown(test_roundtrip_compare, setup, teardown),
		cmocka_unit_test_setup_teardown(test_merge, setup, teardown),
		cmocka_unit_test_setup_teardown(test_migrate_forward, setup, teardown),
		cmocka_unit_test_setup_teardown(test_refuse_bad_files, setup, teardown),
		cmocka_unit_test_setup_teardown(test_damaged_store, setup, teardown),
		cmocka_unit_test(test_primary),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
