// SPDX-License-Identifier: GPL-2.0
/*
 * test_opts.c - every command's option table, from the registry main.c dispatches
 * from: one meaning per letter across all commands, no name twice within one, old
 * spellings that lead somewhere; and every bounded option refusing what is outside
 * its bounds, in the words its --help announces. No root needed.
 */
#include <ctype.h>
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "cli.h"
#include "fmt.h"
#include "msg.h"

/* letters whose meaning is fixed by convention even where no command uses them yet */
static const struct {
	int letter;
	const char *name;
} reserved[] = {
	{ 'h', "help" }, { 'q', "quiet" }, { 'v', "verbose" },
};

static bool live(const struct opt_desc *o)
{
	return o->type != OPTION_ALIAS && !o->deprecated;
}

/*
 * rows_of - the entries c's command line spells: its own and those its layers bring in
 * (run's: the scenario's settings); a setting of files only (a key alone) is none
 */
static int rows_of(const struct cli_command *c, const struct opt_desc **rows)
{
	int n = opts_rows(c->opts, rows, OPTS_MAX), i, k;

	assert_true(n > 0 && n <= OPTS_MAX);
	for (i = k = 0; i < n; i++)
		if (rows[i]->letter || rows[i]->name)
			rows[k++] = rows[i];
	rows[k] = NULL;
	return k;
}

/* One letter, one long name, across every command (old spellings aside). */
static void test_one_meaning_per_letter(void **state __unused)
{
	const struct cli_command *const *c, *owner[128] = { 0 };
	const struct opt_desc *rows[OPTS_MAX + 1], *o, **r;
	const char *meaning[128] = { 0 };
	int bad = 0;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(reserved); i++)
		meaning[reserved[i].letter] = reserved[i].name;
	for (c = cli_commands; *c; c++) {
		rows_of(*c, rows);
		for (r = rows; (o = *r); r++) {
			if (!o->letter || !live(o))
				continue;
			assert_true(o->letter > 0 && o->letter < 128);
			assert_non_null(o->name);
			if (!meaning[o->letter]) {
				meaning[o->letter] = o->name;
				owner[o->letter] = *c;
			} else if (strcmp(meaning[o->letter], o->name)) {
				print_error("-%c is --%s in %s but --%s in %s\n", o->letter,
					    meaning[o->letter], owner[o->letter] ?
					    owner[o->letter]->name : "convention", o->name,
					    (*c)->name);
				bad++;
			}
		}
	}
	assert_int_equal(bad, 0);
}

/*
 * value_of - what an option takes, as its meaning shows in it: nothing (a flag), a path
 * (DIR or FILE: where the output goes may be either), or its value's name
 */
static const char *value_of(const struct opt_desc *o)
{
	if (!o->metavar)
		return "no value";
	if (!strcmp(o->metavar, "DIR") || !strcmp(o->metavar, "FILE"))
		return "a path";
	return o->metavar;
}

/*
 * One meaning per long name across every command: the same type and the same value
 * (FILE is never PATTERN); --force only ever replaces output a command wrote before
 */
static void test_one_meaning_per_name(void **state __unused)
{
	const struct opt_desc *rows[OPTS_MAX + 1], *first[256] = { 0 }, *o, **r;
	const struct cli_command *const *c, *owner[256] = { 0 };
	const char *names[256] = { 0 };
	size_t n = 0, i;
	int bad = 0;

	for (c = cli_commands; *c; c++)
		for (rows_of(*c, rows), r = rows; (o = *r); r++) {
			if (!o->name || !live(o))
				continue;
			if (!strcmp(o->name, "force") && strncmp(o->help, "replace", 7) &&
			    strncmp(o->help, "-o: replace", 11)) {
				print_error("%s: --force does not replace output: \"%s\"\n",
					    (*c)->name, o->help);
				bad++;
			}
			for (i = 0; i < n && strcmp(names[i], o->name); i++)
				;
			if (i == n) {
				assert_true(n < ARRAY_SIZE(names));
				names[n] = o->name;
				first[n] = o;
				owner[n++] = *c;
				continue;
			}
			if (strcmp(value_of(first[i]), value_of(o))) {
				print_error("--%s takes %s in %s but %s in %s\n", o->name,
					    value_of(first[i]), owner[i]->name, value_of(o),
					    (*c)->name);
				bad++;
			}
		}
	assert_int_equal(bad, 0);
}

