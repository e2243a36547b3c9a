#!/bin/sh
# Output files and streams (issue 15, groups 2, 3 and 6): every output
# file (--json; sweep's --json and --svg) is made before the first phase,
# and a bad one refused with exit 2 before any work; a write that fails at
# the end still leaves the report printed and exits 1; sweep checks its
# standard output; output files are never written through a symbolic link
# and replace an existing file only when the user could have written it
# anyway; compare --fail-on with an empty list is a usage error.
. tests/lib.sh
. tests/fault/lib.sh
scratch
chmod 755 "$T"
RUN="-q -s 256k -c 4k -n 10 --cache=keep --no-space-check -p write"
SWEEP="-q --sizes 256k..256k --chunks 4k --cache=keep -n 10"

# refused DESC: exit 2, one line, no phase started, no test file.
refused() {
	_r=0
	[ $st -eq 2 ] && one_line "$T/err" || _r=1
	check "$1: exit 2, one line (got $st)" $_r
	[ $_r -eq 0 ] || sed 's/^/#   /' "$T/err"
	check "$1: nothing measured, no test file" \
	    $([ ! -s "$T/out" ] && no_test_files "$T/d"; echo $?)
}

mkdir "$T/d"
for cmd in run sweep; do
	if [ $cmd = run ]; then
		set -- "$BONNIE" -d "$T/d" $RUN
	else
		set -- "$BONNIE" sweep -d "$T/d" $SWEEP
	fi
	"$@" --json "$T/missing/r.json" >"$T/out" 2>"$T/err"; st=$?
	refused "$cmd --json in a missing directory"
	grep -q "No such file or directory" "$T/err"
	check "$cmd --json in a missing directory: says so" $?
	"$@" --json "$T" >"$T/out" 2>"$T/err"; st=$?
	refused "$cmd --json naming a directory"
	"$@" --json /dev/full >"$T/out" 2>"$T/err"; st=$?
	refused "$cmd --json /dev/full"
	grep -q "a device" "$T/err"
	check "$cmd --json /dev/full: says it is a device" $?
	"$@" --json /dev/null >"$T/out" 2>"$T/err"; st=$?
	check "$cmd --json /dev/null: allowed (got $st)" \
	    $([ $st -eq 0 ]; echo $?)
	# The symlink, to a file and to a missing one (a planted link).
	echo keep >"$T/victim"
	ln -sf "$T/victim" "$T/link"
	ln -sf "$T/nothing" "$T/dangling"
	for l in link dangling; do
		"$@" --json "$T/$l" >"$T/out" 2>"$T/err"; st=$?
		refused "$cmd --json through a symlink ($l)"
		grep -q "a symbolic link" "$T/err"
		check "$cmd --json through a symlink ($l): says so" $?
	done
	check "$cmd --json: the link's target is untouched" \
	    $([ "$(cat "$T/victim")" = keep ] && [ ! -e "$T/nothing" ]; echo $?)
	rm -f "$T/link" "$T/dangling"
	# Other hard links: not replaced.
	echo keep >"$T/h1"
	ln "$T/h1" "$T/h2"
	"$@" --json "$T/h2" >"$T/out" 2>"$T/err"; st=$?
	refused "$cmd --json with another hard link"
	check "$cmd --json with another hard link: untouched" \
	    $([ "$(cat "$T/h1")" = keep ]; echo $?)
	rm -f "$T/h1" "$T/h2"
	# An existing file of the user's own is replaced.
	echo old >"$T/mine.json"
	"$@" --json "$T/mine.json" >"$T/out" 2>"$T/err"; st=$?
	check "$cmd --json over the user's own file: exit 0 (got $st)" \
	    $([ $st -eq 0 ]; echo $?)
	check "$cmd --json over the user's own file: replaced" \
	    $(head -c 1 "$T/mine.json" | grep -q '{'; echo $?)
	# A FIFO is written to.
	rm -f "$T/fifo" "$T/fifo.out"
	mkfifo "$T/fifo"
	cat "$T/fifo" >"$T/fifo.out" &
	"$@" --json "$T/fifo" >"$T/out" 2>"$T/err"; st=$?
	wait
	check "$cmd --json into a FIFO: exit 0 and the record came through" \
	    $([ $st -eq 0 ] && grep -q '"schema"' "$T/fifo.out"; echo $?)
	# The whole output on a full device: the report is lost, exit 1.
	"$@" >/dev/full 2>"$T/err"; st=$?
	check "$cmd >/dev/full: exit 1 (got $st)" $([ $st -eq 1 ]; echo $?)
	grep -q "standard output: No space left on device" "$T/err"
	check "$cmd >/dev/full: says so" $?
	check "$cmd >/dev/full: no test file left" \
	    $(no_test_files "$T/d"; echo $?)
done

