// SPDX-License-Identifier: GPL-2.0
/*
 * outdir.c - staged output directories (see outdir.h).
 */
#include "outdir.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "owned.h"
#include "msg.h"
#include "file.h"

/*
 * The names deferbench writes into a result directory: record and analyze (result
 * files, raw/), report (report.md, report.html, plots/, tables/). A directory entry
 * lists what it may hold; a file entry has no list.
 */
struct out_name {
	const char *name;			/* an exact name, or NULL with match */
	bool (*match)(const char *name);
	const struct out_name *sub;		/* a directory's contents; NULL: a file */
};

/* cpu_dat - "cpuN.dat" */
static bool cpu_dat(const char *name)
{
	const char *p = name + 3;

	if (strncmp(name, "cpu", 3) || !isdigit((unsigned char)*p))
		return false;
	while (isdigit((unsigned char)*p))
		p++;
	return !strcmp(p, ".dat");
}

/* event_name - an event format file: lower-case letters, digits and '_' */
static bool event_name(const char *name)
{
	const char *p = name;

	for (; *p; p++)
		if (!islower((unsigned char)*p) && !isdigit((unsigned char)*p) && *p != '_')
			return false;
	return p != name && p - name < 64;
}

bool outdir_report_file(const char *name)
{
	static const char *const ext[] = { ".png", ".svg", ".gp", ".dat", ".log", ".csv" };
	const char *dot = strrchr(name, '.');
	size_t i;

	if (name[0] == '.' || !dot)
		return false;
	for (i = 0; i < ARRAY_SIZE(ext); i++)
		if (!strcmp(dot, ext[i]))
			return true;
	return false;
}

static const struct out_name event_files[] = {
	{ NULL, event_name, NULL },
	{ NULL },
};

static const struct out_name format_dirs[] = {
	{ "irq", NULL, event_files },
	{ "workqueue", NULL, event_files },
	{ "sched", NULL, event_files },
	{ "napi", NULL, event_files },
	{ "irq_vectors", NULL, event_files },
	{ "ftrace", NULL, event_files },
	{ NULL },
};

static const struct out_name raw_files[] = {
	{ "capture.json" }, { "header_page" }, { "comms" }, { "symbols" },
	{ NULL, cpu_dat, NULL },
	{ "formats", NULL, format_dirs },
	{ NULL },
};

/* vector_name - a softirq vector's name ("NET_RX"): upper-case letters and '_' */
static bool vector_name(const char *name)
{
	const char *p = name;

	for (; *p; p++)
		if (!isupper((unsigned char)*p) && *p != '_')
			return false;
	return p != name && p - name < 16;
}

/* record --keep-worst: worst/VECTOR/raw, a raw capture around the vector's worst delay */
static const struct out_name excerpt_files[] = {
	{ "raw", NULL, raw_files },
	{ NULL },
};

static const struct out_name worst_dirs[] = {
	{ NULL, vector_name, excerpt_files },
	{ NULL },
};

static const struct out_name report_files[] = {
	{ NULL, outdir_report_file, NULL },
	{ NULL },
};

static const struct out_name result_files[] = {
	{ "summary.json" }, { "softirq.csv" }, { "workqueue.csv" }, { "histograms.csv" },
	{ "contexts.csv" }, { "softirq_wait.csv" }, { "intervals.csv" }, { "report.md" },
	{ "report.html" }, { "slowest.csv" }, { "stacks.csv" }, { "stacks.folded" },
	{ "raw", NULL, raw_files },
	{ "worst", NULL, worst_dirs },
	{ "plots", NULL, report_files },
	{ "tables", NULL, report_files },
	{ NULL },
};

static const struct out_name *known_entry(const struct out_name *list, const char *name)
{
	for (; list->name || list->match; list++)
		if (list->name ? !strcmp(list->name, name) : list->match(name))
			return list;
	return NULL;
}

static bool dot_or_dotdot(const char *name)
{
	return !strcmp(name, ".") || !strcmp(name, "..");
}

/* dir_is_empty - 1 empty, 0 not empty, -errno */
static int dir_is_empty(const char *dir)
{
	struct dirent *de;
	DIR *d = opendir(dir);
	int empty = 1;

	if (!d)
		return -errno;
	while ((de = readdir(d)))
		if (!dot_or_dotdot(de->d_name)) {
			empty = 0;
			break;
		}
	closedir(d);
	return empty;
}

