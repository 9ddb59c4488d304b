// SPDX-License-Identifier: GPL-2.0
/*
 * test_net.c - the pure parts of the net workload (no root, no namespaces): names and
 * addresses of an instance, RPS masks, the wire format, the pacing schedule, duplicate
 * and loss bookkeeping, and the cross-option checks.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "netload.h"
#include "netns.h"
#include "netrr.h"
#include "msg.h"

static void test_names(void **state)
{
	char a[IFNAMSIZ], b[IFNAMSIZ];

	(void)state;
	assert_int_equal(netns_names(1234, 0, a, b), 0);
	assert_string_equal(a, "dbv1234-0a");
	assert_string_equal(b, "dbv1234-0b");
	/* the largest pid Linux hands out (pid_max 2^22) and the largest instance fit */
	assert_int_equal(netns_names(4194304, 99, a, b), 0);
	assert_string_equal(a, "dbv4194304-99a");
	assert_true(strlen(a) < IFNAMSIZ);
	assert_int_equal(netns_names(2147483647, 99, a, b), -ENAMETOOLONG);
}

/* host - an address as a host-order integer */
static uint32_t host(struct in_addr a)
{
	return ntohl(a.s_addr);
}

static void test_addrs(void **state)
{
	struct in_addr a, b, a2, b2;

	(void)state;
	netns_addrs(1234, 0, &a, &b);
	assert_int_equal(host(a) >> 24, 10);
	assert_int_equal(host(a) & 3, 1);		/* .1 and .2 of a /30 */
	assert_int_equal(host(b), host(a) + 1);
	assert_int_equal(host(a) & ~3U, host(b) & ~3U);
	/* another instance of the same process, and another process: another /30 */
	netns_addrs(1234, 1, &a2, &b2);
	assert_int_not_equal(host(a) & ~3U, host(a2) & ~3U);
	netns_addrs(1235, 0, &a2, &b2);
	assert_int_not_equal(host(a) & ~3U, host(a2) & ~3U);
	/* the network address of 10/8 is never used */
	netns_addrs(0, 0, &a, &b);
	assert_int_equal(host(a), (10U << 24) + 5);
	assert_int_equal(host(b), (10U << 24) + 6);
	/* wrap-around stays inside 10/8 */
	netns_addrs(4194304, 99, &a, &b);
	assert_int_equal(host(a) >> 24, 10);
}

static void test_masks(void **state)
{
	char buf[ERRBUF_LEN];
	cpu_set_t s, t;

	(void)state;
	CPU_ZERO(&s);
	assert_int_equal(netns_mask_format(&s, buf, sizeof(buf)), 0);
	assert_string_equal(buf, "0");
	CPU_SET(0, &s);
	CPU_SET(1, &s);
	assert_int_equal(netns_mask_format(&s, buf, sizeof(buf)), 0);
	assert_string_equal(buf, "3");
	CPU_SET(32, &s);
	assert_int_equal(netns_mask_format(&s, buf, sizeof(buf)), 0);
	assert_string_equal(buf, "1,00000003");
	assert_int_equal(netns_mask_format(&s, buf, 4), -ENOSPC);

	/* what the kernel prints reads back as the same set */
	assert_int_equal(netns_mask_parse("00000003", &t), 0);
	assert_int_equal(CPU_COUNT(&t), 2);
	assert_true(CPU_ISSET(0, &t) && CPU_ISSET(1, &t));
	assert_int_equal(netns_mask_parse("0001,00000003", &t), 0);
	assert_true(CPU_EQUAL(&s, &t));
	assert_int_equal(netns_mask_parse("fF", &t), 0);
	assert_int_equal(CPU_COUNT(&t), 8);
	assert_int_equal(netns_mask_parse("0", &t), 0);
	assert_int_equal(CPU_COUNT(&t), 0);
	assert_int_equal(netns_mask_parse("", &t), -EINVAL);
	assert_int_equal(netns_mask_parse("3,", &t), -EINVAL);
	assert_int_equal(netns_mask_parse(",3", &t), -EINVAL);
	assert_int_equal(netns_mask_parse("xyz", &t), -EINVAL);
	assert_int_equal(netns_mask_parse("123456789", &t), -EINVAL);	/* 36 bits in a word */
	/* the rps option: off, or online CPUs */
	assert_int_equal(netns_rps_parse("off", &t, "0-3", NULL), 0);
	assert_int_equal(CPU_COUNT(&t), 0);
	assert_int_equal(netns_rps_parse("1-2", &t, "0-3", NULL), 0);
	assert_true(CPU_COUNT(&t) == 2 && CPU_ISSET(1, &t) && CPU_ISSET(2, &t));
	assert_int_equal(netns_rps_parse("5", &t, "0-3", buf), -EINVAL);
	assert_non_null(strstr(buf, "rps"));
	assert_int_equal(netns_rps_parse("", &t, "0-3", NULL), -EINVAL);
	assert_string_equal(netns_napi_name(NETNS_NAPI_THREADED), "threaded");
	assert_null(netns_napi_name((enum netns_napi)7));
}

