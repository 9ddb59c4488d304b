// SPDX-License-Identifier: GPL-2.0
/*
 * record_load.c - a record directory (summary.json with its histograms, intervals,
 * stacks and workload files), which a cell of a run also is, into rundata.h's record.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "ivfile.h"
#include "result_files.h"
#include "rundir.h"
#include "msg.h"
#include "file.h"
#include "workload.h"

static bool file_exists(const char *dir, const char *name)
{
	char p[PATH_MAX];

	return !path_join(p, sizeof(p), dir, name) && access(p, F_OK) == 0;
}

/* load_if - the file name of dir with loader fn, when it is there */
static int load_if(const char *dir, const char *name, struct record *rec, bool *had,
		   int (*fn)(const char *path, struct record *rec, char *errbuf), char *errbuf)
{
	char p[PATH_MAX];

	if (!file_exists(dir, name))
		return 0;
	if (path_join(p, sizeof(p), dir, name))
		return errno_msg(errbuf, -ENAMETOOLONG, "%s: path too long", dir);
	if (had)
		*had = true;
	return fn(p, rec, errbuf);
}

int record_load_workload(const char *dir, struct record *rec, char *errbuf)
{
	char p[PATH_MAX], h[PATH_MAX];
	int ret;

	ret = load_if(dir, "workload-intervals.csv", rec, &rec->has_wl_ivals,
		      ivfile_load_series, errbuf);
	if (ret || !file_exists(dir, "workload.json"))
		return ret;
	ret = path_join(p, sizeof(p), dir, "workload.json");
	ret = ret ?: path_join(h, sizeof(h), dir, "workload-hist.csv");
	if (ret)
		return errno_msg(errbuf, ret, "%s: path too long", dir);
	return workload_load(p, file_exists(dir, "workload-hist.csv") ? h : NULL, &rec->wl,
			     errbuf);
}

int record_load(const char *dir, struct record *rec, char *errbuf)
{
	char p[PATH_MAX];
	int ret;

	if (strlen(dir) >= sizeof(rec->dir))
		return errno_msg(errbuf, -ENAMETOOLONG, "%s: path too long", dir);
	strcpy(rec->dir, dir);
	ret = path_join(p, sizeof(p), dir, "summary.json");
	ret = ret ?: summary_load(p, rec, errbuf);
	ret = ret ?: load_if(dir, "histograms.csv", rec, NULL, histograms_load, errbuf);
	ret = ret ?: load_if(dir, "intervals.csv", rec, &rec->has_ivals, ivfile_load_series,
			     errbuf);
	ret = ret ?: load_if(dir, "stacks.csv", rec, NULL, detail_stacks_load, errbuf);
	return ret ?: record_load_workload(dir, rec, errbuf);
}
