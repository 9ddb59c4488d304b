/* SPDX-License-Identifier: GPL-2.0 */
/*
 * capture_int.h - what the parts of the live capture share: the capture itself, its
 * per-CPU readers, and the functions each part gives the others.
 *
 *   capture.c   the lifecycle (capture.h): setup order, start, stop, the result
 *   instance.c  tracefs: the mount, the private instance, the events and their filters
 *   readers.c   one reader thread per CPU, their page queues, the analysis thread
 *   comms.c     task names from /proc, for the workers and BH holders the events name
 */
#ifndef DEFERBENCH_CAPTURE_INT_H
#define DEFERBENCH_CAPTURE_INT_H

/* private to bench/capture/: its files define DEFERBENCH_ALLOW_CAPTURE_INT_H before including it */
#ifndef DEFERBENCH_ALLOW_CAPTURE_INT_H
#error "capture_int.h is private to bench/capture/; include its public header"
#endif

#include <limits.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "capture.h"
#include "decode.h"
#include "map.h"
#include "merge.h"
#include "raw.h"
#include "result_files.h"

struct tracefs_instance;
struct tracefs_cpu;
struct tep_handle;

struct page_buf {
	struct page_buf *next;
	unsigned char data[];
};

struct reader {
	struct capture *c;
	int cpu;
	struct tracefs_cpu *tcpu;
	pthread_t thread;
	bool started;
	int raw_fd;
	pthread_mutex_t lock;		/* protects the queue and the free list */
	struct page_buf *head, *tail, *free_list;
	unsigned int queued, max_queued;
	_Atomic uint64_t drained_until;
	_Atomic bool done;
	int err;
	double cpu_s;			/* this thread's CPU time, at its end */
};

enum capture_state { CAP_NEW, CAP_RUNNING, CAP_STOPPED };

struct capture {
	struct capture_opts opts;
	enum capture_state state;
	char name[64];
	char inst_path[PATH_MAX];	/* its directory, as journaled (owned.h) */
	struct tracefs_instance *inst;
	char *mounted_at;		/* tracefs mount point we made, to undo */
	int ncpus;
	unsigned int subbuf_size;
	struct reader *rd;
	struct tep_handle *tep;
	struct decoder dec;
	struct merger mg;
	bool mg_ready;
	bool enabled[EV_NR];		/* the events instance_events_enable turned on */
	bool paused;			/* capture_pause: they are off now */
	uint64_t pauses;
	struct result res;
	bool res_ready;
	struct ival_writer *iw;
	pthread_t analyser;
	bool analyser_started;
	double analyser_cpu_s;
	pthread_mutex_t lock;
	pthread_cond_t cond;
	atomic_bool stopping;
	char *raw_dir;
	/* names the analysis thread read from /proc (resolve_comm), for raw/comms */
	struct map comm_tried;
	struct comm_entry *named;
	size_t nnamed, named_cap;
	/* record --stacks: the stacktrace trigger on softirq_entry, as journaled */
	char trigger_path[PATH_MAX + 64];
	char trigger[160];		/* "stacktrace if vec == 3 || ..."; "" when not set */
	bool trigger_on;		/* in the kernel now (a paused capture removes it) */
	/* record --keep-worst (keep.c): the pages around each vector's worst delay */
	struct keep *keep;
	char *header;			/* the formats and comms the excerpts are written with */
	size_t hlen;
	char *formats[EV_NR];
	struct comm_entry *comms;
	size_t ncomms;
};

/* instance.c */
/*
 * instance_tracefs_ready - find tracefs, or mount it at /sys/kernel/tracing and remember to
 * unmount it at the end (libtracefs would mount it silently and leave it mounted).
 */
int instance_tracefs_ready(struct capture *c, char *errbuf);
/* instance_read_formats - header page and event formats from tracefs; absent events stay NULL */
int instance_read_formats(struct capture *c, char **header, size_t *hlen, char *formats[EV_NR],
			  char *errbuf);
/* instance_setup - the private instance, tracing off, clock mono, overwrite off, buffer size */
int instance_setup(struct capture *c, char *errbuf);
/* instance_events_enable - the events of formats, with the scheduler filter unless sched_all */
int instance_events_enable(struct capture *c, char *const formats[EV_NR], char *errbuf);
/*
 * instance_stacks_enable - the stacktrace trigger on softirq_entry for opts.stack_vecs,
 * journaled; a kernel that refuses it is said and the capture goes on without stacks
 * (opts.stack_vecs 0)
 */
void instance_stacks_enable(struct capture *c);
/* instance_events_set - the events instance_events_enable enabled, on or off */
int instance_events_set(struct capture *c, bool on);
/* instance_loss_read - each CPU's loss counters from the instance's per_cpu/cpuN/stats */
void instance_loss_read(struct capture *c);
/*
 * instance_free - tracing off, the instance removed, tracefs unmounted if we mounted it;
 * -errno when the instance stays
 */
int instance_free(struct capture *c);

/* readers.c */
/* readers_open - a reader per online CPU, with its raw file when raw_dir is set */
int readers_open(struct capture *c, char *errbuf);
/* readers_page_src - the merger's page source: the readers' queues */
struct page_src readers_page_src(struct capture *c);
/* readers_start - the readers' and the analysis thread; 0 or a pthread error number */
int readers_start(struct capture *c, const pthread_attr_t *attr);
/*
 * readers_stop - wake the threads, wait for the readers' final drain and the analysis
 * thread's last merge; 0 or the first reader's -errno
 */
int readers_stop(struct capture *c);
/* readers_free - the trace buffers' files, the raw files and the pages */
void readers_free(struct capture *c);

/* keep.c: record --keep-worst */
struct keep;
/*
 * keep_new - follow the worst delay of each vector of m's detail.worst_vecs and keep the
 * sub-buffers (size bytes) from margin_ns before its raise to margin_ns after its entry;
 * NULL on ENOMEM
 */
struct keep *keep_new(int ncpus, unsigned int size, uint64_t margin_ns, const struct matcher *m);
/* keep_page_src - src, with every sub-buffer the merger is done with offered to k first */
struct page_src keep_page_src(struct keep *k, const struct page_src *src);
/*
 * keep_write - one raw capture per vector under dir (dir/VECTOR/raw, read by analyze):
 * its sub-buffers, c's formats, comms and symbols; 0 or -errno
 */
int keep_write(struct keep *k, struct capture *c, const char *dir);
void keep_free(struct keep *k);

/* comms.c */
/*
 * comms_resolve - the matcher's comm_resolve, in the analysis thread: a task's name from
 * /proc, each pid tried once, kept for raw/comms
 */
bool comms_resolve(void *ctx, int pid, char *comm);
/* comms_snapshot - kernel workers and ksoftirqd threads alive now (*out malloc'ed) */
int comms_snapshot(struct comm_entry **out, size_t *n);

#endif