static void test_wire(void **state)
{
	struct netrr_msg m = { .cookie = 0xabcd1234, .seq = 0x0102030405060708ULL,
			       .t_sched = 111, .t_sent = 222, .t_echo = 0 }, r;
	uint8_t buf[64];

	(void)state;
	assert_int_equal(netrr_encode(&m, buf, NETRR_HDR_LEN - 1), -EINVAL);
	assert_int_equal(netrr_encode(&m, buf, sizeof(buf)), 0);
	assert_memory_equal(buf, "DBNR", 4);		/* byte order is fixed, little-endian */
	assert_int_equal(buf[8], 0x08);
	assert_int_equal(netrr_decode(buf, sizeof(buf), m.cookie, &r), 0);
	assert_true(r.seq == m.seq && r.t_sched == 111 && r.t_sent == 222 && r.t_echo == 0);
	/* the responder stamps in place; nothing else changes */
	assert_int_equal(netrr_stamp_echo(buf, NETRR_HDR_LEN, 333), 0);
	assert_int_equal(netrr_decode(buf, NETRR_HDR_LEN, m.cookie, &r), 0);
	assert_true(r.seq == m.seq && r.t_sent == 222 && r.t_echo == 333);
	/* short, foreign or from another run: rejected */
	assert_int_equal(netrr_decode(buf, NETRR_HDR_LEN - 1, m.cookie, &r), -EINVAL);
	assert_int_equal(netrr_decode(buf, sizeof(buf), m.cookie + 1, &r), -EINVAL);
	assert_int_equal(netrr_stamp_echo(buf, 8, 1), -EINVAL);
	buf[0] = 'X';
	assert_int_equal(netrr_decode(buf, sizeof(buf), m.cookie, &r), -EINVAL);
	assert_int_equal(netrr_stamp_echo(buf, sizeof(buf), 1), -EINVAL);
}

static void test_pacing(void **state)
{
	(void)state;
	/* 3/s: no drift from rounding the period (333333333 ns) */
	assert_int_equal(netrr_deadline(1000, 0, 3), 1000);
	assert_int_equal(netrr_deadline(1000, 1, 3), 1000 + 333333333);
	assert_int_equal(netrr_deadline(1000, 3, 3), 1000 + NSEC_PER_SEC);
	assert_int_equal(netrr_deadline(0, 3000000, 3), 1000000 * NSEC_PER_SEC);
	/* a day at the highest rate does not overflow i * 1e9 */
	assert_true(netrr_deadline(0, 86400ULL * NETLOAD_MAX_RATE, NETLOAD_MAX_RATE) ==
		    86400ULL * NSEC_PER_SEC);
	assert_int_equal(netrr_period(2000), 500000);
	/* late: the next request was already due when this one left */
	assert_false(netrr_is_late(1000, 1000, 2000));
	assert_false(netrr_is_late(1000, 1000 + 500000, 2000));
	assert_true(netrr_is_late(1000, 1000 + 500001, 2000));
	assert_false(netrr_is_late(1000, 900, 2000));
}

