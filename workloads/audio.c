// SPDX-License-Identifier: GPL-2.0
/*
 * audio.c - a low-latency audio client: a SCHED_FIFO thread woken once per period
 * (frames / rate, 128 @ 48 kHz = 2.667 ms) that must finish its DSP before the next
 * period starts, or the listener hears a glitch (an xrun).
 *
 * mode=timer: the period starts on an absolute CLOCK_MONOTONIC deadline (a sound
 * card's interrupt, modelled by an hrtimer). mode=net: it starts when a packet sent
 * for that deadline arrives through a veth pair (see audio.h for the hook), whose NAPI
 * polls run in NET_RX softirq or in napi/ kthreads (option napi).
 * Every latency is measured from the period's deadline, so a late wakeup is never
 * hidden; a period whose whole slot passed while the thread was busy is dropped and
 * counted, as a real stream would.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <unistd.h>

#include "audio.h"
#include "audio_dsp.h"
#include "wl_thread.h"
#include "workload.h"
#include "msg.h"
#include "file.h"
#include "sys.h"

#define AUDIO_MIN_PERIOD_NS (100 * NSEC_PER_USEC)
#define AUDIO_NET_PAYLOAD 256

enum { MODE_TIMER, MODE_NET };
static const char *const mode_names[] = { "timer", "net", NULL };
enum { NAPI_SOFTIRQ, NAPI_THREADED };
static const char *const napi_names[] = { "softirq", "threaded", NULL };

struct audio_cfg {
	int mode;
	uint64_t frames;
	uint64_t rate;
	uint64_t channels;
	double duty;
	int prio;
	bool mlock;
	cpu_set_t cpus;
	int napi;
	int napi_prio;
};

struct audio_priv {
	struct dsp dsp;
	double period_ns;
	unsigned int passes;		/* DSP passes per period */
	uint64_t pass_ns;		/* calibrated cost of one */
	bool locked;			/* we called mlockall */
	struct audio_net_link link;
	bool link_open;
	struct wl_thread thread, sender;
	int m_wakeup, m_finish, m_dsp;
	int c_periods, c_xruns, c_dropped, c_lost, c_passes, c_pass_ns, c_napi;
	uint64_t periods, xruns, dropped, lost, last_seq;
	bool have_seq;			/* net: a packet arrived, last_seq is valid */
};

static const struct opt_desc audio_options[] = {
	OPT_ENUM(0, NULL, audio_cfg, mode, "WORD", mode_names, ARRAY_SIZE(mode_names) - 1,
		 "what starts a period: an hrtimer deadline, or a UDP packet across a "
		 "veth pair", .key = "mode", .def = "timer"),
	OPT_U64(0, NULL, audio_cfg, frames, "N", 16, 8192,
		"frames per period (period = frames / rate, at least 100us)",
		.key = "frames", .def = "128"),
	OPT_U64(0, NULL, audio_cfg, rate, "N", 8000, 384000,
		"sample rate in Hz", .key = "rate", .def = "48000"),
	OPT_U64(0, NULL, audio_cfg, channels, "N", 1, DSP_MAX_CHANNELS,
		"interleaved channels the DSP filters", .key = "channels", .def = "2"),
	OPT_DOUBLE(0, NULL, audio_cfg, duty, "X", 0, 90,
		   "DSP cost per period, percent of the period, calibrated at setup (0 = "
		   "none)", .key = "duty", .def = "25"),
	OPT_INT(0, NULL, audio_cfg, prio, "N", 1, 99,
		"SCHED_FIFO priority of the audio thread (and of the net-mode sender)",
		.key = "priority", .def = "80"),
	OPT_BOOL(0, NULL, audio_cfg, mlock,
		 "mlockall() while running, as audio servers do; undone at teardown",
		 .key = "mlock", .def = "yes"),
	OPT_CPUSET(0, NULL, audio_cfg, cpus,
		   "CPUs the audio thread may run on", .key = "cpus", .def = "all"),
	OPT_ENUM(0, NULL, audio_cfg, napi, "WORD", napi_names, ARRAY_SIZE(napi_names) - 1,
		 "mode=net: where the veth NAPI polls run: NET_RX softirq, or threaded "
		 "(napi/ kthreads)", .key = "napi", .def = "softirq"),
	OPT_INT(0, NULL, audio_cfg, napi_prio, "N", 0, 99,
		"mode=net, napi=threaded: SCHED_FIFO priority of the napi/ kthreads, 0 = "
		"SCHED_OTHER", .key = "napi_prio", .def = "0"),
	OPT_END(),
};

