#!/bin/sh
# The sync phase (-p sync): a chunk written and fdatasync'ed again and
# again.  Every sync is a real fdatasync(2) (strace counts them), the rate
# is the syncs over the elapsed time, it runs a second at least, and it
# never shows in the classic row or the bonnie++ CSV.
. tests/lib.sh
scratch

if ! command -v jq >/dev/null 2>&1; then
	skip "jq is not installed"
	done_testing
	exit 0
fi

# -p sync alone: the classic header, a row of "-", then the Sync line.
"$BONNIE" -d "$T" -s 4m -c 16k -p sync --syncs 20 --cache=keep -q -m box \
    >"$T/out" 2>"$T/err"
check "-p sync: exit 0" $?
[ "$(sed -n 4p "$T/out" | awk '{ n = 0; for (i = 3; i <= NF; i++)
    n += $i == "-"; print n }')" = 12 ]
check "-p sync: the classic row is - in all 12 fields" $?
sed -n 5p "$T/out" | grep -Eq '^Sync +4 +[0-9.]+ +[0-9.]+ syncs/sec %CPU latency p50 [0-9.]+[mu]?s p90 .* p99 .* p99\.9 '
check "-p sync: a Sync line under the row" $?

# strace: one fdatasync per sync reported; at least --syncs of them.
if command -v strace >/dev/null 2>&1; then
	# LeakSanitizer cannot run under ptrace: no leak check for this run.
	ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" \
	strace -f --seccomp-bpf -qq -e trace=fdatasync -o "$T/st" "$BONNIE" -d "$T" -s 4m \
	    -c 16k -p sync --syncs 30 --cache=keep -q -o json >"$T/s.json" \
	    2>/dev/null
	check "under strace: exit 0" $?
	calls=$(grep -c 'fdatasync(.*= 0$' "$T/st")
	ops=$(jq '.runs[0].phases.sync.ops' "$T/s.json")
	[ "$calls" -eq "$ops" ] && [ "$ops" -ge 30 ]
	check "fdatasync calls ($calls) are the syncs reported ($ops)" $?
else
	skip "strace is not installed"
	skip "strace is not installed"
fi

"$BONNIE" -d "$T" -s 4m -c 16k -p sync --syncs 25 --cache=keep -q -o json \
    >"$T/j.json"
jq -e '.runs[0].phases.sync as $s |
    $s.unit == "syncs/s" and $s.kps == null and $s.ops >= 25 and
    $s.elapsed_s >= 1 and $s.bytes == $s.ops * 16384 and
    (($s.rate - $s.ops / $s.elapsed_s) | fabs) <= 1e-6 * $s.rate and
    $s.latency.count == $s.ops and .options.syncs == 25 and
    .options.phases == ["sync"]' "$T/j.json" >/dev/null
check "JSON: syncs/s, ops/elapsed, at least 1 s, a latency per sync" $?

# The classic row and the 50-field CSV do not change when sync runs.
"$BONNIE" -d "$T" -s 4m -c 16k -p sync --syncs 5 --cache=keep -q -o csv \
    -z 7 >"$T/a.csv"
"$BONNIE" -d "$T" -s 4m -c 16k -p write --cache=keep -q -o csv -z 7 \
    >"$T/w.csv"
awk -F, '{ e = 0; for (i = 10; i <= 50; i++) e += $i == ""; print NF, e }' \
    "$T/a.csv" | grep -qx '50 41'
check "CSV of -p sync: 50 fields, every result field empty" $?
"$BONNIE" -d "$T" -s 4m -c 16k -p write,sync --syncs 5 --cache=keep -q \
    -o csv -z 7 >"$T/ws.csv"
[ "$(awk -F, '{ for (i = 10; i <= 50; i++) if (i != 12 && i != 13 &&
    i != 40) printf "%s,", $i; print NF }' "$T/ws.csv")" = \
  "$(awk -F, '{ for (i = 10; i <= 50; i++) if (i != 12 && i != 13 &&
    i != 40) printf "%s,", $i; print NF }' "$T/w.csv")" ]
check "CSV of write,sync: the same fields as write alone" $?

# Bad values: one line, exit 2.
"$BONNIE" -d "$T" -p sync --syncs 0 >"$T/out" 2>"$T/err"
[ $? -eq 2 ] && [ "$(wc -l <"$T/err")" -eq 1 ] && grep -q -- '--syncs' "$T/err"
check "--syncs 0: exit 2, one line" $?

# -p all takes sync; compare and report show it.
"$BONNIE" -d "$T" -s 4m -c 16k -p sync --syncs 5 --cache=keep -q -o json \
    >"$T/k.json"
"$BONNIE" compare "$T/j.json" "$T/k.json" >"$T/cmp" 2>&1
grep -Eq '^sync +/sec ' "$T/cmp"
check "compare: a sync /sec row" $?
"$BONNIE" report "$T/j.json" "$T/k.json" >"$T/rep" 2>&1
head -1 "$T/rep" | grep -q 'sync /sec'
check "report: a sync /sec column" $?
"$BONNIE" report -o html "$T/j.json" >"$T/rep.html" 2>&1
grep -q 'sync /sec' "$T/rep.html"
check "report -o html: a sync /sec column" $?
"$BONNIE" -d "$T" -s 4m -c 16k -p sync --syncs 5 --cache=keep -q -m box \
    >"$T/sync.txt"
"$BONNIE" report "$T/sync.txt" >"$T/rep2" 2>&1
head -1 "$T/rep2" | grep -q 'sync /sec'
check "report reads the Sync line of a text report" $?

# sweep --phases sync.
"$BONNIE" sweep -d "$T" --sizes 1m..2m --chunks 16k --phases sync \
    --syncs 5 --min-time 0 -q --json "$T/sw.json" --svg "$T/sw.svg" >"$T/sw" 2>/dev/null
check "sweep --phases sync: exit 0" $?
grep -q '^sync, syncs/sec$' "$T/sw" && grep -q 'syncs/s' "$T/sw.svg" &&
    jq -e '[.points[].phases.sync.ops] | all(. >= 5)' "$T/sw.json" >/dev/null
check "sweep: a sync table, plot and record" $?
done_testing
