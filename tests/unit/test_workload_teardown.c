// SPDX-License-Identifier: GPL-2.0
/*
 * test_workload_teardown.c - a long-lived process (the scenario runner) runs each
 * workload briefly through the driver API: afterwards it has the same file
 * descriptors, threads, children and locked memory as before. Workloads that need
 * root (SCHED_FIFO) or cyclictest are skipped without them.
 */
#include <dirent.h>
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include "workload.h"
#include "msg.h"
#include "file.h"

static int count_dir(const char *path)
{
	struct dirent *de;
	DIR *d = opendir(path);
	int n = 0;

	assert_non_null(d);
	while ((de = readdir(d)))
		n += de->d_name[0] != '.';
	closedir(d);
	return n;
}

static long vm_locked_kb(void)
{
	char *s = read_whole_file("/proc/self/status", NULL), *l;
	long kb = -1;

	if (s && (l = strstr(s, "VmLck:")))
		kb = strtol(l + 6, NULL, 10);
	free(s);
	return kb;
}

/*
 * tasks_settle - the threads of this process once joined threads are gone: a join
 * returns when the kernel clears the thread's tid (mm_release), before the thread is
 * released and leaves /proc/self/task, so a loaded machine may still list it for a
 * moment (2 tasks where 1 was wanted, beside another test). Waits up to a second for
 * want; returns the count then.
 */
static int tasks_settle(int want)
{
	struct timespec ms = { 0, 1000000L };
	int n, i;

	for (i = 0; (n = count_dir("/proc/self/task")) != want && i < 1000; i++)
		nanosleep(&ms, NULL);
	return n;
}

/* run_briefly - 200 ms of the workload with options "k=v" ..., then wl_free */
static void run_briefly(const char *name, const char *const *kv)
{
	int fds = count_dir("/proc/self/fd"), tasks = count_dir("/proc/self/task");
	struct timespec ts = { 0, 200 * 1000000L };
	struct wl_run *w = wl_new(workload_find(name));
	char errbuf[ERRBUF_LEN], key[64];
	long locked = vm_locked_kb();

	assert_non_null(w);
	for (; kv && *kv; kv++) {
		const char *eq = strchr(*kv, '=');

		snprintf(key, sizeof(key), "%.*s", (int)(eq - *kv), *kv);
		assert_int_equal(wl_set_option(w, key, eq + 1, errbuf), 0);
	}
	if (wl_setup(w, errbuf) || wl_start(w, errbuf))
		fail_msg("%s: %s", name, errbuf);
	assert_true(count_dir("/proc/self/task") > tasks);
	nanosleep(&ts, NULL);
	wl_stop(w);
	if (wl_error(w))
		fail_msg("%s: %s", name, wl_error(w));
	assert_true(w->metrics.nmetrics > 0);
	wl_free(w);
	assert_int_equal(count_dir("/proc/self/fd"), fds);
	assert_int_equal(tasks_settle(tasks), tasks);
	assert_int_equal(waitpid(-1, NULL, WNOHANG), -1);	/* no child left */
	assert_int_equal(errno, ECHILD);
	assert_int_equal(vm_locked_kb(), locked);
}

static void test_tty(void **state __unused)
{
	run_briefly("tty", NULL);
}

static void test_block(void **state __unused)
{
	run_briefly("block", (const char *const[]){ "rate=50", "dir=/var/tmp", NULL });
}

static void test_hog(void **state __unused)
{
	run_briefly("hog", (const char *const[]){ "threads=1", "duty=50", NULL });
}

static void test_timer_loads(void **state __unused)
{
	run_briefly("timer", (const char *const[]){ "probe=no", "wheel_rate=200", NULL });
}

static void test_timer_probe(void **state __unused)
{
	if (geteuid() || (access("/usr/bin/cyclictest", X_OK) &&
			  access("/usr/local/bin/cyclictest", X_OK)))
		skip();
	run_briefly("timer", (const char *const[]){ "threads=1", "wheel_rate=0", NULL });
}

static void test_audio(void **state __unused)
{
	if (geteuid())
		skip();
	run_briefly("audio", NULL);	/* mlock=yes: VmLck must come back */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_tty),
		cmocka_unit_test(test_block),
		cmocka_unit_test(test_hog),
		cmocka_unit_test(test_timer_loads),
		cmocka_unit_test(test_timer_probe),
		cmocka_unit_test(test_audio),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
