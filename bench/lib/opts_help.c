// SPDX-License-Identifier: GPL-2.0
/*
 * opts_help.c - what the settings engine tells people (opts.h): --help from a command's
 * table, its layers' settings included, and the docs' tables of settings.
 */
#define DEFERBENCH_ALLOW_OPTS_INT_H
#include "opts_int.h"

#include <string.h>

#include "fmt.h"

#define HELP_WIDTH 80
#define HELP_INDENT 29		/* "  " + the left column + " " */

/*
 * The help and the docs: the defaults shown are the entries' own, else what the parser
 * starts from; a default outside the bounds (0 for "not given") is left to the help
 * text to explain.
 */

void opts_range(const struct opt_desc *o, char *buf, size_t len)
{
	char a[32], b[32];

	buf[0] = '\0';
	switch (o->type) {
	case OPTION_INT:
		snprintf(buf, len, "%lld..%lld", (long long)(int64_t)o->min,
			 (long long)(int64_t)o->max);
		return;
	case OPTION_UINT:
	case OPTION_U64:
		if (o->max == UINT64_MAX && !o->min)
			return;
		snprintf(buf, len, "%llu..%llu", (unsigned long long)o->min,
			 (unsigned long long)o->max);
		return;
	case OPTION_SIZE:
		opts_bytes(o->min, a, sizeof(a));
		opts_bytes(o->max, b, sizeof(b));
		snprintf(buf, len, "%s..%s", a, b);
		return;
	case OPTION_DURATION:
		if (o->min > 1 && o->max)
			snprintf(buf, len, "%s..%s", fmt_duration(o->min, a, sizeof(a)),
				 fmt_duration(o->max, b, sizeof(b)));
		else if (o->min > 1)
			snprintf(buf, len, ">= %s", fmt_duration(o->min, a, sizeof(a)));
		else if (o->max)
			snprintf(buf, len, "<= %s", fmt_duration(o->max, b, sizeof(b)));
		return;
	case OPTION_DOUBLE:
	case OPTION_PERCENT:
		snprintf(buf, len, "%g..%g", o->fmin, o->fmax);
		return;
	default:
		return;
	}
}

const char *opts_type_name(const struct opt_desc *o, char *buf, size_t len)
{
	switch (o->type) {
	case OPTION_BOOL:
		snprintf(buf, len, "yes/no");
		break;
	case OPTION_ENUM:
		opts_names(buf, len, o->choices, o->nchoices);
		break;
	case OPTION_CPUSET:
		snprintf(buf, len, "LIST or all");
		break;
	case OPTION_DURATION:
		snprintf(buf, len, "%s%s", o->metavar ? o->metavar : "DUR", o->zero ? " or off" : "");
		break;
	case OPTION_SIZE:
		snprintf(buf, len, "SIZE");
		break;
	case OPTION_INT:
	case OPTION_UINT:
	case OPTION_U64:
		snprintf(buf, len, "%s", o->metavar ? o->metavar : "N");
		break;
	default:
		snprintf(buf, len, "%s", o->metavar ? o->metavar : "TEXT");
		break;
	}
	return buf;
}

/* default_of - the default, as the user would write it; "" for none */
static void default_of(const struct opt_desc *o, const void *defaults, char *buf, size_t len)
{
	const void *p;
	uint64_t u = 0;
	double d;

	buf[0] = '\0';
	if (o->def || !defaults) {
		snprintf(buf, len, "%s", o->def ? o->def : "");
		return;
	}
	p = opts_cfield(defaults, o->off);
	switch (o->type) {
	case OPTION_INT:
		if (*(const int *)p < 0)
			return;
		u = (uint64_t)*(const int *)p;
		break;
	case OPTION_UINT:
		u = *(const unsigned int *)p;
		break;
	case OPTION_U64:
	case OPTION_DURATION:
		memcpy(&u, p, sizeof(u));
		break;
	case OPTION_DOUBLE:
	case OPTION_PERCENT:
		memcpy(&d, p, sizeof(d));
		d = o->complement ? 1 - d : o->type == OPTION_PERCENT ? d * 100 : d;
		if (d >= o->fmin && d <= o->fmax)
			snprintf(buf, len, "%g", d);
		return;
	case OPTION_STRING:
	case OPTION_ENUM:
		opts_value(o, defaults, buf, len);
		return;
	default:
		return;
	}
	if (u >= o->min && (!o->max || u <= o->max) && (o->type != OPTION_DURATION || u))
		opts_value(o, defaults, buf, len);
}

/* choices - "a, b or c" */
static void choices(const struct opt_desc *o, char *buf, size_t len)
{
	size_t off = 0;
	int i;

	buf[0] = '\0';
	for (i = 0; i < o->nchoices && off < len; i++)
		off += snprintf(buf + off, len - off, "%s%s", !i ? "" : i == o->nchoices - 1 ?
				" or " : ", ", o->choices[i]);
}

