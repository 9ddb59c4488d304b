// SPDX-License-Identifier: GPL-2.0
/*
 * test_knobs.c - knob names and values, cpumasks, policies, and the journal file,
 * without root: nothing here writes to the kernel.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fixture.h"
#include "journal.h"
#include "knobs.h"
#include "msg.h"

#define ONLINE "0-1"

static char err[ERRBUF_LEN];

/* ok - name = value parses, and its canonical value is canon */
static void ok(const char *name, const char *value, const char *canon)
{
	struct knob k;

	err[0] = '\0';
	if (knob_parse(name, value, &k, ONLINE, err))
		fail_msg("%s = %s: %s", name, value, err);
	assert_string_equal(k.value, canon);
	assert_string_equal(k.name, name);
}

/* bad - name = value is refused with a message holding frag */
static void bad(const char *name, const char *value, const char *frag)
{
	struct knob k;

	err[0] = '\0';
	assert_int_equal(knob_parse(name, value, &k, ONLINE, err), -EINVAL);
	if (!strstr(err, frag))
		fail_msg("%s = %s: message '%s' lacks '%s'", name, value, err, frag);
}

static void test_names(void **state __unused)
{
	struct knob k;

	assert_int_equal(knob_parse("wq.writeback.nice", "-20", &k, ONLINE, err), 0);
	assert_int_equal(k.type->cls, KNOB_WQ_ATTR);
	assert_string_equal(k.obj, "writeback");
	assert_string_equal(k.type->attr, "nice");
	assert_int_equal(knob_parse("wq.cpumask", "1", &k, ONLINE, err), 0);
	assert_int_equal(k.type->cls, KNOB_WQ_UNBOUND);
	assert_int_equal(knob_parse("sched.ksoftirqd", "fifo:1", &k, ONLINE, err), 0);
	assert_int_equal(k.cpu, -1);
	assert_int_equal(knob_parse("sched.ksoftirqd.1", "fifo:1", &k, ONLINE, err), 0);
	assert_int_equal(k.cpu, 1);
	assert_int_equal(knob_parse("sched.napi", "rr:10", &k, ONLINE, err), 0);
	assert_int_equal(k.type->phase, KNOB_LATE);
	assert_int_equal(knob_parse("netdev.lo.rps_cpus", "0", &k, ONLINE, err), 0);
	assert_string_equal(k.obj, "lo");
	/* any device: a NIC, a veth, a VLAN whose name has a dot */
	assert_int_equal(knob_parse("netdev.eth0.100.threaded", "1", &k, ONLINE, err), 0);
	assert_string_equal(k.obj, "eth0.100");
	assert_string_equal(k.type->attr, "threaded");
	assert_int_equal(knob_parse("netdev.veth1.gro_flush_timeout", "200000", &k, ONLINE, err),
			 0);
	assert_string_equal(k.obj, "veth1");

	bad("wq.writeback", "1", "expected wq.<workqueue>.<attribute>");
	bad("wq.writeback.foo", "1", "unknown workqueue attribute 'foo' (known: nice, cpumask");
	bad("wq.a/b.nice", "1", "not a workqueue name");
	bad("wq....nice", "1", "not a workqueue name");
	bad("wq..nice", "1", "not a workqueue name");
	bad("param.panic_on_stall", "1", "not a workqueue parameter");
	bad("param.power_efficient", "1", "known: default_affinity_scope, cpu_intensive_thresh_us");
	bad("sysctl.net.core.rmem_max", "1", "not a sysctl deferbench changes");
	bad("sysctl.kernel.panic", "1", "unknown knob");
	bad("netdev.eth0.rps_cpus", "1", "rps_cpus is loopback's only");
	bad("netdev.lo.mtu", "1", "unknown device attribute 'mtu' (known: threaded, "
	    "napi_defer_hard_irqs, gro_flush_timeout, rps_cpus)");
	bad("netdev.sixteen-chars-xx.threaded", "1", "at most 15 characters");
	bad("netdev.a/b.threaded", "1", "expected netdev.<device>.<attribute>");
	bad("netdev..threaded", "1", "expected netdev.<device>.<attribute>");
	bad("netdev.eth0:1.threaded", "1", "expected netdev.<device>.<attribute>");
	bad("netdev.threaded", "1", "expected netdev.<device>.<attribute>");
	bad("sched.napi.eth0", "fifo:1", "never a host NIC");
	bad("sched.ksoftirqd.x", "fifo:1", "not an integer");
	bad("sched.kworker", "fifo:1", "wq.<wq>.nice");
	bad("irq.ksoftirqd.policy", "fifo:50", "unknown knob");
	bad("hog", "1", "unknown knob");
}

