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

#include "file.h"
#include "outw.h"

/*
 * No script and nothing fetched: the page is the file. The first screen is the answers,
 * one line each, then their plot at its own size; sections fold with <details>.
 */
static const char html_head[] =
	"<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
	"<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
	"<style>\n"
	"body { font-family: sans-serif; max-width: 92em; margin: 0.5em auto; padding: 0 1em;"
	" color: #222; }\n"
	"h1 { font-size: 1.4em; margin: 0.3em 0; }\n"
	"h2 { font-size: 1.2em; }\n"
	"table { border-collapse: collapse; margin: 0.5em 0 1.5em; font-size: 0.8em; }\n"
	"th, td { border: 1px solid #bbb; padding: 0.15em 0.4em; text-align: right; }\n"
	"td { white-space: nowrap; }\n"
	"td:last-child { white-space: normal; }\n"
	"th { background: #eee; }\n"
	"td:first-child, th:first-child { text-align: left; }\n"
	"img { max-width: 100%; height: auto; border: 1px solid #ddd; }\n"
	"figure { margin: 0.5em 0; }\n"
	".plots { display: flex; flex-wrap: wrap; gap: 0.5em; align-items: flex-start; }\n"
	".plots > figure { margin: 0.3em 0; }\n"
	"figcaption { font-size: 0.8em; color: #555; }\n"
	"pre { background: #f6f6f6; padding: 0.5em; overflow-x: auto; }\n"
	"details > summary { cursor: pointer; }\n"
	"details > summary > h2, details > summary > h3 { display: inline; }\n"
	"details { margin: 0.4em 0; }\n"
	".answer li { margin: 0.25em 0; }\n"
	".answer p { font-size: 0.85em; color: #444; margin: 0.3em 0; }\n"
	".toc ul { columns: 3; font-size: 0.9em; }\n"
	"</style>\n";

void doc_md_escape(FILE *f, const char *s)
{
	for (; *s; s++) {
		if (strchr("\\`*_<>|#", *s))
			fputc('\\', f);
		fputc(*s == '\n' ? ' ' : *s, f);
	}
}

void doc_xml_escape(FILE *f, const char *s)
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

int doc_open(struct doc *d, const char *md_path, const char *html_path, const char *title,
	     const char *base)
{
	memset(d, 0, sizeof(*d));
	d->base = strdup(base ? base : ".");
	if (!d->base)
		return -ENOMEM;
	if (md_path && !(d->md = out_fopen(md_path))) {
		int e = -errno;

		free(d->base);
		d->base = NULL;
		return e;
	}
	if (html_path && !(d->html = out_fopen(html_path))) {
		int e = -errno;

		if (d->md)
			fclose(d->md);
		d->md = NULL;
		free(d->base);
		d->base = NULL;
		return e;
	}
	if (d->html) {
		fputs(html_head, d->html);
		fputs("<title>", d->html);
		doc_xml_escape(d->html, title);
		fputs("</title>\n</head>\n<body>\n", d->html);
	}
	doc_h(d, 1, "%s", title);
	return 0;
}

/* block - close an open list or row of images before any other element */
static void block(struct doc *d)
{
	if (d->in_plots && d->html)
		fputs("</div>\n", d->html);
	d->in_plots = false;
	if (!d->in_list)
		return;
	if (d->md)
		fputc('\n', d->md);
	if (d->html)
		fputs("</ul>\n", d->html);
	d->in_list = false;
}

/* vfmt - the text of fmt, or NULL with d->err set */
static char *vfmt(struct doc *d, const char *fmt, va_list ap)
{
	char *s;

	if (vasprintf(&s, fmt, ap) >= 0)
		return s;
	d->err = d->err ?: -ENOMEM;
	return NULL;
}

/* heading - <hN id=...> (id may be NULL); Markdown gets an anchor before it */
static void heading(struct doc *d, int level, const char *id, const char *s)
{
	block(d);
	if (d->md) {
		if (id)
			fprintf(d->md, "<a id=\"%s\"></a>\n\n", id);
		fprintf(d->md, "%.*s ", level, "######");
		doc_md_escape(d->md, s);
		fputs("\n\n", d->md);
	}
	if (d->html) {
		fprintf(d->html, "<h%d", level);
		if (id) {
			fputs(" id=\"", d->html);
			doc_xml_escape(d->html, id);
			fputc('"', d->html);
		}
		fputc('>', d->html);
		doc_xml_escape(d->html, s);
		fprintf(d->html, "</h%d>\n", level);
	}
}

