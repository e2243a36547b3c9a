#!/bin/sh
# -j N: workers in lock-step, each with its own file; the aggregate is all
# bytes (or seeks) over the span from the earliest start to the latest end
# (checked against the per-worker figures in the record); every output
# says how many ran; one worker's failure, death or a signal stops all of
# them at once and removes every file.
. tests/lib.sh
. tests/fault/lib.sh
scratch
ncpu=$(getconf _NPROCESSORS_ONLN)

# Bad values: one line, exit 2, nothing made.
for v in 0 1025 x -1; do
	bn "$T/out" "$T/err" -d "$T" -s 4m -j "$v"
	[ $st -eq 2 ] && one_line "$T/err" && grep -q -- "-j, --jobs" "$T/err"
	check "-j $v is refused, one line, exit 2 (exit $st)" $?
done
check "nothing made by the refused runs" $(no_test_files "$T"; echo $?)

# The up-front space check covers every worker's file.
free_mib=$(df -Pm "$T" | awk 'NR == 2 { print $4 }')
per=$((free_mib / 3 + 1))
bn "$T/out" "$T/err" -d "$T" -s "${per}m" -j 4 -p write
[ $st -eq 2 ] && grep -q "files need $((per * 4)) MiB" "$T/err"
check "-j 4 checks room for 4 files (exit $st)" $?

if ! command -v jq >/dev/null 2>&1; then
	skip "jq is not installed: the record checks"
	done_testing
	exit
fi

# A good run: four workers, three phases.
bn "$T/out" "$T/err" -d "$T" -s 8m -c 16k -j 4 -p write,read,seeks \
    -n 500 --json "$T/r.json"
check "-j 4 runs (exit $st)" $st
[ $st -eq 0 ] || sed 's/^/#   /' "$T/err"
check "every worker's file removed" $(no_test_files "$T"; echo $?)
check "no process left" $(no_procs; echo $?)

j() { jq -r "$@" "$T/r.json"; }
[ "$(j .options.jobs)" = 4 ] &&
    [ "$(j .options.size_bytes)" = 8388608 ] &&
    [ "$(j .options.size_total_bytes)" = 33554432 ]
check "the record holds jobs, the size per worker and the total" $?
[ "$(j '.runs[0].team.backend')" = fork ] &&
    [ "$(j '.runs[0].team.workers | length')" = 4 ] &&
    [ "$(j '.runs[0].team.same_fs')" = true ]
check "the record lists the workers and their file system" $?

