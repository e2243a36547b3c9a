#!/bin/sh
# bonnie-ng pp without -s does what bonnie++ 2.00a does (issue 43): the
# six phases of the test file run on a file of twice the RAM in MiB (-r's,
# else the machine's), at least 300 MiB (bonnie++ -r 16, -r 100 and -r 0
# write 300 MiB, -r 160 320 MiB, -r 256 512 MiB), and -r 256 -n 0 runs;
# a line says the size.  The block write is failed at its first call (the
# preload library), so that no test writes hundreds of MiB: the error
# names the phase, which shows the throughput phases were planned.
. tests/lib.sh
. tests/fault/lib.sh
scratch

need_inject
U=
is_root && U="-u root"
# The harnesses' lines: -r N (with -n 0 or the default -n 16), -f.
for rw in 16:300 100:300 0:300 160:320 256:512; do
	r=${rw%%:*} want=${rw#*:}
	for n in "-n 0" ""; do
		BN_FAULT=write:1:EIO LD_PRELOAD=$INJECT "$BONNIE" pp -d "$T" $U \
		    -r $r $n -f -q >"$T/out" 2>"$T/err" \
		    </dev/null
		st=$?
		check "pp -r $r $n -f: the ${want} MiB file is written (got $st), said" \
		    $([ $st -eq 1 ] &&
			grep -q "^bonnie-ng pp: no -s: $want MiB, as bonnie++ (twice -r's RAM, at least 300 MiB)$" "$T/err" &&
			grep -q "^bonnie-ng: phase write: .*Input/output error" "$T/err" &&
			no_test_files "$T"; echo $?) || cat "$T/err"
	done
done
# No -r: twice the machine's RAM.
ram=$(( $(getconf _PHYS_PAGES) * $(getconf PAGESIZE) / 1048576 * 2 ))
[ $ram -lt 300 ] && ram=300
BN_FAULT=write:1:EIO LD_PRELOAD=$INJECT "$BONNIE" pp -d "$T" $U -f -q \
    >"$T/out" 2>"$T/err" </dev/null
st=$?
check "pp without -s or -r: twice the machine's RAM ($ram MiB) (got $st)" \
    $([ $st -eq 1 ] &&
	grep -q "^bonnie-ng pp: no -s: $ram MiB, as bonnie++ (twice the RAM, at least 300 MiB)$" "$T/err"
	echo $?) || cat "$T/err"
# -s 0 -n 0 is still bonnie++'s refusal; -s 0 alone runs the file tests.
"$BONNIE" pp -d "$T" $U -s 0 -n 0 >"$T/out" 2>"$T/err" </dev/null
st=$?
check "pp -s 0 -n 0: refused, exit 1 (got $st)" $([ $st -eq 1 ]; echo $?)
done_testing
