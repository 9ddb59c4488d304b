// SPDX-License-Identifier: GPL-2.0
/*
 * test_tune_persist.c - tune --apply's persistent forms (bench/cli/tune_persist.c): for
 * the settings a tune decided, the files that keep them across a reboot hold exactly
 * those settings, in each file's syntax, each marked NOT INSTALLED, and no file is
 * written that no setting needs. No root: the files go to a temporary directory.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fixture.h"
#include "msg.h"
#define DEFERBENCH_ALLOW_TUNE_INT_H
#include "tune_int.h"

static char err[ERRBUF_LEN];

static void cand(struct tune_cand *c, const char *name, const char *const *kv)
{
	memset(c, 0, sizeof(*c));
	snprintf(c->name, sizeof(c->name), "%s", name);
	for (; kv[0]; kv += 2, c->nknobs++) {
		snprintf(c->knob[c->nknobs], NAME_LEN, "%s", kv[0]);
		snprintf(c->value[c->nknobs], NAME_LEN, "%s", kv[1]);
	}
}

/* slurp - dir/name's text (static), or NULL when there is no such file */
static const char *slurp(const char *dir, const char *name)
{
	static char buf[8192];
	FILE *f = fopen(fixture_path(dir, name), "r");
	size_t n;

	if (!f)
		return NULL;
	n = fread(buf, 1, sizeof(buf) - 1, f);
	buf[n] = '\0';
	fclose(f);
	return buf;
}

/* lines - the lines of text that are not comments or blank, joined by '|' (static) */
static const char *lines(const char *text)
{
	static char out[4096];
	const char *p = text, *nl;

	out[0] = '\0';
	for (; *p; p = nl + 1) {
		nl = strchr(p, '\n');
		if (!nl)
			nl = p + strlen(p);
		if (nl > p && *p != '#') {
			if (out[0])
				strcat(out, "|");
			strncat(out, p, (size_t)(nl - p));
		}
		if (!*nl)
			break;
	}
	return out;
}

static void marked(const char *text, const char *dest)
{
	assert_non_null(text);
	assert_true(!strncmp(text, "# NOT INSTALLED.", 16));
	assert_non_null(strstr(text, dest));
}

/* the workqueue settings: attributes in tmpfiles, the parameters on the command line */
static void test_workqueue(void **state)
{
	static const char *const kv[] = {
		"wq.cpumask", "1", "param.default_affinity_scope", "cpu",
		"wq.writeback.nice", "-10", "wq.writeback.cpumask", "01", NULL,
	};
	char *dir = fixture_dir(), sub[512];
	struct tune_cand c;
	const char *t;

	(void)state;
	cand(&c, "try-1", kv);
	snprintf(sub, sizeof(sub), "%s/persist", dir);
	assert_int_equal(tune_write_persist(sub, &c, "0-1", err), 2);
	t = slurp(sub, "kernel-cmdline.txt");
	marked(t, "add the line below to the kernel command line");
	assert_string_equal(lines(t),
			    "workqueue.unbound_cpus=0 workqueue.default_affinity_scope=cpu");
	t = slurp(sub, "tmpfiles.conf");
	marked(t, "/etc/tmpfiles.d/deferbench-tune.conf");
	assert_string_equal(lines(t), "w /sys/devices/virtual/workqueue/writeback/nice - - - - -10|"
			    "w /sys/devices/virtual/workqueue/writeback/cpumask - - - - 1");
	/* the parameters are there too, to uncomment where the command line is not changed */
	assert_non_null(strstr(t, "\n# w /sys/module/workqueue/parameters/default_affinity_scope"
			       " - - - - cpu\n"));
	assert_non_null(strstr(t, "\n# w /sys/devices/virtual/workqueue/cpumask - - - - 1\n"));
	assert_null(slurp(sub, "sysctl.conf"));
	assert_null(slurp(sub, "udev.rules"));
	assert_null(slurp(sub, "deferbench-tune.service"));
	fixture_free(dir);
}

