#!/bin/sh
# The seek phase: the work is split exactly with -n, extended to a second
# without it, the same in both modes, and its %CPU within what the cores
# allow.
. tests/lib.sh
. tests/fault/lib.sh
scratch
ncpu=$(getconf _NPROCESSORS_ONLN)

if ! command -v jq >/dev/null 2>&1; then
	skip "jq is not installed"
	# On a terminal the waiting process shows how far the seekers have got.
if command -v script >/dev/null 2>&1; then
	script -qc "'$BONNIE' -d '$T' -s 8m -c 4k -p seeks -n 400000 -S 2" \
	    "$T/tty" >/dev/null 2>&1 </dev/null
	tr '\r' '\n' <"$T/tty" | grep -q '^Seeking\.\.\. *[0-9][0-9]*%$'
	check "a terminal shows the seek phase's progress in percent" $?
else
	skip "script(1) is not installed"
fi
done_testing
	exit
fi

for mode in fork thread; do
	"$BONNIE" -d "$T" -s 8m -c 4k -p seeks -n 999 -S 4 --seekers=$mode \
	    -q --json "$T/$mode.json" >/dev/null 2>"$T/err"
	check "$mode: -n 999 -S 4 runs" $?
	ops=$(jq '.runs[0].phases.seeks.ops' "$T/$mode.json")
	workers=$(jq '.runs[0].phases.seeks.workers' "$T/$mode.json")
	[ "$ops" = 999 ]; check "$mode: exactly 999 seeks with -n (got $ops)" $?
	[ "$workers" = 4 ]; check "$mode: 4 seekers (got $workers)" $?
	jq -e --argjson n "$ncpu" '.runs[0].phases.seeks |
	    .cpu_pct <= 100 * $n + 1 and .cpu_pct > 0 and
	    (.user_s + .sys_s) > 0' "$T/$mode.json" >/dev/null
	check "$mode: %CPU positive and at most 100 x $ncpu cores" $?
	jq -e '.runs[0].phases.seeks.latency.count == 999' \
	    "$T/$mode.json" >/dev/null
	check "$mode: one latency sample per seek" $?

	"$BONNIE" -d "$T" -s 8m -c 4k -p seeks -S 2 --seekers=$mode \
	    --cache=keep -q --json "$T/$mode-ext.json" >/dev/null 2>"$T/err"
	jq -e '.runs[0].phases.seeks | .ops >= 4000 and .elapsed_s >= 0.99' \
	    "$T/$mode-ext.json" >/dev/null
	check "$mode: without -n at least 4000 seeks and one second" $?
	no_test_files "$T"; check "$mode: no file left" $?
done

# With -z the seek offsets and data repeat: the same seed gives the same
# work, recorded in the record.
"$BONNIE" -d "$T" -s 4m -c 4k -p seeks -n 100 -z 12345 -q \
    --json "$T/z.json" >/dev/null
jq -e '.options.seed == 12345 and .runs[0].seed == 12345' "$T/z.json" \
    >/dev/null
check "-z is recorded as the seed" $?
# On a terminal the waiting process shows how far the seekers have got:
# the phase is kept going for two seconds (1000 seeks of 2 ms each per
# seeker, from the preload library, or from strace where the library is
# not built, as in the portable builds; without either, 400000 seeks,
# which cost 10 s of CPU).
if command -v script >/dev/null 2>&1; then
	if [ -n "$INJECT" ]; then
		slow="env LD_PRELOAD=$INJECT BN_FAULT=pread:1+:sleep=2000"
		n=2000
	elif have strace; then
		slow="strace -f -qq -o /dev/null --seccomp-bpf -e trace=pread64"
		slow="$slow -e inject=pread64:delay_enter=2000"
		n=2000
	else
		slow="" n=400000
	fi
	script -qc "$slow '$BONNIE' -d '$T' -s 8m -c 4k -p seeks -n $n -S 2" \
	    "$T/tty" >/dev/null 2>&1 </dev/null
	tr '\r' '\n' <"$T/tty" | grep -q '^Seeking\.\.\. *[0-9][0-9]*%$'
	check "a terminal shows the seek phase's progress in percent" $?
else
	skip "script(1) is not installed"
fi
done_testing
