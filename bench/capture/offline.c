// SPDX-License-Identifier: GPL-2.0
/*
 * offline.c - offline analysis of a raw capture (record --raw): the capture's own
 * decoder, merger and matcher run over the kept sub-buffers instead of the live ring
 * buffer, so that every figure comes out as the live run computed it.
 */
#include "offline.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <traceevent/event-parse.h>
#include <unistd.h>

#include "decode.h"
#include "fmt.h"
#include "result_files.h"
#include "merge.h"
#include "output.h"
#include "raw.h"
#include "subbuf.h"
#include "msg.h"

/*
 * A page source over cpuN.dat files, read in chunks of sub-buffers (not mapped: a
 * file that shrinks under a mapping kills the reader with SIGBUS). The merger holds
 * one sub-buffer per CPU at a time, so one chunk per CPU is enough.
 */
#define FILE_CHUNK (256 * 1024)

struct file_cpu {
	int fd;				/* -1: no file (the CPU was offline) */
	unsigned char *buf;		/* a whole number of sub-buffers */
	size_t have, used;		/* bytes in buf, bytes handed out */
	uint64_t off;			/* file offset of buf[0] */
	uint64_t len;			/* the file's size */
};

struct file_src {
	struct file_cpu *cpu;
	int ncpus;
	unsigned int size;
	size_t chunk;
	int err, err_cpu;		/* a read error, and on which CPU's file */
	bool accept_damaged;		/* a missing cpuN.dat with events: taken as empty */
};

static void *file_get(void *ctx, int cpu)
{
	struct file_src *fs = ctx;
	struct file_cpu *fc = &fs->cpu[cpu];
	ssize_t n;
	void *p;

	if (fc->fd < 0)
		return NULL;
	if (fc->used == fc->have) {
		fc->off += fc->have;
		fc->have = fc->used = 0;
		if (fc->off >= fc->len)
			return NULL;
		do
			n = pread(fc->fd, fc->buf, fs->chunk, (off_t)fc->off);
		while (n < 0 && errno == EINTR);
		/* the size was checked at open: less now means the file changed */
		if (n < (ssize_t)fs->size || n % fs->size) {
			fs->err = n < 0 ? -errno : -EPROTO;
			fs->err_cpu = cpu;
			fc->len = fc->off;
			return NULL;
		}
		fc->have = (size_t)n;
	}
	p = fc->buf + fc->used;
	fc->used += fs->size;
	return p;
}

static void file_put(void *ctx __unused, int cpu __unused, void *page __unused)
{
}

static uint64_t file_horizon(void *ctx __unused, int cpu __unused)
{
	return UINT64_MAX;	/* everything is on disk */
}

/*
 * file_src_open - open every cpuN.dat: a regular file of whole sub-buffers; a missing
 * one is a CPU that was offline, unless capture.json says events were read there
 */
static int file_src_open(struct file_src *fs, const char *raw, const struct raw_meta *rm,
			 char *errbuf)
{
	char path[PATH_MAX + 64];
	struct stat st;
	int c, fd;

	fs->ncpus = rm->ncpus;
	fs->size = rm->subbuf_size;
	fs->chunk = FILE_CHUNK > fs->size ? FILE_CHUNK / fs->size * fs->size : fs->size;
	fs->cpu = calloc(rm->ncpus, sizeof(*fs->cpu));
	if (!fs->cpu)
		return set_err(errbuf, "out of memory");
	for (c = 0; c < rm->ncpus; c++)
		fs->cpu[c].fd = -1;
	for (c = 0; c < rm->ncpus; c++) {
		struct file_cpu *fc = &fs->cpu[c];

		snprintf(path, sizeof(path), "%s/cpu%d.dat", raw, c);
		fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
		if (fd < 0) {
			if (errno == ENOENT && !rm->loss[c].read_events)
				continue;	/* a CPU that was offline */
			if (errno == ENOENT && fs->accept_damaged)
				continue;	/* check_counts() says what is missing */
			if (errno == ENOENT)
				return set_err(errbuf, "%s is missing, but capture.json says %llu "
					       "events were read on CPU %d: the capture is damaged "
					       "(--accept-damaged analyzes what is there)", path,
					       (unsigned long long)rm->loss[c].read_events, c);
			return set_err(errbuf, "cannot open %s: %s", path, strerror(errno));
		}
		fc->fd = fd;
		if (fstat(fd, &st))
			return set_err(errbuf, "cannot stat %s: %s", path, strerror(errno));
		if (!S_ISREG(st.st_mode))
			return set_err(errbuf, "%s is not a regular file", path);
		if (st.st_size % fs->size)
			return set_err(errbuf, "%s: %lld bytes is not a whole number of %u-byte "
				       "sub-buffers (a truncated file?)", path,
				       (long long)st.st_size, fs->size);
		fc->len = (uint64_t)st.st_size;
		fc->buf = malloc(fs->chunk);
		if (!fc->buf)
			return set_err(errbuf, "out of memory");
		posix_fadvise(fd, 0, 0, POSIX_FADV_SEQUENTIAL);
	}
	return 0;
}

