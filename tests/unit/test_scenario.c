// SPDX-License-Identifier: GPL-2.0
/*
 * test_scenario.c - scenario file parsing and cell order, without root or a registry.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "scenario.h"

static const char *const types[] = { "net", "timer", "audio", "tty", "block", "hog", NULL };
static const struct scn_parse_opts opts = { .workloads = types, .online = "0-1" };

static struct scenario *s;
static char err[ERRBUF_LEN];

static int setup(void **state __unused)
{
	s = calloc(1, sizeof(*s));
	return s ? 0 : -1;
}

static int teardown(void **state __unused)
{
	free(s);
	return 0;
}

static int parse(const char *text)
{
	err[0] = '\0';
	return scenario_parse(text, "t.ini", &opts, s, err);
}

/* expect_error - parsing fails and the message holds every given fragment */
static void expect_error(const char *text, const char *frag1, const char *frag2)
{
	assert_int_equal(parse(text), -EINVAL);
	if (!strstr(err, frag1) || (frag2 && !strstr(err, frag2)))
		fail_msg("message '%s' lacks '%s'%s%s", err, frag1, frag2 ? " or " : "",
			 frag2 ? frag2 : "");
}

static const char good[] =
	"; a scenario\n"
	"[global]\n"
	"duration = 5s\n"
	"warmup = 500ms\n"
	"repetitions = 2\n"
	"buffer_kb = 8192\n"
	"interval = off\n"
	"cpus = 0-1\n"
	"order = interleaved\n"
	"seed = 42\n"
	"\n"
	"[load cpuhog]\n"
	"type = hog\n"
	"threads = 2\n"
	"\n"
	"[workload tty]\n"
	"type = tty\n"
	"rate = 1000 ; inline comment\n"
	"configs = baseline, cpu0\n"
	"\n"
	"[workload wb]\n"
	"workload = block\n"
	"\n"
	"[config baseline]\n"
	"\n"
	"[config cpu0]\n"
	"description = unbound work on CPU 0 only\n"
	"wq.cpumask = 1\n"
	"wq.writeback.nice = -20\n"
	"param.default_affinity_scope = cpu\n"
	"load = cpuhog\n"
	"opt.wb.size = 64k\n";

static void test_good(void **state __unused)
{
	assert_int_equal(parse(good), 0);
	assert_string_equal(s->name, "t");
	assert_int_equal(s->duration_ns, 5 * NSEC_PER_SEC);
	assert_int_equal(s->warmup_ns, 500 * NSEC_PER_MSEC);
	assert_int_equal(s->repetitions, 2);
	assert_int_equal(s->buffer_kb, 8192);
	assert_int_equal(s->interval_ns, 0);
	assert_string_equal(s->cpus, "0-1");
	assert_int_equal(s->seed, 42);
	assert_int_equal(s->nwl, 3);
	assert_true(s->wl[0].load);
	assert_string_equal(s->wl[1].type, "tty");
	assert_int_equal(s->wl[1].nopts, 1);
	assert_string_equal(s->wl[1].opt[0].key, "rate");
	assert_string_equal(s->wl[1].opt[0].value, "1000");
	assert_int_equal(s->wl[1].opt[0].line, 18);
	assert_int_equal(s->wl[1].nconfigs, 2);
	assert_string_equal(s->wl[2].type, "block");
	assert_int_equal(s->wl[2].nconfigs, 2);	/* default: all */
	assert_int_equal(s->ncfg, 2);
	assert_int_equal(s->cfg[0].nknobs, 0);	/* an empty section still exists */
	assert_int_equal(s->cfg[1].nknobs, 3);
	assert_string_equal(s->cfg[1].knob[0].k.value, "1");
	assert_int_equal(s->cfg[1].knob[0].line, 28);
	assert_int_equal(s->cfg[1].nloads, 1);
	assert_int_equal(s->cfg[1].loads[0], 0);
	assert_int_equal(s->cfg[1].nover, 1);
	assert_int_equal(s->cfg[1].over[0].wl, 2);
	assert_string_equal(s->cfg[1].over[0].opt.key, "size");
	assert_string_equal(s->cfg[1].description, "unbound work on CPU 0 only");
}

