// SPDX-License-Identifier: GPL-2.0
/*
 * test_runner.c - the run loop with a fake backend: cell order, result layout,
 * run.json and cell.json, the failure and Ctrl-C paths (teardown always runs, partial
 * cells stay .partial-), the stale-journal refusal; configurations with knobs, applied
 * before their cell and restored after it, and a cell whose restore fails; and the pure
 * metadata helpers. No root: the journal lives in a temporary directory, and the knobs
 * change a machine made of variables (the linker's --wrap puts the functions below in
 * place of the library's sysfs and scheduler layer: WRAP_test_runner in the Makefile).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <json-c/json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "knobs.h"
#include "runner.h"
#include "rundir.h"
#include "fmt.h"
#include "msg.h"
#include "file.h"
#include "sys.h"

enum fail_op { F_NONE, F_SETUP, F_START, F_CAPTURE, F_POLL, F_WRITE, F_INTERRUPT,
	       F_TEARDOWN };

static struct fake {
	enum fail_op fail;
	int fail_cell;		/* the setup count at which fail happens (1-based) */
	int setups, teardowns, writes;
	char ids[64][SCN_NAME_MAX * 2 + 32];	/* as scn_cell.id */
	char seen[64][400];	/* the machine's knobs when each cell's workloads started */
} fk;

/*
 * The fake machine: writeback's nice and max_active, and the two ksoftirqd threads.
 * Every write checks that the journal on disk already holds the target (saved before
 * the first write); restoring nice can be made to fail.
 */
#define NICE_PATH WQ_SYSFS_DIR "/writeback/nice"
#define MAXA_PATH WQ_SYSFS_DIR "/writeback/max_active"

static struct machine {
	char nice[KNOB_VALUE_MAX], max_active[KNOB_VALUE_MAX], ksoftirqd[2][KNOB_VALUE_MAX];
	int fail_restore;	/* restoring nice fails: 1 once, 2 every time */
	int writes, unsaved;	/* writes, and writes of targets the journal did not hold */
} mc;

static void machine_reset(void)
{
	memset(&mc, 0, sizeof(mc));
	snprintf(mc.nice, sizeof(mc.nice), "0");
	snprintf(mc.max_active, sizeof(mc.max_active), "256");
	snprintf(mc.ksoftirqd[0], sizeof(mc.ksoftirqd[0]), "other:0");
	snprintf(mc.ksoftirqd[1], sizeof(mc.ksoftirqd[1]), "other:0");
}

static char *slot(const struct knob_target *t)
{
	if (t->kind == TGT_THREAD)
		return mc.ksoftirqd[t->pid - 9000];
	return strcmp(t->path, NICE_PATH) ? mc.max_active : mc.nice;
}

/* journaled - the journal file holds target t */
static bool journaled(const struct knob_target *t)
{
	char pid[32], *text = read_whole_file(getenv("DEFERBENCH_JOURNAL"), NULL);
	bool ok;

	snprintf(pid, sizeof(pid), "\"pid\":%d", t->pid);
	ok = text && strstr(text, t->kind == TGT_FILE ? t->path : pid);
	free(text);
	return ok;
}

int __wrap_knob_check(const struct knob *k, char *errbuf);
int __wrap_knobs_check_set(const struct knob *ks, int n, char *errbuf);
int __wrap_knob_resolve(const struct knob *k, unsigned long long since_ticks,
			struct knob_target **out, int *n, char *errbuf);
int __wrap_knob_target_read(const struct knob_target *t, char *val, size_t len);
int __wrap_knob_target_write(const struct knob_target *t, const char *val, char *errbuf);
int __wrap_knob_target_restore(const struct knob_target *t, char *errbuf);

int __wrap_knob_check(const struct knob *k __unused, char *errbuf __unused)
{
	return 0;
}

int __wrap_knobs_check_set(const struct knob *ks __unused, int n __unused,
			   char *errbuf __unused)
{
	return 0;
}

int __wrap_knob_resolve(const struct knob *k, unsigned long long since_ticks __unused,
			struct knob_target **out, int *n, char *errbuf)
{
	struct knob_target *t = calloc(2, sizeof(*t));
	int i;

