// SPDX-License-Identifier: GPL-2.0
/*
 * test_proctree.c - a command's whole process tree (proctree.h), without root: a
 * command in a session of its own whose child calls setsid() and whose grandchild is
 * orphaned is followed whole, the detached member is marked, and proctree_stop ends every
 * member but the leader, which the caller reaps. A command keeps none of deferbench's
 * descriptors (a tracefs instance's file open in a command makes the instance
 * impossible to remove).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <cmocka.h>

#include "msg.h"
#include "proc.h"
#include "proctree.h"
#include "sys.h"

/* members - how many members sid's tree has now, and how many of them detached */
static size_t members(pid_t sid, size_t *detached)
{
	struct proctree_proc m[64];
	size_t n = 0, i;

	assert_int_equal(proctree_scan(sid, m, 64, &n), 0);
	*detached = 0;
	for (i = 0; i < n && i < 64; i++)
		*detached += m[i].detached;
	return n;
}

static void test_tree(void **state)
{
	/* the leader; a child that leaves the session; a grandchild orphaned at once */
	char *const argv[] = { "sh", "-c", "setsid sleep 99 & (sleep 98 &) ; exec sleep 97",
			       NULL };
	struct proc_opts o = { .session = true, .out_fd = -1 };
	char err[ERRBUF_LEN];
	size_t n = 0, det = 0;
	int status, tries;
	pid_t pid;

	(void)state;
	assert_int_equal(proctree_subreaper(), 0);
	assert_int_equal(proc_spawn(argv, &o, &pid, err), 0);
	/*
	 * the leader, sleep 99 (detached), sleep 98 (handed to us, its parent gone); the
	 * three can be there before the first has called setsid(), and beside the
	 * subshell that starts sleep 98 before it exits: wait for exactly that tree
	 */
	for (tries = 0; tries < 300 && ((n = members(pid, &det)) != 3 || det != 1); tries++)
		usleep(10000);
	assert_int_equal(n, 3);
	assert_int_equal(det, 1);
	assert_int_equal(getsid(pid), pid);
	/* everything but the leader goes; the leader is the caller's to reap */
	kill(pid, SIGTERM);
	assert_true(proc_reap(pid, &status, 5 * NSEC_PER_SEC));
	assert_int_equal(proctree_stop(pid, 5 * NSEC_PER_SEC), 0);
	assert_int_equal(members(pid, &det), 0);
}

static char fds_dir[] = "/tmp/deferbench-test.XXXXXX";

/* fds_teardown - the test's directory goes, whatever failed */
static int fds_teardown(void **state)
{
	char path[sizeof(fds_dir) + 8];

	(void)state;
	snprintf(path, sizeof(path), "%s/fds", fds_dir);
	unlink(path);
	rmdir(fds_dir);
	return 0;
}

/* test_fds - a command holds only stdin, stdout and stderr, whatever deferbench had open */
static void test_fds(void **state)
{
	char *const argv[] = { "sh", "-c", "exec ls /proc/self/fd", NULL };
	struct proc_opts o = { .out_fd = -1 };
	char err[ERRBUF_LEN], out[64], list[256] = "";
	int fd, keep, status;
	ssize_t n;
	pid_t pid;

	(void)state;
	assert_non_null(mkdtemp(fds_dir));
	snprintf(out, sizeof(out), "%s/fds", fds_dir);
	fd = open(out, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	assert_true(fd > 2);
	keep = open("/dev/null", O_RDONLY);	/* not close-on-exec: inherited before */
	assert_true(keep > 2);
	o.out_fd = fd;
	assert_int_equal(proc_spawn(argv, &o, &pid, err), 0);
	assert_true(proc_reap(pid, &status, 5 * NSEC_PER_SEC));
	assert_true(WIFEXITED(status) && !WEXITSTATUS(status));
	close(fd);
	close(keep);
	fd = open(out, O_RDONLY);
	n = read(fd, list, sizeof(list) - 1);
	close(fd);
	assert_true(n > 0);
	list[n] = '\0';
	/* ls's own directory descriptor is the one above 2 */
	assert_string_equal(list, "0\n1\n2\n3\n");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_tree),
		cmocka_unit_test_teardown(test_fds, fds_teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
