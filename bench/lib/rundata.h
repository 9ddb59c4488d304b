/* SPDX-License-Identifier: GPL-2.0 */
/*
 * rundata.h - the result files in memory: a record directory (summary.json,
 * histograms.csv, workload.json, workload-hist.csv) and a run directory (run.json and
 * its cells). Formats: docs/results-format.md. Everything here is read-only input for
 * report and compare; nothing depends on the capture's C structures.
 *
 * Each file is read by the code that writes it (one owner per format):
 *   summary.json, histograms.csv, intervals.csv   bench/output/result_files.h
 *   workload.json, workload-hist.csv             workloads/workload.h
 *   run.json, cell.json, a whole directory       bench/run/rundir.h
 *
 * Histograms are kept as the bucket lists read from the CSVs and turned back into a
 * struct hist on demand (buckets_to_hist), so a run of many cells stays small.
 *
 * Return convention: 0 or -errno with a message in errbuf (ERRBUF_LEN bytes); a loaded
 * struct is released with the matching *_free, which is safe on a zeroed struct.
 */
#ifndef DEFERBENCH_RUNDATA_H
#define DEFERBENCH_RUNDATA_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "hist.h"
#include "common.h"

#define NAME_LEN 64
#define FUNC_LEN 128
#define TEXT_LEN 256
#define META_LEN 4096		/* run metadata: a kernel command line can be long */

enum sirq_metric { SM_DELAY, SM_RUNTIME, SM_NR };
enum wq_metric { WM_DELAY, WM_ACTIVATE_WAIT, WM_WORKER_WAIT, WM_RUNTIME, WM_NR };
extern const char *const record_sirq_metric_names[SM_NR];	/* "delay", "runtime" */
extern const char *const record_wq_metric_names[WM_NR];

struct bucket {
	uint64_t lo, hi, count;
};

struct bucketlist {
	struct bucket *b;
	size_t n, cap;
};

struct sirq_data {
	char vector[NAME_LEN];
	int cpu;			/* -1: all CPUs */
	uint64_t count, ksoftirqd_count, long_runs;
	struct hist_stats st[SM_NR];
	struct bucketlist h[SM_NR];
};

struct wq_data {
	char wq[NAME_LEN];
	char func[FUNC_LEN];
	char pool[NAME_LEN];
	uint64_t count;
	struct hist_stats st[WM_NR];
	struct bucketlist h[WM_NR];
};

/*
 * summary.json's thread_wakeup: sched_wakeup -> sched_switch in of a ksoftirqd thread
 * (one per CPU) or of the kworkers of one worker pool. Statistics only: there are no
 * buckets for it in histograms.csv.
 */
enum wake_kind { WK_KSOFTIRQD, WK_WORKER, WK_NR };
extern const char *const record_wake_kind_names[WK_NR];	/* "ksoftirqd", "worker" */

struct wake_data {
	char name[NAME_LEN];		/* the CPU as text ("0"), or the pool ("unbound10") */
	int cpu;			/* WK_KSOFTIRQD; -1 for a pool */
	struct hist_stats st;
};

/*
 * summary.json's contexts: the delay and runtime of deferred work in each execution
 * context (softirq inline or in ksoftirqd, tasklet, napi_poll, napi_thread, irq_thread,
 * hardirq, workqueue pool kind), with buckets in histograms.csv (kind "context").
 */
struct ctx_data {
	char context[NAME_LEN];		/* "softirq", "napi_thread", ... */
	char name[FUNC_LEN];		/* vector, function, device, thread, irq, pool kind */
	char where[NAME_LEN];		/* "inline", "ksoftirqd", "thread", ... or "" */
	uint64_t count, long_runs;
	uint64_t work, budget_full, budget;	/* napi_poll; 0 elsewhere */
	struct hist_stats st[SM_NR];	/* delay, runtime */
	struct bucketlist h[SM_NR];
};

/*
 * summary.json's softirq_wait: per vector, its delays split into causes (in the file's
 * order, which is the writer's), where they were raised, and the tasks whose
 * BH-disabled sections held it back. Statistics only.
 */
#define WAIT_PARTS_MAX 16
#define WAIT_TASKS_KEPT 64

struct wait_part {
	char name[NAME_LEN];		/* cause ("bh_disabled") or origin ("hardirq") */
	uint64_t delays;		/* delays where it was present */
	uint64_t total_ns;
	struct hist_stats st;		/* causes: the part per delay where present */
};

