#!/bin/sh
# t-history-fleet.sh - five hosts, each with its own store of fourteen kernels; the tty
# delivery p99 of three of them gets worse at 6.16. The stores merge into one (again:
# nothing new), and the fleet view says kernel 6.16 is worse on those three of five
# hosts and no different on the other two, each host judged against its own history.
# lane: files (no machine state: the runner runs it beside the other tests)
. tests/integration/lib.sh

command -v python3 >/dev/null || skip "needs python3"
mktemp_dir T
tar xzf tests/fixtures/run-a.tar.gz -C "$T" && tar xzf tests/fixtures/run-b.tar.gz -C "$T" ||
	fail "cannot unpack the fixtures"
for h in lab1 lab2 lab3 lab4 lab5; do
	case $h in lab4|lab5) at=99 ;; *) at=6 ;; esac
	MAKE_SERIES_HOST=$h MAKE_SERIES_KERNELS=14 python3 tests/integration/make-series.py \
		"$T/runA" "$T/runB" \
		"$T/$h" $at 2.5 tty baseline delivery >/dev/null || fail "make-series.py $h"
	$DB history add --store "$T/$h.db" "$T/$h"/run* 2>"$T/add.log" || fail "add $h: $(cat "$T/add.log")"
done
$DB history merge --store "$T/fleet.db" "$T"/lab?.db 2>"$T/merge.log" || fail "merge: $(cat "$T/merge.log")"
[ "$(grep -c '14 runs added, 0 already there' "$T/merge.log")" -eq 5 ] ||
	fail "merge did not add 14 runs per store: $(cat "$T/merge.log")"
$DB history merge --store "$T/fleet.db" "$T/lab2.db" 2>"$T/merge2.log" || fail "merging again"
grep -q '0 runs added, 14 already there' "$T/merge2.log" || fail "merging again: $(cat "$T/merge2.log")"
$DB history merge --store "$T/fleet.db" "$T/fleet.db" 2>"$T/self.log" && fail "merged a store into itself"

sel="--min-tail 5 --workload tty --config baseline --metric workload:delivery:p99"
# shellcheck disable=SC2086
$DB history --store "$T/fleet.db" $sel --fleet --kernel 6.16 >"$T/fleet" 2>&1 || fail "fleet: $(cat "$T/fleet")"
grep -q '^kernel 6.16: worse on 3 of 5 hosts (lab1, lab2, lab3), no change on 2$' "$T/fleet" ||
	fail "fleet view: $(cat "$T/fleet")"
[ "$(grep -c '^  lab[123]: worse ' "$T/fleet")" -eq 3 ] || fail "the three changes are not listed"
# every other kernel: no host got worse
# shellcheck disable=SC2086
$DB history --store "$T/fleet.db" $sel --fleet >"$T/all" 2>&1 || fail "fleet (all kernels)"
[ "$(grep -c 'worse on' "$T/all")" -eq 1 ] || fail "worse at other kernels too: $(cat "$T/all")"
# one host's own view, from the merged store
# shellcheck disable=SC2086
$DB history --store "$T/fleet.db" $sel --host lab4 --regressions >/dev/null 2>&1 ||
	fail "lab4 has no regression but --regressions said so"
# shellcheck disable=SC2086
$DB history --store "$T/fleet.db" $sel --host lab1 --regressions >/dev/null 2>&1
[ $? -eq 1 ] || fail "lab1 regressed but --regressions did not exit 1"
exit 0