/* vheading - a heading of the text of fmt */
static void vheading(struct doc *d, int level, const char *id, const char *fmt, va_list ap)
{
	char *s = vfmt(d, fmt, ap);

	if (!s)
		return;
	heading(d, level, id, s);
	free(s);
}

void doc_h(struct doc *d, int level, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vheading(d, level, NULL, fmt, ap);
	va_end(ap);
}

void doc_h_id(struct doc *d, int level, const char *id, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vheading(d, level, id, fmt, ap);
	va_end(ap);
}

void doc_details(struct doc *d, int level, const char *id, bool open, const char *fmt, ...)
{
	va_list ap;
	char *s;

	va_start(ap, fmt);
	s = vfmt(d, fmt, ap);
	va_end(ap);
	if (!s)
		return;
	block(d);
	doc_table_end(d);
	if (d->html)
		fprintf(d->html, "<details%s><summary>", open ? " open" : "");
	heading(d, level, id, s);
	if (d->html)
		fputs("</summary>\n", d->html);
	d->depth++;
	free(s);
}

void doc_details_end(struct doc *d)
{
	if (!d->depth)
		return;
	block(d);
	doc_table_end(d);
	if (d->html)
		fputs("</details>\n", d->html);
	d->depth--;
}

void doc_div(struct doc *d, const char *cls)
{
	block(d);
	if (!d->html)
		return;
	fputs("<div class=\"", d->html);
	doc_xml_escape(d->html, cls);
	fputs("\">\n", d->html);
}

void doc_div_end(struct doc *d)
{
	block(d);
	doc_table_end(d);
	if (d->html)
		fputs("</div>\n", d->html);
}

static void text(struct doc *d, bool item, const char *lead, const char *fmt, va_list ap)
{
	char *s = vfmt(d, fmt, ap);

	if (!s)
		return;
	if (!item)
		block(d);
	if (item && !d->in_list && d->html)
		fputs("<ul>\n", d->html);
	if (d->md) {
		fputs(item ? "- " : "", d->md);
		if (lead) {
			fputs("**", d->md);
			doc_md_escape(d->md, lead);
			fputs("**", d->md);
		}
		doc_md_escape(d->md, s);
		fputs(item ? "\n" : "\n\n", d->md);
	}
	if (d->html) {
		fputs(item ? "<li>" : "<p>", d->html);
		if (lead) {
			fputs("<b>", d->html);
			doc_xml_escape(d->html, lead);
			fputs("</b>", d->html);
		}
		doc_xml_escape(d->html, s);
		fputs(item ? "</li>\n" : "</p>\n", d->html);
	}
	d->in_list = item;
	free(s);
}

void doc_p(struct doc *d, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	text(d, false, NULL, fmt, ap);
	va_end(ap);
}

void doc_li(struct doc *d, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	text(d, true, NULL, fmt, ap);
	va_end(ap);
}

void doc_li_lead(struct doc *d, const char *lead, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	text(d, true, lead, fmt, ap);
	va_end(ap);
}

void doc_li_link(struct doc *d, const char *href, const char *fmt, ...)
{
	va_list ap;
	char *s;

	va_start(ap, fmt);
	s = vfmt(d, fmt, ap);
	va_end(ap);
	if (!s)
		return;
	if (!d->in_list && d->html)
		fputs("<ul>\n", d->html);
	if (d->md) {
		fputs("- [", d->md);
		doc_md_escape(d->md, s);
		fprintf(d->md, "](%s)\n", href);
	}
	if (d->html) {
		fputs("<li><a href=\"", d->html);
		doc_xml_escape(d->html, href);
		fputs("\">", d->html);
		doc_xml_escape(d->html, s);
		fputs("</a></li>\n", d->html);
	}
	d->in_list = true;
	free(s);
}

