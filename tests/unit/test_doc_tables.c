// SPDX-License-Identifier: GPL-2.0
/*
 * test_doc_tables.c - the tables of settings in docs/scenarios.md and
 * docs/common-options.md are what the option tables declare (git's
 * t0450-txt-doc-vs-help.sh checks its manual pages against -h the same way). Run from
 * the top of the tree; 'make doc-tables' writes them anew.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "doc_tables.h"
#include "msg.h"

static void test_docs_match_tables(void **state __unused)
{
	char err[ERRBUF_LEN] = "";

	if (doc_tables(".", false, err))
		fail_msg("%s", err);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_docs_match_tables),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
