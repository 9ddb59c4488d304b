// SPDX-License-Identifier: GPL-2.0
/*
 * test_outw.c - the output writer (outw.h) and its manifests (manifest.h), without
 * root: what it refuses (links, inputs by device and inode, foreign files, system
 * directories), what force replaces (only files a manifest lists, unchanged), and that
 * nothing staged survives an abort, a signal, or a kill followed by restore.
 */
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cmocka.h>

#include "fixture.h"
#include "file.h"
#include "manifest.h"
#include "msg.h"
#include "outw.h"
#include "sha256.h"

static bool exists(const char *dir, const char *name)
{
	struct stat st;

	return !lstat(fixture_path(dir, name), &st);
}

static char *slurp(const char *dir, const char *name)
{
	char *text = read_whole_file(fixture_path(dir, name), NULL);

	assert_non_null(text);
	return text;
}

/* put - a new output file rel in the writer's directory */
static void put(const struct outw *w, const char *rel, const char *text)
{
	char path[PATH_MAX + 64], dir[PATH_MAX + 64], *slash;
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", outw_dir(w), rel);
	snprintf(dir, sizeof(dir), "%s", path);
	slash = strrchr(dir, '/');
	*slash = '\0';
	assert_int_equal(out_mkdir_p(dir), 0);
	f = out_fopen(path);
	assert_non_null(f);
	fputs(text, f);
	assert_int_equal(fclose(f), 0);
}

/* write_dir - OUTW_DIR results into target through a whole writer; its return */
static int write_dir(const char *target, bool force, const char *const *inputs, char *err)
{
	struct outw w;
	int ret;

	ret = outw_open(&w, target, &(struct outw_opts){ .kind = OUTW_DIR, .by = "test",
			.force = force, .inputs = inputs }, err);
	if (ret)
		return ret;
	put(&w, "summary.json", "{}\n");
	put(&w, "raw/cpu0.dat", "data\n");
	return outw_commit(&w, err);
}