	*n = 0;
	if (!t)
		return -ENOMEM;
	if (k->type->cls == KNOB_WQ_ATTR && !strcmp(k->obj, "writeback") &&
	    (!strcmp(k->type->attr, "nice") || !strcmp(k->type->attr, "max_active"))) {
		t[0].kind = TGT_FILE;
		snprintf(t[0].path, sizeof(t[0].path), "%s",
			 !strcmp(k->type->attr, "nice") ? NICE_PATH : MAXA_PATH);
		snprintf(t[0].rpath, sizeof(t[0].rpath), "%s", t[0].path);
		*n = 1;
	} else if (k->type->cls == KNOB_SCHED_KSOFTIRQD) {
		for (i = 0; i < 2; i++) {
			if (k->cpu >= 0 && k->cpu != i)
				continue;
			t[*n].kind = TGT_THREAD;
			t[*n].pid = 9000 + i;
			t[*n].start = 1;
			snprintf(t[*n].comm, sizeof(t[*n].comm), "ksoftirqd/%d", i);
			(*n)++;
		}
	} else {
		free(t);
		return set_err(errbuf, "the fake machine has no %s", k->name);
	}
	for (i = 0; i < *n; i++) {
		t[i].type = k->type;
		snprintf(t[i].knob, sizeof(t[i].knob), "%s", k->name);
		snprintf(t[i].orig, sizeof(t[i].orig), "%s", slot(&t[i]));
	}
	*out = t;
	return 0;
}

int __wrap_knob_target_read(const struct knob_target *t, char *val, size_t len)
{
	snprintf(val, len, "%s", slot(t));
	return 0;
}

int __wrap_knob_target_write(const struct knob_target *t, const char *val, char *errbuf __unused)
{
	mc.writes++;
	mc.unsaved += !journaled(t);
	snprintf(slot(t), KNOB_VALUE_MAX, "%s", val);
	return 0;
}

int __wrap_knob_target_restore(const struct knob_target *t, char *errbuf)
{
	if (mc.fail_restore && t->kind == TGT_FILE && !strcmp(t->path, NICE_PATH)) {
		if (mc.fail_restore == 1)
			mc.fail_restore = 0;
		return set_err(errbuf, "the kernel kept %s", mc.nice), -EIO;
	}
	return __wrap_knob_target_write(t, t->orig, errbuf);
}

static char tmp[64], outdir[128], scn[128];

static bool failing(enum fail_op op)
{
	return fk.fail == op && fk.setups == fk.fail_cell;
}

static int f_check(const struct scenario *s, int wl, int cfg __unused, char *err)
{
	int i;

	for (i = 0; i < s->wl[wl].nopts; i++)
		if (!strcmp(s->wl[wl].opt[i].key, "bad"))
			return set_err(err, "%s:%d: bad option", s->file, s->wl[wl].opt[i].line);
	return 0;
}

static int f_setup(struct run_cell *c, char *err)
{
	c->priv = &fk;
	snprintf(fk.ids[fk.setups % 64], sizeof(fk.ids[0]), "%s", c->cell->id);
	fk.setups++;
	return failing(F_SETUP) ? set_err(err, "setup failed") : 0;
}

static int f_start(struct run_cell *c __unused, char *err)
{
	/* every knob of the cell is applied by now, the late ones too */
	snprintf(fk.seen[(fk.setups - 1) % 64], sizeof(fk.seen[0]), "nice %s max_active %s "
		 "ksoftirqd %s %s", mc.nice, mc.max_active, mc.ksoftirqd[0], mc.ksoftirqd[1]);
	return failing(F_START) ? set_err(err, "start failed") : 0;
}

static int f_capture(struct run_cell *c __unused, char *err)
{
	if (failing(F_INTERRUPT))
		stop_requested = 1;	/* as SIGINT would */
	return failing(F_CAPTURE) ? set_err(err, "capture failed") : 0;
}

static int f_poll(struct run_cell *c __unused, char *err)
{
	return failing(F_POLL) ? set_err(err, "workload died"), -EIO : 0;
}

static void f_stop(struct run_cell *c __unused)
{
}

