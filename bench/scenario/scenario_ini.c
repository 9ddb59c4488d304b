// SPDX-License-Identifier: GPL-2.0
/*
 * scenario_ini.c - a scenario file's sections and keys, read with libinih into struct
 * scenario: [global] through its settings table, workload options and knobs as written
 * (scenario_load.c then resolves and checks them).
 *
 * inih calls the handler for "key = value" lines only and does not say which line it
 * is on. The reader given to ini_parse_stream() therefore counts lines and notices
 * section headers itself, so that empty sections ("[config baseline]", no knobs: the
 * reference configuration) exist and every message names its line.
 */
#include "scenario.h"

#include <ctype.h>
#include <errno.h>
#include <ini.h>
#include <stdarg.h>
#include <string.h>

#define DEFERBENCH_ALLOW_SCENARIO_INT_H
#include "scenario_int.h"
#include "msg.h"
#include "parse.h"

enum sec_kind { SEC_NONE, SEC_GLOBAL, SEC_WORKLOAD, SEC_CONFIG };

struct parse_ctx {
	struct scenario *s;
	const struct scn_parse_opts *o;
	const char *pos;		/* reader cursor in the text */
	int line;
	bool indented;			/* the current line starts with blanks */
	enum sec_kind kind;
	int idx;			/* current workload or config */
	int global_line;
	char prev_key[SCN_KEY_MAX];
	char err[ERRBUF_LEN];
	int err_line;
};

/* fail - record the first error with the current line; returns 0 for inih */
static int __printf(2, 3) fail(struct parse_ctx *c, const char *fmt, ...)
{
	va_list ap;

	if (c->err[0])
		return 0;
	va_start(ap, fmt);
	vsnprintf(c->err, sizeof(c->err), fmt, ap);
	va_end(ap);
	c->err_line = c->line;
	return 0;
}

/* valid_name - section names become path components and cell ids */
static bool valid_name(const char *s)
{
	const char *p;

	if (!*s || *s == '-' || strlen(s) >= SCN_NAME_MAX || strstr(s, "--"))
		return false;
	for (p = s; *p; p++)
		if (!isalnum((unsigned char)*p) && *p != '_' && *p != '-')
			return false;
	return true;
}

/* valid_key - workload option names */
static bool valid_key(const char *s)
{
	const char *p;

	if (!*s || strlen(s) >= SCN_KEY_MAX)
		return false;
	for (p = s; *p; p++)
		if (!islower((unsigned char)*p) && !isdigit((unsigned char)*p) && *p != '_')
			return false;
	return true;
}

/* new_workload - [workload NAME] or [load NAME] */
static int new_workload(struct parse_ctx *c, const char *name, bool load)
{
	struct scenario *s = c->s;
	int i = scenario_wl_index(s, name);

	if (i >= 0)
		return fail(c, "[%s] is defined twice (first at line %d)", name, s->wl[i].line);
	if (s->nwl == SCN_MAX_WORKLOADS)
		return fail(c, "more than %d workload and load sections", SCN_MAX_WORKLOADS);
	c->kind = SEC_WORKLOAD;
	c->idx = s->nwl++;
	snprintf(s->wl[c->idx].name, SCN_NAME_MAX, "%s", name);
	s->wl[c->idx].load = load;
	s->wl[c->idx].line = c->line;
	return 1;
}

static int new_config(struct parse_ctx *c, const char *name)
{
	struct scenario *s = c->s;
	int i = scenario_cfg_index(s, name);

	if (i >= 0)
		return fail(c, "[config %s] is defined twice (first at line %d)", name, s->cfg[i].line);
	if (s->ncfg == SCN_MAX_CONFIGS)
		return fail(c, "more than %d configurations", SCN_MAX_CONFIGS);
	c->kind = SEC_CONFIG;
	c->idx = s->ncfg++;
	snprintf(s->cfg[c->idx].name, SCN_NAME_MAX, "%s", name);
	s->cfg[c->idx].line = c->line;
	return 1;
}

