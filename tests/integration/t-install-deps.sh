#!/bin/sh
# t-install-deps.sh - make bench installs what a run needs and nothing the tests alone
# need (chromium, lava-common, cmocka, ...): the machine it is about to measure stays as
# a benchmark should find it. On a "fresh machine" - dpkg knows no package, apt-get
# only records what it is asked for - make's install step for bench asks for none of the
# test tools, and make test's asks for all of them. Installs nothing, needs no root.
# lane: files (no machine state: the runner runs it beside the other tests)
. tests/integration/lib.sh

mktemp_dir T
mkdir "$T/bin"
# dpkg-query: nothing is installed; apt-get: write down the packages, install nothing
cat > "$T/bin/dpkg-query" <<'EOF'
#!/bin/sh
exit 1
EOF
cat > "$T/bin/apt-get" <<EOF
#!/bin/sh
[ "\$1" = install ] || exit 0
for p in "\$@"; do
	case \$p in install | -*) ;; *) printf '%s ' "\$p" >> "$T/asked" ;; esac
done
exit 0
EOF
printf '#!/bin/sh\nexec "$@"\n' > "$T/bin/sudo"
chmod +x "$T/bin/dpkg-query" "$T/bin/apt-get" "$T/bin/sudo"

TESTONLY="chromium lava-common libcmocka-dev python3-jsonschema trace-cmd jq"

# what make bench runs first, and what make test runs first
[ "$(make -n bench 2>/dev/null | head -n 1)" = "ci/install-deps.sh" ] ||
	fail "make bench does not start with ci/install-deps.sh (the run's list)"
[ "$(make -n test 2>/dev/null | head -n 1)" = "ci/install-deps.sh --test" ] ||
	fail "make test does not start with ci/install-deps.sh --test"

PATH=$T/bin:$PATH make --no-print-directory install-deps >"$T/out" 2>&1 ||
	{ cat "$T/out"; fail "make install-deps on a fresh machine"; }
[ -s "$T/asked" ] || fail "make install-deps asked apt-get for nothing on a fresh machine"
for p in $TESTONLY; do
	grep -qw -- "$p" "$T/asked" && fail "make bench would install $p, which only the tests need"
done
for p in gcc libtracefs-dev rt-tests gnuplot-nox iproute2; do
	grep -qw -- "$p" "$T/asked" || fail "make bench would not install $p, which a run needs"
done
echo "   bench installs: $(cat "$T/asked")"

rm -f "$T/asked"
PATH=$T/bin:$PATH make --no-print-directory install-test-deps >"$T/out" 2>&1 ||
	{ cat "$T/out"; fail "make install-test-deps on a fresh machine"; }
for p in $TESTONLY gnuplot-nox; do
	grep -qw -- "$p" "$T/asked" || fail "make test would not install $p"
done
exit 0