static void test_track(void **state)
{
	struct netrr_track t;
	uint64_t s;

	(void)state;
	assert_int_equal(netrr_track_init(&t, 100), 0);
	assert_int_equal(t.nbits, 128);
	assert_int_equal(netrr_track_recv(&t, 0), NETRR_NEW);
	assert_int_equal(netrr_track_recv(&t, 2), NETRR_NEW);	/* 1 is late or lost */
	assert_int_equal(netrr_track_recv(&t, 2), NETRR_DUPLICATE);
	assert_int_equal(netrr_track_recv(&t, 1), NETRR_NEW);	/* reordered, not a dup */
	assert_int_equal(t.received, 3);
	assert_int_equal(t.duplicates, 1);
	/* slide by less than a window: slots of forgotten numbers are cleared for reuse */
	assert_int_equal(netrr_track_recv(&t, 130), NETRR_NEW);
	assert_int_equal(t.base, 3);
	assert_int_equal(netrr_track_recv(&t, 2), NETRR_STALE);	/* older than the window */
	assert_int_equal(netrr_track_recv(&t, 128), NETRR_NEW);	/* slot of 0, reused */
	assert_int_equal(netrr_track_recv(&t, 130), NETRR_DUPLICATE);
	/* a jump of more than a window forgets everything */
	assert_int_equal(netrr_track_recv(&t, 10000), NETRR_NEW);
	assert_int_equal(netrr_track_recv(&t, 9999), NETRR_NEW);
	assert_int_equal(netrr_track_recv(&t, 130), NETRR_STALE);
	assert_int_equal(t.received, 9);	/* stale ones count: their RTT is real */
	assert_int_equal(t.stale, 2);
	assert_int_equal(t.duplicates, 2);
	netrr_track_free(&t);
	netrr_track_free(&t);	/* safe twice */

	/* a steady stream with every 10th response missing */
	assert_int_equal(netrr_track_init(&t, 64), 0);
	for (s = 0; s < 1000; s++)
		if (s % 10)
			assert_int_equal(netrr_track_recv(&t, s), NETRR_NEW);
	assert_int_equal(netrr_lost(1000, t.received), 100);
	assert_int_equal(t.duplicates + t.stale, 0);
	netrr_track_free(&t);
	assert_int_equal(netrr_lost(5, 7), 0);
}

static void test_check(void **state)
{
	struct netload_cfg c = { .rate = 2000, .size = 64, .flood_size = 1024 };
	char err[ERRBUF_LEN];

	(void)state;
	assert_int_equal(netload_check(&c, err), 0);
	c.size = NETRR_HDR_LEN - 1;
	assert_int_equal(netload_check(&c, err), -EINVAL);
	assert_non_null(strstr(err, "size"));
	c.size = 64;
	c.rate = 0;
	assert_int_equal(netload_check(&c, err), -EINVAL);
	assert_non_null(strstr(err, "rate"));
	c.rate = 2000;
	c.flood_rate = 1000;
	c.flood_size = 0;
	assert_int_equal(netload_check(&c, err), -EINVAL);
	assert_non_null(strstr(err, "flood_size"));
	c.flood_size = 1024;
	c.tcp_streams = NETLOAD_MAX_TCP + 1;
	assert_int_equal(netload_check(&c, err), -EINVAL);
	c.tcp_streams = 0;
	c.busy_poll_us = NETLOAD_MAX_BUSY_POLL + 1;
	assert_int_equal(netload_check(&c, err), -EINVAL);
	assert_non_null(strstr(err, "busy_poll"));
}

/* a zeroed pair is closed: closing it is a no-op, not a close(0) */
static void test_closed_pair(void **state)
{
	struct netns_pair p;
	struct netload l;

	(void)state;
	memset(&p, 0, sizeof(p));
	memset(&l, 0, sizeof(l));
	netns_pair_close(&p);
	netns_pair_close(&p);
	netload_stop(&l);
	assert_int_equal(netns_socket(&p, NETNS_A, AF_INET, SOCK_DGRAM, 0), -EBADF);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_names),
		cmocka_unit_test(test_addrs),
		cmocka_unit_test(test_masks),
		cmocka_unit_test(test_wire),
		cmocka_unit_test(test_pacing),
		cmocka_unit_test(test_track),
		cmocka_unit_test(test_check),
		cmocka_unit_test(test_closed_pair),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