static void test_values(void **state __unused)
{
	ok("wq.writeback.nice", "-20", "-20");
	ok("wq.writeback.nice", "19", "19");
	bad("wq.writeback.nice", "20", "out of range [-20, 19]");
	bad("wq.writeback.nice", "0x1", "not an integer");
	bad("wq.writeback.nice", "1.5", "not an integer");
	ok("wq.writeback.max_active", "2048", "2048");
	bad("wq.writeback.max_active", "0", "out of range");
	bad("wq.writeback.max_active", "5000", "out of range");
	ok("wq.writeback.affinity_strict", "yes", "1");
	ok("wq.writeback.affinity_strict", "0", "0");
	bad("wq.writeback.affinity_strict", "2", "not a boolean");
	ok("wq.writeback.affinity_scope", "system", "system");
	ok("wq.writeback.affinity_scope", "default", "default");
	bad("wq.writeback.affinity_scope", "Cache", "not an affinity scope");
	ok("param.default_affinity_scope", "numa", "numa");
	ok("param.cpu_intensive_thresh_us", "500", "500");
	bad("param.cpu_intensive_thresh_us", "0", "out of range");
	ok("sysctl.net.core.busy_poll", "50", "50");
	ok("sysctl.net.core.netdev_budget", "600", "600");
	bad("sysctl.net.core.netdev_budget", "0", "out of range");
	ok("netdev.lo.rps_cpus", "0", "0");
	ok("netdev.lo.rps_cpus", "2", "2");
	ok("netdev.veth1.threaded", "1", "1");
	bad("netdev.veth1.threaded", "3", "out of range [0, 2]");
	ok("netdev.veth1.napi_defer_hard_irqs", "2", "2");
	bad("netdev.veth1.napi_defer_hard_irqs", "-1", "out of range");
	ok("netdev.veth1.gro_flush_timeout", "200000", "200000");
	bad("netdev.veth1.gro_flush_timeout", "20000000000", "out of range");
	bad("netdev.veth1.gro_flush_timeout", "1ms", "not an integer");
}

static void test_masks(void **state __unused)
{
	char buf[128];
	cpu_set_t set;
	struct knob k;

	ok("wq.cpumask", "0x3", "3");
	ok("wq.cpumask", "03", "3");
	ok("wq.writeback.cpumask", "2", "2");
	bad("wq.writeback.cpumask", "4", "selects CPU 2, not online (online: 0-1");
	bad("wq.writeback.cpumask", "0", "selects no CPU");
	bad("wq.writeback.cpumask", "xyz", "not a hex CPU mask");
	bad("wq.writeback.cpumask", "1,123456789", "more than 8 digits");
	bad("wq.writeback.cpumask", ",1", "not a hex CPU mask");
	bad("wq.writeback.cpumask", "1,", "not a hex CPU mask");

	/* the kernel's format on a large machine: 32-bit groups, most significant first */
	assert_int_equal(knob_parse("wq.cpumask", "1,00000001", &k, "0-63", err), 0);
	assert_string_equal(k.value, "1,00000001");
	assert_int_equal(knob_cpumask_parse_hex("80000000,00000000,00000001", &set, err), 0);
	assert_true(CPU_ISSET(0, &set) && CPU_ISSET(95, &set));
	assert_int_equal(CPU_COUNT(&set), 2);
	assert_string_equal(knob_cpumask_format_hex(&set, buf, sizeof(buf)),
			    "80000000,00000000,00000001");
	assert_int_equal(knob_cpumask_parse_hex("ffffffffff", &set, err), 0);	/* no commas */
	assert_int_equal(CPU_COUNT(&set), 40);
	CPU_ZERO(&set);
	assert_string_equal(knob_cpumask_format_hex(&set, buf, sizeof(buf)), "0");
	assert_int_equal(knob_cpumask_parse_hex("3\n", &set, err), 0);	/* as read from sysfs */
	assert_int_equal(CPU_COUNT(&set), 2);
}

