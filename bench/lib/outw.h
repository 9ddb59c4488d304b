/* SPDX-License-Identifier: GPL-2.0 */
/*
 * outw.h - the output writer: the one way every deferbench command writes its files
 * (STYLE.md, habit 14). A command opens a writer on its output before the work, writes
 * into the directory outw_dir() names, and commits (or aborts) after it:
 *
 *  - Everything is written into a staging directory the writer makes (mode 0700,
 *    journaled in owned.h before it exists), with every file created O_CREAT | O_EXCL |
 *    O_NOFOLLOW (out_create, out_fopen) and every directory by out_mkdir: no file is
 *    ever opened through a symbolic link or written over, and the directory it goes
 *    into is reached through none either. A log in it names each thing
 *    before it is made, so that an abort, a signal, or `deferbench restore` after a
 *    SIGKILL removes exactly that.
 *  - The commit renames the staged entries into place (renameat2: RENAME_NOREPLACE, or
 *    RENAME_EXCHANGE to replace) on directories opened without following links, under
 *    the directory's flock, and lists them in the directory's manifest (manifest.h).
 *  - Nothing is replaced without force, and force replaces only what the manifest lists
 *    with the size and hash it has now: a file someone else wrote, changed or linked is
 *    never touched. An output is never one of the command's inputs, never holds one and
 *    never lies in one (compared by device and inode, not by path). No output goes into
 *    a system directory (/etc, /usr, /dev, ...).
 *  - Checked at outw_open (before the work, so that a refusal costs nothing) and again
 *    at the commit.
 *
 * Return convention: 0 or -errno with the reason in errbuf (ERRBUF_LEN); a refusal says
 * what is wrong and what to do.
 */
#ifndef DEFERBENCH_OUTW_H
#define DEFERBENCH_OUTW_H

#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <sys/types.h>

#include "manifest.h"

enum outw_kind {
	OUTW_DIR,	/* a directory of results, replaced whole: analyze -o, record -o */
	OUTW_INTO,	/* entries put into a directory beside other files: report, compare */
	OUTW_FILE,	/* one file: export -o, baseline calibrate */
	OUTW_LIVE,	/* a new or empty directory written in place as it goes: run */
};

struct outw_opts {
	enum outw_kind kind;
	const char *by;			/* the command ("report"): manifest and messages */
	bool force;			/* replace what deferbench wrote there before */
	const char *force_opt;		/* the option that sets force (NULL: "--force") */
	const char *const *inputs;	/* NULL-terminated: what the command reads */
	/*
	 * OUTW_INTO: the entries the command will write, checked at outw_open (NULL: at
	 * the commit only). OUTW_FILE takes the file's name from the path.
	 */
	const char *const *names;
	/*
	 * The target is relative to this directory: for paths deferbench composes from
	 * what it read (a baseline's <host>/<name>). NULL: the target as named. Either
	 * way no component of the path, the base's included, may be a symbolic link
	 * (openat2 RESOLVE_NO_SYMLINKS): a link in a parent directory would send the
	 * output elsewhere; the refusal names the resolved path, which is taken.
	 */
	const char *base;
	/*
	 * OUTW_INTO: the directory the command writes into by default (the run it reads):
	 * taken whatever else it holds. Any other that exists must be empty or hold a
	 * manifest (what deferbench wrote before); NULL: no such directory.
	 */
	const char *home;
	/* outw_check_inplace: check only, make nothing (run --dry-run, before a run) */
	bool check_only;
};

struct outw_id {
	dev_t dev;
	ino_t ino;
};

struct outw_input {
	const char *path;
	struct outw_id id;		/* the input itself */
	struct outw_id *up;		/* it and every directory above it */
	size_t nup;
};

