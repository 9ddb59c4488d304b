/* SPDX-License-Identifier: GPL-2.0 */
/*
 * format.h - check the kernel's event format files and ring-buffer header page
 * before libtraceevent sees them.
 *
 * A raw capture carries copies of these files, and libtraceevent's parser trusts
 * them (a truncated field line makes tep_parse_event dereference NULL; its error paths
 * leak). So every format is read here first, strictly: the name and ID lines, and one
 * "field:TYPE NAME; offset:N; size:N; signed:N;" line per field with sane numbers.
 * libtraceevent is then given a canonical text rebuilt from what was checked, with an
 * empty print format: deferbench never formats events as text.
 * Parsers never print: 0 or -EINVAL with "line N: what is wrong" in errbuf.
 */
#ifndef DEFERBENCH_FORMAT_H
#define DEFERBENCH_FORMAT_H

#include <stdbool.h>
#include <stddef.h>

#define FMT_MAX_FIELDS 64
#define FMT_MAX_RECORD 65535	/* __data_loc offsets are 16-bit: no record is longer */
#define FMT_NAME_MAX 64
#define FMT_TYPE_MAX 64

struct fmt_field {
	char type[FMT_TYPE_MAX];	/* "unsigned short", "__data_loc char[]", "char" */
	char name[FMT_NAME_MAX];	/* "common_type", "prev_comm[16]" */
	unsigned int offset, size;
	bool is_signed;
};

struct ev_format {
	char name[FMT_NAME_MAX];
	int id;
	struct fmt_field field[FMT_MAX_FIELDS];
	int nfields;
};

/* format_parse - an event format file; len bytes of text (need not be NUL-terminated) */
int format_parse(const char *text, size_t len, struct ev_format *f, char *errbuf);
/* format_text - the canonical text of f for tep_parse_event(); caller frees, NULL + errno */
char *format_text(const struct ev_format *f, size_t *len);

/*
 * format_header_page_parse - events/header_page: a u64 timestamp at 0, a commit word of
 * long_size bytes after it, then the data; *data_size gets the data's size, so that a
 * sub-buffer is data offset + data size bytes long.
 */
int format_header_page_parse(const char *text, size_t len, unsigned int long_size,
		      unsigned int *data_offset, unsigned int *data_size, char *errbuf);
/* format_header_page_text - the canonical header page for a data area of data_size bytes */
char *format_header_page_text(unsigned int long_size, unsigned int data_size, size_t *len);

#endif
