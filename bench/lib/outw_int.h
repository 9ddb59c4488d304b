/* SPDX-License-Identifier: GPL-2.0 */
/*
 * outw_int.h - what the output writer's files share: outw.c (open, checks of the
 * target, abort), outw_commit.c (commit) and outw_stage.c (the staging log, the
 * primitives, signals).
 */
#ifndef DEFERBENCH_OUTW_INT_H
#define DEFERBENCH_OUTW_INT_H

/* private to bench/lib/: its files define DEFERBENCH_ALLOW_OUTW_INT_H before including it */
#ifndef DEFERBENCH_ALLOW_OUTW_INT_H
#error "outw_int.h is private to bench/lib/; include its public header"
#endif

#include <signal.h>
#include <stdbool.h>
#include <sys/stat.h>

#include "outw.h"

/* the staging directory's log of what is made in it, one relative path a line */
#define OUTW_LOG ".deferbench-staging"

#ifndef RENAME_NOREPLACE
#define RENAME_NOREPLACE (1 << 0)
#define RENAME_EXCHANGE (1 << 1)
#endif

/* outw_enlist - make w known to the primitives and the signal handler; outw_delist */
int outw_enlist(struct outw *w);
void outw_delist(struct outw *w);
/*
 * outw_log - the staging log names rel before it exists (one write: O_APPEND); -errno
 * when it cannot (a full disk): then rel must not be made
 */
int outw_log(struct outw *w, const char *rel);
/*
 * outw_remove_staged - what the log of the staging directory sname in pfd names, the
 * log, the directory: 0, -ENOTEMPTY, -ENOENT (no log), -errno. Async-signal-safe: the
 * signal handler calls it (no allocation, no stdio).
 */
int outw_remove_staged(int pfd, const char *sname);
/*
 * outw_remove_made - the directories outw_open made for w that are still empty, deepest
 * first (w->made); async-signal-safe
 */
void outw_remove_made(struct outw *w);
/* outw_block_signals - hold the signals the writer cleans up on (commit, abort) */
void outw_block_signals(sigset_t *old);

/* outw_first_entry - the first entry of dirfd that is not bookkeeping: 1 (in name), 0,
 * or -errno */
int outw_first_entry(int dirfd, char *name, size_t len);
/*
 * outw_check_name - the entry name of the target directory (w->pfd) may receive an
 * output: absent, or deferbench's by m and force given; never an input nor holding one
 */
int outw_check_name(const struct outw *w, const struct manifest *m, const char *name,
		    char *errbuf);

#endif