/* Within a command: no long name or letter twice, old spellings included. */
static void test_no_name_twice(void **state __unused)
{
	const struct opt_desc *rows[OPTS_MAX + 1], *o, *p, **r, **q;
	const struct cli_command *const *c;
	int bad = 0;

	for (c = cli_commands; *c; c++)
		for (rows_of(*c, rows), r = rows; (o = *r); r++)
			for (q = r + 1; (p = *q); q++) {
				if (o->name && p->name && !strcmp(o->name, p->name)) {
					print_error("%s: --%s twice\n", (*c)->name, o->name);
					bad++;
				}
				if (o->letter && o->letter == p->letter) {
					print_error("%s: -%c twice\n", (*c)->name, o->letter);
					bad++;
				}
			}
	assert_int_equal(bad, 0);
}

/* Every entry has help; an old spelling leads to a live option and says so. */
static void test_tables_complete(void **state __unused)
{
	const struct opt_desc *rows[OPTS_MAX + 1], *o, *r, **e;
	const struct cli_command *const *c;

	for (c = cli_commands; *c; c++) {
		assert_non_null((*c)->usage);
		assert_non_null((*c)->summary);
		assert_true((*c)->args_size > 0);
		assert_non_null(cli_command_find((*c)->name));
		for (rows_of(*c, rows), e = rows; (o = *e); e++) {
			if (o->type == OPTION_ALIAS) {
				r = opts_resolve((*c)->opts, o);
				if (!r || !live(r))
					fail_msg("%s: the old spelling of --%s leads nowhere",
						 (*c)->name, o->alias);
				continue;
			}
			if (o->deprecated) {
				assert_true(*o->deprecated);
				continue;
			}
			if (!o->help || !*o->help)
				fail_msg("%s: --%s has no help", (*c)->name, o->name);
			if (opts_takes_value((*c)->opts, o) && !o->metavar)
				fail_msg("%s: --%s takes a value but names none", (*c)->name,
					 o->name);
		}
	}
}

/* parse_one - "NAME --opt val" through c's table into scratch args; -EINVAL or 0 */
static int parse_one(const struct cli_command *c, const struct opt_desc *o, const char *val,
		     char *err)
{
	char opt[64], *argv[4];
	void *args = calloc(1, c->args_size);
	int argc = 0, first, ret;

	assert_non_null(args);
	if (c->defaults)
		c->defaults(args);
	snprintf(opt, sizeof(opt), "--%s", o->name);
	argv[argc++] = (char *)c->name;
	argv[argc++] = opt;
	if (val)
		argv[argc++] = (char *)val;
	argv[argc] = NULL;
	ret = opts_parse(c->opts, OPTS_PERMUTE, argc, argv, args, &first, err);
	free(args);
	return ret;
}

static void expect_refused(const struct cli_command *c, const struct opt_desc *o,
			   const char *val, const char *want)
{
	char err[ERRBUF_LEN] = "", name[64];

	snprintf(name, sizeof(name), "--%s", o->name);
	if (parse_one(c, o, val, err) != -EINVAL)
		fail_msg("%s %s %s: accepted", c->name, name, val ? val : "(nothing)");
	if (!strstr(err, name) || !strstr(err, want))
		fail_msg("%s %s %s: message '%s' lacks '%s' or '%s'", c->name, name,
			 val ? val : "(nothing)", err, name, want);
}

/* check_refusals - "abc", no value, and values just outside o's bounds are refused */
static void check_refusals(const struct cli_command *c, const struct opt_desc *o)
{
	char v[64], err[ERRBUF_LEN];

	expect_refused(c, o, NULL, "needs a value");
	switch (o->type) {
	case OPTION_INT:
	case OPTION_UINT:
	case OPTION_U64:
		expect_refused(c, o, "abc", "'abc' is not");
		if (o->min) {
			snprintf(v, sizeof(v), "%llu", (unsigned long long)o->min - 1);
			expect_refused(c, o, v, "out of range");
		}
		if (o->max < UINT64_MAX) {
			snprintf(v, sizeof(v), "%llu", (unsigned long long)o->max + 1);
			expect_refused(c, o, v, "out of range");
			snprintf(v, sizeof(v), "%llu", (unsigned long long)o->max);
			assert_int_equal(parse_one(c, o, v, err), 0);
		}
		snprintf(v, sizeof(v), "%llu", (unsigned long long)o->min);
		assert_int_equal(parse_one(c, o, v, err), 0);
		break;
	case OPTION_DURATION:
		expect_refused(c, o, "abc", "'abc' is not a duration");
		if (!o->zero)
			expect_refused(c, o, "0", "positive");
		if (o->min > 1) {
			expect_refused(c, o, fmt_duration(o->min - 1, v, sizeof(v)),
				       o->max ? "is out of range" : "is shorter than");
			assert_int_equal(parse_one(c, o, fmt_duration(o->min, v, sizeof(v)), err),
					 0);
		}
		break;
	case OPTION_DOUBLE:
	case OPTION_PERCENT:
		expect_refused(c, o, "abc", "'abc' is not a number");
		snprintf(v, sizeof(v), "%g", o->fmin / 2);
		expect_refused(c, o, v, "out of range");
		snprintf(v, sizeof(v), "%g", o->fmax * 2);
		expect_refused(c, o, v, "out of range");
		snprintf(v, sizeof(v), "%g", o->fmin);
		assert_int_equal(parse_one(c, o, v, err), 0);
		break;
	case OPTION_ENUM:
		expect_refused(c, o, "abc", "'abc' is none of");
		assert_int_equal(parse_one(c, o, o->choices[0], err), 0);
		break;
	case OPTION_CPULIST:
		expect_refused(c, o, "abc", "");
		break;
	case OPTION_STRING:
		expect_refused(c, o, "", "empty");
		break;
	default:
		break;
	}
}

