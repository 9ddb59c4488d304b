# lib-outsafety.sh - the canaries and checks of t-output-safety.sh (the commands that
# read and write files) and t-output-safety-trace.sh (those that trace). Source after
# lib.sh, with $T made.

# --- canaries: files no command may change, checked after every refusal
: > "$T/canaries"
# canary PATH [TEXT] - a file with known content, remembered with its checksum
canary() {
	mkdir -p "$(dirname "$1")"
	printf '%s\n' "${2:-canary $1}" > "$1"
	echo "$(cksum < "$1") $1" >> "$T/canaries"
}
# canary_keep PATH - remember an existing file (a run's input) as a canary
canary_keep() {
	echo "$(cksum < "$1") $1" >> "$T/canaries"
}
check_canaries() {
	while read -r sum size path; do
		[ -f "$path" ] && [ ! -L "$path" ] || fail "canary $path is gone or replaced ($*)"
		[ "$(cksum < "$path")" = "$sum $size" ] || fail "canary $path changed ($*)"
	done < "$T/canaries"
	[ -z "$(find "$T" -name '*.partial-*' 2>/dev/null)" ] ||
		fail "a staging directory was left: $(find "$T" -name '*.partial-*') ($*)"
}

# refused MESSAGE CMD... - CMD fails (1 or 2, not a signal) saying MESSAGE, in 60 s, and
# every canary is intact
refused() {
	_want=$1
	shift
	timeout 60 "$@" < /dev/null > "$T/out" 2> "$T/err"
	_rc=$?
	[ $_rc -ne 124 ] || fail "hung: $*"
	[ $_rc -ne 0 ] || { cat "$T/err"; fail "succeeded but must be refused: $*"; }
	[ $_rc -lt 128 ] || { cat "$T/err"; fail "killed by a signal ($_rc): $*"; }
	grep -qF -- "$_want" "$T/err" || { cat "$T/err"; fail "'$*' does not say '$_want'"; }
	check_canaries "$*"
}
# works CMD... - CMD exits 0 and every canary is intact
works() {
	timeout 120 "$@" < /dev/null > "$T/out" 2> "$T/err" ||
		{ cat "$T/err"; fail "failed: $*"; }
	check_canaries "$*"
}
COVERED=""
covers() {
	COVERED="$COVERED $1 "
}

# victims - the files and directories every test here aims the outputs at: a file
# root must never write, a directory of the user's files, one of someone else's
victims() {
	canary "$T/victim" "secret: root must never write here"
	canary "$T/foreign/keep.txt" "the user's notes"
	canary "$T/foreign/tables/x.csv" "the user's table"
	canary "$T/foreign/summary.json" '{"mine": true}'
	mkdir "$T/victimdir"
	canary "$T/victimdir/precious" "a directory of someone else's"
}
