// SPDX-License-Identifier: GPL-2.0
/*
 * doc-tables.c - write the generated tables of settings in docs/ anew (doc_tables.h):
 * 'make doc-tables', run from the top of the tree after a setting changed.
 */
#include <stdio.h>

#include "doc_tables.h"
#include "msg.h"

int main(void)
{
	char err[ERRBUF_LEN];

	if (doc_tables(".", true, err)) {
		fprintf(stderr, "doc-tables: %s\n", err);
		return 1;
	}
	return 0;
}
