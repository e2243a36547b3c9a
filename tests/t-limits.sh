#!/bin/sh
# Limits and kills that the kernel deals out (issue 43): a CPU-time limit
# of 1 s, soft and hard alike (ulimit -t 1), brings SIGKILL with SIGXCPU
# and would leave the test file, so it is refused before anything is
# made (exit 1, one line); a -j worker hit by its own CPU-time limit or a
# signal of its own names it, not "Interrupted system call"; a seeker the
# OOM killer takes (a memory cgroup of the test's own, root) is named as
# the OOM killer's victim, not as "killed by signal 9" or "failed to
# start".  (ulimit -t 2 and more: t-ways.sh.)
. tests/lib.sh
. tests/fault/lib.sh
scratch

# 1. ulimit -t 1: refused at once, in run, sweep and pp (whose first line
# says the user it runs as, as bonnie++'s does).  (ulimit -t 0 kills
# before the program starts.)
for t in 1; do
	for c in run sweep pp; do
		case $c in
		run)	set -- "$BONNIE" -d "$T" -q -s 4g -c 4k -p putc \
			    --no-space-check ;;
		sweep)	set -- "$BONNIE" sweep -d "$T" -q --sizes 64k..64k \
			    -p putc ;;
		pp)	set -- "$BONNIE" pp -d "$T" -s 64:4k -n 0 -u root ;;
		esac
		(ulimit -t $t && exec "$@") >"$T/out" 2>"$T/err" </dev/null
		st=$?
		check "ulimit -t $t, $c: exit 1 (got $st), one line naming it, no file" \
		    $([ $st -eq 1 ] && { one_line "$T/err" || [ $c = pp ]; } &&
			grep -q "^bonnie-ng: the CPU-time limit (ulimit -t) is $t s, soft and hard alike: SIGKILL would come with SIGXCPU" "$T/err" &&
			no_test_files "$T"; echo $?) || cat "$T/err"
	done
done
# Only the soft limit at 1 s: SIGXCPU alone, caught (exit 152).
(ulimit -S -t 1 && exec "$BONNIE" -m "$TAG" -d "$T" -q -s 4g -c 4k \
    --cache=keep --no-space-check -p putc) >"$T/out" 2>"$T/err" </dev/null
st=$?
check "ulimit -S -t 1: runs, SIGXCPU caught, exit 152 (got $st), no file" \
    $([ $st -eq 152 ] && no_test_files "$T"; echo $?)

# 2. A -j 2 worker hit by its own CPU-time limit (each worker's CPU is
# its own): the line names SIGXCPU and the limit.
(ulimit -t 3 && exec "$BONNIE" -m "$TAG" -d "$T" -q -s 4g -c 4k -j 2 \
    --cache=keep --no-space-check -p putc) >"$T/out" 2>"$T/err" </dev/null
st=$?
check "-j 2 under ulimit -t 3: exit 1 (got $st), the worker's line names SIGXCPU" \
    $([ $st -eq 1 ] &&
	grep -q "^bonnie-ng: worker [01]: phase putc: process [0-9]* interrupted by SIGXCPU (its CPU-time limit, see ulimit -t); its test file removed$" "$T/err"
	echo $?) || cat "$T/err"
ok "-j 2 under ulimit -t 3: no test file, no process left" \
    eval 'no_test_files "$T" && no_procs'

# 3. SIGTERM to one worker of -j 2, held in its write: named.
if [ -n "$INJECT" ]; then
	rm -f "$T/go" "$T/fl"
	BN_FAULT="write:3:wait=$T/go" BN_FAULT_LOG=$T/fl LD_PRELOAD=$INJECT \
	    "$BONNIE" -m "$TAG" -d "$T" -q -s 1m -c 4k -j 2 --cache=keep \
	    -p write --interval 0 >"$T/out" 2>"$T/err" </dev/null &
	pid=$!
	wait_for "$T/fl" "kind=write call=3 wait" 30
	w=$(sed -n 's/^fault pid=\([0-9]*\) kind=write call=3 .*/\1/p' "$T/fl" |
	    head -n 1)
	kill -TERM "$w"
	: >"$T/go"
	wait_exit $pid 30
	check "SIGTERM to worker process $w: exit 1 (got $st), named" \
	    $([ $st -eq 1 ] &&
		grep -q "^bonnie-ng: worker [01]: phase write: process $w interrupted by SIGTERM; its test file removed$" "$T/err"
		echo $?) || cat "$T/err"
	ok "SIGTERM to a worker: no test file, no process left" \
	    eval 'no_test_files "$T" && no_procs'
else
	skip "a worker signalled: no fault injection library"
	skip "a worker signalled: no fault injection library"
fi