# sweep: a bad --svg after a good --json leaves no empty --json behind.
rm -f "$T/s.json"
"$BONNIE" sweep -d "$T/d" $SWEEP --json "$T/s.json" --svg "$T/missing/s.svg" \
    >"$T/out" 2>"$T/err"
st=$?
refused "sweep with a bad --svg"
check "sweep with a bad --svg: the --json it made is removed" \
    $([ ! -e "$T/s.json" ]; echo $?)

# In a sticky directory, another user's file is not replaced (root: the
# file is given to uid 65534); as that user, root's file neither.
if is_root && have setpriv; then
	mkdir "$T/sticky"
	chmod 1777 "$T/sticky"
	echo planted >"$T/sticky/p.json"
	chown 65534:65534 "$T/sticky/p.json"
	chmod 666 "$T/sticky/p.json"
	"$BONNIE" -d "$T/d" $RUN --json "$T/sticky/p.json" >"$T/out" \
	    2>"$T/err"
	st=$?
	refused "another user's file in a sticky directory"
	check "another user's file in a sticky directory: untouched" \
	    $([ "$(cat "$T/sticky/p.json")" = planted ]; echo $?)
	echo root >"$T/sticky/r.json"
	chmod 644 "$T/sticky/r.json"
	mkdir "$T/nd" && chmod 777 "$T/nd"
	setpriv --reuid=65534 --regid=65534 --clear-groups "$BONNIE" \
	    -d "$T/nd" $RUN --json "$T/sticky/r.json" >"$T/out" 2>"$T/err"
	st=$?
	check "a file the user may not write: exit 2 (got $st)" \
	    $([ $st -eq 2 ]; echo $?)
	grep -q "Permission denied" "$T/err"
	check "a file the user may not write: Permission denied" $?
	check "a file the user may not write: untouched" \
	    $([ "$(cat "$T/sticky/r.json")" = root ]; echo $?)
else
	for i in 1 2 3 4 5 6; do
		skip "sticky directory checks: need root and setpriv"
	done
fi

# A record that cannot be written at the end: the report is still printed,
# exit 1 (a 16 KiB tmpfs, filled after the file is opened).
if is_root && [ -n "$INJECT" ] && mkdir "$T/small" &&
    mount -t tmpfs -o size=16k tmpfs "$T/small" 2>/dev/null; then
	T_MOUNTS="$T/small"
	for cmd in run sweep; do
		rm -f "$T/small/"*
		if [ $cmd = run ]; then
			set -- "$BONNIE" -d "$T/d" -s 256k -c 4k -n 10 \
			    --cache=keep --no-space-check -p write
		else
			set -- "$BONNIE" sweep -d "$T/d" --sizes 256k..256k -n 10 \
			    --chunks 4k --cache=keep
		fi
		# Fill the file system once the run is under way.
		# The run is slowed on its test file (not the record) so that
		# the fill comes first.
		(BN_FAULT=write:1+:sleep=10000 LD_PRELOAD=$INJECT \
		    "$@" --json "$T/small/r.json" >"$T/out" 2>"$T/err" &
		    echo $! >"$T/pid"; wait $!; echo $? >"$T/st") &
		i=0
		while [ ! -e "$T/small/r.json" ] && [ $i -lt 100 ]; do
			sleep 0.02; i=$((i + 1))
		done
		dd if=/dev/zero of="$T/small/fill" bs=4k count=16 \
		    2>/dev/null
		wait
		st=$(cat "$T/st")
		check "$cmd --json on a full file system: exit 1 (got $st)" \
		    $([ "$st" -eq 1 ]; echo $?)
		grep -q "\-\-json: $T/small/r.json: No space left on device" \
		    "$T/err"
		r=$?
		check "$cmd --json on a full file system: says so" $r
		[ $r -eq 0 ] || sed 's/^/#   /' "$T/err"
		check "$cmd --json on a full file system: the report is printed" \
		    $(grep -q "Machine\|K/sec" "$T/out"; echo $?)
	done
	umount "$T/small"
	T_MOUNTS=
else
	for i in 1 2 3 4 5 6; do
		skip "full file system for --json: needs root, tmpfs, libinject"
	done
fi

# compare --fail-on that names no column is a usage error.
F=tests/fixtures
for v in "" "," ",,"; do
	"$BONNIE" compare --fail-on "$v" $F/ng-base.json $F/ng-slower.json \
	    >"$T/out" 2>"$T/err"
	st=$?
	_r=0
	[ $st -eq 2 ] && grep -q "names no column" "$T/err" || _r=1
	check "compare --fail-on '$v': exit 2, names no column (got $st)" $_r
done
"$BONNIE" compare --fail-on write $F/ng-base.json $F/ng-slower.json \
    >"$T/out" 2>"$T/err"
st=$?
check "compare --fail-on write on a regression: still exit 1 (got $st)" \
    $([ $st -eq 1 ]; echo $?)

done_testing
