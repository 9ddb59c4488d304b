#!/bin/sh
# t-analyze-hostile.sh - issue 10, items 3 to 5: damaged captures end with exit status 1
# and a message naming the bad file; never a signal, a sanitizer report or a hang.
# Needs no root. MUTATIONS sets the number of damaged copies (default 300).
# lane: files (no machine state: the runner runs it beside the other tests)
. tests/integration/lib.sh
mktemp_dir T
command -v python3 >/dev/null || skip "needs python3"
tar xzf tests/fixtures/capture-tty.tar.gz -C "$T" || fail "cannot unpack the fixture"

# the repro: cpu0.dat bytes 8..16 (the first commit word) = 0xC7FFFFF0
cp -r "$T/cap" "$T/bad"
printf '\360\377\377\307\000\000\000\000' |
	dd of="$T/bad/raw/cpu0.dat" bs=1 seek=8 conv=notrunc 2>/dev/null
$DB analyze "$T/bad" > "$T/out.txt" 2>&1
rc=$?
[ $rc -eq 1 ] || { cat "$T/out.txt"; fail "analyze of a damaged commit word: exit $rc"; }
grep -q "bad/raw/cpu0.dat: sub-buffer 0 (file offset 8): the commit" "$T/out.txt" ||
	{ cat "$T/out.txt"; fail "no message naming the file and offset"; }

# an endless input where a file belongs does not hang
rm "$T/bad/raw/capture.json"
ln -s /dev/zero "$T/bad/raw/capture.json"
$DB analyze "$T/bad" > "$T/out.txt" 2>&1 && fail "analyze read /dev/zero as capture.json"
grep -q "capture.json is a device, not a regular file" "$T/out.txt" ||
	{ cat "$T/out.txt"; fail "no clear message for /dev/zero"; }

mkdir "$T/work"
python3 tests/integration/mutate-capture.py "$DB" "$T/cap" "$T/work" "${MUTATIONS:-300}" ||
	fail "some damaged captures were not refused cleanly"
exit 0