/*
 * find_foreign - the first entry under the directory dfd that deferbench did not
 * write (a wrong name, or a right name of the wrong type, symbolic links included):
 * 1 with its relative path appended to rel, 0 when there is none, or -errno.
 * dfd is consumed.
 */
static int find_foreign(int dfd, const struct out_name *list, char *rel, size_t len)
{
	size_t base = strlen(rel);
	struct dirent *de;
	struct stat st;
	int ret = 0;
	DIR *d = fdopendir(dfd);

	if (!d) {
		ret = -errno;
		close(dfd);
		return ret;
	}
	while (!ret && (errno = 0, de = readdir(d))) {
		const struct out_name *k;
		int sub;

		if (dot_or_dotdot(de->d_name))
			continue;
		snprintf(rel + base, len - base, "%s%s", base ? "/" : "", de->d_name);
		k = known_entry(list, de->d_name);
		if (fstatat(dirfd(d), de->d_name, &st, AT_SYMLINK_NOFOLLOW)) {
			ret = errno == ENOENT ? 0 : -errno;
			continue;
		}
		if (!k || (k->sub ? !S_ISDIR(st.st_mode) : !S_ISREG(st.st_mode))) {
			ret = 1;
			break;
		}
		if (!k->sub)
			continue;
		sub = openat(dirfd(d), de->d_name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		ret = sub < 0 ? -errno : find_foreign(sub, k->sub, rel, len);
	}
	if (!ret && !de && errno)
		ret = -errno;
	if (ret <= 0)
		rel[base] = '\0';
	closedir(d);
	return ret;
}

/* dir_foreign - find_foreign() of a directory by path */
static int dir_foreign(const char *dir, char *rel, size_t len)
{
	int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);

	rel[0] = '\0';
	if (fd < 0)
		return -errno;
	return find_foreign(fd, result_files, rel, len);
}

