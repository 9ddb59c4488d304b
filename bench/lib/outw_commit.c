// SPDX-License-Identifier: GPL-2.0
/*
 * outw_commit.c - the output writer's commit (see outw.h): the staging directory
 * renamed into place whole, or its entries each into the target directory, earlier
 * outputs replaced only while the manifest says they are deferbench's (the abort that
 * follows it: outw.c).
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "file.h"
#include "grow.h"
#include "msg.h"
#define DEFERBENCH_ALLOW_OUTW_INT_H
#include "outw_int.h"
#include "owned.h"

/* drop_log - the staging directory is about to become the output: no log in it */
static void drop_log(struct outw *w)
{
	if (w->logfd < 0)
		return;
	close(w->logfd);
	w->logfd = -1;
	unlinkat(w->sfd, OUTW_LOG, 0);
}

/* keep_staged - the target changed under the writer: leave the new outputs for the user */
static int keep_staged(struct outw *w, int ret, char *errbuf, const char *why)
{
	drop_log(w);
	owned_forget(OWN_STAGING, w->stage);
	errno_msg(errbuf, ret, "%s: %s %s: it is left as it is, and the new outputs are in %s",
		  w->o.by, w->target, why, w->stage);
	w->sname[0] = '\0';
	return ret;
}

/* replace_dir - exchange the staging directory with the earlier target, remove that */
static int replace_dir(struct outw *w, char *errbuf)
{
	char why[PATH_MAX], first[PATH_MAX];
	struct manifest m;
	int dfd, ret;

	dfd = openat(w->pfd, w->name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (dfd < 0)
		return keep_staged(w, -errno, errbuf, "is no longer a directory");
	ret = manifest_load(dfd, &m);
	ret = ret ?: manifest_owns(&m, dfd, "", why, sizeof(why));
	if (ret == 1 && !w->o.force && outw_first_entry(dfd, first, sizeof(first)) > 0)
		ret = -EEXIST;
	if (ret != 1) {
		manifest_free(&m);
		close(dfd);
		return keep_staged(w, -EEXIST, errbuf, "gained files meanwhile");
	}
	if (renameat2(w->pfd, w->sname, w->pfd, w->name, RENAME_EXCHANGE)) {
		ret = -errno;
		manifest_free(&m);
		close(dfd);
		return keep_staged(w, ret, errbuf, "cannot be replaced");
	}
	/* the earlier results are now at the staging name: still deferbench's only? */
	if (manifest_owns(&m, dfd, "", why, sizeof(why)) != 1) {
		renameat2(w->pfd, w->sname, w->pfd, w->name, RENAME_EXCHANGE);
		manifest_free(&m);
		close(dfd);
		return keep_staged(w, -EEXIST, errbuf, "gained files meanwhile");
	}
	ret = manifest_remove(&m, dfd, "");
	if (!ret) {
		unlinkat(dfd, MANIFEST_NAME, 0);
		unlinkat(dfd, OUTW_LOG, 0);	/* of a writer killed right after its rename */
	}
	if (ret || unlinkat(w->pfd, w->sname, AT_REMOVEDIR))
		warn_msg("kept %s (the earlier results): it holds files deferbench did not write",
			 w->stage);
	manifest_free(&m);
	close(dfd);
	return 0;
}

/* commit_whole - the staging directory becomes the target */
static int commit_whole(struct outw *w, char *errbuf)
{
	struct manifest m = { 0 };
	char tmp[64];
	struct stat st;
	int ret;

	snprintf(tmp, sizeof(tmp), "%s.tmp.%d", MANIFEST_NAME, (int)getpid());
	ret = outw_log(w, MANIFEST_NAME) ?: outw_log(w, tmp);
	if (ret)
		return errno_msg(errbuf, ret, "%s: %s: cannot log the manifest: %s", w->o.by,
				 w->stage, strerror(-ret));
	ret = manifest_add(&m, w->sfd, "", w->o.by, errbuf);
	ret = ret ?: manifest_save(w->sfd, &m, errbuf);
	manifest_free(&m);
	if (ret)
		return ret;
	if (fchmod(w->sfd, 0755 & ~w->umask))
		return errno_msg(errbuf, -errno, "%s: %s: %s", w->o.by, w->stage, strerror(errno));
	if (!renameat2(w->pfd, w->sname, w->pfd, w->name, RENAME_NOREPLACE))
		ret = 0;
	else if (errno == EEXIST || errno == ENOTEMPTY)
		ret = replace_dir(w, errbuf);
	else if ((errno == EINVAL || errno == ENOSYS) &&
		 fstatat(w->pfd, w->name, &st, AT_SYMLINK_NOFOLLOW) && errno == ENOENT)
		ret = renameat(w->pfd, w->sname, w->pfd, w->name) ? -errno : 0;
	else
		ret = -errno;
	if (ret && !errbuf[0])
		errno_msg(errbuf, ret, "%s: cannot rename %s to %s: %s", w->o.by, w->stage,
			  w->target, strerror(-ret));
	if (!ret) {
		drop_log(w);	/* from the directory in place: sfd follows it */
		fsync(w->pfd);
		owned_forget(OWN_STAGING, w->stage);
		w->sname[0] = '\0';
	}
	return ret;
}

/* staged_names - the entries of the staging directory (bookkeeping excepted) */
static int staged_names(struct outw *w, char (**names)[NAME_MAX + 1], size_t *n)
{
	int fd = openat(w->sfd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	char (*v)[NAME_MAX + 1] = NULL, (*nv)[NAME_MAX + 1];
	struct dirent *de;
	DIR *d;

	*n = 0;
	if (fd < 0 || !(d = fdopendir(fd))) {
		if (fd >= 0)
			close(fd);
		return -errno;
	}
	while ((de = readdir(d))) {
		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, "..") ||
		    manifest_bookkeeping(de->d_name))
			continue;
		nv = grow_array(v, *n, sizeof(*v));
		if (!nv) {
			closedir(d);
			free(v);
			return -ENOMEM;
		}
		v = nv;
		snprintf(v[(*n)++], NAME_MAX + 1, "%s", de->d_name);
	}
	closedir(d);
	*names = v;
	return 0;
}

