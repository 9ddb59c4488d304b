// SPDX-License-Identifier: GPL-2.0
/*
 * test_leftovers.c - issue 10, item 8: the journal of what a process creates (owned.h)
 * and the clean-up of a dead process's resources (leftovers.h), without root: in a
 * temporary DEFERBENCH_OWNED_DIR, with directories only.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cmocka.h>

#include "fixture.h"
#include "leftovers.h"
#include "owned.h"
#include "msg.h"
#include "file.h"

static bool exists(const char *path)
{
	return access(path, F_OK) == 0;
}

static char *owned_file_text(const char *dir, pid_t pid)
{
	char path[4400];

	snprintf(path, sizeof(path), "%s/%d.json", dir, (int)pid);
	return read_whole_file(path, NULL);
}

/* the file appears with the first resource and goes with the last */
static void test_journal(void **state)
{
	char *d = fixture_dir(), owned[4200], tmp[4200], *text;

	(void)state;
	snprintf(owned, sizeof(owned), "%s/owned", d);
	setenv("DEFERBENCH_OWNED_DIR", owned, 1);
	owned_command("deferbench test");
	assert_int_equal(owned_add(OWN_STAGING, fixture_path(d, "out.partial-1")), 0);
	text = owned_file_text(owned, getpid());
	assert_non_null(text);
	assert_non_null(strstr(text, "out.partial-1"));
	assert_non_null(strstr(text, "\"staging\""));
	assert_non_null(strstr(text, "deferbench test"));
	free(text);
	/* a temporary directory is journaled before it exists */
	snprintf(tmp, sizeof(tmp), "%s/deferbench-block-1-XXXXXX", d);
	assert_int_equal(owned_mkdtemp(tmp), 0);
	assert_true(exists(tmp));
	text = owned_file_text(owned, getpid());
	assert_non_null(strstr(text, tmp));
	free(text);
	/* relative paths are journaled absolute */
	assert_int_equal(chdir(d), 0);
	assert_int_equal(owned_add(OWN_TMPDIR, "rel"), 0);
	text = owned_file_text(owned, getpid());
	assert_non_null(strstr(text, fixture_path(d, "rel")));
	free(text);
	owned_forget(OWN_TMPDIR, fixture_path(d, "rel"));
	owned_forget(OWN_TMPDIR, tmp);
	owned_forget(OWN_STAGING, fixture_path(d, "out.partial-1"));
	assert_null(owned_file_text(owned, getpid()));
	assert_int_equal(chdir("/"), 0);
	unsetenv("DEFERBENCH_OWNED_DIR");
	fixture_free(d);
}

/* dead_pid - the pid of a process that has exited */
static pid_t dead_pid(void)
{
	pid_t pid = fork();

	if (!pid)
		_exit(0);
	waitpid(pid, NULL, 0);
	return pid;
}

static void write_owned(const char *owned, pid_t pid, unsigned long long start,
			const char *const *kinds, const char *const *paths, int n)
{
	char text[16384], path[4200];
	size_t off;
	int i;

	off = (size_t)snprintf(text, sizeof(text), "{ \"schema\": \"deferbench-owned/1\", "
			       "\"pid\": %d, \"pid_start\": %llu, \"command\": \"x\", "
			       "\"resources\": [", (int)pid, start);
	for (i = 0; i < n; i++)
		off += (size_t)snprintf(text + off, sizeof(text) - off,
					"%s{ \"kind\": \"%s\", \"path\": \"%s\" }", i ? ", " : "",
					kinds[i], paths[i]);
	snprintf(text + off, sizeof(text) - off, "] }\n");
	path_mkdir(owned, 0700);
	snprintf(path, sizeof(path), "%d.json", (int)pid);
	fixture_write(owned, path, text);
}