static void test_sha256(void **state)
{
	static const struct { const char *in, *out; } v[] = {
		{ "", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855" },
		{ "abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad" },
		{ "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
		  "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1" },
	};
	char hex[SHA256_HEX_LEN], a[1000];
	struct sha256 s;
	size_t i;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(v); i++) {
		sha256_init(&s);
		sha256_update(&s, v[i].in, strlen(v[i].in));
		sha256_hex(&s, hex);
		assert_string_equal(hex, v[i].out);
	}
	/* a million 'a', fed in pieces that straddle the blocks */
	memset(a, 'a', sizeof(a));
	sha256_init(&s);
	for (i = 0; i < 1000; i++) {
		sha256_update(&s, a, 7);
		sha256_update(&s, a, 993);
	}
	sha256_hex(&s, hex);
	assert_string_equal(hex, "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
}

/* a manifest lists files by path with size and hash; a forged path is never trusted */
static void test_manifest(void **state)
{
	char *d = fixture_dir(), why[PATH_MAX], err[ERRBUF_LEN];
	struct manifest m = { 0 }, l;
	int fd;

	(void)state;
	fixture_write(d, "a.csv", "1\n");
	fixture_write(d, "t/b.csv", "2\n");
	fd = open(d, O_RDONLY | O_DIRECTORY);
	assert_true(fd >= 0);
	assert_int_equal(manifest_add(&m, fd, "", "test", err), 0);
	assert_int_equal(m.n, 2);
	assert_int_equal(manifest_save(fd, &m, err), 0);
	assert_int_equal(manifest_load(fd, &l), 0);
	assert_true(l.present && !l.untrusted);
	assert_int_equal(l.n, 2);
	assert_string_equal(l.f[1].path, "t/b.csv");
	assert_int_equal(manifest_owns(&l, fd, "", why, sizeof(why)), 1);
	fixture_write(d, "t/b.csv", "changed\n");
	assert_int_equal(manifest_owns(&l, fd, "t", why, sizeof(why)), 0);
	assert_string_equal(why, "t/b.csv");
	/* remove takes what matches and leaves the rest */
	assert_int_equal(manifest_remove(&l, fd, ""), -ENOTEMPTY);
	assert_false(exists(d, "a.csv"));
	assert_true(exists(d, "t/b.csv"));
	manifest_free(&l);
	/* a path out of the directory makes the whole manifest untrusted */
	fixture_write(d, MANIFEST_NAME, "{\"schema\": \"deferbench-manifest/1\", \"files\": [ "
		      "{\"path\": \"../x\", \"size\": 1, \"sha256\": \"e3b0c44298fc1c149afbf4c8996fb"
		      "92427ae41e4649b934ca495991b7852b855\"} ]}");
	assert_int_equal(manifest_load(fd, &l), 0);
	assert_true(l.untrusted);
	assert_int_equal(l.n, 0);
	manifest_free(&l);
	/* so does a manifest that is a link */
	assert_int_equal(unlink(fixture_path(d, MANIFEST_NAME)), 0);
	assert_int_equal(symlink("a.csv", fixture_path(d, MANIFEST_NAME)), 0);
	assert_int_equal(manifest_load(fd, &l), 0);
	assert_true(l.untrusted);
	manifest_free(&l);
	manifest_free(&m);
	close(fd);
	fixture_free(d);
}

/* OUTW_DIR: new, then replaced only with force, only while every file is its own */
static void test_dir(void **state)
{
	char *d = fixture_dir(), out[700], err[ERRBUF_LEN], kept[PATH_MAX], rel[64];
	static const char *const foreign[] = { "thesis.tex", "sub/data.bin", "raw/notes.txt",
					       ".hidden", "summary.json.bak" };
	struct outw w;
	size_t i;

	(void)state;
	snprintf(out, sizeof(out), "%s/out", d);
	assert_int_equal(write_dir(out, false, NULL, err), 0);
	assert_true(exists(d, "out/raw/cpu0.dat") && exists(d, "out/" MANIFEST_NAME));
	assert_int_equal(write_dir(out, false, NULL, err), -EEXIST);
	assert_non_null(strstr(err, "--force"));
	assert_int_equal(write_dir(out, true, NULL, err), 0);
	/* a trailing slash stages beside the directory, never inside it */
	snprintf(out, sizeof(out), "%s/out/", d);
	assert_int_equal(write_dir(out, true, NULL, err), 0);
	snprintf(out, sizeof(out), "%s/out", d);
	/* anything that is not its own refuses the replacement, and stays */
	for (i = 0; i < ARRAY_SIZE(foreign); i++) {
		snprintf(rel, sizeof(rel), "out/%s", foreign[i]);
		fixture_write(d, rel, "mine\n");
		assert_int_equal(write_dir(out, true, NULL, err), -EEXIST);
		assert_non_null(strstr(err, "not deferbench's"));
		assert_true(exists(d, rel));
		assert_int_equal(unlink(fixture_path(d, rel)), 0);
	}
	/* a file of its own name but changed, and a link with a result's name */
	fixture_write(d, "out/summary.json", "{\"mine\": 1}\n");
	assert_int_equal(write_dir(out, true, NULL, err), -EEXIST);
	assert_non_null(strstr(err, "changed since"));
	assert_int_equal(unlink(fixture_path(d, "out/summary.json")), 0);
	assert_int_equal(symlink("/etc/passwd", fixture_path(d, "out/summary.json")), 0);
	assert_int_equal(write_dir(out, true, NULL, err), -EEXIST);
	assert_non_null(strstr(err, "symbolic link"));
	assert_int_equal(unlink(fixture_path(d, "out/summary.json")), 0);
	/* a link as the output itself */
	assert_int_equal(symlink("out", fixture_path(d, "link")), 0);
	snprintf(out, sizeof(out), "%s/link", d);
	assert_int_equal(write_dir(out, true, NULL, err), -ELOOP);
	/* a foreign file that appears while it works: the new outputs are kept aside */
	snprintf(out, sizeof(out), "%s/fresh", d);
	assert_int_equal(write_dir(out, false, NULL, err), 0);
	assert_int_equal(outw_open(&w, out, &(struct outw_opts){ .kind = OUTW_DIR, .by = "test",
				   .force = true }, err), 0);
	put(&w, "summary.json", "{}\n");
	fixture_write(d, "fresh/thesis.tex", "mine\n");
	snprintf(kept, sizeof(kept), "%s", outw_dir(&w));
	assert_int_not_equal(outw_commit(&w, err), 0);
	assert_non_null(strstr(err, kept));
	assert_true(exists(d, "fresh/thesis.tex"));
	assert_int_equal(access(kept, F_OK), 0);	/* kept: the abort in commit left it */
	assert_int_equal(path_rm_rf(kept), 0);
	fixture_free(d);
}

/* an output is, holds or lies in an input: by device and inode, through any path */
static void test_inputs(void **state)
{
	char *d = fixture_dir(), err[ERRBUF_LEN], raw[700], out[700];
	const char *inputs[] = { raw, NULL };
	static const char *const bad[] = { "cap", "cap/", "cap/../cap", "cap/raw",
					   "cap/raw/formats", "caplink" };
	size_t i;

	(void)state;
	snprintf(raw, sizeof(raw), "%s/cap/raw", d);
	fixture_write(d, "cap/summary.json", "{}\n");
	fixture_write(d, "cap/raw/cpu0.dat", "x\n");
	assert_int_equal(symlink("cap", fixture_path(d, "caplink")), 0);
	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		snprintf(out, sizeof(out), "%s/%s", d, bad[i]);
		assert_int_not_equal(write_dir(out, true, inputs, err), 0);
		assert_non_null(strstr(err, "which this command reads"));
	}
	assert_false(exists(d, "cap/raw/formats"));	/* nothing made inside the input */
	/* beside the capture is fine */
	snprintf(out, sizeof(out), "%s/cap/again", d);
	assert_int_equal(write_dir(out, true, inputs, err), 0);
	assert_true(exists(d, "cap/raw/cpu0.dat"));
	fixture_free(d);
}

