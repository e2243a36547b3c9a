#!/bin/sh
# A run killed by SIGKILL, which it cannot catch (the OOM killer's, a
# hard CPU-time limit's, kill -9), once its second phase has completed:
# the --json record is rewritten whole after every phase that completes
# (a temporary renamed into place), so it is there, valid against the
# schema, with the phases that completed, the run marked interrupted
# "SIGKILL" and its error naming the phase it was in; no temporary lies
# beside it.  Alone and with -j 2 (the team's leader writes it).  The
# kill waits on the record holding two phases, not on a time.  The MPI
# build's mpirun killed so is in t-mpi.sh.
. tests/lib.sh
. tests/fault/lib.sh
scratch
if ! command -v jq >/dev/null 2>&1; then
	skip "jq is not installed"
	done_testing
	exit
fi

# phases FILE: how many phases of the last run the record holds (empty
# when there is no valid record).
phases() {
	jq -r '[.runs[-1].phases[] | select(. != null)] | length' "$1" \
	    2>/dev/null
}

# until_phases FILE N: wait while $pid lives until the record holds N
# phases (the bound is for a loaded machine; a passing run never waits
# it out).
until_phases() {
	_i=0
	while [ "$(phases "$1")" != "$2" ] && kill -0 "$pid" 2>/dev/null &&
	    [ $_i -lt 2400 ]; do
		sleep 0.05
		_i=$((_i + 1))
	done
	[ "$(phases "$1")" = "$2" ]
}

# The third phase, seeks, lasts minutes: 10^8 seeks.
for j in 1 2; do
	rm -rf "$T/k" "$T/d"
	mkdir "$T/k" "$T/d"
	"$BONNIE" -m "$TAG" -d "$T/d" -s 4m -c 4k -j $j -p write,read,seeks \
	    -n 100000000 --json "$T/k/r.json" >"$T/out" 2>"$T/err" </dev/null &
	pid=$!
	until_phases "$T/k/r.json" 2
	check "-j $j: the record holds 2 phases while the run goes on" $?
	kill -KILL $pid
	wait $pid
	st=$?
	check "-j $j: killed by SIGKILL (exit $st)" $([ $st -eq 137 ]; echo $?)
	jq -e --argjson b $((j * 4194304)) '(.runs | length) == 1 and
	    .runs[0].phases.write.bytes == $b and
	    .runs[0].phases.read.bytes == $b and
	    .runs[0].phases.seeks == null and
	    .runs[0].interrupted == "SIGKILL" and
	    .runs[0].error.phase == "seeks" and
	    (.runs[0].error.message | startswith("unfinished: this record was written after phase read completed")) and
	    .summary.write != null' "$T/k/r.json" >/dev/null
	rc=$?
	check "-j $j: the record holds write and read, marked interrupted by SIGKILL in seeks" $rc
	[ $rc -eq 0 ] || jq -c '.runs[0] | {interrupted, error}' "$T/k/r.json"
	schema_ok "-j $j: the record is valid against the schema" "$T/k/r.json"
	check "-j $j: no temporary beside the record ($(ls -A "$T/k" | tr '\n' ' '))" \
	    $([ "$(ls -A "$T/k")" = r.json ]; echo $?)
	# The seekers and the workers die with the run (the parent-death
	# signal); the files SIGKILL leaves are the test's to remove.
	check "-j $j: no process left" $(no_procs; echo $?)
done

# A run that ends has its record rewritten as it ended: not marked.
rm -rf "$T/k" "$T/d"
mkdir "$T/k" "$T/d"
bn "$T/out" "$T/err" -d "$T/d" -s 1m -c 4k -p write,read -q \
    --json "$T/k/r.json"
check "a run that ends: exit 0 (exit $st)" $st
jq -e '.runs[0].interrupted == null and .runs[0].error == null and
    .runs[0].free_space.before_bytes != null' "$T/k/r.json" >/dev/null
check "a run that ends: its record is not marked, its free space known" $?

done_testing