static void test_sched(void **state __unused)
{
	struct sched_spec sp;
	char buf[32];

	ok("sched.ksoftirqd", "fifo:50", "fifo:50");
	ok("sched.ksoftirqd", "rr:1", "rr:1");
	ok("sched.ksoftirqd", "other", "other:0");
	ok("sched.ksoftirqd", "batch:-5", "batch:-5");
	ok("sched.ksoftirqd", "idle", "idle:0");
	bad("sched.ksoftirqd", "fifo:100", "out of range");
	bad("sched.ksoftirqd", "fifo:0", "out of range");
	bad("sched.ksoftirqd", "other:-21", "out of range");
	bad("sched.ksoftirqd", "deadline", "not a policy");
	bad("sched.ksoftirqd", "fifo:", "not an integer");
	assert_int_equal(knob_sched_spec_parse("rr:7", &sp, err), 0);
	assert_int_equal(sp.policy, SCHED_RR);
	assert_int_equal(sp.prio, 7);
	assert_string_equal(knob_sched_spec_format(&sp, buf, sizeof(buf)), "rr:7");
}

/* test_canon_readback - values as the kernel prints them compare equal */
static void test_canon_readback(void **state __unused)
{
	struct knob k;
	char out[KNOB_VALUE_MAX];

	knob_parse_name("wq.writeback.affinity_scope", &k, err);
	assert_int_equal(knob_value_canon(k.type, "default (cache)", out, sizeof(out), err), 0);
	assert_string_equal(out, "default");
	assert_true(knob_value_equal(k.type, "default", "default (numa)"));
	assert_false(knob_value_equal(k.type, "cache", "default (cache)"));
	/* scopes of newer kernels can be saved and written back */
	assert_int_equal(knob_value_canon(k.type, "cache_shard", out, sizeof(out), err), 0);
	knob_parse_name("wq.writeback.cpumask", &k, err);
	assert_true(knob_value_equal(k.type, "03", "3"));
	assert_true(knob_value_equal(k.type, "00000001,00000000", "1,00000000"));
	/* an unbound mask may hold possible but offline CPUs: canon does not check */
	assert_int_equal(knob_value_canon(k.type, "ff", out, sizeof(out), err), 0);
	knob_parse_name("wq.writeback.affinity_strict", &k, err);
	assert_true(knob_value_equal(k.type, "1", "yes"));
}

static void test_safe_names(void **state __unused)
{
	assert_true(knob_safe_name("writeback"));
	assert_true(knob_safe_name("kdmflush!253:0"));
	assert_false(knob_safe_name(""));
	assert_false(knob_safe_name("."));
	assert_false(knob_safe_name(".."));
	assert_false(knob_safe_name("a/b"));
	assert_false(knob_safe_name("a b"));
	assert_false(knob_safe_name("a\nb"));
}

/* target - a file target as knob_resolve() would make it */
static struct knob_target target(const char *knob, const char *path, const char *orig)
{
	struct knob_target t;
	struct knob k;

	memset(&t, 0, sizeof(t));
	knob_parse_name(knob, &k, NULL);
	t.kind = TGT_FILE;
	t.type = k.type;
	snprintf(t.knob, sizeof(t.knob), "%s", knob);
	snprintf(t.path, sizeof(t.path), "%s", path);
	snprintf(t.rpath, sizeof(t.rpath), "%s", path);
	snprintf(t.orig, sizeof(t.orig), "%s", orig);
	return t;
}

