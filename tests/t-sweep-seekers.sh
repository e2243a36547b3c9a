#!/bin/sh
# sweep --seeker-counts: the seeks phase's seeker count as an axis.  Each
# point runs its count of seekers (strace's count of the forks, with no
# timeline sampler to fork beside them), the record and the tables say
# the counts, the seekers knee is named on planted rates, compare of two
# such sweeps names each point's count, and what cannot be swept is
# refused before any file.
. tests/lib.sh
scratch

need jq
mkdir "$T/d"

# Refusals: one line, exit 2, no file.
for bad in "0" "1,300" "1,,2" "x"; do
	"$BONNIE" sweep -d "$T/d" -p seeks --seeker-counts "$bad" \
	    >"$T/out" 2>"$T/err"
	st=$?
	[ $st -eq 2 ] && [ "$(wc -l <"$T/err")" -eq 1 ] &&
	    grep -q -- "--seeker-counts" "$T/err" && no_test_files "$T/d"
	check "--seeker-counts '$bad': exit 2, one line, no file ($st)" $?
done
"$BONNIE" sweep -d "$T/d" -p write --seeker-counts 1,2 >"$T/out" 2>"$T/err"
[ $? -eq 2 ] && grep -q "the seeks phase is not selected" "$T/err"
check "--seeker-counts without the seeks phase: refused" $?

# Four counts, one size and chunk, three runs each, no timeline.
S="sweep -d $T/d --sizes 16m..16m --chunks 16k -p seeks -n 2000 -x 3
    --min-time 0 --interval 0 --seeker-counts 8,1,4,2"
if command -v strace >/dev/null 2>&1 && ! portable; then
	# LeakSanitizer cannot run under ptrace (and forks to try).
	strace -f --seccomp-bpf -qq -e trace=clone,clone3,fork,vfork -o "$T/st" \
	    env "ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" \
	    "$BONNIE" $S --json "$T/sk.json" >"$T/sk.out" 2>"$T/sk.err"
	st=$?
	forks=$(grep -v 'resumed>' "$T/st" | grep -c 'clone\|fork')
	check "a sweep of 4 seeker counts under strace" $st
	# Forked seekers (the default): 3 x (1 + 2 + 4 + 8).
	[ "$forks" -eq 45 ]
	check "strace: 45 processes forked, 3 runs of 1, 2, 4 and 8 seekers ($forks)" $?
else
	"$BONNIE" $S --json "$T/sk.json" >"$T/sk.out" 2>"$T/sk.err"
	check "a sweep of 4 seeker counts" $?
	skip "the forks: strace is not installed (or the portable build)"
fi
jq -e '.sweep.seekers == [1, 2, 4, 8] and
    ([.points[].seekers] == [1, 2, 4, 8]) and
    all(.points[]; .phases.seeks.workers == .seekers)' "$T/sk.json" >/dev/null
check "the record: the counts sorted, each point's, its seeks phase's seekers" $?
schema_ok "the sweep record with seeker counts matches doc/schema.json" \
    -d sweep_record "$T/sk.json"
grep -Eq '^seeks, seeks/sec, chunk 16k, by seekers, median of 3 runs$' \
    "$T/sk.out" && grep -Eq '^ +size +-S 1 +-S 2 +-S 4 +-S 8$' "$T/sk.out"
check "the table: a column per seeker count" $?

# A knee planted at 4 seekers: every run's rate 1000, 1900, 3600, 3700.
jq '(.points[] | select(.seekers == 1)) |= (.phases.seeks.rate = 1000 |
	.more_runs[].phases.seeks.rate = 1000) |
    (.points[] | select(.seekers == 2)) |= (.phases.seeks.rate = 1900 |
	.more_runs[].phases.seeks.rate = 1900) |
    (.points[] | select(.seekers == 4)) |= (.phases.seeks.rate = 3600 |
	.more_runs[].phases.seeks.rate = 3600) |
    (.points[] | select(.seekers == 8)) |= (.phases.seeks.rate = 3700 |
	.more_runs[].phases.seeks.rate = 3700) |
    .points[].phases.seeks.imprecise = false |
    .points[].more_runs[].phases.seeks.imprecise = false |
    .points[].stats.seeks.precise = true' "$T/sk.json" >"$T/knee.json"
"$BONNIE" report "$T/knee.json" >"$T/knee.out" 2>&1
grep -q '^  seeks, 16 MiB, chunk 16k: the rate stops rising at 4 seekers (beyond: at most +3%, under 30%)$' \
    "$T/knee.out"
check "report names the seekers knee at 4 seekers" $? ||
    diag "$(grep -A3 '^Seekers knees' "$T/knee.out")"

# compare of two such sweeps: each point's place says its count.
"$BONNIE" compare "$T/sk.json" "$T/knee.json" >"$T/cmp" 2>&1
grep -Eq '^16M 16k -S 4 ' "$T/cmp" && grep -Eq '^16M 16k -S 8 ' "$T/cmp"
check "compare of two sweeps: the points named with their counts" $?
"$BONNIE" compare -o json "$T/sk.json" "$T/knee.json" >"$T/cmp.json" 2>&1
jq -e '[.phases[0].points[].seekers] == [1, 2, 4, 8]' "$T/cmp.json" \
    >/dev/null
check "compare -o json: each point's seekers" $?
jq '.sweep.seekers = [1, 2, 4, 16]' "$T/knee.json" >"$T/other.json"
"$BONNIE" compare "$T/sk.json" "$T/other.json" >"$T/out" 2>&1
[ $? -eq 2 ] && grep -q 'sweep different axes (sizes, chunks, job, seeker or file counts)' "$T/out"
check "compare of sweeps over other seeker counts: refused" $?
ok "no test file left" no_test_files "$T/d"
done_testing
