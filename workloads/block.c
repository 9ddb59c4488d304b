// SPDX-License-Identifier: GPL-2.0
/*
 * block.c - a program saving its data: buffered writes, each followed by fsync (or
 * fdatasync, sync_file_range or syncfs), at a fixed rate, into a file that wraps around.
 *
 * fsync drives the block-layer (kblockd) and filesystem (ext4, jbd2) deferred work, and
 * writeback's bandwidth updates (a delayed item at most every 200 ms) that nobody waits
 * for. syncfs hands the writing to the flusher: two wb_workfn items on the writeback
 * workqueue per call, which the caller waits for, so writeback's pool is on the path.
 * Files live in <dir>/deferbench-block-<pid>-XXXXXX, removed at teardown; a crashed run
 * leaves a directory with that recognisable prefix.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/vfs.h>
#include <unistd.h>
#include <linux/magic.h>

#include "names.h"
#include "outw.h"
#include "owned.h"
#include "wl_thread.h"
#include "workload.h"
#include "msg.h"
#include "file.h"
#include "sys.h"

enum { SYNC_FSYNC, SYNC_FDATASYNC, SYNC_RANGE, SYNC_FS };
static const char *const sync_names[] = {
	"fsync", "fdatasync", "sync_file_range", "syncfs", NULL
};

struct block_cfg {
	uint64_t rate;
	uint64_t size;
	uint64_t file_size;
	int sync;
	int prio;
	char dir[WL_STR_MAX];
	cpu_set_t cpus;
};

struct block_priv {
	char path[PATH_MAX];	/* the temporary directory, "" when none */
	int fd;
	char *buf;
	struct wl_thread thread;
	int m_op, m_sync;
	int c_ops, c_bytes, c_late;
	uint64_t ops, late;
};

static const struct opt_desc block_options[] = {
	OPT_U64(0, NULL, block_cfg, rate, "N", 1, 10000,
		"write+sync operations per second", .key = "rate", .def = "100"),
	OPT_SIZE(0, NULL, block_cfg, size, 512, 64 << 20,
		 "bytes written per operation", .key = "size", .def = "4k"),
	OPT_SIZE(0, NULL, block_cfg, file_size, 1 << 20, 16ULL << 30,
		 "the file wraps around at this size", .key = "file_size", .def = "64M"),
	OPT_ENUM(0, NULL, block_cfg, sync, "WORD", sync_names, ARRAY_SIZE(sync_names) - 1,
		 "how each write is made durable (sync_file_range: data of the range "
		 "only; syncfs: the whole filesystem, written by the writeback "
		 "workqueue's flusher)", .key = "sync", .def = "fsync"),
	OPT_INT(0, NULL, block_cfg, prio, "N", 0, 99,
		"SCHED_FIFO priority of the writer; 0 = SCHED_OTHER",
		.key = "priority", .def = "0"),
	OPT_STRING_BUF(0, NULL, block_cfg, dir, "TEXT",
		       "where the temporary directory goes, on a disk filesystem (not tmpfs); "
		       "auto: /var/tmp, else /tmp, whichever is on one",
		       .key = "dir", .def = "auto"),
	OPT_CPUSET(0, NULL, block_cfg, cpus,
		   "CPUs the writer may run on", .key = "cpus", .def = "all"),
	OPT_END(),
};

/* fill_random - xorshift64 data from the seed: nothing for a filesystem to compress */
static void fill_random(char *buf, size_t len, uint64_t seed)
{
	uint64_t x = seed ? seed : 0x9e3779b97f4a7c15ULL;
	size_t i;

	for (i = 0; i + 8 <= len; i += 8) {
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		memcpy(buf + i, &x, 8);
	}
	memset(buf + i, 0x5a, len - i);
}

/* the directories dir = auto tries, in order */
static const char *const auto_dirs[] = { "/var/tmp", "/tmp", NULL };

/*
 * usable - dir can hold the run's files: a directory of a disk filesystem (on tmpfs
 * fsync does no I/O), outside the system's directories (/etc, /usr, ...), writable.
 * 0, or -EXDEV (tmpfs), -EPERM (a system directory: *sys names it), -EROFS, -errno.
 */
static int usable(const char *dir, const char **sys)
{
	struct statfs sf;
	int fd, e;

	*sys = NULL;
	fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	*sys = outw_system_dir(fd, false);
	e = fstatfs(fd, &sf) ? -errno : 0;
	close(fd);
	if (e)
		return e;
	if (sf.f_type == TMPFS_MAGIC || sf.f_type == RAMFS_MAGIC)
		return -EXDEV;		/* first: /dev/shm is tmpfs before it is /dev */
	if (*sys)
		return -EPERM;
	if (sf.f_flags & ST_RDONLY)
		return -EROFS;
	return access(dir, W_OK | X_OK) ? -errno : 0;
}

/* auto_dir - the first of auto_dirs that is usable, or NULL */
static const char *auto_dir(void)
{
	const char *const *d, *sys;

	for (d = auto_dirs; *d; d++)
		if (!usable(*d, &sys))
			return *d;
	return NULL;
}