/* into_one - OUTW_INTO with names, one file name written with text */
static int into_one(const char *dir, const char *home, const char *name, const char *text,
		    bool force, const char *const *inputs, char *err)
{
	const char *names[] = { name, NULL };
	struct outw w;
	int ret;

	ret = outw_open(&w, dir, &(struct outw_opts){ .kind = OUTW_INTO, .by = "test",
			.force = force, .inputs = inputs, .names = names, .home = home }, err);
	if (ret)
		return ret;
	put(&w, name, text);
	return outw_commit(&w, err);
}

/* OUTW_INTO: beside others' files, its own replaced with force, others' never */
static void test_into(void **state)
{
	char *d = fixture_dir(), err[ERRBUF_LEN], run[700], in[700], *text;
	const char *inputs[] = { in, NULL };
	struct manifest m;
	int fd;

	(void)state;
	snprintf(run, sizeof(run), "%s/run", d);
	snprintf(in, sizeof(in), "%s/run/run.json", d);
	fixture_write(d, "run/run.json", "{}\n");
	fixture_write(d, "run/notes.txt", "mine\n");
	/* a directory of someone else's files is refused, the run the command reads is not */
	assert_int_equal(into_one(run, NULL, "a.md", "A\n", false, inputs, err), -EEXIST);
	assert_non_null(strstr(err, "no directory deferbench wrote"));
	assert_int_equal(into_one(run, run, "a.md", "A\n", false, inputs, err), 0);
	assert_int_equal(into_one(run, run, "b.md", "B\n", false, inputs, err), 0);
	/* both are listed, the user's file is not */
	fd = open(run, O_RDONLY | O_DIRECTORY);
	assert_int_equal(manifest_load(fd, &m), 0);
	assert_int_equal(m.n, 2);
	manifest_free(&m);
	close(fd);
	/* now it holds a manifest: taken without being the home */
	assert_int_equal(into_one(run, NULL, "a.md", "A2\n", false, inputs, err), -EEXIST);
	assert_non_null(strstr(err, "pass --force"));
	assert_int_equal(into_one(run, NULL, "a.md", "A2\n", true, inputs, err), 0);
	text = slurp(d, "run/a.md");
	assert_string_equal(text, "A2\n");
	free(text);
	/* the user's file, a link, an input hard-linked under the name: never replaced */
	assert_int_equal(into_one(run, run, "notes.txt", "x\n", true, inputs, err), -EEXIST);
	assert_int_equal(symlink("/etc/passwd", fixture_path(d, "run/c.md")), 0);
	assert_int_equal(into_one(run, run, "c.md", "x\n", true, inputs, err), -EEXIST);
	assert_non_null(strstr(err, "symbolic link"));
	assert_int_equal(link(in, fixture_path(d, "run/d.md")), 0);
	assert_int_equal(into_one(run, run, "d.md", "x\n", true, inputs, err), -EINVAL);
	assert_non_null(strstr(err, "which this command reads"));
	text = slurp(d, "run/notes.txt");
	assert_string_equal(text, "mine\n");
	free(text);
	text = slurp(d, "run/run.json");
	assert_string_equal(text, "{}\n");
	free(text);
	assert_false(exists(d, "run/.deferbench.partial-1"));
	fixture_free(d);
}

