// SPDX-License-Identifier: GPL-2.0
/*
 * test_stacks.c - issue 25: kernel_stack records in synthetic raw captures, joined to
 * their softirq entries and summed per call site; damaged stack records refused; the
 * slowest events; the excerpt record --keep-worst writes and analyze reading it back;
 * the result files and their readers; the flame graph.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>
#include <traceevent/event-parse.h>

#define DEFERBENCH_ALLOW_CAPTURE_INT_H
#include "capture_int.h"
#include "decode.h"
#include "detail.h"
#include "detail_out.h"
#include "fixture.h"
#include "flame.h"
#include "merge.h"
#include "offline.h"
#include "result.h"
#include "result_files.h"
#include "rundir.h"
#include "msg.h"
#include "file.h"

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

/* as Linux 6.18 has it: 8 callers declared, 'size' of them written */
static const char fmt_stack[] =
	"name: kernel_stack\nID: 4\nformat:\n" COMMON
	"\tfield:int size;\toffset:8;\tsize:4;\tsigned:1;\n"
	"\tfield:unsigned long caller[8];\toffset:16;\tsize:64;\tsigned:0;\n\n"
	"print fmt: \"\\t=> %ps\\n\", (void *)REC->caller[0]\n";

enum { ID_STACK = 4, ID_RAISE = 21, ID_ENTRY = 22, ID_EXIT = 23 };

/* the kernel text deferbench names the frames from */
static const char symbols[] =
	"ffffffff81000000 T default_idle\n"
	"ffffffff81001000 T tcp_sendmsg\n"
	"ffffffff81002000 T ip_finish_output2\n"
	"ffffffff81003000 T __dev_queue_xmit\n"
	"ffffffff81004000 T __local_bh_enable_ip\n"
	"ffffffff81005000 t handle_softirqs\n"
	"ffffffff81006000 t trace_event_raw_event_softirq\n"
	"ffffffff81007000 t __irq_exit_rcu\n"
	"ffffffff81008000 T sysvec_apic_timer_interrupt\n"
	"ffffffff81009000 T _raw_spin_unlock_bh\n"
	"ffffffff8100a000 T release_sock\n";

#define A(x) (0xffffffff81000000ULL + (x))
/* innermost first, as the kernel writes them */
static const uint64_t stack_bh[] = { A(0x6010), A(0x5020), A(0x4030), A(0x3040), A(0x2050),
				     A(0x1060) };
static const uint64_t stack_unlock[] = { A(0x6010), A(0x5020), A(0x4030), A(0x9010),
					 A(0xa020), A(0x1060) };
static const uint64_t stack_irq[] = { A(0x6010), A(0x5020), A(0x7030), A(0x8040), A(0x50) };

/* A sub-buffer under construction. */
struct pb {
	unsigned char d[PAGE];
	size_t len;		/* bytes of records after the header */
	uint64_t last;
};

static void pb_init(struct pb *p, uint64_t ts)
{
	memset(p, 0, sizeof(*p));
	p->last = ts;
	memcpy(p->d, &ts, 8);
}

static void pb_commit(struct pb *p)
{
	uint64_t c = p->len;

	memcpy(p->d + 8, &c, 8);
}

/* pb_sirq - a softirq event: 12 bytes of data after the record header */
static void pb_sirq(struct pb *p, uint64_t ts, uint16_t id, uint32_t vec, uint8_t flags,
		    int32_t pid)
{
	uint32_t hdr = (uint32_t)((ts - p->last) << 5) | 3;
	unsigned char *r = p->d + 16 + p->len;

	memcpy(r, &hdr, 4);
	memcpy(r + 4, &id, 2);
	r[6] = flags;
	memcpy(r + 8, &pid, 4);
	memcpy(r + 12, &vec, 4);
	p->len += 16;
	p->last = ts;
	pb_commit(p);
}

/*
 * pb_stack - a kernel_stack record of n frames whose 'size' field says size (a damaged
 * one lies), as long as n frames need: type_len words up to 112 bytes, else a length
 */
