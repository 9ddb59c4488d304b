// SPDX-License-Identifier: GPL-2.0
/*
 * sys.c - the clock, stop requests and the machine's identity (see sys.h).
 */
#include "sys.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

volatile sig_atomic_t stop_requested;

uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * NSEC_PER_SEC + ts.tv_nsec;
}

static void on_stop_signal(int sig __unused)
{
	stop_requested = 1;
}

void signals_install(void)
{
	struct sigaction sa = { .sa_handler = on_stop_signal };

	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	sigaction(SIGXFSZ, &sa, NULL);
	signal(SIGPIPE, SIG_IGN);
}

void signals_file_limit(void)
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

int kernel_release(char *buf, size_t len)
{
	struct utsname u;

	if (uname(&u))
		return -errno;
	snprintf(buf, len, "%s", u.release);
	return 0;
}

int host_name(char *buf, size_t len)
{
	if (gethostname(buf, len))
		return -errno;
	buf[len - 1] = '\0';
	return 0;
}

void iso_time_now(char *buf, size_t len)
{
	struct tm tm;
	time_t t = time(NULL);

	gmtime_r(&t, &tm);
	strftime(buf, len, "%Y-%m-%dT%H:%M:%SZ", &tm);
}

bool is_root(void)
{
	return geteuid() == 0;
}

void command_line(int argc, char **argv, char *buf, size_t len)
{
	size_t off = 0;
	int i;

	buf[0] = '\0';
	for (i = 0; i < argc && off < len; i++)
		off += snprintf(buf + off, len - off, "%s%s", i ? " " : "", argv[i]);
}
