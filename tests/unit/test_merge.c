// SPDX-License-Identifier: GPL-2.0
/*
 * test_merge.c - the per-CPU merge on hand-built ring-buffer sub-buffers: time order
 * across CPUs, the horizon of a CPU with nothing queued, and missed-event markers.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include <traceevent/event-parse.h>

#include "decode.h"
#include "merge.h"
#include "result.h"

static const char header_page[] =
	"\tfield: u64 timestamp;\toffset:0;\tsize:8;\tsigned:0;\n"
	"\tfield: local_t commit;\toffset:8;\tsize:8;\tsigned:1;\n"
	"\tfield: int overwrite;\toffset:8;\tsize:1;\tsigned:1;\n"
	"\tfield: char data;\toffset:16;\tsize:4080;\tsigned:0;\n";

#define FMT(name, id)                                                                  \
	"name: " name "\nID: " #id "\nformat:\n"                                       \
	"\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"         \
	"\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n"         \
	"\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n" \
	"\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n\n"                   \
	"\tfield:unsigned int vec;\toffset:8;\tsize:4;\tsigned:0;\n\n"                 \
	"print fmt: \"vec=%u\", REC->vec\n"

enum { ID_RAISE = 21, ID_ENTRY = 22, ID_EXIT = 23 };

#define PAGE 4096

struct pagebuf {
	unsigned char data[PAGE];
	size_t len;		/* bytes of event data after the 16-byte header */
	uint64_t last;		/* timestamp of the last event */
};

static void page_init(struct pagebuf *p, uint64_t ts)
{
	memset(p, 0, sizeof(*p));
	memcpy(p->data, &ts, 8);
	p->last = ts;
}

/* page_add - one 12-byte softirq record: header (delta << 5 | len/4), then fields */
static void page_add(struct pagebuf *p, uint64_t ts, uint16_t id, uint32_t vec)
{
	uint32_t hdr = (uint32_t)((ts - p->last) << 5) | 3;
	unsigned char *d = p->data + 16 + p->len;
	int32_t pid = 1;

	memcpy(d, &hdr, 4);
	memcpy(d + 4, &id, 2);
	memcpy(d + 8, &pid, 4);
	memcpy(d + 12, &vec, 4);
	p->len += 16;
	p->last = ts;
	memcpy(p->data + 8, &p->len, 8);
}

static void page_mark_missed(struct pagebuf *p)
{
	uint64_t commit = p->len | (1ULL << 31);	/* RB_MISSED_EVENTS */

	memcpy(p->data + 8, &commit, 8);
}

/* A page source with up to 4 queued pages per CPU and a settable horizon. */
struct test_src {
	struct pagebuf *q[2][4];
	int head[2], tail[2];
	uint64_t horizon[2];
	int puts;
};

static void *tget(void *ctx, int cpu)
{
	struct test_src *s = ctx;

	if (s->head[cpu] == s->tail[cpu])
		return NULL;
	return s->q[cpu][s->head[cpu]++]->data;
}

static void tput(void *ctx, int cpu, void *page)
{
	struct test_src *s = ctx;

	(void)cpu;
	(void)page;
	s->puts++;
}

static uint64_t thorizon(void *ctx, int cpu)
{
	return ((struct test_src *)ctx)->horizon[cpu];
}

struct fixture {
	struct tep_handle *tep;
	struct decoder dec;
	struct result res;
	struct test_src src;
	struct merger mg;
};

static int setup(void **state)
{
	char *formats[EV_NR] = { 0 };
	struct fixture *f = calloc(1, sizeof(*f));
	char err[256];

	formats[EV_SOFTIRQ_RAISE] = strdup(FMT("softirq_raise", 21));
	formats[EV_SOFTIRQ_ENTRY] = strdup(FMT("softirq_entry", 22));
	formats[EV_SOFTIRQ_EXIT] = strdup(FMT("softirq_exit", 23));
	f->tep = decoder_new_tep(header_page, strlen(header_page), formats, NULL, NULL, err);
	free(formats[0]);
	free(formats[1]);
	free(formats[2]);
	if (!f->tep || decoder_init(&f->dec, f->tep, err) ||
	    result_init(&f->res, 2, 0, 0, NULL, NULL) ||
	    merger_init(&f->mg, 2, &f->dec, &f->res,
			&(struct page_src){ .get = tget, .put = tput, .horizon = thorizon,
					    .ctx = &f->src, .size = PAGE, .ts_hi = UINT64_MAX }))
		return -1;
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fixture *f = *state;

	merger_free(&f->mg);
	result_free(&f->res);
	decoder_free(&f->dec);
	tep_free(f->tep);
	free(f);
	return 0;
}

