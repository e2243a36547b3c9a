#!/bin/sh
# Free page reporting: a guest whose virtio balloon reports free memory to
# the host has it taken back, and buffered writes wait for it to come
# back.  The record's system.free_page_reporting and page_reporting_order
# against sysfs and /proc/buddyinfo read here; the cache line says it in
# a buffered run and not in a direct one; with the order raised above
# every free block (as root) the record says false and the line is quiet,
# and the order is put back.
# run.sh: alone: it changes page_reporting_order, which every run records
# run.sh: suites: plain: alone; the portable build knows no virtio balloon
#   (Linux's sysfs)
. tests/lib.sh
scratch

PARAM=/sys/module/page_reporting/parameters/page_reporting_order
need jq

# balloon: 1 when a virtio balloon (device 0x0005) negotiated bit 5
# (VIRTIO_BALLOON_F_REPORTING) of its features, else 0.
balloon() {
	for d in /sys/bus/virtio/devices/*; do
		[ "$(cat "$d/device" 2>/dev/null)" = 0x0005 ] || continue
		[ "$(cut -c6 "$d/features" 2>/dev/null)" = 1 ] && {
			echo 1; return; }
	done
	echo 0
}
# top: the largest order of free blocks, /proc/buddyinfo's counts less one.
top() {
	awk 'NR == 1 { print NF - 5 }' /proc/buddyinfo 2>/dev/null
}
# expect: "true" or "false", as the record should say now.
expect() {
	o=$(cat "$PARAM" 2>/dev/null)
	if [ "$(balloon)" = 1 ] && { [ -z "$o" ] || [ "$o" -le "$(top)" ]; }
	then
		echo true
	else
		echo false
	fi
}
# runit NAME ARGS: a small run, its record and the last line of its
# standard error.
runit() {
	n=$1
	shift
	"$BONNIE" -d "$T" -s 1m -c 16k -p write,read --json "$T/$n.json" \
	    "$@" >/dev/null 2>"$T/$n.err"
	tail -n 1 "$T/$n.err" >"$T/$n.last"
}
says() { grep -q "free page reporting (order [0-9]*) gives the memory" "$T/$1.last"; }

want=$(expect)
runit buf
got=$(jq -r '.system.free_page_reporting' "$T/buf.json")
[ "$got" = "$want" ]
check "the record's free_page_reporting is $want, as sysfs says ($got)" $?
o=$(cat "$PARAM" 2>/dev/null)
[ "$(jq -r '.system.page_reporting_order' "$T/buf.json")" = "${o:-null}" ]
check "the record's page_reporting_order is the module's (${o:-none})" $?
if [ "$want" = true ]; then
	says buf
	check "a buffered run's cache line says free page reporting is on" $?
	if no_direct; then
		skip "direct run: this build has no O_DIRECT"
	else
		runit dir --direct
		! says dir
		check "a direct run's cache line does not" $?
	fi
else
	! says buf
	check "without free page reporting the cache line does not mention it" $?
	skip "direct run: no free page reporting here"
fi

# Paused: the order above every free block.
if [ "$want" = true ] && is_root && [ -w "$PARAM" ] &&
    machine_set "$PARAM" $(($(top) + 1)); then
	runit paused
	machine_restore
	[ "$(jq -r '.system.free_page_reporting' "$T/paused.json")" = false ] &&
	    [ "$(jq -r '.system.page_reporting_order' "$T/paused.json")" = \
	    $(($(top) + 1)) ] && ! says paused
	check "with the order above every free block: false, the order recorded, nothing said" $?
	[ "$(cat "$PARAM")" = "$o" ]
	check "the order is put back ($o)" $?
else
	skip "paused reporting: needs root and free page reporting"
	skip "paused reporting: needs root and free page reporting"
fi
ok "no test file left" no_test_files "$T"

done_testing
