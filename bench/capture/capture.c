// SPDX-License-Identifier: GPL-2.0
/*
 * capture.c - the live capture's lifecycle (see capture.h): a private tracefs instance
 * (instance.c), one reader thread per CPU streaming raw sub-buffers and one analysis
 * thread merging them into the matcher (readers.c), and the result they fill.
 */
#include "capture.h"

#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <tracefs.h>
#include <unistd.h>

#define DEFERBENCH_ALLOW_CAPTURE_INT_H
#include "capture_int.h"
#include "detail.h"
#include "subbuf.h"
#include "msg.h"
#include "cpulist.h"
#include "parse.h"
#include "file.h"
#include "outw.h"
#include "sys.h"

/* decoder_setup - the decoder, from formats checked as strictly as a capture's copies */
static int decoder_setup(struct capture *c, const char *header, size_t hlen,
			 char *const formats[EV_NR], unsigned int *dsize, char *errbuf)
{
	char err[ERRBUF_LEN];
	int bad;

	c->tep = decoder_new_tep(header, hlen, formats, dsize, &bad, err);
	if (!c->tep) {
		if (bad < 0)
			return set_err(errbuf, "%s/events/header_page: %s", tracefs_tracing_dir(),
				       err);
		return set_err(errbuf, "%s/events/%s/%s/format: %s", tracefs_tracing_dir(),
			       ev_names[bad].system, ev_names[bad].name, err);
	}
	if (decoder_init(&c->dec, c->tep, err))
		return set_err(errbuf, "the event formats in %s/events: %s", tracefs_tracing_dir(),
			       err);
	return 0;
}

static void meta_fill(struct capture *c)
{
	struct result_meta *m = &c->res.meta;

	host_kernel_release(m->kernel, sizeof(m->kernel));
	host_name(m->hostname, sizeof(m->hostname));
	iso_time_now(m->started, sizeof(m->started));
	snprintf(m->command, sizeof(m->command), "%s", c->opts.command ? c->opts.command : "");
	m->buffer_kb = c->opts.buffer_kb;
	snprintf(m->sched_events, sizeof(m->sched_events), "%s", c->opts.no_sched ? "off" :
		 c->opts.sched_all ? "all" : "deferred");
}

static int result_setup(struct capture *c, char *errbuf)
{
	bool missing[EV_NR];
	char path[PATH_MAX], err[ERRBUF_LEN];

	memcpy(missing, c->res.meta.missing, sizeof(missing));
	/* intervals: the writer keeps a pointer to the result, which is set up next */
	if (c->opts.intervals_csv && c->opts.interval_ns) {
		c->iw = intervals_csv_open(c->opts.intervals_csv, &c->res);
		if (!c->iw)
			return set_err(errbuf, "cannot create %s: %s", c->opts.intervals_csv,
				       strerror(errno));
	}
	/* the real start is set in capture_start(); intervals are relative to it */
	if (result_init(&c->res, c->ncpus, 0, c->opts.interval_ns,
			c->iw ? intervals_csv_cb : NULL, c->iw))
		return set_err(errbuf, "out of memory");
	c->res_ready = true;
	c->res.m.comm_resolve = comms_resolve;
	c->res.m.comm_resolve_ctx = c;
	c->res.m.on_interval_end = c->opts.on_interval_end;
	c->res.m.ival_end_ctx = c->opts.interval_ctx;
	c->res.m.long_work_ns = c->opts.long_work_ns;
	memcpy(c->res.meta.missing, missing, sizeof(missing));
	meta_fill(c);
	snprintf(path, sizeof(path), "/proc/kallsyms");
	if (symtab_load(&c->res.syms, path, err))
		warn_msg("%s: work functions will be shown as addresses", err);
	c->res.m.barrier_func = symtab_addr(&c->res.syms, "wq_barrier_func");
	return 0;
}

/*
 * detail_setup - what is kept beyond the histograms (detail.h), said in the metadata so
 * that analyze of the raw capture keeps the same; record --keep-worst also keeps the
 * formats for the excerpts it writes at the end
 */