static void pb_stack(struct pb *p, uint64_t ts, const uint64_t *f, int32_t n, int32_t size)
{
	uint32_t body = 16 + 8 * (uint32_t)n, hdr, len;
	unsigned char *r = p->d + 16 + p->len;
	uint16_t id = ID_STACK;
	int32_t pid = 7;

	if (body <= 112) {
		hdr = (uint32_t)((ts - p->last) << 5) | (body / 4);
		memcpy(r, &hdr, 4);
		r += 4;
		p->len += 4 + body;
	} else {
		hdr = (uint32_t)((ts - p->last) << 5);
		len = body + 4;
		memcpy(r, &hdr, 4);
		memcpy(r + 4, &len, 4);
		r += 8;
		p->len += 8 + body;
	}
	memset(r, 0, body);
	memcpy(r, &id, 2);
	memcpy(r + 4, &pid, 4);
	memcpy(r + 8, &size, 4);
	memcpy(r + 16, f, 8 * (size_t)n);
	p->last = ts;
	pb_commit(p);
}

/* A page source: a list of pages per CPU, taken in order. */
struct src {
	struct pb *pg[2][8];
	int n[2], next[2];
	int puts;
};

static void *sget(void *ctx, int cpu)
{
	struct src *s = ctx;

	return s->next[cpu] < s->n[cpu] ? s->pg[cpu][s->next[cpu]++]->d : NULL;
}

static void sput(void *ctx, int cpu, void *page)
{
	(void)cpu;
	(void)page;
	((struct src *)ctx)->puts++;
}

static uint64_t shorizon(void *ctx, int cpu)
{
	(void)ctx;
	(void)cpu;
	return UINT64_MAX;
}

struct fx {
	char *formats[EV_NR];
	struct tep_handle *tep;
	struct decoder dec;
	struct capture *c;	/* only its result, formats and comms are used */
	struct src src;
};

static void fx_init(struct fx *f, unsigned int stack_vecs, uint64_t keep_ns)
{
	char err[ERRBUF_LEN];
	struct result *r;

	memset(f, 0, sizeof(*f));
	f->formats[EV_SOFTIRQ_RAISE] = strdup(FMT_SIRQ("softirq_raise", 21));
	f->formats[EV_SOFTIRQ_ENTRY] = strdup(FMT_SIRQ("softirq_entry", 22));
	f->formats[EV_SOFTIRQ_EXIT] = strdup(FMT_SIRQ("softirq_exit", 23));
	f->formats[EV_KERNEL_STACK] = strdup(fmt_stack);
	f->tep = decoder_new_tep(header_page, strlen(header_page), f->formats, NULL, NULL, err);
	assert_non_null(f->tep);
	assert_int_equal(decoder_init(&f->dec, f->tep, err), 0);
	assert_true(f->dec.present[EV_KERNEL_STACK]);
	f->c = calloc(1, sizeof(*f->c));
	assert_non_null(f->c);
	r = &f->c->res;
	assert_int_equal(result_init(r, 2, 0, NSEC_PER_SEC, NULL, NULL), 0);
	r->meta.slowest = 5;
	r->meta.stack_vecs = stack_vecs;
	r->meta.keep_worst_ns = keep_ns;
	r->meta.worst_vecs = keep_ns ? 1u << SIRQ_NET_RX : 0;
	assert_int_equal(result_detail(r), 0);
	assert_int_equal(symtab_parse(&r->syms, strdup(symbols), strlen(symbols)), 0);
	f->c->header = strdup(header_page);
	f->c->hlen = strlen(header_page);
	memcpy(f->c->formats, f->formats, sizeof(f->formats));
}

static void fx_free(struct fx *f)
{
	int k;

	result_free(&f->c->res);
	free(f->c->header);
	for (k = 0; k < EV_NR; k++)
		free(f->formats[k]);
	free(f->c);
	decoder_free(&f->dec);
	tep_free(f->tep);
}

static void add_page(struct fx *f, int cpu, struct pb *p)
{
	f->src.pg[cpu][f->src.n[cpu]++] = p;
}