static int f_write(struct run_cell *c __unused, const char *dir, char *err)
{
	char path[PATH_MAX];
	FILE *f;

	if (failing(F_WRITE))
		return set_err(err, "write failed");
	snprintf(path, sizeof(path), "%s/fake.txt", dir);
	f = fopen(path, "w");
	if (!f)
		return -errno;
	fclose(f);
	fk.writes++;
	return 0;
}

static int f_teardown(struct run_cell *c)
{
	if (c->priv)
		fk.teardowns++;
	c->priv = NULL;
	return failing(F_TEARDOWN) ? -EBUSY : 0;	/* the instance stays */
}

static const char *const fake_types[] = { "tty", "block", NULL };

static const struct run_backend fake = {
	.types = fake_types,
	.check = f_check,
	.setup = f_setup,
	.start_load = f_start,
	.start_capture = f_capture,
	.poll = f_poll,
	.stop = f_stop,
	.write = f_write,
	.teardown = f_teardown,
};

static const char scenario_text[] =
	"[global]\nduration = 20ms\nwarmup = 0\nrepetitions = 2\n"
	"[workload a]\ntype = tty\n"
	"[workload b]\ntype = block\nconfigs = y, x\n"
	"[load l]\ntype = tty\n"
	"[config x]\ndescription = first\n"
	"[config y]\nload = l\nopt.a.rate = 5\n";

static int setup(void **state __unused)
{
	char path[192];
	FILE *f;

	snprintf(tmp, sizeof(tmp), "/tmp/deferbench-runner.XXXXXX");
	if (!mkdtemp(tmp))
		return -1;
	snprintf(outdir, sizeof(outdir), "%s/out", tmp);
	snprintf(scn, sizeof(scn), "%s/s.ini", tmp);
	snprintf(path, sizeof(path), "%s/journal.json", tmp);
	setenv("DEFERBENCH_JOURNAL", path, 1);
	f = fopen(scn, "w");
	if (!f)
		return -1;
	fputs(scenario_text, f);
	fclose(f);
	memset(&fk, 0, sizeof(fk));
	machine_reset();
	stop_requested = 0;
	return 0;
}

static int teardown(void **state __unused)
{
	stop_requested = 0;
	return path_rm_rf(tmp);
}

static int run(bool dry)
{
	struct run_opts o = { .scenario = scn, .outdir = outdir, .dry_run = dry,
			      .command = "deferbench run test" };

	return run_scenario(&o, &fake);
}

static bool exists(const char *rel)
{
	char path[PATH_MAX];
	struct stat st;

	snprintf(path, sizeof(path), "%s/%s", outdir, rel);
	return !stat(path, &st);
}

/* json_at - a member of a JSON file in outdir, as a string ("" if missing) */
static const char *json_at(const char *rel, const char *key, char *buf, size_t len)
{
	char path[PATH_MAX];
	json_object *o, *v;

	snprintf(path, sizeof(path), "%s/%s", outdir, rel);
	buf[0] = '\0';
	o = json_object_from_file(path);
	if (o && json_object_object_get_ex(o, key, &v))
		snprintf(buf, len, "%s", json_object_get_string(v));
	json_object_put(o);
	return buf;
}

static void test_complete(void **state __unused)
{
	char b[512];

	assert_int_equal(run(false), 0);
	assert_int_equal(fk.setups, 8);
	assert_int_equal(fk.teardowns, 8);
	assert_int_equal(fk.writes, 8);
	/* repetitions outermost, configs rotating: b's list is "y, x" */
	assert_string_equal(fk.ids[0], "a--x--r1");
	assert_string_equal(fk.ids[1], "a--y--r1");
	assert_string_equal(fk.ids[2], "b--y--r1");
	assert_string_equal(fk.ids[3], "b--x--r1");
	assert_string_equal(fk.ids[4], "a--y--r2");
	assert_true(exists("scenario.ini"));
	assert_true(exists("cells/a--x--r1/fake.txt"));
	assert_true(exists("cells/b--y--r2/cell.json"));
	assert_false(exists("cells/.partial-a--x--r1"));
	assert_string_equal(json_at("run.json", "schema", b, sizeof(b)), RUN_SCHEMA);
	assert_string_equal(json_at("run.json", "complete", b, sizeof(b)), "true");
	assert_string_equal(json_at("run.json", "cells_planned", b, sizeof(b)), "8");
	assert_string_equal(json_at("cells/a--y--r1/cell.json", "status", b, sizeof(b)), "ok");
	assert_string_equal(json_at("cells/a--y--r1/cell.json", "schema", b, sizeof(b)), CELL_SCHEMA);
	assert_non_null(strstr(json_at("cells/a--y--r1/cell.json", "loads", b, sizeof(b)), "l"));
	assert_non_null(strstr(json_at("cells/a--y--r1/cell.json", "options", b, sizeof(b)), "\"rate\""));
	assert_int_equal(access(getenv("DEFERBENCH_JOURNAL"), F_OK), -1);	/* removed */
}

