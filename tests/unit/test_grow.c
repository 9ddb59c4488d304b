// SPDX-License-Identifier: GPL-2.0
/*
 * test_grow.c - the one growth helper (grow.h): room as asked, the capacity doubling,
 * the new part zeroed, nothing touched when the size would overflow.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "grow.h"
#include "common.h"

static void test_grow(void **state __unused)
{
	struct { uint64_t a, b; } *p = NULL;
	size_t cap = 0, i;

	assert_int_equal(GROW(p, cap, 1), 0);
	assert_int_equal(cap, GROW_MIN);
	for (i = 0; i < cap; i++)
		assert_true(!p[i].a && !p[i].b);
	p[0].a = 7;
	assert_int_equal(GROW(p, cap, 5), 0);		/* room already */
	assert_int_equal(cap, GROW_MIN);
	assert_int_equal(GROW(p, cap, 100), 0);	/* doubled until it holds 100 */
	assert_int_equal(cap, 128);
	assert_int_equal(p[0].a, 7);
	for (i = GROW_MIN; i < cap; i++)
		assert_true(!p[i].a && !p[i].b);
	/* a size that overflows is refused, the array untouched */
	assert_int_equal(GROW(p, cap, SIZE_MAX / 2), -ENOMEM);
	assert_int_equal(cap, 128);
	assert_int_equal(p[0].a, 7);
	free(p);
}

static void test_grow_array(void **state __unused)
{
	int *p = NULL, *q;
	size_t n;

	for (n = 0; n < 100; n++) {
		q = grow_array(p, n, sizeof(*p));
		assert_non_null(q);
		p = q;
		assert_int_equal(p[n], 0);	/* the new element is zeroed */
		p[n] = (int)n + 1;
	}
	for (n = 0; n < 100; n++)
		assert_int_equal(p[n], (int)n + 1);
	free(p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_grow),
		cmocka_unit_test(test_grow_array),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
