// SPDX-License-Identifier: GPL-2.0
/*
 * history_store.c - run and record directories into a results store, for the commands
 * that write one (history add, and run and record with --store), with messages: a
 * library of the commands, so that none calls another's file.
 */
#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include "cli.h"
#include "msg.h"
#include "outw.h"
#include "rundir.h"

int hstore_open_checked(const char *path, int flags, const char *const *inputs,
			struct hstore **s)
{
	char err[ERRBUF_LEN];

	if (!(flags & HS_RDONLY) && outw_check_inplace(path, &(struct outw_opts){
			.by = "history", .inputs = inputs }, err)) {
		err_msg("%s", err);
		return -EINVAL;
	}
	if (hstore_open(path, flags, s, err)) {
		err_msg("%s", err);
		return -EINVAL;
	}
	return 0;
}

int hstore_add_dir(struct hstore *s, const char *db, const char *dir, bool replace)
{
	struct hstore_added r;
	char err[ERRBUF_LEN];
	struct run run;
	size_t i;
	int ret;

	ret = run_load(dir, &run, err);
	if (ret) {
		err_msg("%s", err);
		return ret;
	}
	for (i = 0; i < run.ncells && !run.cells[i].ok; i++)
		;
	if (i == run.ncells) {
		err_msg("%s: no cell of this run finished (%zu in run.json%s): there is nothing to "
			"add; add a run that finished", dir, run.ncells, run.complete ? "" :
			", and the run was interrupted or failed");
		run_free(&run);
		return -ENODATA;
	}
	ret = history_add_run(s, &run, dir, replace, &r, err);
	if (ret)
		err_msg("%s: %s", dir, err);
	else if (r.existed)
		info_msg("%s: already in %s (run %lld): nothing to do", dir, db, r.run_id);
	else
		info_msg("%s: %s %s as run %lld (%s, kernel %s, %zu cells, %zu values)", dir,
			 r.replaced ? "replaced in" : "added to", db, r.run_id,
			 run.meta[RM_HOSTNAME], run.meta[RM_KERNEL], r.ncells, r.nvalues);
	run_free(&run);
	return ret;
}

int history_store_check(const char *path, char *errbuf)
{
	char dir[PATH_MAX], *slash;
	struct statvfs sv;
	struct hstore *s;
	int ret;

	ret = outw_check_inplace(path, &(struct outw_opts){ .by = "store", .check_only = true },
				 errbuf);
	if (ret)
		return ret;
	/* one there must be a store; a new one's directory, or where it would be made from */
	if (!access(path, F_OK)) {
		ret = hstore_open(path, HS_RDONLY, &s, errbuf);
		if (!ret)
			hstore_close(s);
		return ret;
	}
	snprintf(dir, sizeof(dir), "%s", path);
	do {
		slash = strrchr(dir, '/');
		if (!slash)
			snprintf(dir, sizeof(dir), ".");
		else
			*(slash == dir ? slash + 1 : slash) = '\0';
	} while (access(dir, F_OK) && slash && strcmp(dir, "/"));
	if (!statvfs(dir, &sv) && (sv.f_flag & ST_RDONLY))
		return errno_msg(errbuf, -EROFS, "store: %s cannot be made: %s is on a read-only "
				 "filesystem; give a store elsewhere (--store)", path, dir);
	if (access(dir, W_OK))
		return errno_msg(errbuf, -errno, "store: %s cannot be made in %s: %s; give a "
				 "store elsewhere (--store)", path, dir, strerror(errno));
	return 0;
}

bool hstore_fresh(const char *path)
{
	struct stat st;

	return lstat(path, &st) && errno == ENOENT;
}

void hstore_drop_fresh(const char *path)
{
	static const char *const side[] = { "", "-journal", "-wal", "-shm" };
	char p[PATH_MAX];
	size_t i;

	for (i = 0; i < ARRAY_SIZE(side); i++)
		if ((size_t)snprintf(p, sizeof(p), "%s%s", path, side[i]) < sizeof(p))
			unlink(p);
}

int history_add_dir(const char *db, const char *dir, bool replace)
{
	bool fresh = hstore_fresh(db);
	struct hstore *s;
	int ret;

	if (hstore_open_checked(db, 0, (const char *const[]){ dir, NULL }, &s)) {
		if (fresh)
			hstore_drop_fresh(db);
		return -EINVAL;
	}
	ret = hstore_add_dir(s, db, dir, replace);
	hstore_close(s);
	if (ret && fresh)
		hstore_drop_fresh(db);
	return ret;
}