/* remove_known - unlink deferbench's names under dfd; 1 when anything else remains */
static int remove_known(int dfd, const struct out_name *list)
{
	struct dirent *de;
	struct stat st;
	int left = 0;
	DIR *d = fdopendir(dfd);

	if (!d) {
		close(dfd);
		return -errno;
	}
	while ((de = readdir(d))) {
		const struct out_name *k;
		int sub, r;

		if (dot_or_dotdot(de->d_name))
			continue;
		k = known_entry(list, de->d_name);
		if (fstatat(dirfd(d), de->d_name, &st, AT_SYMLINK_NOFOLLOW) ||
		    !k || (k->sub ? !S_ISDIR(st.st_mode) : !S_ISREG(st.st_mode))) {
			left = 1;
			continue;
		}
		if (!k->sub) {
			if (unlinkat(dirfd(d), de->d_name, 0) && errno != ENOENT)
				left = 1;
			continue;
		}
		sub = openat(dirfd(d), de->d_name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		r = sub < 0 ? 1 : remove_known(sub, k->sub);
		if (r || unlinkat(dirfd(d), de->d_name, AT_REMOVEDIR))
			left = 1;
	}
	closedir(d);
	return left;
}

int results_remove(const char *dir)
{
	int fd = open(dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC), ret;

	if (fd < 0)
		return errno == ENOENT ? 0 : -errno;
	ret = remove_known(fd, result_files);
	if (ret < 0)
		return ret;
	if (rmdir(dir))
		return errno == ENOTEMPTY || errno == EEXIST ? -ENOTEMPTY : -errno;
	return ret ? -ENOTEMPTY : 0;
}

/*
 * resolve - an absolute path without symbolic links, "." or "..", also for a path
 * that does not exist yet: its longest existing prefix is resolved, the rest is
 * appended with "." and ".." applied. 0 or -errno.
 */
static int resolve(const char *path, char *out)
{
	char head[PATH_MAX], tail[PATH_MAX] = "", *slash, *tok;
	size_t n;

	if (snprintf(head, sizeof(head), "%s", path) >= (int)sizeof(head))
		return -ENAMETOOLONG;
	while (!realpath(head, out)) {
		if (errno != ENOENT)
			return -errno;
		slash = strrchr(head, '/');
		while (slash && slash > head && slash[1] == '\0') {
			*slash = '\0';	/* trailing slashes */
			slash = strrchr(head, '/');
		}
		if (snprintf(tail + strlen(tail), sizeof(tail) - strlen(tail), "\x01%s",
			     slash ? slash + 1 : head) >= (int)(sizeof(tail) - strlen(tail)))
			return -ENAMETOOLONG;
		if (!slash)
			snprintf(head, sizeof(head), ".");
		else if (slash == head)
			snprintf(head, sizeof(head), "/");
		else
			*slash = '\0';
	}
	/* tail holds the missing components, last first, each after a \x01 */
	while ((slash = strrchr(tail, '\x01'))) {
		tok = slash + 1;
		*slash = '\0';
		if (!*tok || !strcmp(tok, "."))
			continue;
		if (!strcmp(tok, "..")) {
			char *up = strrchr(out, '/');

			if (up && up != out)
				*up = '\0';
			else
				snprintf(out, PATH_MAX, "/");
			continue;
		}
		n = strlen(out);
		if (snprintf(out + n, PATH_MAX - n, "%s%s", n > 1 ? "/" : "", tok) >=
		    (int)(PATH_MAX - n))
			return -ENAMETOOLONG;
	}
	return 0;
}

/* within - a is b or lies inside it (both resolved) */
static bool within(const char *a, const char *b)
{
	size_t n = strlen(b);

	if (!strcmp(b, "/"))
		return true;
	return !strncmp(a, b, n) && (a[n] == '\0' || a[n] == '/');
}

static int check_inputs(const char *dir, const char *const *inputs, char *errbuf)
{
	char out[PATH_MAX], in[PATH_MAX];

	if (!inputs || !*inputs)
		return 0;
	if (resolve(dir, out))
		return set_err(errbuf, "cannot resolve the output directory %s: %s", dir,
			       strerror(errno));
	for (; *inputs; inputs++) {
		if (resolve(*inputs, in))
			continue;
		if (within(in, out) || within(out, in))
			return set_err(errbuf, "the output directory %s %s %s, which this command "
				       "reads: results never replace their input; choose another "
				       "directory", dir, within(in, out) ? "is or holds" : "lies in",
				       *inputs);
	}
	return 0;
}

int outdir_check(const char *dir, bool force, const char *const *inputs, char *errbuf)
{
	char rel[PATH_MAX];
	struct stat st;
	int ret;

	if (!dir || !*dir)
		return set_err(errbuf, "the output directory name is empty");
	/* the staging name is longer by ".partial-PID" */
	if (path_check(dir, errbuf) || strlen(dir) + 24 >= PATH_MAX)
		return -ENAMETOOLONG;
	if (check_inputs(dir, inputs, errbuf))
		return -EINVAL;
	if (stat(dir, &st)) {
		if (errno == ENOENT)
			return 0;
		return set_err(errbuf, "cannot use output directory %s: %s", dir, strerror(errno));
	}
	if (!S_ISDIR(st.st_mode))
		return set_err(errbuf, "%s exists and is not a directory", dir);
	ret = dir_foreign(dir, rel, sizeof(rel));
	if (ret < 0)
		return set_err(errbuf, "cannot read %s: %s", dir, strerror(-ret));
	if (ret)
		return set_err(errbuf, "%s holds '%s', which deferbench did not write: --force only "
			       "replaces deferbench's own files; choose another directory", dir, rel);
	/* only deferbench's files, or none at all */
	ret = dir_is_empty(dir);
	if (ret < 0)
		return set_err(errbuf, "cannot read %s: %s", dir, strerror(-ret));
	if (!ret && !force)
		return set_err(errbuf, "%s already holds results; use --force to replace them, "
			       "or choose another directory", dir);
	return 0;
}

int outdir_writable(const char *dir, char *errbuf)
{
	char probe[PATH_MAX], *slash;
	struct stat st;
	int ret;

	ret = path_check(dir, errbuf);
	if (ret)
		return ret;
	/* the directory, or the nearest ancestor that exists, which mkdir -p starts from */
	snprintf(probe, sizeof(probe), "%s", dir);
	while (stat(probe, &st)) {
		if (errno != ENOENT || !strcmp(probe, ".") || !strcmp(probe, "/"))
			return set_errno(errbuf, -errno, "cannot use %s: %s", probe, strerror(errno));
		slash = strrchr(probe, '/');
		while (slash && slash > probe && !slash[1]) {
			*slash = '\0';
			slash = strrchr(probe, '/');
		}
		if (!slash)
			snprintf(probe, sizeof(probe), ".");
		else if (slash == probe)
			probe[1] = '\0';
		else
			*slash = '\0';
	}
	if (!S_ISDIR(st.st_mode) && !strcmp(probe, dir))
		return set_errno(errbuf, -ENOTDIR, "%s exists and is not a directory", dir);
	if (!S_ISDIR(st.st_mode))
		return set_errno(errbuf, -ENOTDIR, "%s is not a directory: it cannot hold %s",
				 probe, dir);
	if (access(probe, W_OK | X_OK))
		return set_errno(errbuf, -errno, "cannot write in %s: %s", probe, strerror(errno));
	return 0;
}

/* strip_slashes - the length of dir without trailing slashes ("out/" stages beside out) */
static int strip_slashes(const char *dir)
{
	size_t n = strlen(dir);

	while (n > 1 && dir[n - 1] == '/')
		n--;
	return (int)n;
}

int outdir_stage(const char *dir, char *staging, size_t len, char *errbuf)
{
	char parent[4096], *slash;
	int n = strip_slashes(dir), ret;

	if ((size_t)snprintf(staging, len, "%.*s.partial-%d", n, dir, (int)getpid()) >= len)
		return set_err(errbuf, "output directory name too long: %s", dir);
	snprintf(parent, sizeof(parent), "%s", staging);
	slash = strrchr(parent, '/');
	if (slash && slash != parent) {
		*slash = '\0';
		ret = mkdir_p(parent, 0755);
		if (ret)
			return set_err(errbuf, "cannot create %s: %s", parent, strerror(-ret));
	}
	/* one left by a dead process that had our pid: only its own files go */
	ret = results_remove(staging);
	if (ret)
		return set_err(errbuf, "%s is in the way (%s); remove it or choose another "
			       "directory", staging, ret == -ENOTEMPTY ?
			       "it holds files deferbench did not write" : strerror(-ret));
	/* journaled first: after a SIGKILL, 'deferbench restore' removes it */
	owned_add(OWN_STAGING, staging);
	if (mkdir(staging, 0755)) {
		ret = errno;
		owned_forget(OWN_STAGING, staging);
		return set_err(errbuf, "cannot create %s: %s", staging, strerror(ret));
	}
	return 0;
}

int outdir_commit(const char *dir, char *staging, char *errbuf)
{
	char old[PATH_MAX + 32], rel[PATH_MAX];
	int n = strip_slashes(dir), ret;
	struct stat st;

	if (lstat(dir, &st) && errno == ENOENT)
		goto install;
	ret = dir_foreign(dir, rel, sizeof(rel));
	if (ret) {
		set_err(errbuf, "%s %s%s%s: it is left as it is, and the new results are in %s",
			dir, ret > 0 ? "now holds '" : "cannot be read: ",
			ret > 0 ? rel : strerror(-ret),
			ret > 0 ? "', which deferbench did not write" : "", staging);
		/* the user's now: restore must not remove them */
		owned_forget(OWN_STAGING, staging);
		staging[0] = '\0';
		return -EEXIST;
	}
	/* the old results move aside until the new ones are in place */
	if ((size_t)snprintf(old, sizeof(old), "%.*s.old-%d", n, dir, (int)getpid()) >=
	    sizeof(old))
		return set_err(errbuf, "output directory name too long: %s", dir);
	if (results_remove(old))
		return set_err(errbuf, "%s is in the way; remove it", old);
	/* a kill between the two renames: restore puts the old results back */
	owned_add(OWN_OLD, old);
	if (rename(dir, old)) {
		ret = errno;
		owned_forget(OWN_OLD, old);
		return set_err(errbuf, "cannot move %s aside: %s", dir, strerror(ret));
	}
	if (rename(staging, dir)) {
		ret = errno;
		if (!rename(old, dir))
			owned_forget(OWN_OLD, old);
		return set_err(errbuf, "cannot rename %s to %s: %s", staging, dir, strerror(ret));
	}
	owned_forget(OWN_STAGING, staging);
	ret = results_remove(old);
	if (ret)
		warn_msg("kept %s (the earlier results): %s", old, ret == -ENOTEMPTY ?
			 "it holds files deferbench did not write" : strerror(-ret));
	owned_forget(OWN_OLD, old);
	return 0;
install:
	if (rename(staging, dir))
		return set_err(errbuf, "cannot rename %s to %s: %s", staging, dir,
			       strerror(errno));
	owned_forget(OWN_STAGING, staging);
	return 0;
}

void outdir_abort(const char *staging)
{
	if (!staging || !*staging)
		return;
	/* the staging directory is ours, but what is not ours in it stays */
	if (results_remove(staging) == -ENOTEMPTY)
		warn_msg("kept %s: it holds files deferbench did not write", staging);
	owned_forget(OWN_STAGING, staging);
}