static void row(struct doc *d, const char *const *cells, size_t n, bool head)
{
	size_t i;

	if (d->md) {
		for (i = 0; i < n; i++) {
			fputs("| ", d->md);
			doc_md_escape(d->md, cells[i]);
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
			doc_xml_escape(d->html, cells[i]);
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

/* read_rel - a file relative to dir, whole (caller frees); NULL when it cannot be read */
static unsigned char *read_rel(const char *dir, const char *rel, size_t *len)
{
	char path[4096];

	if (!rel || path_join(path, sizeof(path), dir, rel))
		return NULL;
	return (unsigned char *)read_whole_file(path, len);
}

/* base64 - a PNG's bytes as a data: URI */
static void base64(FILE *f, const unsigned char *p, size_t len)
{
	static const char b64[] =
		"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
	size_t i;
	uint32_t v;

	fputs("data:image/png;base64,", f);
	for (i = 0; i + 2 < len; i += 3) {
		v = (uint32_t)p[i] << 16 | (uint32_t)p[i + 1] << 8 | p[i + 2];
		fputc(b64[v >> 18], f);
		fputc(b64[(v >> 12) & 63], f);
		fputc(b64[(v >> 6) & 63], f);
		fputc(b64[v & 63], f);
	}
	if (i < len) {
		v = (uint32_t)p[i] << 16 | (i + 1 < len ? (uint32_t)p[i + 1] << 8 : 0);
		fputc(b64[v >> 18], f);
		fputc(b64[(v >> 12) & 63], f);
		fputc(i + 1 < len ? b64[(v >> 6) & 63] : '=', f);
		fputc('=', f);
	}
}

/*
 * svg_escaped - the bytes an SVG percent-encodes as a data: URI in a single-quoted
 * attribute (gnuplot's SVG has half as many ' as "): what the URL would take for a
 * fragment or an escape, the attribute for its end or a character reference
 */
static bool svg_escaped(unsigned char c)
{
	return c == '%' || c == '#' || c == '\'' || c == '&';
}

static size_t svg_uri_len(const unsigned char *p, size_t len)
{
	size_t i, n = 24;

	for (i = 0; i < len; i++)
		n += svg_escaped(p[i]) ? 3 : 1;
	return n;
}

/* svg_uri - an SVG as a data: URI, its text as it is but for the escapes above */
static void svg_uri(FILE *f, const unsigned char *p, size_t len)
{
	size_t i;

	fputs("data:image/svg+xml,", f);
	for (i = 0; i < len; i++) {
		/* a URL drops line ends, which separate attributes inside tags: spaces */
		if (p[i] < 0x20)
			fputc(' ', f);
		else if (svg_escaped(p[i]))
			fprintf(f, "%%%02X", p[i]);
		else
			fputc(p[i], f);
	}
}

/*
 * embed - the image inside the page: the SVG or the PNG, whichever makes the smaller
 * page (both draw the same plot, and both are shown at their own size); false when
 * neither can be read
 */
static bool embed(struct doc *d, const char *png, const char *svg)
{
	size_t plen = 0, slen = 0, n = strlen(png);
	bool png_is_svg = n > 4 && !strcmp(png + n - 4, ".svg");
	unsigned char *pb = png_is_svg ? NULL : read_rel(d->base, png, &plen);
	unsigned char *sb = read_rel(d->base, png_is_svg ? png : svg, &slen);
	bool use_svg = sb && (!pb || svg_uri_len(sb, slen) < 22 + (plen + 2) / 3 * 4);

	bool any = pb || sb;

	if (use_svg)
		svg_uri(d->html, sb, slen);
	else if (pb)
		base64(d->html, pb, plen);
	free(pb);
	free(sb);
	return any;
}

void doc_img(struct doc *d, const char *png, const char *svg, const char *alt)
{
	if (!d->in_plots) {
		block(d);
		if (d->html)
			fputs("<div class=\"plots\">\n", d->html);
		d->in_plots = true;
	}
	if (d->md) {
		fputs("![", d->md);
		doc_md_escape(d->md, alt);
		fprintf(d->md, "](%s)", png);
		if (svg && strcmp(svg, png))
			fprintf(d->md, " ([SVG](%s))", svg);
		fputs("\n\n", d->md);
	}
	if (d->html) {
		/* no link: the page is one file, and a link would break once it is sent */
		fputs("<figure><img src='", d->html);
		if (!embed(d, png, svg))
			doc_xml_escape(d->html, png);
		fputs("' alt=\"", d->html);
		doc_xml_escape(d->html, alt);
		fputs("\"></figure>\n", d->html);
	}
}


static int close_one(FILE *f, int err)
{
	if (!f)
		return err;
	fflush(f);
	if (!err)
		err = out_ferror(f);	/* a full disk, a size limit: named */
	if (fclose(f) && !err)
		err = -errno;
	return err;
}

int doc_close(struct doc *d)
{
	int err = d->err;

	block(d);
	doc_table_end(d);
	while (d->depth)
		doc_details_end(d);
	if (d->html)
		fputs("</body>\n</html>\n", d->html);
	free(d->base);
	d->base = NULL;
	err = close_one(d->md, err);
	err = close_one(d->html, err);
	d->md = d->html = NULL;
	return err;
}