/* memory_locked - is VmLck non-zero already (somebody else's mlockall)? */
static bool memory_locked(void)
{
	char *s = read_whole_file("/proc/self/status", NULL), *l;
	bool locked = false;

	if (s && (l = strstr(s, "VmLck:")))
		locked = strtoull(l + 6, NULL, 10) > 0;
	free(s);
	return locked;
}

/* calibrate - DSP passes per period for the duty asked; error if one pass is too long */
static int calibrate(struct audio_cfg *c, struct audio_priv *p, char *errbuf)
{
	double budget = p->period_ns * c->duty / 100;

	p->pass_ns = audio_dsp_calibrate(&p->dsp);
	if (c->duty == 0)
		return 0;
	if ((double)p->pass_ns > budget)
		return set_err(errbuf, "audio: one DSP pass over %llu frames x %llu channels "
			       "takes %.1fus, above duty x period = %.1fus; lower 'frames' or "
			       "'channels', or raise 'duty'", (unsigned long long)c->frames,
			       (unsigned long long)c->channels, p->pass_ns / 1e3, budget / 1e3);
	p->passes = (unsigned int)(budget / (double)p->pass_ns + 0.5);
	return 0;
}

static void add_metrics(struct wl_run *w, struct audio_priv *p)
{
	p->m_wakeup = wl_metric_add(w, "wakeup", "ns",
		"period start (deadline) -> audio thread running (timer: clock_nanosleep "
		"returned; net: recv returned the packet sent for that deadline); "
		"CLOCK_MONOTONIC");
	p->m_finish = wl_metric_add(w, "finish", "ns",
		"period start (deadline) -> DSP done; above one period is an xrun; "
		"CLOCK_MONOTONIC");
	p->m_dsp = wl_metric_add(w, "dsp", "ns",
		"audio thread running -> DSP done: the calibrated work plus whatever "
		"interrupted it (irqs, softirqs); CLOCK_MONOTONIC");
	p->c_periods = wl_counter_add(w, "periods");
	p->c_xruns = wl_counter_add(w, "xruns");
	p->c_dropped = wl_counter_add(w, "dropped");
	p->c_lost = wl_counter_add(w, "lost_packets");
	p->c_passes = wl_counter_add(w, "dsp_passes");
	p->c_pass_ns = wl_counter_add(w, "dsp_pass_ns");
	p->c_napi = p->link_open ? wl_counter_add(w, "napi_threads") : -1;
	wl_rate(w, p->c_periods, 1e9 / p->period_ns);
}

/* check_napi - the NAPI options belong to mode=net, napi_prio to napi=threaded */
static int check_napi(const struct audio_cfg *c, char *errbuf)
{
	if (c->mode != MODE_NET && (c->napi != NAPI_SOFTIRQ || c->napi_prio))
		return set_err(errbuf, "audio options 'napi' and 'napi_prio' apply to mode=net");
	if (c->napi_prio && c->napi != NAPI_THREADED)
		return set_err(errbuf, "audio option 'napi_prio' needs napi=threaded: in "
			       "softirq mode there is no NAPI thread to prioritise");
	return 0;
}

/* open_net - mode=net: the veth path, with the NAPI mode asked */
static int open_net(const struct audio_cfg *c, struct audio_priv *p, char *errbuf)
{
	int ret;

	p->link.period_ns = (uint64_t)p->period_ns;
	p->link.payload = AUDIO_NET_PAYLOAD;
	p->link.napi_threaded = c->napi == NAPI_THREADED;
	p->link.napi_prio = c->napi_prio;
	ret = net_audio_open(&p->link, errbuf);
	if (!ret)
		p->link_open = true;
	return ret;
}

