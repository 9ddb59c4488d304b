/* SPDX-License-Identifier: GPL-2.0 */
/*
 * netrr.h - the pure parts of the net workload: the request/response wire format,
 * the pacing schedule and the duplicate/loss bookkeeping. No sockets, no threads:
 * everything here is unit-tested.
 *
 * Times are CLOCK_MONOTONIC nanoseconds (now_ns()); the clock is the same for every
 * thread and namespace of the machine (deferbench creates no time namespace), so the
 * responder's stamp can be subtracted from the client's.
 */
#ifndef DEFERBENCH_NETRR_H
#define DEFERBENCH_NETRR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/*
 * Request and response carry the same header (little-endian), then padding up to the
 * configured size:
 *   0 magic "DBNR"  4 cookie (per run)  8 seq  16 t_sched  24 t_sent  32 t_echo
 */
#define NETRR_MAGIC 0x524e4244U		/* "DBNR" read as little-endian */
#define NETRR_HDR_LEN 40
#define NETRR_MAX_LEN 65507		/* largest UDP payload over IPv4 */

struct netrr_msg {
	uint32_t cookie;	/* rejects anything not sent by this run */
	uint64_t seq;		/* 0, 1, 2, ... in schedule order */
	uint64_t t_sched;	/* when the request was due: the start of its RTT */
	uint64_t t_sent;	/* just before the client's send() */
	uint64_t t_echo;	/* the responder's recv() returned; 0 in requests */
};

/* netrr_encode - write the header; returns -EINVAL when @len < NETRR_HDR_LEN */
int netrr_encode(const struct netrr_msg *m, void *buf, size_t len);
/* netrr_decode - parse and check magic and cookie; -EINVAL for anything else */
int netrr_decode(const void *buf, size_t len, uint32_t cookie, struct netrr_msg *m);
/* netrr_stamp_echo - the responder's stamp, written in place into a received request */
int netrr_stamp_echo(void *buf, size_t len, uint64_t t_echo);

/*
 * netrr_deadline - when request @i is due at @rate per second from @t0: exact
 * (t0 + i * 1e9 / rate, no accumulated rounding), so a late request never shifts the
 * schedule of the next ones. @rate must be > 0.
 */
uint64_t netrr_deadline(uint64_t t0, uint64_t i, uint64_t rate);
/* netrr_period - the nominal gap between requests, rounded down */
uint64_t netrr_period(uint64_t rate);
/* netrr_is_late - a send is late when it left after the next request was already due */
bool netrr_is_late(uint64_t t_sched, uint64_t t_sent, uint64_t rate);

/*
 * struct netrr_track - which responses arrived, for the client's receive thread.
 * A bitmap covers the most recent @window sequence numbers: a second response for one
 * of them is a duplicate; a response older than the window is "stale": it still counts
 * as received (its RTT is real) but cannot be checked for duplication. Losses are not
 * tracked per packet: lost = sent - received once the run has drained.
 */
struct netrr_track {
	uint64_t *bits;
	uint64_t nbits;		/* power of two, >= 64 */
	uint64_t base;		/* lowest sequence number the bitmap covers */
	uint64_t received, duplicates, stale;
};

enum netrr_verdict { NETRR_NEW, NETRR_DUPLICATE, NETRR_STALE };

/* netrr_track_init - @window rounded up to a power of two (>= 64); -ENOMEM */
int netrr_track_init(struct netrr_track *t, uint64_t window);
void netrr_track_free(struct netrr_track *t);
/* netrr_track_recv - account one response; NEW and STALE ones carry a valid RTT */
enum netrr_verdict netrr_track_recv(struct netrr_track *t, uint64_t seq);
/* netrr_lost - sent but never answered (0 if duplicates of stale ones overshoot) */
uint64_t netrr_lost(uint64_t sent, uint64_t received);

#endif
