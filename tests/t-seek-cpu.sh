#!/bin/sh
# The seek phase's seconds and CPU describe the same time: in the default
# cold mode, where every seeker drops each chunk after its seek, %CPU stays
# within 100 x min(seekers, cores) for one and three seekers in both modes,
# also on one core, and the seekers' CPU is no more than the kernel counted
# for the whole process tree (getrusage of the children, an independent
# meter).  A CPU clock that lies (the preload shim's cpuclock:1+:scale=100)
# makes cpu_doubtful fire.
# run.sh: long: among the longest in CI; started first on a clean clone
. tests/lib.sh
. tests/fault/lib.sh
scratch

if ! command -v jq >/dev/null 2>&1 || ! command -v python3 >/dev/null 2>&1
then
	skip "jq or python3 is not installed"
	done_testing
	exit
fi

# meter OUT CMD...: run CMD; OUT gets the user+system seconds the kernel
# counted for it and every child it reaped (wait4's rusage).
meter() {
	_m=$1; shift
	python3 -c '
import os, sys
pid = os.fork()
if pid == 0:
    fd = os.open("/dev/null", os.O_RDWR)
    os.dup2(fd, 0); os.dup2(fd, 1)
    os.execvp(sys.argv[1], sys.argv[1:])
_, status, ru = os.wait4(pid, 0)
print("%.6f" % (ru.ru_utime + ru.ru_stime))
sys.exit(os.waitstatus_to_exitcode(status))
' "$@" >"$_m"
}

# Seeks are CPU-bound on a memory file system, where the drops cost as much
# as the seeks: the case in which the accounting shows.
D=$T
if [ -d /dev/shm ] && S=$(mktemp -d /dev/shm/bonnie-ng-test.XXXXXX); then
	D=$S
	trap 'rm -rf "$S"; cleanup_scratch' EXIT
fi
ncpu=$(getconf _NPROCESSORS_ONLN)
# -n: a count, not the second a phase without -n seeks for (about 0.2 s
# for one seeker here): what is checked is that the seconds and the CPU
# describe the same span, however long.  20000 seeks: 0.1-0.3 s of CPU a
# run here (100000 cost the three suites about 20 s of CPU over the eight
# runs); the kernel counts a thread's CPU to the nanosecond
# (sum_exec_runtime), which the bounds below are far wider than.
N=20000
pin=
command -v taskset >/dev/null 2>&1 && taskset -c 0 true 2>/dev/null &&
    pin="taskset -c 0"
for cores in all one; do
	if [ $cores = one ]; then
		if [ -z "$pin" ]; then
			skip "taskset cannot pin to one core"
			continue
		fi
		c=1
	else
		c=$ncpu
	fi
	for mode in fork thread; do
		for s in 1 3; do
			w="$mode -S $s on $cores core(s)"
			lim=$((s < c ? s : c))
			if [ $cores = one ]; then
				meter "$T/m" $pin "$BONNIE" -d "$D" -s 4m -p seeks \
				    -S $s -n $N --seekers=$mode -q --json "$T/r.json" \
				    2>"$T/err"
			else
				meter "$T/m" "$BONNIE" -d "$D" -s 4m -p seeks \
				    -S $s -n $N --seekers=$mode -q --json "$T/r.json" \
				    2>"$T/err"
			fi
			check "$w: runs" $?
			jq -e --argjson lim $lim '.runs[0].phases.seeks |
			    .cpu_pct > 0 and
			    .cpu_pct <= 100 * $lim + 1 and
			    .cpu_doubtful == false' "$T/r.json" >/dev/null
			check "$w: %CPU at most 100 x $lim, not doubtful" \
			    $? || diag "$(jq -c '.runs[0].phases.seeks |
			    [.cpu_pct, .elapsed_s, .user_s, .sys_s]' \
			    "$T/r.json")"
			jq -e --argjson k "$(cat "$T/m")" '.runs[0].phases.seeks |
			    .user_s + .sys_s <= $k + 0.01' "$T/r.json" >/dev/null
			check "$w: seek CPU within the kernel's count" $? ||
			    diag "kernel $(cat "$T/m") s"
			jq -e '.runs[0].phases.seeks |
			    (.rate * .elapsed_s - .ops | fabs) < 1' \
			    "$T/r.json" >/dev/null
			check "$w: seeks/s is the seeks over the same seconds" $?
		done
	done
done
no_test_files "$D"; check "no file left" $?

if [ -z "$INJECT" ]; then
	skip "the preload library is not built"
else
	for mode in fork thread; do
		BN_FAULT=cpuclock:1+:scale=100 LD_PRELOAD=$INJECT "$BONNIE" -d "$T" \
		    -s 4m -p seeks -S 1 -n 1000 --seekers=$mode --json "$T/lie.json" \
		    >/dev/null 2>"$T/err"
		jq -e '.runs[0].phases.seeks.cpu_doubtful == true' \
		    "$T/lie.json" >/dev/null
		check "$mode: a CPU clock a hundred times too fast is doubtful" $?
		grep -q "phase seeks: .*CPU is more than 1 thread .*doubtful" \
		    "$T/err"
		check "$mode: and says so on stderr" $?
	done
fi
done_testing