/* fail_case - one failure at cell 3: teardown ran for every setup, 2 cells done */
static void fail_case(enum fail_op op, const char *status)
{
	char b[512];

	fk.fail = op;
	fk.fail_cell = 3;
	assert_int_equal(run(false), 1);
	assert_int_equal(fk.setups, 3);
	assert_int_equal(fk.teardowns, 3);
	assert_true(exists("cells/a--x--r1"));
	assert_true(exists("cells/a--y--r1"));
	assert_true(exists("cells/.partial-b--y--r1/cell.json"));
	assert_false(exists("cells/b--y--r1"));
	assert_string_equal(json_at("run.json", "complete", b, sizeof(b)), "false");
	assert_string_equal(json_at("run.json", "status", b, sizeof(b)), status);
	assert_string_equal(json_at("cells/.partial-b--y--r1/cell.json", "status", b, sizeof(b)),
			    !strcmp(status, "interrupted") ? "interrupted" : "failed");
	assert_non_null(strstr(json_at("run.json", "cells", b, sizeof(b)), "a--y--r1"));
	assert_null(strstr(b, "b--y--r1"));
	assert_int_equal(access(getenv("DEFERBENCH_JOURNAL"), F_OK), -1);
}

static void test_fail_setup(void **state __unused) { fail_case(F_SETUP, "failed"); }
static void test_fail_start(void **state __unused) { fail_case(F_START, "failed"); }
static void test_fail_capture(void **state __unused) { fail_case(F_CAPTURE, "failed"); }
static void test_fail_poll(void **state __unused) { fail_case(F_POLL, "failed"); }
static void test_fail_write(void **state __unused) { fail_case(F_WRITE, "failed"); }
static void test_interrupt(void **state __unused) { fail_case(F_INTERRUPT, "interrupted"); }
static void test_fail_teardown(void **state __unused) { fail_case(F_TEARDOWN, "failed"); }

static void test_refusals(void **state __unused)
{
	char path[256];
	FILE *f;

	/* a bad workload option: nothing is created */
	f = fopen(scn, "a");
	fputs("[workload c]\ntype = tty\nbad = 1\n", f);
	fclose(f);
	assert_int_equal(run(false), 1);
	assert_int_equal(fk.setups, 0);
	assert_false(exists(""));
	/* a dry run touches nothing either */
	f = fopen(scn, "w");
	fputs(scenario_text, f);
	fclose(f);
	assert_int_equal(run(true), 0);
	assert_int_equal(fk.setups, 0);
	assert_false(exists(""));
	/* a stale journal blocks the run */
	f = fopen(getenv("DEFERBENCH_JOURNAL"), "w");
	fputs("{\"schema\": \"deferbench-journal/1\", \"pid\": 999999999, \"entries\": []}", f);
	fclose(f);
	assert_int_equal(run(false), 1);
	assert_false(exists(""));
	unlink(getenv("DEFERBENCH_JOURNAL"));
	/* a directory that holds a run already */
	assert_int_equal(mkdir(outdir, 0755), 0);
	snprintf(path, sizeof(path), "%s/run.json", outdir);
	f = fopen(path, "w");
	fclose(f);
	assert_int_equal(run(false), 1);
	assert_int_equal(fk.setups, 0);
}

static const char knobs_text[] =
	"[global]\nduration = 20ms\nwarmup = 0\nrepetitions = 1\n"
	"[workload a]\ntype = tty\nconfigs = x, plain, y\n"
	"[config x]\nwq.writeback.nice = 5\nsched.ksoftirqd = fifo:2\n"
	"[config plain]\n"
	"[config y]\nwq.writeback.nice = -3\nwq.writeback.max_active = 32\n";

