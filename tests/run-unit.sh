#!/bin/sh
# run-unit.sh - run every cmocka unit test binary given; fail if any fails.
# Unit tests need neither root nor tracefs.
fail=0
for t in "$@"; do
	echo "== unit: ${t##*/}"
	if ! "$t"; then
		echo "FAILED: ${t##*/}" >&2
		fail=1
	fi
done
[ $fail -eq 0 ] && echo "== unit tests: all passed"
exit $fail
