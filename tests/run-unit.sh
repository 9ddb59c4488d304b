#!/bin/sh
# run-unit.sh - run every cmocka unit test binary given; fail if any fails.
# Unit tests need neither root nor tracefs and share no file; UNIT_JOBS=N runs N at
# once, their outputs printed whole, in the order given. One at a time by default:
# run two at a time, test_workload_teardown once still saw a joined thread in
# /proc/self/task (it now waits for it to go); two at a time is yet to be shown steady.
jobs=${UNIT_JOBS:-1}
out=$(mktemp -d /tmp/db-unit.XXXXXX) || exit 1
trap 'rm -rf "$out"' EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

i=0
for t in "$@"; do
	i=$((i + 1))
	printf '%s %s\n' "$i" "$t"
done | xargs -P "$jobs" -L 1 sh -c '"$2" > "$0/$1.log" 2>&1; echo $? > "$0/$1.rc"' "$out"

fail=0
i=0
for t in "$@"; do
	i=$((i + 1))
	echo "== unit: ${t##*/}"
	cat "$out/$i.log" 2>/dev/null
	if [ "$(cat "$out/$i.rc" 2>/dev/null)" != 0 ]; then
		echo "FAILED: ${t##*/}" >&2
		fail=1
	fi
done
[ $fail -eq 0 ] && echo "== unit tests: all passed"
exit $fail
