// SPDX-License-Identifier: GPL-2.0
/*
 * test_rt_knobs.c - the scheduling knobs of PREEMPT_RT's per-CPU threads (knob_rt.c):
 * their names, the threads they match, their refusal where the threads do not exist;
 * and the cache_shard affinity scope.
 */
#include <errno.h>
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "knobs.h"
#include "msg.h"

#define ONLINE "0-1"

static void test_names(void **state)
{
	char err[ERRBUF_LEN];
	struct knob k;

	(void)state;
	assert_int_equal(knob_parse("sched.ktimers", "fifo:2", &k, ONLINE, err), 0);
	assert_int_equal(k.type->cls, KNOB_SCHED_RT);
	assert_ptr_equal(k.type->ops, &knob_rt_ops);
	assert_string_equal(k.obj, "ktimers");
	assert_int_equal(k.cpu, -1);
	assert_string_equal(k.value, "fifo:2");
	assert_int_equal(knob_parse("sched.rcuc.1", "fifo:3", &k, ONLINE, err), 0);
	assert_int_equal(k.cpu, 1);
	assert_int_equal(knob_parse("sched.irq_work", "fifo:4", &k, ONLINE, err), 0);
	assert_int_equal(knob_parse("sched.backlog_napi.0", "other:-5", &k, ONLINE, err), 0);
	assert_string_equal(k.obj, "backlog_napi");
	assert_int_equal(knob_parse("sched.irq_work.x", "fifo:3", &k, ONLINE, err), -EINVAL);
	assert_non_null(strstr(err, "not an integer"));
	assert_int_equal(knob_parse("sched.ktimersx", "fifo:3", &k, ONLINE, err), -EINVAL);
	assert_non_null(strstr(err, "sched.ktimers"));
	assert_int_equal(knob_parse("sched.kworker", "fifo:3", &k, ONLINE, err), -EINVAL);
	assert_non_null(strstr(err, "wq.<wq>.nice"));
	assert_int_equal(knob_parse("sched.rcuc", "fifo:100", &k, ONLINE, err), -EINVAL);
	/* ksoftirqd and napi are what they were */
	assert_int_equal(knob_parse("sched.ksoftirqd.1", "fifo:1", &k, ONLINE, err), 0);
	assert_int_equal(k.type->cls, KNOB_SCHED_KSOFTIRQD);
}

/* allowed - a thread of comm would be a target of knob name (read back from a journal) */
static bool allowed(const char *name, const char *comm)
{
	struct knob_target t = { .kind = TGT_THREAD };
	char err[ERRBUF_LEN];
	struct knob k;

	assert_int_equal(knob_parse_name(name, &k, err), 0);
	snprintf(t.comm, sizeof(t.comm), "%s", comm);
	return k.type->ops->allowed(&k, &t);
}

static void test_threads(void **state)
{
	(void)state;
	assert_true(allowed("sched.ktimers", "ktimers/0"));
	assert_true(allowed("sched.ktimers", "ktimers/17"));
	assert_false(allowed("sched.ktimers", "ktimers/"));
	assert_false(allowed("sched.ktimers", "ktimersd/0"));
	assert_false(allowed("sched.ktimers", "ksoftirqd/0"));
	assert_true(allowed("sched.rcuc.1", "rcuc/1"));
	assert_false(allowed("sched.rcuc.1", "rcuc/0"));
	assert_false(allowed("sched.rcuc.1", "rcuc/1x"));
	assert_false(allowed("sched.rcuc.1", "rcuop/1"));
	/* ksoftirqd's class is what it was */
	assert_true(allowed("sched.ksoftirqd", "ksoftirqd/1"));
	assert_false(allowed("sched.ksoftirqd", "ktimers/1"));
}

/* where the kernel has no such thread (the development VM), the knob is refused, why said */
static void test_refused_here(void **state)
{
	char err[ERRBUF_LEN];
	struct knob k;
	int ret;

	(void)state;
	assert_int_equal(knob_parse("sched.ktimers", "fifo:2", &k, ONLINE, err), 0);
	ret = knob_check(&k, err);
	if (!ret)
		skip();		/* a forced-threaded kernel: the threads are there */
	assert_int_equal(ret, -EINVAL);
	assert_non_null(strstr(err, "no ktimers/N thread on this machine"));
	assert_non_null(strstr(err, "PREEMPT_RT, or booted with threadirqs"));
}

static void test_cache_shard(void **state)
{
	char err[ERRBUF_LEN];
	struct knob k;

	(void)state;
	assert_int_equal(knob_parse("wq.writeback.affinity_scope", "cache_shard", &k, ONLINE,
				    err), 0);
	assert_string_equal(k.value, "cache_shard");
	assert_int_equal(knob_parse("param.default_affinity_scope", "cache_shard", &k, ONLINE,
				    err), 0);
	assert_int_equal(knob_parse("wq.writeback.affinity_scope", "cache_shards", &k, ONLINE,
				    err), -EINVAL);
	assert_non_null(strstr(err, "cache_shard, cache"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_names),
		cmocka_unit_test(test_threads),
		cmocka_unit_test(test_refused_here),
		cmocka_unit_test(test_cache_shard),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