/* seen - events the matcher has been given so far */
static uint64_t seen(struct fixture *f)
{
	uint64_t n = 0;
	int k;

	for (k = 0; k < EV_NR; k++)
		n += f->res.m.n.events[k];
	return n;
}

static void queue(struct fixture *f, int cpu, struct pagebuf *p)
{
	f->src.q[cpu][f->src.tail[cpu]++] = p;
}

static void test_order_across_cpus(void **state)
{
	struct fixture *f = *state;
	struct pagebuf p0, p1;
	struct sirq_group *g;

	/* CPU 0 raises at 1000 and runs at 1300; CPU 1 interleaves */
	page_init(&p0, 1000);
	page_add(&p0, 1000, ID_RAISE, SIRQ_TIMER);
	page_add(&p0, 1300, ID_ENTRY, SIRQ_TIMER);
	page_add(&p0, 1500, ID_EXIT, SIRQ_TIMER);
	page_init(&p1, 1100);
	page_add(&p1, 1100, ID_RAISE, SIRQ_NET_RX);
	page_add(&p1, 1300, ID_ENTRY, SIRQ_NET_RX);	/* same time as CPU 0: a tie */
	page_add(&p1, 1400, ID_EXIT, SIRQ_NET_RX);
	queue(f, 0, &p0);
	queue(f, 1, &p1);
	f->src.horizon[0] = f->src.horizon[1] = UINT64_MAX;
	merger_run(&f->mg);
	assert_int_equal(seen(f), 6);
	assert_int_equal(f->res.m.n.late_events, 0);
	g = sirq_group_get(&f->res.m, 0, SIRQ_TIMER);
	assert_int_equal(g->delay.min, 300);
	assert_int_equal(g->runtime.min, 200);
	g = sirq_group_get(&f->res.m, 1, SIRQ_NET_RX);
	assert_int_equal(g->delay.min, 200);
	assert_int_equal(f->mg.last_ts, 1500);
}

static void test_horizon_holds_back(void **state)
{
	struct fixture *f = *state;
	struct pagebuf p0, p1;

	page_init(&p0, 1000);
	page_add(&p0, 1000, ID_RAISE, SIRQ_TIMER);
	page_add(&p0, 2000, ID_ENTRY, SIRQ_TIMER);
	page_add(&p0, 3000, ID_EXIT, SIRQ_TIMER);
	queue(f, 0, &p0);
	/* CPU 1 has nothing queued and its reader vouches only for times before 1500 */
	f->src.horizon[0] = UINT64_MAX;
	f->src.horizon[1] = 1500;
	merger_run(&f->mg);
	assert_int_equal(seen(f), 1);
	/* CPU 1's late page arrives: its 1800 event must come before CPU 0's 2000 */
	page_init(&p1, 1800);
	page_add(&p1, 1800, ID_RAISE, SIRQ_SCHED);
	queue(f, 1, &p1);
	f->src.horizon[1] = 2500;
	merger_run(&f->mg);
	assert_int_equal(seen(f), 3);
	assert_int_equal(f->res.m.n.late_events, 0);
	f->src.horizon[1] = UINT64_MAX;
	merger_run(&f->mg);
	assert_int_equal(seen(f), 4);
	assert_int_equal(f->res.m.n.late_events, 0);
}

static void test_missed_marker(void **state)
{
	struct fixture *f = *state;
	struct pagebuf a, b;

	page_init(&a, 100);
	page_add(&a, 100, ID_RAISE, SIRQ_BLOCK);
	page_init(&b, 900);
	page_add(&b, 900, ID_ENTRY, SIRQ_BLOCK);
	page_mark_missed(&b);
	queue(f, 0, &a);
	queue(f, 0, &b);
	f->src.horizon[0] = f->src.horizon[1] = UINT64_MAX;
	merger_run(&f->mg);
	/* events were lost between the pages: the raise is not paired across the gap */
	assert_int_equal(f->res.m.n.missed_unknown, 1);
	assert_int_equal(f->res.loss[0].missed_in_band, 1);
	assert_int_equal(f->res.m.n.sirq_entry_no_raise, 1);
	result_finish(&f->res);
	assert_true(f->res.lossy);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_order_across_cpus, setup, teardown),
		cmocka_unit_test_setup_teardown(test_horizon_holds_back, setup, teardown),
		cmocka_unit_test_setup_teardown(test_missed_marker, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