static int detail_setup(struct capture *c, const char *header, size_t hlen,
			char *const formats[EV_NR], char *errbuf)
{
	struct result_meta *m = &c->res.meta;
	int k;

	m->slowest = c->opts.slowest;
	m->stack_vecs = c->opts.stack_vecs;
	m->keep_worst_ns = c->opts.keep_worst_ns;
	m->worst_vecs = c->opts.keep_worst_ns ? c->opts.worst_vecs : 0;
	if (result_detail(&c->res))
		return set_err(errbuf, "out of memory");
	if (!c->opts.keep_worst_ns)
		return 0;
	c->header = malloc(hlen + 1);
	if (!c->header)
		return set_err(errbuf, "out of memory");
	memcpy(c->header, header, hlen);
	c->header[hlen] = '\0';
	c->hlen = hlen;
	for (k = 0; k < EV_NR; k++)
		if (formats[k] && !(c->formats[k] = strdup(formats[k])))
			return set_err(errbuf, "out of memory");
	return 0;
}

struct capture *capture_new(const struct capture_opts *opts, char *errbuf)
{
	char *header = NULL, *formats[EV_NR] = { 0 };
	struct comm_entry *comms = NULL;
	struct page_src src;
	struct capture *c;
	size_t hlen = 0, ncomms = 0, i;
	unsigned int dsize = 0;
	int k;

	if (!host_is_root()) {
		set_err(errbuf, "tracing the kernel needs root: run deferbench as root (sudo)");
		return NULL;
	}
	c = calloc(1, sizeof(*c));
	if (!c) {
		set_err(errbuf, "out of memory");
		return NULL;
	}
	c->opts = *opts;
	if (opts->cpus) {
		cpu_set_t set;
		char msg[ERRBUF_LEN];

		if (cpulist_parse(opts->cpus, &set, NULL, msg)) {
			set_err(errbuf, "capture CPUs: %s", msg);
			free(c);
			return NULL;
		}
	}
	if (!c->opts.buffer_kb)
		c->opts.buffer_kb = CAPTURE_DEFAULT_BUFFER_KB;
	pthread_mutex_init(&c->lock, NULL);
	pthread_condattr_t ca;
	pthread_condattr_init(&ca);
	pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
	pthread_cond_init(&c->cond, &ca);
	pthread_condattr_destroy(&ca);
	c->ncpus = (int)sysconf(_SC_NPROCESSORS_CONF);
	if (map_init(&c->comm_tried, 1, 64)) {
		set_err(errbuf, "out of memory");
		goto out_free;
	}
	if (opts->raw_dir) {
		int e;

		c->raw_dir = strdup(opts->raw_dir);
		e = c->raw_dir ? out_mkdir_p(c->raw_dir) : -ENOMEM;
		if (e) {
			set_err(errbuf, "cannot create %s: %s", opts->raw_dir, strerror(-e));
			goto out_free;
		}
	}
	if (instance_tracefs_ready(c, errbuf) ||
	    instance_read_formats(c, &header, &hlen, formats, errbuf))
		goto out_free;
	if (result_setup(c, errbuf))
		goto out_free;
	if (decoder_setup(c, header, hlen, formats, &dsize, errbuf))
		goto out_free;
	for (k = 0; k < EV_NR; k++)
		if (c->dec.unusable[k]) {
			/* not enabled: its figures are absent, everything else is measured */
			warn_msg("%s has fields deferbench does not know; its figures will be "
				 "absent", ev_names[k].id);
			c->res.meta.missing[k] = true;
			free(formats[k]);
			formats[k] = NULL;
		}
	if (instance_setup(c, errbuf) || instance_events_enable(c, formats, errbuf))
		goto out_free;
	if (c->opts.stack_vecs && !symtab_has_addresses(&c->res.syms)) {
		warn_msg("/proc/kallsyms shows no addresses (kernel.kptr_restrict?): no stacks");
		c->opts.stack_vecs = 0;
	}
	if (c->opts.stack_vecs)
		instance_stacks_enable(c);
	if (detail_setup(c, header, hlen, formats, errbuf) || readers_open(c, errbuf))
		goto out_free;
	if (dsize + SUBBUF_HDR != c->subbuf_size) {
		set_err(errbuf, "events/header_page describes %u-byte sub-buffers, but "
			"trace_pipe_raw reads %u", dsize + SUBBUF_HDR, c->subbuf_size);
		goto out_free;
	}
	/* a kernel bug must not crash the reader: damage is skipped and counted */
	src = readers_page_src(c);
	if (c->opts.keep_worst_ns) {
		c->keep = keep_new(c->ncpus, c->subbuf_size, c->opts.keep_worst_ns, &c->res.m);
		if (!c->keep) {
			set_err(errbuf, "out of memory");
			goto out_free;
		}
		src = keep_page_src(c->keep, &src);
	}
	if (merger_init(&c->mg, c->ncpus, &c->dec, &c->res, &src)) {
		set_err(errbuf, "out of memory");
		goto out_free;
	}
	c->mg_ready = true;
	if (comms_snapshot(&comms, &ncomms))
		warn_msg("cannot list kernel threads: some workers may show as pool 'unknown'");
	for (i = 0; i < ncomms; i++)
		match_comm(&c->res.m, comms[i].pid, comms[i].comm, strlen(comms[i].comm));
	if (c->raw_dir && (raw_save_formats(c->raw_dir, header, hlen, formats) ||
			   raw_save_comms(c->raw_dir, comms, ncomms))) {
		set_err(errbuf, "cannot write the raw capture files in %s", c->raw_dir);
		goto out_free;
	}
	if (c->keep) {
		/* each excerpt is a raw capture of its own, with the same side files */
		c->comms = comms;
		c->ncomms = ncomms;
		comms = NULL;
	}
	free(comms);
	free(header);
	for (k = 0; k < EV_NR; k++)
		free(formats[k]);
	return c;
out_free:
	free(comms);
	free(header);
	for (k = 0; k < EV_NR; k++)
		free(formats[k]);
	capture_free(c);
	return NULL;
}

