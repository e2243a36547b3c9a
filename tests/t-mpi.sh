#!/bin/sh
# The MPI build (make mpi): the team over MPI ranks on this machine, TCP
# over loopback, 4 ranks: lock-step gathering, a rank failing mid-step and
# one failing before the first barrier.  A visible skip without mpicc and
# mpirun, and under the sanitizers (the plain pass covers it).
. tests/lib.sh

if ! command -v mpicc >/dev/null 2>&1 || ! command -v mpirun >/dev/null 2>&1
then
	skip "mpicc or mpirun is not installed (apt-get install openmpi-bin libopenmpi-dev)"
	done_testing
	exit
fi
if [ -n "${BONNIE_NG_SANITIZED:-}" ]; then
	skip "the MPI tests run in the plain pass only"
	done_testing
	exit
fi
if [ ! -x build-mpi/tests/mpi-team ] || [ ! -x bonnie-ng-mpi ]; then
	make -s mpi >/dev/null 2>&1
fi
[ -x build-mpi/tests/mpi-team ]; check "make mpi builds" $?

mpi() {
	timeout 120 mpirun --allow-run-as-root --oversubscribe \
	    --mca btl tcp,self "$@"
}

for mode in plain fail prepfail; do
	mpi -np 4 build-mpi/tests/mpi-team $mode >"$T/out" 2>"$T/err"
	status=$?
	grep -E '^(not )?ok|^#' "$T/out" | sed "s/^\(not \)*ok [0-9]* - /&$mode: /; s/^\(not \)*ok [0-9]*/\1ok/" >"$T/tap"
	while IFS= read -r line; do
		case $line in
		"ok "*) check "${line#ok - }" 0 ;;
		"not ok "*) check "${line#not ok - }" 1 ;;
		"#"*) echo "$line" ;;
		esac
	done <"$T/tap"
	grep -q '^1\.\.' "$T/out"; check "$mode: rank 0 finished its checks" $?
	[ $status -eq 0 ]; check "$mode: the job exits 0 (rank 0's checks)" $?
done
done_testing
