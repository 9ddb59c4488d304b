#!/bin/sh
# check-names.sh - every source file exports only names its file name announces, as
# libtracefs' tracefs-instance.c exports tracefs_instance_* and git's strbuf.c
# strbuf_*: a reader who meets a name knows which file holds it.
#
#   tests/check-names.sh BUILD    (make check-names; the objects must be built)
#
# NAME.c announces the names that begin with NAME, or whose first word (up to the
# first '_') begins NAME's first word, in the singular or the plural (knobs_sys.c:
# knob_check, runner.c: run_scenario; scn and wl stand for scenario and workload, hs
# and hstore for history (its store), jr for jsonread);
# cmd_NAME.c, a command, announces cmd_NAME, cli_NAME and NAME_*.
# The files that still export other names are listed in tests/check-names.known, the
# debt left: a file missing from it must pass, and one that passes must leave it (so
# that the list only shrinks), as git's t0450 keeps its known mismatches.
build=${1:-build}
known=tests/check-names.known
fail=0
tmp=$(mktemp)
trap 'rm -f "$tmp"' EXIT

# the short words the tree writes for a file's long one
long() {
	case "$1" in
	scn) echo scenario ;;
	wl) echo workload ;;
	hs | hstore) echo history ;;
	jr) echo jsonread ;;
	*) echo "$1" ;;
	esac
}

announced() {	# announced STEM SYMBOL
	stem=$1 sym=$2 first=$(long "${1%%_*}") sfirst=$(long "${2%%_*}")
	case "$sym" in "$stem"*) return 0 ;; esac
	case "$first" in "$sfirst"*) return 0 ;; esac	# runner.c: run_scenario
	[ "${sfirst%s}" = "$first" ] || [ "$sfirst" = "${first%s}" ] && return 0
	case "$stem" in
	cmd_*) cmd=${stem#cmd_}
	       case "$sym" in "cli_$cmd" | "$cmd"_*) return 0 ;; esac ;;
	esac
	return 1
}

for dir in bench workloads analysis; do
	find "$build/$dir" -name '*.o' 2>/dev/null
done | sort | while read -r obj; do
	src=${obj#"$build"/}
	src=${src%.o}.c
	stem=$(basename "$src" .c)
	[ "$stem" = main ] && continue
	bad=$(nm --defined-only -g "$obj" | awk '{ print $3 }' | while read -r sym; do
		announced "$stem" "$sym" || printf '%s ' "$sym"
	done)
	[ -f "$src" ] || continue
	if [ -n "$bad" ]; then
		echo "$src" >>"$tmp"
		grep -qx "$src" "$known" 2>/dev/null && continue
		echo "check-names: $src exports $bad; its name announces ${stem%%_*}_*:" \
		     "rename the names, or move them to a file named for them" >&2
		echo x >>"$tmp.fail"
	fi
done
while read -r src; do
	grep -qx "$src" "$tmp" ||
		{ echo "check-names: $src now exports only what its name announces:" \
		       "remove it from $known" >&2; echo x >>"$tmp.fail"; }
done <"$known"
[ -f "$tmp.fail" ] && { rm -f "$tmp.fail"; exit 1; }
echo "== check-names: no file exports a name its file name does not announce, but the" \
     "$(wc -l <"$known") of $known (still to rename)"