static void test_defaults(void **state __unused)
{
	assert_int_equal(parse("[workload t]\ntype = timer\n"), 0);
	assert_int_equal(s->duration_ns, SCN_DEF_DURATION_NS);
	assert_int_equal(s->warmup_ns, SCN_DEF_WARMUP_NS);
	assert_int_equal(s->repetitions, SCN_DEF_REPETITIONS);
	assert_int_equal(s->buffer_kb, SCN_DEF_BUFFER_KB);
	assert_int_equal(s->interval_ns, SCN_DEF_INTERVAL_NS);
	assert_int_equal(s->order, SCN_INTERLEAVED);
	assert_int_equal(s->seed, SCN_DEF_SEED);
	assert_true(s->sched_events);
	assert_string_equal(s->cpus, "");
	assert_string_equal(s->store, "");	/* no results store unless asked */
	/* no [config]: one empty configuration called default */
	assert_true(s->implicit_config);
	assert_int_equal(s->ncfg, 1);
	assert_string_equal(s->cfg[0].name, "default");
	assert_int_equal(s->wl[0].nconfigs, 1);
	/* an empty [global] is fine too */
	assert_int_equal(parse("[global]\n[workload t]\ntype = timer\n"), 0);
	assert_int_equal(s->repetitions, SCN_DEF_REPETITIONS);
	assert_int_equal(parse("[global]\nstore = /var/lib/deferbench/r.db\n"
			       "[workload t]\ntype = timer\n"), 0);
	assert_string_equal(s->store, "/var/lib/deferbench/r.db");
}

static void test_bad_sections(void **state __unused)
{
	expect_error("[globals]\n", "t.ini:1:", "unknown section [globals]");
	expect_error("[workload]\ntype = tty\n", "t.ini:1:", "exactly one name");
	expect_error("[workload a b]\n", "t.ini:1:", "exactly one name");
	expect_error("[workload a/b]\n", "t.ini:1:", "not a valid name");
	expect_error("[workload ..]\n", "t.ini:1:", "not a valid name");
	expect_error("[config a--b]\n", "t.ini:1:", "not a valid name");
	expect_error("[global]\n[global]\n", "t.ini:2:", "twice");
	expect_error("[workload a]\ntype=tty\n[load a]\ntype=hog\n", "t.ini:3:", "defined twice");
	expect_error("[config a]\n[config a]\n", "t.ini:2:", "defined twice");
	expect_error("duration = 1s\n", "t.ini:1:", "outside any section");
}

static void test_bad_keys(void **state __unused)
{
	expect_error("[global]\nduraton = 1s\n", "t.ini:2:", "unknown key 'duraton'");
	expect_error("[global]\nduration = 1s\nduration = 2s\n", "t.ini:3:", "set twice");
	expect_error("[workload a]\ntype = tty\nrate = 1\nrate = 2\n", "t.ini:4:",
		     "'rate' is set twice (first at line 3)");
	expect_error("[workload a]\ntype = tty\ntype = net\n", "t.ini:3:", "type is set twice");
	expect_error("[workload a]\ntype = tty\nRate = 1\n", "t.ini:3:", "not an option name");
	expect_error("[config c]\nwq.writeback.nice = 1\nwq.writeback.nice = 2\n", "t.ini:3:",
		     "set twice");
	expect_error("[config c]\nfoo = 1\n", "t.ini:2:", "unknown knob 'foo'");
	expect_error("[config c]\nopt.x = 1\n", "t.ini:2:", "opt.WORKLOAD.OPTION");
	expect_error("[load h]\ntype = hog\nconfigs = a\n", "t.ini:3:", "a load has no configs");
}

static void test_bad_values(void **state __unused)
{
	expect_error("[global]\nduration = abc\n", "t.ini:2:", "[global] duration");
	expect_error("[global]\nrepetitions = 0\n", "t.ini:2:", "out of range");
	expect_error("[global]\nrepetitions = 3x\n", "t.ini:2:", "not an integer");
	expect_error("[global]\norder = random\n", "t.ini:2:", "not an order");
	expect_error("[global]\ncpus = 0-3\n", "t.ini:2:", "not online");
	expect_error("[global]\ninterval = 1ms\n", "t.ini:2:", "shorter than 10ms");
	expect_error("[global]\nbuffer_kb = 1\n", "t.ini:2:", "out of range");
	expect_error("[config c]\nwq.writeback.nice = -21\n", "t.ini:2:", "out of range");
	expect_error("[config c]\nwq.writeback.cpumask = 4\n", "t.ini:2:", "not online");
	expect_error("[config c]\nwq.writeback.cpumask = 0\n", "t.ini:2:", "selects no CPU");
	expect_error("[config c]\nwq.writeback.affinity_scope = cachexyz\n", "t.ini:2:",
		     "unknown affinity scope 'cachexyz'");
	expect_error("[config c]\nparam.default_affinity_scope = default\n", "t.ini:2:",
		     "'default' is what this parameter defines");
	expect_error("[config c]\nsched.ksoftirqd = fifo\n", "t.ini:2:", "needs a priority");
	expect_error("[config c]\nwq.writeback.nice =\n", "t.ini:2:", "empty value");
}

