// SPDX-License-Identifier: GPL-2.0
/*
 * nettool.c - test scaffolding for the integration tests of the net workload: builds
 * the namespace pair, runs the network load for a duration through the netns/netload
 * API directly (no workload driver), prints what it measured as key=value lines, and
 * tears everything down. It exists so that the topology can be tested before
 * 'deferbench load net' is wired; it is not installed.
 *
 *   nettool [duration=2s] [rate=2000] [size=64] [napi=softirq|threaded] [napi_prio=0]
 *           [gro=on] [tso=off]
 *           [busy_poll=US] [rps=CPUS] [flood=PPS] [flood_size=B] [tcp=N]
 *           [cpus=CPUS] [load_cpus=CPUS]
 *
 * "ready" is printed (and flushed) once the load runs, so a test can signal it then.
 * SIGINT/SIGTERM end the run early, through the same teardown.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "netload.h"
#include "netns.h"
#include "msg.h"
#include "cpulist.h"
#include "parse.h"
#include "sys.h"

struct tool {
	uint64_t duration;
	struct netns_opts ns;
	struct netload_cfg load;
};

/* set_napi - softirq | threaded */
static int set_napi(struct tool *t, const char *v, char *errbuf)
{
	if (!strcmp(v, "softirq"))
		t->ns.napi = NETNS_NAPI_SOFTIRQ;
	else if (!strcmp(v, "threaded"))
		t->ns.napi = NETNS_NAPI_THREADED;
	else
		return set_err(errbuf, "napi must be softirq or threaded");
	return 0;
}

/* set_opt - one key=value argument */
static int set_opt(struct tool *t, const char *arg, char *errbuf)
{
	char key[32];
	const char *v = strchr(arg, '=');
	uint64_t u;
	int err;

	if (!v || (size_t)(v - arg) >= sizeof(key))
		return set_err(errbuf, "'%s' is not key=value", arg);
	snprintf(key, sizeof(key), "%.*s", (int)(v - arg), arg);
	v++;
	if (!strcmp(key, "duration"))
		return parse_duration_ns(v, &t->duration, errbuf);
	if (!strcmp(key, "rate"))
		return parse_u64(v, 1, NETLOAD_MAX_RATE, &t->load.rate, errbuf);
	if (!strcmp(key, "size"))
		return parse_size(v, 40, 65507, &t->load.size, errbuf);
	if (!strcmp(key, "napi"))
		return set_napi(t, v, errbuf);
	if (!strcmp(key, "gro"))
		return parse_bool(v, &t->ns.gro, errbuf);
	if (!strcmp(key, "napi_prio"))
		return parse_int(v, 0, 99, &t->ns.napi_prio, errbuf);
	if (!strcmp(key, "tso"))
		return parse_bool(v, &t->ns.tso, errbuf);
	if (!strcmp(key, "busy_poll")) {
		err = parse_u64(v, 0, NETLOAD_MAX_BUSY_POLL, &u, errbuf);
		t->load.busy_poll_us = (unsigned int)u;
		return err;
	}
	if (!strcmp(key, "rps"))
		return netns_rps_parse(v, &t->ns.rps, NULL, errbuf);
	if (!strcmp(key, "flood"))
		return parse_u64(v, 0, NETLOAD_MAX_FLOOD, &t->load.flood_rate, errbuf);
	if (!strcmp(key, "flood_size"))
		return parse_size(v, 1, 65507, &t->load.flood_size, errbuf);
	if (!strcmp(key, "tcp")) {
		err = parse_u64(v, 0, NETLOAD_MAX_TCP, &u, errbuf);
		t->load.tcp_streams = (unsigned int)u;
		return err;
	}
	if (!strcmp(key, "cpus"))
		return cpulist_parse(v, &t->load.cpus, NULL, errbuf);
	if (!strcmp(key, "load_cpus"))
		return cpulist_parse(v, &t->load.load_cpus, NULL, errbuf);
	return set_err(errbuf, "unknown key '%s'", key);
}

static void print_hist(const char *name, const struct hist *h)
{
	struct hist_stats s;

	hist_get_stats(h, &s);
	printf("%s_count=%llu\n%s_p50_ns=%llu\n%s_p99_ns=%llu\n%s_max_ns=%llu\n",
	       name, (unsigned long long)s.count, name, (unsigned long long)s.p50,
	       name, (unsigned long long)s.p99, name, (unsigned long long)s.max);
}