/* run - merge every page (strict: as analyze does); returns merger.err */
static int run(struct fx *f, bool strict, struct page_src *wrap, struct merge_bad *bad)
{
	struct page_src src = { .get = sget, .put = sput, .horizon = shorizon, .ctx = &f->src,
				.size = PAGE, .ts_lo = 0, .ts_hi = 1ULL << 40, .strict = strict };
	struct merger mg;
	int err;

	if (wrap)
		src = *wrap;
	f->src.next[0] = f->src.next[1] = 0;
	assert_int_equal(merger_init(&mg, 2, &f->dec, &f->c->res, &src), 0);
	merger_run(&mg);
	err = mg.err;
	if (bad)
		*bad = mg.first_bad;
	merger_free(&mg);
	return err;
}

/* one NET_RX run: raised at r (flags, pid), entered at e with a stack, exited at x */
static void net_rx(struct pb *p, uint64_t r, uint64_t e, uint64_t x, uint8_t flags, int pid,
		   const uint64_t *st, int n)
{
	pb_sirq(p, r, ID_RAISE, SIRQ_NET_RX, flags, pid);
	pb_sirq(p, e, ID_ENTRY, SIRQ_NET_RX, 0x10, pid);
	if (st)
		pb_stack(p, e + 10, st, n, n);
	pb_sirq(p, x, ID_EXIT, SIRQ_NET_RX, 0x10, pid);
}

static const struct site_row *site(const struct stack_report *sr, const char *name)
{
	uint32_t i;

	for (i = 0; i < sr->nsite; i++)
		if (!strcmp(sr->site[i].site, name))
			return &sr->site[i];
	return NULL;
}

/* stacks join their entries, name the code that ended the section, add up to the split */
static void test_join_and_sites(void **state)
{
	struct stack_report sr;
	struct pb p;
	struct fx f;
	const struct detail *d;
	const struct sirq_wait *w;
	const struct site_row *s;
	uint64_t sum[WAIT_NR] = { 0 }, total = 0;
	uint32_t i;
	int k;

	(void)state;
	fx_init(&f, 1u << SIRQ_NET_RX, 0);
	match_comm(&f.c->res.m, 42, "db-tcp", 6);
	pb_init(&p, 1000);
	/* raised with BH off by db-tcp, run at its local_bh_enable(): 4 us held back */
	net_rx(&p, 1000, 5000, 7000, 0x80, 42, stack_bh, ARRAY_SIZE(stack_bh));
	/* the same through spin_unlock_bh(): the caller of the unlock is the site */
	net_rx(&p, 8000, 9000, 9500, 0x80, 42, stack_unlock, ARRAY_SIZE(stack_unlock));
	/* raised in a hard irq, run at its exit */
	net_rx(&p, 10000, 12000, 13000, 0x08, 0, stack_irq, ARRAY_SIZE(stack_irq));
	/* a stack with no entry running: not joined */
	pb_stack(&p, 14000, stack_irq, ARRAY_SIZE(stack_irq), ARRAY_SIZE(stack_irq));
	/* an entry without a stack (one lost) */
	net_rx(&p, 15000, 16000, 17000, 0x08, 0, NULL, 0);
	add_page(&f, 0, &p);
	assert_int_equal(run(&f, true, NULL, NULL), 0);
	result_finish(&f.c->res);
	d = f.c->res.m.detail;
	assert_int_equal(d->stack_records, 4);
	assert_int_equal(d->stack_joined, 3);
	assert_int_equal(d->stack_unjoined, 1);
	assert_int_equal(d->stack_entries, 4);
	assert_int_equal(d->nst, 3);
	assert_int_equal(stack_report_build(&f.c->res, &sr), 0);
	s = site(&sr, "__dev_queue_xmit");
	assert_non_null(s);
	assert_int_equal(s->how, HOW_BH_ENABLE);
	assert_int_equal(s->count, 1);
	assert_int_equal(s->wait_ns, 4000);
	assert_int_equal(s->part_ns[WAIT_BH_DISABLED], 4000);
	assert_string_equal(s->path, "__dev_queue_xmit <- ip_finish_output2 <- tcp_sendmsg");
	s = site(&sr, "release_sock");
	assert_non_null(s);
	assert_int_equal(s->how, HOW_BH_ENABLE);
	s = site(&sr, "sysvec_apic_timer_interrupt");
	assert_non_null(s);
	assert_int_equal(s->how, HOW_IRQ_EXIT);
	assert_int_equal(s->runs, 1);
	assert_int_equal(s->run_ns, 1000);
	/* the tracing frame is no part of the folded stack */
	assert_string_equal(sr.view[0].folded, "tcp_sendmsg;ip_finish_output2;__dev_queue_xmit;"
			    "__local_bh_enable_ip;handle_softirqs");
	/* what the stacks hold is the cause split of the entries that had one */
	for (i = 0; i < sr.nsite; i++) {
		total += sr.site[i].wait_ns;
		for (k = 0; k < WAIT_NR; k++)
			sum[k] += sr.site[i].part_ns[k];
	}
	w = f.c->res.m.wait[SIRQ_NET_RX];
	assert_non_null(w);
	assert_int_equal(total + 1000, w->delay_ns);	/* the stackless entry: 1 us */
	assert_int_equal(sum[WAIT_BH_DISABLED], w->cause_ns[WAIT_BH_DISABLED]);
	stack_report_free(&sr);
	fx_free(&f);
}