/*
 * check_dir - option dir (or auto's choice) can hold the files; the message names a
 * directory that can. Reads only: --dry-run calls it too.
 */
static int check_dir(const char *dir, char *errbuf)
{
	const char *ok = auto_dir(), *sys;
	int e;

	if (!strcmp(dir, "auto"))
		return ok ? 0 : errno_msg(errbuf, -EXDEV, "block option 'dir' = auto: neither "
					  "/var/tmp nor /tmp is a writable directory on a disk "
					  "filesystem (fsync does no block I/O on tmpfs); set dir "
					  "to one");
	e = usable(dir, &sys);
	switch (e) {
	case 0:
		return 0;
	case -EPERM:
		if (sys)
			return errno_msg(errbuf, e, "block option 'dir': %s is or lies in %s, a "
					 "system directory: deferbench writes no files there; use "
					 "a directory of your own on a disk filesystem (%s%s)", dir,
					 sys, ok ? "dir=" : "none of /var/tmp, /tmp is one",
					 ok ? ok : "");
		break;
	case -EXDEV:
		return errno_msg(errbuf, e, "block option 'dir': %s is on tmpfs/ramfs, where "
				 "fsync does no block I/O; use a directory on a disk filesystem "
				 "(%s%s)", dir, ok ? "dir=" : "none of /var/tmp, /tmp is one",
				 ok ? ok : "");
	case -EROFS:
		return errno_msg(errbuf, e, "block option 'dir': %s is on a read-only "
				 "filesystem; use another directory (%s%s)", dir,
				 ok ? "dir=" : "none of /var/tmp, /tmp is one", ok ? ok : "");
	}
	return errno_msg(errbuf, e, "block option 'dir': %s: %s", dir, strerror(-e));
}

static int block_check(const struct wl_run *w, char *errbuf)
{
	const struct block_cfg *c = w->cfg;

	return check_dir(c->dir, errbuf);
}

/*
 * make_dir - the run's own directory, in a dir check_dir took; dir = auto becomes the
 * directory chosen, so that workload.json records where the files were
 */
static int make_dir(struct block_cfg *c, struct block_priv *p, char *errbuf)
{
	int e = check_dir(c->dir, errbuf);

	if (e)
		return e;
	if (!strcmp(c->dir, "auto"))
		snprintf(c->dir, sizeof(c->dir), "%s", auto_dir());
	if (snprintf(p->path, sizeof(p->path), "%s/" NAME_BLOCK_DIR "%d-XXXXXX", c->dir,
		     (int)getpid()) >= (int)sizeof(p->path))
		return set_err(errbuf, "block option 'dir': path too long");
	/* journaled before it exists: after a SIGKILL, 'deferbench restore' removes it */
	e = -owned_mkdtemp(p->path);
	if (e) {
		set_err(errbuf, "block: cannot create a directory in %s: %s", c->dir,
			strerror(e));
		p->path[0] = '\0';
		return -e;
	}
	return 0;
}