/* a dead process's resources are removed; only names deferbench makes */
static void test_clean_dead(void **state)
{
	char *d = fixture_dir(), owned[4200], p[8][4200], *text;
	const char *kinds[8], *paths[8];
	pid_t pid = dead_pid();
	FILE *report = fopen("/dev/null", "w");
	int i;

	(void)state;
	snprintf(owned, sizeof(owned), "%s/owned", d);
	/* staging with results only: removed */
	snprintf(p[0], sizeof(p[0]), "%s/a.partial-%d", d, (int)pid);
	fixture_write(p[0], "summary.json", "{}");
	fixture_write(p[0], "raw/cpu0.dat", "x");
	/* staging with a foreign file: deferbench's files go, the rest stays */
	snprintf(p[1], sizeof(p[1]), "%s/b.partial-%d", d, (int)pid);
	fixture_write(p[1], "summary.json", "{}");
	fixture_write(p[1], "notes.txt", "mine");
	/* killed between the renames: the old results come back */
	snprintf(p[2], sizeof(p[2]), "%s/c.old-%d", d, (int)pid);
	fixture_write(p[2], "summary.json", "old");
	/* the new results are in place: the old ones go */
	snprintf(p[3], sizeof(p[3]), "%s/e.old-%d", d, (int)pid);
	fixture_write(p[3], "summary.json", "old");
	fixture_write(d, "e/summary.json", "new");
	/* a temporary directory, whole */
	snprintf(p[4], sizeof(p[4]), "%s/deferbench-block-%d-abcdef", d, (int)pid);
	fixture_write(p[4], "data", "x");
	/* a damaged journal must not make restore delete what is not deferbench's */
	fixture_write(d, "precious/thesis.tex", "x");
	snprintf(p[5], sizeof(p[5]), "%s/precious", d);
	snprintf(p[6], sizeof(p[6]), "%s/precious", d);
	kinds[0] = kinds[1] = "staging";
	kinds[2] = kinds[3] = "old";
	kinds[4] = kinds[5] = "tmpdir";
	kinds[6] = "instance";
	for (i = 0; i < 7; i++)
		paths[i] = p[i];
	write_owned(owned, pid, 1, kinds, paths, 7);
	/* a live process's file is left alone */
	write_owned(owned, getpid(), owned_proc_start_time(getpid()), kinds, paths, 1);

	/* half a journal a killed process was rewriting: swept (issue 34) */
	snprintf(p[7], sizeof(p[7]), "%d.json.tmp.%d", (int)pid, (int)pid);
	fixture_write(owned, p[7], "{");
	/* the foreign file's staging directory is kept but no failure (issue 34) */
	assert_int_equal(leftovers_remove_owned(owned, report), 2);
	assert_false(exists(fixture_path(owned, p[7])));
	assert_false(exists(p[0]));
	assert_true(exists(fixture_path(p[1], "notes.txt")));
	assert_false(exists(fixture_path(p[1], "summary.json")));
	assert_false(exists(p[2]));
	assert_string_equal((text = read_whole_file(fixture_path(d, "c/summary.json"), NULL)),
			    "old");
	free(text);
	assert_false(exists(p[3]));
	assert_true(exists(fixture_path(d, "e/summary.json")));
	assert_false(exists(p[4]));
	assert_true(exists(fixture_path(d, "precious/thesis.tex")));
	/* what could not be removed stays journaled; what holds the user's files is theirs */
	text = owned_file_text(owned, pid);
	assert_non_null(text);
	assert_null(strstr(text, "b.partial"));
	assert_non_null(strstr(text, "precious"));
	assert_null(strstr(text, "a.partial"));
	free(text);
	text = owned_file_text(owned, getpid());
	assert_non_null(text);
	free(text);
	fclose(report);
	fixture_free(d);
}

/* record --stacks's trigger: turned off in deferbench's instance, nowhere else */
static void test_clean_trigger(void **state)
{
	char *d = fixture_dir(), owned[4200], p[2][4200], *text;
	const char *kinds[2] = { "trigger", "trigger" }, *paths[2];
	pid_t pid = dead_pid();
	FILE *report = fopen("/dev/null", "w");

	(void)state;
	snprintf(owned, sizeof(owned), "%s/owned", d);
	snprintf(p[0], sizeof(p[0]), "%s/instances/deferbench-%d/events/irq/softirq_entry/trigger",
		 d, (int)pid);
	fixture_write(d, p[0] + strlen(d) + 1, "stacktrace:unlimited if vec == 3\n");
	snprintf(p[1], sizeof(p[1]), "%s/precious/events/irq/softirq_entry/trigger", d);
	fixture_write(d, "precious/events/irq/softirq_entry/trigger", "mine");
	paths[0] = p[0];
	paths[1] = p[1];
	write_owned(owned, pid, 1, kinds, paths, 2);
	assert_int_equal(leftovers_remove_owned(owned, report), 1);
	/* written as into tracefs: over the start of the file */
	text = read_whole_file(p[0], NULL);
	assert_int_equal(strncmp(text, "!stacktrace", 11), 0);
	free(text);
	text = read_whole_file(p[1], NULL);
	assert_string_equal(text, "mine");
	free(text);
	fclose(report);
	fixture_free(d);
}

