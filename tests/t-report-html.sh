#!/bin/sh
# report -o html as a reader sees it: for four files, a panel per phase
# holding its rate, its CPU cost and its latency, each chart a bar per
# source (a source of repeated runs by its median); the CPU chart titled by
# what its bars are (CPU s/GiB, lower is better), each latency chart
# naming its percentile and in one unit.  Then drawn by headless Chromium
# (skipped without it): a screenshot, and the page's height, which must
# stay a few screens for four files (the page of a chart per column and
# a bar per run was 11,918 px for these four files at 1280 px; now 1,835).
# run.sh: suites: plain sanitized: the page as Chromium draws it; no
#   platform call of its own
. tests/lib.sh
scratch

F=tests/fixtures
# Three bonnie-ng records (two of five runs, one single) and a text
# report of three runs: every chart has four bars.
"$BONNIE" report -o html $F/ng-base.json $F/ng-slower.json $F/ng-single.json \
    $F/text-ng.txt >"$T/r.html" 2>"$T/err"
check "report -o html of four files: exit 0, nothing on stderr" \
    $([ $? -eq 0 ] && [ ! -s "$T/err" ]; echo $?)

if command -v xmllint >/dev/null 2>&1; then
	xp() { xmllint --xpath "$1" "$T/r.html" 2>/dev/null; }
	# The page is XHTML: name the namespace away for XPath.
	sed 's/ xmlns="http:\/\/www.w3.org\/1999\/xhtml"//; s/<svg xmlns="[^"]*"/<svg/' \
	    "$T/r.html" >"$T/p.xml"
	xp() { xmllint --xpath "$1" "$T/p.xml" 2>/dev/null; }
	panels=$(xp 'count(//div[@class="panel"])')
	check "a panel per phase with figures (6, got $panels)" \
	    $([ "$panels" = 6 ]; echo $?)
	check "each panel has a rate, a CPU and a latency chart" \
	    $([ "$(xp 'count(//div[@class="panel"][count(.//svg) = 3])')" = 6 ]; echo $?)
	check "every chart has a bar row per source (4)" \
	    $([ "$(xp 'count(//svg[count(text[@text-anchor="end"]) != 4])')" = 0 ] &&
	    [ "$(xp 'count(//svg)')" = 18 ]; echo $?)
	check "the medians are drawn as such" \
	    $([ "$(xp 'count(//svg/rect[contains(@class, "median")])')" -ge 12 ]; echo $?)
	xp '//div[@class="panel"]//h3/text()' | sort -u >"$T/titles"
	diag "$(cat "$T/titles")"
	check "CPU charts are titled by their bars: CPU s/GiB or per thousand ops, lower is better" \
	    $(grep -qx 'CPU s/GiB (lower is better)' "$T/titles" &&
	    grep -qx 'CPU s/kseek (lower is better)' "$T/titles" &&
	    ! grep -q '%CPU' "$T/titles"; echo $?)
	check "latency charts name the percentile and one unit" \
	    $(grep '^latency' "$T/titles" | grep -Evx 'latency, (worst case \(max\)|99th percentile \(p99\)|worst case; text reports: p99), (us|ms|s) \(lower is better\)' |
	    grep -q . && echo 1 || echo 0)
	# One unit per chart: a latency bar's value is a bare number.
	xp '//div[@class="panel"]/div/div[starts-with(h3, "latency")]//svg/text[not(@text-anchor)]/text()' |
	    tee "$T/lat" | grep -Ev '^(-|[0-9.e+-]+)$' >"$T/bad" 2>/dev/null
	check "latency bars carry bare numbers, in the chart's unit (24 of them)" \
	    $([ ! -s "$T/bad" ] && [ "$(wc -l <"$T/lat")" -eq 24 ]; echo $?)
	# The text report's source says its latency is a p99.
	check "the text report's latency bars say p99" \
	    $([ "$(xp 'count(//svg/text[contains(., "text-ng.txt") and contains(., "(p99)")])')" = 6 ]; echo $?)
	xmllint --noout "$T/r.html" 2>/dev/null
	check "the page is well-formed XML" $?
else
	for i in 1 2 3 4 5 6 7 8 9; do skip "xmllint is not installed"; done
fi
! grep -Eiq '<script|<link|src=|url\(|@import' "$T/r.html"
check "the page is self-contained" $?

# Headless Chromium: a screenshot, and the page's height (measured on a
# copy with one line of script; the page itself has none).
chr=
for c in chromium chromium-browser google-chrome; do
	command -v $c >/dev/null 2>&1 && { chr=$c; break; }
done
if [ -n "$chr" ]; then
	run_chr() {
		timeout 120 "$chr" --headless --no-sandbox --disable-gpu \
		    --disable-dev-shm-usage --user-data-dir="$T/chr" "$@" \
		    2>>"$T/chr.err"
	}
	run_chr --window-size=1280,1024 --screenshot="$T/shot.png" \
	    "file://$T/r.html" >/dev/null
	check "Chromium draws a screenshot" \
	    $([ -s "$T/shot.png" ] &&
	    [ "$(head -c 8 "$T/shot.png" | od -An -c | tr -d ' ')" = '211PNG\r\n032\n' ]; echo $?)
	sed 's|</body>|<script>document.title = document.documentElement.scrollHeight;</script></body>|' \
	    "$T/r.html" >"$T/h.html"
	h=$(run_chr --window-size=1280,1024 --dump-dom "file://$T/h.html" |
	    sed -n 's|.*<title>\([0-9]*\)</title>.*|\1|p')
	diag "page height at 1280 px: ${h:-unknown} px"
	check "four files fit a few screens at 1280 px (under 4000 px, got ${h:-none})" \
	    $([ -n "$h" ] && [ "$h" -lt 4000 ]; echo $?)
else
	skip "Chromium is not installed (apt-get install chromium)"
	skip "Chromium is not installed (apt-get install chromium)"
fi
done_testing