static void test_bad_workloads(void **state __unused)
{
	expect_error("[workload a]\ntype = fio\n", "t.ini:1:", "unknown workload 'fio' (known: net,");
	expect_error("[workload a]\nrate = 1\n", "t.ini:1:", "has no type");
	expect_error("[global]\nseed = 1\n", "t.ini:", "nothing to measure");
	expect_error("[load h]\ntype = hog\n", "t.ini:", "nothing to measure");
	expect_error("[workload a]\ntype = tty\nconfigs = nope\n[config x]\n", "t.ini:3:",
		     "no [config nope]");
	expect_error("[workload a]\ntype = tty\nconfigs = ,\n[config x]\n", "t.ini:3:",
		     "configs is empty");
	expect_error("[workload a]\ntype = tty\nconfigs = x x\n[config x]\n", "t.ini:3:",
		     "listed twice");
	expect_error("[workload a]\ntype = tty\n[config x]\nload = a\n", "t.ini:4:",
		     "is a [workload]");
	expect_error("[workload a]\ntype = tty\n[config x]\nload = zz\n", "t.ini:4:", "no [load zz]");
	expect_error("[workload a]\ntype = tty\n[config x]\nopt.zz.rate = 1\n", "t.ini:4:",
		     "no [workload zz]");
}

static void test_malformed(void **state __unused)
{
	char longline[400];

	expect_error("[global]\nduration 5s\n", "t.ini:2:", "malformed line");
	expect_error("[global\n", "t.ini:1:", "malformed line");
	expect_error("[global]\nrepetitions = 1\n  duration = 1s\n", "t.ini:3:", "continuation");
	memset(longline, 'x', sizeof(longline));
	memcpy(longline, "[global]\nseed = ", 16);
	longline[sizeof(longline) - 1] = '\0';
	expect_error(longline, "t.ini:2:", "line longer than");
}

static void test_file_errors(void **state __unused)
{
	struct scenario *p;

	p = scenario_load("/nonexistent/x.ini", &opts, err);
	assert_null(p);
	assert_non_null(strstr(err, "/nonexistent/x.ini"));
}

/* test_plan_interleaved - rep 1: A B C, rep 2: B C A, rep 3: C A B */
static void test_plan_interleaved(void **state __unused)
{
	struct scn_cell *c;
	int n;

	assert_int_equal(parse("[global]\nrepetitions = 3\n[workload w]\ntype = tty\n"
			       "[config A]\n[config B]\n[config C]\n"), 0);
	assert_int_equal(scenario_plan(s, &c, &n), 0);
	assert_int_equal(n, 9);
	assert_string_equal(c[0].id, "w--A--r1");
	assert_string_equal(c[1].id, "w--B--r1");
	assert_string_equal(c[2].id, "w--C--r1");
	assert_string_equal(c[3].id, "w--B--r2");
	assert_string_equal(c[4].id, "w--C--r2");
	assert_string_equal(c[5].id, "w--A--r2");
	assert_string_equal(c[6].id, "w--C--r3");
	assert_int_equal(c[0].seed, c[2].seed);
	assert_int_not_equal(c[0].seed, c[3].seed);
	free(c);
}

static void test_plan_grouped_shuffled(void **state __unused)
{
	struct scn_cell *c, *d;
	int n, m, i, seen[3] = { 0 };

	assert_int_equal(parse("[global]\nrepetitions = 2\norder = grouped\n[workload w]\n"
			       "type = tty\nconfigs = B A\n[config A]\n[config B]\n"), 0);
	assert_int_equal(scenario_plan(s, &c, &n), 0);
	assert_int_equal(n, 4);
	assert_string_equal(c[0].id, "w--B--r1");
	assert_string_equal(c[1].id, "w--B--r2");
	assert_string_equal(c[2].id, "w--A--r1");
	free(c);

	assert_int_equal(parse("[global]\nrepetitions = 4\norder = shuffled\nseed = 7\n"
			       "[workload w]\ntype = tty\n[config A]\n[config B]\n[config C]\n"), 0);
	assert_int_equal(scenario_plan(s, &c, &n), 0);
	assert_int_equal(scenario_plan(s, &d, &m), 0);
	assert_int_equal(n, 12);
	for (i = 0; i < n; i++) {
		assert_string_equal(c[i].id, d[i].id);	/* same seed, same order */
		if (c[i].rep == 1)
			seen[c[i].cfg]++;
	}
	assert_int_equal(seen[0] + seen[1] + seen[2], 3);	/* each config once per rep */
	assert_true(seen[0] == 1 && seen[1] == 1 && seen[2] == 1);
	free(c);
	free(d);
}

