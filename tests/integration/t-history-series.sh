#!/bin/sh
# t-history-series.sh - fourteen kernels made from the two real fixture runs (kernel
# strings rewritten, repetitions redrawn), the tty delivery p99 doubled from the seventh
# (6.16) on: history must find that change point and no other, order the kernels by
# release, draw the plots, and --regressions must exit 1; ten kernels are too few runs
# for the level a host's eight series are each tested at, and history says so. Needs no
# root: it only reads and writes files.
# lane: files (no machine state: the runner runs it beside the other tests)
. tests/integration/lib.sh

command -v python3 >/dev/null || skip "needs python3"
mktemp_dir T
tar xzf tests/fixtures/run-a.tar.gz -C "$T" && tar xzf tests/fixtures/run-b.tar.gz -C "$T" ||
	fail "cannot unpack the fixtures"
MAKE_SERIES_KERNELS=14 python3 tests/integration/make-series.py "$T/runA" "$T/runB" \
	"$T/step" 6 2 tty baseline delivery >"$T/kernels" || fail "make-series.py"
MAKE_SERIES_KERNELS=14 python3 tests/integration/make-series.py "$T/runA" "$T/runB" \
	"$T/flat" 99 1 tty baseline delivery >/dev/null || fail "make-series.py"
python3 tests/integration/make-series.py "$T/runA" "$T/runB" "$T/ten" 6 2 tty baseline \
	delivery >/dev/null || fail "make-series.py"
S="$T/step.db"

# imported out of order: history sorts by release, not by import
for i in 3 9 0 12 5 1 11 7 2 13 8 4 10 6; do
	$DB history add --store "$S" "$T/step/run$i" 2>>"$T/add.log" || fail "history add run$i: $(cat "$T/add.log")"
done
# adding a run again changes nothing
rows() { python3 -c "import sqlite3,sys; print(sqlite3.connect(sys.argv[1]).execute('select (select count(*) from run),(select count(*) from samples),(select count(*) from hist)').fetchone())" "$1"; }
before=$(rows "$S")
$DB history add --store "$S" "$T/step/run4" "$T/step/run6" 2>"$T/again.log" || fail "re-adding failed"
grep -q "already in" "$T/again.log" || fail "re-adding did not say 'already in': $(cat "$T/again.log")"
[ "$(rows "$S")" = "$before" ] || fail "re-adding changed the store: $before -> $(rows "$S")"

# min-tail 5: one-second repetitions have 500 tty samples, enough for a p99 with 5 beyond
$DB history --store "$S" --min-tail 5 -o "$T/plots" >"$T/table" 2>"$T/show.log" ||
	fail "history failed: $(cat "$T/show.log")"
n=$(grep -c 'change point:' "$T/table")
[ "$n" -eq 1 ] || { cat "$T/table"; fail "expected exactly 1 change point, got $n"; }
grep -B2 'change point:' "$T/table" | grep -q '^  6.16-rc3 ' ||
	{ cat "$T/table"; fail "the change point is not right after 6.16-rc3"; }
grep -A1 'change point:' "$T/table" | tail -n 1 | grep -q '^  6.16 ' ||
	fail "the change point is not at 6.16"
grep 'change point:' "$T/table" | grep -q 'rose .* between 6.16-rc3 and 6.16' ||
	fail "the change point does not say it rose between 6.16-rc3 and 6.16"
# it is on the series that was shifted: the title two blocks up names it
awk '/^vm /{t=$0} /change point:/{print t}' "$T/table" |
	grep -q 'tty/baseline  workload:delivery:p99' || fail "the change point is on the wrong series"
# kernels in release order in every series
python3 - "$T/table" "$T/kernels" <<'EOF' || fail "kernels not in release order"
import sys
want = open(sys.argv[2]).read().split()
blocks, cur = [], None
for line in open(sys.argv[1]):
    if line.startswith("vm "):
        cur = []
        blocks.append(cur)
    elif cur is not None and line.startswith("  ") and line.split()[0][0].isdigit():
        cur.append(line.split()[0])
assert blocks and all(b == want for b in blocks), (want, blocks[:1])
EOF
ls "$T"/plots/history-fixture-tty-baseline-workload_delivery_p99.png \
   "$T"/plots/history-fixture-tty-baseline-workload_delivery_p99.svg >/dev/null ||
	fail "the plot of the shifted series is missing"
[ "$(ls "$T"/plots/*.png | wc -l)" -ge 6 ] || fail "too few plots"

# CI: exit 1 when the newest kernel is past a change point for the worse, 0 otherwise
$DB history --store "$S" --min-tail 5 --regressions >"$T/reg" 2>&1
rc=$?
[ $rc -eq 1 ] || { cat "$T/reg"; fail "--regressions exited $rc on a regressed history, want 1"; }
grep -q '^WORSE  vm tty/baseline workload:delivery:p99' "$T/reg" || fail "--regressions did not list it"
grep -q 'the newest kernel, 7.0, is past it' "$T/reg" || fail "--regressions: newest kernel not named"
# ten kernels: a permutation test of ten runs cannot reach 0.05 / 8 (the host's eight
# series); history tests nothing and says how many runs it would take
T10="$T/ten.db"
$DB history add --store "$T10" "$T"/ten/run* 2>/dev/null || fail "history add (ten)"
$DB history --store "$T10" --min-tail 5 >"$T/ten.out" 2>&1 || fail "history of ten kernels"
grep -q 'not tested: too few runs (10; need 1[1-9] for the level 0.0[0-9]*)' "$T/ten.out" ||
	{ cat "$T/ten.out"; fail "ten kernels: not 'too few runs (10; need 11 or more)'"; }
grep -q 'change point:' "$T/ten.out" && fail "ten kernels: a change point, where none can be tested"
F="$T/flat.db"
$DB history add --store "$F" "$T"/flat/run* 2>/dev/null || fail "history add (flat)"
$DB history --store "$F" --min-tail 5 --regressions >"$T/reg2" 2>&1
rc=$?
[ $rc -eq 0 ] || { cat "$T/reg2"; fail "--regressions exited $rc on a flat history, want 0"; }

# bad input: clear messages and exit 2, never a crash
expect_error() {	# WHAT PATTERN COMMAND...
	_what=$1 _pat=$2
	shift 2
	"$@" >"$T/err.out" 2>&1
	_rc=$?
	[ $_rc -eq 2 ] || fail "$_what: exit $_rc, want 2: $(cat "$T/err.out")"
	grep -q "$_pat" "$T/err.out" || fail "$_what: no '$_pat' in: $(cat "$T/err.out")"
}
expect_error "not a run" "neither a run directory" $DB history add --store "$S" "$T/plots"
expect_error "text file as store" "not a deferbench store" $DB history --store "$T/kernels"
python3 -c "import sqlite3,sys; c=sqlite3.connect(sys.argv[1]); c.execute('create table t(x)'); c.commit()" "$T/foreign.db"
expect_error "foreign database" "another application" $DB history add --store "$T/foreign.db" "$T/step/run0"
cp "$S" "$T/future.db"
python3 -c "import sqlite3,sys; c=sqlite3.connect(sys.argv[1]); c.execute('pragma user_version = 99'); c.commit()" "$T/future.db"
expect_error "future schema" "newer than this deferbench" $DB history --store "$T/future.db"
expect_error "unknown option" "unknown option" $DB history --store "$S" --bogus
expect_error "missing store" "No such file" $DB history --store "$T/none.db"
expect_error "store is a directory" "is a directory" $DB history add --store "$T" "$T/step/run0"
exit 0
