#!/bin/sh
# t-run-dry.sh - 'deferbench run --dry-run' plans, shows every knob change and changes
# nothing; --quick shortens; bad scenarios are refused with file and line. The shipped
# scenarios are planned too once every workload they name is in the build.
. tests/integration/lib.sh
. tests/integration/lib-knobs.sh
mktemp_dir T
snapshot $T/before
cat > $T/s.ini <<EOS
[global]
repetitions = 3
[load hog]
type = hog
[workload tty]
type = tty
[workload block]
type = block
configs = base, nice
[config base]
[config cpu0]
wq.cpumask = 1
[config nice]
wq.writeback.nice = 19
load = hog
EOS
$DB run --dry-run $T/s.ini > $T/out 2>$T/err || fail "dry run: $(cat $T/err)"
grep -q '^scenario .*: design cells, 15 cells (3 repetitions, order interleaved)' $T/out ||
	fail "expected 15 cells: $(head -1 $T/out)"
grep -q 'wq.cpumask .*cpumask: .* -> 1' $T/out || fail "the unbound cpumask change is not shown"
grep -q 'wq.writeback.nice .* -> 19' $T/out || fail "the nice change is not shown"
grep -q 'tty--cpu0--r2' $T/out || fail "no cell list"
$DB run --dry-run --quick $T/s.ini > $T/q 2>&1 || fail "--quick: $(cat $T/q)"
grep -q ': design cells, 5 cells (1 repetition' $T/q || fail "--quick should plan 5 cells: $(head -1 $T/q)"

printf '[global]\nduration = soon\n[workload t]\ntype = tty\n' > $T/bad.ini
expect_message $T/bad "$T/bad.ini:2: [global] duration: 'soon' is not a duration" \
	$DB run --dry-run $T/bad.ini
printf '[workload t]\ntype = tty\nrate = 0\n' > $T/opt.ini
expect_message $T/opt "$T/opt.ini:3: [workload t] rate" $DB run --dry-run $T/opt.ini

if $DB load --list 2>/dev/null | grep -q '^net '; then
	$DB run --dry-run bench/scenarios/default.ini > $T/d 2>&1 || fail "default.ini: $(cat $T/d)"
	grep -q ': design alternate, 8 segments of 20 blocks, about' $T/d ||
		fail "default.ini should plan 8 alternating segments: $(head -1 $T/d)"
	grep -q 'net--baseline--a1 .*4 phases' $T/d ||
		fail "net's napi configurations should alternate in one segment: $(grep net-- $T/d)"
	$DB run --dry-run --design cells bench/scenarios/default.ini > $T/d 2>&1 ||
		fail "default.ini as cells: $(cat $T/d)"
	grep -q ': design cells, 72 cells (3 repetitions' $T/d ||
		fail "default.ini as cells should plan 72 cells: $(head -1 $T/d)"
	# --blocks over the scenario's: the plan's length follows (20 blocks: about 18m)
	$DB run --dry-run --blocks 45 bench/scenarios/default.ini > $T/d 2>&1 ||
		fail "default.ini --blocks 45: $(cat $T/d)"
	grep -q ': design alternate, 8 segments of 45 blocks, about 40m' $T/d ||
		fail "--blocks 45 should plan 8 segments of 45 blocks: $(head -1 $T/d)"
	expect_message $T/bc "--blocks 5 is for the alternating design: this scenario runs as cells" \
		$DB run --dry-run --blocks 5 --design cells bench/scenarios/default.ini
	expect_message $T/bq "--blocks with --quick" \
		$DB run --dry-run --blocks 5 --quick bench/scenarios/default.ini
	expect_message $T/b0 "--blocks: 0 is out of range [1, 200]" \
		$DB run --dry-run --blocks 0 bench/scenarios/default.ini
	$DB run --dry-run bench/scenarios/quick.ini > $T/d 2>&1 || fail "quick.ini: $(cat $T/d)"
	grep -q ': design alternate, 3 segments of 3 blocks, 2 cells (1 repetition' $T/d ||
		fail "quick.ini should plan 3 segments and 2 cells: $(head -1 $T/d)"
else
	echo "   (no net workload in this build: shipped scenarios not planned)"
fi
# a block dir on tmpfs is found by the dry run, and by the run before its first cell
if [ "$(stat -f -c %T /dev/shm 2>/dev/null)" = tmpfs ]; then
	printf '[workload t]\ntype = tty\n[workload b]\ntype = block\ndir = /dev/shm\n' > $T/shm.ini
	expect_message $T/shm "[workload b] under [config default]: block option 'dir': /dev/shm is on tmpfs/ramfs" \
		$DB run --dry-run $T/shm.ini
	expect_message $T/shm2 "/dev/shm is on tmpfs/ramfs" $DB run -o $T/shmrun $T/shm.ini
	[ ! -e $T/shmrun ] || fail "the run with a tmpfs block dir made $T/shmrun: it ran something"
fi

# issue 34: what the run would write outside its directory is checked by --dry-run, and
# before the first cell: a block workload's dir, the results store
sed 's|^type = block$|type = block\ndir = /etc|' $T/s.ini > $T/etc.ini
expect_message $T/be "block option 'dir': /etc is or lies in /etc, a system directory" \
	$DB run --dry-run $T/etc.ini
expect_message $T/se "store: refusing to write into /etc" $DB run --dry-run --store /etc/x.db $T/s.ini
printf '[global]\nstore = /etc/deferbench-x.db\n' | cat - $T/s.ini | grep -v '^\[global\]$' |
	sed '1i [global]' > $T/store.ini
expect_message $T/sk "store: refusing to write into /etc" $DB run --dry-run $T/store.ini
echo "not a store" > $T/text.db
expect_message $T/st "not a deferbench store" $DB run --dry-run --store $T/text.db $T/s.ini
$DB run --dry-run --store $T/new/sub/s.db $T/s.ini > $T/sn 2>&1 || fail "a new store: $(cat $T/sn)"
[ ! -e $T/new ] || fail "--dry-run made the store's directory"
if [ "$(id -u)" -eq 0 ]; then
	# a real run refuses it before the first cell: no run directory, nothing traced
	expect_message $T/sr "not a deferbench store" $DB run -o $T/run --store $T/text.db $T/s.ini
	[ ! -e $T/run ] || fail "a run with a store it cannot use started"
fi
same_as $T/before
echo "   dry runs plan and change nothing"
