// SPDX-License-Identifier: GPL-2.0
/*
 * test_hostile_capture.c - issue 10, items 3 to 5: damaged sub-buffers, records,
 * format files, symbols and capture.json are refused with a reason, never read past.
 *
 * Sub-buffers are placed right before a PROT_NONE page, so that any read past their
 * end is a SIGSEGV here even without AddressSanitizer.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include <cmocka.h>
#include <traceevent/event-parse.h>

#include "decode.h"
#include "fixture.h"
#include "format.h"
#include "merge.h"
#include "raw.h"
#include "result.h"
#include "subbuf.h"
#include "symtab.h"
#include "msg.h"

#define PAGE 4096

static const char header_page[] =
	"\tfield: u64 timestamp;\toffset:0;\tsize:8;\tsigned:0;\n"
	"\tfield: local_t commit;\toffset:8;\tsize:8;\tsigned:1;\n"
	"\tfield: int overwrite;\toffset:8;\tsize:1;\tsigned:1;\n"
	"\tfield: char data;\toffset:16;\tsize:4080;\tsigned:0;\n";

#define COMMON                                                                         \
	"\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"         \
	"\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n"         \
	"\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n" \
	"\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n\n"

#define FMT_SIRQ(name, id)                                                             \
	"name: " name "\nID: " #id "\nformat:\n" COMMON                                \
	"\tfield:unsigned int vec;\toffset:8;\tsize:4;\tsigned:0;\n\n"                 \
	"print fmt: \"vec=%u\", REC->vec\n"

static const char fmt_queue[] =
	"name: workqueue_queue_work\nID: 31\nformat:\n" COMMON
	"\tfield:void * work;\toffset:8;\tsize:8;\tsigned:0;\n"
	"\tfield:void * function;\toffset:16;\tsize:8;\tsigned:0;\n"
	"\tfield:__data_loc char[] workqueue;\toffset:24;\tsize:4;\tsigned:0;\n"
	"\tfield:int req_cpu;\toffset:28;\tsize:4;\tsigned:1;\n"
	"\tfield:int cpu;\toffset:32;\tsize:4;\tsigned:1;\n\n"
	"print fmt: \"work struct=%p function=%ps workqueue=%s req_cpu=%d cpu=%d\", "
	"REC->work, REC->function, __get_str(workqueue), REC->req_cpu, REC->cpu\n";

enum { ID_RAISE = 21, ID_ENTRY = 22, ID_EXIT = 23, ID_QUEUE = 31 };

/* guarded - a page whose next page faults */
static unsigned char *guarded(void)
{
	unsigned char *p = mmap(NULL, 2 * PAGE, PROT_READ | PROT_WRITE,
				MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	assert_true(p != MAP_FAILED);
	assert_int_equal(mprotect(p + PAGE, PAGE, PROT_NONE), 0);
	return p;
}

static void unguard(unsigned char *p)
{
	munmap(p, 2 * PAGE);
}

/* A sub-buffer under construction. */
struct pb {
	unsigned char *d;
	size_t len;		/* bytes of records after the header */
	uint64_t last;
};

static void pb_init(struct pb *p, unsigned char *mem, uint64_t ts)
{
	memset(mem, 0, PAGE);
	p->d = mem;
	p->len = 0;
	p->last = ts;
	memcpy(mem, &ts, 8);
}

static void pb_commit(struct pb *p)
{
	uint64_t c = p->len;

	memcpy(p->d + 8, &c, 8);
}

/* pb_sirq - a 16-byte softirq record: header, then common fields and vec */
static void pb_sirq(struct pb *p, uint64_t ts, uint16_t id, uint32_t vec)
{
	uint32_t hdr = (uint32_t)((ts - p->last) << 5) | 3;
	unsigned char *r = p->d + 16 + p->len;
	int32_t pid = 1;

	memcpy(r, &hdr, 4);
	memcpy(r + 4, &id, 2);
	memcpy(r + 8, &pid, 4);
	memcpy(r + 12, &vec, 4);
	p->len += 16;
	p->last = ts;
	pb_commit(p);
}

/* pb_queue - a queue_work record with the workqueue name as a __data_loc string */
static void pb_queue(struct pb *p, uint64_t ts, uint64_t work, const char *wq)
{
	unsigned int n = (unsigned int)strlen(wq) + 1, body = 36 + n;
	uint32_t words = (body + 3) / 4, hdr = (uint32_t)((ts - p->last) << 5) | words;
	unsigned char *r = p->d + 16 + p->len;
	uint32_t loc = (n << 16) | 36;
	uint16_t id = ID_QUEUE;
	uint64_t fn = 0xffffffff81000000ULL;

	memcpy(r, &hdr, 4);
	memcpy(r + 4, &id, 2);
	memcpy(r + 4 + 8, &work, 8);
	memcpy(r + 4 + 16, &fn, 8);
	memcpy(r + 4 + 24, &loc, 4);
	memcpy(r + 4 + 36, wq, n);
	p->len += 4 + words * 4;
	p->last = ts;
	pb_commit(p);
}

/* one page per CPU 0 from a list, then nothing */
struct src {
	unsigned char *pages[8];
	int n, next;
};

static void *sget(void *ctx, int cpu)
{
	struct src *s = ctx;

	if (cpu || s->next >= s->n)
		return NULL;
	return s->pages[s->next++];
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

struct fx {
	struct tep_handle *tep;
	struct decoder dec;
	struct result res;
	struct src src;
};

static void fx_init(struct fx *f)
{
	char *formats[EV_NR] = { 0 }, err[ERRBUF_LEN];
	unsigned int dsize = 0;

	memset(f, 0, sizeof(*f));
	formats[EV_SOFTIRQ_RAISE] = strdup(FMT_SIRQ("softirq_raise", 21));
	formats[EV_SOFTIRQ_ENTRY] = strdup(FMT_SIRQ("softirq_entry", 22));
	formats[EV_SOFTIRQ_EXIT] = strdup(FMT_SIRQ("softirq_exit", 23));
	formats[EV_WQ_QUEUE] = strdup(fmt_queue);
	f->tep = decoder_new_tep(header_page, strlen(header_page), formats, &dsize, NULL, err);
	for (int k = 0; k < EV_NR; k++)
		free(formats[k]);
	assert_non_null(f->tep);
	assert_int_equal(dsize, PAGE - 16);
	assert_int_equal(decoder_init(&f->dec, f->tep, err), 0);
	assert_int_equal(result_init(&f->res, 2, 0, 0, NULL, NULL), 0);
}

static void fx_free(struct fx *f)
{
	result_free(&f->res);
	decoder_free(&f->dec);
	tep_free(f->tep);
}

/* run - merge the queued pages; returns merger.err */
static int run(struct fx *f, bool strict, struct merge_bad *bad, uint64_t *skipped)
{
	struct merger mg;
	int err;

	f->src.next = 0;
	assert_int_equal(merger_init(&mg, 2, &f->dec, &f->res, &(struct page_src){
					.get = sget, .put = sput, .horizon = shorizon,
					.ctx = &f->src, .size = PAGE, .ts_lo = 0,
					.ts_hi = 1ULL << 40, .strict = strict }), 0);
	merger_run(&mg);
	err = mg.err;
	if (bad)
		*bad = mg.first_bad;
	if (skipped)
		*skipped = mg.bad_subbufs + mg.bad_records;
	merger_free(&mg);
	return err;
}

/* expect_bad_page - page is refused for what; returns the offset named */
static unsigned int expect_bad_page(unsigned char *page, const char *what)
{
	struct subbuf_bad bad = { 0 };

	assert_int_equal(subbuf_check(page, PAGE, 0, 1ULL << 40, &bad), -EPROTO);
	if (!strstr(bad.what, what)) {
		print_error("expected '%s' in '%s'\n", what, bad.what);
		fail();
	}
	return bad.offset;
}

/* item 3: every way a sub-buffer can lie is refused, with where and what */
static void test_subbuf_rules(void **state)
{
	unsigned char *mem = guarded();
	struct subbuf_bad bad;
	struct pb p;
	uint64_t v;
	uint32_t w;

	(void)state;
	pb_init(&p, mem, 1000);
	pb_sirq(&p, 1000, ID_RAISE, 1);
	pb_sirq(&p, 1100, ID_ENTRY, 1);
	assert_int_equal(subbuf_check(mem, PAGE, 0, 1ULL << 40, &bad), 0);
	/* the repro: bytes 8..16 = 0xC7FFFFF0 */
	v = 0xC7FFFFF0ULL;
	memcpy(mem + 8, &v, 8);
	assert_int_equal(expect_bad_page(mem, "larger than the sub-buffer"), 8);
	/* unknown commit flags */
	v = 32 | (1ULL << 40);
	memcpy(mem + 8, &v, 8);
	expect_bad_page(mem, "unknown flags");
	/* a missed-events count with no room after the data */
	v = (PAGE - 16 - 4) | (3ULL << 30);
	memcpy(mem + 8, &v, 8);
	expect_bad_page(mem, "missed-events count");
	/* a record longer than the commit */
	pb_commit(&p);
	v = 20;
	memcpy(mem + 8, &v, 8);
	expect_bad_page(mem, "runs past the commit");
	/* a type-0 record whose length word is too small */
	pb_init(&p, mem, 1000);
	w = 0;
	memcpy(mem + 16, &w, 4);
	w = 2;
	memcpy(mem + 20, &w, 4);
	v = 64;
	memcpy(mem + 8, &v, 8);
	expect_bad_page(mem, "shorter than its own length word");
	/* a type-0 record whose length runs far past the page (wraps a 32-bit int) */
	w = 0xfffffff0;
	memcpy(mem + 20, &w, 4);
	expect_bad_page(mem, "runs past the commit");
	/* a padding that runs past the page */
	w = 29;
	memcpy(mem + 16, &w, 4);
	w = 0x80000000;
	memcpy(mem + 20, &w, 4);
	expect_bad_page(mem, "padding");
	/* a time extend that takes the timestamp outside the capture */
	pb_init(&p, mem, 1000);
	w = 30;
	memcpy(mem + 16, &w, 4);
	w = 0xffffffff;
	memcpy(mem + 20, &w, 4);
	p.len = 8;
	pb_sirq(&p, 1000, ID_RAISE, 1);
	expect_bad_page(mem, "outside the capture");
	/* a record header in the last bytes of a full commit */
	pb_init(&p, mem, 1000);
	v = PAGE - 16;
	memcpy(mem + 8, &v, 8);
	w = 1;
	for (size_t off = 16; off < PAGE; off += 8)
		memcpy(mem + off, &w, 4);	/* 8-byte records of type_len 1 */
	assert_int_equal(subbuf_check(mem, PAGE, 0, 1ULL << 40, &bad), 0);
	w = 2;				/* the last one claims 12 bytes */
	memcpy(mem + PAGE - 8, &w, 4);
	expect_bad_page(mem, "runs past the commit");
	unguard(mem);
}

/* item 3: the repro through the merger and kbuffer: refused, not read past */
static void test_merge_refuses(void **state)
{
	unsigned char *mem = guarded(), *mem2 = guarded();
	struct merge_bad bad;
	uint64_t v, skipped;
	struct pb p;
	struct fx f;

	(void)state;
	fx_init(&f);
	pb_init(&p, mem, 1000);
	pb_sirq(&p, 1000, ID_RAISE, 1);
	pb_init(&p, mem2, 2000);
	pb_sirq(&p, 2000, ID_ENTRY, 1);
	v = 0xC7FFFFF0ULL;
	memcpy(mem2 + 8, &v, 8);
	f.src.pages[0] = mem;
	f.src.pages[1] = mem2;
	f.src.n = 2;
	/* a file: the analysis stops at the damage and says where */
	assert_int_equal(run(&f, true, &bad, NULL), -EPROTO);
	assert_int_equal(bad.cpu, 0);
	assert_int_equal(bad.subbuf, 1);
	assert_int_equal(bad.offset, 8);
	/* live: the page is skipped and counted as loss */
	assert_int_equal(run(&f, false, &bad, &skipped), 0);
	assert_int_equal(skipped, 1);
	assert_true(f.res.loss[0].missed_in_band >= 1);
	fx_free(&f);
	unguard(mem);
	unguard(mem2);
}

/* item 3: a __data_loc string outside its record, and records shorter than their format */
static void test_record_bounds(void **state)
{
	unsigned char *mem = guarded();
	struct merge_bad bad;
	uint64_t skipped;
	uint32_t loc, hdr;
	struct pb p;
	struct fx f;

	(void)state;
	fx_init(&f);
	f.src.pages[0] = mem;
	f.src.n = 1;
	pb_init(&p, mem, 1000);
	pb_queue(&p, 1000, 0x1234, "events_unbound");
	assert_int_equal(run(&f, true, &bad, NULL), 0);
	assert_int_equal(f.res.m.nwq, 1);
	/* the name's offset and length point 64 KiB past the record */
	loc = 0xffff0000u | 36;
	memcpy(mem + 16 + 4 + 24, &loc, 4);
	assert_int_equal(run(&f, true, &bad, NULL), -EPROTO);
	assert_non_null(strstr(bad.what, "workqueue name"));
	assert_int_equal(bad.offset, 16);
	assert_int_equal(run(&f, false, &bad, &skipped), 0);
	assert_int_equal(skipped, 1);
	/* a queue_work record of 8 bytes: shorter than its format */
	pb_init(&p, mem, 1000);
	hdr = 2;
	memcpy(mem + 16, &hdr, 4);
	memcpy(mem + 20, &(uint16_t){ ID_QUEUE }, 2);
	p.len = 12;
	pb_commit(&p);
	assert_int_equal(run(&f, true, &bad, NULL), -EPROTO);
	assert_non_null(strstr(bad.what, "shorter than its format"));
	/* an event id that none of the formats has */
	memcpy(mem + 20, &(uint16_t){ 999 }, 2);
	assert_int_equal(run(&f, true, &bad, NULL), -EPROTO);
	assert_non_null(strstr(bad.what, "event id 999"));
	fx_free(&f);
	unguard(mem);
}

/* item 3: random damage to valid pages never makes the merge read past a page */
static void test_random_damage(void **state)
{
	unsigned char *mem = guarded(), good[PAGE];
	unsigned int seed = 10, i, j;
	struct pb p;
	struct fx f;

	(void)state;
	fx_init(&f);
	pb_init(&p, mem, 1000);
	for (i = 0; i < 60; i++) {
		if (i % 3 == 0)
			pb_queue(&p, 1000 + i * 100, 0x1000 + i, i % 2 ? "events" : "kblockd");
		else
			pb_sirq(&p, 1000 + i * 100, ID_RAISE + i % 3, i % 10);
	}
	memcpy(good, mem, PAGE);
	f.src.pages[0] = mem;
	f.src.n = 1;
	for (i = 0; i < 20000; i++) {
		memcpy(mem, good, PAGE);
		for (j = 0; j < 1 + (unsigned int)rand_r(&seed) % 4; j++) {
			unsigned int off = rand_r(&seed) % (i % 2 ? 64U : PAGE);

			mem[off] = (unsigned char)rand_r(&seed);
		}
		run(&f, i % 3 == 0, NULL, NULL);
	}
	fx_free(&f);
	unguard(mem);
}

/* item 5: a misaligned record (a capture with an odd subbuf_size) is read bytewise */
static void test_misaligned(void **state)
{
	unsigned char *buf = malloc(64);
	struct fx f;

	(void)state;
	fx_init(&f);
	memset(buf, 0, 64);
	memcpy(buf + 1, &(uint16_t){ ID_RAISE }, 2);
	memcpy(buf + 1 + 8, &(uint32_t){ 3 }, 4);
	assert_int_equal(decode_record(&f.dec, &f.res.m, 0, 1000, buf + 1, 12), 0);
	assert_int_equal(decode_record(&f.dec, &f.res.m, 0, 1000, buf + 1, 1), DEC_SHORT);
	assert_int_equal(decode_record(&f.dec, &f.res.m, 0, 1000, buf + 1, 10), DEC_SHORT);
	free(buf);
	fx_free(&f);
}

/* item 5: format files that libtraceevent would crash on or leak with */
static void test_formats(void **state)
{
	static const struct {
		const char *text;
		const char *why;
	} bad[] = {
		/* a truncated copy: libtraceevent dereferenced NULL on it */
		{ "name: workqueue_queue_work\nID: 31\nformat:\n" COMMON
		  "\tfield:void * work;\toffset:8;\tsize:8;\tsigned:0;\n"
		  "\tfield:void * function;\toffset:16;\tsize:8;\tsigned:0;\n"
		  "\tfield:__data_loc char[", "no ';'" },
		{ "name: workqueue_queue_work\nID: 31\nformat:\n", "ends before 'print fmt:'" },
		{ "name: workqueue_queue_work\nID: 0\nformat:\n", "out of range" },
		{ "name: softirq_raise\nID: 31\nformat:\n" COMMON "print fmt: \"\"\n", "names event" },
		{ "name: workqueue_queue_work\nID: 31\nformat:\n"
		  "\tfield:int x;\toffset:65530;\tsize:8;\tsigned:0;\n\nprint fmt: \"\"\n",
		  "beyond the largest" },
		{ "name: workqueue_queue_work\nID: 31\nformat:\n"
		  "\tfield:int x;\toffset:0;\tsize:4;\tsigned:0;\n"
		  "\tfield:int x;\toffset:4;\tsize:4;\tsigned:0;\n\nprint fmt: \"\"\n", "twice" },
		{ "name: workqueue_queue_work\nID: 31\nformat:\n"
		  "\tfield:int\x1b[31m y;\toffset:0;\tsize:4;\tsigned:0;\n\nprint fmt: \"\"\n",
		  "unexpected characters" },
		{ "name: workqueue_queue_work\nID: 31\nformat:\n" COMMON
		  "\tfield:void * work;\toffset:8;\tsize:8;\tsigned:0;\n"
		  "\tfield:void * function;\toffset:16;\tsize:8;\tsigned:0;\n"
		  "\tfield:__data_loc char[] workqueue;\toffset:24;\tsize:2;\tsigned:0;\n\n"
		  "print fmt: \"\"\n", "not a 4-byte __data_loc" },
		/* a stray bracket in a type: libtraceevent leaked on it (found by make fuzz) */
		{ "name: workqueue_queue_work\nID: 31\nformat:\n" COMMON
		  "\tfield:void ] work;\toffset:8;\tsize:8;\tsigned:0;\n\nprint fmt: \"\"\n",
		  "unexpected characters" },
		{ "name: workqueue_queue_work\nID: 31\nformat:\n" COMMON
		  "\tfield:char [x] work;\toffset:8;\tsize:8;\tsigned:0;\n\nprint fmt: \"\"\n",
		  "unexpected characters" },
		/* a print format libtraceevent cannot parse no longer matters */
	};
	char *formats[EV_NR] = { 0 }, err[ERRBUF_LEN];
	struct tep_handle *tep;
	struct decoder d;
	size_t i;
	int which;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		formats[EV_WQ_QUEUE] = (char *)bad[i].text;
		err[0] = '\0';
		tep = decoder_new_tep(header_page, strlen(header_page), formats, NULL, &which, err);
		if (tep) {
			assert_int_not_equal(decoder_init(&d, tep, err), 0);
			tep_free(tep);
		} else {
			assert_int_equal(which, EV_WQ_QUEUE);
		}
		if (!strstr(err, bad[i].why)) {
			print_error("case %zu: expected '%s' in '%s'\n", i, bad[i].why, err);
			fail();
		}
	}
	/* an unparseable print format is never given to libtraceevent */
	formats[EV_WQ_QUEUE] = "name: workqueue_queue_work\nID: 31\nformat:\n" COMMON
		"\tfield:void * work;\toffset:8;\tsize:8;\tsigned:0;\n"
		"\tfield:void * function;\toffset:16;\tsize:8;\tsigned:0;\n"
		"\tfield:__data_loc char[] workqueue;\toffset:24;\tsize:4;\tsigned:0;\n\n"
		"print fmt: \"%s\", __get_str(((((((REC->\n";
	tep = decoder_new_tep(header_page, strlen(header_page), formats, NULL, &which, err);
	assert_non_null(tep);
	tep_free(tep);
	/* two events with one ID */
	formats[EV_WQ_QUEUE] = NULL;
	formats[EV_SOFTIRQ_RAISE] = FMT_SIRQ("softirq_raise", 21);
	formats[EV_SOFTIRQ_ENTRY] = FMT_SIRQ("softirq_entry", 21);
	assert_null(decoder_new_tep(header_page, strlen(header_page), formats, NULL, &which, err));
	assert_int_equal(which, EV_SOFTIRQ_ENTRY);
	assert_non_null(strstr(err, "also the ID"));
	/* header pages */
	formats[EV_SOFTIRQ_ENTRY] = NULL;
	assert_null(decoder_new_tep("\tfield: u64 timestamp;\toffset:0;\tsize:8;\tsigned:0;\n",
				    50, formats, NULL, &which, err));
	assert_int_equal(which, -1);
	assert_null(decoder_new_tep("\tfield: char data;\toffset:16;\tsize:4080", 40, formats,
				    NULL, &which, err));
}

/* item 5: a symbols file without a text symbol (qsort(NULL, 0) was undefined) */
static void test_symbols(void **state)
{
	char *d = fixture_dir(), buf[128], err[ERRBUF_LEN];
	struct symtab t;

	(void)state;
	fixture_write(d, "symbols", "ffffffff81000000 D data_only\nnot a line\n\n");
	assert_int_equal(symtab_load(&t, fixture_path(d, "symbols"), err), 0);
	assert_int_equal(t.n, 0);
	assert_string_equal(symtab_name(&t, 0xffffffff81000000ULL, buf, sizeof(buf)),
			    "0xffffffff81000000");
	symtab_free(&t);
	/* names with control characters are not taken */
	fixture_write(d, "symbols", "ffffffff81000000 T evil\x1b]0;x\x07\n"
				    "ffffffff81000100 T good\n");
	assert_int_equal(symtab_load(&t, fixture_path(d, "symbols"), err), 0);
	assert_int_equal(t.n, 1);
	symtab_free(&t);
	/* not a regular file */
	assert_int_not_equal(symtab_load(&t, "/dev/zero", err), 0);
	assert_non_null(strstr(err, "not a regular file"));
	fixture_free(d);
}

static const char meta[] =
	"{ \"schema\": \"deferbench-raw/1\", \"cpus\": 1, \"subbuf_size\": %s, \"start_ts\": 1,"
	" \"end_ts\": %s, \"interval_ns\": %s, \"buffer_kb\": 64,"
	" \"loss\": [ { \"entries\": 0, \"overrun\": 0, \"commit_overrun\": 0, \"dropped\": 0,"
	" \"read_events\": 0 } ] }%s";

static int load_meta(const char *d, const char *size, const char *end, const char *ival,
		     const char *tail, char *err)
{
	char text[1024];
	struct raw_meta rm;
	int ret;

	snprintf(text, sizeof(text), meta, size, end, ival, tail);
	fixture_write(d, "capture.json", text);
	ret = raw_load_meta(d, &rm, err);
	free(rm.loss);
	return ret;
}

/* item 5: capture.json fields that the reader relies on */
static void test_capture_json(void **state)
{
	char *d = fixture_dir(), err[ERRBUF_LEN];

	(void)state;
	assert_int_equal(load_meta(d, "4096", "2", "0", "", err), 0);
	assert_int_not_equal(load_meta(d, "4097", "2", "0", "", err), 0);
	assert_non_null(strstr(err, "power of two"));
	assert_int_not_equal(load_meta(d, "6144", "2", "0", "", err), 0);
	assert_int_not_equal(load_meta(d, "4096", "0", "0", "", err), 0);
	assert_non_null(strstr(err, "end_ts"));
	assert_int_not_equal(load_meta(d, "4096", "2", "1", "", err), 0);
	assert_non_null(strstr(err, "interval_ns"));
	assert_int_not_equal(load_meta(d, "4096", "2", "0", "garbage", err), 0);
	assert_non_null(strstr(err, "capture.json"));
	fixture_free(d);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_subbuf_rules),
		cmocka_unit_test(test_merge_refuses),
		cmocka_unit_test(test_record_bounds),
		cmocka_unit_test(test_random_damage),
		cmocka_unit_test(test_misaligned),
		cmocka_unit_test(test_formats),
		cmocka_unit_test(test_symbols),
		cmocka_unit_test(test_capture_json),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
