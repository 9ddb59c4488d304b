#!/bin/sh
# run.sh SECONDS FUZZER... - run each libFuzzer target for SECONDS on a copy of its
# seed corpus (tests/fuzz/corpus/<name without fuzz_>/); fail on any crash, leak,
# sanitizer report or timeout. Findings are kept in build-fuzz/findings/.
# FUZZ_RUNS=N runs N inputs from a fixed seed instead (make test's smoke run): the same
# inputs every time, so that a failure in CI is one anybody can reproduce.
cd "$(dirname "$0")/../.." || exit 1
secs=$1
shift
fail=0
mkdir -p build-fuzz/findings
for f in "$@"; do
	name=${f##*/fuzz_}
	work=build-fuzz/corpus-$name
	rm -rf "$work"
	mkdir -p "$work"
	cp tests/fuzz/corpus/"$name"/* "$work"/
	if [ -n "${FUZZ_RUNS:-}" ]; then
		echo "== fuzz: $name, $FUZZ_RUNS inputs from seed 1"
		limit="-runs=$FUZZ_RUNS -seed=1"
	else
		echo "== fuzz: $name for ${secs}s"
		limit="-max_total_time=$secs"
	fi
	if ! "$f" $limit -max_len=20000 -timeout=10 -rss_limit_mb=1024 \
		-print_final_stats=1 -artifact_prefix=build-fuzz/findings/"$name"- \
		"$work" > "build-fuzz/$name.log" 2>&1; then
		tail -40 "build-fuzz/$name.log" >&2
		echo "FAILED: fuzz $name (reproducer in build-fuzz/findings/)" >&2
		fail=1
	else
		grep -E "stat::number_of_executed_units|cov:" "build-fuzz/$name.log" | tail -2
	fi
done
exit $fail
