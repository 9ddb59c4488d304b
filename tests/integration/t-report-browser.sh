#!/bin/sh
# t-report-browser.sh - issue 24: report.html as a reader's browser shows it. Headless
# Chromium (ci/install-deps.sh installs it) opens the report of a synthetic run, in
# place and copied out alone (it is one file to send: its images are inside it), and
# the test fails on an image that does not load, a link to an anchor the page lacks, a
# link to a file that is not beside it, or a script error. It keeps a screenshot of the
# first screen (1400x900) and checks that screen holds every workload's answer (its
# waits and the advice) above the table. Needs gnuplot, not root.
. tests/integration/lib.sh

GEN=${GEN:-$(pwd)/build/tests/tools/gen-run}
[ -x "$GEN" ] || fail "missing $GEN (make build/tests/tools/gen-run)"
command -v gnuplot >/dev/null 2>&1 || skip "gnuplot is not installed"
CHROMIUM=$(command -v chromium || command -v chromium-browser) ||
	skip "chromium is not installed (ci/install-deps.sh installs it)"

mktemp_dir T
RUN=$T/run
"$GEN" --workloads net,tty,timer,fsync --configs threaded-napi,default,wq-nice-10 "$RUN" \
	>/dev/null || fail "gen-run"
"$DB" report "$RUN" >"$T/out" 2>&1 || { cat "$T/out"; fail "report exited $?"; }

# check DIR - open DIR/report.html at 1400x900 with a probe appended: at the load event
# it counts the images that did not decode, the #links without their anchor, any script
# error, and the summary's answers that end below the first screen
check() {
	# the error listener goes first, before any script of the page can run
	sed 's|<head>|<head><script>var bad = []; window.addEventListener("error", function (e) { bad.push("script error: " + e.message); });</script>|
		s|</body>||; s|</html>||' "$1/report.html" > "$1/probe.html"
	grep -q 'var bad = \[\]' "$1/probe.html" || fail "$1/report.html has no <head>"
	cat >> "$1/probe.html" <<'PROBE'
<script>
window.addEventListener("load", function () {
  var imgs = document.images, a = document.querySelectorAll("a[href]"), i, h, p;
  for (i = 0; i < imgs.length; i++)
    if (!imgs[i].complete || !imgs[i].naturalWidth) bad.push("image not loaded: " + imgs[i].alt);
  for (i = 0; i < a.length; i++) {
    h = a[i].getAttribute("href");
    if (h.charAt(0) === "#" && !document.getElementById(h.slice(1))) bad.push("no anchor " + h);
  }
  var li = document.querySelectorAll(".answer li"), below = 0;
  for (i = 0; i < li.length; i++)
    if (li[i].getBoundingClientRect().bottom > window.innerHeight) below++;
  p = document.createElement("pre");
  p.id = "probe";
  p.textContent = "PROBE images=" + imgs.length + " links=" + a.length + " bad=" + bad.length +
    " answers=" + li.length + " below=" + below + "\n" + bad.join("\n");
  document.body.appendChild(p);
});
</script>
</body></html>
PROBE
	timeout 120 "$CHROMIUM" --headless --no-sandbox --disable-gpu --virtual-time-budget=10000 \
		--window-size=1400,900 --dump-dom "file://$1/probe.html" > "$T/dom" 2>"$T/chromium.err" ||
		{ tail -5 "$T/chromium.err"; fail "chromium could not open $1/report.html"; }
	rm -f "$1/probe.html"
	grep -q 'PROBE images=[1-9][0-9]* links=[1-9][0-9]* bad=0' "$T/dom" ||
		{ sed -n '/PROBE/,/<\/pre>/p' "$T/dom" | head -20; fail "$1/report.html: broken in a browser"; }
	# the answers first: four workloads, each answer on the first screen
	grep -q 'PROBE .* answers=4 below=0' "$T/dom" ||
		{ grep -o 'PROBE .*' "$T/dom"; fail "$1/report.html: an answer is not on the first screen"; }
	echo "   $1: $(grep -o 'PROBE images=[0-9]* links=[0-9]* bad=0 answers=[0-9]*' "$T/dom")"
}
check "$RUN"

# copied out alone, its images still load; its file links are the plots' SVG twins
mkdir "$T/alone"
cp "$RUN/report.html" "$T/alone/"
check "$T/alone"
for r in $(grep -o 'href="[^"#][^"]*"' "$RUN/report.html" | sed 's/^href="//; s/"$//'); do
	case $r in
	plots/*.svg) [ -s "$RUN/$r" ] || fail "report.html links a missing $r" ;;
	*) fail "report.html links a file that is not a plot: $r" ;;
	esac
done

# the first screen, as a reader sees it: the summary with both kinds of wait in it
timeout 120 "$CHROMIUM" --headless --no-sandbox --disable-gpu --window-size=1400,900 \
	--screenshot="$T/first.png" "file://$RUN/report.html" >/dev/null 2>&1 || fail "no screenshot"
[ "$(wc -c < "$T/first.png")" -gt 20000 ] || fail "the screenshot is nearly empty"
timeout 120 "$CHROMIUM" --headless --no-sandbox --disable-gpu --dump-dom \
	"file://$RUN/report.html" 2>/dev/null | sed -n '1,/<h2[^>]*>Contents/p' > "$T/top"
grep -q 'Summary: softirq versus workqueue' "$T/top" || fail "the first section is not the summary"
grep -q '<td>net</td><td>default</td><td>[^<]*</td><td>[0-9.]* / [0-9.]* ([0-9]*)</td>' "$T/top" ||
	fail "the summary has no softirq wait of net/default"
[ -n "${DB_KEEP_SCREENSHOT:-}" ] && cp "$T/first.png" "$DB_KEEP_SCREENSHOT"
exit 0
