// SPDX-License-Identifier: GPL-2.0
/*
 * test_metric_feed.c - a latency stream read live (workloads/metric_feed.c) from a
 * command's output, a file being appended (there at the start, or appearing when its
 * writer ends, as fio's logs do), a FIFO, a log rotated; and the failures: the command
 * ends early, the stream stops, nothing comes, the path is a directory. Real processes
 * and files; no root. Each step waits for what it needs to have happened (samples
 * arrived, a failure said, a command's mark file) up to a deadline far beyond its
 * time on an idle machine: the sanitizer lane runs it beside a CPU load, where a
 * fixed sleep was once too short (about 3 s in all when idle).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "fixture.h"
#include "metric_feed.h"
#include "msg.h"
#include "sys.h"

#define MS NSEC_PER_MSEC

struct sink {
	pthread_mutex_t lock;
	uint64_t value[64];
	char metric[64][16];
	size_t n;
	int err;
	char msg[ERRBUF_LEN];
};

static int on_sample(const struct mstream_sample *s, const char *metric, void *ctx)
{
	struct sink *k = ctx;

	pthread_mutex_lock(&k->lock);
	if (k->n < 64) {
		k->value[k->n] = s->value_ns;
		snprintf(k->metric[k->n++], 16, "%s", metric);
	}
	pthread_mutex_unlock(&k->lock);
	return 0;
}

static void on_fail(void *ctx, int err, const char *msg)
{
	struct sink *k = ctx;

	pthread_mutex_lock(&k->lock);
	k->err = err;
	snprintf(k->msg, sizeof(k->msg), "%s", msg);
	pthread_mutex_unlock(&k->lock);
}

static void nap(unsigned int ms)
{
	struct timespec ts = { ms / 1000, (long)(ms % 1000) * 1000000L };

	nanosleep(&ts, NULL);
}

#define DEADLINE_MS 20000

/* wait_for - until n samples came (n > 0) or a failure was said (n == 0) */
static void wait_for(struct sink *k, size_t n)
{
	unsigned int ms;
	bool done = false;

	for (ms = 0; ms < DEADLINE_MS && !done; ms += 10) {
		nap(10);
		pthread_mutex_lock(&k->lock);
		done = n ? k->n >= n : k->err != 0;
		pthread_mutex_unlock(&k->lock);
	}
	if (!done)
		fail_msg("after %u ms: %zu samples, error %d, waiting for %s", DEADLINE_MS, k->n,
			 k->err, n ? "samples" : "a failure");
}

/* wait_file - until path exists (a command's mark that it wrote what came before) */
static void wait_file(const char *path)
{
	unsigned int ms;

	for (ms = 0; ms < DEADLINE_MS && access(path, F_OK); ms += 10)
		nap(10);
	if (access(path, F_OK))
		fail_msg("after %u ms, no %s", DEADLINE_MS, path);
}

static struct metric_feed *start(struct sink *k, const char *path, const char *cmd,
				 uint64_t first_ns, uint64_t stall_ns)
{
	struct metric_feed_opts o = { .path = path, .cmd = cmd, .fmt = MSF_AUTO,
				      .first_ns = first_ns, .stall_min_ns = stall_ns,
				      .sample = on_sample, .fail = on_fail, .ctx = k };
	char err[ERRBUF_LEN];
	struct metric_feed *f;

	memset(k, 0, sizeof(*k));
	pthread_mutex_init(&k->lock, NULL);
	f = metric_feed_start(&o, err);
	if (!f)
		fail_msg("metric_feed_start: %s", err);
	return f;
}

static void append(const char *path, const char *text)
{
	int fd = open(path, O_WRONLY | O_APPEND | O_CREAT, 0644);

	assert_true(fd >= 0);
	assert_int_equal(write(fd, text, strlen(text)), (ssize_t)strlen(text));
	close(fd);
}

/* a command's output; stop ends the command (it would sleep on) and keeps its last line */
static void test_cmd(void **state)
{
	char *dir = fixture_dir(), cmd[1024], mark[512];
	struct sink k;
	struct metric_feed *f;
	uint64_t t0;

	(void)state;
	snprintf(mark, sizeof(mark), "%s/printed", dir);
	snprintf(cmd, sizeof(cmd), "printf '1ms\\n2ms\\n'; sleep 0.2; printf 'junk\\n3ms'; "
		 ": > %s; sleep 30", mark);
	f = start(&k, NULL, cmd, 0, 0);
	wait_file(mark);
	t0 = now_ns();
	assert_int_equal(metric_feed_stop(f), 0);
	assert_int_equal(k.n, 3);		/* the last line without its newline too */
	assert_int_equal(k.value[2], 3 * MS);
	assert_string_equal(k.metric[0], "latency");
	assert_int_equal(metric_feed_stream(f)->skipped[MSK_GARBAGE], 1);
	assert_true(now_ns() - t0 < 10 * NSEC_PER_SEC);	/* the sleep 30 was ended */
	metric_feed_free(f);
	fixture_free(dir);
}

