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
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "detail.h"
#include "grow.h"
#include "scenario.h"
#include "msg.h"

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

/* over - key = value in a command line's layer, as run's parser records it */
static void over(struct opts_layer *l, const char *key, const char *value)
{
	l->set[l->n].key = key;
	l->set[l->n].value = value;
	l->set[l->n].o = opts_find_key(scenario_settings, key);
	l->n++;
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
	assert_int_equal(s->cap.buffer_kb, 8192);
	assert_int_equal(s->cap.interval_ns, 0);
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
	/* the defaults docs/scenarios.md gives, from the table */
	assert_int_equal(s->duration_ns, 10 * NSEC_PER_SEC);
	assert_int_equal(s->warmup_ns, 2 * NSEC_PER_SEC);
	assert_int_equal(s->repetitions, 3);
	assert_int_equal(s->cap.buffer_kb, CAPTURE_DEFAULT_BUFFER_KB);
	assert_int_equal(s->cap.interval_ns, CAPTURE_DEFAULT_INTERVAL_NS);
	assert_int_equal(s->order, SCN_INTERLEAVED);
	assert_int_equal(s->seed, 1);
	assert_int_equal(s->cap.sched, CAPTURE_SCHED_YES);
	assert_int_equal(s->design, SCN_DESIGN_CELLS);
	assert_int_equal(s->blocks, 12);
	assert_int_equal(s->quick_blocks, 3);
	assert_int_equal(s->phase_ns, 2 * NSEC_PER_SEC);
	assert_int_equal(s->settle_ns, 500 * NSEC_PER_MSEC);
	assert_int_equal(s->until_decided_ns, 0);
	assert_false(s->quick);
	assert_string_equal(s->cpus, "");
	assert_string_equal(s->store, "");	/* no results store unless asked */
	/* no [config]: one empty configuration called default */
	assert_true(s->implicit_config);
	assert_int_equal(s->ncfg, 1);
	assert_string_equal(s->cfg[0].name, "default");
	assert_int_equal(s->wl[0].nconfigs, 1);
	/* an empty [global] is fine too */
	assert_int_equal(parse("[global]\n[workload t]\ntype = timer\n"), 0);
	assert_int_equal(s->repetitions, 3);
	assert_int_equal(parse("[global]\nstore = /var/lib/deferbench/r.db\n"
			       "[workload t]\ntype = timer\n"), 0);
	assert_string_equal(s->store, "/var/lib/deferbench/r.db");
	/* record --stacks in every cell: off unless asked, yes or a list of vectors */
	assert_int_equal(s->cap.stack_vecs, 0);
	assert_int_equal(parse("[global]\nstacks = yes\n[workload t]\ntype = timer\n"), 0);
	assert_int_equal(s->cap.stack_vecs, STACK_VECS_DEFAULT);
	assert_int_equal(parse("[global]\nstacks = NET_RX,hrtimer\n[workload t]\ntype = timer\n"),
			 0);
	assert_int_equal(s->cap.stack_vecs, (1u << SIRQ_NET_RX) | (1u << SIRQ_HRTIMER));
	/* slowest: the N slowest events of every cell's capture, without stacks too */
	assert_int_equal(s->cap.slowest, 0);
	assert_int_equal(parse("[global]\nslowest = 5\n[workload t]\ntype = timer\n"), 0);
	assert_int_equal(s->cap.slowest, 5);
	expect_error("[global]\nslowest = 0\n[workload t]\ntype = timer\n", "t.ini:2:",
		     "out of range [1, 1000]");
	/* sched_events: yes, all or no, and the boolean words for yes and no */
	assert_int_equal(parse("[global]\nsched_events = all\n[workload t]\ntype = timer\n"), 0);
	assert_int_equal(s->cap.sched, CAPTURE_SCHED_ALL);
	assert_int_equal(parse("[global]\nsched_events = off\n[workload t]\ntype = timer\n"), 0);
	assert_int_equal(s->cap.sched, CAPTURE_SCHED_NO);
	expect_error("[global]\nstacks = NET_RXX\n[workload t]\ntype = timer\n", "t.ini:2:",
		     "not a softirq vector");
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
	expect_error("[global]\nrepetitions = 3x\n", "t.ini:2:", "not a non-negative integer");
	expect_error("[global]\norder = random\n", "t.ini:2:",
		     "'random' is none of interleaved, shuffled, grouped");
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

static void test_plan_grouped(void **state __unused)
{
	struct scn_cell *c;
	int n;

	assert_int_equal(parse("[global]\nrepetitions = 2\norder = grouped\n[workload w]\n"
			       "type = tty\nconfigs = B A\n[config A]\n[config B]\n"), 0);
	assert_int_equal(scenario_plan(s, &c, &n), 0);
	assert_int_equal(n, 4);
	assert_string_equal(c[0].id, "w--B--r1");
	assert_string_equal(c[1].id, "w--B--r2");
	assert_string_equal(c[2].id, "w--A--r1");
	assert_string_equal(c[3].id, "w--A--r2");
	free(c);
}

/* ids - the plan's cell ids, space-separated */
static const char *ids(const struct scn_cell *c, int n, char *buf, size_t len)
{
	size_t off = 0;
	int i;

	buf[0] = '\0';
	for (i = 0; i < n && off < len; i++)
		off += snprintf(buf + off, len - off, "%s%s", i ? " " : "", c[i].id);
	return buf;
}

/*
 * test_plan_shuffled - each repetition runs every config once, in an order drawn from
 * the seed: the same on every machine for a seed (pinned below), another for another
 * seed, and neither the listed order nor its rotation (an identity shuffle fails here)
 */
static void test_plan_shuffled(void **state __unused)
{
	static const char text[] = "[global]\nrepetitions = 4\norder = shuffled\nseed = 7\n"
				   "[workload w]\ntype = tty\n[config A]\n[config B]\n[config C]\n";
	struct scn_cell *c, *d;
	char a[512], b[512];
	int n, m, i, rep, seen[3];

	assert_int_equal(parse(text), 0);
	assert_int_equal(scenario_plan(s, &c, &n), 0);
	assert_int_equal(n, 12);
	assert_string_equal(ids(c, n, a, sizeof(a)),
			    "w--B--r1 w--A--r1 w--C--r1 w--B--r2 w--A--r2 w--C--r2 "
			    "w--C--r3 w--B--r3 w--A--r3 w--A--r4 w--C--r4 w--B--r4");
	for (rep = 1; rep <= 4; rep++) {
		memset(seen, 0, sizeof(seen));
		for (i = 0; i < n; i++)
			if (c[i].rep == (unsigned int)rep)
				seen[c[i].cfg]++;
		assert_true(seen[0] == 1 && seen[1] == 1 && seen[2] == 1);
	}
	assert_int_equal(scenario_plan(s, &d, &m), 0);
	assert_string_equal(ids(d, m, b, sizeof(b)), a);	/* same seed, same order */
	free(d);

	/* not the interleaved rotation of the same scenario */
	s->order = SCN_INTERLEAVED;
	assert_int_equal(scenario_plan(s, &d, &m), 0);
	assert_string_not_equal(ids(d, m, b, sizeof(b)), a);
	free(d);
	/* another seed, another order */
	s->order = SCN_SHUFFLED;
	s->seed = 8;
	assert_int_equal(scenario_plan(s, &d, &m), 0);
	assert_string_not_equal(ids(d, m, b, sizeof(b)), a);
	free(d);
	free(c);
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
	assert_int_equal(s->warmup_ns, NSEC_PER_SEC);
	/* quick = yes, or run --quick over the file: the same, when it is parsed */
	assert_int_equal(parse("[global]\nrepetitions = 5\nquick = yes\n[workload w]\ntype = tty\n"),
			 0);
	assert_int_equal(s->repetitions, 1);
	assert_int_equal(s->duration_ns, 3 * NSEC_PER_SEC);
	/* --blocks means nothing to a quick run: refused, as run --blocks --quick is */
	{
		struct scn_parse_opts q = opts;
		struct opts_layer l = { .n = 0 };

		over(&l, "blocks", "9");
		q.set = &l;
		assert_int_not_equal(scenario_parse("[global]\ndesign = alternate\nquick = yes\n[workload w]\n"
						    "type = tty\n", "t.ini", &q, s, err), 0);
		assert_non_null(strstr(err, "--blocks with quick = yes"));
	}
}

/* live_net_napi - what the net workload switches while it runs (workloads/net.c) */
static bool live_net_napi(const char *type, const char *key)
{
	return !strcmp(type, "net") && (!strcmp(key, "napi") || !strcmp(key, "napi_prio"));
}

/* shipped - plan file as this build would, with every workload type known */
static int shipped(const char *file, bool quick, int *pairs)
{
	struct scn_parse_opts o = opts;
	struct scenario *p;
	struct scn_cell *c;
	int n, w;

	o.live_option = live_net_napi;
	p = scenario_load(file, &o, err);
	if (!p)
		fail_msg("%s", err);
	if (quick)
		scenario_quick(p);
	assert_int_equal(scenario_plan(p, &c, &n), 0);
	for (w = 0, *pairs = 0; w < p->nwl; w++)
		*pairs += p->wl[w].load ? 0 : p->wl[w].nconfigs;
	free(c);
	free(p);
	return n;
}

/*
 * test_shipped - the scenarios in bench/scenarios plan what their headers and the
 * README promise (run from the source tree): default.ini 8 alternating segments, and
 * with --design cells 19 workload x configuration pairs x 3 repetitions, each
 * workload's reference with an untraced twin (control = reference); --quick with no
 * capture-off arm, so that the lone configurations of audio and timer run as cells;
 * quick.ini 3 segments and 2 cells; aa.ini every workload of the suite in a segment of
 * two arms; wb-nice.ini one segment of three
 */
static void test_shipped(void **state __unused)
{
	struct scn_parse_opts cells = opts;
	struct opts_layer l = { .n = 0 };
	struct scenario *p;
	struct scn_cell *c;
	int pairs, n, i, segs = 0;

	assert_int_equal(shipped("bench/scenarios/default.ini", false, &pairs), 8);
	assert_int_equal(pairs, 19);
	assert_int_equal(shipped("bench/scenarios/default.ini", true, &pairs), 8);
	assert_int_equal(shipped("bench/scenarios/quick.ini", false, &pairs), 5);
	assert_int_equal(pairs, 8);
	assert_int_equal(shipped("bench/scenarios/aa.ini", false, &pairs), 5);
	assert_int_equal(pairs, 10);
	assert_int_equal(shipped("bench/scenarios/wb-nice.ini", false, &pairs), 1);
	assert_int_equal(pairs, 3);
	over(&l, "design", "cells");
	cells.set = &l;
	p = scenario_load("bench/scenarios/default.ini", &cells, err);
	assert_non_null(p);
	assert_int_equal(scenario_plan(p, &c, &n), 0);
	assert_int_equal(n, 19 * 3 + 5 * 3);	/* twins of each workload's reference */
	for (i = 0; i < n; i++)
		segs += c[i].alt;
	assert_int_equal(segs, 0);
	free(c);
	free(p);
}

static const char alt[] =
	"[global]\ndesign = alternate\nblocks = 5\ncontrol = reference\n"
	"[load hog]\ntype = hog\n"
	"[workload n]\ntype = net\nconfigs = base, thr, cpu0, tso, hogged, hogged-thr\n"
	"[config base]\n[config thr]\nopt.n.napi = threaded\n"
	"[config cpu0]\nwq.cpumask = 1\n[config tso]\nopt.n.tso = on\n"
	"[config hogged]\nload = hog\n[config hogged-thr]\nload = hog\nopt.n.napi = threaded\n";

static bool pausable_hog(const char *type)
{
	return !strcmp(type, "hog");
}

static const char lone[] =
	"[global]\ndesign = alternate\nblocks = 4\ncontrol = no\n"
	"[load hog]\ntype = hog\n[load bg]\ntype = net\n"
	"[workload t]\ntype = timer\nconfigs = base, cpu0, hogged, bgd, slow\n"
	"[config base]\n[config cpu0]\nwq.cpumask = 1\n[config hogged]\nload = hog\n"
	"[config bgd]\nload = bg\n[config slow]\nload = hog\nopt.t.period = 2ms\n";

/*
 * test_plan_pause - a configuration alone under a load that can pause joins the
 * reference's segment (the load paused in the other arms' phases); one under a load
 * that cannot, or with a fixed option of its own, stays apart; without the parser
 * knowing which loads pause, nothing joins
 */
static void test_plan_pause(void **state __unused)
{
	struct scn_parse_opts o = opts;
	int group[SCN_MAX_CONFIGS], loads[SCN_MAX_LOADS], ng, n, w, hog;
	struct scn_cell *c;

	o.pausable = pausable_hog;
	assert_int_equal(scenario_parse(lone, "t.ini", &o, s, err), 0);
	w = scenario_wl_index(s, "t");
	hog = scenario_wl_index(s, "hog");
	assert_true(s->wl[hog].pausable);
	assert_false(s->wl[scenario_wl_index(s, "bg")].pausable);
	ng = scenario_groups(s, w, group);
	assert_int_equal(ng, 3);
	assert_int_equal(group[0], group[1]);	/* a knob */
	assert_int_equal(group[0], group[2]);	/* alone under a hog: joins */
	assert_int_not_equal(group[0], group[3]);	/* net cannot pause */
	assert_int_not_equal(group[0], group[4]);	/* interval is fixed */
	assert_int_not_equal(group[3], group[4]);
	assert_int_equal(scenario_plan(s, &c, &n), 0);
	assert_true(c[0].alt);
	assert_int_equal(c[0].narms, 3);	/* base, cpu0, hogged */
	assert_int_equal(scenario_segment_loads(s, &c[0], loads), 1);
	assert_int_equal(loads[0], hog);
	assert_false(scenario_cfg_runs_load(s, c[0].arm[0].cfg, hog));
	assert_true(scenario_cfg_runs_load(s, c[0].arm[2].cfg, hog));
	assert_false(c[1].alt);		/* bgd, then slow: lone, no capture-off arm */
	free(c);

	o.pausable = NULL;
	assert_int_equal(scenario_parse(lone, "t.ini", &o, s, err), 0);
	assert_false(s->wl[hog].pausable);
	assert_int_equal(scenario_groups(s, w, group), 4);
	assert_int_not_equal(group[0], group[2]);
}

/*
 * test_plan_alternate - configurations group by what can switch live: knobs and live
 * options alternate, a fixed option or another load makes a group of its own; each
 * group of two or more arms (the capture-off arm counts) is one segment, the
 * reference arm first; a lone configuration without one runs as cells
 */
static void test_plan_alternate(void **state __unused)
{
	struct scn_parse_opts o = opts;
	struct opts_layer l = { .n = 0 };
	int group[SCN_MAX_CONFIGS], n, ng, i, w;
	struct scn_cell *c;

	o.live_option = live_net_napi;
	err[0] = '\0';
	assert_int_equal(scenario_parse(alt, "t.ini", &o, s, err), 0);
	assert_int_equal(s->design, SCN_DESIGN_ALTERNATE);
	/* intervals default to what tiles phase (2 s) and settle (500 ms) */
	assert_int_equal(s->cap.interval_ns, 500 * NSEC_PER_MSEC);
	w = scenario_wl_index(s, "n");
	ng = scenario_groups(s, w, group);
	assert_int_equal(ng, 3);
	assert_int_equal(group[0], group[1]);	/* napi is live */
	assert_int_equal(group[0], group[2]);	/* a knob */
	assert_int_not_equal(group[0], group[3]);	/* tso is not live */
	assert_int_equal(group[4], group[5]);	/* the same load, napi live */
	assert_int_not_equal(group[0], group[4]);
	assert_int_equal(scenario_plan(s, &c, &n), 0);
	assert_int_equal(n, 3);
	for (i = 0; i < n; i++)
		assert_true(c[i].alt);
	assert_string_equal(c[0].id, "n--base--a1");
	assert_int_equal(c[0].narms, 4);	/* base, thr, cpu0, base untraced */
	assert_string_equal(s->cfg[c[0].arm[0].cfg].name, "base");
	assert_true(c[0].arm[0].traced);
	assert_string_equal(s->cfg[c[0].arm[3].cfg].name, "base");
	assert_false(c[0].arm[3].traced);
	assert_int_equal(c[0].blocks, 5);
	assert_int_equal(c[0].first_block, 1);
	assert_string_equal(c[1].id, "n--tso--a1");	/* alone, with its untraced arm */
	assert_int_equal(c[1].narms, 2);
	assert_string_equal(c[2].id, "n--hogged--a1");
	assert_int_equal(scenario_cell_ns(s, &c[0]), s->warmup_ns + 5 * 4 * 2 * NSEC_PER_SEC);
	free(c);

	/* without the capture-off arm a lone configuration has nothing to alternate with */
	scenario_quick(s);
	assert_int_equal(s->blocks, 3);
	assert_int_equal(scenario_plan(s, &c, &n), 0);
	assert_int_equal(n, 3);
	assert_true(c[0].alt);
	assert_int_equal(c[0].narms, 3);
	assert_true(c[1].alt);		/* hogged, hogged-thr */
	assert_false(c[2].alt);
	assert_string_equal(c[2].id, "n--tso--r1");
	free(c);

	/* without the parser knowing live options, napi is fixed: base alone with cpu0 */
	assert_int_equal(parse(alt), 0);
	ng = scenario_groups(s, w, group);
	assert_int_equal(ng, 5);	/* base and cpu0; thr; tso; hogged; hogged-thr */
	/* --blocks over the file's, and the plan's blocks and length with it */
	over(&l, "blocks", "9");
	o.set = &l;
	assert_int_equal(scenario_parse(alt, "t.ini", &o, s, err), 0);
	assert_int_equal(scenario_given(s, "blocks"), -1);
	assert_int_equal(s->blocks, 9);
	assert_int_equal(scenario_plan(s, &c, &n), 0);
	assert_int_equal(c[0].blocks, 9);
	assert_int_equal(scenario_cell_ns(s, &c[0]), s->warmup_ns + 9 * 4 * 2 * NSEC_PER_SEC);
	free(c);
	/* --design cells over the file; --blocks means nothing there and is refused */
	over(&l, "design", "cells");
	err[0] = '\0';
	assert_int_not_equal(scenario_parse(alt, "t.ini", &o, s, err), 0);
	assert_non_null(strstr(err, "--blocks 9 is for the alternating design"));
	l.n = 0;
	over(&l, "design", "cells");
	assert_int_equal(scenario_parse(alt, "t.ini", &o, s, err), 0);
	assert_int_equal(s->design, SCN_DESIGN_CELLS);
}

/*
 * test_plan_more - an adaptive look's pairs extend the plan: a configuration of a
 * segment gets more blocks of its group in a new segment (numbered on, at least 4),
 * another the next repetition of its cell, each only where the time left has room
 */
static void test_plan_more(void **state __unused)
{
	struct scn_parse_opts o = opts;
	int add[2][2], n, m, w;
	struct scn_cell *c;
	bool cell_asked, block_asked;
	uint64_t block, cell;

	o.live_option = live_net_napi;
	assert_int_equal(scenario_parse(alt, "t.ini", &o, s, err), 0);
	scenario_quick(s);
	assert_int_equal(scenario_plan(s, &c, &n), 0);
	assert_int_equal(n, 3);		/* base/thr/cpu0, hogged/hogged-thr, tso as a cell */
	c = grow_to(c, n, n + 2, sizeof(*c));
	assert_non_null(c);
	w = scenario_wl_index(s, "n");
	add[0][0] = add[1][0] = w;
	add[0][1] = scenario_cfg_index(s, "thr");	/* in segment 0 */
	add[1][1] = scenario_cfg_index(s, "tso");	/* a cell */
	block = (uint64_t)c[0].narms * s->phase_ns;
	cell = s->warmup_ns + s->duration_ns + SCN_CELL_OVERHEAD_NS;

	/* room for everything: the cell first, then 4 blocks of segment 0's group */
	m = scenario_more(s, c, n, add, 2, UINT64_MAX / 2, &cell_asked, &block_asked);
	assert_int_equal(m, 2);
	assert_true(cell_asked && block_asked);
	assert_false(c[3].alt);
	assert_string_equal(c[3].id, "n--tso--r2");
	assert_true(c[4].alt);
	assert_int_equal(c[4].narms, c[0].narms);
	assert_int_equal(c[4].first_block, c[0].first_block + c[0].blocks);
	assert_int_equal(c[4].blocks, 4);

	/* room for the cell and two blocks after it: fewer blocks than asked */
	m = scenario_more(s, c, n, add, 2, cell + s->warmup_ns + 2 * block + block / 2,
			  &cell_asked, &block_asked);
	assert_int_equal(m, 2);
	assert_int_equal(c[4].blocks, 2);
	/* room for the cell only */
	m = scenario_more(s, c, n, add, 2, cell, &cell_asked, &block_asked);
	assert_int_equal(m, 1);
	assert_string_equal(c[3].id, "n--tso--r2");
	/* no time left: nothing added, and both kinds were asked for */
	m = scenario_more(s, c, n, add, 2, 0, &cell_asked, &block_asked);
	assert_int_equal(m, 0);
	assert_true(cell_asked && block_asked);
	free(c);
}

/* test_alternate_errors - phase, settle and interval that cannot tile, bad keys */
static void test_alternate_errors(void **state __unused)
{
	expect_error("[global]\ndesign = both\n[workload w]\ntype = tty\n", "is none of",
		     "alternate");
	expect_error("[global]\ndesign = alternate\nphase = 1s\nsettle = 1s\n"
		     "[workload w]\ntype = tty\n", "settle", "shorter than phase");
	expect_error("[global]\ndesign = alternate\nphase = 2s\nsettle = 500ms\ninterval = 300ms\n"
		     "[workload w]\ntype = tty\n", "must divide phase", "500 ms");
	expect_error("[global]\ndesign = alternate\ninterval = off\n[workload w]\ntype = tty\n",
		     "interval is off", NULL);
	expect_error("[global]\nphase = 100ms\n[workload w]\ntype = tty\n", "out of range [200ms, 600s]", NULL);
	expect_error("[global]\nblocks = 0\n[workload w]\ntype = tty\n", "blocks", NULL);
	expect_error("[global]\nblocks = 201\n[workload w]\ntype = tty\n", "blocks", NULL);
	/* cells keep their interval: settle and phase do not matter there */
	assert_int_equal(parse("[global]\ninterval = 300ms\n[workload w]\ntype = tty\n"), 0);
	assert_int_equal(s->cap.interval_ns, 300 * NSEC_PER_MSEC);
	/* a configuration's own settle: shorter than the phase, tiled by the interval */
	expect_error("[global]\ndesign = alternate\nphase = 1s\n[workload w]\ntype = tty\n"
		     "[config a]\nsettle = 1s\n", "[config a] settle (1000 ms)",
		     "shorter than phase");
	expect_error("[global]\ndesign = alternate\nphase = 2s\ninterval = 500ms\n"
		     "[workload w]\ntype = tty\n[config a]\nsettle = 750ms\n",
		     "every [config] settle", "250 ms");
	expect_error("[global]\n[workload w]\ntype = tty\n[config a]\nsettle = 0\n",
		     "[config a] settle", "positive");
	expect_error("[global]\n[workload w]\ntype = tty\n[config a]\nsettle = 1s\n"
		     "settle = 1s\n", "'settle' is set twice", NULL);
}

/*
 * test_switch_settle - a switch leaves out [global] settle, or the longer settle of the
 * configuration it leaves or enters; the default interval tiles every one
 */
static void test_switch_settle(void **state __unused)
{
	int a, b, c;

	assert_int_equal(parse("[global]\ndesign = alternate\nphase = 2s\nsettle = 500ms\n"
			       "[workload w]\ntype = tty\n[config a]\n[config b]\nwq.cpumask = 1\n"
			       "settle = 1250ms\n[config c]\nsettle = 250ms\n"), 0);
	a = scenario_cfg_index(s, "a");
	b = scenario_cfg_index(s, "b");
	c = scenario_cfg_index(s, "c");
	assert_int_equal(scenario_switch_settle(s, a, a), 500 * NSEC_PER_MSEC);
	assert_int_equal(scenario_switch_settle(s, a, b), 1250 * NSEC_PER_MSEC);
	assert_int_equal(scenario_switch_settle(s, b, a), 1250 * NSEC_PER_MSEC);
	assert_int_equal(scenario_switch_settle(s, a, c), 500 * NSEC_PER_MSEC);	/* shorter */
	assert_int_equal(scenario_switch_settle(s, -1, b), 1250 * NSEC_PER_MSEC);
	assert_int_equal(s->cap.interval_ns, 250 * NSEC_PER_MSEC);
}

/*
 * test_block_order - each block holds every arm once, the order drawn from the seed:
 * the same blocks give the same order, and over blocks every arm comes first at times
 */
static void test_block_order(void **state __unused)
{
	int order[SCN_MAX_ARMS], again[SCN_MAX_ARMS], first[4] = { 0 }, i;
	struct scn_cell *c;
	unsigned int b;

	assert_int_equal(parse("[global]\ndesign = alternate\nblocks = 40\ncontrol = reference\n"
			       "[workload w]\ntype = tty\n[config a]\n[config b]\nwq.cpumask = 1\n"
			       "[config c]\nwq.cpumask = 2\n"), 0);
	assert_int_equal(scenario_plan(s, &c, &i), 0);
	assert_int_equal(c[0].narms, 4);
	for (b = 1; b <= 40; b++) {
		bool seen[4] = { false };

		scenario_block_order(s, &c[0], b, order);
		scenario_block_order(s, &c[0], b, again);
		assert_memory_equal(order, again, 4 * sizeof(int));
		for (i = 0; i < 4; i++) {
			assert_in_range(order[i], 0, 3);
			assert_false(seen[order[i]]);
			seen[order[i]] = true;
		}
		first[order[0]]++;
	}
	for (i = 0; i < 4; i++)
		assert_true(first[i] > 0);
	free(c);
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
		cmocka_unit_test_setup_teardown(test_plan_grouped, setup, teardown),
		cmocka_unit_test_setup_teardown(test_plan_shuffled, setup, teardown),
		cmocka_unit_test_setup_teardown(test_plan_control, setup, teardown),
		cmocka_unit_test_setup_teardown(test_quick, setup, teardown),
		cmocka_unit_test_setup_teardown(test_shipped, setup, teardown),
		cmocka_unit_test_setup_teardown(test_plan_alternate, setup, teardown),
		cmocka_unit_test_setup_teardown(test_plan_pause, setup, teardown),
		cmocka_unit_test_setup_teardown(test_plan_more, setup, teardown),
		cmocka_unit_test_setup_teardown(test_alternate_errors, setup, teardown),
		cmocka_unit_test_setup_teardown(test_switch_settle, setup, teardown),
		cmocka_unit_test_setup_teardown(test_block_order, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
