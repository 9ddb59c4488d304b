// SPDX-License-Identifier: GPL-2.0
/*
 * fixture.c - temporary files for unit tests (see fixture.h).
 */
#include "fixture.h"

#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"

char *fixture_dir(void)
{
	char *d = strdup("/tmp/deferbench-unit.XXXXXX");

	if (!d || !mkdtemp(d)) {
		perror("fixture_dir");
		abort();
	}
	return d;
}

void fixture_free(char *dir)
{
	if (dir)
		rm_rf(dir);
	free(dir);
}

const char *fixture_path(const char *dir, const char *name)
{
	static char p[4096];

	snprintf(p, sizeof(p), "%s/%s", dir, name);
	return p;
}

const char *fixture_write(const char *dir, const char *name, const char *text)
{
	static char p[4096];
	char parent[4096];
	FILE *f;

	snprintf(p, sizeof(p), "%s/%s", dir, name);
	snprintf(parent, sizeof(parent), "%s", p);
	mkdir_p(dirname(parent), 0755);
	f = fopen(p, "w");
	if (!f || fputs(text, f) < 0 || fclose(f)) {
		perror(p);
		abort();
	}
	return p;
}