/* OUTW_FILE: a file in any directory, never over another's, never in /dev or /etc */
static void test_file(void **state)
{
	char *d = fixture_dir(), err[ERRBUF_LEN], path[700];
	static const char *const sys[] = { "/dev/full", "/etc/deferbench-test", "/etc",
					   "/proc/self/x" };
	struct outw w;
	size_t i;

	(void)state;
	fixture_write(d, "keep.txt", "mine\n");
	snprintf(path, sizeof(path), "%s/keep.txt", d);
	assert_int_equal(outw_open(&w, path, &(struct outw_opts){ .kind = OUTW_FILE,
				   .by = "test", .force = true }, err), -EEXIST);
	assert_non_null(strstr(err, "not deferbench's"));
	snprintf(path, sizeof(path), "%s/new/x.json", d);
	assert_int_equal(outw_open(&w, path, &(struct outw_opts){ .kind = OUTW_FILE,
				   .by = "test" }, err), 0);
	assert_true(strstr(outw_file(&w), "/x.json") != NULL);
	put(&w, "x.json", "{}\n");
	assert_int_equal(outw_commit(&w, err), 0);
	assert_true(exists(d, "new/x.json"));
	for (i = 0; i < ARRAY_SIZE(sys); i++) {
		assert_int_not_equal(outw_open(&w, sys[i], &(struct outw_opts){
					       .kind = OUTW_FILE, .by = "test", .force = true },
				     err), 0);
		assert_non_null(strstr(err, "system directory"));
	}
	assert_int_not_equal(outw_open(&w, "/etc", &(struct outw_opts){ .kind = OUTW_INTO,
				       .by = "test" }, err), 0);
	assert_int_not_equal(outw_open(&w, "/etc/x", &(struct outw_opts){ .kind = OUTW_DIR,
				       .by = "test" }, err), 0);
	assert_int_equal(access("/etc/x", F_OK), -1);
	fixture_free(d);
}

/* staged - a child that opens a writer on d/out, stages two files, then dies by sig */
static pid_t staged(const char *d, int sig, char *stage, size_t len)
{
	char out[700], err[ERRBUF_LEN];
	int pfd[2];
	struct outw w;
	pid_t pid;

	assert_int_equal(pipe(pfd), 0);
	pid = fork();
	assert_true(pid >= 0);
	if (!pid) {
		/*
		 * a shell starts background jobs with SIGINT ignored, and the writer leaves
		 * an ignored signal ignored: the test's own disposition, not the caller's
		 */
		signal(sig, SIG_DFL);
		/* made/ is made for it: no signal may leave it (issue 34) */
		snprintf(out, sizeof(out), "%s/made/out", d);
		if (outw_open(&w, out, &(struct outw_opts){ .kind = OUTW_DIR, .by = "test" }, err))
			_exit(3);
		put(&w, "summary.json", "{}\n");
		put(&w, "raw/cpu0.dat", "x\n");
		if (write(pfd[1], outw_dir(&w), strlen(outw_dir(&w)) + 1) < 0)
			_exit(4);
		raise(sig);
		_exit(5);
	}
	close(pfd[1]);
	memset(stage, 0, len);
	assert_true(read(pfd[0], stage, len - 1) > 0);
	close(pfd[0]);
	return pid;
}