/* section_begin - "[kind NAME]" or "[global]" */
static int section_begin(struct parse_ctx *c, char *inner)
{
	char *kind = inner, *name, *extra;

	while (isspace((unsigned char)*kind))
		kind++;
	name = kind + strcspn(kind, " \t");
	if (*name)
		*name++ = '\0';
	name += strspn(name, " \t");
	extra = name + strcspn(name, " \t");
	if (*extra)
		*extra++ = '\0';
	extra += strspn(extra, " \t");
	c->prev_key[0] = '\0';
	if (!strcmp(kind, "global") && !*name) {
		if (c->global_line)
			return fail(c, "[global] appears twice (first at line %d)", c->global_line);
		c->global_line = c->line;
		c->kind = SEC_GLOBAL;
		return 1;
	}
	if (strcmp(kind, "workload") && strcmp(kind, "load") && strcmp(kind, "config"))
		return fail(c, "unknown section [%s%s%s] (expected [global], [workload NAME], "
			    "[load NAME] or [config NAME])", kind, *name ? " " : "", name);
	if (!*name || *extra)
		return fail(c, "[%s] needs exactly one name: [%s NAME]", kind, kind);
	if (!valid_name(name))
		return fail(c, "'%s' is not a valid name (letters, digits, '_' and '-', no '--', "
			    "at most %d characters)", name, SCN_NAME_MAX - 1);
	if (!strcmp(kind, "config"))
		return new_config(c, name);
	return new_workload(c, name, !strcmp(kind, "load"));
}

/* see_section - the reader's look at a line: a section header starts a section */
static void see_section(struct parse_ctx *c, const char *line)
{
	char inner[256];
	const char *p = line, *end;

	if (c->line == 1 && !strncmp(p, "\xEF\xBB\xBF", 3))
		p += 3;
	while (isspace((unsigned char)*p))
		p++;
	if (*p != '[')
		return;
	end = strchr(p, ']');
	if (!end || (size_t)(end - p) >= sizeof(inner))
		return;		/* inih reports the malformed line */
	if (c->indented && c->prev_key[0])
		return;		/* inih takes it as a continuation: the handler refuses it */
	snprintf(inner, sizeof(inner), "%.*s", (int)(end - p - 1), p + 1);
	section_begin(c, inner);
}

/* reader - fgets() over the text, counting lines */
static char *reader(char *str, int num, void *stream)
{
	struct parse_ctx *c = stream;
	const char *nl;
	size_t len;

	if (c->err[0] || !*c->pos)
		return NULL;
	nl = strchr(c->pos, '\n');
	len = nl ? (size_t)(nl - c->pos + 1) : strlen(c->pos);
	c->line++;
	if (len > (size_t)num - 1) {
		fail(c, "line longer than %d characters", num - 3);
		return NULL;
	}
	memcpy(str, c->pos, len);
	str[len] = '\0';
	/* what a scenario says ends up in messages, plans and result files */
	for (nl = str; *nl; nl++)
		if (((unsigned char)*nl < 0x20 && *nl != '\t' && *nl != '\n' && *nl != '\r') ||
		    *nl == 0x7f) {
			fail(c, "a control character (0x%02x) in the text; a scenario is plain text",
			     (unsigned char)*nl);
			return NULL;
		}
	c->pos += len;
	c->indented = *str == ' ' || *str == '\t';
	see_section(c, str);
	return c->err[0] ? NULL : str;
}

static int global_key(struct parse_ctx *c, const char *name, const char *value)
{
	char e[ERRBUF_LEN];
	int ret = scn_global_set(c->s, name, value, c->line, e);

	if (ret == -ENOENT || ret == -EEXIST)
		return fail(c, "[global]: %s", e);
	if (ret)
		return fail(c, "[global] %s: %s", name, e);
	return 1;
}

/* add_opt - append key = value to an option list, refusing duplicates */
static int add_opt(struct parse_ctx *c, struct scn_opt *list, int *n, const char *sec,
		   const char *name, const char *value)
{
	int i;

	for (i = 0; i < *n; i++)
		if (!strcmp(list[i].key, name))
			return fail(c, "[%s]: '%s' is set twice (first at line %d)", sec, name,
				    list[i].line);
	if (*n == SCN_MAX_OPTS)
		return fail(c, "[%s]: more than %d options", sec, SCN_MAX_OPTS);
	if (strlen(value) >= SCN_VAL_MAX)
		return fail(c, "[%s] %s: value longer than %d characters", sec, name, SCN_VAL_MAX - 1);
	snprintf(list[*n].key, SCN_KEY_MAX, "%s", name);
	snprintf(list[*n].value, SCN_VAL_MAX, "%s", value);
	list[*n].line = c->line;
	(*n)++;
	return 1;
}

