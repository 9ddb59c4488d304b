// SPDX-License-Identifier: GPL-2.0
/*
 * outdir.c - the names deferbench's results have, for staging directories that an
 * older deferbench left (see outdir.h).
 */
#include "outdir.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common.h"

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

int outdir_results_remove(const char *dir)
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
