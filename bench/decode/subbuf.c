// SPDX-License-Identifier: GPL-2.0
/*
 * subbuf.c - the sub-buffer walk of kbuffer, with every offset checked (see subbuf.h).
 */
#include "subbuf.h"

#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "common.h"

#define COMMIT_MASK ((1U << 27) - 1)
#define MISSED_EVENTS (1ULL << 31)
#define MISSED_STORED (1ULL << 30)
#define TS_MSB (0xf8ULL << 56)

enum {
	TYPE_DATA_MAX = 28,	/* 1..28: data of type_len * 4 bytes; 0: length in array[0] */
	TYPE_PADDING = 29,
	TYPE_TIME_EXTEND = 30,
	TYPE_TIME_STAMP = 31,
};

static uint32_t load4(const unsigned char *p)
{
	uint32_t v;

	memcpy(&v, p, 4);
	return v;
}

static uint64_t load8(const unsigned char *p)
{
	uint64_t v;

	memcpy(&v, p, 8);
	return v;
}

static int bad_at(struct subbuf_bad *bad, unsigned int off, const char *fmt, ...)
	__printf(3, 4);
static int bad_at(struct subbuf_bad *bad, unsigned int off, const char *fmt, ...)
{
	va_list ap;

	bad->offset = off;
	va_start(ap, fmt);
	vsnprintf(bad->what, sizeof(bad->what), fmt, ap);
	va_end(ap);
	return -EPROTO;
}

/*
 * walk - subbuf_check, and the first and last record's timestamps (0: no record) and
 * how many data records it holds
 */
static int walk(const void *page, unsigned int size, uint64_t ts_lo, uint64_t ts_hi,
		struct subbuf_bad *bad, uint64_t *first, uint64_t *last, uint64_t *records)
{
	const unsigned char *p = page, *data = p + SUBBUF_HDR;
	uint64_t ts, commit, len, next, ext;
	unsigned int cap, csize, curr = 0;
	uint32_t tl, type, delta;

	*first = *last = *records = 0;
	if (size <= SUBBUF_HDR)
		return bad_at(bad, 0, "a sub-buffer of %u bytes has no room for records", size);
	cap = size - SUBBUF_HDR;
	ts = load8(p);
	commit = load8(p + 8);
	csize = (unsigned int)(commit & COMMIT_MASK);
	if (commit & ~(COMMIT_MASK | MISSED_EVENTS | MISSED_STORED))
		return bad_at(bad, 8, "the commit word 0x%llx has unknown flags",
			      (unsigned long long)commit);
	if (csize > cap)
		return bad_at(bad, 8, "the commit (%u bytes) is larger than the sub-buffer's %u "
			      "bytes of data", csize, cap);
	/* the count of missed events is stored right after the data */
	if ((commit & MISSED_EVENTS) && (commit & MISSED_STORED) && cap - csize < 8)
		return bad_at(bad, 8, "the missed-events count lies beyond the sub-buffer");
	while (curr < csize) {
		unsigned int off = SUBBUF_HDR + curr;

		if (cap - curr < 4)
			return bad_at(bad, off, "a record header runs past the sub-buffer");
		tl = load4(data + curr);
		type = tl & 31;
		delta = tl >> 5;
		switch (type) {
		case TYPE_PADDING:
			if (cap - curr < 8)
				return bad_at(bad, off, "a padding record runs past the sub-buffer");
			len = load4(data + curr + 4);
			next = (uint64_t)curr + 4 + len;
			if (next > cap)
				return bad_at(bad, off, "a padding of %llu bytes runs past the "
					      "sub-buffer", (unsigned long long)len);
			ts += delta;
			break;
		case TYPE_TIME_EXTEND:
		case TYPE_TIME_STAMP:
			if (csize - curr < 8)
				return bad_at(bad, off, "a time extend runs past the commit");
			ext = ((uint64_t)load4(data + curr + 4) << 27) + delta;
			if (type == TYPE_TIME_STAMP)
				ts = ext | (ts & TS_MSB);
			else if (__builtin_add_overflow(ts, ext, &ts))
				return bad_at(bad, off, "a time extend overflows the timestamp");
			next = (uint64_t)curr + 8;
			break;
		case 0:
			if (csize - curr < 8)
				return bad_at(bad, off, "a record header runs past the commit");
			len = load4(data + curr + 4);
			if (len < 4)
				return bad_at(bad, off, "a record length of %llu is shorter than its "
					      "own length word", (unsigned long long)len);
			next = (uint64_t)curr + 8 + ((len - 4 + 3) & ~3ULL);
			goto data_record;
		default:
			next = (uint64_t)curr + 4 + type * 4;
data_record:
			if (next > csize)
				return bad_at(bad, off, "a record of %llu bytes runs past the commit "
					      "(%u bytes)", (unsigned long long)(next - curr), csize);
			if (__builtin_add_overflow(ts, delta, &ts))
				return bad_at(bad, off, "the timestamp overflows");
			if (ts < ts_lo || ts > ts_hi)
				return bad_at(bad, off, "timestamp %llu lies outside the capture "
					      "[%llu, %llu]", (unsigned long long)ts,
					      (unsigned long long)ts_lo, (unsigned long long)ts_hi);
			if (!*first)
				*first = ts;
			*last = ts;
			(*records)++;
			break;
		}
		curr = (unsigned int)next;
	}
	return 0;
}

int subbuf_check(const void *page, unsigned int size, uint64_t ts_lo, uint64_t ts_hi,
		 struct subbuf_bad *bad)
{
	uint64_t first, last, records;

	return walk(page, size, ts_lo, ts_hi, bad, &first, &last, &records);
}

int subbuf_span(const void *page, unsigned int size, uint64_t *first, uint64_t *last,
		uint64_t *records)
{
	struct subbuf_bad bad;

	if (walk(page, size, 0, UINT64_MAX, &bad, first, last, records))
		return -EPROTO;
	return *last ? 0 : -ENODATA;
}