struct wait_task_data {
	char task[NAME_LEN];
	uint64_t delays, total_ns, max_ns;
};

struct wait_data {
	char vector[NAME_LEN];
	uint64_t delays, delay_ns;
	struct wait_part cause[WAIT_PARTS_MAX];
	size_t ncause;
	struct wait_part origin[WAIT_PARTS_MAX];
	size_t norigin;
	struct wait_task_data task[WAIT_TASKS_KEPT];
	size_t ntask;
};

/*
 * record --slowest and --stacks: summary.json's slowest (flattened: one entry per event)
 * and stacks (per vector, and per call site), and stacks.csv's stacks for flame graphs.
 */
struct slow_data {
	char group[16];			/* "softirq", "workqueue", "context" */
	char name[FUNC_LEN];		/* vector, workqueue, or context name */
	char func[FUNC_LEN];		/* work function, or the context ("napi_thread"); "" */
	char where[NAME_LEN];		/* pool, or where the context ran; "" */
	char metric[16];		/* "delay", "runtime" */
	unsigned int rank;		/* 1: the group's worst */
	uint64_t ns, at_ns, interval;	/* at_ns: trace clock; interval: of intervals.csv */
	double t_s;			/* since the intervals' origin */
	int cpu;			/* -1: unknown */
	char task[NAME_LEN];		/* held BH off, or queued the work; "" */
	char causes[TEXT_LEN];		/* "hardirq 80%, other 20%"; "" */
	char site[FUNC_LEN];		/* where its softirq ran from ("irq exit of X"); "" */
};

struct stackvec_data {
	char vector[NAME_LEN];
	uint64_t entries, with_stack;
	uint64_t delay_ns, stack_delay_ns;	/* the vector's split delay; the stacks' part */
	uint64_t bh_disabled_ns, stack_bh_disabled_ns;	/* the same of bh_disabled */
};

struct site_data {
	char vector[NAME_LEN];
	char how[16];			/* "bh_enable", "irq_exit", "ksoftirqd", "other" */
	char site[FUNC_LEN];
	char path[TEXT_LEN];		/* "site <- caller <- caller" */
	uint64_t count, wait_ns, bh_disabled_ns, run_ns, long_runs, long_run_ns;
};

struct stack_data {
	char vector[NAME_LEN];
	uint64_t count, wait_ns, run_ns, long_run_ns;
	char *folded;			/* "outermost;...;innermost", malloc'ed */
};

struct wl_metric_data {
	char name[NAME_LEN];
	char unit[16];
	char desc[TEXT_LEN];
	struct hist_stats st;
	struct bucketlist h;
};

struct kv {
	char key[NAME_LEN];
	char val[TEXT_LEN];
};

/*
 * A workload's deferred work, wherever the kernel ran it (workload.json "work"): the
 * groups that carry it, as patterns of group ids - "softirq:NET_RX",
 * "context:napi_thread:*", "wq:kblockd:*" (fnmatch) - whose histograms are merged into
 * one metric, work:<name>:<delay|runtime>. Under threaded NAPI the NET_RX work moves
 * from the softirq to the napi/ threads; the work metric follows it. Members must not
 * overlap (a softirq vector and its softirq contexts are the same samples).
 */
#define WORK_MAX 4
#define WORK_MEMBERS 8
struct wl_work {
	char name[NAME_LEN];
	char desc[TEXT_LEN];
	char member[WORK_MEMBERS][NAME_LEN];
	size_t nmember;
};

/* Metric-id patterns ("workload:rtt:p99", "softirq:NET_RX:delay:p99") named primary. */
#define PRIMARY_MAX 8
struct primary_list {
	char id[PRIMARY_MAX][TEXT_LEN];
	size_t n;
};

struct wl_data {
	bool present;			/* workload.json was there */
	char workload[NAME_LEN];
	struct primary_list primary;	/* the workload's own choice (workload.json) */
	double duration_s;
	double interval_s;		/* of workload-intervals.csv; 0 when absent */
	uint64_t interval_origin_ns;	/* where its interval 0 begins; 0 when absent */
	struct wl_metric_data *m;
	size_t nm;
	struct kv *counter;		/* values as text, as written */
	size_t ncounter;
	struct kv *opt;
	size_t nopt;
	struct wl_work work[WORK_MAX];
	size_t nwork;
};

