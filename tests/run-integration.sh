#!/bin/sh
# run-integration.sh - integration tests that really trace and really load the machine.
#
# They need root and tracefs. Without them every test is reported as SKIPPED (and the
# run still fails if a test that could run failed). Each test is a script in
# tests/integration/ that exits 0 (pass), 77 (skipped, with the reason on stdout) or
# anything else (fail).
cd "$(dirname "$0")/.." || exit 1
. tests/integration/lib.sh

fail=0 pass=0 skip=0
for t in tests/integration/t-*.sh; do
	[ -e "$t" ] || continue
	name=${t##*/}
	echo "== integration: $name"
	start=$(date +%s)
	sh "$t"
	rc=$?
	took=$(( $(date +%s) - start ))
	case $rc in
	0) pass=$((pass + 1)); echo "   PASS $name (${took}s)" ;;
	77) skip=$((skip + 1)); echo "   SKIPPED $name" ;;
	*) fail=$((fail + 1)); echo "   FAIL $name (exit $rc, ${took}s)" >&2 ;;
	esac
done
echo "== integration tests: $pass passed, $fail failed, $skip skipped"
[ $fail -eq 0 ]
