// SPDX-License-Identifier: GPL-2.0
/*
 * test_mstream.c - the readers of a service's latency stream (bench/lib/mstream.c) on
 * recorded samples: the line format, fio's latency logs (fio 3.33 on the development
 * VM) and ping's output (iputils 20221126, with and without -D); garbage, negative and
 * absurd values, timestamps on the wrong clock, lines cut anywhere. No root.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <string.h>
#include <time.h>

#include "mstream.h"
#include "msg.h"

#define S NSEC_PER_SEC
#define MS NSEC_PER_MSEC

/* what the samples of a stream came to */
struct got {
	struct mstream_sample s[64];
	size_t n;
};

static int keep(const struct mstream_sample *smp, void *ctx)
{
	struct got *g = ctx;

	if (g->n < ARRAY_SIZE(g->s))
		g->s[g->n++] = *smp;
	return 0;
}

/* feed - text as one read at arrival, then the end of the stream */
static void feed(struct mstream *s, const char *text, uint64_t arrival, struct got *g)
{
	assert_int_equal(mstream_feed(s, text, strlen(text), arrival, keep, g), 0);
	assert_int_equal(mstream_finish(s, arrival, keep, g), 0);
}

static void test_line_format(void **state)
{
	struct mstream s;
	struct got g = { 0 };
	char buf[ERRBUF_LEN];

	(void)state;
	mstream_init(&s, MSF_LINE, 1000 * S);
	s.rt_off_ns = (int64_t)(1700000000 * S - 1000 * S);	/* Unix 1700000000 = mono 1000 s */
	feed(&s, "# a comment, then a blank line\n\n"
		 "12.5ms\n"			/* arrival-stamped */
		 "870 us\n"
		 "4100\n"			/* no unit: ns */
		 "1001.25 870us\n"		/* CLOCK_MONOTONIC seconds */
		 "[1001.5] 2 ms   # trailing comment\n"
		 "1700000001.000000001 3s\n"	/* Unix time */
		 "1e3us\n", 1002 * S, &g);
	assert_int_equal(g.n, 7);
	assert_int_equal(s.lines, 9);
	assert_int_equal(s.ignored, 2);
	assert_int_equal(s.samples, 7);
	assert_int_equal(s.stamped, 3);
	assert_int_equal(mstream_nskipped(&s), 0);
	assert_int_equal(s.fmt, MSF_LINE);
	assert_int_equal(g.s[0].value_ns, 12500 * NSEC_PER_USEC);
	assert_false(g.s[0].stamped);
	assert_int_equal(g.s[0].end_ns, 1002 * S);
	assert_int_equal(g.s[0].begin_ns, 1002 * S - 12500 * NSEC_PER_USEC);
	assert_int_equal(g.s[1].value_ns, 870000);
	assert_int_equal(g.s[2].value_ns, 4100);
	assert_true(g.s[3].stamped);
	assert_int_equal(g.s[3].end_ns, 1001 * S + 250 * MS);
	assert_int_equal(g.s[3].begin_ns, 1001 * S + 250 * MS - 870000);
	assert_int_equal(g.s[4].end_ns, 1001 * S + 500 * MS);
	assert_int_equal(g.s[4].value_ns, 2 * MS);
	assert_int_equal(g.s[5].end_ns, 1001 * S + 1);	/* exact to the nanosecond */
	assert_int_equal(g.s[5].value_ns, 3 * S);
	assert_int_equal(g.s[6].value_ns, 1000000);
	assert_string_equal(mstream_metric_name(&s, 0), "latency");
	assert_null(mstream_verdict(&s, buf, sizeof(buf)));
	assert_string_equal(mstream_skips(&s, buf, sizeof(buf)), "");
}

