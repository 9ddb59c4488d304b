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
#include <sys/mman.h>
#include <sys/stat.h>
#include <traceevent/event-parse.h>
#include <unistd.h>

#include "decode.h"
#include "result_files.h"
#include "merge.h"
#include "output.h"
#include "raw.h"
#include "util.h"

/*
 * A page source over cpuN.dat files, mapped whole: sub-buffers are read in place,
 * without copying, in sub-buffer-size steps.
 */
struct file_src {
	unsigned char **map;
	size_t *len, *off;
	unsigned int size;
	int err;
};

static void *file_get(void *ctx, int cpu)
{
	struct file_src *fs = ctx;
	void *p;

	if (!fs->map[cpu] || fs->off[cpu] >= fs->len[cpu])
		return NULL;
	if (fs->len[cpu] - fs->off[cpu] < fs->size) {
		fs->err = -EPROTO;	/* a truncated file */
		fs->off[cpu] = fs->len[cpu];
		return NULL;
	}
	p = fs->map[cpu] + fs->off[cpu];
	fs->off[cpu] += fs->size;
	return p;
}

static void file_put(void *ctx __unused, int cpu __unused, void *page __unused)
{
}

static uint64_t file_horizon(void *ctx __unused, int cpu __unused)
{
	return UINT64_MAX;	/* everything is on disk */
}

static int file_src_open(struct file_src *fs, const char *raw, int ncpus, unsigned int size,
			 char *errbuf)
{
	char path[PATH_MAX + 64];
	struct stat st;
	int c, fd;

	fs->size = size;
	fs->map = calloc(ncpus, sizeof(*fs->map));
	fs->len = calloc(ncpus, sizeof(*fs->len));
	fs->off = calloc(ncpus, sizeof(*fs->off));
	if (!fs->map || !fs->len || !fs->off)
		return set_err(errbuf, "out of memory");
	for (c = 0; c < ncpus; c++) {
		snprintf(path, sizeof(path), "%s/cpu%d.dat", raw, c);
		fd = open(path, O_RDONLY | O_CLOEXEC);
		if (fd < 0) {
			if (errno == ENOENT)
				continue;	/* a CPU that was offline */
			return set_err(errbuf, "cannot open %s: %s", path, strerror(errno));
		}
		if (fstat(fd, &st)) {
			close(fd);
			return set_err(errbuf, "cannot stat %s: %s", path, strerror(errno));
		}
		fs->len[c] = st.st_size;
		if (st.st_size) {
			fs->map[c] = mmap(NULL, st.st_size, PROT_READ, MAP_PRIVATE | MAP_POPULATE, fd, 0);
			if (fs->map[c] == MAP_FAILED) {
				fs->map[c] = NULL;
				close(fd);
				return set_err(errbuf, "cannot map %s: %s", path, strerror(errno));
			}
			madvise(fs->map[c], st.st_size, MADV_SEQUENTIAL);
		}
		close(fd);
	}
	return 0;
}

static void file_src_close(struct file_src *fs, int ncpus)
{
	int c;

	for (c = 0; fs->map && c < ncpus; c++)
		if (fs->map[c])
			munmap(fs->map[c], fs->len[c]);
	free(fs->map);
	free(fs->len);
	free(fs->off);
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
};

static int offline_load(struct offline *o, const char *raw, const char *ivals, char *errbuf)
{
	struct comm_entry *comms = NULL;
	char path[PATH_MAX + 64];
	size_t n, i;
	int ret;

	if (raw_load_meta(raw, &o->rm, errbuf) ||
	    raw_load_formats(raw, &o->header, &o->hlen, o->formats, errbuf))
		return -EINVAL;
	o->tep = decoder_new_tep(o->header, o->hlen, o->formats, errbuf);
	if (!o->tep || decoder_init(&o->dec, o->tep, errbuf))
		return -EINVAL;
	if (ivals && o->rm.interval_ns) {
		o->iw = ival_writer_open(ivals, &o->res);
		if (!o->iw)
			return set_err(errbuf, "cannot create %s: %s", ivals, strerror(errno));
	}
	if (result_init(&o->res, o->rm.ncpus, o->rm.interval_origin_ns, o->rm.interval_ns,
			o->iw ? ival_writer_cb : NULL, o->iw))
		return set_err(errbuf, "out of memory");
	o->res_ready = true;
	o->res.start_ts = o->rm.start_ts;
	o->res.meta = o->rm.meta;
	o->res.end_ts = o->rm.end_ts;
	memcpy(o->res.loss, o->rm.loss, o->rm.ncpus * sizeof(*o->res.loss));
	snprintf(path, sizeof(path), "%s/symbols", raw);
	ret = symtab_load(&o->res.syms, path);
	if (ret)
		return set_err(errbuf, "cannot read %s: %s", path, strerror(-ret));
	o->res.m.barrier_func = symtab_addr(&o->res.syms, "wq_barrier_func");
	if (raw_load_comms(raw, &comms, &n, errbuf))
		return -EINVAL;
	for (i = 0; i < n; i++)
		match_comm(&o->res.m, comms[i].pid, comms[i].comm, strlen(comms[i].comm));
	free(comms);
	return file_src_open(&o->fs, raw, o->rm.ncpus, o->rm.subbuf_size, errbuf);
}

static int offline_run(struct offline *o, char *errbuf)
{
	struct merger mg;

	if (merger_init(&mg, o->rm.ncpus, &o->dec, &o->res,
			&(struct page_src){ file_get, file_put, file_horizon, &o->fs }))
		return set_err(errbuf, "out of memory");
	merger_run(&mg);
	merger_free(&mg);
	if (o->fs.err)
		return set_err(errbuf, "a cpuN.dat file is truncated or unreadable: %s",
			       strerror(-o->fs.err));
	result_finish(&o->res);
	return 0;
}

static void offline_free(struct offline *o)
{
	int k;

	file_src_close(&o->fs, o->rm.ncpus);
	if (o->iw)
		ival_writer_close(o->iw);
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

int offline_analyze(const char *raw, const char *staging, char *errbuf)
{
	struct offline *o = calloc(1, sizeof(*o));
	char ivals[PATH_MAX];
	int ret;

	if (!o)
		return set_err(errbuf, "out of memory");
	if (staging)
		snprintf(ivals, sizeof(ivals), "%s/intervals.csv", staging);
	ret = offline_load(o, raw, staging ? ivals : NULL, errbuf);
	if (!ret)
		ret = offline_run(o, errbuf);
	if (!ret) {
		int r = ival_writer_close(o->iw);

		o->iw = NULL;
		result_print(&o->res, stdout);
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