struct capture_data {
	char kernel[NAME_LEN], hostname[NAME_LEN], started[NAME_LEN], version[32];
	double duration_s;
	double interval_s;		/* of intervals.csv; 0 when absent */
	uint64_t interval_origin_ns;	/* where its interval 0 begins; 0 when absent */
	uint64_t events, lost_events, late_events, unmatched;
	bool lossy;
};

/*
 * The histogram of every interval of one group and metric, from intervals.csv (softirq
 * and workqueue groups) or workload-intervals.csv (workload metrics): iv[k] holds
 * interval k's buckets, empty when the group had no sample in it. What compare's
 * two-level bootstrap resamples (hboot.h).
 */
enum ival_src { IV_SOFTIRQ, IV_WQ, IV_WORKLOAD, IV_CONTEXT, IV_WAIT, IV_WAKEUP };
/*
 * intervals.csv's softirq_wait metrics: a cause's part of the delays (function: the cause,
 * or "all" for the delays split), the delays raised in one place (function: the origin),
 * one task's BH-disabled part (function: the task)
 */
enum ival_wait_metric { IW_DELAY, IW_ORIGIN, IW_BH_TASK, IW_NR };
extern const char *const record_wait_metric_names[IW_NR];	/* "delay", "origin", "bh_task" */

struct ival_series {
	enum ival_src src;
	char name[NAME_LEN];		/* vector, workqueue, the workload metric, the
					 * execution context's name (IV_CONTEXT), or the
					 * kind of thread woken (IV_WAKEUP) */
	char func[FUNC_LEN];		/* IV_WQ; IV_CONTEXT: the context ("napi_thread");
					 * IV_WAIT: the cause, "all", the origin or
					 * the task, by metric (enum ival_wait_metric) */
	char pool[NAME_LEN];		/* IV_WQ; IV_CONTEXT: where; IV_WAKEUP: the CPU of a
					 * ksoftirqd or the worker pool */
	int metric;			/* enum sirq_metric or wq_metric; 0 for IV_WORKLOAD;
					 * enum wake_kind for IV_WAKEUP; enum
					 * ival_wait_metric for IV_WAIT */
	struct bucketlist *iv;
	size_t n;
};

struct record {
	char dir[PATH_MAX];
	struct capture_data cap;
	struct sirq_data *sirq;
	size_t nsirq;
	struct wq_data *wq;
	size_t nwq;
	struct wl_data wl;
	bool has_hist;			/* histograms.csv was there */
	bool has_wakeup;		/* summary.json had thread_wakeup (older ones do not) */
	struct wake_data *wake[WK_NR];
	size_t nwake[WK_NR];
	bool has_contexts;		/* summary.json had contexts (older ones do not) */
	struct ctx_data *ctx;
	size_t nctx;
	struct wait_data *wait;		/* softirq_wait, when the file has it */
	size_t nwait;
	struct slow_data *slow;		/* record --slowest, when the file has them */
	size_t nslow;
	struct stackvec_data *svec;	/* record --stacks */
	size_t nsvec;
	struct site_data *sites;
	size_t nsites;
	struct stack_data *stacks;	/* stacks.csv, when it was there */
	size_t nstacks;
	struct ival_series *ser;	/* per-interval histograms, when the files were there */
	size_t nser;
	bool has_ivals;			/* intervals.csv was read */
	bool has_wl_ivals;		/* workload-intervals.csv was read */
};

/* One row of intervals.csv (the columns report plots). */
struct ival_row {
	double t_s;
	bool softirq;			/* else workqueue, or: */
	bool context;			/* an execution context (func: its kind, pool: where) */
	char name[NAME_LEN];
	char func[FUNC_LEN];
	char pool[NAME_LEN];
	uint64_t count, p50, p99, max;
};

#define CELL_MAX_LOADS 8

struct cell {
	char id[2 * NAME_LEN + 16];
	char workload[NAME_LEN];
	char config[NAME_LEN];
	unsigned int rep;
	unsigned int look;		/* 0: planned; k: added by an adaptive run after look k */
	bool control;			/* capture off: workload files only (the observer effect) */
	char dir[PATH_MAX];
	char status[32];
	char error[TEXT_LEN];
	struct kv *knobs;
	size_t nknobs;
	struct kv *opts;		/* the configuration's workload options (opt.W.K) */
	size_t nopts;
	struct primary_list primary;	/* the scenario's choice (cell.json), n = 0: none */
	char loads[CELL_MAX_LOADS][NAME_LEN];	/* background loads the configuration ran */
	size_t nloads;
	bool ok;			/* status "ok" and the record loaded */
	/*
	 * alt: one arm's block of a segment of an alternating run (rep is the block): its
	 * record holds that phase's intervals only; cells of one segment share its id,
	 * and the same block of two arms is the same minutes of the machine
	 */
	bool alt;
	char segment[2 * NAME_LEN + 16];
	/*
	 * alt: the first block of the segment the cell ran in. A continuation segment (run
	 * --until-decided) restarts the workload, so its blocks are a stratum of their own
	 * for the paired bootstrap (hboot.h)
	 */
	unsigned int seg_first;
	double measured_s;		/* alt: the phase's measured part, seconds */
	struct record rec;
};

