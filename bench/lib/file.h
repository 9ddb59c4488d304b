/* SPDX-License-Identifier: GPL-2.0 */
/*
 * file.h - whole files and paths: sysfs/procfs/tracefs values, input files checked
 * before they are read, atomic replacement, directories made and removed.
 */
#ifndef DEFERBENCH_FILE_H
#define DEFERBENCH_FILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "common.h"

/* Whole-file helpers for sysfs/procfs/tracefs: strip one trailing newline on read. */
int read_file(const char *path, char *buf, size_t len);
int write_file(const char *path, const char *val);
/* read_whole_file - the whole file, NUL-terminated, caller frees; NULL + errno. */
char *read_whole_file(const char *path, size_t *len);

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
 * path_rel_ok - rel is a relative path of plain names: not empty, no leading '/', no empty,
 * "." or ".." component (what a manifest or a journal may name beneath a directory)
 */
bool path_rel_ok(const char *rel);
/*
 * open_beneath - openat(dirfd, rel, flags | O_NOFOLLOW | O_CLOEXEC, mode) that follows
 * no symbolic link in any component of rel either (each directory on the way is opened
 * with O_NOFOLLOW): an fd, or -errno (-ELOOP or -ENOTDIR for a link on the way).
 * rel must pass path_rel_ok(); async-signal-safe (no allocation).
 */
int open_beneath(int dirfd, const char *rel, int flags, mode_t mode);
/*
 * parent_beneath - the directory holding rel beneath dirfd, opened as open_beneath does,
 * and rel's last component in *base (a pointer into rel): an fd (dirfd itself is never
 * returned: close the fd) or -errno. Async-signal-safe.
 */
int parent_beneath(int dirfd, const char *rel, const char **base);

/*
 * path_open_dir_nofollow - the directory path, reached through no symbolic link in any of
 * its components (openat2 RESOLVE_NO_SYMLINKS; component by component with O_NOFOLLOW
 * where the kernel has no openat2): an fd, or -errno (-ELOOP for a link on the way).
 * Outputs are opened this way: a link in a parent directory would send them elsewhere.
 */
int path_open_dir_nofollow(const char *path);
/* path_first_link - the first component of path that is a symbolic link, into link: 1; 0 */
int path_first_link(const char *path, char *link, size_t len);

/* path_join - "a/b" into buf; -ENAMETOOLONG */
int path_join(char *buf, size_t len, const char *a, const char *b);
/*
 * write_atomic_file - replace path with len bytes of data: written to "path.tmp.PID" (created
 * O_EXCL | O_NOFOLLOW through out_create(), outw.h: never through a planted link),
 * fsync'ed, renamed over path and the directory fsync'ed, so that a reader or a crash
 * sees the old file or the new one, never a part. With WA_EXCL the new file is link()ed
 * into place instead: -EEXIST when path exists (of two writers, one wins).
 */
#define WA_EXCL 1
int write_atomic_file(const char *path, const void *data, size_t len, mode_t mode, int flags);
/* file_fsync_dir - make a rename, link or unlink of path durable (fsync its directory) */
int file_fsync_dir(const char *path);
/*
 * path_check - a path the kernel can take: at most PATH_MAX - 1 bytes, no name longer
 * than NAME_MAX; -ENAMETOOLONG with the reason in errbuf (the kernel just says "File
 * name too long")
 */
int path_check(const char *path, char *errbuf);
/* mkdir -p */
int path_mkdir(const char *path, mode_t mode);
/* remove a directory tree (only regular files and directories); missing is fine */
int path_rm_rf(const char *path);

#endif