static void table_stats(const struct netload_stats *st)
{
	double secs = st->t_end > st->t0 ? (double)(st->t_end - st->t0) / NSEC_PER_SEC : 0;

	printf("sent=%llu\nreceived=%llu\nlost=%llu\nlate=%llu\nduplicates=%llu\n"
	       "stale=%llu\nerrors=%llu\nechoed=%llu\nrate_sent=%.1f\nsend_s=%.9f\n",
	       (unsigned long long)st->sent, (unsigned long long)st->received,
	       (unsigned long long)st->lost, (unsigned long long)st->late,
	       (unsigned long long)st->duplicates, (unsigned long long)st->stale,
	       (unsigned long long)(st->send_errors + st->echo_errors + st->bad),
	       (unsigned long long)st->echoed, secs > 0 ? st->sent / secs : 0, secs);
	printf("flood_sent=%llu\nflood_received=%llu\ntcp_bytes=%llu\n",
	       (unsigned long long)st->flood_sent, (unsigned long long)st->flood_received,
	       (unsigned long long)st->tcp_received);
	print_hist("rtt", &st->rtt);
	print_hist("send_lag", &st->send_lag);
	print_hist("fwd", &st->fwd);
	print_hist("back", &st->back);
}

static void print_pair(const struct netns_pair *p)
{
	char a[INET_ADDRSTRLEN], b[INET_ADDRSTRLEN];
	pid_t pids[16];

	printf("pid=%d\nifname_a=%s\nifname_b=%s\naddr_a=%s\naddr_b=%s\nnapi_threads=%d\n",
	       (int)getpid(), netns_ifname(p, NETNS_A), netns_ifname(p, NETNS_B),
	       inet_ntop(AF_INET, &p->addr[NETNS_A], a, sizeof(a)),
	       inet_ntop(AF_INET, &p->addr[NETNS_B], b, sizeof(b)),
	       netns_napi_threads(p, pids, (int)ARRAY_SIZE(pids)));
}

static void print_drops(const struct netns_pair *p)
{
	uint64_t d[2] = { 0, 0 };

	if (netns_link_drops(p, NETNS_A, &d[0]) || netns_link_drops(p, NETNS_B, &d[1]))
		warn_msg("cannot read the veth drop counters");
	printf("veth_drops_a=%llu\nveth_drops_b=%llu\n", (unsigned long long)d[0],
	       (unsigned long long)d[1]);
}

int main(int argc, char **argv)
{
	struct tool t = {
		.duration = 2 * NSEC_PER_SEC,
		.ns = { .napi = NETNS_NAPI_SOFTIRQ, .gro = true },
		.load = { .rate = 2000, .size = 64, .flood_size = 1024, .cookie = 0x5eed },
	};
	static struct netns_pair pair;
	static struct netload load;
	char errbuf[ERRBUF_LEN];
	pid_t pids[16];
	int i, err;

	for (i = 1; i < argc; i++) {
		if (set_opt(&t, argv[i], errbuf)) {
			err_msg("%s", errbuf);
			return 2;
		}
	}
	stop_on_signals();
	t.load.cookie ^= (uint32_t)getpid();
	err = netns_pair_open(&pair, &t.ns, errbuf);
	if (err) {
		err_msg("%s", errbuf);
		return 1;
	}
	print_pair(&pair);
	err = netload_start(&load, &pair, &t.load, errbuf);
	if (err) {
		err_msg("%s", errbuf);
		netns_pair_close(&pair);
		return 1;
	}
	printf("ready\n");
	fflush(stdout);
	if (sleep_until_or_stop(now_ns() + t.duration))
		printf("interrupted=1\n");
	netload_stop(&load);
	netload_stop(&load);		/* safe twice */
	table_stats(&load.st);
	print_drops(&pair);
	netns_pair_close(&pair);
	netns_pair_close(&pair);	/* safe twice */
	printf("napi_threads_after=%d\n", netns_napi_threads(&pair, pids, (int)ARRAY_SIZE(pids)));
	return 0;
}