/* a signal that ends the process takes the staging directory with it */
/*
 * test_parent_link - a link in a parent component would send the output elsewhere
 * (`ln -s elsewhere pl; report -o pl/sub`, issue 34): refused for every kind of output
 * and for a base, the resolved path named; that resolved path is taken
 */
static void test_parent_link(void **state)
{
	char *d = fixture_dir(), path[PATH_MAX + 64], real[PATH_MAX], err[ERRBUF_LEN];
	static const enum outw_kind kinds[] = { OUTW_DIR, OUTW_INTO, OUTW_FILE, OUTW_LIVE };
	struct outw w;
	size_t i;

	(void)state;
	fixture_write(d, "elsewhere/keep.txt", "the user's");
	assert_int_equal(symlink("elsewhere", fixture_path(d, "pl")), 0);
	assert_non_null(realpath(fixture_path(d, "elsewhere"), real));
	for (i = 0; i < ARRAY_SIZE(kinds); i++) {
		snprintf(path, sizeof(path), "%s/pl/sub/x", d);
		assert_int_equal(outw_open(&w, path, &(struct outw_opts){ .kind = kinds[i],
					   .by = "test" }, err), -ELOOP);
		assert_non_null(strstr(err, "is a symbolic link"));
		assert_non_null(strstr(err, real));
		assert_false(exists(d, "elsewhere/sub"));
	}
	/* the link as the directory written into, and as the base of a composed path */
	snprintf(path, sizeof(path), "%s/pl", d);
	assert_int_equal(outw_open(&w, path, &(struct outw_opts){ .kind = OUTW_INTO,
				   .by = "test" }, err), -ELOOP);
	assert_int_equal(outw_open(&w, "h/n", &(struct outw_opts){ .kind = OUTW_DIR,
				   .by = "test", .base = path }, err), -ELOOP);
	assert_false(exists(d, "elsewhere/h"));
	/* the resolved path is the user's word that the output goes there */
	snprintf(path, sizeof(path), "%s/sub", real);
	assert_int_equal(write_dir(path, false, NULL, err), 0);
	assert_true(exists(d, "elsewhere/sub/summary.json"));
	fixture_free(d);
}

/*
 * test_made - the directories outw_open made on the way to an output go again when the
 * output never comes (a baseline save that failed left an empty host directory, issue
 * 34), those that were there stay, and a commit keeps them
 */
static void test_made(void **state)
{
	char *d = fixture_dir(), base[PATH_MAX + 16], out[PATH_MAX + 16], err[ERRBUF_LEN];
	struct outw w;

	(void)state;
	snprintf(base, sizeof(base), "%s/bl", d);
	assert_int_equal(outw_open(&w, "host/name", &(struct outw_opts){ .kind = OUTW_DIR,
				   .by = "test", .base = base }, err), 0);
	assert_true(exists(d, "bl/host"));
	outw_abort(&w);
	assert_false(exists(d, "bl"));
	fixture_write(d, "bl/other/keep.txt", "kept");
	assert_int_equal(outw_open(&w, "host/name", &(struct outw_opts){ .kind = OUTW_DIR,
				   .by = "test", .base = base }, err), 0);
	outw_abort(&w);
	assert_true(exists(d, "bl/other/keep.txt"));
	assert_false(exists(d, "bl/host"));
	snprintf(out, sizeof(out), "%s/x/y/out", d);
	assert_int_equal(outw_open(&w, out, &(struct outw_opts){ .kind = OUTW_FILE,
				   .by = "test" }, err), 0);
	outw_abort(&w);
	assert_false(exists(d, "x"));
	assert_int_equal(write_dir(out, false, NULL, err), 0);
	assert_true(exists(d, "x/y/out/summary.json"));
	fixture_free(d);
}

