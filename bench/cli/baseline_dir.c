// SPDX-License-Identifier: GPL-2.0
/*
 * baseline_dir.c - where baselines live: the root (--dir, $DEFERBENCH_BASELINE_DIR or
 * the default) and a baseline's directory in it. baseline's verbs and its calibrate
 * verb (cmd_calibrate.c) both need them, and commands share code only through what
 * lies below them.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "cli.h"
#include "rundata.h"
#include "sys.h"

const char *baseline_root(const struct baseline_args *a)
{
	const char *env = getenv("DEFERBENCH_BASELINE_DIR");

	return a->root ? a->root : env && *env ? env : BASELINE_DEFAULT_ROOT;
}

int baseline_dir(const struct baseline_args *a, char *buf, size_t len)
{
	char host[NAME_LEN];
	int n;

	if (a->host)
		snprintf(host, sizeof(host), "%s", a->host);
	else if (host_name(host, sizeof(host)))
		return -EIO;
	n = snprintf(buf, len, "%s/%s/%s", baseline_root(a), host, a->name);
	if (n < 0 || (size_t)n >= len)
		return -ENAMETOOLONG;
	return access(buf, F_OK) ? -ENOENT : 0;
}
