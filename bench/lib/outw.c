// SPDX-License-Identifier: GPL-2.0
/*
 * outw.c - the output writer (see outw.h): the target checked before the work - never
 * one of the command's inputs, a directory holding one or lying in one (by device and
 * inode), nor a system directory - a staging directory made for it, and the abort that
 * releases them (the commit: outw_commit.c; the primitives and the staging log:
 * outw_stage.c).
 */
#include "outw.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "file.h"
#include "grow.h"
#include "msg.h"
#define DEFERBENCH_ALLOW_OUTW_INT_H
#include "outw_int.h"
#include "outdir.h"
#include "owned.h"

#define CHAIN_MAX 4096		/* directories above anything: far more than PATH_MAX allows */

static bool same(const struct outw_id *a, const struct stat *st)
{
	return a->dev == st->st_dev && a->ino == st->st_ino;
}

/* outw_chain - the ids of fd's file and of every directory above it, up to the root */
static int outw_chain(int fd, struct outw_id **ids, size_t *n)
{
	struct stat st, up;
	struct outw_id *v = NULL, *nv;
	int cur = dup(fd), next;
	size_t k = 0;

	*ids = NULL;
	*n = 0;
	if (cur < 0)
		return -errno;
	if (fstat(cur, &st))
		goto error;
	for (;;) {
		nv = grow_array(v, k, sizeof(*v));
		if (!nv) {
			errno = ENOMEM;
			goto error;
		}
		v = nv;
		v[k].dev = st.st_dev;
		v[k++].ino = st.st_ino;
		if (!S_ISDIR(st.st_mode) || k == CHAIN_MAX)
			break;
		next = openat(cur, "..", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		if (next < 0 || fstat(next, &up)) {
			if (next >= 0)
				close(next);
			break;		/* a directory we may not leave: the chain ends here */
		}
		close(cur);
		cur = next;
		if (up.st_dev == st.st_dev && up.st_ino == st.st_ino)
			break;		/* the root */
		st = up;
	}
	close(cur);
	*ids = v;
	*n = k;
	return 0;
error:
	k = (size_t)errno;
	close(cur);
	free(v);
	return -(int)k;
}

/* outw_inputs - the identities of the command's inputs (those that exist) into w */
static int outw_inputs(struct outw *w, const char *const *inputs)
{
	char real[PATH_MAX], *dir;
	struct outw_input *in;
	struct stat st;
	size_t n = 0;
	int fd, ret;

	for (; inputs && inputs[n]; n++)
		;
	w->in = calloc(n ? n : 1, sizeof(*w->in));
	if (!w->in)
		return -ENOMEM;
	for (; inputs && *inputs; inputs++) {
		/* an input that is not there has nothing to protect */
		if (stat(*inputs, &st) || !realpath(*inputs, real))
			continue;
		in = &w->in[w->nin];
		in->path = *inputs;
		in->id = (struct outw_id){ st.st_dev, st.st_ino };
		dir = S_ISDIR(st.st_mode) ? real : dirname(real);
		fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		if (fd < 0)
			continue;
		ret = outw_chain(fd, &in->up, &in->nup);
		close(fd);
		if (ret)
			return ret;
		w->nin++;
	}
	return 0;
}

static void outw_inputs_free(struct outw *w)
{
	size_t i;

	for (i = 0; i < w->nin; i++)
		free(w->in[i].up);
	free(w->in);
	w->in = NULL;
	w->nin = 0;
}

/* holds - the input's chain has st: the output st is the input or a directory holding it */
static const struct outw_input *holds(const struct outw *w, const struct stat *st)
{
	size_t i, k;

	for (i = 0; i < w->nin; i++) {
		if (same(&w->in[i].id, st))
			return &w->in[i];
		for (k = 0; k < w->in[i].nup; k++)
			if (same(&w->in[i].up[k], st))
				return &w->in[i];
	}
	return NULL;
}

/* refuse_input - the output shown (relation: "is", "lies in"...) the input at path */
static int refuse_input(const struct outw *w, const char *shown, const char *relation,
			const char *path, char *errbuf)
{
	return set_err(errbuf, "%s: the output %s %s %s, which this command reads: results "
		       "never replace their input; choose another %s", w->o.by, shown, relation,
		       path, w->o.kind == OUTW_FILE ? "file" : "directory");
}

/* outw_check_entry - the output st (shown as shown) is not an input nor holds one */
static int outw_check_entry(const struct outw *w, const char *shown, const struct stat *st,
			    char *errbuf)
{
	const struct outw_input *in = st ? holds(w, st) : NULL;

	if (!in)
		return 0;
	return refuse_input(w, shown, same(&in->id, st) ? "is" : "is or holds", in->path,
			    errbuf);
}

/*
 * outw_check_inside - the directory dirfd, where an output goes (self: the output is
 * that directory), is no input and lies in none
 */
static int outw_check_inside(const struct outw *w, int dirfd, const char *shown, bool self,
			     char *errbuf)
{
	struct outw_id *ids;
	size_t n, i, k;
	int ret;

	if (!w->nin)
		return 0;
	ret = outw_chain(dirfd, &ids, &n);
	if (ret)
		return errno_msg(errbuf, ret, "%s: cannot check %s: %s", w->o.by, shown,
				 strerror(-ret));
	for (i = 0; i < w->nin; i++)
		for (k = 0; k < n; k++)
			if (ids[k].dev == w->in[i].id.dev && ids[k].ino == w->in[i].id.ino) {
				free(ids);
				return refuse_input(w, shown, k || !self ? "lies in" : "is",
						    w->in[i].path, errbuf);
			}
	free(ids);
	return 0;
}

/*
 * System directories: nothing is written in them or anywhere beneath them (tree), or
 * in them but beneath is fine (exact: /var/lib/deferbench is where baselines go).
 */
static const char *const sys_tree[] = {
	"/etc", "/usr", "/boot", "/efi", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32",
	"/dev", "/proc", "/sys",
};
static const char *const sys_exact[] = {
	"/", "/var", "/var/lib", "/var/log", "/var/cache", "/var/spool", "/var/mail", "/run",
	"/home", "/opt", "/srv", "/mnt", "/media",
};

const char *outw_system_dir(int fd, bool exact)
{
	struct outw_id *ids;
	struct stat st;
	const char *hit = NULL;
	size_t n, i, k;

	if (outw_chain(fd, &ids, &n))
		return NULL;
	for (i = 0; !hit && i < ARRAY_SIZE(sys_tree); i++)
		for (k = 0; !hit && !stat(sys_tree[i], &st) && k < n; k++)
			if (same(&ids[k], &st))
				hit = sys_tree[i];
	for (i = 0; exact && !hit && n && i < ARRAY_SIZE(sys_exact); i++)
		if (!stat(sys_exact[i], &st) && same(&ids[0], &st))
			hit = sys_exact[i];
	free(ids);
	return hit;
}

/* split - dir and last name of path (trailing slashes dropped): -EINVAL for no name */
static int split(const char *path, char *dir, size_t dlen, char *name)
{
	char tmp[PATH_MAX], *slash;
	size_t n;

	snprintf(tmp, sizeof(tmp), "%s", path);
	for (n = strlen(tmp); n > 1 && tmp[n - 1] == '/'; n--)
		tmp[n - 1] = '\0';
	slash = strrchr(tmp, '/');
	snprintf(name, NAME_MAX + 1, "%s", slash ? slash + 1 : tmp);
	if (!*name || !strcmp(name, ".") || !strcmp(name, ".."))
		return -EINVAL;
	if (!slash)
		snprintf(dir, dlen, ".");
	else if (slash == tmp)
		snprintf(dir, dlen, "/");
	else
		snprintf(dir, dlen, "%.*s", (int)(slash - tmp), tmp);
	return 0;
}

/* refuse_system - fd (shown as shown) is or lies in a system directory */
static int refuse_system(const struct outw *w, int fd, bool exact, const char *shown,
			 char *errbuf)
{
	const char *sys = outw_system_dir(fd, exact);

	if (!sys)
		return 0;
	return errno_msg(errbuf, -EPERM, "%s: refusing to write %s %s: %s is a system "
			 "directory; choose a directory of your own", w->o.by,
			 exact ? "into" : "under", shown, sys);
}

/*
 * open_out_dir - the directory path of an output, reached through no symbolic link in
 * any component (path_open_dir_nofollow, file.h): `ln -s elsewhere pl; report -o pl/sub`
 * would write elsewhere. An fd, or -errno with errno set too; a link is refused with
 * -ELOOP and errbuf says why: with the resolved path, which the user may give to mean
 * that place, or that it leads into a system directory.
 */
static int open_out_dir(const struct outw *w, const char *path, char *errbuf)
{
	char link[PATH_MAX], real[PATH_MAX];
	int fd = path_open_dir_nofollow(path);

	if (fd >= 0 || fd != -ELOOP) {
		errno = fd < 0 ? -fd : 0;
		return fd;
	}
	if (!path_first_link(path, link, sizeof(link)))
		snprintf(link, sizeof(link), "%s", path);
	/* a link into a system directory (/proc/self) is refused for that, the plainer why */
	fd = open(link, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd >= 0) {
		int ret = refuse_system(w, fd, false, path, errbuf);

		close(fd);
		if (ret) {
			errno = ELOOP;
			return -ELOOP;	/* refused, errbuf says why: as for any link */
		}
	}
	if (!realpath(link, real) || strlen(real) + strlen(path + strlen(link)) >= sizeof(real))
		snprintf(real, sizeof(real), "the path without it");
	else
		strcat(real, path + strlen(link));
	errno = ELOOP;
	return errno_msg(errbuf, -ELOOP, "%s: %s is a symbolic link%s%s: deferbench writes "
			 "through no link, in no part of an output's path; if the output belongs "
			 "where it leads, give the resolved path (%s)", w->o.by, link,
			 strcmp(link, path) ? ", on the way to " : "",
			 strcmp(link, path) ? path : "", real);
}

/*
 * check_ancestor - before dir is made: what mkdir -p starts from (its nearest ancestor
 * that exists) is no system directory and lies in no input
 */
static int check_ancestor(struct outw *w, const char *dir, char *errbuf)
{
	char probe[PATH_MAX], name[NAME_MAX + 1], up[PATH_MAX];
	int fd, ret;

	snprintf(probe, sizeof(probe), "%s", dir);
	while ((fd = open_out_dir(w, probe, errbuf)) == -ENOENT &&
	       !split(probe, up, sizeof(up), name))
		snprintf(probe, sizeof(probe), "%s", up);
	if (fd == -ELOOP)
		return fd;
	if (fd < 0)
		return errno_msg(errbuf, -errno, "%s: cannot create %s: %s is %s", w->o.by, dir,
				 probe, errno == ENOTDIR ? "not a directory" : strerror(errno));
	ret = refuse_system(w, fd, false, dir, errbuf);
	ret = ret ?: outw_check_inside(w, fd, w->target, false, errbuf);
	close(fd);
	/* what mkdir -p makes below probe goes again if the output never comes */
	if (!ret && !w->made[0] && snprintf(w->made, sizeof(w->made), "%s", dir) <
	    (int)sizeof(w->made))
		w->made_keep = strcmp(probe, ".") ? strlen(probe) : 0;
	return ret;
}

/*
 * open_dir - the directory dir as an fd, made (with what is missing above it) when it
 * is not there; with a base, its components below base are never links
 */
static int open_dir(struct outw *w, const char *dir, char *errbuf)
{
	char name[NAME_MAX + 1];
	const char *rel, *p;
	int fd, next, ret;
	size_t made = 0;	/* 1 + the length of what existed above the first made */

	if (w->o.base) {
		fd = open_out_dir(w, w->o.base, errbuf);
		if (fd == -ENOENT) {
			ret = check_ancestor(w, w->o.base, errbuf);
			if (ret)
				return ret;
			if (!path_mkdir(w->o.base, 0755))
				fd = open_out_dir(w, w->o.base, errbuf);
		}
		if (fd == -ELOOP)
			return fd;
		if (fd < 0)
			return errno_msg(errbuf, -errno, "%s: cannot use %s: %s", w->o.by,
					 w->o.base, strerror(errno));
		ret = refuse_system(w, fd, false, w->o.base, errbuf);
		ret = ret ?: outw_check_inside(w, fd, w->target, false, errbuf);
		rel = dir + strlen(w->o.base);
		for (p = rel; !ret && *p; p += *p ? 1 : 0) {
			while (*p == '/')
				p++;
			snprintf(name, sizeof(name), "%.*s", (int)strcspn(p, "/"), p);
			p += strlen(name);
			if (!*name)
				break;
			if (mkdirat(fd, name, 0755))
				ret = errno == EEXIST ? 0 : -errno;
			else if (!made)		/* the first made: what is above it stays */
				made = w->made[0] ? w->made_keep + 1 :
				       (size_t)(p - strlen(name) - dir);
			next = ret ? -1 : openat(fd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW |
						 O_CLOEXEC);
			if (!ret && next < 0)
				ret = errno == ELOOP || errno == ENOTDIR ? -ENOTDIR : -errno;
			if (ret)
				errno_msg(errbuf, ret, "%s: cannot use %.*s: %s", w->o.by,
					  (int)(p - dir), dir, ret == -ENOTDIR ? "it is a symbolic "
					  "link or not a directory (deferbench does not write through "
					  "links)" : strerror(-ret));
			close(fd);
			fd = next;
		}
		if (ret && fd >= 0)
			close(fd);
		/* the chain made, from made's parent down to dir: removed if nothing comes */
		if (made && snprintf(w->made, sizeof(w->made), "%s", dir) < (int)sizeof(w->made))
			w->made_keep = made - 1;
		return ret ? ret : fd;
	}
	fd = open_out_dir(w, dir, errbuf);
	if (fd >= 0 || fd != -ENOENT) {
		if (fd < 0 && fd != -ELOOP)
			return errno_msg(errbuf, -errno, "%s: cannot use %s: %s", w->o.by, dir,
					 errno == ENOTDIR ? "a part of it is not a directory" :
					 strerror(errno));
		return fd;
	}
	ret = check_ancestor(w, dir, errbuf);
	if (ret)
		return ret;
	ret = path_mkdir(dir, 0755);
	fd = ret ? ret : open_out_dir(w, dir, errbuf);
	if (fd == -ELOOP)
		return fd;
	if (fd < 0)
		return errno_msg(errbuf, ret ? ret : -errno, "%s: cannot create %s: %s", w->o.by,
				 dir, strerror(ret ? -ret : errno));
	return fd;
}

int outw_first_entry(int dirfd, char *name, size_t len)
{
	int fd = openat(dirfd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC), found = 0;
	struct dirent *de;
	DIR *d;

	if (fd < 0 || !(d = fdopendir(fd))) {
		found = -errno;
		if (fd >= 0)
			close(fd);
		return found;
	}
	while (!found && (de = readdir(d)))
		if (strcmp(de->d_name, ".") && strcmp(de->d_name, "..") &&
		    !manifest_bookkeeping(de->d_name)) {
			snprintf(name, len, "%s", de->d_name);
			found = 1;
		}
	closedir(d);
	return found;
}

/* why_not - why rel under dirfd is not deferbench's (m lists what is) */
static const char *why_not(const struct manifest *m, int dirfd, const char *rel)
{
	const char *base;
	struct stat st;
	int pfd;

	if (m->untrusted)
		return "its directory's manifest cannot be trusted";
	pfd = parent_beneath(dirfd, rel, &base);
	if (pfd < 0)
		return "a directory on its way is a symbolic link";
	if (fstatat(pfd, base, &st, AT_SYMLINK_NOFOLLOW))
		st.st_mode = 0;
	close(pfd);
	if (S_ISLNK(st.st_mode))
		return "it is a symbolic link deferbench did not make";
	if (!S_ISREG(st.st_mode))
		return "it is not a regular file";
	if (!manifest_find(m, rel))
		return "deferbench did not write it (no manifest lists it)";
	return "it was changed since deferbench wrote it";
}

int outw_check_name(const struct outw *w, const struct manifest *m, const char *name,
		    char *errbuf)
{
	char shown[PATH_MAX + NAME_MAX + 2], why[PATH_MAX];
	struct stat st, fst;
	const struct mf_file *f;
	int ret;

	if (fstatat(w->pfd, name, &st, AT_SYMLINK_NOFOLLOW))
		return errno == ENOENT ? 0 : errno_msg(errbuf, -errno, "%s: cannot use %s/%s: "
						       "%s", w->o.by, w->target, name,
						       strerror(errno));
	snprintf(shown, sizeof(shown), "%s/%s", w->target, name);
	if (w->o.kind == OUTW_FILE)
		snprintf(shown, sizeof(shown), "%s", w->target);
	ret = outw_check_entry(w, shown, &st, errbuf);
	if (!ret && !fstatat(w->pfd, name, &fst, 0))
		ret = outw_check_entry(w, shown, &fst, errbuf);
	if (ret)
		return ret;
	ret = manifest_owns(m, w->pfd, name, why, sizeof(why));
	if (ret < 0)
		return errno_msg(errbuf, ret, "%s: cannot read %s: %s", w->o.by, shown,
				 strerror(-ret));
	if (!ret && !strcmp(why, name))
		return errno_msg(errbuf, -EEXIST, "%s: %s exists and is not deferbench's: %s; "
				 "deferbench replaces only files it wrote, unchanged (those %s "
				 "lists): remove it yourself, or write elsewhere", w->o.by, shown,
				 why_not(m, w->pfd, why), MANIFEST_NAME);
	if (!ret)
		return errno_msg(errbuf, -EEXIST, "%s: %s holds '%s', which is not deferbench's: "
				 "%s; deferbench replaces only files it wrote, unchanged (those %s "
				 "lists): remove it yourself, or write elsewhere", w->o.by, shown,
				 why + strlen(name) + 1, why_not(m, w->pfd, why), MANIFEST_NAME);
	if (!w->o.force) {
		f = S_ISREG(st.st_mode) ? manifest_find(m, name) : NULL;
		return errno_msg(errbuf, -EEXIST, "%s: %s exists (written by deferbench%s%s); "
				 "pass %s to replace it, or write elsewhere", w->o.by, shown,
				 f && *f->by ? " " : "", f ? f->by : "", w->o.force_opt);
	}
	return 0;
}

/* home_dir - dirfd is the directory the command writes into by default (o->home) */
static bool home_dir(const struct outw *w, int dirfd)
{
	struct stat a, b;

	return w->o.home && !stat(w->o.home, &a) && !fstat(dirfd, &b) && a.st_dev == b.st_dev &&
	       a.st_ino == b.st_ino;
}

/* check_into - the target directory (w->pfd) of OUTW_INTO or OUTW_FILE */
static int check_into(struct outw *w, char *errbuf)
{
	char entry[NAME_MAX + 1], dir[PATH_MAX];
	struct manifest m;
	const char *const *n;
	int ret;

	if (w->o.kind == OUTW_FILE && split(w->target, dir, sizeof(dir), entry))
		return -EINVAL;
	ret = refuse_system(w, w->pfd, true, w->o.kind == OUTW_FILE ? dir : w->target, errbuf);
	ret = ret ?: outw_check_inside(w, w->pfd, w->target, w->o.kind == OUTW_INTO, errbuf);
	if (ret)
		return ret;
	ret = manifest_load(w->pfd, &m);
	if (ret)
		return errno_msg(errbuf, ret, "%s: out of memory", w->o.by);
	if (m.untrusted)
		ret = errno_msg(errbuf, -EPERM, "%s: %s/%s cannot be trusted (%s): deferbench will "
				"not add to it; remove it, or write elsewhere", w->o.by,
				w->o.kind == OUTW_FILE ? dir : w->target, MANIFEST_NAME, m.why);
	if (!ret && w->o.kind == OUTW_INTO && !m.present && !home_dir(w, w->pfd) &&
	    outw_first_entry(w->pfd, entry, sizeof(entry)) > 0)
		ret = errno_msg(errbuf, -EEXIST, "%s: %s holds '%s' and is no directory deferbench "
				"wrote (it has no %s): %s writes into a new or empty directory%s, "
				"or one deferbench wrote; choose another", w->o.by, w->target,
				entry, MANIFEST_NAME, w->o.by, w->o.home ? ", the run's own" : "");
	if (w->o.kind == OUTW_FILE && !ret)
		ret = outw_check_name(w, &m, w->name, errbuf);
	for (n = w->o.names; !ret && n && *n; n++)
		ret = outw_check_name(w, &m, *n, errbuf);
	manifest_free(&m);
	return ret;
}

/* check_whole - the target of a staging directory that becomes it (w->name in w->pfd) */
static int check_whole(struct outw *w, bool *exists, char *errbuf)
{
	char entry[PATH_MAX], why[PATH_MAX];
	struct manifest m;
	struct stat st, fst;
	int fd, ret;

	*exists = false;
	ret = refuse_system(w, w->pfd, false, w->target, errbuf);
	ret = ret ?: outw_check_inside(w, w->pfd, w->target, false, errbuf);
	if (ret)
		return ret;
	if (fstatat(w->pfd, w->name, &st, AT_SYMLINK_NOFOLLOW))
		return errno == ENOENT ? 0 : errno_msg(errbuf, -errno, "%s: cannot use %s: %s",
						       w->o.by, w->target, strerror(errno));
	*exists = true;
	if (!fstatat(w->pfd, w->name, &fst, 0) &&
	    (ret = outw_check_entry(w, w->target, &fst, errbuf)))
		return ret;
	if (S_ISLNK(st.st_mode))
		return errno_msg(errbuf, -ELOOP, "%s: %s is a symbolic link: deferbench does not "
				 "write through links; name the directory itself", w->o.by,
				 w->target);
	if (!S_ISDIR(st.st_mode))
		return errno_msg(errbuf, -ENOTDIR, "%s: %s exists and is not a directory",
				 w->o.by, w->target);
	fd = openat(w->pfd, w->name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return errno_msg(errbuf, -errno, "%s: cannot use %s: %s", w->o.by, w->target,
				 strerror(errno));
	ret = refuse_system(w, fd, true, w->target, errbuf);
	if (!ret)
		ret = outw_first_entry(fd, entry, sizeof(entry));
	if (ret < 0 && !errbuf[0])
		errno_msg(errbuf, ret, "%s: cannot read %s: %s", w->o.by, w->target,
			  strerror(-ret));
	if (ret == 1 && w->o.kind == OUTW_LIVE)
		ret = errno_msg(errbuf, -EEXIST, "%s: %s is not empty (it holds '%s'): a %s goes "
				"into a new or empty directory; choose another", w->o.by, w->target,
				entry, w->o.by);
	if (ret == 1) {
		ret = manifest_load(fd, &m);
		ret = ret ?: manifest_owns(&m, fd, "", why, sizeof(why));
		if (!ret)
			ret = errno_msg(errbuf, -EEXIST, "%s: %s holds '%s', which is not "
					"deferbench's: %s; %s only replaces deferbench's own files, "
					"unchanged (those %s lists): choose another directory",
					w->o.by, w->target, why, why_not(&m, fd, why),
					w->o.force_opt, MANIFEST_NAME);
		else if (ret == 1 && !w->o.force)
			ret = errno_msg(errbuf, -EEXIST, "%s: %s already holds results; use %s "
					"to replace them, or choose another directory", w->o.by,
					w->target, w->o.force_opt);
		else if (ret == 1)
			ret = 0;
		manifest_free(&m);
	}
	close(fd);
	return ret < 0 ? ret : 0;
}

/* make_staging - the staging directory sname in pfd, journaled, with its log */
static int make_staging(struct outw *w, const char *pdir, char *errbuf)
{
	sigset_t old;
	int ret;

	if (w->whole)
		ret = snprintf(w->sname, sizeof(w->sname), "%s.partial-%d", w->name, (int)w->pid);
	else
		ret = snprintf(w->sname, sizeof(w->sname), ".deferbench.partial-%d", (int)w->pid);
	if (ret >= (int)sizeof(w->sname) || (size_t)snprintf(w->stage, sizeof(w->stage),
	    "%s%s%s", pdir, strcmp(pdir, "/") ? "/" : "", w->sname) >= sizeof(w->stage))
		return errno_msg(errbuf, -ENAMETOOLONG, "%s: the output's name is too long: %s",
				 w->o.by, w->target);
	/* one left by a dead process that had our pid: what its log names goes */
	ret = outw_remove_staged(w->pfd, w->sname);
	if (ret == -ENOENT)
		ret = outdir_results_remove(w->stage);	/* an older deferbench's */
	if (ret)
		return errno_msg(errbuf, ret, "%s: %s is in the way (%s); remove it or choose "
				 "another directory", w->o.by, w->stage, ret == -ENOTEMPTY ?
				 "it holds files deferbench did not write" : strerror(-ret));
	/*
	 * A signal that would end the process waits until the writer's handler can remove
	 * what this makes (outw_enlist): one between the journal and the handler would
	 * leave the directory and the journal behind
	 */
	outw_block_signals(&old);
	/* journaled first: after a SIGKILL, 'deferbench restore' removes it */
	owned_add(OWN_STAGING, w->stage);
	if (mkdirat(w->pfd, w->sname, 0700)) {
		ret = -errno;
		owned_forget(OWN_STAGING, w->stage);
		sigprocmask(SIG_SETMASK, &old, NULL);
		return errno_msg(errbuf, ret, "%s: cannot create %s: %s", w->o.by, w->stage,
				 strerror(-ret));
	}
	w->sfd = openat(w->pfd, w->sname, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	w->logfd = w->sfd < 0 ? -1 : openat(w->sfd, OUTW_LOG, O_WRONLY | O_CREAT | O_EXCL |
					    O_APPEND | O_NOFOLLOW | O_CLOEXEC, 0600);
	if (w->logfd < 0) {
		ret = -errno;
		if (w->sfd >= 0)
			close(w->sfd);
		w->sfd = -1;
		unlinkat(w->pfd, w->sname, AT_REMOVEDIR);
		owned_forget(OWN_STAGING, w->stage);
		sigprocmask(SIG_SETMASK, &old, NULL);
		return errno_msg(errbuf, ret, "%s: cannot create %s: %s", w->o.by, w->stage,
				 strerror(-ret));
	}
	ret = outw_enlist(w);
	sigprocmask(SIG_SETMASK, &old, NULL);
	if (ret)
		outw_abort(w);
	return ret ? errno_msg(errbuf, ret, "%s: too many outputs at once", w->o.by) : 0;
}

/* open_live - OUTW_LIVE: the directory itself, made when missing */
static int open_live(struct outw *w, bool exists, char *errbuf)
{
	if (!exists && mkdirat(w->pfd, w->name, 0755))
		return errno_msg(errbuf, -errno, "%s: cannot create %s: %s", w->o.by, w->target,
				 strerror(errno));
	w->sfd = openat(w->pfd, w->name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (w->sfd < 0)
		return errno_msg(errbuf, -errno, "%s: cannot open %s: %s", w->o.by, w->target,
				 strerror(errno));
	snprintf(w->stage, sizeof(w->stage), "%s", w->target);
	return outw_enlist(w);
}

/* outw_open_prepare - w set up for target: options, names, the inputs' identities */
static int outw_open_prepare(struct outw *w, const char *target, const struct outw_opts *o,
			     char *errbuf)
{
	int ret;

	memset(w, 0, sizeof(*w));
	w->o = *o;
	w->o.by = o->by ? o->by : "deferbench";
	w->o.force_opt = o->force_opt ? o->force_opt : "--force";
	w->pfd = w->sfd = w->logfd = -1;
	w->pid = getpid();
	w->umask = umask(022);
	umask(w->umask);
	errbuf[0] = '\0';
	if (!target || !*target)
		return set_err(errbuf, "%s: the output's name is empty", w->o.by);
	if (path_check(target, errbuf))
		return -ENAMETOOLONG;
	if ((size_t)snprintf(w->target, sizeof(w->target) - 32, "%s%s%s", o->base ? o->base : "",
			     o->base ? "/" : "", target) >= sizeof(w->target) - 32)
		return errno_msg(errbuf, -ENAMETOOLONG, "%s: the output's name is too long: %s",
				 w->o.by, target);
	ret = outw_inputs(w, o->inputs);
	if (ret)
		return errno_msg(errbuf, ret, "%s: cannot check the inputs: %s", w->o.by,
				 strerror(-ret));
	return 0;
}

void outw_abort(struct outw *w)
{
	sigset_t old;
	int ret;

	if (!w->pid)
		return;		/* never opened (a zeroed struct), or closed already */
	outw_block_signals(&old);
	if (w->registered)
		outw_delist(w);
	if (w->logfd >= 0)
		close(w->logfd);
	w->logfd = -1;
	if (w->sfd >= 0)
		close(w->sfd);
	w->sfd = -1;
	if (w->o.kind != OUTW_LIVE && w->sname[0] && w->pfd >= 0) {
		ret = outw_remove_staged(w->pfd, w->sname);
		if (ret == -ENOTEMPTY)
			warn_msg("kept %s: it holds files deferbench did not write", w->stage);
		else
			owned_forget(OWN_STAGING, w->stage);
		w->sname[0] = '\0';
	}
	if (w->pfd >= 0)
		close(w->pfd);
	w->pfd = -1;
	if (w->o.kind != OUTW_LIVE)
		outw_remove_made(w);	/* after a commit: nothing, the output is in them */
	manifest_free(&w->live);
	outw_inputs_free(w);
	w->pid = 0;
	sigprocmask(SIG_SETMASK, &old, NULL);
}

int outw_open(struct outw *w, const char *target, const struct outw_opts *o, char *errbuf)
{
	char pdir[PATH_MAX];
	bool exists = false;
	int ret;

	ret = outw_open_prepare(w, target, o, errbuf);
	if (ret)
		return ret;
	if (o->kind == OUTW_INTO) {
		snprintf(pdir, sizeof(pdir), "%s", w->target);
		w->pfd = open_out_dir(w, w->target, errbuf);
		if (w->pfd == -ELOOP)
			ret = -ELOOP;
		else if (w->pfd < 0 && errno == ENOTDIR)
			ret = errno_msg(errbuf, -ENOTDIR, "%s: %s exists and is not a directory",
					w->o.by, w->target);
		else if (w->pfd < 0 && errno != ENOENT)
			ret = errno_msg(errbuf, -errno, "%s: cannot use %s: %s", w->o.by,
					w->target, strerror(errno));
		else if (w->pfd >= 0)
			ret = check_into(w, errbuf);
		w->whole = w->pfd < 0;
		w->pfd = w->pfd < 0 ? -1 : w->pfd;
	} else {
		w->whole = o->kind != OUTW_FILE;
	}
	if (!ret && (w->whole || o->kind == OUTW_FILE)) {
		if (split(w->target, pdir, sizeof(pdir), w->name))
			ret = errno_msg(errbuf, -EINVAL, "%s: '%s' names no %s", w->o.by, target,
					o->kind == OUTW_FILE ? "file" : "directory");
		if (!ret)
			ret = (w->pfd = open_dir(w, pdir, errbuf)) < 0 ? w->pfd : 0;
		if (!ret && o->kind == OUTW_FILE)
			ret = check_into(w, errbuf);
		else if (!ret)
			ret = check_whole(w, &exists, errbuf);
	}
	if (!ret && o->kind == OUTW_LIVE)
		ret = open_live(w, exists, errbuf);
	else if (!ret)
		ret = make_staging(w, pdir, errbuf);
	if (!ret && o->kind == OUTW_FILE &&
	    (size_t)snprintf(w->file, sizeof(w->file), "%.*s/%s", PATH_MAX - NAME_MAX - 2,
			     w->stage, w->name) >= sizeof(w->file))
		ret = errno_msg(errbuf, -ENAMETOOLONG, "%s: the output's name is too long: %s",
				w->o.by, w->target);
	if (ret)
		outw_abort(w);
	return ret;
}

int outw_check_inplace(const char *path, const struct outw_opts *o, char *errbuf)
{
	static const char *const side[] = { "", "-journal", "-wal", "-shm" };
	char pdir[PATH_MAX], name[NAME_MAX + 16];
	struct outw w;
	struct stat st;
	size_t i;
	int ret;

	ret = outw_open_prepare(&w, path, o, errbuf);
	w.o.kind = OUTW_FILE;
	if (!ret && split(w.target, pdir, sizeof(pdir), w.name))
		ret = errno_msg(errbuf, -EINVAL, "%s: '%s' names no file", w.o.by, path);
	/* a directory to be made: where it would be made from is checked, nothing made */
	if (!ret && o->check_only && (w.pfd = open_out_dir(&w, pdir, errbuf)) == -ENOENT) {
		ret = check_ancestor(&w, pdir, errbuf);
		w.made[0] = '\0';
		w.pfd = -1;
		outw_abort(&w);
		return ret;
	}
	if (!ret && o->check_only && w.pfd < 0)
		ret = w.pfd == -ELOOP ? -ELOOP : errno_msg(errbuf, w.pfd, "%s: cannot use %s: %s",
							   w.o.by, pdir, strerror(-w.pfd));
	if (!ret && !o->check_only)
		ret = (w.pfd = open_dir(&w, pdir, errbuf)) < 0 ? w.pfd : 0;
	ret = ret ?: refuse_system(&w, w.pfd, true, pdir, errbuf);
	ret = ret ?: outw_check_inside(&w, w.pfd, w.target, false, errbuf);
	for (i = 0; !ret && i < ARRAY_SIZE(side); i++) {
		snprintf(name, sizeof(name), "%s%s", w.name, side[i]);
		if (fstatat(w.pfd, name, &st, AT_SYMLINK_NOFOLLOW))
			continue;
		if (S_ISLNK(st.st_mode))
			ret = errno_msg(errbuf, -ELOOP, "%s: %s/%s is a symbolic link: deferbench "
					"does not write through links; %s", w.o.by, pdir, name,
					i ? "remove it" : "name the file itself");
		else if (S_ISDIR(st.st_mode))
			ret = errno_msg(errbuf, -EISDIR, "%s: %s/%s is a directory: name a file in "
					"it (%s/%s/results.db, say)", w.o.by, pdir, name, pdir, name);
		else if (!S_ISREG(st.st_mode))
			ret = errno_msg(errbuf, -EINVAL, "%s: %s/%s is %s, not a regular file: "
					"give the path of a file", w.o.by, pdir, name,
					S_ISFIFO(st.st_mode) ? "a pipe" : S_ISSOCK(st.st_mode) ?
					"a socket" : "a device");
		else
			ret = outw_check_entry(&w, w.target, &st, errbuf);
	}
	if (!ret)
		w.made[0] = '\0';	/* the store's directory, made for the library to write in */
	outw_abort(&w);
	return ret;
}
