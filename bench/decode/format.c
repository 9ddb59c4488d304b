// SPDX-License-Identifier: GPL-2.0
/*
 * format.c - strict readers of event format files and the header page (see format.h).
 */
#include "format.h"

#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "grow.h"
#include "msg.h"

/* A cursor over one line of the text. */
struct cur {
	const char *p, *end;
};

/* next_line - the next line of [*pos, end) without its newline; false at the end */
static bool next_line(const char **pos, const char *end, struct cur *line)
{
	const char *nl;

	if (*pos >= end)
		return false;
	nl = memchr(*pos, '\n', end - *pos);
	line->p = *pos;
	line->end = nl ? nl : end;
	*pos = nl ? nl + 1 : end;
	return true;
}

static bool eat(struct cur *c, const char *s)
{
	size_t n = strlen(s);

	if ((size_t)(c->end - c->p) < n || memcmp(c->p, s, n))
		return false;
	c->p += n;
	return true;
}

static void skip_blanks(struct cur *c)
{
	while (c->p < c->end && (*c->p == ' ' || *c->p == '\t'))
		c->p++;
}

/* number - a decimal number of at most 9 digits */
static bool number(struct cur *c, unsigned int *v)
{
	const char *start = c->p;

	*v = 0;
	while (c->p < c->end && isdigit((unsigned char)*c->p) && c->p - start < 9)
		*v = *v * 10 + (unsigned int)(*c->p++ - '0');
	return c->p > start && (c->p == c->end || !isdigit((unsigned char)*c->p));
}

static bool ident_char(int ch)
{
	return isalnum(ch) || ch == '_';
}

/* field_name - an identifier, optionally followed by "[N]" or "[]" */
static bool field_name_ok(const char *s)
{
	if (!isalpha((unsigned char)*s) && *s != '_')
		return false;
	while (ident_char((unsigned char)*s))
		s++;
	if (*s == '[') {
		s++;
		while (isdigit((unsigned char)*s))
			s++;
		if (*s++ != ']')
			return false;
	}
	return !*s;
}

/* type_ok - words, '*' and spaces, with brackets only as "[]" or "[N]" (a __data_loc) */
static bool type_ok(const char *s)
{
	if (!*s)
		return false;
	for (; *s; s++) {
		if (*s == '[') {
			while (isdigit((unsigned char)s[1]))
				s++;
			if (*++s != ']')
				return false;
			continue;
		}
		if (!ident_char((unsigned char)*s) && !strchr(" *", *s))
			return false;
	}
	return true;
}

/*
 * field_line - "\tfield:TYPE NAME;\toffset:N;\tsize:N;\tsigned:N;" into f;
 * returns NULL or what is wrong
 */
static const char *field_line(struct cur c, struct fmt_field *f)
{
	const char *semi, *sp;
	unsigned int sign;
	size_t n;

	skip_blanks(&c);
	if (!eat(&c, "field:"))
		return "expected 'field:'";
	skip_blanks(&c);
	semi = memchr(c.p, ';', c.end - c.p);
	if (!semi)
		return "the field declaration has no ';'";
	for (sp = semi; sp > c.p && sp[-1] != ' '; sp--)
		;
	if (sp == c.p)
		return "the field declaration has no type";
	n = (size_t)(sp - 1 - c.p);
	if (n >= sizeof(f->type) || (size_t)(semi - sp) >= sizeof(f->name))
		return "the field's type or name is too long";
	memcpy(f->type, c.p, n);
	f->type[n] = '\0';
	memcpy(f->name, sp, semi - sp);
	f->name[semi - sp] = '\0';
	while (n && f->type[n - 1] == ' ')
		f->type[--n] = '\0';
	if (!type_ok(f->type) || !field_name_ok(f->name))
		return "the field's type or name holds unexpected characters";
	c.p = semi + 1;
	skip_blanks(&c);
	if (!eat(&c, "offset:") || !number(&c, &f->offset) || !eat(&c, ";"))
		return "expected 'offset:N;'";
	skip_blanks(&c);
	if (!eat(&c, "size:") || !number(&c, &f->size) || !eat(&c, ";"))
		return "expected 'size:N;'";
	skip_blanks(&c);
	if (!eat(&c, "signed:") || !number(&c, &sign) || sign > 1 || !eat(&c, ";"))
		return "expected 'signed:0;' or 'signed:1;'";
	skip_blanks(&c);
	if (c.p != c.end)
		return "unexpected text after the field";
	if (f->offset > FMT_MAX_RECORD || f->size > FMT_MAX_RECORD - f->offset)
		return "the field lies beyond the largest possible record";
	f->is_signed = sign;
	return NULL;
}

static int add_field(struct ev_format *f, const struct fmt_field *fl, int line, char *errbuf)
{
	int i;

	if (f->nfields >= FMT_MAX_FIELDS)
		return set_err(errbuf, "line %d: more than %d fields", line, FMT_MAX_FIELDS);
	for (i = 0; i < f->nfields; i++)
		if (!strcmp(f->field[i].name, fl->name))
			return set_err(errbuf, "line %d: field '%s' appears twice", line, fl->name);
	f->field[f->nfields++] = *fl;
	return 0;
}

