#!/bin/sh
# run-sanitized.sh [--part files|machine] BUILD_DIR - the sanitizer step of 'make test'.
#
# Runs, with the AddressSanitizer + UndefinedBehaviorSanitizer build in BUILD_DIR:
#   files:   every unit test; damaged captures through analyze (tests/integration/
#            t-analyze-hostile.sh, SAN_MUTATIONS cases, default 100). Files only: make
#            test runs this part in the integration runner's file-only lane, beside the
#            tests of the machine;
#   machine: as root with tracefs, a short record + analyze (t-record-analyze.sh) and a
#            short alternating run read back by report, advise and export -o
#            (t-run-alternate-san.sh), under the machine lock.
# Both parts when none is named ('make sanitize'). Sanitizer reports are written to
# BUILD_DIR/reports-PART/ (from any process, children included); a part fails if any
# of its tests fails or any report was written.
cd "$(dirname "$0")/.." || exit 1
parts="files machine"
if [ "${1:-}" = --part ]; then
	case "${2:-}" in
	files | machine) parts=$2 ;;
	*) echo "run-sanitized.sh: --part takes files or machine, not '${2:-}'" >&2; exit 2 ;;
	esac
	shift 2
fi
B=${1:-build-san}

# san NAME SCRIPT - one test script with the sanitizer build; a skip is said, not failed
san() {
	echo "== sanitize: $1"
	DB=$(pwd)/$B/deferbench sh "$2"
	case $? in
	0) ;;
	77) echo "   (skipped: needs root and tracefs)" ;;
	*) fail=1 ;;
	esac
}

fail=0
for part in $parts; do
	R=$(pwd)/$B/reports-$part
	rm -rf "$R"
	mkdir -p "$R"
	export ASAN_OPTIONS="log_path=$R/asan:detect_leaks=1:exitcode=86"
	export UBSAN_OPTIONS="log_path=$R/ubsan:print_stacktrace=1:halt_on_error=1"
	if [ $part = files ]; then
		echo "== sanitize: unit tests ($B)"
		tests/run-unit.sh $(ls "$B"/tests/test_* | grep -v '\.d$') > "$B/unit.log" 2>&1 || {
			grep -E "FAILED|Sanitizer|runtime error" "$B/unit.log" | head -20
			fail=1
		}
		echo "== sanitize: damaged captures through analyze"
		DB=$(pwd)/$B/deferbench MUTATIONS=${SAN_MUTATIONS:-100} \
			sh tests/integration/t-analyze-hostile.sh || fail=1
	else
		. tests/machine-lock.sh
		san "record + analyze" tests/integration/t-record-analyze.sh
		san "an alternating run + report + advise" tests/integration/t-run-alternate-san.sh
	fi
	if [ -n "$(ls "$R")" ]; then
		echo "sanitize: reports in $R:" >&2
		for f in "$R"/*; do
			echo "--- $f" >&2
			head -40 "$f" >&2
		done
		fail=1
	fi
done
if [ $fail -eq 0 ]; then
	echo "== sanitize ($(echo $parts | sed 's/ / and /')): no report, every test passed"
else
	echo "== sanitize: FAILED" >&2
fi
exit $fail
