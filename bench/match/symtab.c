// SPDX-License-Identifier: GPL-2.0
/*
 * symtab.c - kernel text symbols from kallsyms-format text.
 */
#include "symtab.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "grow.h"
#include "msg.h"
#include "file.h"
#include "outw.h"

static int sym_cmp(const void *a, const void *b)
{
	const struct sym *x = a, *y = b;

	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

/* name_ok - a symbol name deferbench prints: no control characters, not too long */
static bool name_ok(const char *s)
{
	size_t n = 0;

	for (; *s; s++, n++)
		if ((unsigned char)*s < 0x20 || *s == 0x7f || n >= SYMTAB_NAME_MAX)
			return false;
	return n > 0;
}

int symtab_load(struct symtab *t, const char *path, char *errbuf)
{
	char *text;
	size_t len;
	int ret;

	memset(t, 0, sizeof(*t));
	ret = read_input(path, SYMTAB_MAX_BYTES, &text, &len, errbuf);
	if (ret)
		return ret;
	ret = symtab_parse(t, text, len);
	if (ret)
		set_err(errbuf, "out of memory reading %s", path);
	return ret;
}

int symtab_parse(struct symtab *t, char *text, size_t len)
{
	char *line, *save = NULL;

	memset(t, 0, sizeof(*t));
	t->strings = text;
	t->strings_len = len;
	for (line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char *addr_end, *name, *mod;
		unsigned long long addr;
		char type;

		addr = strtoull(line, &addr_end, 16);
		if (addr_end == line || addr_end[0] != ' ' || !addr_end[1] || addr_end[2] != ' ')
			continue;
		type = addr_end[1];
		/* only text symbols can be work functions */
		if (type != 't' && type != 'T')
			continue;
		name = addr_end + 3;
		mod = strchr(name, '\t');
		if (mod)
			*mod = '\0';
		if (!name_ok(name))
			continue;
		if (GROW(t->syms, t->cap, t->n + 1)) {
			symtab_free(t);
			return -ENOMEM;
		}
		t->syms[t->n].addr = addr;
		t->syms[t->n].name = name;
		t->n++;
	}
	/* a file without a text symbol is fine: every function shows as an address */
	if (t->n)
		qsort(t->syms, t->n, sizeof(*t->syms), sym_cmp);
	return 0;
}

void symtab_free(struct symtab *t)
{
	free(t->syms);
	free(t->strings);
	memset(t, 0, sizeof(*t));
}

static const struct sym *symtab_find(const struct symtab *t, uint64_t addr)
{
	size_t lo = 0, hi = t->n;

	/* the last symbol at or below addr */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (t->syms[mid].addr <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo ? &t->syms[lo - 1] : NULL;
}

const char *symtab_name(const struct symtab *t, uint64_t addr, char *buf, size_t len)
{
	const struct sym *s = symtab_find(t, addr);

	/* an offset beyond 1 MiB means addr is past the last symbol we know */
	if (!s || !s->addr || addr - s->addr > (1 << 20))
		snprintf(buf, len, "0x%llx", (unsigned long long)addr);
	else if (s->addr == addr)
		snprintf(buf, len, "%s", s->name);
	else
		snprintf(buf, len, "%s+0x%llx", s->name, (unsigned long long)(addr - s->addr));
	return buf;
}

bool symtab_has_addresses(const struct symtab *t)
{
	/* sorted: the last has the highest address */
	return t->n && t->syms[t->n - 1].addr;
}

uint64_t symtab_addr(const struct symtab *t, const char *name)
{
	size_t i;

	for (i = 0; i < t->n; i++)
		if (!strcmp(t->syms[i].name, name))
			return t->syms[i].addr;
	return 0;
}

int symtab_save(const struct symtab *t, const uint64_t *addrs, size_t n, const char *path)
{
	const struct sym *last = NULL;
	FILE *f = out_fopen(path);
	size_t i;

	if (!f)
		return -errno;
	for (i = 0; i < n; i++) {
		const struct sym *s = symtab_find(t, addrs[i]);

		/* sorted addresses in one function: its line once */
		if (s && s->addr && s != last)
			fprintf(f, "%016llx T %s\n", (unsigned long long)s->addr, s->name);
		last = s;
	}
	if (fclose(f))
		return -errno;
	return 0;
}