static void test_line_bad(void **state)
{
	struct mstream s;
	struct got g = { 0 };
	char buf[ERRBUF_LEN];

	(void)state;
	mstream_init(&s, MSF_LINE, 1000 * S);
	feed(&s, "abc\n"			/* 1 garbage */
		 "-3ms\n"			/* 2 negative */
		 "5 parsecs\n"			/* 3 garbage: no such unit */
		 "1200s\n"			/* 4 absurd: past the histograms' 18 minutes */
		 "nan\n"			/* 5 garbage, never 0 */
		 "inf ms\n"			/* 6 garbage */
		 "0x10\n"			/* 7 garbage: no hex */
		 "5000.0 1ms\n"			/* 8 stamped 3998 s after it arrived */
		 "10.0 1ms\n"			/* 9 stamped before the stream began */
		 "1 2 3 4\n"			/* 10 garbage */
		 "-5.0 1ms\n"			/* 11 garbage: a negative timestamp */
		 "2ms ms\n"			/* 12 garbage */
		 "7ms\n", 1002 * S, &g);
	assert_int_equal(g.n, 1);
	assert_int_equal(g.s[0].value_ns, 7 * MS);
	assert_int_equal(s.skipped[MSK_GARBAGE], 8);
	assert_int_equal(s.skipped[MSK_NEGATIVE], 1);
	assert_int_equal(s.skipped[MSK_ABSURD], 1);
	assert_int_equal(s.skipped[MSK_FUTURE], 1);
	assert_int_equal(s.skipped[MSK_BEFORE], 1);
	assert_int_equal(s.skip_line[MSK_NEGATIVE], 2);
	assert_int_equal(s.skip_line[MSK_BEFORE], 9);
	mstream_skips(&s, buf, sizeof(buf));
	assert_non_null(strstr(buf, "12 lines skipped: 8 not a sample (first: line 1 'abc')"));
	assert_non_null(strstr(buf, "1 negative (line 2 '-3ms')"));
	assert_non_null(strstr(buf, "1 absurd (18 minutes or more) (line 4 '1200s')"));
	assert_non_null(strstr(buf, "1 stamped before the stream was opened (line 9"));
	/* one sample is enough to judge by: no verdict against the stream */
	assert_null(mstream_verdict(&s, buf, sizeof(buf)));
}

/* a control character in a skipped line reaches no terminal */
static void test_escape(void **state)
{
	struct mstream s;
	struct got g = { 0 };
	char buf[ERRBUF_LEN];

	(void)state;
	mstream_init(&s, MSF_LINE, 0);
	feed(&s, "\x1b[2Jboom\n", 1, &g);
	mstream_skips(&s, buf, sizeof(buf));
	assert_null(strchr(buf, '\x1b'));
	assert_non_null(strstr(buf, "\\x1b[2Jboom"));
}

/*
 * fio 3.33 on the development VM: --rw=randwrite --bs=4k --fsync=1 --rate_iops=200
 * --write_lat_log=lat --log_alternate_epoch=1 --log_alternate_epoch_clock_id=1, the first
 * three and last two rows of lat_clat.1.log (fio wrote it when the job ended; uptime read
 * 8613.86 s during the job); a read and a trim row with log_prio's priority after them
 */
static const char fio_mono[] =
	"8612206, 78408, 1, 4096, 0\n"
	"8612211, 22072, 1, 4096, 0\n"
	"8612216, 37601, 1, 4096, 0\n"
	"8616201, 40105, 1, 4096, 0\n"
	"8616206, 36298, 1, 4096, 0\n"
	"8616207, 12003, 0, 4096, 8192, 0x2004\n"
	"8616208, 40021, 2, 4096, 0, 0x0000\n";

static void test_fio(void **state)
{
	struct mstream s;
	struct got g = { 0 };
	char buf[ERRBUF_LEN];

	(void)state;
	mstream_init(&s, MSF_AUTO, 8611 * S);
	feed(&s, fio_mono, 8617 * S, &g);
	assert_int_equal(s.fmt, MSF_FIO);
	assert_int_equal(g.n, 7);
	assert_true(g.s[0].stamped);
	assert_int_equal(g.s[0].end_ns, 8612206 * MS);
	assert_int_equal(g.s[0].value_ns, 78408);
	assert_int_equal(g.s[0].begin_ns, 8612206 * MS - 78408);
	assert_int_equal(g.s[4].end_ns, 8616206 * MS);
	assert_string_equal(mstream_metric_name(&s, g.s[0].metric), "write");
	assert_string_equal(mstream_metric_name(&s, g.s[5].metric), "read");
	assert_string_equal(mstream_metric_name(&s, g.s[6].metric), "trim");

	/* fio's default: milliseconds since its job began - not this machine's clock */
	memset(&g, 0, sizeof(g));
	mstream_init(&s, MSF_FIO, 8611 * S);
	feed(&s, "5, 78408, 1, 4096, 0\n10, 22072, 1, 4096, 0\n", 8617 * S, &g);
	assert_int_equal(g.n, 0);
	assert_int_equal(s.skipped[MSK_BEFORE], 2);
	assert_non_null(mstream_verdict(&s, buf, sizeof(buf)));
	assert_non_null(strstr(buf, "--log_alternate_epoch=1 --log_alternate_epoch_clock_id=1"));

	/* damaged rows */
	memset(&g, 0, sizeof(g));
	mstream_init(&s, MSF_FIO, 0);
	feed(&s, "8400123, -5, 1, 4096\n"		/* negative */
		 "8400123, 1099511627776, 1, 4096\n"	/* 2^40 ns: absurd */
		 "8400123, 12, 7, 4096\n"		/* no such direction */
		 "8400123, 12, 1\n"			/* three fields */
		 "8400123, 12, 1, 4096, 0, 0, 9\n"	/* seven */
		 "8400123, 12x, 1, 4096\n"
		 "8400123, 12, 1, 4096x\n", 8401 * S, &g);
	assert_int_equal(g.n, 0);
	assert_int_equal(s.skipped[MSK_NEGATIVE], 1);
	assert_int_equal(s.skipped[MSK_ABSURD], 1);
	assert_int_equal(s.skipped[MSK_GARBAGE], 5);
	assert_non_null(strstr(mstream_verdict(&s, buf, sizeof(buf)), "not one sample in 7 lines"));
}