/* a kernel_stack record is read only after its length is checked */
static void test_damaged_stacks(void **state)
{
	struct merge_bad bad;
	struct pb p;
	struct fx f;
	uint64_t many[40];
	size_t i;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(many); i++)
		many[i] = A(0x1000 + i);
	fx_init(&f, 1u << SIRQ_NET_RX, 0);
	add_page(&f, 0, &p);
	/* 'size' says more frames than the record holds */
	pb_init(&p, 1000);
	pb_sirq(&p, 1000, ID_ENTRY, SIRQ_NET_RX, 0x10, 1);
	pb_stack(&p, 1010, stack_bh, 3, 9);
	assert_int_equal(run(&f, true, NULL, &bad), -EPROTO);
	assert_non_null(strstr(bad.what, "kernel_stack"));
	/* a negative size */
	pb_init(&p, 1000);
	pb_stack(&p, 1010, stack_bh, 3, -1);
	assert_int_equal(run(&f, true, NULL, &bad), -EPROTO);
	/* live, the record is skipped and counted as a loss */
	assert_int_equal(run(&f, false, NULL, &bad), 0);
	assert_true(f.c->res.loss[0].missed_in_band >= 1);
	/* a record shorter than the frames' offset */
	pb_init(&p, 1000);
	{
		uint32_t hdr = 3;	/* 12 bytes */

		memcpy(p.d + 16, &hdr, 4);
		memcpy(p.d + 20, &(uint16_t){ ID_STACK }, 2);
		p.len = 16;
		pb_commit(&p);
	}
	assert_int_equal(run(&f, true, NULL, &bad), -EPROTO);
	assert_non_null(strstr(bad.what, "shorter than its format"));
	/* a deep stack (a length word, past the 8 declared) is read, and cut at the limit */
	pb_init(&p, 1000);
	pb_sirq(&p, 1000, ID_RAISE, SIRQ_NET_RX, 0, 1);
	pb_sirq(&p, 1100, ID_ENTRY, SIRQ_NET_RX, 0x10, 1);
	pb_stack(&p, 1110, many, 40, 40);
	pb_sirq(&p, 1200, ID_EXIT, SIRQ_NET_RX, 0x10, 1);
	assert_int_equal(run(&f, true, NULL, &bad), 0);
	assert_int_equal(f.c->res.m.detail->st[f.c->res.m.detail->nst - 1].depth, 40);
	fx_free(&f);
}