/* primary_key - primary = PATTERN[, PATTERN]: metric ids as compare prints them, globs */
static int primary_key(struct parse_ctx *c, struct scn_workload *w, const char *value)
{
	static const char *const kinds[] = { "workload:", "softirq:", "wq:", "wakeup:" };
	char buf[SCN_VAL_MAX], *save = NULL, *tok;
	size_t k;

	if (w->nprimary)
		return fail(c, "[%s]: 'primary' is set twice", w->name);
	if (strlen(value) >= sizeof(buf))
		return fail(c, "[%s] primary: too long", w->name);
	snprintf(buf, sizeof(buf), "%s", value);
	for (tok = strtok_r(buf, ", \t", &save); tok; tok = strtok_r(NULL, ", \t", &save)) {
		for (k = 0; k < ARRAY_SIZE(kinds) && strncmp(tok, kinds[k], strlen(kinds[k])); k++)
			;
		if (k == ARRAY_SIZE(kinds))
			return fail(c, "[%s] primary: '%s' is not a metric id (workload:NAME:p99, "
				    "softirq:VECTOR:delay:p99, wq:WQ:FUNCTION:delay:p99, ...)",
				    w->name, tok);
		if (w->nprimary == SCN_MAX_PRIMARY)
			return fail(c, "[%s] primary: more than %d metrics", w->name,
				    SCN_MAX_PRIMARY);
		snprintf(w->primary[w->nprimary++], SCN_VAL_MAX, "%s", tok);
	}
	if (!w->nprimary)
		return fail(c, "[%s] primary: empty", w->name);
	return 1;
}

static int workload_key(struct parse_ctx *c, const char *name, const char *value)
{
	struct scn_workload *w = &c->s->wl[c->idx];

	if (!strcmp(name, "type") || !strcmp(name, "workload")) {
		if (w->type[0])
			return fail(c, "[%s]: the workload type is set twice", w->name);
		if (!valid_name(value))
			return fail(c, "[%s] %s: '%s' is not a workload name", w->name, name, value);
		snprintf(w->type, sizeof(w->type), "%s", value);
		return 1;
	}
	if (!strcmp(name, "configs")) {
		if (w->load)
			return fail(c, "[load %s]: a load has no configs; configurations pick their "
				    "loads with load = %s", w->name, w->name);
		if (w->configs_line)
			return fail(c, "[%s]: 'configs' is set twice", w->name);
		if (strlen(value) >= sizeof(w->configs_text))
			return fail(c, "[%s] configs: too long", w->name);
		snprintf(w->configs_text, sizeof(w->configs_text), "%s", value);
		w->configs_line = c->line;
		return 1;
	}
	if (!strcmp(name, "primary"))
		return primary_key(c, w, value);
	if (!valid_key(name))
		return fail(c, "[%s]: '%s' is not an option name (lower case, digits, '_')",
			    w->name, name);
	return add_opt(c, w->opt, &w->nopts, w->name, name, value);
}

/* config_override - opt.WORKLOAD.OPTION = value */
static int config_override(struct parse_ctx *c, struct scn_config *cf, const char *name,
			   const char *value)
{
	const char *wl = name + 4, *dot = strchr(wl, '.');
	char wname[SCN_NAME_MAX];
	int i;

	if (!dot || dot == wl || (size_t)(dot - wl) >= sizeof(wname) || !valid_key(dot + 1))
		return fail(c, "[config %s]: '%s' is not opt.WORKLOAD.OPTION", cf->name, name);
	snprintf(wname, sizeof(wname), "%.*s", (int)(dot - wl), wl);
	for (i = 0; i < cf->nover; i++)
		if (!strcmp(cf->over_wl[i], wname) && !strcmp(cf->over[i].opt.key, dot + 1))
			return fail(c, "[config %s]: '%s' is set twice", cf->name, name);
	if (cf->nover == SCN_MAX_OPTS)
		return fail(c, "[config %s]: more than %d overrides", cf->name, SCN_MAX_OPTS);
	if (strlen(value) >= SCN_VAL_MAX)
		return fail(c, "[config %s] %s: value too long", cf->name, name);
	snprintf(cf->over_wl[cf->nover], SCN_NAME_MAX, "%s", wname);
	snprintf(cf->over[cf->nover].opt.key, SCN_KEY_MAX, "%s", dot + 1);
	snprintf(cf->over[cf->nover].opt.value, SCN_VAL_MAX, "%s", value);
	cf->over[cf->nover].opt.line = c->line;
	cf->nover++;
	return 1;
}

