// SPDX-License-Identifier: GPL-2.0
/*
 * test_doc_options.c - a command page's Options table against the command's option
 * table, as git's t0450 holds its documentation to --help: every option a command
 * takes has its row ("| `-d, --duration DUR` |"), and every row names an option the
 * command takes. The pages held to it are listed in pages[]; add one once its table is
 * complete. Runs from the top of the tree (make unit does). No root.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "msg.h"

static const char *const pages[] = { "tune", NULL };

/* options_table - the rows of the page's "## Options" table, as one string (malloc'ed) */
static char *options_table(const char *cmd)
{
	char path[64], line[2048];
	size_t len = 0, cap = 1 << 14;
	char *out = calloc(1, cap);
	bool in = false;
	FILE *f;

	snprintf(path, sizeof(path), "docs/%s.md", cmd);
	f = fopen(path, "r");
	if (!f)
		fail_msg("%s: cannot read it", path);
	while (fgets(line, sizeof(line), f)) {
		if (!strncmp(line, "## ", 3))
			in = !strcmp(line, "## Options\n");
		else if (in && line[0] == '|' && len + strlen(line) < cap - 1) {
			memcpy(out + len, line, strlen(line) + 1);
			len += strlen(line);
		}
	}
	fclose(f);
	if (!len)
		fail_msg("%s has no '## Options' table", path);
	return out;
}

/* row_of - the table's row for option o ("| `-d, --duration DUR` |"), or NULL */
static const char *row_of(const char *table, const struct opt_desc *o)
{
	char want[96];
	const char *p;
	size_t n;

	n = (size_t)snprintf(want, sizeof(want), "--%s", o->name);
	for (p = strstr(table, want); p; p = strstr(p + 1, want))
		if (p > table && (p[-1] == '`' || p[-1] == ' ') &&
		    !isalnum((unsigned char)p[n]) && p[n] != '-')
			return p;
	return NULL;
}

static void test_pages(void **state)
{
	const char *const *pg;

	(void)state;
	for (pg = pages; *pg; pg++) {
		const struct cli_command *c = cli_command_find(*pg);
		const struct opt_desc *o;
		char *table, *p, name[64];

		assert_non_null(c);
		table = options_table(*pg);
		for (o = c->opts; o->type != OPTION_END; o++) {
			if (!o->name || o->type == OPTION_ALIAS || o->deprecated)
				continue;
			if (!row_of(table, o))
				fail_msg("docs/%s.md: no row for --%s in its Options table", *pg,
					 o->name);
		}
		/* and nothing there the command does not take */
		for (p = strstr(table, "| `"); p; p = strstr(p + 1, "| `")) {
			/* the row's first cell: "| `-d, --duration DUR` |" */
			const char *dd = strstr(p, "--"), *end = strchr(p + 3, '`');
			size_t n;
			bool known = false;

			if (!dd || !end || dd > end)
				continue;
			n = strspn(dd + 2, "abcdefghijklmnopqrstuvwxyz0123456789-");
			snprintf(name, sizeof(name), "%.*s", (int)n, dd + 2);
			for (o = c->opts; o->type != OPTION_END; o++)
				known |= o->name && !strcmp(o->name, name);
			if (!known)
				fail_msg("docs/%s.md: its Options table names --%s, which %s does not "
					 "take", *pg, name, *pg);
		}
		free(table);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_pages),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