static int block_setup(struct wl_run *w, char *errbuf)
{
	struct block_cfg *c = w->cfg;
	struct block_priv *p = w->priv;
	char file[PATH_MAX + 16];
	int ret, e;

	p->fd = -1;
	if (c->size > c->file_size)
		return set_err(errbuf, "block option 'size' (%llu) is above 'file_size' (%llu)",
			       (unsigned long long)c->size, (unsigned long long)c->file_size);
	ret = make_dir(c, p, errbuf);
	if (ret)
		return ret;
	snprintf(file, sizeof(file), "%s/data", p->path);
	p->fd = open(file, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (p->fd < 0) {
		e = errno;
		set_err(errbuf, "block: cannot create %s: %s", file, strerror(e));
		return -e;
	}
	p->buf = malloc(c->size);
	if (!p->buf) {
		set_err(errbuf, "block: no memory for a %llu-byte buffer",
			(unsigned long long)c->size);
		return -ENOMEM;
	}
	fill_random(p->buf, c->size, w->seed);
	p->m_op = wl_metric_add(w, "op", "ns",
		"operation due (deadline) -> write and sync both returned; CLOCK_MONOTONIC");
	p->m_sync = wl_metric_add(w, "sync", "ns",
		"fsync/fdatasync/sync_file_range/syncfs call -> return; CLOCK_MONOTONIC");
	p->c_ops = wl_counter_add(w, "ops");
	p->c_bytes = wl_counter_add(w, "bytes");
	p->c_late = wl_counter_add(w, "late");
	wl_rate(w, p->c_ops, (double)c->rate);
	return 0;
}

static int do_sync(int fd, int how, off_t off, off_t len)
{
	switch (how) {
	case SYNC_FDATASYNC:
		return fdatasync(fd);
	case SYNC_RANGE:
		return sync_file_range(fd, off, len, SYNC_FILE_RANGE_WAIT_BEFORE |
				       SYNC_FILE_RANGE_WRITE | SYNC_FILE_RANGE_WAIT_AFTER);
	case SYNC_FS:
		return syncfs(fd);
	}
	return fsync(fd);
}

/* block_op - one write + sync at off, recorded or not; 0 or -errno after wl_fail */
static int block_op(struct wl_run *w, off_t off, uint64_t deadline, bool record)
{
	struct block_cfg *c = w->cfg;
	struct block_priv *p = w->priv;
	uint64_t t1, t2;

	if (pwrite(p->fd, p->buf, c->size, off) != (ssize_t)c->size) {
		wl_fail(w, -errno, "block: write: %s", errno ? strerror(errno) : "short write");
		return -EIO;
	}
	t1 = now_ns();
	if (do_sync(p->fd, c->sync, off, (off_t)c->size)) {
		wl_fail(w, -errno, "block: %s: %s", sync_names[c->sync], strerror(errno));
		return -EIO;
	}
	t2 = now_ns();
	if (!record)
		return 0;
	wl_record(w, p->m_sync, deadline, t2 - t1);
	wl_record(w, p->m_op, deadline, pace_late(deadline, t2));
	return 0;
}

static void *block_thread(void *arg)
{
	struct wl_run *w = arg;
	struct block_cfg *c = w->cfg;
	struct block_priv *p = w->priv;
	double period = period_from_rate((double)c->rate);
	uint64_t deadline;
	off_t off = 0;
	struct pace pc;
	bool in;

	pace_init(&pc, now_ns(), period);
	while (!wl_stopping(w)) {
		deadline = pace_deadline(&pc, pc.k);
		if (wl_sleep_until(deadline) == -EINTR)
			continue;
		/* stopped while asleep: this deadline lies past the window's end */
		if (wl_stopping(w))
			break;
		pc.k++;
		in = wl_in_window(w, deadline);
		if (in && pace_late(deadline, now_ns()) > (uint64_t)period)
			p->late++;
		if (block_op(w, off, deadline, in))
			break;
		p->ops += in;
		off += (off_t)c->size;
		if ((uint64_t)off + c->size > c->file_size)
			off = 0;
	}
	return NULL;
}

static int block_start(struct wl_run *w, char *errbuf)
{
	struct block_cfg *c = w->cfg;
	struct block_priv *p = w->priv;
	struct wl_sched s = {
		.policy = c->prio ? SCHED_FIFO : SCHED_OTHER,
		.prio = c->prio,
		.slack_ns = 1,
	};

	return wl_thread_start(&p->thread, "db-block", block_thread, w, &s, &c->cpus, errbuf);
}

static void block_stop(struct wl_run *w)
{
	struct block_cfg *c = w->cfg;
	struct block_priv *p = w->priv;
	struct wl_metrics *m = &w->metrics;

	wl_thread_join(&p->thread);
	m->counter[p->c_ops].value = (double)p->ops;
	m->counter[p->c_bytes].value = (double)p->ops * (double)c->size;
	m->counter[p->c_late].value = (double)p->late;
}

static void block_teardown(struct wl_run *w)
{
	struct block_priv *p = w->priv;
	int ret;

	if (p->fd >= 0)
		close(p->fd);
	p->fd = -1;
	free(p->buf);
	p->buf = NULL;
	if (p->path[0]) {
		ret = path_rm_rf(p->path);
		if (ret)
			warn_msg("block: cannot remove %s: %s", p->path, strerror(-ret));
		else
			owned_forget(OWN_TMPDIR, p->path);
		p->path[0] = '\0';
	}
}

/*
 * what compare judges block by: a write + sync as the application sees it, and the wait
 * of the two workqueues it drives, each alone. kblockd (per-CPU, high priority) runs a
 * hundred items a second here; writeback (unbound, WQ_SYSFS: its nice and cpumask are
 * what a tuner changes) about five with fsync, two hundred with syncfs (default.ini).
 * Pooled, kblockd's count hid writeback's pool: the unbound cpumask on CPU 0 moved
 * writeback's wait p90 by x3.7 and the pooled p90 by x1.00 (default.ini, 16 blocks).
 * No writeback p99: with fsync it has too few samples a run to judge.
 */
static const struct wl_work block_kblockd_work = {
	"kblockd", "kblockd work items (block-layer queue runs): queue_work -> execute_start",
	{ "wq:kblockd:*" }, 1,
};
static const struct wl_work block_writeback_work = {
	"writeback", "writeback work items (flusher, bandwidth updates): queue_work -> "
	"execute_start",
	{ "wq:writeback:*" }, 1,
};
static const struct wl_work *const block_work[] = {
	&block_kblockd_work, &block_writeback_work, NULL
};

static const char *const block_primary[] = {
	"workload:op:p50", "workload:op:p90", "workload:op:p99",
	"work:kblockd:delay:p50", "work:kblockd:delay:p90",
	"work:writeback:delay:p50", "work:writeback:delay:p90",
	NULL,
};

const struct workload_ops block_workload = {
	.name = "block",
	.help = "buffered writes + fsync at a fixed rate: writeback, kblockd and "
		"filesystem work items",
	.options = block_options,
	.primary = block_primary,
	.work = block_work,
	.cfg_size = sizeof(struct block_cfg),
	.priv_size = sizeof(struct block_priv),
	.check = block_check,
	.setup = block_setup,
	.start = block_start,
	.stop = block_stop,
	.teardown = block_teardown,
};
