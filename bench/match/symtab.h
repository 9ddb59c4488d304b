/* SPDX-License-Identifier: GPL-2.0 */
/*
 * symtab.h - kernel text symbols, to name work functions.
 *
 * Loaded from /proc/kallsyms when recording (needs root: addresses read as zero
 * otherwise) or from the "symbols" file a raw capture keeps, so that offline analysis
 * names functions exactly as the live run did.
 */
#ifndef DEFERBENCH_SYMTAB_H
#define DEFERBENCH_SYMTAB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct sym {
	uint64_t addr;
	char *name;
};

struct symtab {
	struct sym *syms;	/* sorted by address */
	size_t n, cap;
	char *strings;		/* one allocation holding every name */
	size_t strings_len;
};

#define SYMTAB_MAX_BYTES (256U << 20)	/* /proc/kallsyms is a few tens of MiB at most */
#define SYMTAB_NAME_MAX 512

/*
 * symtab_load - parse kallsyms-format text ("addr type name [module]") from path, a
 * regular file; lines that are not text symbols with printable names are skipped.
 * 0, or -errno with the reason in errbuf (may be NULL).
 */
int symtab_load(struct symtab *t, const char *path, char *errbuf);
/* symtab_parse - the same from NUL-terminated text, which t takes over (freed with t, or
 * at once when it fails) */
int symtab_parse(struct symtab *t, char *text, size_t len);
void symtab_free(struct symtab *t);
/*
 * symtab_name - "flush_to_ldisc" for an exact match, "sym+0x10" inside a symbol,
 * or the hexadecimal address when unknown; buf must hold 128 bytes.
 */
const char *symtab_name(const struct symtab *t, uint64_t addr, char *buf, size_t len);
/*
 * symtab_has_addresses - some text symbol has a non-zero address (kallsyms shows zeros
 * to readers kernel.kptr_restrict hides them from)
 */
bool symtab_has_addresses(const struct symtab *t);
/* symtab_addr - the address of a symbol by name, 0 if absent */
uint64_t symtab_addr(const struct symtab *t, const char *name);
/*
 * symtab_save - write "addr T name" lines for the given addresses (a raw capture keeps
 * these); an address in the same symbol as the one before it adds no line
 */
int symtab_save(const struct symtab *t, const uint64_t *addrs, size_t n, const char *path);

#endif