/* install - one staged entry into the target directory */
static int install(struct outw *w, struct manifest *m, const char *name, char *errbuf)
{
	char why[PATH_MAX];
	int ret;

	if (!renameat2(w->sfd, name, w->pfd, name, RENAME_NOREPLACE))
		return 0;
	if (errno != EEXIST && errno != ENOTEMPTY)
		return errno_msg(errbuf, -errno, "%s: cannot put %s/%s in place: %s", w->o.by,
				 w->target, name, strerror(errno));
	ret = outw_check_name(w, m, name, errbuf);
	if (ret)
		return ret;
	if (renameat2(w->sfd, name, w->pfd, name, RENAME_EXCHANGE))
		return errno_msg(errbuf, -errno, "%s: cannot replace %s/%s: %s", w->o.by,
				 w->target, name, strerror(errno));
	/* the earlier one is in the staging directory now: still deferbench's? */
	if (manifest_owns(m, w->sfd, name, why, sizeof(why)) != 1) {
		renameat2(w->sfd, name, w->pfd, name, RENAME_EXCHANGE);
		return errno_msg(errbuf, -EEXIST, "%s: %s/%s changed while it was being replaced; "
				 "it is left as it is", w->o.by, w->target, name);
	}
	if (manifest_remove(m, w->sfd, name)) {
		char kept[NAME_MAX + 16];

		snprintf(kept, sizeof(kept), "%.*s.earlier", NAME_MAX, name);
		renameat(w->sfd, name, w->sfd, kept);
		warn_msg("%s: the earlier %s/%s held files that are not deferbench's: they are "
			 "in %s/%s", w->o.by, w->target, name, w->stage, kept);
	}
	return 0;
}

