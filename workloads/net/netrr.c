// SPDX-License-Identifier: GPL-2.0
/*
 * netrr.c - wire format, pacing and response bookkeeping of the net workload.
 */
#include "netrr.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "common.h"

static void put_le32(uint8_t *p, uint32_t v)
{
	for (int i = 0; i < 4; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

static void put_le64(uint8_t *p, uint64_t v)
{
	for (int i = 0; i < 8; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

static uint32_t get_le32(const uint8_t *p)
{
	uint32_t v = 0;

	for (int i = 3; i >= 0; i--)
		v = v << 8 | p[i];
	return v;
}

static uint64_t get_le64(const uint8_t *p)
{
	uint64_t v = 0;

	for (int i = 7; i >= 0; i--)
		v = v << 8 | p[i];
	return v;
}

int netrr_encode(const struct netrr_msg *m, void *buf, size_t len)
{
	uint8_t *p = buf;

	if (len < NETRR_HDR_LEN)
		return -EINVAL;
	put_le32(p, NETRR_MAGIC);
	put_le32(p + 4, m->cookie);
	put_le64(p + 8, m->seq);
	put_le64(p + 16, m->t_sched);
	put_le64(p + 24, m->t_sent);
	put_le64(p + 32, m->t_echo);
	return 0;
}

int netrr_decode(const void *buf, size_t len, uint32_t cookie, struct netrr_msg *m)
{
	const uint8_t *p = buf;

	if (len < NETRR_HDR_LEN || get_le32(p) != NETRR_MAGIC || get_le32(p + 4) != cookie)
		return -EINVAL;
	m->cookie = cookie;
	m->seq = get_le64(p + 8);
	m->t_sched = get_le64(p + 16);
	m->t_sent = get_le64(p + 24);
	m->t_echo = get_le64(p + 32);
	return 0;
}

int netrr_stamp_echo(void *buf, size_t len, uint64_t t_echo)
{
	if (len < NETRR_HDR_LEN || get_le32(buf) != NETRR_MAGIC)
		return -EINVAL;
	put_le64((uint8_t *)buf + 32, t_echo);
	return 0;
}

uint64_t netrr_deadline(uint64_t t0, uint64_t i, uint64_t rate)
{
	return t0 + (uint64_t)((unsigned __int128)i * NSEC_PER_SEC / rate);
}

uint64_t netrr_period(uint64_t rate)
{
	return NSEC_PER_SEC / rate;
}

bool netrr_is_late(uint64_t t_sched, uint64_t t_sent, uint64_t rate)
{
	return t_sent > t_sched && t_sent - t_sched > netrr_period(rate);
}

int netrr_track_init(struct netrr_track *t, uint64_t window)
{
	uint64_t n = 64;

	while (n < window && n < (1ULL << 40))
		n <<= 1;
	memset(t, 0, sizeof(*t));
	t->bits = calloc(n / 64, sizeof(uint64_t));
	if (!t->bits)
		return -ENOMEM;
	t->nbits = n;
	return 0;
}

void netrr_track_free(struct netrr_track *t)
{
	free(t->bits);
	t->bits = NULL;
}

static bool bit_test_set(struct netrr_track *t, uint64_t seq)
{
	uint64_t i = seq & (t->nbits - 1), m = 1ULL << (i % 64);
	bool was = t->bits[i / 64] & m;

	t->bits[i / 64] |= m;
	return was;
}

/* track_slide - move the window so that @seq is its newest slot, forgetting the oldest */
static void track_slide(struct netrr_track *t, uint64_t seq)
{
	uint64_t nbase = seq - t->nbits + 1, s;

	if (nbase - t->base >= t->nbits) {
		memset(t->bits, 0, t->nbits / 8);
	} else {
		for (s = t->base; s < nbase; s++) {
			uint64_t i = s & (t->nbits - 1);

			t->bits[i / 64] &= ~(1ULL << (i % 64));
		}
	}
	t->base = nbase;
}

enum netrr_verdict netrr_track_recv(struct netrr_track *t, uint64_t seq)
{
	if (seq < t->base) {
		t->received++;
		t->stale++;
		return NETRR_STALE;
	}
	if (seq - t->base >= t->nbits)
		track_slide(t, seq);
	if (bit_test_set(t, seq)) {
		t->duplicates++;
		return NETRR_DUPLICATE;
	}
	t->received++;
	return NETRR_NEW;
}

uint64_t netrr_lost(uint64_t sent, uint64_t received)
{
	return sent > received ? sent - received : 0;
}
