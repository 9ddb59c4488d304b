/* SPDX-License-Identifier: GPL-2.0 */
/*
 * subbuf.h - check a ring-buffer sub-buffer before kbuffer reads it.
 *
 * libtraceevent's kbuffer trusts the sub-buffer: a commit word larger than the page,
 * a record length that runs past it, or a padding length that wraps make it read
 * outside the page, or loop. subbuf_check() walks the sub-buffer exactly as
 * kbuffer_load_subbuffer() and kbuffer_next_event() will, but with every offset
 * checked, so that a page it accepts is safe to hand to kbuffer.
 *
 * Layout (64-bit kernel, host byte order): u64 timestamp, u64 commit (size in bits
 * 0..26, RB_MISSED_EVENTS bit 31, RB_MISSED_STORED bit 30), then the records. A record
 * starts with a u32: type_len in bits 0..4, time delta in bits 5..31.
 */
#ifndef DEFERBENCH_SUBBUF_H
#define DEFERBENCH_SUBBUF_H

#include <stdint.h>

#define SUBBUF_HDR 16		/* timestamp and commit */

/* What subbuf_check found wrong: at which byte of the sub-buffer, and what. */
struct subbuf_bad {
	unsigned int offset;
	char what[128];
};

/*
 * subbuf_check - page is size bytes (size > SUBBUF_HDR); every record's timestamp must
 * lie in [ts_lo, ts_hi] (the capture's time, with a margin). Returns 0, or -EPROTO
 * and fills bad. Never reads outside [page, page + size).
 */
int subbuf_check(const void *page, unsigned int size, uint64_t ts_lo, uint64_t ts_hi,
		 struct subbuf_bad *bad);

/*
 * subbuf_span - the timestamps of the first and the last record of a sub-buffer that
 * subbuf_check accepts, and how many data records it holds (what the merger counts);
 * -EPROTO for one it refuses, -ENODATA for one without records
 */
int subbuf_span(const void *page, unsigned int size, uint64_t *first, uint64_t *last,
		uint64_t *records);

#endif
