#!/bin/sh
# t-force-dataloss.sh - issue 10, items 1 and 2: --force replaces deferbench's own files
# and nothing else; analyze never deletes the capture it reads.
. tests/integration/lib.sh
mktemp_dir T

# 2. analyze CAP -o CAP --force (no root needed): refused, raw/ intact
tar xzf tests/fixtures/capture-tty.tar.gz -C "$T" || fail "cannot unpack the fixture"
# rawsum - a checksum of every file of the raw capture
rawsum() {
	(cd "$T/cap/raw" && find . -type f | sort | xargs cat | cksum)
}
sum=$(rawsum)
for out in "$T/cap" "$T/cap/" "$T/cap/../cap" "$T/cap/raw" "$T/capl"; do
	[ "$out" = "$T/capl" ] && ln -s cap "$T/capl"
	if $DB analyze "$T/cap" -o "$out" --force > "$T/out.txt" 2>&1; then
		fail "analyze -o $out --force (its own capture) succeeded"
	fi
	grep -q "which this command reads" "$T/out.txt" || { cat "$T/out.txt"; fail "no reason given for -o $out"; }
	[ "$(rawsum)" = "$sum" ] || fail "analyze -o $out deleted or changed its input"
done
ls "$T" | grep -q partial && fail "a refused analyze left a staging directory"
# beside the capture, and a second time with --force, is fine
$DB analyze "$T/cap" -o "$T/cap/again" > /dev/null 2>&1 || fail "analyze -o CAP/again failed"
$DB analyze "$T/cap" -o "$T/cap/again" --force > /dev/null 2>&1 || fail "analyze --force over its own results failed"
assert_file "$T/cap/again/summary.json"
[ "$(rawsum)" = "$sum" ] || fail "analyze changed its input"

# 1. a directory that merely holds a summary.json is not results
mkdir -p "$T/u/sub" "$T/u2"
echo x > "$T/u/thesis.tex"
echo x > "$T/u/sub/data.bin"
echo '{}' > "$T/u/summary.json"
if $DB analyze "$T/cap" -o "$T/u" --force > "$T/out.txt" 2>&1; then
	fail "analyze --force replaced a directory holding other files"
fi
grep -q "did not write" "$T/out.txt" || { cat "$T/out.txt"; fail "no reason given"; }
[ -f "$T/u/thesis.tex" ] && [ -f "$T/u/sub/data.bin" ] || fail "--force deleted unrelated files"

[ "$(id -u)" -eq 0 ] || { echo "   (record part skipped: needs root)"; exit 0; }
need_root_tracefs
if $DB record -d 1s -o "$T/u" --force > "$T/out.txt" 2>&1; then
	fail "record --force replaced a directory holding other files"
fi
# the user's summary.json is no result of deferbench's either (no manifest lists it)
grep -q "thesis.tex\|sub\|summary.json" "$T/out.txt" ||
	{ cat "$T/out.txt"; fail "the message does not name the foreign file"; }
[ -f "$T/u/thesis.tex" ] && [ -f "$T/u/sub/data.bin" ] && [ -f "$T/u/summary.json" ] ||
	fail "record --force deleted unrelated files"
# deferbench's own results are replaced
$DB record -d 200ms --raw -o "$T/u2" > /dev/null 2>&1 || fail "record -o u2 failed"
$DB record -d 200ms -o "$T/u2" --force > /dev/null 2>&1 || fail "record --force over results failed"
[ -e "$T/u2/raw" ] && fail "record --force kept the old raw/ of the results it replaced"
assert_file "$T/u2/summary.json"
ls "$T" | grep -q 'partial\|\.old-' && fail "a staging or old directory was left"
no_leftover_instances
exit 0
