// SPDX-License-Identifier: GPL-2.0
/*
 * doc.c - Markdown + HTML document writer (see doc.h).
 */
#include "doc.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "outw.h"

static const char html_head[] =
	"<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
	"<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
	"<style>\n"
	"body { font-family: sans-serif; max-width: 72em; margin: 1em auto; padding: 0 1em;"
	" color: #222; }\n"
	"table { border-collapse: collapse; margin: 0.5em 0 1.5em; font-size: 0.9em; }\n"
	"th, td { border: 1px solid #bbb; padding: 0.2em 0.5em; text-align: right; }\n"
	"th { background: #eee; }\n"
	"td:first-child, th:first-child { text-align: left; }\n"
	"img { max-width: 100%; height: auto; border: 1px solid #ddd; }\n"
	"pre { background: #f6f6f6; padding: 0.5em; overflow-x: auto; }\n"
	"</style>\n";

void md_escape(FILE *f, const char *s)
{
	for (; *s; s++) {
		if (strchr("\\`*_<>|#", *s))
			fputc('\\', f);
		fputc(*s == '\n' ? ' ' : *s, f);
	}
}

void xml_escape(FILE *f, const char *s)
{
	for (; *s; s++) {
		switch (*s) {
		case '&': fputs("&amp;", f); break;
		case '<': fputs("&lt;", f); break;
		case '>': fputs("&gt;", f); break;
		case '"': fputs("&quot;", f); break;
		case '\'': fputs("&#39;", f); break;
		default:
			/* XML 1.0 has no representation for most control characters */
			fputc((unsigned char)*s < 0x20 && *s != '\n' && *s != '\t' ? '?' : *s, f);
		}
	}
}

int doc_open(struct doc *d, const char *md_path, const char *html_path, const char *title)
{
	memset(d, 0, sizeof(*d));
	if (md_path && !(d->md = out_fopen(md_path)))
		return -errno;
	if (html_path && !(d->html = out_fopen(html_path))) {
		int e = -errno;

		fclose(d->md);
		d->md = NULL;
		return e;
	}
	if (d->html) {
		fputs(html_head, d->html);
		fputs("<title>", d->html);
		xml_escape(d->html, title);
		fputs("</title>\n</head>\n<body>\n", d->html);
	}
	doc_h(d, 1, "%s", title);
	return 0;
}

/* block - close an open list before any other element */
static void block(struct doc *d)
{
	if (!d->in_list)
		return;
	if (d->md)
		fputc('\n', d->md);
	if (d->html)
		fputs("</ul>\n", d->html);
	d->in_list = false;
}

static char *vfmt(const char *fmt, va_list ap)
{
	char *s;

	if (vasprintf(&s, fmt, ap) < 0)
		return NULL;
	return s;
}

void doc_h(struct doc *d, int level, const char *fmt, ...)
{
	va_list ap;
	char *s;

	va_start(ap, fmt);
	s = vfmt(fmt, ap);
	va_end(ap);
	if (!s) {
		d->err = d->err ?: -ENOMEM;
		return;
	}
	block(d);
	if (d->md) {
		fprintf(d->md, "%.*s ", level, "######");
		md_escape(d->md, s);
		fputs("\n\n", d->md);
	}
	if (d->html) {
		fprintf(d->html, "<h%d>", level);
		xml_escape(d->html, s);
		fprintf(d->html, "</h%d>\n", level);
	}
	free(s);
}

static void text(struct doc *d, bool item, const char *fmt, va_list ap)
{
	char *s = vfmt(fmt, ap);

	if (!s) {
		d->err = d->err ?: -ENOMEM;
		return;
	}
	if (!item)
		block(d);
	if (item && !d->in_list && d->html)
		fputs("<ul>\n", d->html);
	if (d->md) {
		fputs(item ? "- " : "", d->md);
		md_escape(d->md, s);
		fputs(item ? "\n" : "\n\n", d->md);
	}
	if (d->html) {
		fputs(item ? "<li>" : "<p>", d->html);
		xml_escape(d->html, s);
		fputs(item ? "</li>\n" : "</p>\n", d->html);
	}
	d->in_list = item;
	free(s);
}

void doc_p(struct doc *d, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	text(d, false, fmt, ap);
	va_end(ap);
}

void doc_li(struct doc *d, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	text(d, true, fmt, ap);
	va_end(ap);
}

static void row(struct doc *d, const char *const *cells, size_t n, bool head)
{
	size_t i;

	if (d->md) {
		for (i = 0; i < n; i++) {
			fputs("| ", d->md);
			md_escape(d->md, cells[i]);
			fputc(' ', d->md);
		}
		fputs("|\n", d->md);
		for (i = 0; head && i < n; i++)
			fputs(i ? "| ---: " : "| --- ", d->md);
		if (head)
			fputs("|\n", d->md);
	}
	if (d->html) {
		fputs("<tr>", d->html);
		for (i = 0; i < n; i++) {
			fputs(head ? "<th>" : "<td>", d->html);
			xml_escape(d->html, cells[i]);
			fputs(head ? "</th>" : "</td>", d->html);
		}
		fputs("</tr>\n", d->html);
	}
}

void doc_table(struct doc *d, const char *const *hdr, size_t n)
{
	block(d);
	if (d->html)
		fputs("<table>\n", d->html);
	row(d, hdr, n, true);
	d->in_table = true;
}

void doc_row(struct doc *d, const char *const *cells, size_t n)
{
	row(d, cells, n, false);
}

void doc_table_end(struct doc *d)
{
	if (!d->in_table)
		return;
	if (d->md)
		fputc('\n', d->md);
	if (d->html)
		fputs("</table>\n", d->html);
	d->in_table = false;
}

void doc_img(struct doc *d, const char *png, const char *svg, const char *alt)
{
	block(d);
	if (d->md) {
		fputs("![", d->md);
		md_escape(d->md, alt);
		fprintf(d->md, "](%s) ([SVG](%s))\n\n", png, svg);
	}
	if (d->html) {
		fputs("<p><a href=\"", d->html);
		xml_escape(d->html, svg);
		fputs("\"><img src=\"", d->html);
		xml_escape(d->html, png);
		fputs("\" alt=\"", d->html);
		xml_escape(d->html, alt);
		fputs("\"></a></p>\n", d->html);
	}
}

void doc_pre(struct doc *d, const char *s)
{
	block(d);
	if (d->md)
		fprintf(d->md, "```\n%s\n```\n\n", s);
	if (d->html) {
		fputs("<pre>", d->html);
		xml_escape(d->html, s);
		fputs("</pre>\n", d->html);
	}
}

static int close_one(FILE *f, int err)
{
	if (!f)
		return err;
	if (ferror(f) && !err)
		err = -EIO;
	if (fclose(f) && !err)
		err = -errno;
	return err;
}

int doc_close(struct doc *d)
{
	int err = d->err;

	block(d);
	doc_table_end(d);
	if (d->html)
		fputs("</body>\n</html>\n", d->html);
	err = close_one(d->md, err);
	err = close_one(d->html, err);
	d->md = d->html = NULL;
	return err;
}