/* the N longest, longest first, the earlier of equals first */
static void test_slowest(void **state)
{
	struct matcher *m;
	struct slow_ev *ev;
	const struct slow_heap *h;
	struct fx f;
	uint64_t ts = 1000;
	int i;

	(void)state;
	fx_init(&f, 0, 0);
	m = &f.c->res.m;
	for (i = 0; i < 40; i++) {
		uint64_t delay = (uint64_t)(i * 37 % 23) * 100 + 100;

		match_softirq_raise(m, i % 2, ts, SIRQ_TIMER, 0x08, 0);
		match_softirq_entry(m, i % 2, ts + delay, SIRQ_TIMER, 0);
		match_softirq_exit(m, i % 2, ts + delay + 50, SIRQ_TIMER, 0);
		ts += 10000;
	}
	matcher_finish(m);
	h = detail_heap(m->detail, SLOW_SOFTIRQ, SIRQ_TIMER, SLOW_DELAY);
	assert_int_equal(h->n, 5);
	ev = detail_slow_sorted(h);
	assert_non_null(ev);
	/* the histogram's max is the first */
	assert_int_equal(ev[0].ns, m->sirq[SIRQ_TIMER]->delay.max > m->sirq[NR_SOFTIRQS +
			 SIRQ_TIMER]->delay.max ? m->sirq[SIRQ_TIMER]->delay.max :
			 m->sirq[NR_SOFTIRQS + SIRQ_TIMER]->delay.max);
	assert_int_equal(ev[0].ns, 2300);
	for (i = 1; i < 5; i++)
		assert_true(ev[i - 1].ns > ev[i].ns ||
			    (ev[i - 1].ns == ev[i].ns && ev[i - 1].ts < ev[i].ts));
	assert_true(ev[0].split);
	assert_int_equal(ev[0].part[WAIT_OTHER] + ev[0].part[WAIT_HARDIRQ], 2300);
	free(ev);
	assert_int_equal(detail_heap(m->detail, SLOW_SOFTIRQ, SIRQ_TIMER, SLOW_RUNTIME)->n, 5);
	/* groups that never ran have none */
	assert_int_equal(detail_heap(m->detail, SLOW_WQ, 7, SLOW_DELAY)->n, 0);
	fx_free(&f);
}

static void test_vecs(void **state)
{
	char err[ERRBUF_LEN], buf[128];
	unsigned int v;

	(void)state;
	assert_int_equal(detail_vecs_parse("NET_RX,block", &v, err), 0);
	assert_int_equal(v, (1u << SIRQ_NET_RX) | (1u << SIRQ_BLOCK));
	assert_string_equal(detail_vecs_format(v, buf, sizeof(buf)), "NET_RX,BLOCK");
	assert_int_equal(detail_vecs_parse("all", &v, err), 0);
	assert_int_equal(v, (1u << NR_SOFTIRQS) - 1);
	assert_int_not_equal(detail_vecs_parse("NET_RX,BOGUS", &v, err), 0);
	assert_non_null(strstr(err, "BOGUS"));
	assert_int_not_equal(detail_vecs_parse(",", &v, err), 0);
}

/*
 * record --keep-worst: the sub-buffers around the worst NET_RX delay make a raw capture
 * of their own, whose longest NET_RX delay analyze finds to be that one
 */
