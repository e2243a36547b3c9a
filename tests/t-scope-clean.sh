#!/bin/sh
# Five clean runs, with no other test running, give no swap, reclaim or
# throttle note of the run's own; a note of the machine's only where the
# machine's own counters (/proc/vmstat around the run) say it happened.
# run.sh: alone: the other tests' runs would be the machine's work it
# checks the notes against.
# run.sh: suites: plain: alone; the kernel's notes are Linux's
. tests/lib.sh
scratch

if ! command -v jq >/dev/null 2>&1 || [ ! -r /proc/vmstat ]; then
	skip "needs jq and /proc/vmstat"
	done_testing
	exit
fi
mkdir "$T/d"
vm() { awk -v n="$1" '$1 == n { print $2 }' /proc/vmstat; }
stalls() { awk '$1 ~ /^allocstall_/ { s += $2 } END { print s + 0 }' \
    /proc/vmstat; }
i=1
while [ $i -le 5 ]; do
	p0=$(($(vm pswpin) + $(vm pswpout))) a0=$(stalls)
	"$BONNIE" -d "$T/d" -s 64m -p write,rewrite,read --json "$T/r$i.json" \
	    >/dev/null 2>"$T/e$i"
	st=$?
	p1=$(($(vm pswpin) + $(vm pswpout))) a1=$(stalls)
	check "clean run $i" $st
	jq -e '[.runs[0].phases[] | select(. != null) | .kernel.notes[] |
	    select((.kind == "swap" or .kind == "reclaim" or
	    .kind == "dirty_throttle") and .scope == "run")] | length == 0' \
	    "$T/r$i.json" >/dev/null
	check "clean run $i: no swap, reclaim or throttle note of the run's own" $? ||
	    diag "$(jq -c '[.runs[0].phases[] | select(. != null) | .kernel.notes[]]' "$T/r$i.json")"
	# The machine's, if any, are true: its counters moved meanwhile.
	jq -e --argjson p "$((p1 - p0))" --argjson a "$((a1 - a0))" '
	    [.runs[0].phases[] | select(. != null) | .kernel.notes[] |
	    select(.scope == "machine")] | all(.[];
	    if .kind == "swap" then $p > 0 elif .kind == "reclaim" then $a > 0
	    elif .kind == "dirty_throttle" then false else true end)' \
	    "$T/r$i.json" >/dev/null
	check "clean run $i: a note of the machine's only where /proc/vmstat moved (swap $((p1 - p0)) pages, allocstall $((a1 - a0)))" $?
	! grep -Eq 'warning: phase [a-z]*: (this run paid|reclaim stalled this run|the writers were throttled)' "$T/e$i"
	check "clean run $i: nor on stderr" $?
	i=$((i + 1))
done
done_testing