enum run_meta_field {
	RM_KERNEL, RM_HOSTNAME, RM_CPUS, RM_CPU_MODEL, RM_PREEMPT, RM_HZ, RM_NOHZ,
	RM_CMDLINE, RM_GOVERNOR, RM_VERSION, RM_STARTED,
	/* how deferred work runs (docs/results-format.md); "" in runs written before */
	RM_THREADIRQS, RM_RT_BH_LOCK, RM_SCHED_EXT, RM_NR
};
/* rm_optional - a field older runs (and the results store) lack: "" is not a value */
static inline bool rm_optional(int f)
{
	return f >= RM_THREADIRQS;
}
extern const char *const run_meta_names[RM_NR];

struct run {
	char dir[PATH_MAX];
	bool is_record;			/* a single record directory, shown as one cell */
	char scenario[NAME_LEN];
	bool complete;
	char meta[RM_NR][META_LEN];	/* as text, "" when unknown */
	struct cell *cells;
	size_t ncells;
	size_t npartial;		/* cells/.partial-* directories (never read) */
	size_t planned;			/* run.json cells_planned, 0 when absent */
	unsigned int looks;		/* adaptive runs: looks at the data planned (0: not adaptive) */
};

/*
 * run_inputs - what a command that read run reads: run.json and scenario.ini and each
 * cell's directory, or a record directory's result files and raw/ - for the output
 * writer (outw.h), which never writes onto, over or inside them. A NULL-terminated
 * array; free with run_inputs_free. NULL on -ENOMEM.
 */
char **run_inputs(const struct run *run);
void run_inputs_free(char **inputs);

/* Release a loaded struct; safe on a zeroed one. */
void run_free(struct run *run);
void run_cell_free(struct cell *c);
void record_free(struct record *rec);
void record_workload_free(struct wl_data *wl);

/* bucketlist_add - append a bucket; -ENOMEM */
int bucketlist_add(struct bucketlist *bl, uint64_t lo, uint64_t hi, uint64_t count);
void bucketlist_free(struct bucketlist *bl);
uint64_t bucketlist_count(const struct bucketlist *bl);
/* bucket_valid - [lo, hi) is one bucket of the log-linear layout of hist.h */
bool bucket_valid(uint64_t lo, uint64_t hi);
/*
 * buckets_to_hist - add the buckets to h (not reset first, so lists merge) at their
 * midpoints. When exact is given and h was empty, min, max, mean and stddev are taken
 * from it so that the rebuilt histogram reports the file's exact figures.
 */
void buckets_to_hist(const struct bucketlist *bl, const struct hist_stats *exact,
		     struct hist *h);

/*
 * record_series - the series of (src, name, func, pool, metric), created (empty) when
 * create is set and it is not there yet; NULL when absent or out of memory.
 */
struct ival_series *record_series(struct record *rec, enum ival_src src, const char *name,
				  const char *func, const char *pool, int metric, bool create);
/* record_series_at - interval k's buckets, the series grown to hold it; NULL on -ENOMEM */
struct bucketlist *record_series_at(struct ival_series *s, size_t k);
/* bucketlist_parse - "lo:count lo:count ..." (hist.h buckets) appended to bl; -EINVAL */
int bucketlist_parse(const char *text, struct bucketlist *bl, char *errbuf);

/* Lookups; NULL when absent. */
const struct sirq_data *record_sirq(const struct record *rec, const char *vector, int cpu);
const struct wl_metric_data *record_wl_metric(const struct record *rec, const char *name);
/* record_ctx - the context (context, name, where) */
const struct ctx_data *record_ctx(const struct record *rec, const char *context,
				  const char *name, const char *where);
/* record_wakeup - name is the CPU number as text (ksoftirqd) or the pool name */
const struct wake_data *record_wakeup(const struct record *rec, enum wake_kind kind,
				      const char *name);

#endif