/*
 * Every option of every command that takes a value refuses "abc", a missing value and
 * values just outside its bounds, with a message naming it; its bounds are accepted.
 */
static void test_values_refused(void **state __unused)
{
	const struct opt_desc *rows[OPTS_MAX + 1], *o, **r;
	const struct cli_command *const *c;

	for (c = cli_commands; *c; c++)
		for (rows_of(*c, rows), r = rows; (o = *r); r++)
			if (live(o) && o->name && opts_takes_value((*c)->opts, o))
				check_refusals(*c, o);
}

/* help - c's --help as a string, every run of white space one blank (freed by the caller) */
static char *help(const struct cli_command *c)
{
	char *buf = NULL, *r, *w;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	cli_usage(f, c);
	fclose(f);
	for (r = w = buf; *r; r++)
		if (*r != ' ' && *r != '\n')
			*w++ = *r;
		else if (w > buf && w[-1] != ' ')
			*w++ = ' ';
	*w = '\0';
	return buf;
}

/* The help shows each option, and the bounds and defaults the parser uses. */
static void test_help_from_the_table(void **state __unused)
{
	const struct opt_desc *rows[OPTS_MAX + 1], *o, **r;
	const struct cli_command *const *c;
	char *h, want[80];

	for (c = cli_commands; *c; c++) {
		h = help(*c);
		for (rows_of(*c, rows), r = rows; (o = *r); r++) {
			if (o->name)
				snprintf(want, sizeof(want), "--%s", o->name);
			else
				snprintf(want, sizeof(want), "-%c", o->letter);
			if (!strstr(h, want))
				fail_msg("%s --help lacks %s", (*c)->name, want);
		}
		free(h);
	}
	h = help(cli_command_find("record"));
	assert_non_null(strstr(h, "ring buffer per CPU in KiB (64..1048576, default 4096)"));
	assert_non_null(strstr(h, "-i, --interval DUR per-interval statistics every DUR in "
			       "intervals.csv (>= 10ms, default 1s)"));
	free(h);
	h = help(cli_command_find("top"));
	assert_non_null(strstr(h, "(>= 100ms, default 1s)"));
	assert_non_null(strstr(h, "(items, p99, max, cpu, inflight or name; default items)"));
	free(h);
	h = help(cli_command_find("history"));
	assert_non_null(strstr(h, "(0.5..0.999, default 0.95)"));
	assert_non_null(strstr(h, "old spellings, still accepted until the next release: "));
	assert_non_null(strstr(h, "--db use -S, --store"));
	free(h);
}

/* The help sends readers to docs pages, not to README sections. */
static void test_help_names_docs(void **state __unused)
{
	const struct cli_command *const *c;
	char *h, page[64];

	for (c = cli_commands; *c; c++) {
		h = help(*c);
		if (strstr(h, "README"))
			fail_msg("%s --help names the README", (*c)->name);
		/* its own page, which exists (the tests run from the top of the tree) */
		snprintf(page, sizeof(page), "docs/%s.md", (*c)->name);
		if (!strstr(h, page))
			fail_msg("%s --help does not name %s", (*c)->name, page);
		if (access(page, R_OK))
			fail_msg("%s --help names %s, which is missing", (*c)->name, page);
		free(h);
	}
}

/* read_text - a file of the tree, whole, NUL-terminated */
static char *read_text(const char *path)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = fopen(path, "r");

	if (!f)
		fail_msg("%s: cannot read it", path);
	if (getdelim(&buf, &len, '\0', f) < 0) {
		free(buf);
		buf = strdup("");
	}
	fclose(f);
	assert_non_null(buf);
	return buf;
}

/* mentions - text names the option opt ("--force"), not a longer one ("--force-x") */
static bool mentions(const char *text, const char *opt)
{
	const char *p;
	size_t n = strlen(opt);

	for (p = strstr(text, opt); p; p = strstr(p + 1, opt))
		if (!isalnum((unsigned char)p[n]) && p[n] != '-' && p[n] != '_')
			return true;
	return false;
}

