#!/bin/sh
# run-sanitized.sh BUILD_DIR - the sanitizer step of 'make test'.
#
# Runs, with the AddressSanitizer + UndefinedBehaviorSanitizer build in BUILD_DIR:
# every unit test; damaged captures through analyze (tests/integration/
# t-analyze-hostile.sh, SAN_MUTATIONS cases, default 100); and, as root with tracefs,
# a short record + analyze (t-record-analyze.sh) and a short alternating run read back
# by report, advise and export -o (t-run-alternate-san.sh). Sanitizer reports are written to
# BUILD_DIR/reports/ (from any process, children included); the step fails if any
# test fails or any report was written.
cd "$(dirname "$0")/.." || exit 1
B=${1:-build-san}
R=$(pwd)/$B/reports
rm -rf "$R"
mkdir -p "$R"
export ASAN_OPTIONS="log_path=$R/asan:detect_leaks=1:exitcode=86"
export UBSAN_OPTIONS="log_path=$R/ubsan:print_stacktrace=1:halt_on_error=1"

. tests/machine-lock.sh

fail=0
echo "== sanitize: unit tests ($B)"
tests/run-unit.sh $(ls "$B"/tests/test_* | grep -v '\.d$') > "$B/unit.log" 2>&1 || {
	grep -E "FAILED|Sanitizer|runtime error" "$B/unit.log" | head -20
	fail=1
}
echo "== sanitize: damaged captures through analyze"
DB=$(pwd)/$B/deferbench MUTATIONS=${SAN_MUTATIONS:-100} sh tests/integration/t-analyze-hostile.sh || fail=1
echo "== sanitize: record + analyze"
DB=$(pwd)/$B/deferbench sh tests/integration/t-record-analyze.sh
case $? in
0) ;;
77) echo "   (skipped: needs root and tracefs)" ;;
*) fail=1 ;;
esac
echo "== sanitize: an alternating run + report + advise"
DB=$(pwd)/$B/deferbench sh tests/integration/t-run-alternate-san.sh
case $? in
0) ;;
77) echo "   (skipped: needs root and tracefs)" ;;
*) fail=1 ;;
esac
if [ -n "$(ls "$R")" ]; then
	echo "sanitize: reports in $R:" >&2
	for f in "$R"/*; do
		echo "--- $f" >&2
		head -40 "$f" >&2
	done
	fail=1
fi
if [ $fail -eq 0 ]; then
	echo "== sanitize: no report, every test passed"
else
	echo "== sanitize: FAILED" >&2
fi
exit $fail