static int audio_setup(struct wl_run *w, char *errbuf)
{
	struct audio_cfg *c = w->cfg;
	struct audio_priv *p = w->priv;
	int ret;

	p->link.tx_fd = p->link.rx_fd = -1;
	ret = check_napi(c, errbuf);
	if (ret)
		return ret;
	p->period_ns = (double)c->frames * 1e9 / (double)c->rate;
	if (p->period_ns < AUDIO_MIN_PERIOD_NS)
		return set_err(errbuf, "audio: period %llu frames / %llu Hz = %.1fus is below "
			       "the %lluus this workload can pace", (unsigned long long)c->frames,
			       (unsigned long long)c->rate, p->period_ns / 1e3,
			       AUDIO_MIN_PERIOD_NS / NSEC_PER_USEC);
	ret = audio_dsp_init(&p->dsp, c->frames, (unsigned int)c->channels, (double)c->rate,
			     w->seed);
	if (ret) {
		set_err(errbuf, "audio: DSP buffers: %s", strerror(-ret));
		return ret;
	}
	ret = calibrate(c, p, errbuf);
	if (ret)
		return ret;
	if (c->mode == MODE_NET) {
		ret = open_net(c, p, errbuf);
		if (ret)
			return ret;
	}
	if (c->mlock && !memory_locked()) {
		if (mlockall(MCL_CURRENT | MCL_FUTURE)) {
			ret = -errno;
			set_err(errbuf, "audio: mlockall: %s (needs root or a larger "
				"RLIMIT_MEMLOCK; or mlock=no)", strerror(-ret));
			return ret;
		}
		p->locked = true;
	}
	add_metrics(w, p);
	return 0;
}

/*
 * period - one audio period that started at deadline, the thread woken at wake; the
 * DSP runs whatever the window, only the recording is skipped before it
 */
static void period(struct wl_run *w, struct audio_priv *p, struct pace *pc,
		   uint64_t deadline, uint64_t wake)
{
	uint64_t done, from = wl_window(w), k0;

	audio_dsp_run(&p->dsp, p->passes);
	done = now_ns();
	/*
	 * the window ends when the stop begins: a packet sent for a later deadline (the
	 * sender wakes, sends, and only then sees the stop) is no period of the run
	 */
	if (deadline >= from && (!wl_stopping(w) || deadline < wl_stop_ns(w))) {
		wl_record(w, p->m_wakeup, deadline, pace_late(deadline, wake));
		wl_record(w, p->m_finish, deadline, pace_late(deadline, done));
		wl_record(w, p->m_dsp, deadline, done - wake);
		p->periods++;
		if (done > deadline + (uint64_t)p->period_ns)
			p->xruns++;
	}
	if (pc) {
		k0 = pc->k;
		wl_pace_skip(pc, done);
		/*
		 * the slots that passed, of the window only: a thread stalled across the
		 * stop (RT throttling, a preempting task) resumes past it, and the slots
		 * after the stop were never the run's to play
		 */
		for (; k0 < pc->k; k0++) {
			uint64_t d = pace_deadline(pc, k0);

			p->dropped += d >= from && (!wl_stopping(w) || d < wl_stop_ns(w));
		}
	}
}

/* prefault_stack - touch the stack the RT loop will use, before it matters */
static void prefault_stack(void)
{
	volatile char buf[64 * 1024];

	memset((char *)buf, 0, sizeof(buf));
}

static void *audio_timer_thread(void *arg)
{
	struct wl_run *w = arg;
	struct audio_priv *p = w->priv;
	uint64_t deadline;
	struct pace pc;

	prefault_stack();
	pace_init(&pc, now_ns() + (uint64_t)p->period_ns, p->period_ns);
	while (!wl_stopping(w)) {
		deadline = pace_deadline(&pc, pc.k);
		if (wl_sleep_until(deadline) == -EINTR)
			continue;
		/*
		 * stopped while asleep: a deadline past the window's end is no period of
		 * the run; one before it is, woken late (a stall across the stop: RT
		 * throttling, the fair server), and its wakeup latency is the figure
		 */
		if (wl_stopping(w) && deadline >= wl_stop_ns(w))
			break;
		pc.k++;
		period(w, p, &pc, deadline, now_ns());
	}
	return NULL;
}