/*
 * Each command's page names every option its --help lists (common-options.md those
 * several commands share): a page that forgot one is a manual that lies by omission.
 * run's scenario settings (its overrides) are in docs/scenarios.md, whose table
 * test_doc_tables checks.
 */
static void test_docs_name_every_option(void **state __unused)
{
	const struct opt_desc *rows[OPTS_MAX + 1], *o, **r;
	const struct cli_command *const *c;
	char page[64], want[80], *own, *common, *scn;
	int missing = 0;

	common = read_text("docs/common-options.md");
	scn = read_text("docs/scenarios.md");
	for (c = cli_commands; *c; c++) {
		snprintf(page, sizeof(page), "docs/%s.md", (*c)->name);
		own = read_text(page);
		for (rows_of(*c, rows), r = rows; (o = *r); r++) {
			if (!live(o) || !o->name || !strcmp(o->name, "help"))
				continue;
			snprintf(want, sizeof(want), "--%s", o->name);
			if (mentions(own, want))
				continue;
			/* a shared option documented once, where the page points */
			if (mentions(common, want) && strstr(own, "common-options.md"))
				continue;
			if (!strcmp((*c)->name, "run") && mentions(scn, want))
				continue;
			print_message("%s does not document --%s\n", page, o->name);
			missing++;
		}
		free(own);
	}
	free(common);
	free(scn);
	assert_int_equal(missing, 0);
}

/* split - line into argv as a shell would without expansions: '...' and "..." one word */
static int split(char *line, char **argv, int max)
{
	char *r = line, *w = line, q;
	int argc = 0;

	while (*r && argc < max) {
		while (*r == ' ')
			r++;
		if (!*r)
			break;
		argv[argc++] = w;
		for (q = 0; *r && (q || *r != ' '); r++)
			if (!q && (*r == '\'' || *r == '"'))
				q = *r;
			else if (q && *r == q)
				q = 0;
			else
				*w++ = *r;
		if (*r)
			r++;
		*w++ = '\0';
	}
	argv[argc] = NULL;
	return argc;
}

/*
 * Every --help ends with one or two examples, each a command line of that command
 * whose options its parser takes as written.
 */
static void test_help_ends_with_examples(void **state __unused)
{
	const struct cli_command *const *c;
	char line[512], err[ERRBUF_LEN], *argv[32], *buf, *ex;
	const char *s, *nl;
	size_t len;
	int argc, first, n;
	void *args;
	FILE *f;

	for (c = cli_commands; *c; c++) {
		if (!(*c)->examples)
			fail_msg("%s has no examples", (*c)->name);
		buf = NULL;
		f = open_memstream(&buf, &len);
		assert_non_null(f);
		cli_usage(f, *c);
		fclose(f);
		ex = strstr(buf, "\nExamples:\n");
		if (!ex || strstr(ex + 1, "\n\n"))
			fail_msg("%s --help does not end with its examples", (*c)->name);
		free(buf);
		for (n = 0, s = (*c)->examples; *s; s = *nl ? nl + 1 : nl, n++) {
			nl = strchrnul(s, '\n');
			snprintf(line, sizeof(line), "%.*s", (int)(nl - s), s);
			argc = split(line, argv, 31);
			if (argc < 2 || strcmp(argv[0], "deferbench") || strcmp(argv[1], (*c)->name))
				fail_msg("%s: example '%.*s' is not 'deferbench %s ...'", (*c)->name,
					 (int)(nl - s), s, (*c)->name);
			args = calloc(1, (*c)->args_size);
			assert_non_null(args);
			if ((*c)->defaults)
				(*c)->defaults(args);
			err[0] = '\0';
			if (opts_parse((*c)->opts, OPTS_PERMUTE, argc - 1, argv + 1, args, &first,
				       err))
				fail_msg("%s: example '%.*s' does not parse: %s", (*c)->name,
					 (int)(nl - s), s, err);
			free(args);
		}
		if (n < 1 || n > 2)
			fail_msg("%s has %d examples, not one or two", (*c)->name, n);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_one_meaning_per_letter),
		cmocka_unit_test(test_one_meaning_per_name),
		cmocka_unit_test(test_help_ends_with_examples),
		cmocka_unit_test(test_docs_name_every_option),
		cmocka_unit_test(test_no_name_twice),
		cmocka_unit_test(test_tables_complete),
		cmocka_unit_test(test_values_refused),
		cmocka_unit_test(test_help_from_the_table),
		cmocka_unit_test(test_help_names_docs),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