/* the metric command ends while the run goes on: an error with its status and stderr */
static void test_cmd_ends(void **state)
{
	struct sink k;
	struct metric_feed *f;

	(void)state;
	f = start(&k, NULL, "echo 1ms; echo 'ping: unknown host' >&2; exit 3", 0, 0);
	wait_for(&k, 0);
	assert_int_equal(metric_feed_stop(f), -ECHILD);
	assert_int_equal(k.err, -ECHILD);
	assert_non_null(strstr(k.msg, "ended (status 3) while the run went on"));
	assert_non_null(strstr(k.msg, "ping: unknown host"));
	metric_feed_free(f);
}

/* samples came, then none: the stream stopped; nothing at all: said so too */
static void test_stall_and_silence(void **state)
{
	struct sink k;
	struct metric_feed *f;

	(void)state;
	/* one write of four samples: their count does not depend on the shell's pace */
	f = start(&k, NULL, "printf '1ms\\n1ms\\n1ms\\n1ms\\n'; sleep 30", 0, 300 * MS);
	wait_for(&k, 0);
	assert_int_equal(metric_feed_stop(f), -ETIMEDOUT);
	if (!strstr(k.msg, "the stream stopped: 4 samples came"))
		fail_msg("the message: %s", k.msg);
	metric_feed_free(f);

	f = start(&k, NULL, "echo starting; sleep 30", 300 * MS, 0);
	wait_for(&k, 0);
	assert_int_equal(metric_feed_stop(f), -ENODATA);
	/*
	 * "not one sample in 1 line" once the shell has said "starting"; on a loaded
	 * machine it may not have yet: "not one line was written"
	 */
	if (!strstr(k.msg, "no sample in the first 0.3 s: not one "))
		fail_msg("the message: %s", k.msg);
	metric_feed_free(f);
}

/* a log there at the start is read from its end; one replaced is read from its start */
static void test_file(void **state)
{
	char *dir = fixture_dir(), path[512], tmp[512];
	struct sink k;
	struct metric_feed *f;

	(void)state;
	snprintf(path, sizeof(path), "%s/lat.log", dir);
	append(path, "100ms\n200ms\n");		/* the past */
	f = start(&k, path, NULL, 0, 0);
	nap(100);
	append(path, "5ms\n6m");
	nap(150);
	append(path, "s\n");
	wait_for(&k, 2);
	assert_int_equal(k.n, 2);
	assert_int_equal(k.value[0], 5 * MS);
	assert_int_equal(k.value[1], 6 * MS);
	/* rotated: a new file under the name */
	snprintf(tmp, sizeof(tmp), "%s/lat.log.new", dir);
	append(tmp, "7ms\n");
	assert_int_equal(rename(tmp, path), 0);
	wait_for(&k, 3);
	assert_int_equal(metric_feed_stop(f), 0);
	assert_int_equal(k.n, 3);
	assert_int_equal(k.value[2], 7 * MS);
	metric_feed_free(f);
	fixture_free(dir);
}

/* fio writes its log when its job ends: the file appears at the end and is read whole */
static void test_file_at_end(void **state)
{
	char *dir = fixture_dir(), path[512], rows[256];
	uint64_t now_ms = now_ns() / MS;
	struct sink k;
	struct metric_feed *f;

	(void)state;
	snprintf(path, sizeof(path), "%s/job_clat.1.log", dir);
	f = start(&k, path, NULL, 0, 0);
	nap(100);
	snprintf(rows, sizeof(rows), "%llu, 78408, 1, 4096, 0\n%llu, 22072, 0, 4096, 0\n",
		 (unsigned long long)now_ms, (unsigned long long)now_ms + 5);
	append(path, rows);
	assert_int_equal(metric_feed_stop(f), 0);
	assert_int_equal(k.n, 2);
	assert_string_equal(k.metric[0], "write");
	assert_string_equal(k.metric[1], "read");
	assert_int_equal(metric_feed_stream(f)->fmt, MSF_FIO);
	metric_feed_free(f);
	fixture_free(dir);
}

/* a FIFO: writers come and go, the feed reads on */
static void test_fifo(void **state)
{
	char *dir = fixture_dir(), path[512];
	struct sink k;
	struct metric_feed *f;

	(void)state;
	snprintf(path, sizeof(path), "%s/lat.fifo", dir);
	assert_int_equal(mkfifo(path, 0600), 0);
	f = start(&k, path, NULL, 0, 0);
	append(path, "1ms\n");
	nap(100);
	append(path, "[");
	append(path, "5.0] 2ms\n3us\n");		/* a second writer; one line is stamped */
	wait_for(&k, 2);
	assert_int_equal(metric_feed_stop(f), 0);
	assert_int_equal(k.n, 2);		/* "[5.0] 2ms": stamped before the feed began */
	assert_int_equal(metric_feed_stream(f)->skipped[MSK_BEFORE], 1);
	assert_int_equal(k.value[1], 3000);
	metric_feed_free(f);
	fixture_free(dir);
}

static void test_refused(void **state)
{
	struct metric_feed_opts o = { .path = "/", .fmt = MSF_AUTO };
	char err[ERRBUF_LEN];

	(void)state;
	assert_null(metric_feed_start(&o, err));
	assert_non_null(strstr(err, "/ is neither a file nor a FIFO"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cmd),
		cmocka_unit_test(test_cmd_ends),
		cmocka_unit_test(test_stall_and_silence),
		cmocka_unit_test(test_file),
		cmocka_unit_test(test_file_at_end),
		cmocka_unit_test(test_fifo),
		cmocka_unit_test(test_refused),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