/* audio_net_thread - a period per packet; the sender's deadline is in the packet */
static void *audio_net_thread(void *arg)
{
	struct wl_run *w = arg;
	struct audio_priv *p = w->priv;
	char buf[AUDIO_NET_PAYLOAD];
	struct audio_net_hdr h;
	ssize_t n;

	prefault_stack();
	while (!wl_stopping(w)) {
		n = recv(p->link.rx_fd, buf, sizeof(buf), 0);
		if (n < 0) {
			if (errno == EINTR || errno == EAGAIN)
				continue;
			wl_fail(w, -errno, "audio: recv on %s: %s", p->link.desc, strerror(errno));
			break;
		}
		if ((size_t)n < sizeof(h))
			continue;
		memcpy(&h, buf, sizeof(h));
		if (p->have_seq && h.seq > p->last_seq + 1)
			p->lost += pace_count_before(h.deadline_ns, p->period_ns,
						     h.seq - p->last_seq - 1, wl_window(w));
		p->have_seq = true;
		p->last_seq = h.seq;
		period(w, p, NULL, h.deadline_ns, now_ns());
	}
	return NULL;
}

/* audio_sender - the remote end of mode=net: one packet per period, on its deadline */
static void *audio_sender(void *arg)
{
	struct wl_run *w = arg;
	struct audio_priv *p = w->priv;
	char buf[AUDIO_NET_PAYLOAD] = { 0 };
	struct audio_net_hdr h = { 0 };
	struct pace pc;

	pace_init(&pc, now_ns() + (uint64_t)p->period_ns, p->period_ns);
	while (!wl_stopping(w)) {
		h.deadline_ns = pace_deadline(&pc, pc.k);
		if (wl_sleep_until(h.deadline_ns) == -EINTR)
			continue;
		h.seq = pc.k++;
		memcpy(buf, &h, sizeof(h));
		if (send(p->link.tx_fd, buf, sizeof(buf), 0) < 0 && errno != EINTR &&
		    errno != ENOBUFS && errno != ECONNREFUSED) {
			wl_fail(w, -errno, "audio: send on %s: %s", p->link.desc, strerror(errno));
			break;
		}
	}
	return NULL;
}

static int audio_start(struct wl_run *w, char *errbuf)
{
	struct audio_cfg *c = w->cfg;
	struct audio_priv *p = w->priv;
	struct wl_sched s = { .policy = SCHED_FIFO, .prio = c->prio };
	int ret;

	if (c->mode == MODE_TIMER)
		return wl_thread_start(&p->thread, "db-audio", audio_timer_thread, w, &s,
				       &c->cpus, errbuf);
	ret = wl_thread_start(&p->thread, "db-audio", audio_net_thread, w, &s, &c->cpus,
			      errbuf);
	if (ret)
		return ret;
	return wl_thread_start(&p->sender, "db-audio-send", audio_sender, w, &s, NULL, errbuf);
}

static void audio_stop(struct wl_run *w)
{
	struct audio_priv *p = w->priv;
	struct wl_counter *k = w->metrics.counter;

	wl_thread_join(&p->sender);
	wl_thread_join(&p->thread);
	k[p->c_periods].value = (double)p->periods;
	k[p->c_xruns].value = (double)p->xruns;
	k[p->c_dropped].value = (double)p->dropped;
	k[p->c_lost].value = (double)p->lost;
	k[p->c_passes].value = p->passes;
	k[p->c_pass_ns].value = (double)p->pass_ns;
	if (p->c_napi >= 0)
		k[p->c_napi].value = p->link.napi_threads;
}

static void audio_teardown(struct wl_run *w)
{
	struct audio_priv *p = w->priv;

	if (p->link_open)
		net_audio_close(&p->link);
	p->link_open = false;
	if (p->locked)
		munlockall();
	p->locked = false;
	audio_dsp_free(&p->dsp);
}

/* what compare judges audio by: the callback's wakeup and finish against its deadline */
static const char *const audio_primary[] = {
	"workload:wakeup:p50", "workload:wakeup:p90", "workload:wakeup:p99",
	"workload:finish:p90", "workload:finish:p99",
	NULL,
};

const struct workload_ops audio_workload = {
	.name = "audio",
	.needs_root = "its callback thread runs SCHED_FIFO",
	.help = "SCHED_FIFO audio callback every frames/rate: wakeup, finish vs deadline, "
		"xruns",
	.options = audio_options,
	.primary = audio_primary,
	.cfg_size = sizeof(struct audio_cfg),
	.priv_size = sizeof(struct audio_priv),
	.setup = audio_setup,
	.start = audio_start,
	.stop = audio_stop,
	.teardown = audio_teardown,
};