static void file_src_close(struct file_src *fs)
{
	int c;

	for (c = 0; fs->cpu && c < fs->ncpus; c++) {
		if (fs->cpu[c].fd >= 0)
			close(fs->cpu[c].fd);
		free(fs->cpu[c].buf);
	}
	free(fs->cpu);
	fs->cpu = NULL;
}

struct offline {
	struct raw_meta rm;
	char *header, *formats[EV_NR];
	size_t hlen;
	struct tep_handle *tep;
	struct decoder dec;
	struct result res;
	bool res_ready;
	struct ival_writer *iw;
	struct file_src fs;
	bool accept_damaged;		/* a cpuN.dat short of events: analyze what is there */
};

static int offline_load(struct offline *o, const char *raw, const char *ivals, char *errbuf)
{
	struct comm_entry *comms = NULL;
	char path[PATH_MAX + 64];
	char err[ERRBUF_LEN];
	unsigned int dsize;
	size_t n, i;
	int ret, bad;

	if (raw_load_meta(raw, &o->rm, errbuf) ||
	    raw_load_formats(raw, &o->header, &o->hlen, o->formats, errbuf))
		return -EINVAL;
	o->tep = decoder_new_tep(o->header, o->hlen, o->formats, &dsize, &bad, err);
	if (!o->tep) {
		if (bad < 0)
			return set_err(errbuf, "%s/header_page: %s", raw, err);
		return set_err(errbuf, "%s/formats/%s/%s: %s", raw, ev_names[bad].system,
			       ev_names[bad].name, err);
	}
	if (dsize + SUBBUF_HDR != o->rm.subbuf_size)
		return set_err(errbuf, "%s/header_page: sub-buffers of %u bytes, but capture.json "
			       "says %u", raw, dsize + SUBBUF_HDR, o->rm.subbuf_size);
	if (decoder_init(&o->dec, o->tep, err))
		return set_err(errbuf, "%s/formats/%s", raw, err);
	if (ivals && o->rm.interval_ns) {
		o->iw = intervals_csv_open(ivals, &o->res);
		if (!o->iw)
			return set_err(errbuf, "cannot create %s: %s", ivals, strerror(errno));
	}
	if (result_init(&o->res, o->rm.ncpus, o->rm.interval_origin_ns, o->rm.interval_ns,
			o->iw ? intervals_csv_cb : NULL, o->iw))
		return set_err(errbuf, "out of memory");
	o->res_ready = true;
	o->res.start_ts = o->rm.start_ts;
	o->res.meta = o->rm.meta;
	/* the slowest events and stacks as the live capture kept them */
	if (result_detail(&o->res))
		return set_err(errbuf, "out of memory");
	o->res.end_ts = o->rm.end_ts;
	memcpy(o->res.loss, o->rm.loss, o->rm.ncpus * sizeof(*o->res.loss));
	snprintf(path, sizeof(path), "%s/symbols", raw);
	ret = symtab_load(&o->res.syms, path, err);
	if (ret)
		return set_err(errbuf, "%s", err);
	o->res.m.barrier_func = symtab_addr(&o->res.syms, "wq_barrier_func");
	if (raw_load_comms(raw, &comms, &n, errbuf))
		return -EINVAL;
	for (i = 0; i < n; i++)
		match_comm(&o->res.m, comms[i].pid, comms[i].comm, strlen(comms[i].comm));
	free(comms);
	return file_src_open(&o->fs, raw, &o->rm, errbuf);
}