/* commit_into - each staged entry into the target directory, then its manifest */
static int commit_into(struct outw *w, char *errbuf)
{
	char (*names)[NAME_MAX + 1] = NULL;
	struct manifest staged = { 0 }, m;
	size_t n = 0, i;
	int ret, e = 0;

	ret = staged_names(w, &names, &n);
	for (i = 0; !ret && i < n; i++)
		ret = manifest_add(&staged, w->sfd, names[i], w->o.by, errbuf);
	if (ret) {
		free(names);
		manifest_free(&staged);
		return errbuf[0] ? ret : errno_msg(errbuf, ret, "%s: %s: %s", w->o.by, w->stage,
						   strerror(-ret));
	}
	/* one writer of a directory's manifest at a time */
	flock(w->pfd, LOCK_EX);
	ret = manifest_load(w->pfd, &m);
	if (!ret && m.untrusted)
		ret = errno_msg(errbuf, -EPERM, "%s: %s/%s cannot be trusted (%s): nothing was "
				"written", w->o.by, w->target, MANIFEST_NAME, m.why);
	/* all or nothing as far as can be told beforehand */
	for (i = 0; !ret && i < n; i++)
		ret = outw_check_name(w, &m, names[i], errbuf);
	for (i = 0; !ret && i < n; i++) {
		ret = install(w, &m, names[i], errbuf);
		if (ret)
			break;
		/* listed as they were staged: what was hashed is what went in */
		manifest_drop(&m, names[i]);
		e = e ?: manifest_merge(&m, &staged, names[i]);
	}
	if (e)
		ret = ret ?: errno_msg(errbuf, e, "%s: out of memory", w->o.by);
	/* whatever went in is listed, also after an error */
	e = i ? manifest_save(w->pfd, &m, ret ? NULL : errbuf) : 0;
	/*
	 * The log names what was staged, which is in place now: the staging directory is
	 * empty, unless an earlier entry left files that are not deferbench's (.earlier).
	 * After an error the log still names what stays staged (outw_abort removes it).
	 */
	if (!ret) {
		drop_log(w);
		if (unlinkat(w->pfd, w->sname, AT_REMOVEDIR))
			warn_msg("kept %s: it holds files deferbench did not write", w->stage);
		owned_forget(OWN_STAGING, w->stage);
		w->sname[0] = '\0';
	}
	ret = ret ?: e;
	flock(w->pfd, LOCK_UN);
	manifest_free(&m);
	manifest_free(&staged);
	free(names);
	return ret;
}

int outw_commit(struct outw *w, char *errbuf)
{
	sigset_t old;
	int ret;

	errbuf[0] = '\0';
	if (!w->registered)
		return errno_msg(errbuf, -EINVAL, "%s: nothing to commit", w->o.by ? w->o.by :
				 "deferbench");
	if (w->o.kind == OUTW_LIVE) {
		outw_abort(w);
		return 0;
	}
	outw_block_signals(&old);
	ret = w->whole ? commit_whole(w, errbuf) : commit_into(w, errbuf);
	if (!ret)
		w->made[0] = '\0';	/* the directories made hold the output now */
	outw_abort(w);		/* what is left staged, if anything */
	sigprocmask(SIG_SETMASK, &old, NULL);
	return ret;
}

int outw_live_add(struct outw *w, const char *rel, char *errbuf)
{
	if (w->o.kind != OUTW_LIVE || w->sfd < 0)
		return errno_msg(errbuf, -EINVAL, "%s: not a directory written in place",
				 w->o.by);
	manifest_drop(&w->live, rel);
	return manifest_add(&w->live, w->sfd, rel, w->o.by, errbuf) ?:
	       manifest_save(w->sfd, &w->live, errbuf);
}