struct outw {
	struct outw_opts o;
	char target[PATH_MAX];		/* as named (base/target with a base) */
	char stage[PATH_MAX];		/* where to write (OUTW_LIVE: the target itself) */
	char file[PATH_MAX];		/* OUTW_FILE: the file to write, in stage */
	char name[NAME_MAX + 1];	/* the target's last component */
	char sname[NAME_MAX + 1];	/* the staging directory's name in pfd */
	int pfd;			/* the directory the staging directory is in */
	int sfd;			/* the staging directory */
	int logfd;
	bool whole;			/* the staging directory becomes the target */
	bool registered;
	pid_t pid;
	mode_t umask;
	struct outw_input *in;
	size_t nin;
	struct manifest live;		/* OUTW_LIVE: what it wrote so far */
	/*
	 * The directories outw_open made on the way to the target (the deepest; "" for
	 * none), of which the first made_keep bytes existed before: removed, when empty,
	 * if the output never comes (an error, a signal), so that no empty host directory
	 * of a baseline is left.
	 */
	char made[PATH_MAX];
	size_t made_keep;
};

/* outw_open - check the target and make the staging directory (see above) */
int outw_open(struct outw *w, const char *target, const struct outw_opts *o, char *errbuf);
/* outw_dir - the directory to write into */
static inline const char *outw_dir(const struct outw *w)
{
	return w->stage;
}
/* outw_file - OUTW_FILE: the path of the file to write */
static inline const char *outw_file(const struct outw *w)
{
	return w->file;
}
/*
 * outw_commit - put the staged outputs in place and list them in the manifest; the
 * writer is closed either way (an error leaves nothing staged behind, except when the
 * target changed under it: then errbuf says where the new outputs were kept)
 */
int outw_commit(struct outw *w, char *errbuf);
/* outw_abort - remove what was staged; safe to call twice and after a commit */
void outw_abort(struct outw *w);
/* outw_live_add - OUTW_LIVE: list rel (a file or a tree written since) in the manifest */
int outw_live_add(struct outw *w, const char *rel, char *errbuf);

/*
 * outw_check_inplace - for the one output a library writes in place rather than through
 * a staging directory (the results store, an SQLite database): the same checks as
 * outw_open (not an input nor in one, no system directory, no symbolic link, here nor
 * in its journal files' names, a regular file when it exists), and its directory made
 * when missing. o->kind is ignored.
 */
int outw_check_inplace(const char *path, const struct outw_opts *o, char *errbuf);

/*
 * The primitives every output file and directory is created with. Under a staging
 * directory each is logged before it exists. out_create: an fd (O_WRONLY) or -errno,
 * -EEXIST when anything (a link included) is there; out_fopen: "w", NULL + errno.
 */
int out_create(const char *path, mode_t mode);
FILE *out_fopen(const char *path);
/* out_fopen_mode - out_fopen of a file created with mode (a script: 0755) */
FILE *out_fopen_mode(const char *path, mode_t mode);
/*
 * out_ferror - 0 when no write to f (an out_fopen stream) failed, else -errno of the
 * failure (ENOSPC, EFBIG for a file-size limit), which stdio's ferror() does not keep
 */
int out_ferror(FILE *f);
/* out_mkdir - a directory (0755); one that is there is fine, a link or file is not */
int out_mkdir(const char *path);
/* out_mkdir_p - out_mkdir of each missing component below the writer's directory */
int out_mkdir_p(const char *path);
/*
 * out_note - path will appear by other means (a rename, a child process): log it;
 * -errno when it cannot be logged (then it must not appear)
 */
int out_note(const char *path);

/*
 * outw_staging_remove - remove a staging directory a dead process left (restore):
 * what its log names, the log, the directory; or, with no log, earlier results a
 * replace had moved there (what their manifest lists, unchanged). 0, -ENOTEMPTY when
 * something else is in it (left as it is), -ENOENT when it is neither (not made by
 * this writer), -errno.
 */
int outw_staging_remove(const char *stage);
/* outw_system_dir - fd's directory is or lies in a system directory: its name, or NULL */
const char *outw_system_dir(int fd, bool exact);

#endif