/* wrapped - text after the left column, wrapped at HELP_WIDTH */
static void wrapped(FILE *f, const char *left, const char *text)
{
	const char *w = text, *end;
	int col = HELP_INDENT;

	/* a long left column gets a line of its own */
	if (strlen(left) > HELP_INDENT - 3)
		fprintf(f, "  %s\n%*s", left, HELP_INDENT, "");
	else
		fprintf(f, "  %-*s ", HELP_INDENT - 3, left);
	while (*w) {
		int n;

		end = strchr(w, ' ');
		n = end ? (int)(end - w) : (int)strlen(w);
		if (col > HELP_INDENT && col + 1 + n > HELP_WIDTH) {
			fprintf(f, "\n%*s", HELP_INDENT, "");
			col = HELP_INDENT;
		} else if (col > HELP_INDENT) {
			fputc(' ', f);
			col++;
		}
		col += fprintf(f, "%.*s", n, w);
		w += n;
		while (*w == ' ')
			w++;
	}
	fputc('\n', f);
}

/* left_column - "-b, --buffer-kb N", "--until-decided[=BUDGET]" */
static const char *left_column(const struct opt_desc *o, char *buf, size_t len)
{
	const char *mv = opts_is_flag(o) ? NULL : o->metavar;
	char s[64];

	opts_spell(o, s, sizeof(s));
	if (!o->letter && o->name)
		snprintf(s, sizeof(s), "    --%s", o->name);
	if (mv && o->optional)
		snprintf(buf, len, "%s[=%s]", s, mv);
	else
		snprintf(buf, len, "%s%s%s", s, mv ? " " : "", mv ? mv : "");
	return buf;
}

static void usage_line(FILE *f, const struct opts_row *r, const void *defaults)
{
	char left[128], rg[48], d[80], c[256], text[1024];
	const struct opt_desc *o = r->o;

	left_column(o, left, sizeof(left));
	opts_range(o, rg, sizeof(rg));
	/* a layer's setting defaults to the file's */
	d[0] = '\0';
	if (r->layer && o->key && !opts_is_flag(o))
		snprintf(d, sizeof(d), "the file's %s", o->key);
	else if (!r->layer)
		default_of(o, defaults, d, sizeof(d));
	c[0] = '\0';
	if (o->type == OPTION_ENUM)
		choices(o, c, sizeof(c));
	snprintf(text, sizeof(text), "%s%s%s%s%s%s%s%s", o->help, *c || *rg || *d ? " (" : "", c,
		 *c && (*rg || *d) ? "; " : "", rg, *rg && *d ? ", " : "", *d ? "default " : "",
		 *d ? d : "");
	if (*c || *rg || *d)
		strncat(text, ")", sizeof(text) - strlen(text) - 1);
	wrapped(f, left, text);
}

void opts_usage(FILE *f, const char *usage, const char *desc, const struct opt_desc *t,
		const void *defaults)
{
	char left[128], to[64], text[256];
	const struct opts_row *r;
	bool old = false;
	struct opts_view v;
	int i;

	fprintf(f, "usage: %s\n", usage);
	if (desc)
		fprintf(f, "\n%s\n", desc);
	fprintf(f, "\noptions:\n");
	if (opts_view_of(t, &v))
		return;
	for (i = 0; i < v.n; i++)
		if (opts_spelled(v.r[i].o) && v.r[i].o->type != OPTION_ALIAS && !v.r[i].o->deprecated)
			usage_line(f, &v.r[i], defaults);
	for (i = 0; i < v.n; i++) {
		const struct opt_desc *o = v.r[i].o;

		if (o->type != OPTION_ALIAS && !o->deprecated)
			continue;
		if (!old)
			fprintf(f, "\nold spellings, still accepted until the next release:\n");
		old = true;
		r = opts_view_resolve(&v, &v.r[i]);
		opts_spell(o, to, sizeof(to));
		snprintf(left, sizeof(left), "%s%s%s", to, o->metavar ? " " : "",
			 o->metavar ? o->metavar : "");
		if (o->type == OPTION_ALIAS)
			snprintf(text, sizeof(text), "use %s%s%s%s", r ? opts_spell(r->o, to, sizeof(to)) :
				 o->alias, o->deprecated ? " (" : "",
				 o->deprecated ? o->deprecated : "", o->deprecated ? ")" : "");
		else
			snprintf(text, sizeof(text), "%s", o->deprecated);
		wrapped(f, left, text);
	}
}

/* cell - text for a Markdown table cell: '|' escaped */
static void cell(FILE *f, const char *text)
{
	for (; *text; text++) {
		if (*text == '|')
			fputc('\\', f);
		fputc(*text, f);
	}
}

void opts_doc_table(FILE *f, const struct opt_desc *t)
{
	char left[128], type[256], rg[48];

	fprintf(f, "| key | option | type | range | default | meaning |\n");
	fprintf(f, "| --- | --- | --- | --- | --- | --- |\n");
	for (; t->type != OPTION_END; t++) {
		if (!t->key && t->type != OPTION_SET_VALUE)
			continue;
		if (t->type == OPTION_SET_VALUE)
			fprintf(f, "| `%s = %s` | ", t->sets, t->implied);
		else
			fprintf(f, "| `%s` | ", t->key);
		if (opts_spelled(t)) {
			left_column(t, left, sizeof(left));
			fprintf(f, "`%s`", left + strspn(left, " "));
		}
		fprintf(f, " | ");
		if (t->type != OPTION_SET_VALUE)
			cell(f, opts_type_name(t, type, sizeof(type)));
		opts_range(t, rg, sizeof(rg));
		fprintf(f, " | %s | ", rg);
		if (t->def && *t->def)
			fprintf(f, "`%s`", t->def);
		fprintf(f, " | ");
		cell(f, t->help);
		fprintf(f, " |\n");
	}
}
