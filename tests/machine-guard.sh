# tests/machine-guard.sh PATH VALUE FIFO LOCK: tests/machine.sh's guard,
# run by machine_set in a session of its own (setsid -w sh THIS ...).
# Takes LOCK (exclusive, 10 minutes at most), saves PATH's value, writes
# VALUE, says "ok WAS" (or why not) on FIFO.ready, then reads FIFO until
# its last writer is gone and writes the saved value back.  Stop signals
# are ignored: only the FIFO's end puts the value back.
trap "" INT TERM HUP QUIT
exec 7<"$3"
if ! : 2>/dev/null >>"$4"; then
	echo "cannot open the machine's lock $4" >"$3.ready"
	exit 1
fi
exec 9>>"$4"
if ! flock -w 600 -x 9; then
	echo "the machine's lock $4: not had in 10 minutes" >"$3.ready"
	exit 1
fi
was=$(cat "$1") || { echo "cannot read $1" >"$3.ready"; exit 1; }
# vm.dirty_bytes and vm.dirty_ratio are one setting: writing either zeroes
# the other, so dirty_bytes at 0 is put back by writing the ratio it had.
back=$1
if [ "$1" = /proc/sys/vm/dirty_bytes ] && [ "$was" = 0 ]; then
	back=/proc/sys/vm/dirty_ratio
	was=$(cat "$back") || { echo "cannot read $back" >"$3.ready"; exit 1; }
fi
if ! (echo "$2" >"$1") 2>/dev/null; then
	echo "$1: $2 refused" >"$3.ready"
	exit 1
fi
echo "ok $was" >"$3.ready"
while read -r _ <&7; do :; done
echo "$was" >"$back"
rm -f "$3" "$3.ready"