int format_parse(const char *text, size_t len, struct ev_format *f, char *errbuf)
{
	const char *pos = text, *end = text + len, *why;
	struct fmt_field fl;
	struct cur c;
	unsigned int id;
	int line = 0;
	size_t n;

	memset(f, 0, sizeof(*f));
	if (memchr(text, '\0', len))
		return set_err(errbuf, "holds a NUL byte: not a format file");
	/* name: NAME */
	if (!next_line(&pos, end, &c) || (line++, !eat(&c, "name: ")))
		return set_err(errbuf, "line 1: expected 'name: EVENT'");
	n = (size_t)(c.end - c.p);
	if (!n || n >= sizeof(f->name))
		return set_err(errbuf, "line 1: the event name is empty or too long");
	memcpy(f->name, c.p, n);
	for (; c.p < c.end; c.p++)
		if (!ident_char((unsigned char)*c.p))
			return set_err(errbuf, "line 1: the event name holds unexpected characters");
	/* ID: N */
	if (!next_line(&pos, end, &c) || (line++, !eat(&c, "ID: ")) || !number(&c, &id) ||
	    c.p != c.end)
		return set_err(errbuf, "line 2: expected 'ID: N'");
	if (id < 1 || id > 65535)
		return set_err(errbuf, "line 2: event ID %u is out of range [1, 65535]", id);
	f->id = (int)id;
	if (!next_line(&pos, end, &c) || (line++, !eat(&c, "format:")) || c.p != c.end)
		return set_err(errbuf, "line 3: expected 'format:'");
	/* fields and blank lines, up to the print format */
	for (;;) {
		if (!next_line(&pos, end, &c))
			return set_err(errbuf, "line %d: the file ends before 'print fmt:'", line + 1);
		line++;
		if (c.p == c.end)
			continue;
		if (eat(&c, "print fmt:"))
			break;
		why = field_line(c, &fl);
		if (why)
			return set_err(errbuf, "line %d: %s", line, why);
		if (add_field(f, &fl, line, errbuf))
			return -EINVAL;
	}
	if (!f->nfields)
		return set_err(errbuf, "the format has no fields");
	return 0;
}

/* append - printf to the end of a malloc'ed string, growing it */
static bool append(char **buf, size_t *len, size_t *cap, const char *fmt, ...)
	__printf(4, 5);
static bool append(char **buf, size_t *len, size_t *cap, const char *fmt, ...)
{
	va_list ap;
	int n;

	for (;;) {
		va_start(ap, fmt);
		n = vsnprintf(*buf + *len, *cap - *len, fmt, ap);
		va_end(ap);
		if (n < 0)
			return false;
		if ((size_t)n < *cap - *len) {
			*len += n;
			return true;
		}
		if (GROW(*buf, *cap, *cap * 2 + (size_t)n))
			return false;
	}
}

char *format_text(const struct ev_format *f, size_t *lenp)
{
	size_t len = 0, cap = 4096;
	char *buf = malloc(cap);
	bool ok;
	int i;

	if (!buf)
		return NULL;
	ok = append(&buf, &len, &cap, "name: %s\nID: %d\nformat:\n", f->name, f->id);
	for (i = 0; ok && i < f->nfields; i++)
		ok = append(&buf, &len, &cap, "\tfield:%s %s;\toffset:%u;\tsize:%u;\tsigned:%d;\n",
			    f->field[i].type, f->field[i].name, f->field[i].offset,
			    f->field[i].size, f->field[i].is_signed);
	ok = ok && append(&buf, &len, &cap, "\nprint fmt: \"\"\n");
	if (!ok) {
		free(buf);
		errno = ENOMEM;
		return NULL;
	}
	if (lenp)
		*lenp = len;
	return buf;
}

int format_header_page_parse(const char *text, size_t len, unsigned int long_size,
		      unsigned int *data_offset, unsigned int *data_size, char *errbuf)
{
	const char *pos = text, *end = text + len, *why;
	bool ts = false, commit = false, data = false;
	struct fmt_field f;
	struct cur c;
	int line = 0;

	if (memchr(text, '\0', len))
		return set_err(errbuf, "holds a NUL byte: not a header page format");
	while (next_line(&pos, end, &c)) {
		line++;
		if (c.p == c.end)
			continue;
		why = field_line(c, &f);
		if (why)
			return set_err(errbuf, "line %d: %s", line, why);
		if (!strcmp(f.name, "timestamp") && f.offset == 0 && f.size == 8 && !ts) {
			ts = true;
		} else if (!strcmp(f.name, "commit") && f.offset == 8 && f.size == long_size &&
			   !commit) {
			commit = true;
		} else if (!strcmp(f.name, "overwrite") && f.offset == 8 && f.size == 1) {
			continue;
		} else if (!strcmp(f.name, "data") && f.offset == 8 + long_size && !data) {
			if (f.size < 64 || f.size > (1U << 20))
				return set_err(errbuf, "line %d: a data area of %u bytes is out of "
					       "range [64, 1048576]", line, f.size);
			*data_offset = f.offset;
			*data_size = f.size;
			data = true;
		} else {
			return set_err(errbuf, "line %d: unexpected field '%s' (offset %u, size %u) "
				       "for a %u-byte long", line, f.name, f.offset, f.size, long_size);
		}
	}
	if (!ts || !commit || !data)
		return set_err(errbuf, "the '%s' field is missing",
			       !ts ? "timestamp" : !commit ? "commit" : "data");
	return 0;
}

char *format_header_page_text(unsigned int long_size, unsigned int data_size, size_t *lenp)
{
	size_t len = 0, cap = 512;
	char *buf = malloc(cap);

	if (!buf)
		return NULL;
	if (!append(&buf, &len, &cap,
		    "\tfield: u64 timestamp;\toffset:0;\tsize:8;\tsigned:0;\n"
		    "\tfield: local_t commit;\toffset:8;\tsize:%u;\tsigned:1;\n"
		    "\tfield: int overwrite;\toffset:8;\tsize:1;\tsigned:1;\n"
		    "\tfield: char data;\toffset:%u;\tsize:%u;\tsigned:0;\n",
		    long_size, 8 + long_size, data_size)) {
		free(buf);
		errno = ENOMEM;
		return NULL;
	}
	if (lenp)
		*lenp = len;
	return buf;
}
