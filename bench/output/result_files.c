// SPDX-License-Identifier: GPL-2.0
/*
 * result_files.c - the whole result directory of a capture: summary.json and the CSV
 * files (result_files.h says which file each writer owns).
 */
#include <limits.h>
#include <stdio.h>

#include "result_files.h"

int result_write_dir(const struct result *r, const char *dir)
{
	char path[PATH_MAX];
	int ret;

	snprintf(path, sizeof(path), "%s/summary.json", dir);
	ret = summary_write(r, path);
	if (ret)
		return ret;
	return tables_write(r, dir);
}
