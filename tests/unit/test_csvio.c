// SPDX-License-Identifier: GPL-2.0
/*
 * test_csvio.c - CSV written by csvw (libcsv's writer) reads back unchanged through
 * csvr (libcsv's parser), whatever the fields hold.
 */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "csvread.h"
#include "csvw.h"
#include "fixture.h"
#include "msg.h"

static const char *const nasty[] = {
	"plain", "with,comma", "with \"quotes\"", "two\nlines", "", " padded ",
	"trailing\\", "unicode \xc2\xb5s",
};
#define NNASTY (sizeof(nasty) / sizeof(nasty[0]))

struct seen {
	size_t rows;
	int bad;
};

enum { C_TEXT, C_N, C_X };
static const char *const cols[] = { "text", "n", "x", NULL };

static int row_cb(const struct csvr *r, void *ctx)
{
	struct seen *s = ctx;
	uint64_t n;
	double x;

	if (csvr_u64(r, C_N, &n) || csvr_double(r, C_X, &x))
		return -EINVAL;
	if (n != s->rows || strcmp(csvr_str(r, C_TEXT), nasty[s->rows]) ||
	    fabs(x - (double)n / 4) > 1e-9)
		s->bad++;
	s->rows++;
	return 0;
}

static void test_roundtrip(void **state)
{
	char *d = fixture_dir(), path[4096], err[ERRBUF_LEN];
	struct seen s = { 0 };
	struct csvw w;
	size_t i;

	(void)state;
	snprintf(path, sizeof(path), "%s", fixture_path(d, "t.csv"));
	assert_int_equal(csvw_open(&w, path), 0);
	/* columns in another order than the reader asks for */
	csvw_header(&w, (const char *const[]){ "x", "extra", "text", "n", NULL });
	csvw_end(&w);
	for (i = 0; i < NNASTY; i++) {
		csvw_dbl(&w, (double)i / 4);
		csvw_str(&w, "ignored");
		csvw_str(&w, nasty[i]);
		csvw_u64(&w, i);
		csvw_end(&w);
	}
	assert_int_equal(csvw_close(&w), 0);
	assert_int_equal(csvr_read(path, cols, row_cb, &s, err), 0);
	assert_int_equal(s.rows, NNASTY);
	assert_int_equal(s.bad, 0);
	fixture_free(d);
}

static int fail_on_second(const struct csvr *r, void *ctx)
{
	(void)ctx;
	return r->row == 3 ? csvr_fail(r, "stop here") : 0;
}

static void test_callback_error(void **state)
{
	char *d = fixture_dir(), err[ERRBUF_LEN];

	(void)state;
	assert_int_equal(csvr_read(fixture_write(d, "e.csv", "text,n,x\na,1,2\nb,2,3\nc,3,4\n"),
				   cols, fail_on_second, NULL, err), -EINVAL);
	assert_non_null(strstr(err, "e.csv: row 3: stop here"));
	fixture_free(d);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_roundtrip),
		cmocka_unit_test(test_callback_error),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