/*
 * thread_attr - the attributes of the capture's threads: pinned to opts.cpus when given
 * (checked by capture_new), so that reading and matching stay off the measured CPUs
 */
static int thread_attr(const struct capture *c, pthread_attr_t *attr)
{
	cpu_set_t set;
	int ret = pthread_attr_init(attr);

	if (ret || !c->opts.cpus)
		return ret;
	ret = cpulist_parse_raw(c->opts.cpus, &set, NULL) ? EINVAL : 0;
	ret = ret ?: pthread_attr_setaffinity_np(attr, sizeof(set), &set);
	if (ret)
		pthread_attr_destroy(attr);
	return ret;
}

int capture_start(struct capture *c)
{
	pthread_attr_t attr;
	int ret;

	if (c->state != CAP_NEW)
		return -EINVAL;
	/* tracing starts now: intervals count from here, or from the multiple before */
	c->res.start_ts = now_ns();
	c->res.m.t0 = c->res.start_ts;
	if (c->opts.align_intervals && c->opts.interval_ns)
		c->res.m.t0 -= c->res.start_ts % c->opts.interval_ns;
	c->res.m.ival_end = c->opts.interval_ns ? c->res.m.t0 + c->opts.interval_ns : UINT64_MAX;
	/* every event is younger than this; the analysis thread is not running yet */
	c->mg.src.ts_lo = c->res.start_ts > NSEC_PER_SEC ? c->res.start_ts - NSEC_PER_SEC : 0;
	c->state = CAP_RUNNING;
	ret = thread_attr(c, &attr);
	if (ret)
		goto out_stop;
	ret = readers_start(c, &attr);
	pthread_attr_destroy(&attr);
	if (ret)
		goto out_stop;
	if (tracefs_trace_on(c->inst)) {
		ret = EIO;
		goto out_stop;
	}
	return 0;
out_stop:
	capture_stop(c);
	return -ret;
}

int capture_pause(struct capture *c)
{
	int ret;

	if (c->state != CAP_RUNNING || c->paused)
		return -EINVAL;
	ret = instance_events_set(c, false);
	c->paused = true;
	c->pauses++;
	return ret;
}

int capture_resume(struct capture *c)
{
	int ret;

	if (c->state != CAP_RUNNING || !c->paused)
		return -EINVAL;
	ret = instance_events_set(c, true);
	c->paused = false;
	/* pairing starts afresh once every event is back: see match_gap */
	merger_gap(&c->mg, now_ns());
	return ret;
}

static int raw_finish(struct capture *c)
{
	int ret;

	ret = raw_save_meta(c->raw_dir, &c->res, c->subbuf_size);
	ret = ret ?: raw_add_comms(c->raw_dir, c->named, c->nnamed);
	return ret ?: raw_save_symbols(c->raw_dir, &c->res);
}

