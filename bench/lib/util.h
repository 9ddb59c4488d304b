/* SPDX-License-Identifier: GPL-2.0 */
/*
 * util.h - small helpers shared by every part of deferbench.
 *
 * Return convention, for this header and the whole project: functions that can fail
 * return 0 on success and -errno on failure; functions returning pointers return NULL
 * and set errno. Parsers never print: they return -EINVAL and fill an error string
 * when given one, so that they can be unit-tested and so that the caller names the
 * option or file the bad value came from.
 */
#ifndef DEFERBENCH_UTIL_H
#define DEFERBENCH_UTIL_H

#include <errno.h>
#include <sched.h>
#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

#define DEFERBENCH_VERSION "0.1.0"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#define __printf(a, b) __attribute__((format(printf, a, b)))
#define __unused __attribute__((unused))

#define NSEC_PER_USEC 1000ULL
#define NSEC_PER_MSEC 1000000ULL
#define NSEC_PER_SEC 1000000000ULL

/*
 * Size of every error buffer behind a 'char *errbuf' parameter: messages name a path and
 * a field or an option, and say what to do.
 */
#define ERRBUF_LEN 1024

/* Diagnostics go to stderr, prefixed "deferbench: ". */
void err_msg(const char *fmt, ...) __printf(1, 2);
void warn_msg(const char *fmt, ...) __printf(1, 2);
void info_msg(const char *fmt, ...) __printf(1, 2);
void debug_msg(const char *fmt, ...) __printf(1, 2);
extern int verbose;

/* Nanoseconds on CLOCK_MONOTONIC: the one clock deferbench subtracts. */
uint64_t now_ns(void);

/* set_errno - fill errbuf (may be NULL) with a formatted message; returns err (-errno) */
int set_errno(char *errbuf, int err, const char *fmt, ...) __printf(3, 4);
/* set_err - the same for the common case, returning -EINVAL */
#define set_err(errbuf, ...) set_errno(errbuf, -EINVAL, __VA_ARGS__)

/*
 * Strict number parsers: the whole string must be a number in [min, max];
 * "abc", "", "12x" and out-of-range values are -EINVAL with a message in errbuf.
 */
int parse_u64(const char *s, uint64_t min, uint64_t max, uint64_t *out, char *errbuf);
int parse_int(const char *s, long min, long max, int *out, char *errbuf);
int parse_double(const char *s, double min, double max, double *out, char *errbuf);
int parse_bool(const char *s, bool *out, char *errbuf);

/*
 * parse_duration_ns - "10s", "500ms", "250us", "100ns", "2m", "1h"; a bare number is
 * seconds. Fractions are allowed ("1.5s"). Zero and negative durations are rejected.
 */
int parse_duration_ns(const char *s, uint64_t *out, char *errbuf);
/*
 * parse_ts_ns - a trace clock timestamp in seconds as trace-cmd prints it
 * ("2481.750123456") to nanoseconds, exactly (digits past the ninth are dropped)
 */
int parse_ts_ns(const char *s, uint64_t *out, char *errbuf);
/* parse_size - "4096", "64k", "16M", "1G" (binary multiples) to bytes. */
int parse_size(const char *s, uint64_t min, uint64_t max, uint64_t *out, char *errbuf);

/*
 * parse_cpulist - "0-3,6" into a cpu_set_t. Every CPU must be online (read from
 * /sys/devices/system/cpu/online, or the string online_override when not NULL, so
 * tests do not depend on the machine).
 */
int parse_cpulist(const char *s, cpu_set_t *set, const char *online_override, char *errbuf);
/* cpulist_format - the canonical "0-3,6" form of a set. */
char *cpulist_format(const cpu_set_t *set, char *buf, size_t len);
/* online_cpus - the online CPU set; returns the number of online CPUs or -errno. */
int online_cpus(cpu_set_t *set);
/* parse a kernel cpulist string ("0-1,4") without the online check */
int cpulist_parse_raw(const char *s, cpu_set_t *set, char *errbuf);

/* Whole-file helpers for sysfs/procfs/tracefs: strip one trailing newline on read. */
int read_file(const char *path, char *buf, size_t len);
int write_file(const char *path, const char *val);
/* read_file_alloc - the whole file, NUL-terminated, caller frees; NULL + errno. */
char *read_file_alloc(const char *path, size_t *len);

/*
 * read_input - the whole of a file deferbench reads as input (a scenario, a journal,
 * a capture's or a run's files), NUL-terminated; caller frees *text. It must be a
 * regular file (not a FIFO, a device such as /dev/zero, or a directory) of at most max
 * bytes. 0, or -errno with the reason, naming path, in errbuf (ERRBUF_LEN).
 */
int read_input(const char *path, size_t max, char **text, size_t *len, char *errbuf);
/* open_input - the same checks, for a file read as a stream; an fd or -errno */
int open_input(const char *path, size_t max, char *errbuf);
/* Size limits of input files: far above anything deferbench writes. */
#define INPUT_MAX_TEXT (1U << 20)	/* scenarios, journals, capture.json, comms */
#define INPUT_MAX_DATA (1ULL << 30)	/* result files: JSON and CSV */

/*
 * str_escape - s for a message: control characters, C1 controls and bytes that are
 * not UTF-8 become \xNN (an escape sequence in a file must not reach the terminal).
 * Returns buf.
 */
char *str_escape(const char *s, char *buf, size_t len);

/* path_join - "a/b" into buf; -ENAMETOOLONG */
int path_join(char *buf, size_t len, const char *a, const char *b);
/*
 * write_atomic - replace path with len bytes of data: written to "path.tmp.PID",
 * fsync'ed, renamed over path and the directory fsync'ed, so that a reader or a crash
 * sees the old file or the new one, never a part. With WA_EXCL the new file is link()ed
 * into place instead: -EEXIST when path exists (of two writers, one wins).
 */
#define WA_EXCL 1
int write_atomic(const char *path, const void *data, size_t len, mode_t mode, int flags);
/* fsync_dir - make a rename, link or unlink of path durable (fsync its directory) */
int fsync_dir(const char *path);
/*
 * path_check - a path the kernel can take: at most PATH_MAX - 1 bytes, no name longer
 * than NAME_MAX; -ENAMETOOLONG with the reason in errbuf (the kernel just says "File
 * name too long")
 */
int path_check(const char *path, char *errbuf);
/* mkdir -p */
int mkdir_p(const char *path, mode_t mode);
/* remove a directory tree (only regular files and directories); missing is fine */
int rm_rf(const char *path);

/*
 * Stop requests: SIGINT and SIGTERM set stop_requested; long loops poll it.
 * signals_install() also ignores SIGPIPE. A second SIGINT while stopping is ignored
 * too: teardown must finish, or the machine is left changed.
 */
extern volatile sig_atomic_t stop_requested;
void signals_install(void);
/* sleep until deadline (CLOCK_MONOTONIC ns) or a stop request; returns true if stopped */
bool sleep_until_or_stop(uint64_t deadline_ns);

/* Kernel identity, for result metadata. */
int kernel_release(char *buf, size_t len);
int host_name(char *buf, size_t len);
/* ISO 8601 UTC wall-clock time of now: only ever metadata, never subtracted. */
void iso_time_now(char *buf, size_t len);

bool is_root(void);

/* command_line - argv joined with spaces (for journals and metadata), truncated to len */
void command_line(int argc, char **argv, char *buf, size_t len);

#endif
