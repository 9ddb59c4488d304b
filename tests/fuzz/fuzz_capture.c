// SPDX-License-Identifier: GPL-2.0
/*
 * fuzz_capture.c - libFuzzer target for everything a raw capture feeds the reader
 * (issue 10): the first byte of the input says what the rest is.
 *
 *   0  sub-buffers: byte 1 is how many of them are CPU 0's, the rest CPU 1's; they are
 *      merged with the fixture capture's formats (and kernel_stack's), strictly
 *      (analyze) and live-style, keeping the slowest events and stacks
 *   1  capture.json            2  an event format (byte 1 picks the event)
 *   3  the header page         4  a symbols file           5  a comms file
 *
 * Seeds: tests/fuzz/corpus/capture/ (made from the fixture capture by
 * tests/fuzz/seeds.py, which also writes a sub-buffer with kernel_stack records). Built
 * and run by 'make fuzz'.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <traceevent/event-parse.h>

#include "decode.h"
#include "detail.h"
#include "fixture_formats.h"
#include "merge.h"
#include "raw.h"
#include "result.h"
#include "symtab.h"
#include "msg.h"

#define PAGE 4096

static struct tep_handle *tep;
static struct decoder dec;

struct src {
	unsigned char *pages;
	size_t n[2], next[2], first[2];
};

static void *sget(void *ctx, int cpu)
{
	struct src *s = ctx;

	if (s->next[cpu] >= s->n[cpu])
		return NULL;
	return s->pages + (s->first[cpu] + s->next[cpu]++) * PAGE;
}

static void sput(void *ctx, int cpu, void *page)
{
	(void)ctx;
	(void)cpu;
	(void)page;
}

static uint64_t shorizon(void *ctx, int cpu)
{
	(void)ctx;
	(void)cpu;
	return UINT64_MAX;
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	char err[ERRBUF_LEN];

	(void)argc;
	(void)argv;
	tep = decoder_new_tep(fixture_header_page, strlen(fixture_header_page),
			      (char *const *)fixture_formats, NULL, NULL, err);
	if (!tep || decoder_init(&dec, tep, err))
		abort();
	return 0;
}

static void merge(const uint8_t *data, size_t size, bool strict)
{
	struct src s = { 0 };
	struct result res;
	struct merger mg;
	size_t pages = size / PAGE;

	if (!pages || size < 2)
		return;
	/* the kernel's pages are aligned; the fuzzer's input is not */
	s.pages = aligned_alloc(PAGE, pages * PAGE);
	if (!s.pages)
		return;
	memcpy(s.pages, data, pages * PAGE);
	s.n[0] = data[0] % (pages + 1);
	s.n[1] = pages - s.n[0];
	s.first[1] = s.n[0];
	if (!result_init(&res, 2, FIXTURE_START_TS, NSEC_PER_SEC, NULL, NULL)) {
		/* the slowest events and stacks as record --stacks keeps them */
		res.meta.slowest = 10;
		res.meta.stack_vecs = STACK_VECS_DEFAULT;
		res.meta.keep_worst_ns = NSEC_PER_MSEC;
		res.meta.worst_vecs = STACK_VECS_DEFAULT;
		if (!result_detail(&res) &&
		    !merger_init(&mg, 2, &dec, &res, &(struct page_src){
					.get = sget, .put = sput, .horizon = shorizon, .ctx = &s,
					.size = PAGE,
					.ts_lo = strict ? FIXTURE_START_TS - NSEC_PER_SEC : 0,
					.ts_hi = strict ? FIXTURE_END_TS + NSEC_PER_SEC : UINT64_MAX,
					.strict = strict })) {
			merger_run(&mg);
			merger_free(&mg);
			result_finish(&res);
		}
		result_free(&res);
	}
	free(s.pages);
}

/* text - a NUL-terminated copy of the input */
static char *text(const uint8_t *data, size_t size)
{
	char *t = malloc(size + 1);

	if (t) {
		memcpy(t, data, size);
		t[size] = '\0';
	}
	return t;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char err[ERRBUF_LEN], *formats[EV_NR] = { 0 }, *t, buf[128];
	struct comm_entry *comms;
	struct tep_handle *h;
	struct raw_meta rm;
	struct symtab st;
	struct decoder d;
	size_t n;

	if (size < 1)
		return 0;
	switch (data[0] % 6) {
	case 0:
		merge(data + 1, size - 1, true);
		merge(data + 1, size - 1, false);
		break;
	case 1:
		t = text(data + 1, size - 1);
		if (t && !raw_parse_meta(t, size - 1, "capture.json", &rm, err))
			free(rm.loss);
		free(t);
		break;
	case 2:
	case 3:
		if (size < 2)
			break;
		t = text(data + 2, size - 2);
		if (!t)
			break;
		if (data[0] % 6 == 2) {
			memcpy(formats, fixture_formats, sizeof(formats));
			formats[data[1] % EV_NR] = t;
			h = decoder_new_tep(fixture_header_page, strlen(fixture_header_page),
					    formats, NULL, NULL, err);
		} else {
			h = decoder_new_tep(t, size - 2, (char *const *)fixture_formats, NULL,
					    NULL, err);
		}
		if (h && !decoder_init(&d, h, err))
			decoder_free(&d);
		if (h)
			tep_free(h);
		free(t);
		break;
	case 4:
		/* symtab_parse takes the text over, also when it fails */
		t = text(data + 1, size - 1);
		if (t && !symtab_parse(&st, t, size - 1)) {
			symtab_name(&st, 0xffffffff81000000ULL, buf, sizeof(buf));
			symtab_addr(&st, "wq_barrier_func");
			symtab_free(&st);
		}
		break;
	case 5:
		t = text(data + 1, size - 1);
		if (t && !raw_parse_comms(t, size - 1, "comms", &comms, &n, err))
			free(comms);
		free(t);
		break;
	}
	return 0;
}