static void test_keep_worst(void **state)
{
	struct pb a, b, c, e, q;
	struct page_src inner = { .get = sget, .put = sput, .horizon = shorizon,
				  .size = PAGE, .ts_lo = 0, .ts_hi = 1ULL << 40 };
	struct page_src wrapped;
	struct record rec = { 0 };
	const struct sirq_data *sd;
	char *dir = fixture_dir(), raw[512], out[600], err[ERRBUF_LEN];
	struct keep *k;
	struct fx f;
	struct stat st;
	size_t i;
	bool found = false;

	(void)state;
	fx_init(&f, 1u << SIRQ_NET_RX, 20000);
	inner.ctx = &f.src;
	k = keep_new(2, PAGE, 20000, &f.c->res.m);
	assert_non_null(k);
	wrapped = keep_page_src(k, &inner);
	/* CPU 0: a short delay, then the worst (400 us), then short ones long after */
	pb_init(&a, 1000000);
	net_rx(&a, 1000000, 1003000, 1004000, 0x08, 0, stack_irq, ARRAY_SIZE(stack_irq));
	pb_init(&b, 2000000);
	net_rx(&b, 2000000, 2400000, 2401000, 0x80, 42, stack_bh, ARRAY_SIZE(stack_bh));
	pb_init(&c, 9000000);
	net_rx(&c, 9000000, 9002000, 9003000, 0x08, 0, stack_irq, ARRAY_SIZE(stack_irq));
	/* CPU 1: one page inside the window, one long after */
	pb_init(&e, 2390000);
	net_rx(&e, 2390000, 2391000, 2392000, 0x08, 0, stack_irq, ARRAY_SIZE(stack_irq));
	pb_init(&q, 8000000);
	net_rx(&q, 8000000, 8001000, 8002000, 0x08, 0, stack_irq, ARRAY_SIZE(stack_irq));
	add_page(&f, 0, &a);
	add_page(&f, 0, &b);
	add_page(&f, 0, &c);
	add_page(&f, 1, &e);
	add_page(&f, 1, &q);
	f.c->res.start_ts = 900000;
	f.c->res.end_ts = 10000000;
	f.c->res.meta.buffer_kb = CAPTURE_DEFAULT_BUFFER_KB;	/* capture.json checks it */
	assert_int_equal(run(&f, false, &wrapped, NULL), 0);
	result_finish(&f.c->res);
	assert_int_equal(f.src.puts, 5);
	assert_int_equal(keep_write(k, f.c, dir), 0);
	keep_free(k);
	/* only the pages of the window: b on CPU 0, e on CPU 1 */
	snprintf(raw, sizeof(raw), "%s/NET_RX/raw", dir);
	snprintf(out, sizeof(out), "%s/cpu0.dat", raw);
	assert_int_equal(stat(out, &st), 0);
	assert_int_equal(st.st_size, PAGE);
	snprintf(out, sizeof(out), "%s/cpu1.dat", raw);
	assert_int_equal(stat(out, &st), 0);
	assert_int_equal(st.st_size, PAGE);
	snprintf(out, sizeof(out), "%s/formats/ftrace/kernel_stack", raw);
	assert_int_equal(stat(out, &st), 0);
	/* analyze reads it, and its longest NET_RX delay is the worst, with its stack */
	snprintf(out, sizeof(out), "%s/analyzed", dir);
	assert_int_equal(mkdir(out, 0755), 0);
	assert_int_equal(offline_analyze(raw, out, false, NULL, err), 0);
	assert_int_equal(record_load(out, &rec, err), 0);
	sd = record_sirq(&rec, "NET_RX", -1);
	assert_non_null(sd);
	assert_int_equal(sd->st[SM_DELAY].max, 400000);
	for (i = 0; i < rec.nslow; i++)
		if (!strcmp(rec.slow[i].name, "NET_RX") && !strcmp(rec.slow[i].metric, "delay") &&
		    rec.slow[i].rank == 1) {
			assert_int_equal(rec.slow[i].ns, 400000);
			assert_int_equal(rec.slow[i].at_ns, 2400000);
			assert_string_equal(rec.slow[i].site, "__dev_queue_xmit");
			assert_string_equal(rec.slow[i].task, "pid 42");
			found = true;
		}
	assert_true(found);
	assert_true(rec.nsites > 0 && rec.nstacks > 0);
	record_free(&rec);
	fx_free(&f);
	fixture_free(dir);
}

