#!/bin/sh
# t-plot-timeout.sh - issue 34: report waits for gnuplot a bounded time. A gnuplot that
# hangs at its terminal probe, or in a plot, is killed with whatever it started, and
# report fails naming gnuplot, leaving nothing staged. DEFERBENCH_PLOT_TIMEOUT=1 keeps
# it short. No root.
# lane: files (no machine state: the runner runs it beside the other tests)
. tests/integration/lib.sh
mktemp_dir T
tar xzf tests/fixtures/capture-tty.tar.gz -C "$T" || fail "cannot unpack the capture"
mkdir "$T/bin"
# a gnuplot that hangs whatever it is asked
printf '#!/bin/sh\nexec sleep 9871\n' > "$T/bin/gnuplot"
chmod +x "$T/bin/gnuplot"
expect_message "$T/o" "gnuplot did not answer 'set terminal' within 1 s" \
	env DEFERBENCH_PLOT_TIMEOUT=1 PATH="$T/bin:$PATH" "$DB" report -o "$T/r1" "$T/cap"
# one that has the terminals but hangs in a plot (and started a child of its own)
cat > "$T/bin/gnuplot" <<'SH'
#!/bin/sh
if [ "$1" = "-e" ]; then
	echo "       pngcairo  png terminal based on cairo"
	echo "       svg  W3C Scalable Vector Graphics"
	exit 0
fi
sleep 9871 &
sleep 9871
SH
expect_message "$T/o" "gnuplot did not finish the plot" \
	env DEFERBENCH_PLOT_TIMEOUT=1 PATH="$T/bin:$PATH" "$DB" report -o "$T/r2" "$T/cap"
grep -q "and was killed" "$T/o" || { cat "$T/o"; fail "report does not say gnuplot was killed"; }
[ ! -e "$T/r1" ] && [ ! -e "$T/r2" ] || fail "a report was written"
[ -z "$(ls -a "$T" | grep partial)" ] || fail "a staging directory was left"
# whatever the fake gnuplots started was killed with them
wait_for sh -c "! pgrep -f '^sleep 9871$' >/dev/null" || fail "gnuplot's children are still there"
exit 0