/* iputils 20221126, `ping -D -c 4 -i 0.2 127.0.0.1` on the development VM */
static const char ping_d[] =
	"PING 127.0.0.1 (127.0.0.1) 56(84) bytes of data.\n"
	"[1796611445.817455] 64 bytes from 127.0.0.1: icmp_seq=1 ttl=64 time=0.061 ms\n"
	"[1796611446.021363] 64 bytes from 127.0.0.1: icmp_seq=2 ttl=64 time=0.075 ms\n"
	"[1796611446.229354] 64 bytes from 127.0.0.1: icmp_seq=3 ttl=64 time=0.069 ms\n"
	"[1796611446.433345] 64 bytes from 127.0.0.1: icmp_seq=4 ttl=64 time=0.064 ms\n"
	"\n"
	"--- 127.0.0.1 ping statistics ---\n"
	"4 packets transmitted, 4 received, 0% packet loss, time 616ms\n"
	"rtt min/avg/max/mdev = 0.061/0.067/0.075/0.005 ms\n";

static void test_ping(void **state)
{
	struct mstream s;
	struct got g = { 0 };
	char buf[ERRBUF_LEN];

	(void)state;
	/* /proc/uptime read 8421.90 just after: Unix 1796611445 was about mono 8421 s */
	mstream_init(&s, MSF_AUTO, 8420 * S);
	s.rt_off_ns = (int64_t)(1796611445ULL * S - 8421 * S);
	feed(&s, ping_d, 8423 * S, &g);
	assert_int_equal(s.fmt, MSF_PING);
	assert_int_equal(g.n, 4);
	assert_int_equal(s.ignored, 5);
	assert_int_equal(mstream_nskipped(&s), 0);
	assert_true(g.s[0].stamped);
	assert_int_equal(g.s[0].end_ns, 8421 * S + 817455000);
	assert_int_equal(g.s[0].value_ns, 61000);
	assert_int_equal(g.s[0].begin_ns, 8421 * S + 817455000 - 61000);
	assert_int_equal(g.s[3].end_ns, 8422 * S + 433345000);
	assert_string_equal(mstream_metric_name(&s, 0), "rtt");

	/* without -D: stamped when each line arrives */
	memset(&g, 0, sizeof(g));
	mstream_init(&s, MSF_AUTO, 0);
	assert_int_equal(mstream_feed(&s, "PING 10.1.0.2 (10.1.0.2) 56(84) bytes of data.\n", 48,
				      5 * S, keep, &g), 0);
	assert_int_equal(s.fmt, MSF_PING);
	feed(&s, "64 bytes from 10.1.0.2: icmp_seq=1 ttl=64 time=0.026 ms\n", 6 * S, &g);
	assert_int_equal(g.n, 1);
	assert_false(g.s[0].stamped);
	assert_int_equal(g.s[0].end_ns, 6 * S);
	assert_int_equal(g.s[0].value_ns, 26000);

	/* replies that never came, duplicates, and a reply that makes no sense */
	memset(&g, 0, sizeof(g));
	mstream_init(&s, MSF_PING, 0);
	feed(&s, "no answer yet for icmp_seq=3\n"
		 "From 10.1.0.1 icmp_seq=4 Destination Host Unreachable\n"
		 "64 bytes from 10.1.0.2: icmp_seq=5 ttl=64 time=0.031 ms (DUP!)\n"
		 "64 bytes from 10.1.0.2: icmp_seq=6 ttl=64 time=-0.031 ms\n"
		 "64 bytes from 10.1.0.2: icmp_seq=7 ttl=64\n"
		 "ping: sendmsg: Operation not permitted\n", S, &g);
	assert_int_equal(g.n, 0);
	assert_int_equal(s.skipped[MSK_LOST], 2);
	assert_int_equal(s.skipped[MSK_DUP], 1);
	assert_int_equal(s.skipped[MSK_GARBAGE], 3);
	assert_non_null(strstr(mstream_verdict(&s, buf, sizeof(buf)), "2 requests without a reply"));
}