int capture_stop(struct capture *c)
{
	int i, ret = 0;

	if (c->state != CAP_RUNNING)
		return c->state == CAP_STOPPED ? 0 : -EINVAL;
	if (c->inst)
		tracefs_trace_off(c->inst);
	c->res.end_ts = now_ns();
	ret = readers_stop(c);
	c->state = CAP_STOPPED;
	if (c->mg.bad_subbufs || c->mg.bad_records) {
		const struct merge_bad *b = &c->mg.first_bad;

		warn_msg("the kernel's trace buffers held %llu damaged sub-buffer(s) and %llu "
			 "record(s), skipped and counted as lost events (the first on CPU %d, "
			 "sub-buffer %llu, byte %u: %s)", (unsigned long long)c->mg.bad_subbufs,
			 (unsigned long long)c->mg.bad_records, b->cpu,
			 (unsigned long long)b->subbuf, b->offset, b->what);
	}
	c->res.meta.capture_cpu_s = c->analyser_cpu_s;
	for (i = 0; i < c->ncpus; i++)
		c->res.meta.capture_cpu_s += c->rd[i].cpu_s;
	instance_loss_read(c);
	result_finish(&c->res);
	if (c->iw) {
		int r = intervals_csv_close(c->iw);

		c->iw = NULL;
		if (r && !ret)
			ret = r;
	}
	if (c->raw_dir) {
		for (i = 0; i < c->ncpus; i++) {
			if (c->rd[i].raw_fd >= 0 && close(c->rd[i].raw_fd) && !ret)
				ret = -errno;
			c->rd[i].raw_fd = -1;
		}
		if (!ret)
			ret = raw_finish(c);
	}
	if (c->keep && !ret) {
		ret = keep_write(c->keep, c, c->opts.worst_dir);
		if (ret)
			err_msg("cannot write the trace around the worst delays in %s: %s",
				c->opts.worst_dir, strerror(-ret));
	}
	return ret;
}

void capture_note_command(struct capture *c, int wait_status, bool stopped)
{
	struct result_meta *m = &c->res.meta;

	m->cmd_ended = true;
	m->cmd_stopped = stopped;
	m->cmd_signal = WIFSIGNALED(wait_status) ? WTERMSIG(wait_status) : 0;
	m->cmd_exit = WIFEXITED(wait_status) ? WEXITSTATUS(wait_status) : -1;
}

struct result *capture_result(struct capture *c)
{
	return c->state == CAP_STOPPED ? &c->res : NULL;
}

const struct result *capture_live_result(const struct capture *c)
{
	return &c->res;
}

int capture_kernel_lost(struct capture *c, uint64_t *lost)
{
	struct cpu_loss l;
	char file[64], *text;
	int i, ret = 0;

	*lost = 0;
	for (i = 0; i < c->ncpus; i++) {
		if (!c->rd || !c->rd[i].tcpu)
			continue;
		snprintf(file, sizeof(file), "per_cpu/cpu%d/stats", i);
		text = tracefs_instance_file_read(c->inst, file, NULL);
		if (!text) {
			ret = -errno ?: -EIO;
			continue;
		}
		memset(&l, 0, sizeof(l));
		result_cpu_loss_parse(text, &l);
		free(text);
		*lost += l.overrun + l.commit_overrun + l.dropped;
	}
	return ret;
}

int capture_free(struct capture *c)
{
	int ret;

	if (!c)
		return 0;
	if (c->state == CAP_RUNNING)
		capture_stop(c);
	if (c->mg_ready)
		merger_free(&c->mg);
	readers_free(c);
	ret = instance_free(c);
	keep_free(c->keep);
	free(c->header);
	for (int k = 0; k < EV_NR; k++)
		free(c->formats[k]);
	free(c->comms);
	if (c->iw)
		intervals_csv_close(c->iw);
	decoder_free(&c->dec);
	if (c->tep)
		tep_free(c->tep);
	if (c->res_ready)
		result_free(&c->res);
	free(c->raw_dir);
	map_free(&c->comm_tried);
	free(c->named);
	pthread_cond_destroy(&c->cond);
	pthread_mutex_destroy(&c->lock);
	free(c);
	return ret;
}
