// SPDX-License-Identifier: GPL-2.0
/*
 * test_symtab.c - naming work functions from kallsyms-format text: exact matches,
 * offsets inside a function, addresses no symbol covers, text symbols only, module
 * suffixes, lines that are not symbols; and the "symbols" file a raw capture keeps,
 * which must name the same addresses the same way when read back.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "symtab.h"
#include "msg.h"
#include "file.h"

static char dir[64];
static char err[ERRBUF_LEN];

/* write_text - text into dir/name; returns the path (static buffer) */
static const char *write_text(const char *name, const char *text)
{
	static char path[128];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
	return path;
}

/* unsorted, as /proc/kallsyms is not; data symbols and noise in between */
static const char kallsyms[] =
	"ffffffff81200000 T wb_workfn\n"
	"ffffffff81000000 T _stext\n"
	"ffffffff81100010 t flush_to_ldisc\n"
	"ffffffff81100000 D some_data\n"
	"ffffffff81300000 T vmstat_update\t[some_module]\n"
	"this is not a symbol line\n"
	"ffffffff81400000 W weak_symbol\n"
	"\n"
	"ffffffff81180000 T wq_barrier_func\n";

static const char *name(const struct symtab *t, uint64_t addr)
{
	static char buf[128];

	return symtab_name(t, addr, buf, sizeof(buf));
}

static void test_names(void **state __unused)
{
	struct symtab t;

	assert_int_equal(symtab_load(&t, write_text("kallsyms", kallsyms), err), 0);
	assert_int_equal(t.n, 5);			/* T and t only */
	assert_string_equal(name(&t, 0xffffffff81100010ULL), "flush_to_ldisc");
	assert_string_equal(name(&t, 0xffffffff81100020ULL), "flush_to_ldisc+0x10");
	assert_string_equal(name(&t, 0xffffffff81200000ULL), "wb_workfn");
	/* the module suffix is not part of the name */
	assert_string_equal(name(&t, 0xffffffff81300000ULL), "vmstat_update");
	/* a data symbol names nothing: the text symbol below it does */
	assert_string_equal(name(&t, 0xffffffff81100000ULL), "_stext+0x100000");
	/* below the first symbol, or more than 1 MiB past the last: the address */
	assert_string_equal(name(&t, 0xffffffff80ffffffULL), "0xffffffff80ffffff");
	assert_string_equal(name(&t, 0xffffffff81300000ULL + (1 << 20) + 1),
			    "0xffffffff81400001");
	assert_int_equal(symtab_addr(&t, "wq_barrier_func"), 0xffffffff81180000ULL);
	assert_int_equal(symtab_addr(&t, "some_data"), 0);
	assert_int_equal(symtab_addr(&t, "no_such_function"), 0);
	symtab_free(&t);
}

/* kallsyms read without root shows every address as 0: no name may come of it */
static void test_zero_addresses(void **state __unused)
{
	struct symtab t;

	assert_int_equal(symtab_load(&t, write_text("zeros",
				"0000000000000000 T flush_to_ldisc\n"
				"0000000000000000 T wb_workfn\n"), err), 0);
	assert_string_equal(name(&t, 0xffffffff81100010ULL), "0xffffffff81100010");
	assert_string_equal(name(&t, 0x10), "0x10");
	symtab_free(&t);
}

/* the raw capture's "symbols": the symbols of the addresses seen, named alike offline */
static void test_save_reload(void **state __unused)
{
	static const uint64_t seen[] = { 0xffffffff81100010ULL, 0xffffffff81200040ULL,
					 0xffffffff80000000ULL };
	char path[128], live[3][128];
	struct symtab t, u;
	size_t i;

	assert_int_equal(symtab_load(&t, write_text("kallsyms", kallsyms), err), 0);
	for (i = 0; i < 3; i++)
		symtab_name(&t, seen[i], live[i], sizeof(live[i]));
	snprintf(path, sizeof(path), "%s/symbols", dir);
	assert_int_equal(symtab_save(&t, seen, 3, path), 0);
	assert_int_equal(symtab_load(&u, path, err), 0);
	assert_int_equal(u.n, 2);		/* the unknown address has no symbol to save */
	for (i = 0; i < 3; i++)
		assert_string_equal(name(&u, seen[i]), live[i]);
	assert_string_equal(live[1], "wb_workfn+0x40");
	symtab_free(&t);
	symtab_free(&u);
}

static void test_missing_file(void **state __unused)
{
	struct symtab t;
	char path[128];

	snprintf(path, sizeof(path), "%s/nonexistent", dir);
	assert_int_equal(symtab_load(&t, path, err), -ENOENT);
	assert_non_null(strstr(err, "nonexistent"));
}

static int setup(void **state __unused)
{
	snprintf(dir, sizeof(dir), "/tmp/deferbench-test-symtab.XXXXXX");
	return mkdtemp(dir) ? 0 : -1;
}

static int teardown(void **state __unused)
{
	return path_rm_rf(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_names),
		cmocka_unit_test(test_zero_addresses),
		cmocka_unit_test(test_save_reload),
		cmocka_unit_test(test_missing_file),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