/* test_target_allowed - a journal cannot make restore write anywhere else */
static void test_target_allowed(void **state __unused)
{
	struct knob_target t;

	t = target("wq.writeback.nice", WQ_SYSFS_DIR "/writeback/nice", "0");
	assert_true(knob_target_allowed(&t));
	t = target("wq.writeback.nice", "/etc/passwd", "0");
	assert_false(knob_target_allowed(&t));
	t = target("wq.writeback.nice", WQ_SYSFS_DIR "/other/nice", "0");
	assert_false(knob_target_allowed(&t));
	t = target("wq.cpumask", WQ_SYSFS_DIR "/cpumask", "3");
	snprintf(t.rpath, sizeof(t.rpath), WQ_SYSFS_DIR "/cpumask_requested");
	assert_true(knob_target_allowed(&t));
	t = target("netdev.lo.rps_cpus", "/sys/class/net/lo/queues/rx-0/rps_cpus", "0");
	assert_true(knob_target_allowed(&t));
	t = target("netdev.lo.rps_cpus", "/sys/class/net/lo/queues/rx-0/../../../eth0/x/rps_cpus", "0");
	assert_false(knob_target_allowed(&t));
	t = target("netdev.veth1.threaded", "/sys/class/net/veth1/threaded", "0");
	assert_true(knob_target_allowed(&t));
	t = target("netdev.veth1.threaded", "/sys/class/net/veth2/threaded", "0");
	assert_false(knob_target_allowed(&t));
	t = target("netdev.veth1.threaded", "/sys/class/net/veth1/../eth0/threaded", "0");
	assert_false(knob_target_allowed(&t));
	t = target("netdev.veth1.threaded", "/sys/class/net/veth1/napi_defer_hard_irqs", "0");
	assert_false(knob_target_allowed(&t));
	t = target("sched.ksoftirqd", "", "other:0");
	t.kind = TGT_THREAD;
	snprintf(t.comm, sizeof(t.comm), "sshd");
	assert_false(knob_target_allowed(&t));
	snprintf(t.comm, sizeof(t.comm), "ksoftirqd/0");
	assert_true(knob_target_allowed(&t));
}

/* test_journal_file - create, add, reload, refuse a second owner, remove */
static void test_journal_file(void **state __unused)
{
	char dir[] = "/tmp/deferbench-unit.XXXXXX", path[PATH_MAX];
	struct knob_target t[2], extra;
	struct journal j, l, again;

	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/sub/journal.json", dir);
	assert_int_equal(journal_create(&j, path, "deferbench test", err), 0);
	t[0] = target("wq.writeback.nice", WQ_SYSFS_DIR "/writeback/nice", "0");
	t[1] = target("wq.writeback.cpumask", WQ_SYSFS_DIR "/writeback/cpumask", "3");
	assert_int_equal(journal_add(&j, t, 2, err), 0);
	assert_int_equal(journal_add(&j, t, 1, err), 0);	/* saved once */
	assert_int_equal(j.n, 2);

	assert_int_equal(journal_load(&l, path, err), 0);
	assert_int_equal(l.n, 2);
	assert_int_equal(l.pid, getpid());
	assert_string_equal(l.command, "deferbench test");
	assert_string_equal(l.t[1].path, WQ_SYSFS_DIR "/writeback/cpumask");
	assert_string_equal(l.t[1].orig, "3");
	assert_ptr_equal(l.t[1].type, t[1].type);
	assert_true(journal_owner_alive(&l));
	journal_free(&l);

	/* a second run is refused while the owner lives */
	assert_int_equal(journal_create(&again, path, "second", err), -EEXIST);
	assert_non_null(strstr(err, "kill -INT"));
	/* and told to restore once the owner is gone */
	j.pid_start = 1;	/* not our start time: the owner looks dead */
	extra = target("wq.writeback.max_active", WQ_SYSFS_DIR "/writeback/max_active", "1024");
	assert_int_equal(journal_add(&j, &extra, 1, err), 0);	/* rewrites the file */
	assert_int_equal(journal_create(&again, path, "second", err), -EEXIST);
	assert_non_null(strstr(err, "deferbench restore"));

	assert_int_equal(journal_remove(&j), 0);
	assert_int_equal(journal_load(&l, path, err), -ENOENT);
	journal_free(&j);
	snprintf(path, sizeof(path), "%s/sub", dir);
	rmdir(path);
	rmdir(dir);
}

