// SPDX-License-Identifier: GPL-2.0
/*
 * fixture.c - temporary files for unit tests (see fixture.h).
 */
#include "fixture.h"

#include <libgen.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "file.h"

/*
 * The directories not freed yet: a failed assertion leaves its test at once (cmocka
 * jumps out of it), so the test's own fixture_free() never runs; they are removed when
 * the test binary exits.
 */
#define FIXTURE_MAX 64
static char *live[FIXTURE_MAX];

static void remove_leftovers(void)
{
	int i;

	for (i = 0; i < FIXTURE_MAX; i++)
		if (live[i])
			path_rm_rf(live[i]);
}

char *fixture_dir(void)
{
	static bool registered;
	char *d = strdup("/tmp/deferbench-unit.XXXXXX");
	int i;

	if (!d || !mkdtemp(d)) {
		perror("fixture_dir");
		abort();
	}
	if (!registered)
		registered = !atexit(remove_leftovers);
	for (i = 0; i < FIXTURE_MAX && live[i]; i++)
		;
	if (i < FIXTURE_MAX)
		live[i] = d;
	return d;
}

void fixture_free(char *dir)
{
	int i;

	if (!dir)
		return;
	for (i = 0; i < FIXTURE_MAX; i++)
		if (live[i] == dir)
			live[i] = NULL;
	path_rm_rf(dir);
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
	path_mkdir(dirname(parent), 0755);
	f = fopen(p, "w");
	if (!f || fputs(text, f) < 0 || fclose(f)) {
		perror(p);
		abort();
	}
	return p;
}