/*
 * test_plan_control - control = yes: an untraced twin beside every cell, before it in
 * odd repetitions and after it in even ones; reference: the baseline's cells only
 */
static void test_plan_control(void **state __unused)
{
	struct scn_cell *c;
	int n, i, twins = 0;

	assert_int_equal(parse("[global]\nrepetitions = 2\ncontrol = yes\n[workload w]\n"
			       "type = tty\n[config A]\n[config B]\n"), 0);
	assert_int_equal(s->control, SCN_CONTROL_ALL);
	assert_int_equal(scenario_plan(s, &c, &n), 0);
	assert_int_equal(n, 8);
	assert_string_equal(c[0].id, "w--A--r1--control");
	assert_true(c[0].control);
	assert_string_equal(c[1].id, "w--A--r1");
	assert_false(c[1].control);
	assert_string_equal(c[2].id, "w--B--r1--control");
	assert_string_equal(c[4].id, "w--B--r2");	/* rep 2 rotates, traced first */
	assert_string_equal(c[5].id, "w--B--r2--control");
	for (i = 0; i < n; i += 2) {	/* twins: same workload, config, rep and seed */
		assert_int_equal(c[i].cfg, c[i + 1].cfg);
		assert_int_equal(c[i].rep, c[i + 1].rep);
		assert_int_equal(c[i].seed, c[i + 1].seed);
		assert_true(c[i].control != c[i + 1].control);
	}
	free(c);

	assert_int_equal(parse("[global]\nrepetitions = 2\ncontrol = reference\n"
			       "[workload w]\ntype = tty\nconfigs = A baseline\n[config A]\n"
			       "[config baseline]\n"), 0);
	assert_int_equal(scenario_plan(s, &c, &n), 0);
	assert_int_equal(n, 6);
	for (i = 0; i < n; i++)
		if (c[i].control) {
			twins++;
			assert_string_equal(s->cfg[c[i].cfg].name, "baseline");
		}
	assert_int_equal(twins, 2);
	free(c);

	assert_int_not_equal(parse("[global]\ncontrol = sometimes\n[workload w]\ntype = tty\n"), 0);
	assert_non_null(strstr(err, "reference"));
	assert_int_equal(parse("[global]\ncontrol = yes\n[workload w]\ntype = tty\n"), 0);
	scenario_quick(s);
	assert_int_equal(s->control, SCN_CONTROL_NO);
}

static void test_quick(void **state __unused)
{
	assert_int_equal(parse("[global]\nduration = 20s\nwarmup = 5s\nrepetitions = 5\n"
			       "quick_duration = 2s\n[workload w]\ntype = tty\n"), 0);
	scenario_quick(s);
	assert_int_equal(s->repetitions, 1);
	assert_int_equal(s->duration_ns, 2 * NSEC_PER_SEC);
	assert_int_equal(s->warmup_ns, SCN_DEF_QUICK_WARMUP_NS);
}

/* test_shipped - the scenarios in bench/scenarios parse (run from the source tree) */
static void test_shipped(void **state __unused)
{
	static const char *const files[] = { "bench/scenarios/default.ini",
					     "bench/scenarios/quick.ini" };
	struct scenario *p;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(files); i++) {
		p = scenario_load(files[i], &opts, err);
		if (!p)
			fail_msg("%s", err);
		free(p);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_good, setup, teardown),
		cmocka_unit_test_setup_teardown(test_defaults, setup, teardown),
		cmocka_unit_test_setup_teardown(test_bad_sections, setup, teardown),
		cmocka_unit_test_setup_teardown(test_bad_keys, setup, teardown),
		cmocka_unit_test_setup_teardown(test_bad_values, setup, teardown),
		cmocka_unit_test_setup_teardown(test_bad_workloads, setup, teardown),
		cmocka_unit_test_setup_teardown(test_malformed, setup, teardown),
		cmocka_unit_test_setup_teardown(test_file_errors, setup, teardown),
		cmocka_unit_test_setup_teardown(test_plan_interleaved, setup, teardown),
		cmocka_unit_test_setup_teardown(test_plan_grouped_shuffled, setup, teardown),
		cmocka_unit_test_setup_teardown(test_plan_control, setup, teardown),
		cmocka_unit_test_setup_teardown(test_quick, setup, teardown),
		cmocka_unit_test_setup_teardown(test_shipped, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
