/* SPDX-License-Identifier: GPL-2.0 */
/*
 * owned.h - the things a deferbench process creates outside its results, journaled
 * before each is created, so that after a SIGKILL or a crash `deferbench restore` (and
 * the next record or run) can remove them: its tracefs instance, a tracefs mount it
 * made, staging directories (DIR.partial-PID, DIR.old-PID), temporary directories
 * (the block workload's, cyclictest's), the top-level tracefs option record-cmd
 * while record turns it off to make its instance, and the stacktrace trigger of
 * record --stacks in that instance.
 *
 * One file per process, OWNED_DIR/<pid>.json (root), $XDG_RUNTIME_DIR/deferbench/
 * owned/<pid>.json (other users), or $DEFERBENCH_OWNED_DIR (tests):
 *   { "schema": "deferbench-owned/1", "pid": 1234, "pid_start": 5678,
 *     "mnt_ns": "mnt:[4026531841]", "command": "deferbench record ...",
 *     "resources": [ { "kind": "instance", "path": "/sys/kernel/tracing/instances/..." } ] }
 * It is rewritten atomically at each change and removed with its last resource. A
 * process that cannot write it (no runtime directory) goes on unjournaled, as before.
 * Return convention: 0 or -errno; readers fill errbuf.
 */
#ifndef DEFERBENCH_OWNED_H
#define DEFERBENCH_OWNED_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#define OWNED_DIR "/run/deferbench/owned"
#define OWNED_SCHEMA "deferbench-owned/1"

enum owned_kind {
	OWN_INSTANCE,	/* a tracefs instance directory: rmdir */
	OWN_MOUNT,	/* a tracefs mount point deferbench mounted: umount */
	OWN_STAGING,	/* DIR.partial-PID: deferbench's files in it are removed */
	OWN_OLD,	/* DIR.old-PID: put back as DIR if DIR is missing, else as staging */
	OWN_TMPDIR,	/* a deferbench-* temporary directory: removed whole */
	OWN_OPTION_OFF,	/* tracefs options/record-cmd turned off for a moment: back to 1 */
	OWN_TRIGGER,	/* the stacktrace trigger of an instance's softirq_entry: removed */
	OWN_NR
};
extern const char *const owned_kind_names[OWN_NR];

/* owned_add - journal a resource about to be created (same kind and path: once) */
int owned_add(enum owned_kind kind, const char *path);
/* owned_forget - the resource is gone (removed, renamed, or never created) */
void owned_forget(enum owned_kind kind, const char *path);
/*
 * owned_mkdtemp - mkdtemp(3), journaled before the directory exists: tmpl ends in
 * "XXXXXX", which is replaced. 0 or -errno.
 */
int owned_mkdtemp(char *tmpl);
/* owned_command - the command line recorded in this process's file */
void owned_command(const char *command);
/*
 * owned_on_signal - for a signal handler that removed this process's staging
 * directories (outw.h): the file goes too when that was all it listed, so that a
 * catchable signal leaves no journal. Async-signal-safe.
 */
void owned_on_signal(void);

/* For restore: another process's file. */
struct owned_res {
	enum owned_kind kind;
	char path[PATH_MAX];
};

struct owned_file {
	char file[PATH_MAX];
	pid_t pid;
	unsigned long long pid_start;
	char mnt_ns[64];		/* its mount namespace ("mnt:[4026531841]") */
	char command[256];
	struct owned_res *res;
	int n;
};

/* owned_dir - where this process's files go (and restore looks), or NULL when none */
const char *owned_dir(void);
/* owned_load - read and check a file; 0 or -errno with the reason in errbuf */
int owned_load(const char *file, struct owned_file *f, char *errbuf);
/* owned_alive - the process that wrote f still runs (same pid, same start time) */
bool owned_alive(const struct owned_file *f);
/* owned_save - write f back (its resources left), or remove it when none is left */
int owned_save(const struct owned_file *f);
void owned_free(struct owned_file *f);
/* owned_mnt_ns_self - this process's mount namespace, "mnt:[N]" ("" if unknown) */
void owned_mnt_ns_self(char *buf, size_t len);
/* owned_proc_start_time - a process's start time (clock ticks after boot); 0 if it does not
 * run (a zombie does not count) */
unsigned long long owned_proc_start_time(pid_t pid);

#endif