/* a file with our pid but another start time is a dead process's (the pid was reused) */
static void test_reused_pid(void **state)
{
	char *d = fixture_dir(), owned[4200], tmp[4400];
	const char *kinds[1] = { "tmpdir" }, *paths[1] = { tmp };
	FILE *report = fopen("/dev/null", "w");

	(void)state;
	snprintf(owned, sizeof(owned), "%s/owned", d);
	snprintf(tmp, sizeof(tmp), "%s/deferbench-timer-%d-abcdef", d, (int)getpid());
	fixture_write(tmp, "x", "x");
	write_owned(owned, getpid(), 1, kinds, paths, 1);
	assert_int_equal(leftovers_remove_owned(owned, report), 0);
	assert_false(exists(tmp));
	assert_null(owned_file_text(owned, getpid()));
	fclose(report);
	fixture_free(d);
}

/*
 * a file listed but gone when read - its process removed it between readdir and open
 * (CI: restore failed on another test's exiting run) - is nothing left, not an error;
 * a damaged one still is. A dangling link stands for the file removed in between.
 */
static void test_gone_between(void **state)
{
	char *d = fixture_dir(), owned[4200], link[4300];
	FILE *report = fopen("/dev/null", "w");

	(void)state;
	snprintf(owned, sizeof(owned), "%s/owned", d);
	fixture_write(owned, "keep.txt", "");
	snprintf(link, sizeof(link), "%s/4242.json", owned);
	assert_int_equal(symlink("gone.json", link), 0);
	assert_int_equal(leftovers_remove_owned(owned, report), 0);
	fixture_write(owned, "4243.json", "{ \"schema\": \"deferbench-owned/1\" }");
	assert_int_equal(leftovers_remove_owned(owned, report), 1);
	fclose(report);
	fixture_free(d);
}

/*
 * a process of deferbench's code under another name (this test) is alive for restore
 * when its own journal file says so - pid and start time - and not otherwise (CI: a
 * restore beside the unit tests removed a live test's cyclictest directory)
 */
static void test_alive_by_journal(void **state)
{
	char *d = fixture_dir(), owned[4200];
	const char *kinds[1] = { "tmpdir" }, *paths[1] = { "/tmp/deferbench-timer-1-x" };

	(void)state;
	snprintf(owned, sizeof(owned), "%s/owned", d);
	setenv("DEFERBENCH_OWNED_DIR", owned, 1);
	assert_false(leftovers_pid_is_deferbench(getpid()));	/* no journal */
	write_owned(owned, getpid(), 1, kinds, paths, 1);		/* a reused pid's */
	assert_false(leftovers_pid_is_deferbench(getpid()));
	write_owned(owned, getpid(), owned_proc_start_time(getpid()), kinds, paths, 1);
	assert_true(leftovers_pid_is_deferbench(getpid()));
	assert_false(leftovers_pid_is_deferbench(dead_pid()));
	unsetenv("DEFERBENCH_OWNED_DIR");
	fixture_free(d);
}

/* a damaged journal file is reported, never trusted */
static void test_damaged(void **state)
{
	char *d = fixture_dir(), owned[4200], err[ERRBUF_LEN];
	struct owned_file f;

	(void)state;
	snprintf(owned, sizeof(owned), "%s/owned", d);
	fixture_write(owned, "123.json", "{ \"schema\": \"deferbench-owned/1\", \"pid\": 123, "
		      "\"pid_start\": 1, \"resources\": [ { \"kind\": \"rm-rf\", \"path\": \"/\" } ] }");
	assert_int_equal(owned_load(fixture_path(owned, "123.json"), &f, err), -EINVAL);
	assert_non_null(strstr(err, "unknown"));
	fixture_write(owned, "124.json", "{ \"schema\": \"deferbench-owned/1\", \"pid\": 124, "
		      "\"pid_start\": 1, \"resources\": [ { \"kind\": \"tmpdir\", \"path\": \"x\" } ] }");
	assert_int_equal(owned_load(fixture_path(owned, "124.json"), &f, err), -EINVAL);
	assert_non_null(strstr(err, "absolute"));
	fixture_free(d);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_journal),
		cmocka_unit_test(test_clean_dead),
		cmocka_unit_test(test_clean_trigger),
		cmocka_unit_test(test_reused_pid),
		cmocka_unit_test(test_gone_between),
		cmocka_unit_test(test_alive_by_journal),
		cmocka_unit_test(test_damaged),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
