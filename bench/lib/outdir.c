// SPDX-License-Identifier: GPL-2.0
/*
 * outdir.c - staged output directories (see outdir.h).
 */
#include "outdir.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util.h"

/* dir_is_empty - 1 empty, 0 not empty, -errno */
static int dir_is_empty(const char *dir)
{
	struct dirent *de;
	DIR *d = opendir(dir);
	int empty = 1;

	if (!d)
		return -errno;
	while ((de = readdir(d)))
		if (strcmp(de->d_name, ".") && strcmp(de->d_name, "..")) {
			empty = 0;
			break;
		}
	closedir(d);
	return empty;
}

/* looks_like_results - --force replaces deferbench results, never anything else */
static bool looks_like_results(const char *dir)
{
	static const char *const marks[] = { "summary.json", "raw/capture.json", "run.json" };
	char path[4096];
	size_t i;

	for (i = 0; i < ARRAY_SIZE(marks); i++) {
		snprintf(path, sizeof(path), "%s/%s", dir, marks[i]);
		if (!access(path, F_OK))
			return true;
	}
	return false;
}

int outdir_check(const char *dir, bool force, char *errbuf)
{
	struct stat st;
	int empty;

	if (!dir || !*dir)
		return set_err(errbuf, "the output directory name is empty");
	if (stat(dir, &st)) {
		if (errno == ENOENT)
			return 0;
		return set_err(errbuf, "cannot use output directory %s: %s", dir, strerror(errno));
	}
	if (!S_ISDIR(st.st_mode))
		return set_err(errbuf, "%s exists and is not a directory", dir);
	empty = dir_is_empty(dir);
	if (empty < 0)
		return set_err(errbuf, "cannot read %s: %s", dir, strerror(-empty));
	if (empty)
		return 0;
	if (!looks_like_results(dir))
		return set_err(errbuf, "%s is not empty and holds no deferbench results; "
			       "choose another directory (--force only replaces results)", dir);
	if (!force)
		return set_err(errbuf, "%s already holds results; use --force to replace them, "
			       "or choose another directory", dir);
	return 0;
}

int outdir_stage(const char *dir, char *staging, size_t len, char *errbuf)
{
	char parent[4096], *slash;
	size_t n = strlen(dir);
	int ret;

	/* "out/" must stage beside out, not inside it */
	while (n > 1 && dir[n - 1] == '/')
		n--;
	if ((size_t)snprintf(staging, len, "%.*s.partial-%d", (int)n, dir, (int)getpid()) >= len)
		return set_err(errbuf, "output directory name too long: %s", dir);
	snprintf(parent, sizeof(parent), "%s", staging);
	slash = strrchr(parent, '/');
	if (slash && slash != parent) {
		*slash = '\0';
		ret = mkdir_p(parent, 0755);
		if (ret)
			return set_err(errbuf, "cannot create %s: %s", parent, strerror(-ret));
	}
	rm_rf(staging);
	if (mkdir(staging, 0755))
		return set_err(errbuf, "cannot create %s: %s", staging, strerror(errno));
	return 0;
}

int outdir_commit(const char *dir, const char *staging, char *errbuf)
{
	int ret = rm_rf(dir);

	if (ret)
		return set_err(errbuf, "cannot replace %s: %s", dir, strerror(-ret));
	if (rename(staging, dir))
		return set_err(errbuf, "cannot rename %s to %s: %s", staging, dir,
			       strerror(errno));
	return 0;
}

void outdir_abort(const char *staging)
{
	if (staging && *staging)
		rm_rf(staging);
}