/* the files, and a summary.json without the sections still reads */
static void test_files(void **state)
{
	char *dir = fixture_dir(), err[ERRBUF_LEN], *text;
	struct record rec = { 0 };
	struct pb p;
	struct fx f;
	size_t len;

	(void)state;
	fx_init(&f, 1u << SIRQ_NET_RX, 0);
	pb_init(&p, 1000);
	net_rx(&p, 1000, 5000, 7000, 0x80, 42, stack_bh, ARRAY_SIZE(stack_bh));
	net_rx(&p, 10000, 12000, 13000, 0x08, 0, stack_irq, ARRAY_SIZE(stack_irq));
	add_page(&f, 0, &p);
	assert_int_equal(run(&f, true, NULL, NULL), 0);
	f.c->res.start_ts = 1;
	f.c->res.end_ts = 20000;
	result_finish(&f.c->res);
	assert_int_equal(result_write_dir(&f.c->res, dir), 0);
	text = read_whole_file(fixture_path(dir, "stacks.folded"), &len);
	assert_non_null(text);
	assert_non_null(strstr(text, "NET_RX;tcp_sendmsg;ip_finish_output2;__dev_queue_xmit;"
				     "__local_bh_enable_ip;handle_softirqs 4000\n"));
	free(text);
	text = read_whole_file(fixture_path(dir, "slowest.csv"), &len);
	assert_non_null(text);
	assert_non_null(strstr(text, "\"softirq\",\"NET_RX\",\"\",\"\",\"delay\",1,4000,5000,"
				     "0.000005000,0,0,\"pid 42\",0,0,0,0,0,4000,0,0,0,0,0,\"bh_enable\","
				     "\"__dev_queue_xmit\""));
	free(text);
	assert_int_equal(record_load(dir, &rec, err), 0);
	assert_int_equal(rec.nsvec, 1);
	assert_int_equal(rec.svec[0].delay_ns, 6000);
	assert_int_equal(rec.svec[0].stack_delay_ns, 6000);
	assert_int_equal(rec.svec[0].bh_disabled_ns, rec.svec[0].stack_bh_disabled_ns);
	assert_int_equal(rec.nstacks, 2);
	record_free(&rec);
	/* without the sections (an older file): read as before */
	unlink(fixture_path(dir, "stacks.csv"));
	text = read_whole_file(fixture_path(dir, "summary.json"), &len);
	assert_non_null(text);
	{
		char *s = strstr(text, ",\n  \"slowest\"");

		assert_non_null(s);
		strcpy(s, "\n}\n");
		fixture_write(dir, "summary.json", text);
	}
	free(text);
	memset(&rec, 0, sizeof(rec));
	assert_int_equal(record_load(dir, &rec, err), 0);
	assert_int_equal(rec.nslow, 0);
	assert_int_equal(rec.nsites, 0);
	record_free(&rec);
	fx_free(&f);
	fixture_free(dir);
}

static void test_flame(void **state)
{
	static const struct flame_stack st[] = {
		{ "NET_RX;tcp_sendmsg;__dev_queue_xmit;handle_softirqs", 3000 },
		{ "NET_RX;default_idle;sysvec_apic_timer_interrupt;handle_softirqs", 1000 },
		{ "NET_RX;tcp_sendmsg;release_sock;handle_softirqs", 0 },
	};
	char *dir = fixture_dir(), *svg, a[32], b[32];
	const char *path = fixture_path(dir, "f.svg");
	size_t len;

	(void)state;
	assert_int_equal(flame_svg(path, "a <title>", "ns", st, ARRAY_SIZE(st)), 0);
	svg = read_whole_file(path, &len);
	assert_non_null(svg);
	assert_non_null(strstr(svg, "<svg "));
	assert_non_null(strstr(svg, "a &lt;title&gt;"));
	assert_non_null(strstr(svg, "__dev_queue_xmit (3000 ns, 75.00%)"));
	assert_null(strstr(svg, "release_sock"));	/* no weight, no frame */
	free(svg);
	/* a function has one colour wherever it is drawn */
	assert_string_equal(flame_colour("tcp_sendmsg", a, sizeof(a)),
			    flame_colour("tcp_sendmsg", b, sizeof(b)));
	assert_int_equal(flame_svg(path, "none", "ns", &st[2], 1), -ENODATA);
	fixture_free(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_join_and_sites),
		cmocka_unit_test(test_damaged_stacks),
		cmocka_unit_test(test_slowest),
		cmocka_unit_test(test_vecs),
		cmocka_unit_test(test_keep_worst),
		cmocka_unit_test(test_files),
		cmocka_unit_test(test_flame),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