/* threads, sysctls and network devices; the probe's own options persist nothing */
static void test_threads_net(void **state)
{
	static const char *const kv[] = {
		"sched.ksoftirqd", "fifo:1", "sched.ksoftirqd.1", "other:-5",
		"sysctl.net.core.busy_poll", "50", "netdev.lo.rps_cpus", "3", NULL,
	};
	static const char *const probe[] = { "opt.probe.napi", "threaded", "sched.napi",
					     "fifo:50", NULL };
	char *dir = fixture_dir(), sub[512];
	struct tune_cand c;
	const char *t;

	(void)state;
	cand(&c, "ksoftirqd-fifo", kv);
	snprintf(sub, sizeof(sub), "%s/persist", dir);
	assert_int_equal(tune_write_persist(sub, &c, "0-1", err), 3);
	t = slurp(sub, "deferbench-tune.service");
	marked(t, "/etc/systemd/system/deferbench-tune.service");
	/* systemd takes $$ for the shell's $ */
	assert_string_equal(lines(t), "[Unit]|Description=deferbench tune: kernel thread "
			    "scheduling of 'ksoftirqd-fifo'|After=sysinit.target|[Service]|"
			    "Type=oneshot|RemainAfterExit=yes|"
			    "ExecStart=/bin/sh -c 'for p in $$(pgrep \"^ksoftirqd/\"); do "
			    "chrt -f -p 1 $$p || exit 1; done'|"
			    "ExecStart=/bin/sh -c 'p=$$(pgrep -x ksoftirqd/1) && chrt -o -p 0 $$p "
			    "&& renice -n -5 -p $$p >/dev/null'|"
			    "[Install]|WantedBy=multi-user.target");
	t = slurp(sub, "sysctl.conf");
	marked(t, "/etc/sysctl.d/90-deferbench-tune.conf");
	assert_string_equal(lines(t), "net.core.busy_poll = 50");
	t = slurp(sub, "udev.rules");
	marked(t, "/etc/udev/rules.d/90-deferbench-tune.rules");
	assert_string_equal(lines(t), "ACTION==\"add\", SUBSYSTEM==\"net\", KERNEL==\"lo\", "
			    "RUN+=\"/bin/sh -c 'for q in /sys/class/net/lo/queues/rx-*/rps_cpus; "
			    "do echo 3 > $$q; done'\"");
	assert_null(slurp(sub, "kernel-cmdline.txt"));
	assert_null(slurp(sub, "tmpfiles.conf"));
	fixture_free(dir);

	dir = fixture_dir();
	cand(&c, "napi-threaded", probe);
	snprintf(sub, sizeof(sub), "%s/persist", dir);
	assert_int_equal(tune_write_persist(sub, &c, "0-1", err), 0);
	assert_int_not_equal(access(sub, F_OK), 0);	/* not even the directory */
	fixture_free(dir);
}

/* a setting that is no knob is refused with the reason; a file there is never replaced */
static void test_refusals(void **state)
{
	static const char *const bad[] = { "wq.cpumask", "4", NULL };
	static const char *const ok[] = { "sysctl.net.core.busy_poll", "50", NULL };
	char *dir = fixture_dir(), sub[512];
	struct tune_cand c;

	(void)state;
	cand(&c, "try-1", bad);
	snprintf(sub, sizeof(sub), "%s/persist", dir);
	assert_int_equal(tune_write_persist(sub, &c, "0-1", err), -EINVAL);
	assert_non_null(strstr(err, "not online"));
	cand(&c, "try-1", ok);
	fixture_write(dir, "persist/sysctl.conf", "mine\n");
	assert_true(tune_write_persist(sub, &c, "0-1", err) < 0);
	assert_string_equal(slurp(sub, "sysctl.conf"), "mine\n");
	fixture_free(dir);
}

/* PREEMPT_RT's per-CPU threads, as ksoftirqd's; a NIC's NAPI attribute as a udev ATTR */
static void test_rt_threads_netdev(void **state)
{
	static const char *const kv[] = {
		"sched.ktimers", "fifo:2", "sched.rcuc.1", "fifo:3",
		"netdev.eth0.threaded", "1", NULL,
	};
	char *dir = fixture_dir(), sub[512];
	struct tune_cand c;
	const char *t;

	(void)state;
	cand(&c, "rt", kv);
	snprintf(sub, sizeof(sub), "%s/persist", dir);
	assert_int_equal(tune_write_persist(sub, &c, "0-1", err), 2);
	t = slurp(sub, "deferbench-tune.service");
	assert_non_null(t);
	assert_non_null(strstr(lines(t), "ExecStart=/bin/sh -c 'for p in $$(pgrep \"^ktimers/\"); "
			       "do chrt -f -p 2 $$p || exit 1; done'|"
			       "ExecStart=/bin/sh -c 'p=$$(pgrep -x rcuc/1) && chrt -f -p 3 $$p'|"));
	t = slurp(sub, "udev.rules");
	assert_non_null(t);
	assert_string_equal(lines(t), "ACTION==\"add\", SUBSYSTEM==\"net\", KERNEL==\"eth0\", "
			    "ATTR{threaded}=\"1\"");
	fixture_free(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_workqueue),
		cmocka_unit_test(test_threads_net),
		cmocka_unit_test(test_rt_threads_netdev),
		cmocka_unit_test(test_refusals),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