static const char machine_as_was[] = "nice 0 max_active 256 ksoftirqd other:0 other:0";

static void write_scenario(const char *text)
{
	FILE *f = fopen(scn, "w");

	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

/*
 * test_knobs - each cell runs under its configuration's knobs and only those: the
 * previous cell's are restored before the next one starts, a configuration without
 * knobs gets the machine as it was; each target is in the journal on disk before it
 * is first written; cell.json has the values read back; the end restores everything
 */
static void test_knobs(void **state __unused)
{
	char b[512];

	write_scenario(knobs_text);
	assert_int_equal(run(false), 0);
	assert_int_equal(fk.setups, 3);
	assert_string_equal(fk.ids[0], "a--x--r1");
	assert_string_equal(fk.seen[0], "nice 5 max_active 256 ksoftirqd fifo:2 fifo:2");
	assert_string_equal(fk.ids[1], "a--plain--r1");
	assert_string_equal(fk.seen[1], machine_as_was);
	assert_string_equal(fk.ids[2], "a--y--r1");
	assert_string_equal(fk.seen[2], "nice -3 max_active 32 ksoftirqd other:0 other:0");
	assert_string_equal(mc.nice, "0");
	assert_string_equal(mc.max_active, "256");
	assert_string_equal(mc.ksoftirqd[0], "other:0");
	assert_string_equal(mc.ksoftirqd[1], "other:0");
	assert_true(mc.writes >= 10);		/* 3 + 3 applied, as many restored */
	assert_int_equal(mc.unsaved, 0);
	assert_null(strstr(json_at("cells/a--x--r1/cell.json", "knobs", b, sizeof(b)), "max_active"));
	assert_non_null(strstr(b, "\"wq.writeback.nice\": \"5\""));
	assert_non_null(strstr(b, "\"sched.ksoftirqd\": \"fifo:2\""));
	assert_string_equal(json_at("cells/a--plain--r1/cell.json", "knobs", b, sizeof(b)), "{ }");
	assert_non_null(strstr(json_at("cells/a--y--r1/cell.json", "knobs", b, sizeof(b)),
			       "\"wq.writeback.max_active\": \"32\""));
	assert_string_equal(json_at("run.json", "complete", b, sizeof(b)), "true");
	assert_int_equal(access(getenv("DEFERBENCH_JOURNAL"), F_OK), -1);
}

/*
 * test_restore_fails - a knob that cannot be put back after a cell fails that cell
 * (its error says so) and stops the run before the next cell, which would otherwise
 * start on a changed machine; the run says failed and exits 1. When the restore keeps
 * failing the journal is kept for 'deferbench restore'; when a second try at the end
 * succeeds, the machine is as it was and the journal goes.
 */
static void test_restore_fails(void **state __unused)
{
	char b[512];

	write_scenario(knobs_text);
	mc.fail_restore = 2;
	assert_int_equal(run(false), 1);
	assert_int_equal(fk.setups, 1);
	assert_int_equal(fk.teardowns, 1);
	assert_true(exists("cells/.partial-a--x--r1/cell.json"));
	assert_false(exists("cells/a--x--r1"));
	assert_string_equal(json_at("cells/.partial-a--x--r1/cell.json", "status", b, sizeof(b)),
			    "failed");
	assert_non_null(strstr(json_at("cells/.partial-a--x--r1/cell.json", "error", b, sizeof(b)),
			       "1 setting(s) could not be restored after the cell"));
	assert_string_equal(json_at("run.json", "status", b, sizeof(b)), "failed");
	assert_string_equal(json_at("run.json", "complete", b, sizeof(b)), "false");
	assert_string_equal(mc.nice, "5");		/* still changed */
	assert_string_equal(mc.ksoftirqd[0], "other:0");	/* the rest restored */
	assert_int_equal(access(getenv("DEFERBENCH_JOURNAL"), F_OK), 0);	/* kept */
}

static void test_restore_fails_once(void **state __unused)
{
	char b[512];

	write_scenario(knobs_text);
	mc.fail_restore = 1;
	assert_int_equal(run(false), 1);
	assert_int_equal(fk.setups, 1);
	assert_string_equal(json_at("run.json", "status", b, sizeof(b)), "failed");
	assert_string_equal(mc.nice, "0");		/* put back by the run's last restore */
	assert_int_equal(access(getenv("DEFERBENCH_JOURNAL"), F_OK), -1);
}

static const char config_dynamic[] =
	"CONFIG_HZ_250=y\nCONFIG_HZ=250\nCONFIG_NO_HZ_IDLE=y\nCONFIG_PREEMPT_BUILD=y\n"
	"CONFIG_PREEMPT_NONE=y\n# CONFIG_PREEMPT is not set\nCONFIG_PREEMPT_DYNAMIC=y\n";

static void test_meta(void **state __unused)
{
	struct run_meta m;

	memset(&m, 0, sizeof(m));
	run_meta_kernel(&m, config_dynamic, "#1 SMP PREEMPT_DYNAMIC", NULL, "quiet");
	assert_string_equal(m.preempt, "none");
	assert_string_equal(m.preempt_source, "config");
	assert_true(m.preempt_dynamic);
	assert_int_equal(m.hz, 250);
	assert_string_equal(m.nohz, "idle");
	run_meta_kernel(&m, config_dynamic, "", "none voluntary (full) lazy", "quiet");
	assert_string_equal(m.preempt, "full");
	assert_string_equal(m.preempt_source, "debugfs");
	run_meta_kernel(&m, config_dynamic, "", NULL, "ro preempt=lazy quiet");
	assert_string_equal(m.preempt, "lazy");
	assert_string_equal(m.preempt_source, "cmdline");
	run_meta_kernel(&m, "CONFIG_PREEMPT=y\nCONFIG_NO_HZ_FULL=y\n", "", NULL, "preempt=none");
	assert_string_equal(m.preempt, "full");	/* not dynamic: preempt= means nothing */
	assert_string_equal(m.nohz, "full");
	assert_int_equal(m.hz, 0);
	run_meta_kernel(&m, NULL, "#1 SMP PREEMPT_RT", NULL, "");
	assert_string_equal(m.preempt, "rt");
	assert_string_equal(m.preempt_source, "uname");
	assert_string_equal(m.nohz, "");
}

static void test_paths(void **state __unused)
{
	char buf[256];

	assert_int_equal(run_dir_default(buf, sizeof(buf), "vm", "6.18.44-fc", 0, "default"), 0);
	assert_string_equal(buf, "results/vm/6.18.44-fc/19700101T000000Z-default");
	assert_int_equal(run_dir_default(buf, sizeof(buf), "../x/y", "a b", 0, "q"), 0);
	assert_null(strstr(buf, "/../"));
	assert_string_equal(buf, "results/___x_y/a_b/19700101T000000Z-q");
	assert_string_equal(fmt_eta(59 * NSEC_PER_SEC, buf, sizeof(buf)), "59s");
	assert_string_equal(fmt_eta(245 * NSEC_PER_SEC, buf, sizeof(buf)), "4m05s");
	assert_string_equal(fmt_eta(3720 * NSEC_PER_SEC, buf, sizeof(buf)), "1h02m");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_complete, setup, teardown),
		cmocka_unit_test_setup_teardown(test_fail_setup, setup, teardown),
		cmocka_unit_test_setup_teardown(test_fail_start, setup, teardown),
		cmocka_unit_test_setup_teardown(test_fail_capture, setup, teardown),
		cmocka_unit_test_setup_teardown(test_fail_poll, setup, teardown),
		cmocka_unit_test_setup_teardown(test_fail_write, setup, teardown),
		cmocka_unit_test_setup_teardown(test_interrupt, setup, teardown),
		cmocka_unit_test_setup_teardown(test_fail_teardown, setup, teardown),
		cmocka_unit_test_setup_teardown(test_refusals, setup, teardown),
		cmocka_unit_test_setup_teardown(test_knobs, setup, teardown),
		cmocka_unit_test_setup_teardown(test_restore_fails, setup, teardown),
		cmocka_unit_test_setup_teardown(test_restore_fails_once, setup, teardown),
		cmocka_unit_test(test_meta),
		cmocka_unit_test(test_paths),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