/* config_knob - a knob assignment, validated now (knob_parse is pure) */
static int config_knob(struct parse_ctx *c, struct scn_config *cf, const char *name,
		       const char *value)
{
	char e[ERRBUF_LEN];
	int i;

	for (i = 0; i < cf->nknobs; i++)
		if (!strcmp(cf->knob[i].k.name, name))
			return fail(c, "[config %s]: '%s' is set twice (first at line %d)", cf->name,
				    name, cf->knob[i].line);
	if (cf->nknobs == SCN_MAX_KNOBS)
		return fail(c, "[config %s]: more than %d knobs", cf->name, SCN_MAX_KNOBS);
	if (knob_parse(name, value, &cf->knob[cf->nknobs].k, c->o->online, e))
		return fail(c, "[config %s] %s: %s", cf->name, name, e);
	cf->knob[cf->nknobs++].line = c->line;
	return 1;
}

static int config_key(struct parse_ctx *c, const char *name, const char *value)
{
	struct scn_config *cf = &c->s->cfg[c->idx];

	if (!strcmp(name, "description")) {
		if (cf->description[0])
			return fail(c, "[config %s]: 'description' is set twice", cf->name);
		snprintf(cf->description, sizeof(cf->description), "%s", value);
		return 1;
	}
	if (!strcmp(name, "load")) {
		if (cf->loads_line)
			return fail(c, "[config %s]: 'load' is set twice", cf->name);
		snprintf(cf->loads_text, sizeof(cf->loads_text), "%s", value);
		cf->loads_line = c->line;
		return 1;
	}
	if (!strcmp(name, "settle")) {
		char e[ERRBUF_LEN];
		uint64_t ns = 0;

		if (cf->settle_ns)
			return fail(c, "[config %s]: 'settle' is set twice", cf->name);
		if (parse_duration_ns(value, &ns, e))	/* 0 too: leave the key out */
			return fail(c, "[config %s] settle: %s", cf->name, e);
		cf->settle_ns = ns;
		return 1;
	}
	if (!strncmp(name, "opt.", 4))
		return config_override(c, cf, name, value);
	return config_knob(c, cf, name, value);
}

/* handler - inih's callback for every "key = value" line */
static int handler(void *user, const char *section __unused, const char *name,
		   const char *value)
{
	struct parse_ctx *c = user;
	int ret;

	if (c->indented && c->prev_key[0] && !strcmp(name, c->prev_key))
		return fail(c, "indented line: continuation lines are not supported (do not "
			    "indent keys or sections)");
	switch (c->kind) {
	case SEC_GLOBAL:
		ret = global_key(c, name, value);
		break;
	case SEC_WORKLOAD:
		ret = workload_key(c, name, value);
		break;
	case SEC_CONFIG:
		ret = config_key(c, name, value);
		break;
	default:
		return fail(c, "'%s' is outside any section", name);
	}
	snprintf(c->prev_key, sizeof(c->prev_key), "%s", name);
	return ret;
}

/* scenario_name - "quick" from "bench/scenarios/quick.ini" */
static void scenario_name(struct scenario *s, const char *file)
{
	const char *base = strrchr(file, '/');
	size_t n;

	base = base ? base + 1 : file;
	n = strlen(base);
	if (n > 4 && !strcmp(base + n - 4, ".ini"))
		n -= 4;
	snprintf(s->name, sizeof(s->name), "%.*s", (int)n, base);
}

int scn_ini_read(const char *text, const char *file, const struct scn_parse_opts *o,
		 struct scenario *s, char *errbuf)
{
	struct parse_ctx c = { .s = s, .o = o, .pos = text };
	int ret;

	scn_defaults(s, o->online);
	snprintf(s->file, sizeof(s->file), "%s", file);
	scenario_name(s, file);
	ret = ini_parse_stream(reader, &c, handler, &c);
	if (c.err[0])
		return set_err(errbuf, "%s:%d: %s", file, c.err_line, c.err);
	if (ret > 0)
		return set_err(errbuf, "%s:%d: malformed line (expected [section] or key = value)",
			       file, ret);
	if (ret < 0)
		return set_err(errbuf, "%s: cannot parse (%d)", file, ret);
	return 0;
}