/*
 * test_journal_tampered - restore never writes what a journal names unless it is a
 * target a knob of that name has: a file elsewhere, a thread that is no ksoftirqd;
 * each counts as not restored (the caller then keeps the journal), nothing is written
 */
static void test_journal_tampered(void **state __unused)
{
	char *dir = fixture_dir(), victim[PATH_MAX], jpath[PATH_MAX], buf[16];
	struct knob_target t[2];
	struct journal j, l;
	FILE *f;

	snprintf(victim, sizeof(victim), "%s/victim", dir);
	f = fopen(victim, "w");
	assert_non_null(f);
	fputs("5\n", f);
	fclose(f);
	snprintf(jpath, sizeof(jpath), "%s/journal.json", dir);
	assert_int_equal(journal_create(&j, jpath, "deferbench test", err), 0);
	t[0] = target("wq.writeback.nice", victim, "0");
	t[1] = target("sched.ksoftirqd", "", "other:0");
	t[1].kind = TGT_THREAD;
	t[1].pid = 1;
	snprintf(t[1].comm, sizeof(t[1].comm), "init");
	assert_int_equal(journal_add(&j, t, 2, err), 0);
	journal_free(&j);

	assert_int_equal(journal_load(&l, jpath, err), 0);	/* well-formed: it loads */
	assert_int_equal(l.n, 2);
	assert_int_equal(journal_restore(&l, NULL), 2);	/* both refused */
	assert_int_equal(journal_restore(&l, NULL), 2);	/* and again: nothing changed */
	journal_free(&l);
	f = fopen(victim, "r");
	assert_non_null(f);
	assert_non_null(fgets(buf, sizeof(buf), f));
	fclose(f);
	assert_string_equal(buf, "5\n");
	assert_int_equal(access(jpath, F_OK), 0);	/* restore never removes it */
	fixture_free(dir);
}

static void test_journal_garbage(void **state __unused)
{
	char path[] = "/tmp/deferbench-unit.XXXXXX";
	struct journal j;
	int fd = mkstemp(path);

	assert_true(fd >= 0);
	assert_int_equal(write(fd, "{\"schema\": \"x\"}", 15), 15);
	close(fd);
	assert_int_equal(journal_load(&j, path, err), -EINVAL);
	/* names the file and the field, and says what to do */
	assert_non_null(strstr(err, path));
	assert_non_null(strstr(err, "expected 'deferbench-journal/1'"));
	assert_non_null(strstr(err, "by hand"));
	/* issue 10.11: ... and how to see what to put back */
	assert_non_null(strstr(err, "knobs show"));
	fd = open(path, O_WRONLY | O_TRUNC);
	assert_int_equal(write(fd, "{\"schema\": ", 11), 11);
	close(fd);
	assert_int_equal(journal_load(&j, path, err), -EINVAL);
	assert_non_null(strstr(err, "not JSON"));
	assert_non_null(strstr(err, "remove it"));
	unlink(path);
	/* issue 10.9: a FIFO where the journal belongs is refused, not waited on */
	assert_int_equal(mkfifo(path, 0600), 0);
	assert_int_not_equal(journal_load(&j, path, err), 0);
	assert_non_null(strstr(err, "not a regular file"));
	unlink(path);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_names),
		cmocka_unit_test(test_values),
		cmocka_unit_test(test_masks),
		cmocka_unit_test(test_sched),
		cmocka_unit_test(test_canon_readback),
		cmocka_unit_test(test_safe_names),
		cmocka_unit_test(test_target_allowed),
		cmocka_unit_test(test_journal_file),
		cmocka_unit_test(test_journal_tampered),
		cmocka_unit_test(test_journal_garbage),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