# 4. The forked seekers and -j workers offer themselves to the OOM killer
# first (oom_score_adj 1000; raising it needs no privilege), the run's own
# process, which holds the record, keeps the one it was started with.
# Read while the seeks go on: each child found by its parent's pid.
if ! portable && [ -w /proc/self/oom_score_adj ]; then
	adj=$(cat /proc/self/oom_score_adj)
	for how in "-S 2" "-j 2 -S 1"; do
		# shellcheck disable=SC2086
		"$BONNIE" -m "$TAG" -d "$T" -q -s 8m -c 4k -p seeks $how \
		    -n 100000000 --interval 0 --no-space-check \
		    >"$T/out" 2>"$T/err" </dev/null &
		pid=$!
		i=0
		while [ "$(pgrep -c -P $pid)" -lt 2 ] && [ $i -lt 600 ] &&
		    kill -0 $pid 2>/dev/null; do
			sleep 0.1
			i=$((i + 1))
		done
		kids=$(for c in $(pgrep -P $pid); do
			cat /proc/$c/oom_score_adj; done | tr '\n' ' ')
		main=$(cat /proc/$pid/oom_score_adj 2>/dev/null)
		kill -INT $pid 2>/dev/null
		wait $pid
		check "$how: the children at oom_score_adj 1000 (got '$kids'), the run's process at the test's $adj (got $main)" \
		    $([ "$kids" = "1000 1000 " ] && [ "$main" = "$adj" ]; echo $?)
	done
else
	skip "the children's oom_score_adj: Linux only (portable: not known)"
	skip "the children's oom_score_adj: Linux only (portable: not known)"
fi

# 5. A seeker taken by the OOM killer of the test's own memory cgroup
# (v1 or v2, root): the seekers the largest (a chunk buffer of 16 MiB
# each), the limit under what they need.  Unlimited, -S 1 peaks at 35 MiB
# besides the file's page cache (the run's own 16 MiB buffer, the seeker's,
# 3 of program), -S 3 at 67: a limit of 36 MiB held -S 1 now and then
# (exit 0, once in ten soak passes at load 8), so 28 MiB, 7 under that
# need and 9 above the run's alone (8 of 8 tries here killed the
# seeker).  Even so, at equal oom_score_adj the run's own process was now
# and then the victim at load 9 (exit 137, the record lost): the
# seekers' own adj (case 4) decides it.
# Under the sanitizers the run's own process carries ASan's shadow and
# quarantine, larger than a seeker: the OOM killer takes it (exit 137)
# and the case is not the one checked.
cg= oom_mib=28
if is_root && ! portable && [ -z "${BONNIE_NG_SANITIZED:-}" ]; then
	if [ -w /sys/fs/cgroup/memory ] && [ -e /sys/fs/cgroup/memory/memory.stat ]; then
		cg=/sys/fs/cgroup/memory/bonnie-ng-t-limits.$$
		mkdir "$cg" && echo 0 >"$cg/memory.swappiness" &&
		    echo ${oom_mib}M >"$cg/memory.limit_in_bytes" || cg=
	elif grep -q memory /sys/fs/cgroup/cgroup.controllers 2>/dev/null &&
	    grep -q memory /sys/fs/cgroup/cgroup.subtree_control 2>/dev/null; then
		cg=/sys/fs/cgroup/bonnie-ng-t-limits.$$
		mkdir "$cg" && echo ${oom_mib}M >"$cg/memory.max" &&
		    echo 0 >"$cg/memory.swap.max" || cg=
	fi
fi
if [ -n "$cg" ]; then
	trap 'cgroup_remove "$cg"; cleanup_scratch' EXIT
	for s in 1 3; do
		sh -c 'echo $$ >"$1/cgroup.procs" && shift && exec "$@"' \
		    sh "$cg" "$BONNIE" -m "$TAG" -d "$T" -q -s 64m -c 16m \
		    -p seeks -S $s -n 2000 --cache=keep --interval 0 \
		    >"$T/out" 2>"$T/err" </dev/null
		st=$?
		check "-S $s in a $oom_mib MiB cgroup: exit 1 (got $st), the seeker named as the OOM killer's" \
		    $([ $st -eq 1 ] &&
			grep -q "^bonnie-ng: phase seeks: $T/bonnie-ng\.[0-9]*\.[^:]*: seeker [0-9] (pid [0-9]*) was killed by the OOM killer (the memory cgroup's oom_kill [0-9]* -> [0-9]*)$" "$T/err"
			echo $?) || cat "$T/err"
		ok "-S $s, OOM: no test file, no process left" \
		    eval 'no_test_files "$T" && no_procs'
	done
	cgroup_remove "$cg"
	check "the test's cgroup and the runs' in it removed" $?
else
	for i in 1 2 3 4 5; do
		skip "the OOM killer: needs root and a writable memory cgroup, and no sanitizer (its shadow makes the run's own process the largest)"
	done
fi
done_testing
