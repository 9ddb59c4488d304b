/* SPDX-License-Identifier: GPL-2.0 */
/*
 * doc.h - one document written as Markdown and as HTML at the same time, so report.md
 * and report.html cannot say different things. Either output may be absent (NULL path).
 * Text is escaped for each format here; callers pass plain text. Errors are sticky:
 * doc_close() returns 0 or the first -errno.
 *
 * The HTML is one file to send: its images are inside it (data: URIs of the SVG or the
 * PNG, whichever is smaller, read from the directory given to doc_open), it links no
 * file, and sections can fold (<details>). Markdown links the image files beside it and
 * shows every section open.
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
	char *base;		/* the directory image paths are relative to */
	bool in_list;
	bool in_table;
	bool in_plots;		/* consecutive images share a row when the page is wide */
	int depth;		/* open doc_details() */
	int err;
};

/* doc_open - base: the directory image paths are relative to (NULL: ".") */
int doc_open(struct doc *d, const char *md_path, const char *html_path, const char *title,
	     const char *base);
void doc_h(struct doc *d, int level, const char *fmt, ...) __printf(3, 4);
/* doc_h_id - a heading that links can point at (#id; id of [A-Za-z0-9_-]) */
void doc_h_id(struct doc *d, int level, const char *id, const char *fmt, ...) __printf(4, 5);
/*
 * doc_details - a section that folds in HTML, open or closed, with a heading as its
 * summary; Markdown has the heading. Ends with doc_details_end().
 */
void doc_details(struct doc *d, int level, const char *id, bool open, const char *fmt, ...)
	__printf(5, 6);
void doc_details_end(struct doc *d);
/* doc_div, doc_div_end - an HTML block of a CSS class for layout; nothing in Markdown */
void doc_div(struct doc *d, const char *cls);
void doc_div_end(struct doc *d);
/* doc_li_link - a bullet that is a link (to "#id" or a file beside the document) */
void doc_li_link(struct doc *d, const char *href, const char *fmt, ...) __printf(3, 4);
void doc_p(struct doc *d, const char *fmt, ...) __printf(2, 3);
/* doc_li - a bullet; consecutive bullets form one list, any other element ends it */
void doc_li(struct doc *d, const char *fmt, ...) __printf(2, 3);
/* doc_li_lead - a bullet that opens with lead in bold ("**tty** drives ...") */
void doc_li_lead(struct doc *d, const char *lead, const char *fmt, ...) __printf(3, 4);
void doc_table(struct doc *d, const char *const *hdr, size_t n);
void doc_row(struct doc *d, const char *const *cells, size_t n);
void doc_table_end(struct doc *d);
/*
 * doc_img - an image, a PNG and its SVG twin (consecutive images stand side by side in
 * the HTML where the page is wide enough, each at its own size) (svg may be NULL; png may be an SVG too)
 * relative to base: inside the HTML as a data: URI of the smaller of the two (the file's
 * name when neither can be read); Markdown shows the PNG and links the SVG
 */
void doc_img(struct doc *d, const char *png, const char *svg, const char *alt);
int doc_close(struct doc *d);

/* Escapers: write s to f escaped for Markdown text, HTML/XML text and attributes. */
void doc_md_escape(FILE *f, const char *s);
void doc_xml_escape(FILE *f, const char *s);

#endif