/* the capture's time, with a margin: a record outside it is damage */
#define WINDOW_SLACK_NS NSEC_PER_SEC
/* the least silence allowed between the capture's first or last event and its ends */
#define SPAN_SLACK_NS (10 * NSEC_PER_SEC)

/*
 * check_counts - each cpuN.dat holds at least the events capture.json says were read on
 * its CPU: fewer is a file emptied or cut short by whole sub-buffers, which no check of
 * a sub-buffer sees. An error, or with accept_damaged a warning, the missing events
 * counted as lost (the figures say LOSSY).
 */
static int check_counts(struct offline *o, const struct merger *mg, const char *raw,
			char *errbuf)
{
	uint64_t have, said;
	int c;

	for (c = 0; c < o->rm.ncpus; c++) {
		have = mg->cpu[c].records;
		said = o->rm.loss[c].read_events;
		if (have >= said)
			continue;
		if (!o->accept_damaged)
			return set_err(errbuf, "%s/cpu%d.dat holds %llu events, but capture.json says "
				       "%llu were read on CPU %d: the file was emptied or cut short; "
				       "the capture is damaged (--accept-damaged analyzes what is "
				       "there, the missing events counted as lost)", raw, c,
				       (unsigned long long)have, (unsigned long long)said, c);
		warn_msg("%s/cpu%d.dat holds %llu events, but capture.json says %llu were read on "
			 "CPU %d: analyzed as it is (--accept-damaged), the %llu missing events "
			 "counted as lost", raw, c, (unsigned long long)have,
			 (unsigned long long)said, c, (unsigned long long)(said - have));
		o->res.loss[c].missed_in_band += said - have;
	}
	return 0;
}

/*
 * check_span - capture.json's start_ts and end_ts against the pages: the capture traced
 * from start to end, so its first and last events lie near them - nearer than the
 * longest silence inside the capture (four times it, and at least 10 s: a quiet CPU
 * may say nothing for a while). An end_ts moved an hour on made every rate 4400 times
 * too small. With accept_damaged, a warning: the times are taken as the file says.
 */
static int check_span(struct offline *o, const struct merger *mg, const char *raw,
		      char *errbuf)
{
	uint64_t allow = mg->max_gap * 4, head, tail;
	const char *field;

	if (!mg->first_ts)
		return 0;	/* no event: nothing tells the times */
	if (allow < SPAN_SLACK_NS)
		allow = SPAN_SLACK_NS;
	if (allow < 2 * o->rm.interval_ns)
		allow = 2 * o->rm.interval_ns;
	head = mg->first_ts > o->rm.start_ts ? mg->first_ts - o->rm.start_ts : 0;
	tail = o->rm.end_ts > mg->last_ts ? o->rm.end_ts - mg->last_ts : 0;
	if (head <= allow && tail <= allow)
		return 0;
	field = tail > allow ? "end_ts" : "start_ts";
	if (!o->accept_damaged)
		return set_err(errbuf, "malformed file %s/capture.json: field '%s' lies %.3f s "
			       "%s the capture's %s event, more than the %.3f s it may (four times "
			       "its longest silence, %.3f s): the file was changed, or belongs to "
			       "another capture (--accept-damaged takes the times as they are)",
			       raw, field, (tail > allow ? tail : head) / 1e9,
			       tail > allow ? "after" : "before", tail > allow ? "last" : "first",
			       allow / 1e9, mg->max_gap / 1e9);
	warn_msg("%s/capture.json: '%s' lies %.3f s from the capture's events: analyzed as the "
		 "file says (--accept-damaged)", raw, field, (tail > allow ? tail : head) / 1e9);
	return 0;
}

