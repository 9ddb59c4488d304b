// SPDX-License-Identifier: GPL-2.0
/*
 * stop.c - stop requests: the signals that ask deferbench to stop, and the sleep that
 * a stop request ends (see sys.h).
 */
#include "sys.h"

#include <time.h>

volatile sig_atomic_t stop_requested;

static void on_stop_signal(int sig __unused)
{
	stop_requested = 1;
}

void stop_on_signals(void)
{
	struct sigaction sa = { .sa_handler = on_stop_signal };

	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	sigaction(SIGXFSZ, &sa, NULL);
	signal(SIGPIPE, SIG_IGN);
}

void stop_on_file_limit(void)
{
	struct sigaction sa = { .sa_handler = on_stop_signal };

	sigemptyset(&sa.sa_mask);
	sigaction(SIGXFSZ, &sa, NULL);
}

bool sleep_until_or_stop(uint64_t deadline_ns)
{
	while (!stop_requested) {
		uint64_t now = now_ns(), step;
		struct timespec ts;

		if (now >= deadline_ns)
			return false;
		/* wake at least every 100 ms so a stop request is seen promptly */
		step = deadline_ns - now;
		if (step > 100 * NSEC_PER_MSEC)
			step = 100 * NSEC_PER_MSEC;
		ts.tv_sec = step / NSEC_PER_SEC;
		ts.tv_nsec = step % NSEC_PER_SEC;
		nanosleep(&ts, NULL);
	}
	return true;
}
