// SPDX-License-Identifier: GPL-2.0
/*
 * evtoggle.c - turn a tracefs instance's events off and on in phases, for 'make
 * observer': the capture on and off alternated within one run of a workload, so that
 * one run's own intervals compare traced against untraced time (no second setup, no
 * other hour of the shared machine in between).
 *
 *   evtoggle INSTANCE PHASE SECONDS [SEED]
 *
 * INSTANCE is the name of an existing instance (deferbench-PID of a running 'deferbench
 * record'); the events enabled in it when evtoggle starts are the ones it toggles, by
 * their own enable files (tracepoints off: the untraced phases pay nothing, as an
 * untraced run). Phases are PHASE milliseconds long and start on multiples of PHASE of
 * CLOCK_MONOTONIC, which is where 'deferbench load --interval' starts its intervals;
 * they come in pairs, one traced and one untraced, the order of each pair drawn from
 * SEED (default 1), so that nothing periodic on the machine lines up with one side.
 * Each phase is printed once done as
 *
 *   PAIR STATE FROM_NS UNTIL_NS
 *
 * STATE "on" or "off"; [FROM_NS, UNTIL_NS) is CLOCK_MONOTONIC from the moment its last
 * enable file was written to the moment the next phase began writing. The events are
 * left enabled at the end, on SIGINT/SIGTERM too. Exit status 0, or 1 with a message.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <tracefs.h>

#define MAX_EVENTS 64
#define NSEC_PER_MSEC 1000000ULL

static volatile sig_atomic_t stop;

static void on_signal(int sig)
{
	(void)sig;
	stop = 1;
}

static unsigned long long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

static void sleep_until(unsigned long long t)
{
	struct timespec ts = { .tv_sec = t / 1000000000ULL, .tv_nsec = t % 1000000000ULL };

	while (!stop && clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) == EINTR)
		;
}

struct event {
	char sys[64], name[64];
};

/* enabled - the instance's enabled events, from its set_event ("sys:name" lines) */
static int enabled(struct tracefs_instance *inst, struct event *ev)
{
	char *text = tracefs_instance_file_read(inst, "set_event", NULL), *line, *save, *colon;
	int n = 0;

	if (!text)
		return -1;
	for (line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		colon = strchr(line, ':');
		if (!colon || n == MAX_EVENTS || colon - line >= 64 || strlen(colon + 1) >= 64)
			continue;
		snprintf(ev[n].sys, sizeof(ev[n].sys), "%.*s", (int)(colon - line), line);
		snprintf(ev[n].name, sizeof(ev[n].name), "%s", colon + 1);
		n++;
	}
	free(text);
	return n;
}

static int set_all(struct tracefs_instance *inst, const struct event *ev, int n, int on)
{
	for (int i = 0; i < n; i++)
		if ((on ? tracefs_event_enable : tracefs_event_disable)(inst, ev[i].sys, ev[i].name))
			return -1;
	return 0;
}

int main(int argc, char **argv)
{
	unsigned long long phase, end, t, from;
	struct tracefs_instance *inst;
	struct event ev[MAX_EVENTS];
	unsigned int seed;
	int n, pair = 0, rc = 0;
	char *e1, *e2;
	double secs;

	if (argc < 4 || argc > 5) {
		fprintf(stderr, "usage: evtoggle INSTANCE PHASE_MS SECONDS [SEED]\n");
		return 1;
	}
	phase = strtoull(argv[2], &e1, 10) * NSEC_PER_MSEC;
	secs = strtod(argv[3], &e2);
	seed = argc > 4 ? (unsigned int)strtoul(argv[4], NULL, 10) : 1;
	if (*e1 || *e2 || phase < 10 * NSEC_PER_MSEC || secs <= 0) {
		fprintf(stderr, "evtoggle: want PHASE_MS >= 10 and SECONDS > 0\n");
		return 1;
	}
	if (!tracefs_instance_exists(argv[1]) || !(inst = tracefs_instance_alloc(NULL, argv[1]))) {
		fprintf(stderr, "evtoggle: no tracefs instance '%s'\n", argv[1]);
		return 1;
	}
	n = enabled(inst, ev);
	if (n <= 0) {
		fprintf(stderr, "evtoggle: instance '%s' has no enabled event\n", argv[1]);
		tracefs_instance_free(inst);
		return 1;
	}
	srand(seed);
	signal(SIGINT, on_signal);
	signal(SIGTERM, on_signal);
	end = now_ns() + (unsigned long long)(secs * 1e9);
	t = (now_ns() / phase + 1) * phase;
	while (!stop && t + 2 * phase <= end) {
		int first_on = rand() & 1;

		for (int k = 0; k < 2 && !stop; k++) {
			int on = k == 0 ? first_on : !first_on;

			sleep_until(t);
			if (stop)
				break;
			if (set_all(inst, ev, n, on)) {
				fprintf(stderr, "evtoggle: cannot turn the events %s: %s\n",
					on ? "on" : "off", strerror(errno));
				rc = 1;
				stop = 1;
				break;
			}
			from = now_ns();
			t += phase;
			sleep_until(t);
			printf("%d %s %llu %llu\n", pair, on ? "on" : "off", from, now_ns());
		}
		pair++;
	}
	if (set_all(inst, ev, n, 1)) {
		fprintf(stderr, "evtoggle: cannot turn the events back on: %s\n", strerror(errno));
		rc = 1;
	}
	fflush(stdout);
	tracefs_instance_free(inst);
	return rc;
}
