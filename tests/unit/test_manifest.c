// SPDX-License-Identifier: GPL-2.0
/*
 * test_manifest.c - the manifest's list (manifest.h) at scale and at its edges: a
 * manifest of 200,000 entries in any order loads sorted in O(n log n) (inserting each
 * in place took 30 s, issue 34); a tree is listed and removed in one pass each; a batch
 * replaces what was listed under its paths, and only those; a path listed twice makes
 * a manifest untrusted.
 */
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include <cmocka.h>

#include "fixture.h"
#include "manifest.h"
#include "msg.h"

#define BIG 200000
/*
 * far above the O(n log n) time (about 1 s here, more under the sanitizers), far
 * below the O(n^2) one (30 s): a bound on the algorithm, not on the machine. Counted
 * in this thread's CPU time, which a busy machine does not stretch (its wall time
 * under a nice 19 build beside a CPU load was 16 s)
 */
#define BIG_SECONDS 15.0

static double seconds(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static void assert_sorted(const struct manifest *m)
{
	size_t i;

	for (i = 1; i < m->n; i++)
		assert_true(strcmp(m->f[i - 1].path, m->f[i].path) < 0);
}

static void entry(FILE *f, bool first, const char *path, char hexdigit)
{
	fprintf(f, "%s{\"path\":\"%s\",\"size\":1,\"sha256\":\"", first ? "" : ",", path);
	for (int i = 0; i < 64; i++)
		fputc(hexdigit, f);
	fprintf(f, "\",\"by\":\"test\"}");
}

/* a manifest of BIG entries in a scrambled order: loaded, sorted, each found */
static void test_load_big(void **state)
{
	char *dir = fixture_dir(), path[64];
	struct manifest m;
	double t;
	size_t i, k;
	FILE *f;
	int fd;

	(void)state;
	f = fopen(fixture_path(dir, MANIFEST_NAME), "w");
	assert_non_null(f);
	fprintf(f, "{\"schema\":\"%s\",\"files\":[", MANIFEST_SCHEMA);
	for (i = 0; i < BIG; i++) {
		k = (i * 2654435761u) % BIG;	/* a permutation of 0..BIG-1 */
		snprintf(path, sizeof(path), "d%zu/f%zu", k % 97, k);
		entry(f, !i, path, 'a');
	}
	fprintf(f, "]}");
	assert_int_equal(fclose(f), 0);
	fd = open(dir, O_RDONLY | O_DIRECTORY);
	assert_true(fd >= 0);
	t = seconds();
	assert_int_equal(manifest_load(fd, &m), 0);
	t = seconds() - t;
	print_message("      load of %d entries in scrambled order: %.2f s of CPU\n", BIG, t);
	assert_false(m.untrusted);
	assert_int_equal(m.n, BIG);
	assert_sorted(&m);
	for (k = 0; k < BIG; k += 997) {
		snprintf(path, sizeof(path), "d%zu/f%zu", k % 97, k);
		assert_non_null(manifest_find(&m, path));
	}
	assert_true(t < BIG_SECONDS);
	manifest_free(&m);
	close(fd);
	fixture_free(dir);
}

/* the same path twice: deferbench never writes that; nothing counts as its own */
static void test_load_twice(void **state)
{
	char *dir = fixture_dir();
	struct manifest m;
	FILE *f;
	int fd;

	(void)state;
	f = fopen(fixture_path(dir, MANIFEST_NAME), "w");
	assert_non_null(f);
	fprintf(f, "{\"schema\":\"%s\",\"files\":[", MANIFEST_SCHEMA);
	entry(f, true, "b", 'a');
	entry(f, false, "a", 'a');
	entry(f, false, "b", 'b');
	fprintf(f, "]}");
	assert_int_equal(fclose(f), 0);
	fd = open(dir, O_RDONLY | O_DIRECTORY);
	assert_int_equal(manifest_load(fd, &m), 0);
	assert_true(m.untrusted);
	assert_non_null(strstr(m.why, "twice"));
	assert_int_equal(m.n, 0);
	manifest_free(&m);
	close(fd);
	fixture_free(dir);
}

static void put(struct manifest *m, const char *path, char hexdigit)
{
	struct mf_file f = { .path = (char *)path, .size = 1, .by = "test" };

	memset(f.sha256, hexdigit, 64);
	assert_int_equal(manifest_put(m, &f), 0);
}

/* a batch under "a": a, a/x replaced, a/y added; a-b, ab and c untouched */
static void test_merge(void **state)
{
	struct manifest m = { 0 }, from = { 0 };

	(void)state;
	put(&m, "b", '1');
	put(&m, "a/x", '1');
	put(&m, "a-b", '1');
	put(&m, "ab", '1');
	put(&m, "a", '1');
	assert_sorted(&m);
	put(&from, "c", '2');
	put(&from, "a/y", '2');
	put(&from, "a/x", '2');
	put(&from, "a", '2');
	put(&from, "ab", '2');
	assert_int_equal(manifest_merge(&m, &from, "a"), 0);
	assert_sorted(&m);
	assert_int_equal(m.n, 6);
	assert_int_equal(manifest_find(&m, "a")->sha256[0], '2');
	assert_int_equal(manifest_find(&m, "a/x")->sha256[0], '2');
	assert_int_equal(manifest_find(&m, "a/y")->sha256[0], '2');
	assert_int_equal(manifest_find(&m, "a-b")->sha256[0], '1');
	assert_int_equal(manifest_find(&m, "ab")->sha256[0], '1');
	assert_null(manifest_find(&m, "c"));
	/* put of a listed path replaces it in place */
	put(&m, "b", '3');
	assert_int_equal(m.n, 6);
	assert_int_equal(manifest_find(&m, "b")->sha256[0], '3');
	manifest_drop(&m, "a");
	assert_int_equal(m.n, 3);
	assert_non_null(manifest_find(&m, "a-b"));
	assert_sorted(&m);
	manifest_free(&m);
	manifest_free(&from);
}

/* a tree listed (walk order is the directory's) and removed, the user's file kept */
static void test_add_remove_tree(void **state)
{
	char *dir = fixture_dir(), rel[64], err[ERRBUF_LEN];
	struct manifest m = { 0 };
	int fd, i;

	(void)state;
	for (i = 0; i < 1000; i++) {
		snprintf(rel, sizeof(rel), "t/d%d/f%d", i % 13, i);
		fixture_write(dir, rel, "x");
	}
	fd = open(dir, O_RDONLY | O_DIRECTORY);
	assert_int_equal(manifest_add(&m, fd, "t", "test", err), 0);
	assert_int_equal(m.n, 1000);
	assert_sorted(&m);
	/* listed again: replaced, not doubled */
	assert_int_equal(manifest_add(&m, fd, "t/d3", "test", err), 0);
	assert_int_equal(m.n, 1000);
	fixture_write(dir, "t/d0/user.txt", "mine");
	assert_int_equal(manifest_remove(&m, fd, "t"), -ENOTEMPTY);
	assert_int_equal(m.n, 0);
	assert_int_equal(access(fixture_path(dir, "t/d0/user.txt"), F_OK), 0);
	assert_int_equal(access(fixture_path(dir, "t/d1"), F_OK), -1);
	manifest_free(&m);
	close(fd);
	fixture_free(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_load_big),
		cmocka_unit_test(test_load_twice),
		cmocka_unit_test(test_merge),
		cmocka_unit_test(test_add_remove_tree),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
