/* SPDX-License-Identifier: GPL-2.0 */
/*
 * journal.h - every setting a run will change, saved on disk before the first write,
 * so that a run killed by SIGKILL or a crash can be undone by `deferbench restore`.
 *
 * JOURNAL_PATH, json-c, schema "deferbench-journal/1":
 *   { "schema": ..., "pid": 1234, "pid_start": 5678, "started": "2026-...Z",
 *     "command": "deferbench run ...", "boot_ticks": 91234,
 *     "entries": [ { "knob": "wq.writeback.nice", "path": "/sys/...", "rpath": "/sys/...",
 *                    "orig": "0" },
 *                  { "knob": "sched.ksoftirqd", "pid": 14, "comm": "ksoftirqd/0",
 *                    "start": 7, "orig": "other:0" } ] }
 * Every version is written to a temporary file, fsync'ed and renamed over the journal,
 * then the directory is fsync'ed. The first version is link()ed into place instead, so
 * that of two runs started together only one owns the machine's knobs.
 *
 * The journal is removed only after every entry was restored and read back.
 * Return convention: 0 or -errno; errbuf (ERRBUF_LEN) says what to do.
 */
#ifndef DEFERBENCH_JOURNAL_H
#define DEFERBENCH_JOURNAL_H

#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <sys/types.h>

#include "knobs.h"

#define JOURNAL_DIR "/run/deferbench"
#define JOURNAL_PATH JOURNAL_DIR "/journal.json"
#define JOURNAL_SCHEMA "deferbench-journal/1"

struct journal {
	char path[PATH_MAX];
	pid_t pid;			/* the owner */
	unsigned long long pid_start;	/* its start time: a reused pid is not the owner */
	char started[32];
	char command[256];
	unsigned long long boot_ticks;	/* when it was created: sched.napi's threads are younger */
	struct knob_target *t;		/* saved targets, in the order they were added */
	int n;
};

/* journal_path - JOURNAL_PATH, or $DEFERBENCH_JOURNAL (for tests without root) */
const char *journal_path(void);

/*
 * journal_create - claim path for this process with no entries yet. -EEXIST when a
 * journal is there: errbuf says whether its owner still runs or `deferbench restore`
 * is needed.
 */
int journal_create(struct journal *j, const char *path, const char *command, char *errbuf);
/*
 * journal_check_stale - -EEXIST when a journal is at path, with errbuf saying whether
 * its owner still runs or `deferbench restore` is needed; 0 when there is none.
 */
int journal_check_stale(const char *path, char *errbuf);
/* journal_add - save targets not saved yet (their orig), and sync before returning */
int journal_add(struct journal *j, const struct knob_target *t, int n, char *errbuf);
/*
 * journal_save - resolve knob k to its targets (knob_resolve) and save those not saved
 * yet. A run saves every knob of its scenario this way before it writes anything.
 */
int journal_save(struct journal *j, const struct knob *k, char *errbuf);

/* What the kernel showed after a knob was applied. */
struct knob_result {
	char value[KNOB_VALUE_MAX];	/* read back from the first target */
	int targets;			/* how many files or threads were set (0: none matched) */
};

/*
 * journal_apply - save (as journal_save) then set every target of k and read it back.
 * This is the only way deferbench writes a knob: nothing is written unsaved. On error
 * the caller restores with journal_restore(), on every exit path.
 */
int journal_apply(struct journal *j, const struct knob *k, struct knob_result *r, char *errbuf);
/* journal_apply_rank - apply the unbound cpumask, then parameters, then the rest */
int journal_apply_rank(const struct knob *k);
#define KNOB_RANKS 3

/* journal_load - read a journal; -ENOENT when there is none */
int journal_load(struct journal *j, const char *path, char *errbuf);
/* journal_owner_alive - the process that wrote the journal still runs */
bool journal_owner_alive(const struct journal *j);
/*
 * journal_restore - write every saved value back, newest first, and read it back.
 * Returns the number of entries that could not be restored (each reported with
 * err_msg), 0 when the machine is as it was. Safe to call any number of times.
 * report (may be NULL) gets one line per setting that had to be changed back.
 */
int journal_restore(struct journal *j, FILE *report);
/*
 * journal_revert - as journal_restore, but only targets whose value differs from the
 * saved one are written, and the targets of the knobs named in keep[0..nkeep) are left
 * alone: the switch to one arm of an alternating run, whose own knobs the caller
 * writes next, so that a switch touches only what differs. Returns the entries that
 * could not be restored (each reported with err_msg).
 */
int journal_revert(struct journal *j, const struct knob *keep, int nkeep);
/* journal_remove - delete the journal file (only after journal_restore() returned 0) */
int journal_remove(struct journal *j);
void journal_free(struct journal *j);

#endif
