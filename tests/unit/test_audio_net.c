// SPDX-License-Identifier: GPL-2.0
/*
 * test_audio_net.c - the audio workload's mode=net through the audio.h hook, with a
 * stand-in provider on loopback (the real one, veth between namespaces, comes with
 * the net workload). Needs SCHED_FIFO, so it is skipped when not root.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include "audio.h"
#include "workload.h"
#include "msg.h"

static int opened, closed;

/* net_audio_open - overrides audio.c's weak stub: two UDP sockets on 127.0.0.1 */
int net_audio_open(struct audio_net_link *l, char *errbuf)
{
	struct sockaddr_in a = { .sin_family = AF_INET };
	socklen_t len = sizeof(a);

	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	l->rx_fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	l->tx_fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (l->rx_fd < 0 || l->tx_fd < 0 || bind(l->rx_fd, (void *)&a, sizeof(a)) ||
	    getsockname(l->rx_fd, (void *)&a, &len) || connect(l->tx_fd, (void *)&a, len)) {
		snprintf(errbuf, ERRBUF_LEN, "loopback: %s", strerror(errno));
		return -errno;
	}
	snprintf(l->desc, sizeof(l->desc), "loopback port %d", ntohs(a.sin_port));
	opened++;
	return 0;
}

void net_audio_close(struct audio_net_link *l)
{
	if (l->rx_fd >= 0)
		close(l->rx_fd);
	if (l->tx_fd >= 0)
		close(l->tx_fd);
	l->rx_fd = l->tx_fd = -1;
	closed++;
}

static double counter(const struct wl_run *w, const char *name)
{
	int i;

	for (i = 0; i < w->metrics.ncounters; i++)
		if (!strcmp(w->metrics.counter[i].name, name))
			return w->metrics.counter[i].value;
	fail_msg("no counter %s", name);
	return -1;
}

static void test_net_mode_loopback(void **state __unused)
{
	struct wl_run *w = wl_new(workload_find("audio"));
	struct timespec half = { 0, 500000000 };
	char errbuf[ERRBUF_LEN];

	if (geteuid())
		skip();
	assert_int_equal(wl_set_option(w, "mode", "net", errbuf), 0);
	assert_int_equal(wl_set_option(w, "mlock", "no", errbuf), 0);
	assert_int_equal(wl_set_option(w, "duty", "10", errbuf), 0);
	if (wl_setup(w, errbuf) || wl_start(w, errbuf))
		fail_msg("%s", errbuf);
	nanosleep(&half, NULL);
	wl_stop(w);
	assert_null(wl_error(w));
	/* 0.5 s of 2.667 ms periods: about 187 packets */
	assert_true(counter(w, "periods") > 120);
	assert_true(counter(w, "periods") < 200);
	assert_true(counter(w, "lost_packets") == 0);
	assert_int_equal(w->metrics.metric[0].hist.count, (uint64_t)counter(w, "periods"));
	wl_free(w);
	assert_int_equal(opened, 1);
	assert_int_equal(closed, 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_net_mode_loopback),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
