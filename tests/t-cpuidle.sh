#!/bin/sh
# How an idle CPU waits: the record's system.cpuidle_driver,
# cpuidle_governor and guest_halt_poll_ns against sysfs read here (the
# poll null unless haltpoll is the driver); in a guest with
# cpuidle-haltpoll whose vCPUs halt at once (0) the cache line
# says so, and with polling on (as root) the record has the new value, the
# line is quiet, and the old value is put back.
# run.sh: alone: it changes guest_halt_poll_ns, which every run records
# run.sh: suites: plain: alone; the portable build reads no sysfs
. tests/lib.sh
scratch

IDLE=/sys/devices/system/cpu/cpuidle
PARAM=/sys/module/haltpoll/parameters/guest_halt_poll_ns
need jq

# runit NAME: a small run, its record and the last line of its stderr.
runit() {
	"$BONNIE" -d "$T" -s 1m -c 16k -p write,read --json "$T/$1.json" \
	    >/dev/null 2>"$T/$1.err"
	tail -n 1 "$T/$1.err" >"$T/$1.last"
}
# sysfs FILE: the file's line, or null where it cannot be read.
sysfs() {
	v=$(cat "$1" 2>/dev/null) && [ -n "$v" ] && echo "$v" || echo null
}
says() { grep -q "; idle vCPUs halt at once (haltpoll guest_halt_poll_ns 0)" "$T/$1.last"; }

runit now
[ "$(jq -r '.system.cpuidle_driver' "$T/now.json")" = \
    "$(sysfs "$IDLE/current_driver")" ]
check "the record's cpuidle_driver is sysfs' ($(sysfs "$IDLE/current_driver"))" $?
g=$(sysfs "$IDLE/current_governor")
[ "$g" = null ] && g=$(sysfs "$IDLE/current_governor_ro")
[ "$(jq -r '.system.cpuidle_governor' "$T/now.json")" = "$g" ]
check "the record's cpuidle_governor is sysfs' ($g)" $?
hp=null
[ "$(sysfs "$IDLE/current_driver")" = haltpoll ] && hp=$(sysfs "$PARAM")
[ "$(jq -r '.system.guest_halt_poll_ns' "$T/now.json")" = "$hp" ]
check "the record's guest_halt_poll_ns is the module's where haltpoll is the driver ($hp)" $?
if [ "$hp" = 0 ]; then
	says now
	check "vCPUs that halt at once: the cache line says so" $?
else
	! says now
	check "no haltpoll, or it polls: the cache line says nothing of it" $?
fi

# The other way: 0 where it polls, the kernel's default 200000 where not.
if [ "$hp" != null ] && is_root && [ -w "$PARAM" ]; then
	if [ "$hp" = 0 ]; then new=200000; else new=0; fi
	if machine_set "$PARAM" "$new"; then
		runit set
		machine_restore
		[ "$(jq -r '.system.guest_halt_poll_ns' "$T/set.json")" = "$new" ]
		check "with guest_halt_poll_ns $new the record says $new" $?
		if [ "$new" = 0 ]; then says set; else ! says set; fi
		check "and the cache line says it halts at once only at 0" $?
		[ "$(cat "$PARAM")" = "$hp" ]
		check "guest_halt_poll_ns is put back ($hp)" $?
	else
		for i in 1 2 3; do
			skip "guest_halt_poll_ns: could not set it"
		done
	fi
else
	for i in 1 2 3; do
		skip "guest_halt_poll_ns: needs root and cpuidle-haltpoll"
	done
fi
ok "no test file left" no_test_files "$T"

done_testing