static int offline_run(struct offline *o, const char *raw, char *errbuf)
{
	const struct merge_bad *b;
	struct merger mg;
	int ret = 0;

	if (merger_init(&mg, o->rm.ncpus, &o->dec, &o->res, &(struct page_src){
				.get = file_get, .put = file_put, .horizon = file_horizon,
				.ctx = &o->fs, .size = o->rm.subbuf_size,
				.ts_lo = o->rm.start_ts > WINDOW_SLACK_NS ?
					 o->rm.start_ts - WINDOW_SLACK_NS : 0,
				.ts_hi = o->rm.end_ts < UINT64_MAX - WINDOW_SLACK_NS ?
					 o->rm.end_ts + WINDOW_SLACK_NS : UINT64_MAX,
				.strict = true }))
		return set_err(errbuf, "out of memory");
	merger_run(&mg);
	b = &mg.first_bad;
	if (mg.err)
		ret = set_err(errbuf, "%s/cpu%d.dat: sub-buffer %llu (file offset %llu): %s; the "
			      "capture is damaged", raw, b->cpu, (unsigned long long)b->subbuf,
			      (unsigned long long)(b->subbuf * o->rm.subbuf_size + b->offset),
			      b->what);
	else if (o->fs.err)
		ret = set_err(errbuf, "%s/cpu%d.dat changed while it was read: %s", raw,
			      o->fs.err_cpu, strerror(-o->fs.err));
	if (!ret)
		ret = check_counts(o, &mg, raw, errbuf);
	if (!ret)
		ret = check_span(o, &mg, raw, errbuf);
	merger_free(&mg);
	if (!ret)
		result_finish(&o->res);
	return ret;
}

/* excerpt_say - what an excerpt of record --keep-worst is around */
static void excerpt_say(const struct raw_meta *rm, FILE *f)
{
	const struct raw_excerpt *e = &rm->excerpt;
	char d[24];

	fprintf(f, "deferbench: an excerpt kept by record --keep-worst: %.3f s of trace around "
		"the worst %s delay, %s on CPU %d (raise at %llu ns, entry at %llu ns)\n",
		(rm->end_ts - rm->start_ts) / 1e9, e->vector, fmt_ns(e->delay_ns, d, sizeof(d)),
		e->cpu, (unsigned long long)e->raise_ns, (unsigned long long)e->entry_ns);
}

static void offline_free(struct offline *o)
{
	int k;

	file_src_close(&o->fs);
	if (o->iw)
		intervals_csv_close(o->iw);
	if (o->res_ready)
		result_free(&o->res);
	decoder_free(&o->dec);
	if (o->tep)
		tep_free(o->tep);
	free(o->header);
	for (k = 0; k < EV_NR; k++)
		free(o->formats[k]);
	free(o->rm.loss);
}

int offline_analyze(const char *raw, const char *staging, bool accept_damaged,
		    const struct table_opts *table, char *errbuf)
{
	struct offline *o = calloc(1, sizeof(*o));
	char ivals[PATH_MAX];
	int ret;

	if (!o)
		return set_err(errbuf, "out of memory");
	o->accept_damaged = o->fs.accept_damaged = accept_damaged;
	if (staging)
		snprintf(ivals, sizeof(ivals), "%s/intervals.csv", staging);
	ret = offline_load(o, raw, staging ? ivals : NULL, errbuf);
	if (!ret)
		ret = offline_run(o, raw, errbuf);
	if (!ret) {
		int r = intervals_csv_close(o->iw);

		o->iw = NULL;
		if (o->rm.is_excerpt)
			excerpt_say(&o->rm, stdout);
		output_print(&o->res, stdout, table);
		fflush(stdout);
		if (!r && staging)
			r = result_write_dir(&o->res, staging);
		if (r)
			ret = set_err(errbuf, "cannot write results: %s", strerror(-r));
	}
	offline_free(o);
	free(o);
	return ret;
}
