#!/bin/sh
# The run's helper processes (issue 43): the timeline's sampler stopped
# by SIGSTOP no longer holds the run in waitpid(2) for as long as it
# stays stopped, and a sampler stopped, killed or never forked leaves a
# note saying why the phase has no timeline; a portable build's queue
# workers stopped mid-phase: one is killed after 5 s, said, and the phase
# fails instead of waiting for ever.  (The --lock-mem helper and -j
# workers: t-lockmem.sh, t-signals.sh.)
#
# The phase is held in one of its own calls (the preload library's
# wait=) while the test stops or kills the helper, then let go.
. tests/lib.sh
. tests/fault/lib.sh
scratch

need jq
ARGS="-d $T -s 1m -c 4k -p write --cache=keep --no-space-check -q"

# held SPEC ARGS...: the run in the background, held where SPEC says (a
# wait= on $T/go), pid in $pid; returns once it is held there.
held() {
	_s=$1; shift
	rm -f "$T/go" "$T/fl"
	BN_FAULT=$_s BN_FAULT_LOG=$T/fl LD_PRELOAD=$INJECT \
	    "$BONNIE" -m "$TAG" $ARGS "$@" >"$T/out" 2>"$T/err" </dev/null &
	pid=$!
	wait_for "$T/fl" "^fault .*wait" 30
}

# children PID: the processes PID has forked, now.
children() { pgrep -P "$1" | tr '\n' ' ' | sed 's/ $//'; }

# note: the write phase's timeline note, when it has no timeline.
note() {
	jq -r '.runs[0].phases.write.kernel | select(.timeline == null) |
	    .notes[] | select(.kind == "timeline") | .text' "$T/r.json"
}

"$BONNIE" -d "$T" -s 64k -c 4k -p write -q --interval 10ms \
    --json "$T/p.json" >/dev/null 2>&1
if [ -n "$INJECT" ] && [ "$(jq '.runs[0].phases.write.kernel.timeline |
    type' "$T/p.json" 2>/dev/null)" = '"object"' ]; then
	# 1. The sampler stopped while the phase runs: the run ends when the
	# phase does, the sampler killed and named.
	held "write:5:wait=$T/go" --interval 10ms --json "$T/r.json"
	s=$(children $pid)
	kill -STOP $s
	: >"$T/go"
	wait_exit $pid 30
	check "the sampler stopped by SIGSTOP: the run ends, exit 0 (got $st)" \
	    $([ $st -eq 0 ]; echo $?) || cat "$T/err"
	check "the sampler stopped: the note names it, stopped and killed" \
	    $(note | grep -q "^phase write: the timeline's sampler (process $s) was stopped by SIGSTOP; killed, so the phase has no timeline$"
		echo $?) || jq .runs[0].phases.write.kernel.notes "$T/r.json"
	ok "the sampler stopped: no process left" no_procs
	check "the sampler stopped: it is gone" \
	    $(! kill -0 $s 2>/dev/null; echo $?)

	# 2. Killed.
	held "write:5:wait=$T/go" --interval 10ms --json "$T/r.json"
	s=$(children $pid)
	kill -KILL $s
	: >"$T/go"
	wait_exit $pid 30
	check "the sampler killed: exit 0 (got $st), the note says how" \
	    $([ $st -eq 0 ] && note | grep -q "^phase write: the timeline's sampler (process $s) was killed by signal 9 (Killed), so"
		echo $?) || jq .runs[0].phases.write.kernel.notes "$T/r.json"

	# 3. Never forked: said on stderr (not quiet) and in the record.
	BN_FAULT=fork:1:EAGAIN LD_PRELOAD=$INJECT "$BONNIE" -m "$TAG" \
	    -d "$T" -s 1m -c 4k -p write --cache=keep --interval 10ms \
	    --json "$T/r.json" >"$T/out" 2>"$T/err" </dev/null
	st=$?
	check "the sampler not forked: exit 0 (got $st), said and noted" \
	    $([ $st -eq 0 ] &&
		grep -q "^bonnie-ng: warning: phase write: the timeline's sampler could not be started: fork: Resource temporarily unavailable, so the phase has no timeline$" "$T/err" &&
		note | grep -q "could not be started: fork"; echo $?) ||
	    cat "$T/err"

	# 4. -j 2: the team's sampler (the leader's child that holds no test
	# file, unlike the workers) stopped.
	held "write:5:wait=$T/go" --interval 10ms --json "$T/r.json" -j 2
	s=""
	for c in $(children $pid); do
		ls -l /proc/$c/fd 2>/dev/null | grep -q "bonnie-ng\.[0-9]" ||
		    s="$s $c"
	done
	kill -STOP $s
	: >"$T/go"
	wait_exit $pid 30
	check "-j 2, the sampler stopped: the run ends, exit 0 (got $st), noted" \
	    $([ $st -eq 0 ] && note | grep -q "was stopped by SIGSTOP; killed"
		echo $?) || { cat "$T/err"; jq .runs[0].phases.write.kernel.notes "$T/r.json"; }
	ok "-j 2, the sampler stopped: no process left" no_procs
else
	for i in 1 2 3 4 5 6 7 8; do
		skip "no timeline in this build, or no fault injection library"
	done
fi

# 5. A portable build's queue workers (--iodepth: processes), stopped as
# soon as they are forked (the only children with --interval 0): after
# 5 s each is killed and said, the phase fails; nothing is left.  (A 512 MiB direct write: seconds, where the
# test looks every 50 ms.)
if portable && "$BONNIE" -d "$T" -s 64k -c 4k -p write -q --direct \
    --iodepth 2 >/dev/null 2>&1; then
	"$BONNIE" -m "$TAG" $ARGS -s 512m -c 64k --interval 0 --direct \
	    --iodepth 4 >"$T/out" 2>"$T/err" </dev/null &
	pid=$!
	i=0
	while [ $i -lt 200 ] && [ -z "$(children $pid)" ]; do
		sleep 0.05
		i=$((i + 1))
	done
	w=$(children $pid)
	kill -STOP $w
	check "queue workers: 4 seen and stopped ($w)" \
	    $([ $(echo $w | wc -w) -eq 4 ]; echo $?)
	wait_exit $pid 60
	check "queue workers stopped: the phase fails, exit 1 (got $st)" \
	    $([ $st -eq 1 ]; echo $?) || cat "$T/err"
	check "queue workers stopped: killed after 5 s, each said" \
	    $(grep -q "^bonnie-ng: warning: the queue's worker (process [0-9]*) was stopped by SIGSTOP for 5 s; killed$" "$T/err" &&
		[ "$(grep -Ec "^bonnie-ng: warning: the queue's worker \(process [0-9]*\) was stopped by SIGSTOP( for 5 s)?; killed$" "$T/err")" = 4 ] &&
		grep -q "^bonnie-ng: phase write: " "$T/err"; echo $?) ||
	    cat "$T/err"
	ok "queue workers stopped: no test file left" no_test_files "$T"
	ok "queue workers stopped: no process left" no_procs
else
	for i in 1 2 3 4 5; do
		skip "queue worker processes: a portable build with --direct (make check-posix's musl build)"
	done
fi
done_testing