/*
 * test_earlier_aside - a replace killed between its exchange and its removal leaves the
 * earlier results at the staging name, with their manifest and no log: restore removes
 * them (they made every restore fail, issue 34), but not a file of the user's among them
 */
static void test_earlier_aside(void **state)
{
	char *d = fixture_dir(), stage[PATH_MAX + 32], err[ERRBUF_LEN];
	struct manifest m = { 0 };
	int fd;

	(void)state;
	snprintf(stage, sizeof(stage), "%s/bl.partial-99999", d);
	fixture_write(stage, "run.json", "{}");
	fixture_write(stage, "cells/c/summary.json", "{}");
	fd = open(stage, O_RDONLY | O_DIRECTORY);
	assert_int_equal(manifest_add(&m, fd, "", "baseline save", err), 0);
	assert_int_equal(manifest_save(fd, &m, err), 0);
	manifest_free(&m);
	close(fd);
	fixture_write(stage, "cells/c/mine.txt", "the user's");
	assert_int_equal(outw_staging_remove(stage), -ENOTEMPTY);
	assert_true(exists(d, "bl.partial-99999/cells/c/mine.txt"));
	assert_int_equal(unlink(fixture_path(stage, "cells/c/mine.txt")), 0);
	assert_int_equal(outw_staging_remove(stage), 0);
	assert_false(exists(d, "bl.partial-99999"));
	fixture_free(d);
}

static void test_signals(void **state)
{
	static const int sigs[] = { SIGTERM, SIGINT, SIGHUP, SIGPIPE };
	char *d = fixture_dir(), stage[PATH_MAX];
	int status;
	size_t i;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(sigs); i++) {
		pid_t pid = staged(d, sigs[i], stage, sizeof(stage));

		assert_int_equal(waitpid(pid, &status, 0), pid);
		assert_true(WIFSIGNALED(status) && WTERMSIG(status) == sigs[i]);
		assert_int_equal(access(stage, F_OK), -1);
		assert_false(exists(d, "made"));
	}
	fixture_free(d);
}

/* after a SIGKILL, restore removes what the log names: nothing else */
static void test_killed(void **state)
{
	char *d = fixture_dir(), stage[PATH_MAX], other[PATH_MAX + 16];
	pid_t pid;
	int status;

	(void)state;
	pid = staged(d, SIGKILL, stage, sizeof(stage));
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_int_equal(access(stage, F_OK), 0);
	/* a file nobody logged: the directory stays, with it */
	snprintf(other, sizeof(other), "%s/mine.txt", stage);
	fixture_write(stage, "mine.txt", "mine\n");
	assert_int_equal(outw_staging_remove(stage), -ENOTEMPTY);
	assert_int_equal(access(other, F_OK), 0);
	assert_int_equal(unlink(other), 0);
	assert_int_equal(access(stage, F_OK), 0);
	pid = staged(d, SIGKILL, stage, sizeof(stage));
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_int_equal(outw_staging_remove(stage), 0);
	assert_int_equal(access(stage, F_OK), -1);
	fixture_free(d);
}

int main(void)
{
	static const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sha256),
		cmocka_unit_test(test_manifest),
		cmocka_unit_test(test_dir),
		cmocka_unit_test(test_inputs),
		cmocka_unit_test(test_into),
		cmocka_unit_test(test_file),
		cmocka_unit_test(test_parent_link),
		cmocka_unit_test(test_made),
		cmocka_unit_test(test_earlier_aside),
		cmocka_unit_test(test_signals),
		cmocka_unit_test(test_killed),
	};

	char *owned = fixture_dir();
	int ret;

	/* the writers' journal of staging directories goes to the test's own place */
	setenv("DEFERBENCH_OWNED_DIR", owned, 1);
	ret = cmocka_run_group_tests(tests, NULL, NULL);
	fixture_free(owned);
	return ret;
}
