/* SPDX-License-Identifier: GPL-2.0 */
/*
 * doc.h - one document written as Markdown and as HTML at the same time, so report.md
 * and report.html cannot say different things. Either output may be absent (NULL path).
 * Text is escaped for each format here; callers pass plain text. Errors are sticky:
 * doc_close() returns 0 or the first -errno.
 */
#ifndef DEFERBENCH_DOC_H
#define DEFERBENCH_DOC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "fmt.h"
#include "common.h"

struct doc {
	FILE *md;
	FILE *html;
	bool in_list;
	bool in_table;
	int err;
};

int doc_open(struct doc *d, const char *md_path, const char *html_path, const char *title);
void doc_h(struct doc *d, int level, const char *fmt, ...) __printf(3, 4);
void doc_p(struct doc *d, const char *fmt, ...) __printf(2, 3);
/* doc_li - a bullet; consecutive bullets form one list, any other element ends it */
void doc_li(struct doc *d, const char *fmt, ...) __printf(2, 3);
void doc_table(struct doc *d, const char *const *hdr, size_t n);
void doc_row(struct doc *d, const char *const *cells, size_t n);
void doc_table_end(struct doc *d);
/* doc_img - an image file relative to the document, with a link to its SVG twin */
void doc_img(struct doc *d, const char *png, const char *svg, const char *alt);
/* doc_pre - preformatted text */
void doc_pre(struct doc *d, const char *text);
int doc_close(struct doc *d);

/* Escapers: write s to f escaped for Markdown text, HTML/XML text and attributes. */
void md_escape(FILE *f, const char *s);
void xml_escape(FILE *f, const char *s);

#endif