for ph in write read seeks; do
	# bytes = sum, rate = sum / (latest end - earliest start), the
	# per-worker spans inside it, skew = (latest - earliest end) / span.
	jq -e --arg ph "$ph" '
	    .runs[0].phases[$ph] as $p | $p.per_worker as $w |
	    ($w | map(.start_s) | min) as $s0 |
	    ($w | map(.end_s) | max) as $e1 |
	    ($w | map(.end_s) | min) as $e0 |
	    ($e1 - $s0) as $span |
	    ($w | length) == 4 and
	    $p.bytes == ($w | map(.bytes) | add) and
	    $p.ops == ($w | map(.ops) | add) and
	    (($p.elapsed_s - $span) | fabs) < 1e-6 and
	    (if $ph == "seeks" then
	        (($p.rate - $p.ops / $span) | fabs) <= 1e-6 * $p.rate
	     else
	        (($p.rate - $p.bytes / 1024 / $span) | fabs) <=
	            1e-6 * $p.rate end) and
	    (($p.skew - ($e1 - $e0) / $span) | fabs) < 1e-6 and
	    # %CPU: every worker'"'"'s CPU (seekers included) over the span
	    # plus the longest fill ahead (each worker'"'"'s over its own).
	    (($p.cpu_pct - ($w | map(.cpu_pct * (.elapsed_s + (.fill_s // 0)))
	        | add) / ($span + ($p.fill_s // 0))) | fabs) <=
	        0.01 * $p.cpu_pct + 0.01 and
	    ($w | all(.elapsed_s <= $span + 1e-6)) and
	    $p.cpu_pct <= 100 * '"$ncpu"' + 1
	' "$T/r.json" >/dev/null
	check "$ph: the aggregate is all work over earliest start to latest end" $?
done
[ "$(j '.runs[0].phases.write.bytes')" = 33554432 ] &&
    [ "$(j '.runs[0].phases.seeks.ops')" = 2000 ]
check "four files of 8 MiB written; 4 x 500 seeks" $?
# The device saw at least the bytes the workers say they wrote (other
# programs may add to it, never take away).
jq -e '.runs[0].phases.write | .dev_written_bytes == null or
    .dev_written_bytes >= .bytes' "$T/r.json" >/dev/null
check "the device wrote at least the aggregate's bytes (when known)" $?
# Lock-step: nobody started a phase before everyone was ready.  Each
# worker reads the clock before it tells the leader it is at the barrier,
# and again after the leader's go, which follows every arrival: an order
# no scheduling can break (a worker descheduled after the go may still
# start after another has ended, so that is not asserted).
jq -e '.runs[0].phases | [.write, .read, .seeks] | all(
    (.per_worker | map(.ready_s) | max) <= (.per_worker | map(.start_s) | min)
    and (.per_worker | all(.ready_s <= .start_s and .start_s <= .end_s)))' \
    "$T/r.json" >/dev/null
check "lock-step: every worker was at the barrier before any started a phase" $?
schema_ok "the record passes the schema" "$T/r.json"

# The classic row: MB is the data of the whole run; CSV field 3 is N.
bn "$T/out" "$T/err" -d "$T" -s 8m -j 3 -p write -q
awk -v tag="$TAG" '$1 == substr(tag, 1, 8) { print $2 }' "$T/out" | grep -qx 24
check "classic row: MB is 3 x 8" $?
bn "$T/out" "$T/err" -d "$T" -s 8m -j 3 -p write -q -o csv
[ "$(cut -d, -f4 "$T/out")" = 3 ] && [ "$(cut -d, -f6 "$T/out")" = 8M ]
check "CSV: concurrency (field 3) is 3, the size is per worker" $?

# compare: jobs is a setting that must match; report shows it.
bn "$T/out" "$T/err" -d "$T" -s 8m -p write -q --json "$T/one.json"
"$BONNIE" compare "$T/one.json" "$T/r.json" >"$T/cmp" 2>&1
grep -Eq "not comparable.*jobs 1 vs 4" "$T/cmp"
check "compare: different job counts are not comparable" $?
"$BONNIE" report "$T/one.json" "$T/r.json" >"$T/rep" 2>&1
awk 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "jobs") c = i }
    NR == 2 { a = $c } NR == 3 { b = $c }
    END { exit !(c > 0 && a == 1 && b == 4) }' "$T/rep"
check "report: a jobs column, 1 and 4" $?

# A worker killed outright: every other worker stops at once, every
# file goes, and the one line names the worker and the phase.
"$BONNIE" -m "$TAG" -d "$T" -s 8m -j 4 -p seeks -n 100000000 -q \
    --json "$T/k.json" >"$T/out" 2>"$T/err" </dev/null &
pid=$!

# Once every worker is in the seeks phase (its seekers forked): an event,
# so that a loaded machine cannot make the kill come before the phase.
i=0
while [ $i -lt 1200 ] && kill -0 $pid 2>/dev/null; do
	n=0
	for w in $(pgrep -P $pid); do
		[ -n "$(pgrep -P "$w")" ] && n=$((n + 1))
	done
	[ $n -ge 4 ] && break
	sleep 0.05; i=$((i + 1))
done
victim=$(pgrep -P $pid | sed -n 2p)
t0=$(date +%s)
[ -n "$victim" ] && kill -KILL "$victim"
wait_exit $pid 20
t1=$(date +%s)
[ $st -eq 1 ]; check "a killed worker: exit 1 (exit $st)" $?
one_line "$T/err" && grep -Eq "^bonnie-ng: phase seeks: worker [0-3] killed by signal 9" "$T/err"
check "the line names the phase, the worker and the signal" $?
[ $st -eq 1 ] || sed 's/^/#   /' "$T/err"
# Stopped, not finished: 4 x 10^8 seeks would take many minutes even from
# the page cache; the bound is generous for a loaded machine.
[ $((t1 - t0)) -le 60 ]
check "the others stopped mid-phase ($((t1 - t0)) s after the kill)" $?
check "every file removed (the dead worker's too)" $(no_test_files "$T"; echo $?)
check "no process left" $(no_procs; echo $?)
jq -e '.runs[0].error.phase == "seeks"' "$T/k.json" >/dev/null
check "the record says where it stopped" $?

# A signal to the leader alone stops every worker and its seekers.
"$BONNIE" -m "$TAG" -d "$T" -s 8m -j 4 -p write,seeks -n 100000000 \
    >"$T/out" 2>"$T/err" </dev/null &
pid=$!
# Once the workers write (the leader's progress line), not after a time.
wait_for "$T/err" "Writing intelligently" 60
kill -INT $pid
wait_exit $pid 20
[ $st -eq 130 ]; check "SIGINT: exit 130 (exit $st)" $?
grep -q "interrupted by SIGINT; test files removed" "$T/err"
check "SIGINT: says so" $?
check "SIGINT: every file removed" $(no_test_files "$T"; echo $?)
check "SIGINT: no process left" $(no_procs; echo $?)

# Disk full in one worker: all stop, every file goes, one line naming the
# worker, the phase, its file, the call, the error and the offset.
if is_root; then
	M=$T/small
	mkdir "$M"
	if mount -t tmpfs -o size=40m tmpfs "$M" 2>/dev/null; then
		T_MOUNTS=$M
		bn "$T/out" "$T/err" -d "$M" -s 16m -j 4 -p write,read \
		    --no-space-check -q --json "$T/f.json"
		[ $st -eq 1 ]; check "disk full in a worker: exit 1 (exit $st)" $?
		one_line "$T/err" && w=$(sed -n 's/^bonnie-ng: worker \([0-3]\): phase write: .*\/bonnie-ng\.[0-9]*\.j\([0-3]\)\.[A-Za-z0-9]*: write: No space left on device (at byte [0-9]*)$/\1 \2/p' "$T/err") &&
		    [ -n "$w" ] && [ "${w% *}" = "${w#* }" ]
		check "the line names the worker, phase, its file, call, error, offset" $?
		[ $? -eq 0 ] || sed 's/^/#   /' "$T/err"
		check "disk full: every file removed" $(no_test_files "$M"; echo $?)
		check "disk full: no process left" $(no_procs; echo $?)
		jq -e '.runs[0].error.phase == "write" and .runs[0].phases.write == null' \
		    "$T/f.json" >/dev/null
		check "disk full: the record keeps the error" $?
		scratch_umount "$M"
	else
		skip "disk full: cannot mount a tmpfs"
	fi
else
	skip "disk full: needs root to mount a small tmpfs"
fi
# IOR's rule: a phase ends for every worker at once.  No worker removes
# its file (nor starts its next step) while another is still in the
# timed part: every unlink comes after every worker's timed fsync has
# returned (strace; before the fix an early worker's unlink came first).
# LeakSanitizer cannot run under ptrace.
STRACE_ENV="ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0"
if command -v strace >/dev/null 2>&1; then
	env "$STRACE_ENV" strace -f --seccomp-bpf -qq -ttt -e trace=fsync,unlinkat -o "$T/st" \
	    "$BONNIE" -q -d "$T" -s 8m -j 4 -p write >/dev/null 2>"$T/err"
	st=$?
	r=$(awk '/fsync\(/ && !/unfinished/ && /= 0/ { if (!($1 in e)) e[$1] = $2 }
	    /<\.\.\. fsync resumed>/ { if (!($1 in e)) e[$1] = $2 }
	    /unlinkat\(.*bonnie-ng\./ { n++; if (u == "" || $2 < u) u = $2 }
	    END { m = 0; k = 0; for (p in e) { k++; if (e[p] > m) m = e[p] }
	    print (k == 4 && n == 4 && m <= u) ? "ok" : "bad", k, n, m, u }' \
	    "$T/st")
	[ $st -eq 0 ] && [ "${r%% *}" = ok ]
	check "-j 4: no worker removes its file before the last one's phase ends ($r)" $?
	check "-j 4 under strace: every file removed" $(no_test_files "$T"; echo $?)
else
	skip "no strace: the end of a phase for all"
	skip "no strace: the end of a phase for all"
fi
done_testing