/* bytes as reads return them: lines cut anywhere, CRLF, a line too long, no last newline */
static void test_feed(void **state)
{
	const char *text = "1ms\r\n2ms\n3m";
	struct mstream s;
	struct got g = { 0 };
	char longline[MSTREAM_LINE_MAX + 100];
	size_t i;

	(void)state;
	mstream_init(&s, MSF_AUTO, 0);
	for (i = 0; text[i]; i++)
		assert_int_equal(mstream_feed(&s, text + i, 1, (i + 1) * S, keep, &g), 0);
	assert_int_equal(g.n, 2);
	assert_int_equal(g.s[0].value_ns, MS);
	assert_int_equal(g.s[0].end_ns, 5 * S);	/* when its newline arrived */
	assert_int_equal(g.s[1].value_ns, 2 * MS);
	assert_int_equal(mstream_feed(&s, "s", 1, 20 * S, keep, &g), 0);
	assert_int_equal(mstream_finish(&s, 21 * S, keep, &g), 0);
	assert_int_equal(g.n, 3);
	assert_int_equal(g.s[2].value_ns, 3 * MS);
	assert_int_equal(s.last_ns, 21 * S);

	memset(longline, '1', sizeof(longline) - 2);
	longline[sizeof(longline) - 2] = '\n';
	longline[sizeof(longline) - 1] = '\0';
	feed(&s, longline, 22 * S, &g);
	assert_int_equal(g.n, 3);
	assert_int_equal(s.skipped[MSK_GARBAGE], 1);
	assert_int_equal(s.skip_line[MSK_GARBAGE], 4);
}

/* auto: a line decides only when it is a sample; garbage first leaves it open */
static void test_auto(void **state)
{
	struct mstream s;
	struct got g = { 0 };
	char buf[ERRBUF_LEN];
	enum mstream_fmt f;

	(void)state;
	mstream_init(&s, MSF_AUTO, 0);
	feed(&s, "starting up...\n", S, &g);
	assert_int_equal(s.fmt, MSF_AUTO);
	feed(&s, "250us\n", S, &g);
	assert_int_equal(s.fmt, MSF_LINE);
	assert_int_equal(g.n, 1);
	/* decided: a fio row is now garbage of the line format */
	feed(&s, "8400123, 12, 1, 4096\n", S, &g);
	assert_int_equal(s.skipped[MSK_GARBAGE], 2);

	mstream_init(&s, MSF_AUTO, 0);
	assert_string_equal(mstream_verdict(&s, buf, sizeof(buf)), "not one line was written");
	feed(&s, "\n# nothing\n", S, &g);
	assert_non_null(strstr(mstream_verdict(&s, buf, sizeof(buf)), "none a sample"));

	assert_int_equal(mstream_fmt_parse("ping", &f, buf), 0);
	assert_int_equal(f, MSF_PING);
	assert_int_equal(mstream_fmt_parse("csv", &f, buf), -EINVAL);
	assert_non_null(strstr(buf, "auto, line, fio, ping"));
}

/* the clock offset: Unix time now, less it, is CLOCK_MONOTONIC now */
static void test_clock_sync(void **state)
{
	struct timespec r, m;
	struct mstream s;
	int64_t got;

	(void)state;
	mstream_init(&s, MSF_AUTO, 0);
	mstream_clock_sync(&s);
	clock_gettime(CLOCK_REALTIME, &r);
	clock_gettime(CLOCK_MONOTONIC, &m);
	got = (int64_t)(r.tv_sec * S + r.tv_nsec) - s.rt_off_ns - (int64_t)(m.tv_sec * S + m.tv_nsec);
	assert_true(got > -(int64_t)(10 * MS) && got < (int64_t)(10 * MS));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_line_format),
		cmocka_unit_test(test_line_bad),
		cmocka_unit_test(test_escape),
		cmocka_unit_test(test_fio),
		cmocka_unit_test(test_ping),
		cmocka_unit_test(test_feed),
		cmocka_unit_test(test_auto),
		cmocka_unit_test(test_clock_sync),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
