#!/bin/sh
# sweep -x N and --min-time: every point run N times, the runs
# interleaved round by round across the grid (seen in the order the test
# files are made and written, by strace); the tables' figure the median of
# the runs (checked against jq's own median of the record's runs) with a
# table of their spread; the record keeping every run; --min-time running
# a point again until its phases ran that long in all, and not a point
# already precise; report redrawing it byte for byte; bad values refused.
. tests/lib.sh
scratch

if ! command -v jq >/dev/null 2>&1; then
	skip "jq is not installed"
	done_testing
	exit
fi
mkdir "$T/d"

# -x 3 without --min-time: 2 sizes x 1 chunk, 3 runs each.
"$BONNIE" sweep -d "$T/d" --sizes 1m..2m --chunks 4k --phases write,read \
    -x 3 --min-time 0 --json "$T/x.json" >"$T/out" 2>"$T/err"
check "-x 3 exits 0" $?
diag "$(cat "$T/err")"
jq -e '.sweep.repeat == 3 and (.points | length) == 2 and
    ([.points[] | (.more_runs | length) == 2 and .stats.write.runs == 3 and
        .stats.read.runs == 3 and
        ([.more_runs[].phases.write.rate > 0] | all)] | all)' \
    "$T/x.json" >/dev/null
check "the record keeps the 3 runs of each point" $?
grep -q '^bonnie-ng: sweep: 2 points (2 sizes x 1 chunk, 3 runs each), 9 MiB to write in all' "$T/err"
check "the plan counts the runs: 3 x (1 + 2) MiB" $?

# The tables' figure is the median of the runs, as jq computes it.
jq -r '.points[] | [.phases.write.rate, .more_runs[].phases.write.rate] |
    sort | .[1] | floor' "$T/x.json" >"$T/med"
awk '/^block write, K\/sec, median of 3 runs$/ { t = 1; next }
    t && $1 == "size" { next } t && NF == 0 { exit } t { print $2 }' \
    "$T/out" >"$T/tab"
diag "medians $(tr '\n' ' ' <"$T/med"), table $(tr '\n' ' ' <"$T/tab")"
[ -s "$T/tab" ] && cmp -s "$T/med" "$T/tab"
check "the table shows the median of each point's 3 runs" $?
jq -r '.points[] | .stats.write | (.cv * 1000 | round) / 10' "$T/x.json" \
    >"$T/cv"
awk '/^block write, K\/sec, spread: coefficient of variation of the runs, %$/ {
    t = 1; next } t && $1 == "size" { next } t && NF == 0 { exit }
    t { print $2 + 0 }' "$T/out" >"$T/tcv"
[ -s "$T/tcv" ] && cmp -s "$T/cv" "$T/tcv"
check "the spread table shows each point's coefficient of variation" $?

"$BONNIE" report "$T/x.json" >"$T/rep" 2>&1
cmp -s "$T/out" "$T/rep"
check "report of the -x record prints what the sweep printed" $?
schema_ok "the -x record matches doc/schema.json" -d sweep_record "$T/x.json"

# Interleaved: the test files are made size by size within each round
# (1m, 2m, 1m, 2m, 1m, 2m), not point by point; each file's writes show
# its size (256 or 512 chunks of 4 KiB; a call strace splits around
# another thread's counts once).
if command -v strace >/dev/null 2>&1; then
	strace -f --seccomp-bpf -qq -o "$T/st" -e trace=openat,write "$BONNIE" sweep \
	    --min-time 0 -q -d "$T/d" --sizes 1m..2m --chunks 4k \
	    --phases write -x 3 >/dev/null 2>&1
	order=$(awk '/openat\(.*bonnie-ng\.[0-9].*O_CREAT/ {
		if (n) printf "%d ", n; n = 0; on = 1; next }
	    on && / write\([0-9]+, .*, 4096(\) += 4096| <unfinished)/ { n++ }
	    END { if (n) printf "%d", n }' "$T/st")
	[ "$order" = "256 512 256 512 256 512" ]
	check "the runs interleave round by round ($order)" $?
else
	skip "strace is not installed"
fi

# --min-time: a point whose write ran under the bound in all runs again
# until it did (or until 64 runs), and no more: the runs before the last
# stayed under it.  A first run that reached it alone runs once.
"$BONNIE" sweep -d "$T/d" --sizes 1m..1m --chunks 64k --phases write \
    --min-time 0.05 --json "$T/m.json" >/dev/null 2>"$T/err"
check "--min-time 0.05 exits 0" $?
jq -e '.sweep.min_time_s == 0.05 and .points[0] as $p |
    $p.stats.write as $s |
    ([$p.phases.write.elapsed_s, $p.more_runs[].phases.write.elapsed_s] |
        add) as $t |
    ($s.elapsed_s - $t | fabs) < 1e-6 and $s.runs == 1 + ($p.more_runs |
        length) and
    (($s.runs == 1 and $t >= 0.05) or
     ($s.runs > 1 and ($t - $p.more_runs[-1].phases.write.elapsed_s) <
        0.05 and ($t >= 0.05 or $s.runs == 64))) and
    $s.precise == ($t >= 0.05)' "$T/m.json" >/dev/null
check "--min-time 0.05: runs until the write ran 0.05 s in all, no more" $?
diag "$(jq -c '.points[0].stats' "$T/m.json")"

# The default is the run's precision bound, 0.5 s, said in the plan.
"$BONNIE" sweep -d "$T/d" --sizes 1m..1m --chunks 64k --phases write \
    --json "$T/m.json" >/dev/null 2>"$T/err"
jq -e '.sweep.min_time_s == 0.5 and .sweep.precision_s == 0.5' \
    "$T/m.json" >/dev/null
check "the default --min-time is 0.5 s" $?
grep -q 'a point whose phases ran under 0.5 s in all runs again, up to 64 runs (--min-time)' "$T/err"
check "the plan says --min-time runs points again" $?
"$BONNIE" sweep -d "$T/d" --sizes 1m..1m --chunks 64k --phases seeks -q \
    --json "$T/s.json" >/dev/null 2>&1
jq -e '.points[0].stats.seeks.runs == 1 and .points[0].stats.seeks.precise
    and (.points[0].more_runs | length) == 0' "$T/s.json" >/dev/null
check "a precise point (seeks) runs once" $?

# Bad values: exit 2, one line, nothing made.
bad() {
	want=$1
	shift
	"$BONNIE" sweep -d "$T/d" --sizes 1m..1m --json "$T/bad.json" "$@" \
	    >"$T/out" 2>"$T/err"
	st=$?
	[ $st -eq 2 ] && [ "$(wc -l <"$T/err")" -eq 1 ] &&
	    [ ! -e "$T/bad.json" ] && grep -q -- "$want" "$T/err"
	check "bad: $* (exit $st: $(cat "$T/err"))" $?
}
bad "^bonnie-ng: sweep: invalid value for -x, --repeat: '0'" -x 0
bad "^bonnie-ng: sweep: invalid value for --min-time: '-1' (seconds" \
    --min-time -1
bad "^bonnie-ng: sweep: invalid value for --min-time: 'soon'" --min-time soon

done_testing
